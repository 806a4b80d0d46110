"""The keyword index: SQLite FTS5 over per-scope tokens.

Every token is the term prefixed with a fixed-length key of its scope
(``<key><term>``), so a scope's terms are distinct tokens: a query walks only
its own scope's postings, and the vocabulary's document counts are per scope.
A scope column would make every query walk the whole scope's posting list.

Which terms a text yields (``policy.normalize.keyword_index_terms``) may change between
releases; the scheme that built a database's index is stored in ``store_meta``
and the index is rebuilt from the memories' content when it differs, so a
query's terms always match the stored ones.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Sequence

from hermes_graph.policy.normalize import (
    KEYWORD_SCHEME as TERM_SCHEME,
)
from hermes_graph.policy.normalize import (
    fts_match_expression,
    keyword_index_terms,
    keyword_query_terms,
)

KEYWORD_SCHEME = f"scoped-tokens-1/{TERM_SCHEME}"
"""Names how the stored tokens were made; a change rebuilds the index on open."""
MAX_QUERY_TERMS = 64
_REINDEX_BATCH = 2_000


def token_key(scope: str) -> str:
    """A fixed-length, token-safe key of a scope (16 hex digits of SHA-256)."""
    return "k" + hashlib.sha256(scope.encode("utf-8")).hexdigest()[:16]


def scoped_tokens(key: str, text: str) -> str:
    """The space-separated tokens stored for ``text`` in the scope with ``key``."""
    return " ".join(key + term for term in keyword_index_terms(text).split())


def index_memories(conn: sqlite3.Connection, rows: Iterable[tuple[int, str, str]]) -> None:
    """Add (id, scope, content) rows to the keyword index."""
    conn.executemany("INSERT INTO memory_terms (rowid, terms) VALUES (?, ?)",
                     [(memory_id, scoped_tokens(token_key(scope), content))
                      for memory_id, scope, content in rows])


def reindex_memory(conn: sqlite3.Connection, memory_id: int, scope: str, content: str) -> None:
    conn.execute("UPDATE memory_terms SET terms = ? WHERE rowid = ?",
                 (scoped_tokens(token_key(scope), content), memory_id))


def unindex_memories(conn: sqlite3.Connection, ids: Sequence[int]) -> None:
    conn.execute(f"DELETE FROM memory_terms WHERE rowid IN ({','.join('?' * len(ids))})",
                 list(ids))


def optimize(conn: sqlite3.Connection) -> None:
    """Merge the index's segments, so erased tokens leave the file (with VACUUM)."""
    conn.execute("INSERT INTO memory_terms (memory_terms) VALUES ('optimize')")


def _scheme_is_current(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT value FROM store_meta WHERE key = 'keyword_scheme'").fetchone()
    return row is not None and row[0] == KEYWORD_SCHEME


def ensure_scheme(conn: sqlite3.Connection) -> bool:
    """Rebuild the index if another scheme built it; True if it was rebuilt."""
    if _scheme_is_current(conn):  # the usual open: no write lock needed
        return False
    conn.execute("BEGIN IMMEDIATE")
    try:
        stale = not _scheme_is_current(conn)  # another process may have rebuilt it
        if stale:
            conn.execute("DELETE FROM memory_terms")
            cursor = conn.execute("SELECT id, scope, content FROM memories ORDER BY id")
            while batch := cursor.fetchmany(_REINDEX_BATCH):
                index_memories(conn, [(int(r[0]), str(r[1]), str(r[2])) for r in batch])
            conn.execute("INSERT INTO store_meta (key, value) VALUES ('keyword_scheme', ?) "
                         "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                         (KEYWORD_SCHEME,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return stale


class TermCounts:
    """Per-scope document counts of tokens, reused while the scope stays about the
    same size: they only decide which terms are too common to rank by, so a count
    a few writes old decides the same, and the look-up is a tenth of a search."""

    def __init__(self, *, drift: float = 0.01) -> None:
        self._drift = drift
        self._scopes: dict[str, tuple[int, dict[str, int]]] = {}

    def counts(self, conn: sqlite3.Connection, key: str, tokens: Sequence[str],
               scope_size: int) -> dict[str, int]:
        size_then, known = self._scopes.get(key, (scope_size, {}))
        if abs(scope_size - size_then) > self._drift * size_then:
            size_then, known = scope_size, {}
        missing = [t for t in dict.fromkeys(tokens) if t not in known]
        if missing:
            found = dict(conn.execute(
                "SELECT term, doc FROM memory_terms_vocab WHERE term IN "
                f"({','.join('?' * len(missing))})", missing))
            known.update({t: int(found.get(t, 0)) for t in missing})
        self._scopes[key] = (size_then, known)
        return {t: known[t] for t in tokens}

    def clear(self) -> None:
        self._scopes.clear()


def discriminating_terms(conn: sqlite3.Connection, key: str, terms: Sequence[str], *,
                         scope_size: int, max_ratio: float, floor: int,
                         cache: TermCounts | None = None) -> list[str]:
    """Drop terms found in more than ``max_ratio`` of the scope's memories (and in more
    than ``floor``): a term in every other memory ranks nothing, yet BM25 must score
    all of its rows."""
    limit = max(floor, int(max_ratio * scope_size))
    if scope_size <= limit:  # no term can be that common: skip the count look-up
        return list(terms)
    tokens = [key + t for t in terms]
    counts = (cache or TermCounts()).counts(conn, key, tokens, scope_size)
    # an unlisted term may still match once FTS5 folds its diacritics ("müller")
    return [t for t, token in zip(terms, tokens, strict=True) if counts[token] <= limit]


def keyword_hits(conn: sqlite3.Connection, scope: str, query: str, limit: int, *,
                 scope_size: int, max_ratio: float, floor: int,
                 cache: TermCounts | None = None) -> dict[int, float]:
    """FTS5 BM25 hits of one scope, as id -> positive score (higher is better).

    Status and kind are filtered with the rows themselves (a join here costs
    more than it saves); callers over-fetch to leave room for that.
    """
    key = token_key(scope)
    terms = keyword_query_terms(query)[:MAX_QUERY_TERMS]
    if terms:
        terms = discriminating_terms(conn, key, terms, scope_size=scope_size,
                                     max_ratio=max_ratio, floor=floor, cache=cache)
    if not terms:
        return {}
    sql = ("SELECT rowid, -bm25(memory_terms) AS score FROM memory_terms "
           "WHERE memory_terms MATCH ? ORDER BY score DESC LIMIT ?")
    match = fts_match_expression([key + t for t in terms])
    return {int(r[0]): float(r[1]) for r in conn.execute(sql, (match, limit))}
