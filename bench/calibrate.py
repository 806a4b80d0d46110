"""Calibrate the read-path thresholds on a scenario file (seed 004 §4.2: on data, not by hand).

Each scenario is replayed once (optionally after N sessions of synthetic history);
at every probe, recall + inject runs under each candidate setting of the
thresholds (read-only: nothing is recorded as used), and the scenario metrics
are computed per setting. The best setting maximises hit rate minus false
recall rate, then uses fewer tokens.

    python bench/calibrate.py examples/scenarios.jsonl [--history 200] [--out FILE]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from tqdm import tqdm

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.embeddings import USEEmbeddings
from hermes_graph.eval.history import history_sessions
from hermes_graph.eval.runner import judge
from hermes_graph.eval.scenarios import load_scenarios
from hermes_graph.nodes.inject import build_block
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.policy.recall import current_instruction
from hermes_graph.replay import Replayer

GRID: dict[str, tuple[float, ...]] = {
    "similarity_floor": (0.10, 0.15, 0.20, 0.25, 0.30, 0.35),
    "inject_floor": (0.15, 0.20, 0.25, 0.30, 0.35),
}


def settings() -> list[dict[str, float]]:
    names = list(GRID)
    return [dict(zip(names, values, strict=True)) for values in itertools.product(*GRID.values())]


def calibrate(path: str, history: int) -> list[dict[str, Any]]:
    grid = settings()
    configs = [MemoryConfig().replace(**s) for s in grid]
    outcomes: dict[int, list[tuple[bool | None, bool | None, int]]] = defaultdict(list)
    embeddings = USEEmbeddings()
    scenarios = load_scenarios(path)
    for scenario in tqdm(scenarios, desc="calibrate", unit="scenario", file=sys.stderr):
        with MemoryStore(":memory:", embeddings=embeddings) as store:
            replayer = Replayer(store)
            for session in history_sessions(scenario, sessions=history) if history else []:
                replayer.replay(session)
            for session in scenario.sessions:
                replayer.replay(session)
                for probe in (p for p in scenario.probes if p.after == session.id):
                    for n, config in enumerate(configs):
                        recalled = recall_memories(store, probe.scope, probe.query, now=probe.at,
                                                   config=config, touch=False)
                        block = build_block(recalled, config, count=replayer.count,
                                            current_instruction=current_instruction(
                                                probe.query) is not None)
                        hit, false_recall, _, _ = judge(probe, block.text)
                        outcomes[n].append((hit, false_recall, block.tokens))
    rows = []
    for n, setting in enumerate(grid):
        hits = [h for h, _, _ in outcomes[n] if h is not None]
        falses = [f for _, f, _ in outcomes[n] if f is not None]
        tokens = [t for _, _, t in outcomes[n]]
        rows.append({**setting,
                     "recall_hit_rate": sum(hits) / len(hits) if hits else None,
                     "false_recall_rate": sum(falses) / len(falses) if falses else None,
                     "avg_injected_tokens": sum(tokens) / len(tokens) if tokens else 0.0})
    rows.sort(key=lambda r: (-(r["recall_hit_rate"] or 0) + (r["false_recall_rate"] or 0),
                             r["avg_injected_tokens"]))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--history", type=int, default=0,
                        help="sessions of synthetic history per scope first (long variant)")
    parser.add_argument("--out", help="write every setting's metrics as JSON here")
    args = parser.parse_args()
    rows = calibrate(args.file, args.history)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=2), encoding="utf-8")
    print(f"{'sim_floor':>10}{'inj_floor':>10}{'hit':>8}{'false':>8}{'tokens':>9}")
    for row in rows[:10]:
        print(f"{row['similarity_floor']:>10.2f}{row['inject_floor']:>10.2f}"
              f"{100 * (row['recall_hit_rate'] or 0):>8.1f}"
              f"{100 * (row['false_recall_rate'] or 0):>8.1f}{row['avg_injected_tokens']:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
