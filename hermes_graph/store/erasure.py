"""Physical erasure and re-embedding of a scope's memories.
"""

from __future__ import annotations

from hermes_graph.embeddings.base import embed_texts
from hermes_graph.store import keywords
from hermes_graph.store.core import StoreCore


class StoreErasure(StoreCore):
    """Forget one memory or a whole scope, leaving no copy; re-embed a scope."""

    def forget(self, scope: str, memory_id: int, *, reason: str = "forget request",
               actor: str = "api") -> None:
        """Physically erase a memory from the table, FTS, FAISS and history."""
        scope = self._scope(scope, "forget")
        with self.transaction():
            memory = self._fetch(scope, memory_id, "forget")
            self._erase(scope, [memory.id])
            self._record(scope, memory.id, memory.status, "deleted", reason, actor, self.clock())
            if self._depth > 1:  # inside a caller's transaction: scrub once it commits
                self._after_sync.append(lambda: self._scrub(scope))
                return
        self._scrub(scope)

    def forget_all(self, scope: str) -> int:
        """Erase every memory of a scope (alias with a count: see :meth:`purge_scope`)."""
        return self.purge_scope(scope)

    def purge_scope(self, scope: str) -> int:
        """Erase a scope entirely: memories, keyword index, vectors, history, transitions."""
        scope = self._scope(scope, "purge_scope")
        with self.transaction():
            ids = [int(r[0]) for r in self._conn.execute(
                "SELECT id FROM memories WHERE scope = ?", (scope,))]
            self._erase(scope, ids)
            self._conn.execute("DELETE FROM transitions WHERE scope = ?", (scope,))
            self._conn.execute("DELETE FROM scopes WHERE scope = ?", (scope,))
        self._indexes.delete_files(scope)
        self._scrub(None)
        return len(ids)

    def _erase(self, scope: str, ids: list[int]) -> None:
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))
            self._conn.execute(f"DELETE FROM memories WHERE id IN ({marks})", part)
            keywords.unindex_memories(self._conn, part)
            self._conn.execute(f"DELETE FROM history WHERE memory_id IN ({marks})", part)
        self._bump(scope)
        self._on_index(scope, lambda index: index.remove(ids))

    def _scrub(self, scope: str | None) -> None:
        """Make erasure physical: merge FTS segments, checkpoint WAL, rewrite the index file."""
        with self._lock:
            keywords.optimize(self._conn)
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if scope is not None and self._indexes.loaded(scope) is not None:
                self._indexes.save(scope, self.embedder_id)
            elif scope is not None:
                self._indexes.delete_files(scope)  # stale file may hold the vector

    def reembed(self, scope: str) -> int:
        """Re-embed a scope with this store's embedder (after changing models)."""
        scope = self._scope(scope, "reembed")
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, content FROM memories WHERE scope = ?", (scope,)).fetchall()
        vectors = embed_texts(self.embeddings, [r["content"] for r in rows])
        with self.transaction():
            self._conn.executemany(
                "UPDATE memories SET embedding = ?, embedder_id = ?, dim = ? WHERE id = ?",
                [(v.tobytes(), self.embedder_id, self.dim, r["id"])
                 for r, v in zip(rows, vectors, strict=True)])
            self._conn.execute("UPDATE scopes SET embedder_id = ?, dim = ? WHERE scope = ?",
                               (self.embedder_id, self.dim, scope))
            self._bump(scope)
        self._indexes.delete_files(scope)
        return len(rows)

