"""Status lifecycle: illegal transitions, the transitions log, the history table."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from hermes_graph import IllegalTransitionError, MemoryStore
from hermes_graph.store.lifecycle import ALLOWED_TRANSITIONS, can_transition
from hermes_graph.testing import FakeClock, HashingEmbeddings, snapshot
from hermes_graph.types import STATUSES
from tests.store_helpers import dump_db


@pytest.mark.parametrize(("frm", "to"), [
    ("candidate", "frozen"), ("candidate", "pending_override"), ("deleted", "confirmed"),
    ("deleted", "candidate"), ("superseded", "confirmed"), ("archived", "frozen"),
    ("confirmed", "candidate"), ("frozen", "candidate"), ("confirmed", "confirmed"),
])
def test_illegal_transitions_raise_and_change_nothing(store: MemoryStore, db_path: Path,
                                                      frm: str, to: str) -> None:
    assert not can_transition(frm, to)  # type: ignore[arg-type]
    memory = store.add("u", "a memory", status="confirmed" if frm == "superseded" else (
        "candidate" if frm == "deleted" else frm))
    if frm in ("superseded", "deleted"):
        store.transition("u", memory.id, frm, reason="setup")  # type: ignore[arg-type]
    before = dump_db(db_path)
    with pytest.raises(IllegalTransitionError) as info:
        store.transition("u", memory.id, to, reason="not allowed")  # type: ignore[arg-type]
    assert (info.value.from_status, info.value.to_status) == (frm, to)
    assert dump_db(db_path) == before


def test_lifecycle_table_is_the_documented_one() -> None:
    assert {s: set(t) for s, t in ALLOWED_TRANSITIONS.items()} == {
        "candidate": {"confirmed", "superseded", "archived", "deleted"},
        "confirmed": {"frozen", "superseded", "archived", "deleted"},
        "frozen": {"confirmed", "superseded", "archived", "deleted"},
        "pending_override": {"confirmed", "frozen", "superseded", "archived", "deleted"},
        "superseded": {"deleted"},
        "archived": {"confirmed", "deleted"},
        "deleted": set(),
    }


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.sampled_from(["candidate", "confirmed", "frozen", "pending_override",
                              "archived"]),
       walk=st.lists(st.sampled_from(STATUSES), max_size=12))
def test_transitions_log_records_every_status_change(tmp_path_factory: pytest.TempPathFactory,
                                                     start: str, walk: list[str]) -> None:
    db_path = tmp_path_factory.mktemp("walk") / "m.db"
    with MemoryStore(db_path, embeddings=HashingEmbeddings(16),
                     clock=FakeClock("2024-01-01T00:00:00Z")) as store:
        memory = store.add("u", "a walking memory", status=start)
        status, changes = start, [(None, start)]
        for to in walk:
            if can_transition(status, to):  # type: ignore[arg-type]
                store.transition("u", memory.id, to, reason=f"to {to}")  # type: ignore[arg-type]
                changes.append((status, to))
                status = to
            else:
                with pytest.raises(IllegalTransitionError):
                    store.transition("u", memory.id, to, reason="x")  # type: ignore[arg-type]
        store.confirm("u", memory.id, session="s1")  # logged, but no status change
        log = store.transitions("u", memory.id)
        assert store.get("u", memory.id).status == status
    status_changes = [(r["from_status"], r["to_status"]) for r in log
                      if r["from_status"] != r["to_status"]]
    assert status_changes == changes
    assert log[-1]["reason"] == "confirmed by session s1"
    conn = sqlite3.connect(db_path)
    rows = conn.execute("SELECT from_status, to_status FROM transitions WHERE memory_id = ? "
                        "ORDER BY id", (memory.id,)).fetchall()
    conn.close()
    assert [r for r in rows if r[0] != r[1]] == changes


def test_update_writes_a_history_row(store: MemoryStore, db_path: Path,
                                     clock: FakeClock) -> None:
    memory = store.add("u", "I live in Berlin", importance=4)
    clock.advance(days=2)
    store.update("u", memory.id, reason="moved", content="I live in Lisbon", importance=6)
    clock.advance(days=2)
    store.update("u", memory.id, reason="more important", importance=9)
    conn = sqlite3.connect(db_path)
    rows = conn.execute("SELECT memory_id, scope, version, content, fields, at FROM history "
                        "ORDER BY id").fetchall()
    conn.close()
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        (memory.id, "u", 1, "I live in Berlin"), (memory.id, "u", 2, "I live in Lisbon")]
    assert [json.loads(r[4])["importance"] for r in rows] == [4, 6]
    assert rows[0][5] < rows[1][5]
    assert [h["content"] for h in store.history("u", memory.id)] == [
        "I live in Berlin", "I live in Lisbon"]
    final = store.get("u", memory.id)
    assert (final.content, final.importance, final.version) == ("I live in Lisbon", 9, 3)


def test_update_cannot_change_status(store: MemoryStore) -> None:
    memory = store.add("u", "a memory")
    before = snapshot(store, ["u"])
    with pytest.raises(ValueError, match="status"):
        store.update("u", memory.id, reason="sneaky", status="frozen")
    assert snapshot(store, ["u"]) == before
