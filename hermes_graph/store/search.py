"""Fusion of the store's two search routes (the keyword route is ``store.keywords``)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from hermes_graph.store.records import row_to_memory
from hermes_graph.types import ScoredMemory


def fuse(vector_score: float, keyword_score: float, keyword_weight: float) -> float:
    """Weighted sum of cosine (clipped at 0) and a 0-1 keyword score."""
    return (1.0 - keyword_weight) * max(vector_score, 0.0) + keyword_weight * keyword_score


@dataclass(frozen=True)
class Ranked:
    """One fused candidate, before its row is read."""

    id: int
    score: float
    vector_score: float
    keyword_score: float
    routes: tuple[str, ...]


def rank_candidates(cosines: Mapping[int, float], vector_ids: Collection[int],
                    keyword: Mapping[int, float], keyword_weight: float,
                    k: int) -> list[Ranked]:
    """Fuse both routes' scores of every candidate and keep the best ``k``.

    ``cosines`` holds every candidate's true cosine (a keyword-only hit included).
    BM25 is unbounded, so keyword scores are divided by the best one found.
    """
    best_keyword = max(keyword.values(), default=0.0)
    ranked: list[Ranked] = []
    for memory_id, cosine in cosines.items():
        kw = keyword.get(memory_id, 0.0) / best_keyword if best_keyword > 0 else 0.0
        routes = tuple(route for route, hit in (("vector", memory_id in vector_ids),
                                                ("keyword", memory_id in keyword)) if hit)
        ranked.append(Ranked(id=memory_id, score=fuse(cosine, kw, keyword_weight),
                             vector_score=cosine, keyword_score=kw, routes=routes))
    ranked.sort(key=lambda r: (-r.score, r.id))
    return ranked[:k]


def keyword_only_worth_reading(vector_hits: Mapping[int, float], keyword: Mapping[int, float],
                               keyword_weight: float, k: int, *, pool_full: bool) -> list[int]:
    """Keyword-only candidates that could still reach the top ``k``, best keyword first.

    A candidate the vector route did not return has a cosine no higher than the
    lowest one it did return (when its pool was full), so its fused score has a
    ceiling; below the k-th best score already known it cannot rank, and its
    stored vector is not read. Exact on a flat index; on IVF, as exact as the
    vector route itself.
    """
    best_keyword = max(keyword.values(), default=0.0)
    extra = sorted((i for i in keyword if i not in vector_hits), key=lambda i: -keyword[i])
    if best_keyword <= 0 or not extra:
        return extra
    known = sorted((fuse(cosine, keyword.get(i, 0.0) / best_keyword, keyword_weight)
                    for i, cosine in vector_hits.items()), reverse=True)
    if len(known) < k or not pool_full:
        return extra
    threshold, ceiling = known[k - 1], min(vector_hits.values())
    worth: list[int] = []
    for memory_id in extra:
        if fuse(ceiling, keyword[memory_id] / best_keyword, keyword_weight) < threshold:
            break  # the rest have lower keyword scores: lower ceilings
        worth.append(memory_id)
    return worth


def blob_cosines(rows: Iterable[Sequence[Any]],
                 query_vector: NDArray[np.float32]) -> dict[int, float]:
    """Cosines of (id, embedding blob) rows against the normalised query vector."""
    return {int(row[0]): float(np.frombuffer(row[1], dtype=np.float32) @ query_vector)
            for row in rows if isinstance(row[1], bytes)}


def top_cosines(rows: Sequence[Sequence[Any]], query_vector: NDArray[np.float32],
                k: int) -> list[Ranked]:
    """The ``k`` (id, embedding blob) rows nearest the query by exact cosine, best first
    (one matrix product: a time window holds hundreds of rows)."""
    if not rows:
        return []
    ids = np.fromiter((int(r[0]) for r in rows), dtype=np.int64, count=len(rows))
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(
        len(rows), -1)
    cosines = matrix @ query_vector
    best = np.argpartition(-cosines, k - 1)[:k] if len(rows) > k else np.arange(len(rows))
    order = sorted(best, key=lambda i: (-float(cosines[i]), int(ids[i])))
    return [Ranked(id=int(ids[i]), score=float(cosines[i]), vector_score=float(cosines[i]),
                   keyword_score=0.0, routes=("vector",)) for i in order]


def scored_memories(ranked: Sequence[Ranked],
                    rows: Iterable[Mapping[str, Any]]) -> list[ScoredMemory]:
    """The ranked candidates whose rows were read, in rank order."""
    by_id = {int(row["id"]): row for row in rows}
    return [ScoredMemory(memory=row_to_memory(by_id[r.id]), score=r.score,
                         vector_score=r.vector_score, keyword_score=r.keyword_score,
                         breakdown={"vector": r.vector_score, "keyword": r.keyword_score},
                         routes=r.routes)
            for r in ranked if r.id in by_id]
