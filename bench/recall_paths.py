"""CPU time of recall with each read-path mechanism on and off (issue 4 / 6 tuning aid).

Usage::

    python bench/recall_paths.py [--size 10000] [--rounds 2]

Builds one scope of the scale benchmark's synthetic memories (``make_memories``, seed 7,
with source sessions and turns), then times ``recall_memories`` over its queries
(``make_queries``), split into the queries that name a day or a month (time anchor) and
the rest. Each variant runs after one warm-up pass. Prints CPU p50 / p95 ms per variant.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.bench.scale_data import NOW, make_memories, make_queries
from hermes_graph.embeddings.use import USEEmbeddings
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.policy.dates import query_windows

VARIANTS: dict[str, dict[str, float]] = {
    "default": {},
    "no reply carry": {"reply_carry": 0.0},
    "no time anchor": {"time_anchor_boost": 0.0},
    "neither": {"reply_carry": 0.0, "time_anchor_boost": 0.0},
}


def p95(values: Sequence[float]) -> float:
    return sorted(values)[int(0.95 * len(values))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        store = MemoryStore(Path(tmp) / "paths.db", embeddings=USEEmbeddings())
        items = make_memories(args.size, 7)
        for start in range(0, len(items), 1000):
            store.add_many("s", items[start:start + 1000])
        store.flush()
        queries = make_queries(150, 7)
        for query in queries:  # warm-up: caches, FAISS filters, term counts
            recall_memories(store, "s", query, now=NOW, config=MemoryConfig(), touch=False)
        for name, changes in VARIANTS.items():
            config = MemoryConfig(**changes)
            times: dict[str, list[float]] = {"dated": [], "other": []}
            for _ in range(args.rounds):
                for query in queries:
                    started = time.process_time()
                    recall_memories(store, "s", query, now=NOW, config=config, touch=False)
                    kind = "dated" if query_windows(query) else "other"
                    times[kind].append((time.process_time() - started) * 1000)
            every = times["dated"] + times["other"]
            print(f"{name:15s} all p50 {statistics.median(every):6.2f} p95 {p95(every):6.2f} | "
                  f"dated ({len(times['dated'])}) p50 {statistics.median(times['dated']):6.2f} | "
                  f"other p50 {statistics.median(times['other']):6.2f} "
                  f"p95 {p95(times['other']):6.2f} ms CPU", flush=True)
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
