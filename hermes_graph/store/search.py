"""The store's two search routes and their fusion (keyword route over FTS5)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from hermes_graph.policy.normalize import fts_match_expression, query_terms
from hermes_graph.store.records import row_to_memory
from hermes_graph.types import ScoredMemory

MAX_QUERY_TERMS = 64


def keyword_hits(conn: sqlite3.Connection, scope_key: str, query: str, limit: int,
                 statuses: Sequence[str], kinds: Sequence[str] | None) -> dict[int, float]:
    """FTS5 BM25 hits of one scope, as id -> positive score (higher is better).

    The scope is a column of the FTS table, so the index itself narrows the
    search to the scope before ranking: no other scope's rows are scored.
    """
    terms = query_terms(query)[:MAX_QUERY_TERMS]
    if not terms:
        return {}
    match = f'scope_key : "{scope_key}" AND terms : ({fts_match_expression(terms)})'
    sql = (
        "SELECT f.rowid, -bm25(memory_fts, 0.0, 1.0) AS score FROM memory_fts f "
        "JOIN memories m ON m.id = f.rowid WHERE memory_fts MATCH ? "
        f"AND m.status IN ({','.join('?' * len(statuses))})"
    )
    params: list[object] = [match, *statuses]
    if kinds is not None:
        sql += f" AND m.kind IN ({','.join('?' * len(kinds))})"
        params.extend(kinds)
    sql += " ORDER BY score DESC LIMIT ?"
    params.append(limit)
    return {int(r[0]): float(r[1]) for r in conn.execute(sql, params)}


def fuse(vector_score: float, keyword_score: float, keyword_weight: float) -> float:
    """Weighted sum of cosine (clipped at 0) and a 0-1 keyword score."""
    return (1.0 - keyword_weight) * max(vector_score, 0.0) + keyword_weight * keyword_score


def score_hits(rows: Sequence[Mapping[str, object]], query_vector: NDArray[np.float32],
               vector_ids: set[int], keyword: Mapping[int, float], keyword_weight: float,
               k: int) -> list[ScoredMemory]:
    """Score every candidate on both routes and keep the best ``k``.

    BM25 is unbounded, so keyword scores are divided by the best one in this
    result set; cosine comes from the stored embedding, so a keyword-only hit
    still gets its true vector score.
    """
    best_keyword = max(keyword.values(), default=0.0)
    hits: list[ScoredMemory] = []
    for row in rows:
        memory = row_to_memory(row)
        blob = row["embedding"]
        cosine = float(np.frombuffer(blob, dtype=np.float32) @ query_vector) if isinstance(
            blob, bytes) else 0.0
        kw = keyword.get(memory.id, 0.0) / best_keyword if best_keyword > 0 else 0.0
        routes = tuple(route for route, hit in (("vector", memory.id in vector_ids),
                                                ("keyword", memory.id in keyword)) if hit)
        hits.append(ScoredMemory(
            memory=memory, score=fuse(cosine, kw, keyword_weight), vector_score=cosine,
            keyword_score=kw, breakdown={"vector": cosine, "keyword": kw}, routes=routes))
    hits.sort(key=lambda h: (-h.score, h.memory.id))
    return hits[:k]
