"""Measuring helpers of the scale benchmark: timing, RSS, disk, baselines, the probe.

Split from :mod:`hermes_graph.bench.scale`, which runs the benchmark; the fresh-process
RSS probe is still started as ``python -m hermes_graph.bench.scale --probe``.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from numpy.typing import NDArray
from tqdm import tqdm

from hermes_graph.bench.scale_data import (
    NOW,
)
from hermes_graph.config import MemoryConfig
from hermes_graph.embeddings import named_embeddings
from hermes_graph.embeddings.base import embedder_identity
from hermes_graph.errors import HermesError
from hermes_graph.nodes.inject import build_block
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.policy.budget import approx_tokens
from hermes_graph.store import MemoryStore
from hermes_graph.types import LIVE_STATUSES

FloatMatrix = NDArray[np.float32]

SEARCH_K = 8
WARMUP_QUERIES = 5
PROBE_QUERIES = 50
"""Hot-path recalls run by the fresh process that measures peak RSS."""
VECTOR_CHUNK = 5000
"""Ids per ``store.vectors`` call (SQLite limits the number of bound parameters)."""


class QueryVectors(Embeddings):
    """The store's embedder, able to answer ``embed_query`` from precomputed vectors.

    Documents always go to the wrapped embedder. With ``precomputed`` on, a query in
    ``vectors`` is answered from there (what the wrapped embedder returned for it);
    any other query still goes to the wrapped embedder and is counted in ``misses``.
    Same ``embedder_id`` and ``dim``, so the store sees one embedder.
    """

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.embedder_id = embedder_identity(inner)
        self.dim: int | None = getattr(inner, "dim", None)
        self.vectors: dict[str, list[float]] = {}
        self.precomputed = False
        self.misses = 0
        self.embedded_queries = 0
        """Queries that went to the wrapped embedder."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        if self.precomputed:
            vector = self.vectors.get(text)
            if vector is not None:
                return vector
            self.misses += 1
        self.embedded_queries += 1
        return self.inner.embed_query(text)


def forget_cached_queries(store: MemoryStore) -> bool:
    """Empty the store's query-vector cache if it keeps one; False if none was found.

    A new user message is never in that cache, so the hot path is timed on a miss.
    The store has no public call for this: the cache is found by duck typing, and
    the benchmark also counts the embeddings actually made (``query_embeddings_per_call``).
    """
    cache = getattr(getattr(store, "_vectors", None), "_query", None)
    if isinstance(cache, dict):
        cache.clear()
        return True
    return False


def source_digest() -> str:
    """A short hash of the hermes_graph sources measured (the tree may be uncommitted)."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


# --- measuring helpers ----------------------------------------------------------------------
def stats_ms(wall_ms: Sequence[float], cpu_ms: Sequence[float]) -> dict[str, float]:
    """p50 / p95 / mean of wall-clock samples, and p50 / p95 of their CPU time."""
    wall = np.asarray(wall_ms, dtype=np.float64)
    cpu = np.asarray(cpu_ms, dtype=np.float64)
    p50, p95 = np.percentile(wall, [50, 95])
    c50, c95 = np.percentile(cpu, [50, 95])
    return {"p50": round(float(p50), 3), "p95": round(float(p95), 3),
            "mean": round(float(wall.mean()), 3), "cpu_p50": round(float(c50), 3),
            "cpu_p95": round(float(c95), 3), "samples": int(wall.size)}


Variant = tuple[Callable[[], None], Callable[[int], object]]
"""(setup, call): setup runs untimed before each timed ``call(query number)``."""


def time_interleaved(variants: Mapping[str, Variant], count: int, rounds: int, *, desc: str,
                     progress: bool, seed: int = 0) -> dict[str, dict[str, float]]:
    """Wall and CPU ms per variant. Every query number runs all variants, in a shuffled
    order, so load from other processes and cache warmth hit them alike."""
    for setup, call in variants.values():
        for n in range(min(WARMUP_QUERIES, count)):
            setup()
            call(n)
    wall: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    rng = random.Random(seed)
    work = [n for _ in range(rounds) for n in range(count)]
    for n in tqdm(work, desc=desc, unit="query", file=sys.stderr, leave=False,
                  disable=not progress):
        rng.shuffle(names)
        for name in names:
            setup, call = variants[name]
            setup()
            start, cpu_start = time.perf_counter_ns(), time.process_time_ns()
            call(n)
            wall[name].append((time.perf_counter_ns() - start) / 1e6)
            cpu[name].append((time.process_time_ns() - cpu_start) / 1e6)
    return {name: stats_ms(wall[name], cpu[name]) for name in variants}


def _proc_status_mb(field_name: str) -> float | None:
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith(f"{field_name}:"):
                return int(line.split()[1]) / 1024  # kB
    except (OSError, ValueError, IndexError):
        pass
    return None


def reset_peak_rss() -> bool:
    """Reset the kernel's peak-RSS mark of this process (Linux); False where unsupported."""
    try:
        Path("/proc/self/clear_refs").write_text("5", encoding="ascii")
    except OSError:
        return False
    return True


def peak_rss_mb() -> float:
    """Peak RSS since the last reset (VmHWM), else since start (``ru_maxrss``)."""
    peak = _proc_status_mb("VmHWM")
    if peak is None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return round(peak, 1)


def current_rss_mb() -> float:
    try:
        import psutil

        return round(float(psutil.Process().memory_info().rss) / 2**20, 1)
    except ImportError:
        now = _proc_status_mb("VmRSS")
        return round(now, 1) if now is not None else peak_rss_mb()


def disk_usage_mb(db: Path) -> dict[str, float]:
    """The SQLite file with its WAL/SHM, and the scope index files beside it."""
    sqlite = sum(p.stat().st_size for p in (db, db.with_name(db.name + "-wal"),
                                            db.with_name(db.name + "-shm")) if p.exists())
    index_dir = db.with_name(db.name + ".faiss")
    faiss = sum(p.stat().st_size for p in index_dir.glob("*") if p.is_file()) if (
        index_dir.is_dir()) else 0
    return {"sqlite_mb": round(sqlite / 2**20, 3), "faiss_mb": round(faiss / 2**20, 3),
            "total_mb": round((sqlite + faiss) / 2**20, 3)}


def load_average() -> list[float]:
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except OSError:
        return []


def numpy_top(matrix: FloatMatrix, query: FloatMatrix, k: int) -> NDArray[np.intp]:
    """Brute force: rows of the ``k`` best inner products, best first."""
    scores = matrix @ query
    k = min(k, len(scores))
    if k == 0:
        return np.zeros(0, dtype=np.intp)
    top = np.argpartition(-scores, k - 1)[:k]
    order: NDArray[np.intp] = top[np.argsort(-scores[top])]
    return order


def live_matrix(store: MemoryStore, scope: str) -> FloatMatrix:
    """The stored (normalised) vectors of the scope's live rows, read via the public API."""
    ids = [m.id for m in store.list(scope, statuses=LIVE_STATUSES)]
    vectors: dict[int, FloatMatrix] = {}
    for start in range(0, len(ids), VECTOR_CHUNK):
        vectors.update(store.vectors(scope, ids[start : start + VECTOR_CHUNK]))
    if not ids:
        return np.zeros((0, store.dim), dtype=np.float32)
    return np.ascontiguousarray(np.vstack([vectors[i] for i in ids]), dtype=np.float32)


def machine_info() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "platform": platform.platform(), "numpy": np.__version__}


# --- the fresh-process RSS probe --------------------------------------------------------------
def probe(job: Mapping[str, Any]) -> dict[str, float]:
    """In this (fresh) process: load the embedder, open the store, search, run the hot
    path over ``job["queries"]`` rotating over ``job["scopes"]``; report RSS and times."""
    started = time.perf_counter()
    embeddings = named_embeddings(str(job["embedder"]))  # the probe process builds its own
    loaded = time.perf_counter()
    scopes, queries = list(job["scopes"]), list(job["queries"])
    config = MemoryConfig()
    with MemoryStore(Path(job["db"]), embeddings=embeddings, config=config) as store:
        store.search(scopes[0], queries[0], k=SEARCH_K)
        opened = time.perf_counter()
        for n, query in enumerate(queries):
            items = recall_memories(store, scopes[n % len(scopes)], query, now=NOW,
                                    config=config, touch=False)
            build_block(items, config, count=approx_tokens)
        return {"peak_rss_mb": peak_rss_mb(), "rss_mb": current_rss_mb(),
                "embedder_load_s": round(loaded - started, 3),
                "open_s": round(opened - loaded, 4), "recalls": len(queries)}


def probe_main(stdin: Any = None, stdout: Any = None) -> int:
    """``python -m hermes_graph.bench.scale --probe``: a JSON job on stdin, one JSON
    line of results on stdout."""
    job = json.loads((stdin or sys.stdin).read())
    print(json.dumps(probe(job)), file=stdout or sys.stdout)
    return 0


def run_probe(db: Path, scopes: Sequence[str], queries: Sequence[str],
              embedder: str) -> dict[str, float]:
    job = {"db": str(db), "scopes": list(scopes), "queries": list(queries)[:PROBE_QUERIES],
           "embedder": embedder}
    done = subprocess.run([sys.executable, "-m", "hermes_graph.bench.scale", "--probe"],
                          input=json.dumps(job), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise HermesError(f"bench scale: the RSS probe process failed: "
                          f"{done.stderr.strip().splitlines()[-1:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result
