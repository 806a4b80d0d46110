"""Time ``MemoryStore.search`` and its two routes on an existing store (issue 2).

Usage::

    python bench/profile_search.py STORE.db SCOPE [--ratio 0.02] [--queries 150] [--rounds 3]

Queries are the scale benchmark's (``make_queries``, seed 7); their USE vectors are
computed first, so the timings exclude the query embedding. Prints wall and CPU p50 / p95
ms of the whole search, the FAISS route and the keyword route. Keep a store with
``hermes-graph bench scale --workdir DIR``; work on a copy (opening migrates it).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Callable

import numpy as np

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.bench.scale_data import make_queries
from hermes_graph.embeddings.use import USEEmbeddings
from hermes_graph.nodes.recall import should_skip
from hermes_graph.store.keywords import keyword_hits
from hermes_graph.types import LIVE_STATUSES


def percentiles(fn: Callable[[str], object], queries: list[str], rounds: int) -> dict[str, float]:
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(rounds):
        for query in queries:
            c0, w0 = time.process_time(), time.perf_counter()
            fn(query)
            wall.append((time.perf_counter() - w0) * 1e3)
            cpu.append((time.process_time() - c0) * 1e3)

    def at(values: list[float], share: float) -> float:
        values = sorted(values)
        return round(values[int(share * (len(values) - 1))], 2)

    return {"p50": at(wall, 0.5), "p95": at(wall, 0.95), "cpu_p50": at(cpu, 0.5),
            "cpu_p95": at(cpu, 0.95)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db")
    parser.add_argument("scope")
    parser.add_argument("--ratio", type=float, default=MemoryConfig().keyword_max_df_ratio)
    parser.add_argument("--queries", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    config = dataclasses.replace(MemoryConfig(), keyword_max_df_ratio=args.ratio)
    embeddings = USEEmbeddings()
    queries = make_queries(args.queries, 7, keep=lambda q: not should_skip(q, config))
    vectors = {q: np.asarray(embeddings.embed_query(q), dtype=np.float32) for q in queries}
    started = time.perf_counter()
    store = MemoryStore(args.db, embeddings=embeddings, config=config)
    store.search(args.scope, queries[0], k=8, query_vector=vectors[queries[0]])
    print("open + first search s", round(time.perf_counter() - started, 3))
    print("search", percentiles(
        lambda q: store.search(args.scope, q, k=8, query_vector=vectors[q]), queries, args.rounds))
    index = store._indexes.get(args.scope, store.dim)  # the route alone, as search calls it
    pool = 8 * config.candidate_multiplier
    print("faiss route", percentiles(
        lambda q: index.search(vectors[q], pool, LIVE_STATUSES, None), queries, args.rounds))
    print("keyword route", percentiles(
        lambda q: keyword_hits(store._conn, args.scope, q, pool * config.keyword_overfetch,
                               scope_size=index.size, max_ratio=config.keyword_max_df_ratio,
                               floor=config.keyword_min_df_cut), queries, args.rounds))
    store.close()


if __name__ == "__main__":
    main()
