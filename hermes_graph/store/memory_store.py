"""MemoryStore: SQLite (source of truth, via sqlite-utils) + per-scope FAISS + FTS5.

Every method names a scope; there is no default scope. The class is assembled
from its parts: ``store.core`` (transactions), ``store.writes``, ``store.erasure``;
the reads live here.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any

import numpy as np
from numpy.typing import NDArray

from hermes_graph.clock import to_db
from hermes_graph.errors import (
    EmbedderMismatchError,
    InvalidInputError,
    StoreClosedError,
)
from hermes_graph.policy.normalize import normalize_key
from hermes_graph.store import portable
from hermes_graph.store import records as rec
from hermes_graph.store import search as search_route
from hermes_graph.store.erasure import StoreErasure
from hermes_graph.store.keywords import keyword_hits
from hermes_graph.store.writes import StoreWrites
from hermes_graph.types import LIVE_STATUSES, Memory, ScoredMemory, Status

SOURCE_SESSION = "json_extract(source_ref, '$.session')"
SOURCE_TURN = "json_extract(source_ref, '$.turn')"


class MemoryStore(StoreWrites, StoreErasure):
    """Long-term memory of many scopes in one SQLite file plus FAISS index files."""

    def get(self, scope: str, memory_id: int) -> Memory:
        return self._fetch(self._scope(scope, "get"), memory_id, "get")

    def list(self, scope: str, *, statuses: Sequence[Status] | None = None,
             kinds: Sequence[str] | None = None, categories: Sequence[str] | None = None,
             limit: int | None = None, min_importance: int | None = None,
             most_important_first: bool = False, slots: Sequence[str] | None = None,
             subjects: Sequence[str] | None = None,
             said_between: tuple[datetime, datetime] | None = None) -> builtins.list[Memory]:
        """Memories of a scope, oldest first (or most important, newest first), filtered.
        ``said_between=(start, end)``: created at or after ``start`` and before ``end``,
        in the order they were said."""
        scope = self._scope(scope, "list")
        where, params = self._where(scope, statuses=statuses, kinds=kinds,
                                    categories=categories, slots=slots, subjects=subjects,
                                    said_between=said_between)
        if min_importance is not None:
            where.append("importance >= ?")
            params.append(rec.check_importance(min_importance))
        table = "memories"
        if said_between is not None:
            table += " INDEXED BY idx_memories_scope_created"  # a window is a small range
        order = "importance DESC, id DESC" if most_important_first else \
            "created_at, id" if said_between is not None else "id"  # index order: no sort
        sql = f"SELECT {rec.COLUMNS} FROM {table} WHERE {' AND '.join(where)} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {rec.check_limit(limit)}"
        with self._lock:
            return [rec.row_to_memory(r) for r in self._conn.execute(sql, params)]

    def count(self, scope: str, *, statuses: Sequence[Status] | None = None) -> int:
        """How many memories a scope holds (in some statuses)."""
        scope = self._scope(scope, "count")
        where, params = self._where(scope, statuses=statuses)
        with self._lock:
            row = self._conn.execute(
                f"SELECT COUNT(*) FROM memories WHERE {' AND '.join(where)}", params).fetchone()
        return int(row[0])

    @staticmethod
    def _where(scope: str, *, statuses: Sequence[Status] | None = None,
               kinds: Sequence[str] | None = None, categories: Sequence[str] | None = None,
               slots: Sequence[str] | None = None, subjects: Sequence[str] | None = None,
               said_between: tuple[datetime, datetime] | None = None,
               ) -> tuple[builtins.list[str], builtins.list[object]]:
        """SQL filters of a scope, checked; filtering happens in SQL, before any ranking.
        ``said_between``: created in [start, end) (idx_memories_scope_created serves it)."""
        where: builtins.list[str] = ["scope = ?"]
        params: builtins.list[object] = [scope]
        for column, values in (("status", rec.check_statuses(statuses) if statuses else None),
                               ("kind", rec.check_kinds(kinds)),
                               ("category", rec.check_categories(categories)),
                               ("slot", rec.check_names(slots, "slots")),
                               ("subject", rec.check_names(subjects, "subjects"))):
            if values:
                where.append(f"{column} IN ({','.join('?' * len(values))})")
                params.extend(values)
        if said_between is not None:
            start, end = rec.check_window(said_between, "said_between")
            where += ["created_at >= ?", "created_at < ?"]
            params += [to_db(start), to_db(end)]
        return where, params

    def follow_ups(self, scope: str, memories: Sequence[Memory], *, turns: int,
                   kinds: Sequence[str] | None = None, turns_before: int = 0,
                   statuses: Sequence[Status] = LIVE_STATUSES,
                   ) -> dict[int, builtins.list[tuple[int, Memory]]]:
        """Memories said in the ``turns`` turns after each given memory, in the same source
        session: {given id: [(turns after it, memory), ...]} (reply carry, policy.conversation).
        With ``turns_before`` the turns before it come too, at negative steps.
        Memories without a source session and turn have none."""
        scope = self._scope(scope, "follow_ups")
        for name, value in (("turns", turns), ("turns_before", turns_before)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidInputError(
                    f"follow_ups: {name} must be an integer >= 0, got {value!r}")
        wanted: dict[tuple[str, int], builtins.list[tuple[int, int]]] = {}
        for memory in memories:
            session, turn = memory.source_ref.get("session"), memory.source_ref.get("turn")
            if not isinstance(session, str) or isinstance(turn, bool) or not isinstance(turn, int):
                continue
            for step in [*range(-turns_before, 0), *range(1, turns + 1)]:
                wanted.setdefault((session, turn + step), []).append((memory.id, step))
        if not wanted:
            return {}
        where, params = self._where(scope, statuses=statuses, kinds=kinds)
        by_session: dict[str, builtins.list[int]] = {}
        for session, turn in wanted:
            by_session.setdefault(session, []).append(turn)
        found: dict[int, builtins.list[tuple[int, Memory]]] = {}
        with self._lock:
            for session, session_turns in by_session.items():
                # the expressions of idx_memories_scope_source_turn (migration v7)
                rows = self._conn.execute(
                    f"SELECT {rec.COLUMNS} FROM memories INDEXED BY "
                    f"idx_memories_scope_source_turn WHERE {' AND '.join(where)} "
                    f"AND {SOURCE_SESSION} = ? AND {SOURCE_TURN} IN "
                    f"({','.join('?' * len(session_turns))}) ORDER BY id",
                    [*params, session, *session_turns]).fetchall()
                for row in rows:
                    follower = rec.row_to_memory(row)
                    turn = follower.source_ref["turn"]
                    for given, step in wanted[(session, int(turn))]:
                        if given != follower.id:
                            found.setdefault(given, []).append((step, follower))
        return found

    def find_exact(self, scope: str, content: str, *,
                   statuses: Sequence[Status] = LIVE_STATUSES) -> builtins.list[Memory]:
        """Memories whose normalised content equals ``content``'s (exact dedup)."""
        scope = self._scope(scope, "find_exact")
        statuses = rec.check_statuses(statuses)
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {rec.COLUMNS} FROM memories WHERE scope = ? AND norm_key = ? AND "
                f"status IN ({','.join('?' * len(statuses))}) ORDER BY id",
                [scope, normalize_key(content), *statuses]).fetchall()
        return [rec.row_to_memory(r) for r in rows]

    def embed_query(self, query: str) -> NDArray[np.float32]:
        """The normalised query vector (pass it to ``search`` to embed only once)."""
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError(f"embed_query: query must be a non-empty string, got {query!r}")
        return self._vectors.query(query)

    def embed_document(self, text: str) -> NDArray[np.float32]:
        """The vector ``add`` stores for ``text`` (cached: adding it later costs nothing).
        Compare stored memories with a new one document-to-document (dedup)."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidInputError(
                f"embed_document: text must be a non-empty string, got {text!r}")
        vector: NDArray[np.float32] = self._vectors.documents([text.strip()])[0]
        return vector

    def vectors(self, scope: str, ids: Sequence[int]) -> dict[int, NDArray[np.float32]]:
        """Stored embeddings of some memories of a scope (for exact re-scoring)."""
        scope = self._scope(scope, "vectors")
        if not ids:
            return {}
        with self._lock:
            rows = self._conn.execute(
                # "+scope": look rows up by primary key, then check the scope
                f"SELECT id, embedding FROM memories WHERE +scope = ? AND id IN "
                f"({','.join('?' * len(ids))}) AND embedding IS NOT NULL",
                [scope, *[int(i) for i in ids]]).fetchall()
        return {int(r[0]): np.frombuffer(r[1], dtype=np.float32) for r in rows}

    def search(self, scope: str, query: str, *, k: int = 8, kinds: Sequence[str] | None = None,
               statuses: Sequence[Status] = LIVE_STATUSES,
               query_vector: NDArray[np.float32] | None = None,
               said_between: tuple[datetime, datetime] | None = None,
               ) -> builtins.list[ScoredMemory]:
        """Hybrid search in one scope: FAISS vector route + FTS5 keyword route, fused.

        ``said_between=(start, end)`` searches only what was said in that window, by exact
        cosine over the stored vectors (the filter comes first; no keyword route). At most
        ``config.time_anchor_cap`` memories of the window, the earliest, are compared."""
        scope = self._scope(scope, "search")
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError(f"search: query must be a non-empty string, got {query!r}")
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise InvalidInputError(f"search: k must be a positive integer, got {k!r}")
        statuses, kind_filter = rec.check_statuses(statuses), rec.check_kinds(kinds)
        if said_between is not None:  # checked before the query is embedded
            window, window_params = self._where(scope, statuses=statuses, kinds=kind_filter,
                                                said_between=said_between)
        vector = self._vectors.query(query) if query_vector is None else query_vector
        if said_between is not None:
            return self._search_window(scope, vector, k, window, window_params)
        pool = k * self.config.candidate_multiplier
        with self._lock:
            self._check_embedder(scope, claim=False)
            index = self._indexes.get(scope, self.dim)
            vector_hits = dict(index.search(vector, pool, statuses, kind_filter))
            keyword = keyword_hits(
                self._conn, scope, query, pool * self.config.keyword_overfetch,
                scope_size=index.size, max_ratio=self.config.keyword_max_df_ratio,
                floor=self.config.keyword_min_df_cut, cache=self._term_counts)
            where, params = self._where(scope, statuses=statuses, kinds=kind_filter)
            where[0] = "+scope = ?"  # candidates by primary key, then the filters
            # vector hits passed the index's status filter and carry their cosine;
            # keyword-only hits are filtered here, and scored from their stored vector
            extra = search_route.keyword_only_worth_reading(
                vector_hits, keyword, self.config.keyword_weight, k,
                pool_full=len(vector_hits) >= pool)
            cosines = dict(vector_hits)
            if extra:
                cosines.update(search_route.blob_cosines(self._conn.execute(
                    f"SELECT id, embedding FROM memories WHERE {' AND '.join(where)} "
                    f"AND id IN ({','.join('?' * len(extra))})", [*params, *extra]), vector))
            ranked = search_route.rank_candidates(cosines, vector_hits, keyword,
                                                  self.config.keyword_weight, k)
            if not ranked:
                return []
            rows = self._conn.execute(
                f"SELECT {rec.COLUMNS} FROM memories WHERE {' AND '.join(where)} "
                f"AND id IN ({','.join('?' * len(ranked))})",
                [*params, *(r.id for r in ranked)]).fetchall()
        return search_route.scored_memories(ranked, rows)

    def _search_window(self, scope: str, vector: NDArray[np.float32], k: int,
                       where: builtins.list[str], params: builtins.list[object],
                       ) -> builtins.list[ScoredMemory]:
        """Exact cosine over the rows ``where`` selects (a time window of one scope)."""
        where = [*where, "embedding IS NOT NULL"]
        with self._lock:
            self._check_embedder(scope, claim=False)
            ranked = search_route.top_cosines(self._conn.execute(
                f"SELECT id, embedding FROM memories INDEXED BY idx_memories_scope_created "
                f"WHERE {' AND '.join(where)} ORDER BY created_at, id "
                f"LIMIT {self.config.time_anchor_cap}", params).fetchall(), vector, k)
            if not ranked:
                return []
            rows = self._conn.execute(
                f"SELECT {rec.COLUMNS} FROM memories WHERE +scope = ? AND id IN "
                f"({','.join('?' * len(ranked))})", [scope, *(r.id for r in ranked)]).fetchall()
        return search_route.scored_memories(ranked, rows)

    def transitions(self, scope: str,
                    memory_id: int | None = None) -> builtins.list[dict[str, Any]]:
        """The status-change log of a scope (or one memory), oldest first."""
        scope = self._scope(scope, "transitions")
        sql = "SELECT * FROM transitions WHERE scope = ?"
        params: builtins.list[object] = [scope]
        if memory_id is not None:
            sql, params = sql + " AND memory_id = ?", [*params, memory_id]
        with self._lock:
            return [dict(r) for r in self._conn.execute(sql + " ORDER BY id", params)]

    def history(self, scope: str, memory_id: int) -> builtins.list[dict[str, Any]]:
        """Prior content versions of a memory, oldest first."""
        scope = self._scope(scope, "history")
        with self._lock:
            return [dict(r) for r in self._conn.execute(
                "SELECT memory_id, version, content, fields, at FROM history "
                "WHERE scope = ? AND memory_id = ? ORDER BY version", (scope, memory_id))]

    def scopes(self) -> builtins.list[str]:
        """Scopes that hold memories (an admin listing; reads still name one scope)."""
        with self._lock:
            if self._closed:
                raise StoreClosedError("scopes: the store is closed")
            return [r[0] for r in self._conn.execute(
                "SELECT DISTINCT scope FROM memories ORDER BY scope")]

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- portability (implemented in store.portable) --------------------------------
    def export(self, scope: str) -> Iterator[str]:
        """The scope's memories as JSON Lines (no vectors; import re-embeds)."""
        return portable.export_lines(self, self._scope(scope, "export"))

    def import_(self, scope: str, lines: Iterable[str]) -> builtins.list[Memory]:
        """Add memories from JSON Lines into ``scope``; a bad line writes nothing."""
        return portable.import_lines(self, self._scope(scope, "import"), lines)

    def stats(self, scope: str) -> dict[str, Any]:
        """Counts by status, kind and category, plus embedder and index facts."""
        scope = self._scope(scope, "stats")
        facts: dict[str, Any] = dict.fromkeys(
            ("index", "vectors", "index_trained_on", "index_training_due"))
        with self._lock:
            try:
                self._check_embedder(scope, claim=False)
            except EmbedderMismatchError:
                pass  # stats still describe the rows; the index waits for reembed()
            else:
                index = self._indexes.get(scope, self.dim)
                facts = {"index": "ivf" if index.is_ann else "flat", "vectors": index.size,
                         "index_trained_on": index.trained_size,
                         "index_training_due": index.needs_training}
        return {**portable.scope_stats(self, scope), **facts}


