"""Scale benchmark (issue 4): writes, hot-path latency, open time, RSS and disk by size.

For each size N (ascending) and each scope setting, one SQLite store grows to N
memories through the public :class:`MemoryStore` API:

* ``1 scope`` -- all N memories in one scope;
* ``--scopes S`` -- the same N memories spread round-robin over S scopes (N/S
  each), to show that per-scope indexes keep the hot path flat.

What is measured (wall clock, with this process's CPU time alongside in ``extra``):

* **write_per_s** -- rows added for this size (from the previous size to N) divided
  by the summed wall time of their ``add_many`` calls (batches of ``--batch`` rows,
  grouped by scope). Each call includes validation, the real embedding of the
  batch by the store's embedder (``USEEmbeddings`` by default), the SQLite
  transaction, the FAISS update (the scope's index is loaded, as in a running
  agent) and the returned rows. The untimed part is building the items and one
  warm-up search per scope. IVF (re)training runs in the ``flush`` after the
  writes, as at a session end; ``extra`` reports its time (``flush_s``).
* **recall_inject_p50/p95_ms** -- the real hot path: ``recall_memories(...,
  touch=False)`` (every route: profile, FAISS + FTS5 query search, archive; no
  session topic, i.e. the first message of a session) followed by ``build_block``,
  with the query embedded by the store's embedder on every call (the store's own
  query-vector cache, if it keeps one, is emptied before each call: a new user
  message is never in it; ``extra`` counts the embeddings made per call).
  ``extra`` also holds the same path with the query vector precomputed (the store's
  embedder is wrapped by :class:`QueryVectors`, which answers ``embed_query`` for
  the benchmark queries from vectors computed up front) and the query embedding alone.
* **search_p95_ms_no_embed** -- ``store.search(scope, q, k=8, query_vector=v)``.
* **numpy_p95_ms** -- brute force over the same live vectors of the scope in the same
  run: ``matrix @ v`` and ``argpartition`` top-8 (one BLAS thread, like the store).
* **open_s** -- ``MemoryStore(path)`` with the embedder already loaded, plus the first
  search in the scope (``query_vector`` given), which loads its FAISS file lazily.
* **rss_mb** -- peak RSS of a fresh Python process that loads the embedder, opens the
  store, searches and runs ``PROBE_QUERIES`` hot-path recalls (what serving that store
  costs; ``--rss self`` reports this process's peak over the open and the latency
  runs instead, which also holds the synthetic data and the numpy baseline matrix).
* **disk_mb** -- the SQLite file (+ WAL/SHM) and the FAISS files after ``close``.

The variants of the latency runs alternate query by query, in a shuffled order, so
load from other processes on a shared machine hits them alike.
"""

from __future__ import annotations

import gc
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from numpy.typing import NDArray
from threadpoolctl import threadpool_limits
from tqdm import tqdm

from hermes_graph.bench.scale_data import (
    CATEGORY_WEIGHTS,
    NOW,
    STATUS_WEIGHTS,
    assign_frozen,
    make_memories,
    make_queries,
)
from hermes_graph.bench.scale_measure import (
    PROBE_QUERIES,
    SEARCH_K,
    QueryVectors,
    current_rss_mb,
    disk_usage_mb,
    forget_cached_queries,
    live_matrix,
    load_average,
    machine_info,
    numpy_top,
    peak_rss_mb,
    probe_main,
    reset_peak_rss,
    run_probe,
    source_digest,
    stats_ms,
    time_interleaved,
)
from hermes_graph.config import MemoryConfig
from hermes_graph.errors import HermesError
from hermes_graph.nodes.inject import build_block
from hermes_graph.nodes.recall import recall_memories, should_skip
from hermes_graph.policy.budget import approx_tokens
from hermes_graph.store import MemoryStore

FloatMatrix = NDArray[np.float32]

RESULT_KEYS = ("size", "scopes", "write_per_s", "recall_inject_p50_ms", "recall_inject_p95_ms",
               "search_p95_ms_no_embed", "numpy_p95_ms", "open_s", "rss_mb", "disk_mb")
"""The keys of each entry of ``results``, in order; diagnostics go to ``extra``."""
SAMPLED_SCOPES = 10
"""Latency runs rotate over at most this many scopes of a multi-scope store."""

RECALL_TARGETS_MS: Mapping[int, float] = {10_000: 20.0, 100_000: 60.0}
"""recall+inject p95 targets (default embedder included) by memories in the scope."""
SEARCH_TARGET = (100_000, 10.0)
"""store search p95 without the query embedding at this scope size, in ms."""
WRITE_TARGET_PER_S = 300.0



# --- the benchmark ---------------------------------------------------------------------------
@dataclass
class ScopeSetting:
    """One store file and how the memories are spread over its scopes."""

    label: str
    scopes: list[str]
    path: Path
    frozen: dict[str, int] = field(default_factory=dict)

    def scope_of(self, row: int) -> str:
        return self.scopes[row % len(self.scopes)]


@dataclass(frozen=True, kw_only=True)
class ScaleRun:
    """What every step shares: data, queries, the wrapped embedder and the options."""

    memories: list[dict[str, Any]]
    queries: list[str]
    query_vectors: dict[str, FloatMatrix]
    embeddings: QueryVectors
    config: MemoryConfig
    batch: int
    rounds: int
    seed: int
    progress: bool
    rss_probe: str | None
    """Embedder name for the fresh-process RSS probe; None: this process's peak."""


def fill(run: ScaleRun, setting: ScopeSetting, start: int, end: int) -> dict[str, Any]:
    """Add rows ``start..end`` through ``add_many`` (real embedding); time those calls."""
    by_scope: dict[str, list[dict[str, Any]]] = {}
    for row in range(start, end):
        by_scope.setdefault(setting.scope_of(row), []).append(run.memories[row])
    chunks: list[tuple[str, list[dict[str, Any]]]] = []
    for scope, items in by_scope.items():
        for lo in range(0, len(items), run.batch):
            frozen = setting.frozen.get(scope, 0)
            part, setting.frozen[scope] = assign_frozen(
                items[lo : lo + run.batch], frozen, seed=run.seed * 1_000_003 + start + lo,
                config=run.config)
            chunks.append((scope, part))
    warm_vector = run.query_vectors[run.queries[0]]
    wall = cpu = 0.0
    slowest = (0.0, 0)
    with MemoryStore(setting.path, embeddings=run.embeddings, config=run.config) as store:
        for scope in by_scope:  # a running agent has the scope's index loaded: load it
            store.search(scope, run.queries[0], k=1, query_vector=warm_vector)
        with tqdm(total=end - start, desc=f"{end:,} / {setting.label}: add_many", unit="mem",
                  file=sys.stderr, leave=False, disable=not run.progress) as bar:
            for scope, items in chunks:
                started, cpu_started = time.perf_counter(), time.process_time()
                store.add_many(scope, items)
                took = time.perf_counter() - started
                wall += took
                cpu += time.process_time() - cpu_started
                slowest = max(slowest, (took, len(items)))
                bar.update(len(items))
        # session-end maintenance: IVF (re)training happens here, not inside add_many
        flush_started = time.perf_counter()
        store.flush()
        flush_s = time.perf_counter() - flush_started
    rows = end - start
    return {"rows_added": rows, "scope_rows_before": start // len(setting.scopes),
            "add_many_calls": len(chunks), "seconds": round(wall, 3),
            "cpu_seconds": round(cpu, 3), "per_s": round(rows / wall, 1) if wall else 0.0,
            "per_cpu_s": round(rows / cpu, 1) if cpu else 0.0,
            "slowest_call_s": round(slowest[0], 3), "slowest_call_rows": slowest[1],
            "flush_s": round(flush_s, 3)}


def measure_latency(run: ScaleRun, setting: ScopeSetting, size: int) -> tuple[
        dict[str, Any], dict[str, Any]]:
    """Open the store, then time the hot path and its baselines; (result, diagnostics)."""
    sampled = setting.scopes[:SAMPLED_SCOPES]
    with MemoryStore(setting.path, embeddings=run.embeddings, config=run.config) as store:
        matrices = {scope: live_matrix(store, scope) for scope in sampled}
    gc.collect()
    peak_reset = reset_peak_rss()
    rss_before = current_rss_mb()
    queries, vectors, wrapper = run.queries, run.query_vectors, run.embeddings
    first = queries[0]
    started = time.perf_counter()
    store = MemoryStore(setting.path, embeddings=wrapper, config=run.config)
    constructed = time.perf_counter()
    store.search(sampled[0], first, k=SEARCH_K, query_vector=vectors[first])
    opened = time.perf_counter()
    try:
        for scope in sampled[1:]:  # load the other sampled scopes' indexes, untimed
            store.search(scope, first, k=SEARCH_K, query_vector=vectors[first])
        recalled: list[int] = []
        tokens: list[int] = []
        embedded: list[int] = []
        cache_found: list[bool] = []

        def scope_query(n: int) -> tuple[str, str]:
            return sampled[n % len(sampled)], queries[n % len(queries)]

        def hot_path(n: int) -> object:
            scope, query = scope_query(n)
            items = recall_memories(store, scope, query, now=NOW, config=run.config,
                                    touch=False)
            block = build_block(items, run.config, count=approx_tokens)
            recalled.append(len(items))
            tokens.append(block.tokens)
            return block

        def hot_path_embedding(n: int) -> object:
            before = wrapper.embedded_queries
            block = hot_path(n)
            embedded.append(wrapper.embedded_queries - before)
            return block

        def real_embedder() -> None:
            wrapper.precomputed = False
            cache_found.append(forget_cached_queries(store))

        def precomputed() -> None:
            wrapper.precomputed = True
            forget_cached_queries(store)

        def search(n: int) -> object:
            scope, query = scope_query(n)
            return store.search(scope, query, k=SEARCH_K, query_vector=vectors[query])

        def brute_force(n: int) -> object:
            scope, query = scope_query(n)
            return numpy_top(matrices[scope], vectors[query], SEARCH_K)

        def embed_only(n: int) -> object:
            return wrapper.inner.embed_query(scope_query(n)[1])

        load_before = load_average()
        misses_before = wrapper.misses
        # one BLAS thread: the store's query path uses none (USE limits itself to one),
        # and idle OpenBLAS workers of the numpy baseline would spin on the other core
        with threadpool_limits(limits=1, user_api="blas"):
            timings = time_interleaved({
                "recall_inject": (real_embedder, hot_path_embedding),
                "recall_inject_no_embed": (precomputed, hot_path),
                "search_no_embed": (precomputed, search),
                "numpy": (precomputed, brute_force),
                "query_embed_only": (precomputed, embed_only),
            }, len(queries), run.rounds, desc=f"{size:,} / {setting.label}: latency",
                progress=run.progress, seed=run.seed)
        wrapper.precomputed = False
        rss_peak = peak_rss_mb()
        rss_after = current_rss_mb()
        load_after = load_average()
        misses = wrapper.misses - misses_before
    finally:
        store.close()
    fresh = None if run.rss_probe is None else run_probe(setting.path, sampled, queries,
                                                          run.rss_probe)
    hot, search_t, brute = timings["recall_inject"], timings["search_no_embed"], timings["numpy"]
    per_scope = size // len(setting.scopes)
    result = {
        "size": size, "scopes": len(setting.scopes),
        "recall_inject_p50_ms": hot["p50"], "recall_inject_p95_ms": hot["p95"],
        "search_p95_ms_no_embed": search_t["p95"], "numpy_p95_ms": brute["p95"],
        "open_s": round(opened - started, 4),
        "rss_mb": rss_peak if fresh is None else fresh["peak_rss_mb"],
    }
    extra = {
        "memories_per_scope": per_scope,
        "vector_index": "IVF (approximate)" if per_scope >= run.config.ann_threshold
        else "flat (exact)",
        "latency_ms": timings,
        "search_over_numpy_p95": round(search_t["p95"] / brute["p95"], 2) if brute["p95"]
        else None,
        "recall_inject_no_embed_over_numpy_p95": round(
            timings["recall_inject_no_embed"]["p95"] / brute["p95"], 2) if brute["p95"] else None,
        "scopes_queried": len(sampled),
        "live_rows_per_queried_scope": round(float(np.mean([len(m) for m in
                                                            matrices.values()])), 1),
        "mean_recalled_items": round(float(np.mean(recalled)), 2) if recalled else 0.0,
        "mean_block_tokens": round(float(np.mean(tokens)), 1) if tokens else 0.0,
        "precomputed_query_misses": misses,
        "query_embeddings_per_call": round(float(np.mean(embedded)), 3) if embedded else 0.0,
        "store_query_cache_cleared": any(cache_found),
        "open": {"constructor_s": round(constructed - started, 4),
                 "first_search_s": round(opened - constructed, 4)},
        "rss": {"measured_in": "this process" if fresh is None else "a fresh process",
                "fresh_process": fresh,
                "this_process": {"peak_mb": rss_peak, "before_open_mb": rss_before,
                                 "after_runs_mb": rss_after, "peak_reset": peak_reset}},
        "load_avg_before": load_before, "load_avg_after": load_after,
    }
    return result, extra


def target_checks(results: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each issue-4 target that the measured sizes cover, with what was measured."""
    checks: list[dict[str, Any]] = []
    for r in results:
        per_scope = int(r["size"]) // int(r["scopes"])
        if per_scope in RECALL_TARGETS_MS:
            checks.append({"target": "recall_inject_p95_ms", "size": r["size"],
                           "scopes": r["scopes"], "limit": RECALL_TARGETS_MS[per_scope],
                           "measured": r["recall_inject_p95_ms"],
                           "met": r["recall_inject_p95_ms"] <= RECALL_TARGETS_MS[per_scope]})
        if per_scope == SEARCH_TARGET[0]:
            checks.append({"target": "search_p95_ms_no_embed", "size": r["size"],
                           "scopes": r["scopes"], "limit": SEARCH_TARGET[1],
                           "measured": r["search_p95_ms_no_embed"],
                           "met": r["search_p95_ms_no_embed"] <= SEARCH_TARGET[1]})
        checks.append({"target": "write_per_s (min)", "size": r["size"], "scopes": r["scopes"],
                       "limit": WRITE_TARGET_PER_S, "measured": r["write_per_s"],
                       "met": r["write_per_s"] >= WRITE_TARGET_PER_S})
    return checks


def run_scale(sizes: Sequence[int], *, scopes: int, embeddings: Embeddings,
              queries: int = 150, rounds: int = 2, batch: int = 1000, seed: int = 7,
              workdir: Path | None = None, progress: bool = True,
              embedder_load_s: float | None = None,
              rss_probe: str | None = None) -> dict[str, Any]:
    """Run every size for one scope and, when ``scopes`` > 1, for ``scopes`` scopes.

    ``rss_probe`` names the embedder (``use``, ``hashing``) a fresh process loads to
    measure ``rss_mb``; None measures this process instead.
    """
    sizes = sorted(set(sizes))
    if not sizes or sizes[0] < 1:
        raise HermesError(f"bench scale: sizes must be positive integers, got {sizes!r}")
    if scopes < 1 or scopes > sizes[0]:
        raise HermesError(f"bench scale: --scopes must be between 1 and the smallest size "
                          f"({sizes[0]}), got {scopes}")
    if min(queries, rounds, batch) < 1:
        raise HermesError("bench scale: --queries, --rounds and --batch must be positive")
    config = MemoryConfig()
    started = datetime.now(timezone.utc)
    load_start = load_average()
    wrapper = QueryVectors(embeddings)
    query_list = make_queries(queries, seed, keep=lambda q: not should_skip(q, config))
    query_vectors: dict[str, FloatMatrix] = {}
    embed_wall: list[float] = []
    embed_cpu: list[float] = []
    for query in query_list:
        wall, cpu = time.perf_counter_ns(), time.process_time_ns()
        raw = embeddings.embed_query(query)
        embed_wall.append((time.perf_counter_ns() - wall) / 1e6)
        embed_cpu.append((time.process_time_ns() - cpu) / 1e6)
        vector = np.asarray(raw, dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        query_vectors[query] = vector / np.float32(norm or 1.0)
        wrapper.vectors[query] = list(raw)
    run = ScaleRun(memories=make_memories(sizes[-1], seed), queries=query_list,
                   query_vectors=query_vectors, embeddings=wrapper, config=config,
                   batch=batch, rounds=rounds, seed=seed, progress=progress,
                   rss_probe=rss_probe)
    results: list[dict[str, Any]] = []
    per_result: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="hermes-scale-") as tmp:
        directory = Path(tmp) if workdir is None else workdir
        directory.mkdir(parents=True, exist_ok=True)
        settings = [ScopeSetting("1 scope", ["bench:scale:user-0"], directory / "single.db")]
        if scopes > 1:
            settings.append(ScopeSetting(
                f"{scopes} scopes", [f"bench:scale:user-{n:04d}" for n in range(scopes)],
                directory / f"multi-{scopes}.db"))
        for setting in settings:
            if setting.path.exists():
                raise HermesError(f"bench scale: {setting.path} exists; the benchmark "
                                  "writes fresh stores")
        previous = 0
        for size in sizes:
            for setting in settings:
                write = fill(run, setting, previous, size)
                disk = disk_usage_mb(setting.path)
                result, extra = measure_latency(run, setting, size)
                result.update(write_per_s=write["per_s"], disk_mb=disk["total_mb"])
                results.append({key: result[key] for key in RESULT_KEYS})
                per_result.append({"size": size, "scopes": len(setting.scopes), **extra,
                                   "write": write, "disk": disk})
                if progress:
                    tqdm.write(f"{size:,} memories / {setting.label}: add {write['per_s']}/s, "
                               f"recall+inject p95 {result['recall_inject_p95_ms']} ms, "
                               f"search p95 {result['search_p95_ms_no_embed']} ms (no embed), "
                               f"numpy p95 {result['numpy_p95_ms']} ms", file=sys.stderr)
            previous = size
    return {
        "sizes": list(sizes),
        "results": results,
        "extra": {
            "benchmark": "hermes-graph bench scale (issue 4)",
            "started": started.strftime("%Y-%m-%d %H:%M:%S UTC"),
            "finished": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
            "machine": machine_info(),
            "source_digest": source_digest(),
            "load_avg_start": load_start, "load_avg_end": load_average(),
            "embedder": {"id": wrapper.embedder_id, "dim": wrapper.dim,
                         "load_s": None if embedder_load_s is None else round(embedder_load_s,
                                                                             2)},
            "query_embed_ms": stats_ms(embed_wall, embed_cpu),
            "settings": {"queries": len(query_list), "rounds": rounds, "batch": batch,
                         "seed": seed, "search_k": SEARCH_K, "sampled_scopes": SAMPLED_SCOPES,
                         "ann_threshold": config.ann_threshold,
                         "frozen_pool_cap": config.frozen_pool_cap,
                         "rss": "this process" if rss_probe is None else
                         f"a fresh process ({rss_probe} embedder, {PROBE_QUERIES} recalls)",
                         "category_mix": dict(CATEGORY_WEIGHTS),
                         "status_mix": dict(STATUS_WEIGHTS), "clock": NOW.isoformat()},
            "per_result": per_result,
            "targets": target_checks(results),
        },
    }


if __name__ == "__main__":
    if sys.argv[1:] != ["--probe"]:
        sys.exit("usage: python -m hermes_graph.bench.scale --probe  (a JSON job on stdin); "
                 "run the benchmark with `hermes-graph bench scale`")
    sys.exit(probe_main())
