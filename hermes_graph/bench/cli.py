"""``hermes-graph bench ...``: the benchmark commands (heavy imports happen on use)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hermes_graph.config import MemoryConfig
from hermes_graph.embeddings import EMBEDDER_NAMES, named_embeddings

LOCOMO_HELP = """\
Replay each LoCoMo conversation through the real memory graph into its own scope
(session dates as the clock, both speakers' turns as user messages), ask every
question of categories 1-4 through the real recall path one day after the last
session, and report Recall@k of the evidence turns per category and overall,
against BM25 over the raw turns, with injected tokens and recall latency.
--mode raw stores every turn as an episodic memory; --mode pipeline uses the
rule extractor and the gates (and reports how much evidence survives them)."""

SCALE_HELP = """\
Grow a store to each size through MemoryStore.add_many (real embedding), once with
every memory in one scope and once spread over --scopes scopes, and report write
throughput, hot-path recall+inject latency (query embedding included), store search
without the embedding against numpy brute force, open time, peak RSS and disk size."""


def _ks(text: str) -> tuple[int, ...]:
    try:
        ks = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected k values like 1,5,10,20, got {text!r}"
                                         ) from None
    if not ks or ks[0] < 1:
        raise argparse.ArgumentTypeError(f"k values must be positive integers, got {text!r}")
    return ks


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def parse_positions(text: str) -> list[int]:
    """``"0-4"`` or ``"0,2,5-9"`` -> the listed 0-based positions, sorted."""
    positions: set[int] = set()
    try:
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            first, _, last = part.partition("-")
            positions.update(range(int(first), int(last or first) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected positions like 0-4 or 0,2,5-9, "
                                         f"got {text!r}") from None
    if not positions:
        raise argparse.ArgumentTypeError(f"no positions in {text!r}")
    return sorted(positions)


def _sizes(text: str) -> list[int]:
    try:
        sizes = sorted({int(part.replace("_", "")) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected sizes like 1000,10000, got {text!r}") from None
    if not sizes or sizes[0] < 1:
        raise argparse.ArgumentTypeError(f"sizes must be positive integers, got {text!r}")
    return sizes


def cmd_bench_locomo(args: argparse.Namespace) -> int:
    from hermes_graph.bench.locomo import run_locomo, run_to_json
    from hermes_graph.bench.locomo_data import load_locomo
    from hermes_graph.bench.locomo_llm import NO_ENDPOINT_NOTE, judge_outcomes
    from hermes_graph.bench.report import locomo_markdown, write_locomo_report
    from hermes_graph.extract.llm import chat_model_from_env

    model = chat_model_from_env() if args.llm else None
    if args.llm and model is None:
        print(f"note: {NO_ENDPOINT_NOTE}", file=sys.stderr)
    data = load_locomo(args.data, limit_conversations=args.limit_conversations,
                       positions=args.conversations)
    run = run_locomo(data, mode=args.mode, ks=args.k, embeddings=named_embeddings(args.embedder),
                     db=args.db, recall_k=args.recall_k, progress=not args.quiet,
                     config=MemoryConfig().with_settings(args.set))
    result = run_to_json(run)
    if args.llm:
        result["extra"]["llm"] = {"skipped": NO_ENDPOINT_NOTE} if model is None else \
            judge_outcomes(model, run.outcomes, progress=not args.quiet)
    return _emit(args, result, write_locomo_report, locomo_markdown)


def _emit(args: argparse.Namespace, result: dict[str, Any],
          write: Callable[[Path, dict[str, Any]], list[Path]],
          markdown: Callable[[dict[str, Any]], str]) -> int:
    """Write the report files (--out), then print the JSON (--json) or the summary."""
    if args.out is not None:
        for path in write(args.out, result):
            print(f"wrote {path}", file=sys.stderr)
    print(json.dumps(result, ensure_ascii=False, indent=2) if args.json else markdown(result))
    return 0


def cmd_bench_scale(args: argparse.Namespace) -> int:
    import time

    from hermes_graph.bench.report import scale_markdown, write_scale_report
    from hermes_graph.bench.scale import run_scale

    started = time.perf_counter()
    embeddings = named_embeddings(args.embedder)
    result = run_scale(args.sizes, scopes=args.scopes, embeddings=embeddings,
                       queries=args.queries, rounds=args.rounds, batch=args.batch,
                       seed=args.seed, workdir=args.workdir, progress=not args.quiet,
                       embedder_load_s=time.perf_counter() - started,
                       rss_probe=args.embedder if args.rss == "fresh" else None)
    return _emit(args, result, write_scale_report, scale_markdown)


def add_bench_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``bench`` (with its ``locomo`` and ``scale`` sub-commands) on the main parser."""
    bench = subparsers.add_parser("bench", help="run a benchmark",
                                  description="Benchmarks through the real memory graph.")
    kinds = bench.add_subparsers(dest="bench_command", required=True)
    p = kinds.add_parser("locomo", help="LoCoMo evidence retrieval (Recall@k vs BM25)",
                         description=LOCOMO_HELP,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", required=True, type=Path,
                   help="path to locomo10.json (never shipped with the project)")
    p.add_argument("--mode", choices=("raw", "pipeline"), default="raw",
                   help="raw: every turn is a memory; pipeline: rule extractor + gates")
    p.add_argument("--k", type=_ks, default=(1, 5, 10, 20), metavar="K[,K...]",
                   help="cut-offs for Recall@k (default 1,5,10,20)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="write results.json, summary.md and recall_at_k.png here")
    p.add_argument("--limit-conversations", type=_positive, metavar="N",
                   help="only the first N conversations")
    p.add_argument("--conversations", type=parse_positions, metavar="SPEC",
                   help="only these positions of the file's list, 0-based, e.g. 0-4 or "
                   "0,2,5-9 (a dev or held-out split)")
    p.add_argument("--llm", action="store_true",
                   help="answer each question from the memory block with the configured "
                   "OpenAI-compatible model and judge it (skipped with a note if none)")
    p.add_argument("--embedder", choices=EMBEDDER_NAMES, default="use",
                   help="use: multilingual USE (default); e5: multilingual-e5-small (the e5 "
                        "extra); hashing: fast test embedder")
    p.add_argument("--db", type=Path, metavar="PATH",
                   help="keep the replayed store here (a new file) for `inspect`; "
                   "default: a temporary directory")
    p.add_argument("--recall-k", type=_positive, metavar="N",
                   help="recall_k of the recall config (recall searches 2N candidates); "
                   "default: ceil(max k / 2), the smallest that ranks max k")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="change a MemoryConfig field for both paths (repeatable), e.g. "
                   "--set keyword_context=0")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_bench_locomo)
    p = kinds.add_parser("scale", help="store scale: writes/s, hot-path latency, RSS, disk",
                         description=SCALE_HELP,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=_sizes, default=[1000, 10_000, 100_000], metavar="N[,N...]",
                   help="memory counts (default 1000,10000,100000)")
    p.add_argument("--scopes", type=_positive, default=100, metavar="N",
                   help="also spread each size over N scopes (default 100; 1: one scope only)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="write results.json, summary.md and latency.png here")
    p.add_argument("--embedder", choices=EMBEDDER_NAMES, default="use",
                   help="use: multilingual USE (default); e5: multilingual-e5-small (the e5 "
                        "extra); hashing: fast test embedder")
    p.add_argument("--queries", type=_positive, default=150, metavar="N",
                   help="distinct queries per latency run (default 150)")
    p.add_argument("--rounds", type=_positive, default=2, metavar="N",
                   help="passes over the queries (default 2)")
    p.add_argument("--batch", type=_positive, default=1000, metavar="N",
                   help="memories per add_many call (default 1000)")
    p.add_argument("--seed", type=int, default=7, help="synthetic data seed (default 7)")
    p.add_argument("--workdir", type=Path, metavar="DIR",
                   help="keep the benchmark stores here (default: a temporary directory)")
    p.add_argument("--rss", choices=("fresh", "self"), default="fresh",
                   help="fresh: peak RSS of a new process that opens the store and recalls "
                   "(default); self: this process's peak (no extra process)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_bench_scale)
