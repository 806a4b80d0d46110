"""The store's two search routes and their fusion (keyword route over FTS5)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from hermes_graph.policy.normalize import fts_match_expression, keyword_query_terms
from hermes_graph.store.records import row_to_memory
from hermes_graph.types import ScoredMemory

MAX_QUERY_TERMS = 64


def discriminating_terms(conn: sqlite3.Connection, terms: Sequence[str], *,
                         max_ratio: float, floor: int) -> list[str]:
    """Drop terms found in more than ``max_ratio`` of all memories (and ``floor``): a
    term in every other memory ranks nothing, yet BM25 must score all of its rows."""
    marks = ",".join("?" * len(terms))
    counts = dict(conn.execute(
        f"SELECT term, doc FROM memory_fts_vocab WHERE term IN ({marks})", list(terms)))
    total = int(conn.execute("SELECT COUNT(*) FROM memories").fetchone()[0])
    limit = max(floor, int(max_ratio * total))
    # an unlisted term may still match once FTS5 folds its diacritics ("müller")
    return [t for t in terms if counts.get(t, 0) <= limit]


def keyword_hits(conn: sqlite3.Connection, scope_key: str, query: str, limit: int, *,
                 max_ratio: float, floor: int) -> dict[int, float]:
    """FTS5 BM25 hits of one scope, as id -> positive score (higher is better).

    The scope is a column of the FTS table, so the index itself narrows the
    search to the scope before ranking: no other scope's rows are scored. Status
    and kind are filtered with the rows themselves (a join here costs more than
    it saves); the route over-fetches to leave room for that.
    """
    terms = keyword_query_terms(query)[:MAX_QUERY_TERMS]
    terms = discriminating_terms(conn, terms, max_ratio=max_ratio, floor=floor) if terms else []
    if not terms:
        return {}
    match = f'scope_key : "{scope_key}" AND terms : ({fts_match_expression(terms)})'
    sql = ("SELECT rowid, -bm25(memory_fts, 0.0, 1.0) AS score FROM memory_fts "
           "WHERE memory_fts MATCH ? ORDER BY score DESC LIMIT ?")
    return {int(r[0]): float(r[1]) for r in conn.execute(sql, (match, limit))}


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
    scored: list[tuple[float, int, float, float, Mapping[str, object]]] = []
    for row in rows:
        memory_id = int(row["id"])  # type: ignore[call-overload]
        blob = row["embedding"]
        cosine = float(np.frombuffer(blob, dtype=np.float32) @ query_vector) if isinstance(
            blob, bytes) else 0.0
        kw = keyword.get(memory_id, 0.0) / best_keyword if best_keyword > 0 else 0.0
        scored.append((fuse(cosine, kw, keyword_weight), memory_id, cosine, kw, row))
    scored.sort(key=lambda s: (-s[0], s[1]))
    hits: list[ScoredMemory] = []
    for score, memory_id, cosine, kw, row in scored[:k]:  # build Memory objects for k only
        routes = tuple(route for route, hit in (("vector", memory_id in vector_ids),
                                                ("keyword", memory_id in keyword)) if hit)
        hits.append(ScoredMemory(
            memory=row_to_memory(row), score=score, vector_score=cosine, keyword_score=kw,
            breakdown={"vector": cosine, "keyword": kw}, routes=routes))
    return hits
