"""Conformance checks: lifecycle, updates, erasure, portability, bad input."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from hermes_graph.errors import (
    FormatError,
    IllegalTransitionError,
    InvalidInputError,
    MemoryNotFoundError,
    StoreClosedError,
)
from hermes_graph.store.lifecycle import can_transition
from hermes_graph.store.memory_store import MemoryStore
from hermes_graph.testing._support import (
    T0,
    T1,
    T2,
    StoreFactory,
    _expect,
    _ids,
    _raises,
    _rejects,
    _unchanged,
)
from hermes_graph.testing.conformance_core import (
    _scoped_calls,
)
from hermes_graph.types import STATUSES, Memory, Status


def _memory_in(store: MemoryStore, scope: str, status: Status) -> Memory:
    """A fresh memory in ``status``, reached along legal edges."""
    start: dict[Status, tuple[Status, Status | None]] = {
        "superseded": ("confirmed", "superseded"), "deleted": ("candidate", "deleted")}
    initial, then = start.get(status, (status, None))
    memory = store.add(scope, f"a memory that is {status}", status=initial, at=T0)
    if then is not None:
        memory = store.transition(scope, memory.id, then, reason="setup", at=T0)
    return memory


def _check_edge(store: MemoryStore, frm: Status, to: Status) -> None:
    scope = f"life-{frm}"
    memory = _memory_in(store, scope, frm)
    what = f"transition {frm} -> {to}"
    args = (scope, memory.id, to)
    kwargs: dict[str, Any] = {"reason": f"test {to}", "actor": "tester", "at": T1}
    if not can_transition(frm, to):
        exc = _rejects(store, [scope], IllegalTransitionError, what, store.transition,
                       *args, **kwargs)
        _expect(frm in str(exc) and to in str(exc), f"{what}: message {exc} names no states")
        return
    moved = store.transition(*args, **kwargs)
    _expect(moved.status == to and store.get(scope, memory.id).status == to, f"{what} failed")
    log = store.transitions(scope, memory.id)[-1]
    _expect((log["from_status"], log["to_status"], log["reason"], log["actor"]) ==
            (frm, to, f"test {to}", "tester"), f"{what} logged as {log}")


def check_lifecycle(make_store: StoreFactory) -> None:
    """Every legal edge works and is logged; every illegal one raises and changes nothing."""
    with make_store() as store:
        for initial in ("superseded", "deleted", "zombie", None, ["confirmed"]):
            _rejects(store, ["u"], InvalidInputError, f"add(status={initial!r})",
                     store.add, "u", "born wrong", status=initial)
        for frm in STATUSES:
            for to in STATUSES:
                _check_edge(store, frm, to)
        m = store.add("u", "a candidate memory")
        for bad_to in ("zombie", None, 3):
            _rejects(store, ["u"], InvalidInputError, f"transition(to={bad_to!r})",
                     store.transition, "u", m.id, bad_to, reason="x")
        _rejects(store, ["u"], InvalidInputError, "transition(reason='  ')",
                 store.transition, "u", m.id, "confirmed", reason="  ")
        _rejects(store, ["u"], MemoryNotFoundError, "superseded_by a missing id",
                 store.transition, "u", m.id, "superseded", reason="x", superseded_by=10**9)
        newer = store.add("u", "the newer memory")
        old = store.transition("u", m.id, "superseded", reason="replaced", superseded_by=newer.id)
        _expect(old.superseded_by == newer.id, "transition must set superseded_by")
        walk = [(t["from_status"], t["to_status"]) for t in store.transitions("u", m.id)]
        _expect(walk == [(None, "candidate"), ("candidate", "superseded")], f"log {walk}")


def check_update_and_history(make_store: StoreFactory) -> None:
    with make_store() as store:
        m = store.add("u", "I live in Berlin", category="identity", at=T0)
        u = store.update("u", m.id, reason="moved", content="I live in Lisbon", importance=8,
                         at=T1)
        _expect((u.content, u.importance, u.version, u.created_at, u.updated_at, u.status) ==
                ("I live in Lisbon", 8, 2, T0, T1, m.status), f"update result {u}")
        history = store.history("u", m.id)
        _expect(len(history) == 1 and history[0]["version"] == 1 and
                history[0]["content"] == "I live in Berlin", f"history {history}")
        _expect(json.loads(history[0]["fields"])["importance"] == 5, "history keeps old fields")
        log = store.transitions("u", m.id)[-1]
        _expect(log["reason"] == "update: moved" and log["to_status"] == m.status, f"log {log}")
        hits = store.search("u", "Lisbon")
        _expect(_ids(hits) == [m.id] and hits[0].keyword_score > 0, "new content not indexed")
        _expect(all(h.keyword_score == 0 for h in store.search("u", "Berlin")),
                "old content still in the keyword index")
        _expect([x.id for x in store.find_exact("u", "i live in lisbon")] == [m.id],
                "find_exact must use the new content")
        store.update("u", m.id, reason="recategorised", category="fact", qualifiers=["home"])
        _expect(len(store.history("u", m.id)) == 2, "every update writes a history row")
        for bad in ({"status": "confirmed"}, {"content": ""}, {"confidence": float("nan")},
                    {"importance": 0}, {"kind": "opinion"}, {"at": "yesterday"}):
            _rejects(store, ["u"], InvalidInputError, f"update(**{bad})",
                     store.update, "u", m.id, reason="bad", **bad)
        _rejects(store, ["u"], MemoryNotFoundError, "update(superseded_by=missing)",
                 store.update, "u", m.id, reason="bad", superseded_by=10**9)
        for reason in ("", "  ", None):
            _rejects(store, ["u"], InvalidInputError, f"update(reason={reason!r})",
                     store.update, "u", m.id, reason=reason, importance=3)


def check_confirm_and_mark_used(make_store: StoreFactory) -> None:
    """Confirmations count sessions; reset starts again; use is counted."""
    with make_store() as store:
        m = store.add("u", "I prefer aisle seats", session="s1", at=T0)
        c = store.confirm("u", m.id, session="s2", emotional=True, at=T1)
        _expect((c.confirm_count, c.confirmed_sessions, c.last_seen_at) ==
                (2, ("s1", "s2"), T1), f"confirm result {c}")
        _expect(c.confirmations[-1]["emotional"] is True, "emotional flag lost")
        store.mark_used("u", [m.id], at=T2)
        store.mark_used("u", [])
        used = store.get("u", m.id)
        _expect((used.use_count, used.last_used_at) == (1, T2), f"mark_used result {used}")
        _rejects(store, ["u"], InvalidInputError, "confirm(session='')",
                 store.confirm, "u", m.id, session="")
        r = store.reset_confirmations("u", m.id, reason="contradicted", at=T2)
        _expect((r.confirm_count, r.confirmations, r.updated_at, r.use_count) == (0, (), T2, 1),
                f"reset_confirmations result {r}")
        log = store.transitions("u", m.id)[-1]
        _expect(log["from_status"] == log["to_status"] == m.status and
                "contradicted" in log["reason"], f"reset_confirmations log {log}")
        _rejects(store, ["u"], InvalidInputError, "reset_confirmations(reason='')",
                 store.reset_confirmations, "u", m.id, reason=" ")
        _rejects(store, ["u"], MemoryNotFoundError, "reset_confirmations of a missing id",
                 store.reset_confirmations, "u", 10**9, reason="x")
        _rejects(store, ["u"], InvalidInputError, "mark_used(at='now')",
                 store.mark_used, "u", [m.id], at="now")


def check_forget(make_store: StoreFactory) -> None:
    secret = "My locker code is 4471 我的储物柜密码"
    with make_store() as store:
        m = store.add("u", secret)
        keep = store.add("u", "I like hiking")
        store.update("u", m.id, reason="typo", content=secret + "!")
        store.forget("u", m.id, reason="user asked")
        _raises(MemoryNotFoundError, "get after forget", store.get, "u", m.id)
        _expect([x.id for x in store.list("u")] == [keep.id], "list after forget")
        for query in (secret, "4471", "储物柜", "locker"):
            _expect(m.id not in _ids(store.search("u", query, k=10)), f"search({query!r})")
        _expect(store.find_exact("u", secret + "!") == [], "find_exact after forget")
        _expect(store.history("u", m.id) == [], "forget must erase history")
        log = store.transitions("u", m.id)
        _expect(log[-1]["to_status"] == "deleted" and log[-1]["reason"] == "user asked",
                f"forget must be logged: {log}")
        _expect(all(secret not in json.dumps(t, ensure_ascii=False) for t in log),
                "the transition log holds the content")
        _rejects(store, ["u"], MemoryNotFoundError, "forget twice", store.forget, "u", m.id)
        _expect(store.get("u", keep.id) == keep, "forget changed another memory")


def check_ids_never_reused(make_store: StoreFactory) -> None:
    """An erased id is never given to a new memory (logs and links stay unambiguous)."""
    with make_store() as store:
        first = store.add("u", "first memory")
        last = store.add("u", "last memory")
        store.forget("u", last.id)
        new = store.add("u", "a new memory")
        _expect(new.id not in (first.id, last.id), f"id {new.id} was reused")
        log = store.transitions("u", new.id)
        _expect([(t["from_status"], t["to_status"]) for t in log] == [(None, "candidate")],
                f"a new memory inherited a log: {log}")
        store.purge_scope("u")
        again = store.add("u", "after a purge")
        _expect(again.id > new.id, f"id {again.id} was reused after purge_scope")


def check_purge_scope(make_store: StoreFactory) -> None:
    with make_store() as store:
        store.add_many("p", [{"content": f"purge me {i}"} for i in range(3)])
        q = store.add("q", "purge me too, but not now")
        _expect(store.purge_scope("p") == 3, "purge_scope must count erased memories")
        _expect(store.list("p") == [] and store.transitions("p") == [] and
                store.search("p", "purge me") == [], "purge_scope left data behind")
        _expect("p" not in store.scopes() and "q" in store.scopes(), f"{store.scopes()}")
        _expect(store.purge_scope("p") == 0, "purging an empty scope erases nothing")
        _expect(store.get("q", q.id) == q, "purge_scope changed another scope")
        _expect(store.forget_all("q") == 1 and store.list("q") == [], "forget_all")


def check_find_exact(make_store: StoreFactory) -> None:
    with make_store() as store:
        m = store.add("u", "I like Green Tea.")
        for same in ("i like green tea", "I LIKE GREEN TEA!!!", "Ｉ ｌｉｋｅ ＧＲＥＥＮ ｔｅａ"):
            _expect([x.id for x in store.find_exact("u", same)] == [m.id], f"find_exact({same!r})")
        _expect(store.find_exact("u", "I like green tee") == [], "different text matched")
        n = store.add("u", "The budget is 1,000.00 euros")
        _expect([x.id for x in store.find_exact("u", "the budget is 1000 euros")] == [n.id],
                "number formats must be unified")
        for text, other in (("Mein Name ist Müller", "Mein Name ist Möller"),
                            ("Я живу в Москве", "Я живу в Казани"), ("我喜欢猫", "我喜欢狗")):
            x = store.add("u", text)
            _expect(store.find_exact("u", other) == [], f"find_exact({other!r}) matched {text!r}")
            _expect([y.id for y in store.find_exact("u", text)] == [x.id], f"find_exact({text!r})")
        store.transition("u", m.id, "archived", reason="x")
        _expect(store.find_exact("u", "i like green tea") == [], "archived is not live")
        _expect([x.id for x in store.find_exact("u", "i like green tea", statuses=["archived"])]
                == [m.id], "statuses filter of find_exact")


_PORTABLE = ("content", "kind", "category", "subject", "qualifiers", "importance", "confidence",
             "source", "slot", "source_ref", "created_at")


def check_export_import(make_store: StoreFactory) -> None:
    """Export then import keeps every portable field; a bad file writes nothing."""
    with make_store() as store:
        store.add("src", "我对花生过敏", category="constraint", importance=9, status="frozen",
                  qualifiers=["食物"], source_ref={"turn": 1}, at=T0)
        store.add("src", "Visited Kyoto", category="event", source="implicit", at=T1)
        old = store.add("src", "I live in Berlin", slot="city", status="confirmed", at=T0)
        store.transition("src", old.id, "superseded", reason="moved")
        lines = list(store.export("src"))
        _expect(len(lines) == 3 and all(isinstance(json.loads(x), dict) for x in lines),
                "export must yield one JSON object per memory")
        imported = store.import_("dst", lines)
        originals = store.list("src")
        _expect(len(imported) == 3 and store.list("dst") == imported, "import result")
        for a, b in zip(originals, imported, strict=True):
            for name in _PORTABLE:
                _expect(getattr(a, name) == getattr(b, name),
                        f"import lost {name}: {getattr(a, name)!r} != {getattr(b, name)!r}")
            _expect(b.status == ("archived" if a.status == "superseded" else a.status),
                    f"status {a.status} imported as {b.status}")
        good = json.dumps({"content": "a good line"})
        for bad in ([good, "{not json", good], [good, "[1, 2]"], [good, json.dumps({"x": 1})],
                    [good, json.dumps({"content": "bad", "importance": 99})],
                    [good, json.dumps({"content": "  "})],
                    [good, json.dumps({"content": "late", "created_at": "yesterday"})]):
            _rejects(store, ["dst"], FormatError, f"import_({bad!r})", store.import_, "dst", bad)


def check_stats(make_store: StoreFactory) -> None:
    with make_store() as store:
        store.add("u", "I prefer tea", category="preference", status="confirmed")
        store.add("u", "Went to Rome", category="event")
        store.add("v", "another scope")
        stats = store.stats("u")
        _expect((stats["total"], stats["by_status"], stats["by_kind"], stats["by_category"]) ==
                (2, {"confirmed": 1, "candidate": 1}, {"semantic": 1, "episodic": 1},
                 {"preference": 1, "event": 1}), f"stats {stats}")


BAD_FIELDS: tuple[dict[str, Any], ...] = (
    {"content": ""}, {"content": " \n\t "}, {"content": 42}, {"content": None},
    {"content": b"bytes"}, {"content": ["list"]}, {"kind": "opinion"}, {"category": "gossip"},
    {"status": "zombie"}, {"source": "rumour"}, {"kind": ["semantic"]}, {"status": {"x": 1}},
    {"importance": "5"}, {"importance": 5.5}, {"importance": True}, {"importance": 0},
    {"importance": 11}, {"importance": float("nan")}, {"confidence": "high"},
    {"confidence": 1.5}, {"confidence": -0.1}, {"confidence": float("nan")},
    {"confidence": float("inf")}, {"qualifiers": "abc"}, {"qualifiers": [1]},
    {"source_ref": [1]}, {"source_ref": {"x": object()}}, {"at": "2024-01-01"},
    {"at": datetime(2024, 1, 1)}, {"session": ""}, {"subject": ""}, {"subject": 42},
    {"slot": ""}, {"colour": "red"},
)
"""Fields that make an otherwise valid memory invalid."""


def check_bad_input_leaves_store_unchanged(make_store: StoreFactory) -> None:
    """Wrong types, ranges and names raise InvalidInputError and change nothing."""
    with make_store() as store:
        m = store.add("u", "I like green tea")
        too_long = "x" * (store.config.max_content_chars + 1)
        for fields in (*BAD_FIELDS, {"content": too_long}):
            item = {"content": "a valid memory", **fields}
            _rejects(store, ["u"], InvalidInputError, f"add({fields!r})", store.add_many, "u",
                     [item])
        for bad_id in ("1", 1.0, True, None):
            _rejects(store, ["u"], InvalidInputError, f"get({bad_id!r})", store.get, "u", bad_id)
            _rejects(store, ["u"], InvalidInputError, f"forget({bad_id!r})",
                     store.forget, "u", bad_id)
            _rejects(store, ["u"], InvalidInputError, f"update({bad_id!r})",
                     store.update, "u", bad_id, reason="r", importance=3)
        _rejects(store, ["u"], InvalidInputError, "search(kinds)",
                 store.search, "u", "tea", kinds=["opinion"])
        _rejects(store, ["u"], InvalidInputError, "search(statuses)",
                 store.search, "u", "tea", statuses=["zombie"])
        _rejects(store, ["u"], InvalidInputError, "find_exact(statuses)",
                 store.find_exact, "u", "tea", statuses=["x"])
        _rejects(store, ["u"], InvalidInputError, "update(naive at)", store.update, "u", m.id,
                 reason="r", at=datetime(2024, 1, 1), importance=3)


def check_transaction_rollback(make_store: StoreFactory) -> None:
    class _Abort(Exception):
        pass

    with make_store() as store:
        keep = store.add("u", "kept memory")
        with _unchanged(store, ["u"], "a rolled-back transaction"):
            try:
                with store.transaction():
                    store.add("u", "rolled back one")
                    store.update("u", keep.id, reason="r", content="changed in vain")
                    raise _Abort
            except _Abort:
                pass
        _expect(all(h.memory.content != "rolled back one"
                    for h in store.search("u", "rolled back one")),
                "search returns a rolled-back memory")
        with store.transaction():
            a = store.add("u", "committed one")
            b = store.add("u", "committed two")
        _expect([m.id for m in store.list("u")] == [keep.id, a.id, b.id], "commit lost rows")
        _expect(_ids(store.search("u", "committed two"))[0] == b.id, "index not updated")


def check_closed_store(make_store: StoreFactory) -> None:
    store = make_store()
    memory = store.add("u", "content here")
    store.close()
    store.close()  # closing twice is harmless
    for name, call in _scoped_calls(store, memory.id).items():
        _raises(StoreClosedError, f"{name} after close", call, "u")
    _raises(StoreClosedError, "scopes after close", store.scopes)
