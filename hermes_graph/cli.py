"""The ``hermes-graph`` command line: replay, eval, inspect, forget, export, import.

Every command is a thin layer over the Python API; ``--help`` documents each.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings
from tqdm import tqdm

from hermes_graph.bench.cli import add_bench_parser
from hermes_graph.clock import parse_time
from hermes_graph.config import MemoryConfig
from hermes_graph.embeddings import EMBEDDER_NAMES, named_embeddings
from hermes_graph.errors import HermesError
from hermes_graph.eval.runner import evaluate
from hermes_graph.eval.scenarios import (
    Scenario,
    Session,
    detect_format,
    load_recorded,
    load_scenarios,
)
from hermes_graph.explain import explain, format_explanation
from hermes_graph.extract.base import Extractor
from hermes_graph.extract.learned import LearnedExtractor
from hermes_graph.extract.rules import RuleExtractor
from hermes_graph.extract.verbatim import VerbatimExtractor
from hermes_graph.language.cli import add_train_parser
from hermes_graph.replay import Replayer, TurnTrace
from hermes_graph.store import MemoryStore


def _store(args: argparse.Namespace, *, must_exist: bool = True) -> MemoryStore:
    if args.db is None:
        raise HermesError(f"{args.command}: --db PATH is required")
    if must_exist and not Path(args.db).exists():
        raise HermesError(f"{args.command}: no database at {args.db}")
    return MemoryStore(args.db, embeddings=named_embeddings(args.embedder))


def _print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def _print_trace(trace: TurnTrace) -> None:
    print(f"\n[{trace.scope} / {trace.session} @ {trace.at}] user: {trace.user}")
    for item in trace.recalled:
        parts = " ".join(f"{k}={v:.3f}" for k, v in item["breakdown"].items())
        print(f"  recalled m{item['id']} score={item['score']:.3f} ({parts}) "
              f"via {'+'.join(item['routes'])}: {item['content']}")
    if trace.memory_block:
        print(f"  injected ({trace.memory_tokens} tokens):")
        for line in trace.memory_block.splitlines():
            print(f"    | {line}")
    for decision in trace.decisions:
        content = decision["candidate"].get("content", "")
        targets = f" -> {decision['target_ids']}" if decision["target_ids"] else ""
        made = f" = m{decision['memory_id']}" if decision.get("memory_id") else ""
        print(f"  {decision['action']}{targets}{made} [{decision['reason']}]: {content}")
    if trace.reply:
        print(f"  assistant (recorded): {trace.reply}")


EXTRACTOR_NAMES = ("learned", "rule", "verbatim")


def make_extractor(name: str, config: MemoryConfig, embeddings: Embeddings) -> Extractor:
    """The extractor a command line names."""
    if name == "verbatim":
        return VerbatimExtractor(config)
    if name == "rule":
        return RuleExtractor(config)
    return LearnedExtractor(config, embeddings=embeddings)


def cmd_replay(args: argparse.Namespace) -> int:
    if detect_format(args.file) == "scenarios":
        sessions: list[Session] = [s for sc in load_scenarios(args.file) for s in sc.sessions]
    else:
        sessions = load_recorded(args.file)
    path = args.db or ":memory:"
    traces: list[dict[str, Any]] = []
    with MemoryStore(path, embeddings=named_embeddings(args.embedder)) as store:
        replayer = Replayer(store, extractor=make_extractor(args.extractor, store.config,
                                                            store.embeddings))
        for session in tqdm(sessions, desc="replay", unit="session", file=sys.stderr,
                            disable=args.json or len(sessions) < 2):
            replayer.replay(session, on_turn=(lambda t: traces.append(vars(t))) if args.json
                            else _print_trace)
    if args.json:
        _print_json(traces)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    scenarios = load_scenarios(args.file)
    bar: tqdm[Any] = tqdm(total=len(scenarios), desc="eval", unit="scenario", file=sys.stderr,
               disable=args.quiet)

    def advance(_: Scenario) -> None:
        bar.update(1)

    embeddings, config = named_embeddings(args.embedder), MemoryConfig()
    report = evaluate(scenarios, embeddings=embeddings, config=config,
                      extractor_factory=lambda: make_extractor(args.extractor, config, embeddings),
                      progress=advance, history_sessions=args.history)
    bar.close()
    result = report.to_json()
    if args.json:
        _print_json(result)
        return 0
    header = f"{'category':<18}{'probes':>7}{'hit':>8}{'false':>8}{'tokens':>8}{'p95 ms':>8}"
    print(header)
    rows = [*result["by_category"].items(), ("ALL", result)]
    for name, m in rows:
        hit = "-" if m["recall_hit_rate"] is None else f"{100 * m['recall_hit_rate']:.1f}"
        false = "-" if m["false_recall_rate"] is None else f"{100 * m['false_recall_rate']:.1f}"
        print(f"{name:<18}{m['probes']:>7}{hit:>8}{false:>8}{m['avg_injected_tokens']:>8.1f}"
              f"{m['p95_recall_ms']:>8.1f}")
    for outcome in report.outcomes:
        if outcome.hit is False or outcome.false_recall:
            print(f"FAIL {outcome.scenario}: {outcome.query} missing={list(outcome.missing)} "
                  f"violations={list(outcome.violations)}")
    return 0


def cmd_inspect(args: argparse.Namespace) -> int:
    with _store(args) as store:
        memories = store.list(args.scope)
        transitions = store.transitions(args.scope)
        if args.json:
            _print_json({"stats": store.stats(args.scope),
                         "memories": [json.loads(line) for line in store.export(args.scope)],
                         "transitions": transitions})
            return 0
        by_status: dict[str, list[Any]] = {}
        for memory in memories:
            by_status.setdefault(memory.status, []).append(memory)
        for status, group in sorted(by_status.items()):
            print(f"== {status} ({len(group)})")
            for m in group:
                print(f"  m{m.id} [{m.kind}/{m.category}] imp={m.importance} "
                      f"conf={m.confidence:.2f} seen={m.confirm_count}: {m.content}")
                for scores in m.source_ref.get("extraction", ()):  # why it was kept
                    print("      read as: " + ", ".join(f"{h} {v}" for h, v in scores.items()))
                for t in (t for t in transitions if t["memory_id"] == m.id):
                    print(f"      {t['at'][:19]} {t['from_status']} -> {t['to_status']} "
                          f"by {t['actor']}: {t['reason']}")
        rejected = [t for t in transitions if t["memory_id"] is None]
        if rejected:
            print(f"== rejected by the gate ({len(rejected)}; content is never kept)")
            for t in rejected:
                print(f"  {t['at'][:19]} session {t['session']}: {t['reason']}")
        return 0


def cmd_explain(args: argparse.Namespace) -> int:
    with _store(args) as store:
        now = parse_time(args.at, "--at") if args.at else None
        report = explain(store, args.scope, args.query, now=now)
    if args.json:
        _print_json(report)
    else:
        print(format_explanation(report))
    return 0


def cmd_forget(args: argparse.Namespace) -> int:
    with _store(args) as store:
        if args.all:
            count = store.purge_scope(args.scope)
        else:
            store.forget(args.scope, args.id)
            count = 1
    print(json.dumps({"forgotten": count}) if args.json else f"forgot {count} memories")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    with _store(args) as store:
        lines = [line + "\n" for line in store.export(args.scope)]
    if args.out:
        Path(args.out).write_text("".join(lines), encoding="utf-8")
    else:
        sys.stdout.writelines(lines)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    with open(args.file, encoding="utf-8") as handle:
        lines = handle.readlines()
    with _store(args, must_exist=False) as store:
        added = store.import_(args.scope, lines)
    print(json.dumps({"imported": len(added)}) if args.json else f"imported {len(added)}")
    return 0


def add_extractor_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--extractor", choices=EXTRACTOR_NAMES, default="learned",
                        help="learned: the trained extraction model (default); rule: the older "
                        "signal-phrase rules; verbatim: every user turn kept whole, importance "
                        "rated from what it tells")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hermes-graph",
        description="Long-term memory for LangGraph agents: replay, evaluate and inspect.")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", help="SQLite database path (FAISS files sit beside it)")
    common.add_argument("--json", action="store_true", help="print data as JSON")
    common.add_argument("--embedder", choices=EMBEDDER_NAMES, default="use",
                        help="use: multilingual USE (default, offline); e5: multilingual-e5-small "
                             "(offline, the e5 extra); hashing: a fast deterministic test "
                             "embedder")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", parents=[common], help="replay recorded conversations",
                       description="Replay a scenario file or JSON Lines of recorded messages "
                       '({"scope","session","role","content","at"}) through the memory graph; '
                       "recorded assistant turns are used as is (no model is called). Prints "
                       "a per-turn trace: recalled, injected, gate decisions.")
    p.add_argument("file")
    add_extractor_option(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("eval", parents=[common], help="evaluate a scenario file",
                       description="Run every scenario in a fresh store and report "
                       "recall_hit_rate, false_recall_rate, avg_injected_tokens, p50/p95 "
                       "recall ms, for the file and per category.")
    p.add_argument("file")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_extractor_option(p)
    p.add_argument("--history", type=int, default=0, metavar="N",
                   help="long-history variant: give every scope N earlier sessions of unrelated "
                   "history (task talk, chit-chat, harmless durable facts) first")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("inspect", parents=[common], help="memories of a scope by status",
                       description="List a scope's memories by status with their transitions.")
    p.add_argument("--scope", required=True)
    p.set_defaults(func=cmd_inspect)

    p = sub.add_parser("explain", parents=[common], help="why a query recalls what it does",
                       description="Show what would be recalled and injected for a query: "
                       "each memory's score breakdown, the route that found it, its tier, and "
                       "what the token budget dropped. Records no use.")
    p.add_argument("--scope", required=True)
    p.add_argument("--at", help="ISO-8601 time to recall at (default: now)")
    p.add_argument("query")
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("forget", parents=[common], help="erase memories physically",
                       description="Erase one memory (--id) or a whole scope (--all) from the "
                       "table, keyword index, vectors and history.")
    p.add_argument("--scope", required=True)
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--id", type=int)
    group.add_argument("--all", action="store_true")
    p.set_defaults(func=cmd_forget)

    p = sub.add_parser("export", parents=[common], help="export a scope as JSON Lines",
                       description="Write a scope's memories as JSON Lines (no vectors).")
    p.add_argument("--scope", required=True)
    p.add_argument("--out", help="file to write (default: standard output)")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", parents=[common], help="import JSON Lines into a scope",
                       description="Add memories from JSON Lines into a scope; a bad line "
                       "writes nothing.")
    p.add_argument("--scope", required=True)
    p.add_argument("file")
    p.set_defaults(func=cmd_import)

    add_bench_parser(sub)
    add_train_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except (HermesError, OSError) as exc:
        print(f"hermes-graph {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
