"""Writes of the MemoryStore: add, transition, update, confirm (all transactional).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from hermes_graph.clock import to_db
from hermes_graph.errors import (
    InvalidInputError,
)
from hermes_graph.policy.normalize import normalize_key
from hermes_graph.store import keywords
from hermes_graph.store import records as rec
from hermes_graph.store.core import StoreCore
from hermes_graph.store.lifecycle import INITIAL_STATUSES, check_status, check_transition
from hermes_graph.types import Memory, Status

_NEW_FIELDS = ("kind", "category", "subject", "qualifiers", "importance", "confidence",
               "source", "status", "slot", "source_ref", "session", "at", "reason", "actor")


class StoreWrites(StoreCore):
    """Adding memories and changing their fields and status, with an audit trail."""

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
        vectors = self._vectors.documents([r["content"] for r, _ in rows])
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
                self._record(scope, memory_id, None, row["status"], audit["reason"],
                             audit["actor"], audit["at"])
            keywords.index_memories(
                self._conn, [(i, scope, r["content"]) for i, (r, _) in zip(ids, rows, strict=True)])
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
                   "confidence", "source", "slot", "override_of", "superseded_by", "source_ref"}
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
        if "source_ref" in changes:
            new["source_ref"] = json.dumps(rec.check_mapping(changes["source_ref"], "source_ref"),
                                           ensure_ascii=False)
        if "qualifiers" in changes:
            new["qualifiers"] = json.dumps(list(rec.check_qualifiers(changes["qualifiers"])),
                                           ensure_ascii=False)
        for name in ("override_of", "superseded_by"):
            if name in changes:
                if changes[name] is not None:
                    self._fetch(scope, changes[name], f"update({name})")
                new[name] = changes[name]
        vector = self._vectors.documents([new["content"]])[0] if "content" in new else None
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
                keywords.reindex_memory(self._conn, before.id, scope, new["content"])
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

    def record_decision(self, scope: str, *, action: str, reason: str,
                        memory_id: int | None = None, session: str | None = None,
                        actor: str = "gate", at: datetime | None = None) -> None:
        """Log a gate decision that changed no row (a drop, an ignored duplicate).

        A dropped candidate has no memory, so ``memory_id`` is None and the logged
        status is ``rejected``; only the reason is kept, never the content (it may
        hold a secret).
        """
        scope = self._scope(scope, "record_decision")
        reason = rec.check_text(reason, "reason") or ""
        when = self._now(at)
        with self.transaction():
            status: str = "rejected"
            if memory_id is not None:
                status = self._fetch(scope, memory_id, "record_decision").status
            self._conn.execute(
                "INSERT INTO transitions (memory_id, scope, from_status, to_status, reason, "
                "actor, at, session) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (memory_id, scope, None if memory_id is None else status, status,
                 f"{action}: {reason}", actor, to_db(when), session))

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

