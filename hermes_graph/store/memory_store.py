"""MemoryStore: SQLite (source of truth, via sqlite-utils) + per-scope FAISS + FTS5.

Every method names a scope; there is no default scope. Writes are transactional
(``BEGIN IMMEDIATE``, WAL, busy timeout), so threads and processes can share one
database file. Vector-index changes are applied only after the SQLite commit.
"""

from __future__ import annotations

import builtins
import json
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import sqlite_utils
from langchain_core.embeddings import Embeddings
from numpy.typing import NDArray

from hermes_graph.clock import Clock, require_aware, system_clock, to_db
from hermes_graph.config import MemoryConfig
from hermes_graph.embeddings.base import embed_query, embed_texts, embedder_identity
from hermes_graph.errors import (
    EmbedderMismatchError,
    InvalidInputError,
    MemoryNotFoundError,
    StoreClosedError,
)
from hermes_graph.policy.normalize import index_terms, normalize_key
from hermes_graph.store import portable
from hermes_graph.store import records as rec
from hermes_graph.store.connection import open_database
from hermes_graph.store.index_cache import IndexCache, scope_file_key
from hermes_graph.store.lifecycle import INITIAL_STATUSES, check_status, check_transition
from hermes_graph.store.search import keyword_hits, score_hits
from hermes_graph.types import LIVE_STATUSES, Memory, ScoredMemory, Status

_NEW_FIELDS = ("kind", "category", "subject", "qualifiers", "importance", "confidence",
               "source", "status", "slot", "source_ref", "session", "at", "reason", "actor")


class MemoryStore:
    """Long-term memory of many scopes in one SQLite file plus FAISS index files."""

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
        self._dim: int | None = getattr(embeddings, "dim", None)
        self._conn = open_database(str(path), self.config, now=to_db(self.clock()))
        self.db = sqlite_utils.Database(self._conn)
        index_dir = None if in_memory else self.path.with_name(self.path.name + ".faiss")
        self._indexes = IndexCache(self._conn, index_dir, self.config)
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
    def transaction(self) -> Iterator[MemoryStore]:
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
        row = self._conn.execute(
            f"SELECT {rec.COLUMNS} FROM memories WHERE scope = ? AND id = ?",
            (scope, memory_id)).fetchone()
        if row is None:
            raise MemoryNotFoundError(f"{call}: no memory {memory_id} in scope {scope!r}")
        return rec.row_to_memory(row)

    # --- writes ---------------------------------------------------------------
    def add(self, scope: str, content: str, **fields: Any) -> Memory:
        """Add one memory; see :meth:`add_many` for the accepted fields."""
        return self.add_many(scope, [{"content": content, **fields}])[0]

    def add_many(self, scope: str, items: Sequence[Mapping[str, Any]]) -> list[Memory]:
        """Validate, embed and insert memories in one transaction (all or nothing).

        Fields: content, kind, category, subject ("user"), qualifiers, importance (5),
        confidence (0.8), source ("explicit"), status ("candidate"), slot, source_ref,
        session (the confirming session), at (creation time), reason, actor.
        """
        scope = self._scope(scope, "add")
        rows = [self._new_row(scope, item, n) for n, item in enumerate(items)]
        vectors = embed_texts(self.embeddings, [r["content"] for r, _ in rows])
        if rows and vectors.shape[1] != self.dim:
            raise InvalidInputError(f"embedder returned dimension {vectors.shape[1]}, "
                                    f"expected {self.dim}")
        ids: list[int] = []
        with self.transaction():
            self._check_embedder(scope, claim=True)
            for (row, audit), vector in zip(rows, vectors, strict=True):
                row["embedding"] = vector.tobytes()
                cursor = self._conn.execute(
                    f"INSERT INTO memories ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                    list(row.values()))
                memory_id = int(cursor.lastrowid or 0)
                ids.append(memory_id)
                self._conn.execute(
                    "INSERT INTO memory_fts (rowid, scope_key, terms) VALUES (?, ?, ?)",
                    (memory_id, scope_file_key(scope), index_terms(row["content"])))
                self._record(scope, memory_id, None, row["status"], audit["reason"],
                             audit["actor"], audit["at"])
            self._bump(scope)
            statuses = [r["status"] for r, _ in rows]
            kinds = [r["kind"] for r, _ in rows]
            self._on_index(scope, lambda index: index.add(ids, vectors, statuses, kinds))
        return [self._fetch(scope, i, "add") for i in ids]

    def _new_row(self, scope: str, item: Mapping[str, Any], n: int) -> tuple[
            dict[str, Any], dict[str, Any]]:
        if not isinstance(item, Mapping):
            raise InvalidInputError(f"item {n} must be a mapping, got {type(item).__name__}")
        unknown = set(item) - {"content", *_NEW_FIELDS}
        if unknown:
            raise InvalidInputError(f"item {n}: unknown field(s) {sorted(unknown)}")
        content = rec.check_content(item.get("content"), self.config)
        kind, category = rec.check_kind_category(item.get("kind"), item.get("category"))
        status = check_status(item.get("status", "candidate"))
        if status not in INITIAL_STATUSES:
            raise InvalidInputError(f"item {n}: a memory cannot be created with status "
                                    f"{status!r}; expected one of {sorted(INITIAL_STATUSES)}")
        at = self._now(item.get("at"))
        session = rec.check_text(item.get("session"), "session", allow_none=True)
        confirmations = [] if session is None else [
            {"session": session, "at": at.isoformat(),
             "emotional": item.get("source") == "emotional"}]
        row = {
            "scope": scope, "kind": kind, "category": category, "content": content,
            "norm_key": normalize_key(content),
            "subject": rec.check_text(item.get("subject", "user"), "subject"),
            "qualifiers": json.dumps(list(rec.check_qualifiers(item.get("qualifiers"))),
                                     ensure_ascii=False),
            "slot": rec.check_text(item.get("slot"), "slot", allow_none=True),
            "importance": rec.check_importance(item.get("importance", 5)),
            "confidence": rec.check_confidence(item.get("confidence", 0.8)),
            "source": rec.check_source(item.get("source", "explicit")),
            "status": status, "created_at": to_db(at), "updated_at": to_db(at),
            "last_seen_at": to_db(at), "confirm_count": len(confirmations),
            "confirmations": json.dumps(confirmations, ensure_ascii=False),
            "source_ref": json.dumps(rec.check_mapping(item.get("source_ref"), "source_ref"),
                                     ensure_ascii=False),
            "embedder_id": self.embedder_id, "dim": self.dim,
        }
        audit = {"reason": str(item.get("reason", "added")),
                 "actor": str(item.get("actor", "api")), "at": at}
        return row, audit

    def transition(self, scope: str, memory_id: int, to: Status, *, reason: str,
                   actor: str = "api", superseded_by: int | None = None,
                   at: datetime | None = None) -> Memory:
        """Change a memory's status along a legal lifecycle edge, recording why."""
        scope = self._scope(scope, "transition")
        reason = rec.check_text(reason, "reason") or ""
        when = self._now(at)
        with self.transaction():
            memory = self._fetch(scope, memory_id, "transition")
            check_transition(memory.status, to)
            if superseded_by is not None:
                self._fetch(scope, superseded_by, "transition(superseded_by)")
            self._conn.execute(
                "UPDATE memories SET status = ?, updated_at = ?, superseded_by = "
                "COALESCE(?, superseded_by) WHERE id = ?",
                (to, to_db(when), superseded_by, memory.id))
            self._record(scope, memory.id, memory.status, to, reason, actor, when)
            self._bump(scope)
            self._on_index(scope, lambda index: index.set_status(memory.id, to))
        return self._fetch(scope, memory.id, "transition")

    def update(self, scope: str, memory_id: int, *, reason: str, actor: str = "api",
               at: datetime | None = None, **changes: Any) -> Memory:
        """Change fields of a memory; the prior version goes to the history table."""
        scope = self._scope(scope, "update")
        reason = rec.check_text(reason, "reason") or ""
        allowed = {"content", "kind", "category", "subject", "qualifiers", "importance",
                   "confidence", "source", "slot", "override_of", "superseded_by"}
        unknown = set(changes) - allowed
        if unknown:
            raise InvalidInputError(f"update: unknown field(s) {sorted(unknown)}; "
                                    f"expected some of {sorted(allowed)}")
        when = self._now(at)
        current = self._fetch(scope, memory_id, "update")
        new: dict[str, Any] = {}
        if "content" in changes:
            new["content"] = rec.check_content(changes["content"], self.config)
            new["norm_key"] = normalize_key(new["content"])
        if "kind" in changes or "category" in changes:
            new["kind"], new["category"] = rec.check_kind_category(
                changes.get("kind", current.kind), changes.get("category", current.category))
        for name, check in (("importance", rec.check_importance),
                            ("confidence", rec.check_confidence), ("source", rec.check_source)):
            if name in changes:
                new[name] = check(changes[name])
        if "subject" in changes:
            new["subject"] = rec.check_text(changes["subject"], "subject")
        if "slot" in changes:
            new["slot"] = rec.check_text(changes["slot"], "slot", allow_none=True)
        if "qualifiers" in changes:
            new["qualifiers"] = json.dumps(list(rec.check_qualifiers(changes["qualifiers"])),
                                           ensure_ascii=False)
        for name in ("override_of", "superseded_by"):
            if name in changes:
                if changes[name] is not None:
                    self._fetch(scope, changes[name], f"update({name})")
                new[name] = changes[name]
        vector = embed_texts(self.embeddings, [new["content"]])[0] if "content" in new else None
        with self.transaction():
            if vector is not None:  # never mix vectors of two embedders in one scope
                self._check_embedder(scope, claim=False)
            before = self._fetch(scope, memory_id, "update")
            self._conn.execute(
                "INSERT INTO history (memory_id, scope, version, content, fields, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (before.id, scope, before.version, before.content,
                 json.dumps(rec.memory_to_record(before), ensure_ascii=False), to_db(when)))
            if vector is not None:
                new["embedding"] = vector.tobytes()
                self._conn.execute("UPDATE memory_fts SET terms = ? WHERE rowid = ?",
                                   (index_terms(new["content"]), before.id))
            new.update(updated_at=to_db(when), version=before.version + 1)
            self._conn.execute(
                f"UPDATE memories SET {', '.join(f'{k} = ?' for k in new)} WHERE id = ?",
                [*new.values(), before.id])
            self._record(scope, before.id, before.status, before.status,
                         f"update: {reason}", actor, when)
            self._bump(scope)
            status, kind = before.status, new.get("kind", before.kind)
            if vector is not None:
                self._on_index(scope, lambda index: index.add(
                    [before.id], vector.reshape(1, -1), [status], [kind]))
            else:
                self._on_index(scope, lambda index: index.set_kind(before.id, kind))
        return self._fetch(scope, memory_id, "update")

    def confirm(self, scope: str, memory_id: int, *, session: str, emotional: bool = False,
                at: datetime | None = None, actor: str = "api") -> Memory:
        """Record that a session confirmed this memory (dedup hit): count and last seen."""
        scope = self._scope(scope, "confirm")
        session = rec.check_text(session, "session") or ""
        when = self._now(at)
        with self.transaction():
            memory = self._fetch(scope, memory_id, "confirm")
            confirmations = [*memory.confirmations,
                             {"session": session, "at": when.isoformat(),
                              "emotional": bool(emotional)}]
            self._conn.execute(
                "UPDATE memories SET confirm_count = ?, confirmations = ?, last_seen_at = ?, "
                "updated_at = ? WHERE id = ?",
                (len(confirmations), json.dumps(confirmations, ensure_ascii=False),
                 to_db(when), to_db(when), memory.id))
            self._record(scope, memory.id, memory.status, memory.status,
                         f"confirmed by session {session}", actor, when)
            self._bump(scope)
        return self._fetch(scope, memory_id, "confirm")

    def reset_confirmations(self, scope: str, memory_id: int, *, reason: str,
                            actor: str = "api", at: datetime | None = None) -> Memory:
        """A contradicting signal: the confirmation count starts again (frozen gate)."""
        scope = self._scope(scope, "reset_confirmations")
        reason = rec.check_text(reason, "reason") or ""
        when = self._now(at)
        with self.transaction():
            memory = self._fetch(scope, memory_id, "reset_confirmations")
            self._conn.execute(
                "UPDATE memories SET confirm_count = 0, confirmations = '[]', updated_at = ? "
                "WHERE id = ?", (to_db(when), memory.id))
            self._record(scope, memory.id, memory.status, memory.status,
                         f"confirmations reset: {reason}", actor, when)
            self._bump(scope)
        return self._fetch(scope, memory_id, "reset_confirmations")

    def mark_used(self, scope: str, memory_ids: Sequence[int], *,
                  at: datetime | None = None) -> None:
        """A recall injected these memories: bump use_count and last_used_at."""
        scope = self._scope(scope, "mark_used")
        if not memory_ids:
            return
        when = to_db(self._now(at))
        with self.transaction():
            self._conn.executemany(
                "UPDATE memories SET use_count = use_count + 1, last_used_at = ? "
                "WHERE scope = ? AND id = ?", [(when, scope, int(i)) for i in memory_ids])

    # --- erasure ----------------------------------------------------------------
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
            self._conn.execute(f"DELETE FROM memory_fts WHERE rowid IN ({marks})", part)
            self._conn.execute(f"DELETE FROM history WHERE memory_id IN ({marks})", part)
        self._bump(scope)
        self._on_index(scope, lambda index: index.remove(ids))

    def _scrub(self, scope: str | None) -> None:
        """Make erasure physical: merge FTS segments, checkpoint WAL, rewrite the index file."""
        with self._lock:
            self._conn.execute("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if scope is not None and self._indexes.loaded(scope) is not None:
                self._indexes.save(scope, self.embedder_id)
            elif scope is not None:
                self._indexes.delete_files(scope)  # stale file may hold the vector

    # --- reads ------------------------------------------------------------------
    def get(self, scope: str, memory_id: int) -> Memory:
        return self._fetch(self._scope(scope, "get"), memory_id, "get")

    def list(self, scope: str, *, statuses: Sequence[Status] | None = None,
             kinds: Sequence[str] | None = None, categories: Sequence[str] | None = None,
             limit: int | None = None, min_importance: int | None = None,
             most_important_first: bool = False) -> builtins.list[Memory]:
        """Memories of a scope, oldest first (or most important, newest first), filtered."""
        scope = self._scope(scope, "list")
        where, params = ["scope = ?"], [scope]
        if min_importance is not None:
            where.append("importance >= ?")
            params.append(rec.check_importance(min_importance))  # type: ignore[arg-type]
        for column, values in (("status", rec.check_statuses(statuses) if statuses else None),
                               ("kind", rec.check_kinds(kinds)),
                               ("category", rec.check_categories(categories))):
            if values:
                where.append(f"{column} IN ({','.join('?' * len(values))})")
                params.extend(values)
        order = "importance DESC, id DESC" if most_important_first else "id"
        sql = f"SELECT {rec.COLUMNS} FROM memories WHERE {' AND '.join(where)} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {rec.check_limit(limit)}"
        with self._lock:
            return [rec.row_to_memory(r) for r in self._conn.execute(sql, params)]

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
        return embed_query(self.embeddings, query)

    def vectors(self, scope: str, ids: Sequence[int]) -> dict[int, NDArray[np.float32]]:
        """Stored embeddings of some memories of a scope (for exact re-scoring)."""
        scope = self._scope(scope, "vectors")
        if not ids:
            return {}
        with self._lock:
            rows = self._conn.execute(
                f"SELECT id, embedding FROM memories WHERE scope = ? AND id IN "
                f"({','.join('?' * len(ids))}) AND embedding IS NOT NULL",
                [scope, *[int(i) for i in ids]]).fetchall()
        return {int(r[0]): np.frombuffer(r[1], dtype=np.float32) for r in rows}

    def search(self, scope: str, query: str, *, k: int = 8, kinds: Sequence[str] | None = None,
               statuses: Sequence[Status] = LIVE_STATUSES,
               query_vector: NDArray[np.float32] | None = None) -> builtins.list[ScoredMemory]:
        """Hybrid search in one scope: FAISS vector route + FTS5 keyword route, fused."""
        scope = self._scope(scope, "search")
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError(f"search: query must be a non-empty string, got {query!r}")
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise InvalidInputError(f"search: k must be a positive integer, got {k!r}")
        statuses, kind_filter = rec.check_statuses(statuses), rec.check_kinds(kinds)
        vector = embed_query(self.embeddings, query) if query_vector is None else query_vector
        pool = k * self.config.candidate_multiplier
        with self._lock:
            self._check_embedder(scope, claim=False)
            index = self._indexes.get(scope, self.dim)
            vector_hits = dict(index.search(vector, pool, statuses, kind_filter))
            keyword = keyword_hits(self._conn, scope_file_key(scope), query, pool,
                                   statuses, kind_filter)
            ids = list(dict.fromkeys([*vector_hits, *keyword]))
            if not ids:
                return []
            rows = self._conn.execute(
                f"SELECT {rec.COLUMNS}, embedding FROM memories WHERE scope = ? AND id IN "
                f"({','.join('?' * len(ids))}) AND status IN "
                f"({','.join('?' * len(statuses))})", [scope, *ids, *statuses]).fetchall()
        return score_hits(rows, vector, set(vector_hits), keyword, self.config.keyword_weight, k)

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

    # --- maintenance --------------------------------------------------------------
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
        return portable.scope_stats(self, self._scope(scope, "stats"))

