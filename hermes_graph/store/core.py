"""StoreCore: connection, transactions and bookkeeping shared by the MemoryStore parts.

SQLite (through sqlite-utils) is the source of truth. Writes are transactional
(``BEGIN IMMEDIATE``, WAL, busy timeout), so threads and processes can share one
database file; vector-index changes are applied only after the SQLite commit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlite_utils
from langchain_core.embeddings import Embeddings

from hermes_graph.clock import Clock, require_aware, system_clock, to_db
from hermes_graph.config import MemoryConfig
from hermes_graph.embeddings.base import EmbeddingCache, embedder_identity
from hermes_graph.errors import (
    EmbedderMismatchError,
    InvalidInputError,
    MemoryNotFoundError,
    StoreClosedError,
)
from hermes_graph.store import records as rec
from hermes_graph.store.connection import open_database
from hermes_graph.store.index_cache import IndexCache
from hermes_graph.store.keywords import TermCounts
from hermes_graph.types import Memory


class StoreCore:
    """Opening, locking, transactions, scope checks and index bookkeeping."""

    def __init__(self, path: str | Path, *, embeddings: Embeddings | None = None,
                 clock: Clock | None = None, config: MemoryConfig | None = None) -> None:
        self.config = config or MemoryConfig()
        self.clock: Clock = clock or system_clock
        in_memory = str(path) == ":memory:"
        self.path = Path(path)
        if not in_memory and self.path.is_dir():
            raise InvalidInputError(f"store path {str(path)!r} is a directory; expected a file")
        if not in_memory and not self.path.parent.exists():
            raise InvalidInputError(f"directory of store path {str(path)!r} does not exist")
        if embeddings is None:
            from hermes_graph.embeddings.use import USEEmbeddings

            embeddings = USEEmbeddings()
        self.embeddings = embeddings
        self.embedder_id = embedder_identity(embeddings)
        self._vectors = EmbeddingCache(embeddings)
        self._dim: int | None = getattr(embeddings, "dim", None)
        self._conn = open_database(str(path), self.config, now=to_db(self.clock()))
        self.db = sqlite_utils.Database(self._conn)
        index_dir = None if in_memory else self.path.with_name(self.path.name + ".faiss")
        self._indexes = IndexCache(self._conn, index_dir, self.config)
        self._term_counts = TermCounts(drift=self.config.keyword_count_drift)
        self._lock = threading.RLock()
        self._depth = 0
        self._after_commit: list[Callable[[], None]] = []
        self._after_sync: list[Callable[[], None]] = []  # run once indexes are in step
        self._touched: dict[str, tuple[int, int]] = {}
        """Scopes written by the open transaction: (version before it, version it wrote)."""
        self._closed = False

    # --- plumbing -----------------------------------------------------------
    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = len(self.embeddings.embed_query("dimension probe"))
        return self._dim

    def _now(self, at: datetime | None) -> datetime:
        return self.clock() if at is None else require_aware(at, "at")

    def _scope(self, scope: object, call: str) -> str:
        if self._closed:
            raise StoreClosedError(f"{call}: the store is closed")
        return rec.check_scope(scope, call, self.config)

    @contextmanager
    def transaction(self) -> Iterator[StoreCore]:
        """One SQLite write transaction; nested calls join the outermost one."""
        with self._lock:
            if self._closed:
                raise StoreClosedError("transaction: the store is closed")
            outermost = self._depth == 0
            if outermost:
                self._conn.execute("BEGIN IMMEDIATE")
            self._depth += 1
            try:
                yield self
            except BaseException:
                self._depth -= 1
                if outermost:
                    self._conn.execute("ROLLBACK")
                    for scope in self._touched:
                        self._indexes.forget_loaded(scope)
                    self._after_commit.clear()
                    self._after_sync.clear()
                    self._touched.clear()
                raise
            self._depth -= 1
            if outermost:
                self._conn.execute("COMMIT")
                self._finish_commit()

    def _finish_commit(self) -> None:
        for scope, (before, _) in self._touched.items():
            index = self._indexes.loaded(scope)
            if index is not None and index.version != before:
                self._indexes.forget_loaded(scope)  # someone else wrote: resync lazily
        hooks, self._after_commit = self._after_commit, []
        for hook in hooks:
            hook()
        for scope, (_, written) in self._touched.items():
            index = self._indexes.loaded(scope)
            if index is not None:  # not re-read: another process may have committed since
                index.version = written
                self._indexes.mark_dirty(scope)
        self._touched.clear()
        finals, self._after_sync = self._after_sync, []
        for final in finals:
            final()

    def _bump(self, scope: str) -> None:
        row = self._conn.execute(
            "INSERT INTO scopes (scope, version) VALUES (?, 1) ON CONFLICT(scope) "
            "DO UPDATE SET version = version + 1 RETURNING version", (scope,)).fetchone()
        version = int(row[0])
        self._touched[scope] = (self._touched.get(scope, (version - 1, 0))[0], version)

    def _on_index(self, scope: str, action: Callable[[Any], None]) -> None:
        def hook() -> None:
            index = self._indexes.loaded(scope)
            if index is not None:
                action(index)
        self._after_commit.append(hook)

    def _record(self, scope: str, memory_id: int, from_status: str | None, to_status: str,
                reason: str, actor: str, at: datetime) -> None:
        self._conn.execute(
            "INSERT INTO transitions (memory_id, scope, from_status, to_status, reason, actor, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (memory_id, scope, from_status, to_status, reason, actor, to_db(at)))

    def _check_embedder(self, scope: str, *, claim: bool) -> None:
        row = self._conn.execute(
            "SELECT embedder_id, dim FROM scopes WHERE scope = ?", (scope,)).fetchone()
        if row is not None and row["embedder_id"] is not None:
            if row["embedder_id"] != self.embedder_id or row["dim"] != self.dim:
                raise EmbedderMismatchError(
                    f"scope {scope!r} was built with embedder {row['embedder_id']!r} "
                    f"(dim {row['dim']}), but this store embeds with {self.embedder_id!r} "
                    f"(dim {self.dim}); call reembed(scope) to re-embed it")
        elif claim:
            self._conn.execute(
                "INSERT INTO scopes (scope, embedder_id, dim) VALUES (?, ?, ?) ON CONFLICT(scope)"
                " DO UPDATE SET embedder_id = excluded.embedder_id, dim = excluded.dim",
                (scope, self.embedder_id, self.dim))

    def _fetch(self, scope: str, memory_id: object, call: str) -> Memory:
        if isinstance(memory_id, bool) or not isinstance(memory_id, int):
            raise InvalidInputError(f"{call}: memory id must be an integer, got {memory_id!r}")
        with self._lock:  # threads share one connection: every statement holds the lock
            rows = self._conn.execute(
                f"SELECT {rec.COLUMNS} FROM memories WHERE scope = ? AND id = ?",
                (scope, memory_id)).fetchall()
        if not rows:
            raise MemoryNotFoundError(f"{call}: no memory {memory_id} in scope {scope!r}")
        return rec.row_to_memory(rows[0])

    def flush(self) -> None:
        """Write changed vector indexes to disk (SQLite is already durable)."""
        with self._lock:
            if not self._closed:
                self._indexes.save_dirty(self.embedder_id)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self.flush()
            self._closed = True
            self._conn.close()

