"""Test helpers for users of hermes-graph and for its own test suite.

* :class:`HashingEmbeddings` — deterministic offline embeddings (no model, no network).
* :class:`FakeClock` — a clock that only moves when told to.
* :func:`snapshot` — everything a store holds for some scopes, through the public API.
* A **store conformance suite**: plain ``check_*`` functions that any storage
  backend must pass. Each takes a factory returning a *fresh, empty* store and
  closes the stores it opens::

      from hermes_graph.testing import run_store_conformance
      run_store_conformance(lambda: MemoryStore(tmp / "m.db", embeddings=HashingEmbeddings()))

A failed check raises :class:`ConformanceError` (an ``AssertionError``) that
names the check and what went wrong.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

from hermes_graph.clock import FakeClock
from hermes_graph.embeddings.fake import HashingEmbeddings
from hermes_graph.errors import (
    FormatError,
    IllegalTransitionError,
    InvalidInputError,
    MemoryNotFoundError,
    ScopeError,
    StoreClosedError,
)
from hermes_graph.store.lifecycle import can_transition
from hermes_graph.store.memory_store import MemoryStore
from hermes_graph.store.records import memory_to_record
from hermes_graph.types import STATUSES, Memory, Status

__all__ = [
    "CONFORMANCE_CHECKS",
    "SCOPED_CALLS",
    "ConformanceError",
    "FakeClock",
    "HashingEmbeddings",
    "StoreFactory",
    "run_store_conformance",
    "snapshot",
]

StoreFactory = Callable[[], MemoryStore]
"""Returns a new, empty store each time it is called."""

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc)
T1 = T0 + timedelta(days=3)
T2 = T0 + timedelta(days=9)


class ConformanceError(AssertionError):
    """A store backend broke the store contract."""


# --- helpers -------------------------------------------------------------------
def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def _raises(expected: type[BaseException], what: str, call: Callable[..., object],
            *args: Any, **kwargs: Any) -> BaseException:
    """``call(*args, **kwargs)`` must raise ``expected`` with a non-empty message."""
    try:
        result = call(*args, **kwargs)
        if isinstance(result, Iterator):
            list(result)  # a lazy call (export) raises when consumed
    except expected as exc:
        _expect(bool(str(exc).strip()), f"{what}: {type(exc).__name__} has no message")
        return exc
    except Exception as exc:
        raise ConformanceError(
            f"{what}: expected {expected.__name__}, got {type(exc).__name__}: {exc}") from exc
    raise ConformanceError(f"{what}: expected {expected.__name__}, nothing was raised")


def snapshot(store: MemoryStore, scopes: Iterable[str] = ()) -> dict[str, Any]:
    """Memories, transitions and history of ``scopes`` plus every listed scope."""
    state: dict[str, Any] = {"scopes": store.scopes()}
    for scope in sorted(set(scopes) | set(state["scopes"])):
        memories = store.list(scope)
        state[scope] = {
            "memories": [memory_to_record(m) for m in memories],
            "transitions": store.transitions(scope),
            "history": {m.id: store.history(scope, m.id) for m in memories},
        }
    return state


@contextmanager
def _unchanged(store: MemoryStore, scopes: Iterable[str], what: str) -> Iterator[None]:
    scopes = tuple(scopes)
    before = snapshot(store, scopes)
    yield
    after = snapshot(store, scopes)
    _expect(before == after, f"{what} changed the store:\nbefore={before}\nafter={after}")


def _rejects(store: MemoryStore, scopes: Iterable[str], expected: type[BaseException],
             what: str, call: Callable[..., object], *args: Any,
             **kwargs: Any) -> BaseException:
    """``call`` raises ``expected`` and leaves the store exactly as it was."""
    with _unchanged(store, scopes, what):
        return _raises(expected, what, call, *args, **kwargs)


def _ids(hits: Iterable[Any]) -> list[int]:
    return [h.memory.id for h in hits]


# --- the checks ------------------------------------------------------------------
def check_add_and_get(make_store: StoreFactory) -> None:
    """Fields round-trip; defaults and the kind/category pairing are applied."""
    with make_store() as store:
        m = store.add("u", "  I live in Berlin  ", category="identity", qualifiers=["home", "city"],
                      importance=7, confidence=0.9, status="confirmed", slot="city",
                      source_ref={"turn": 3, "文": "中"}, at=T0, session="s1")
        expected = {"scope": "u", "content": "I live in Berlin", "kind": "semantic",
                    "category": "identity", "subject": "user", "qualifiers": ("city", "home"),
                    "importance": 7, "confidence": 0.9, "source": "explicit",
                    "status": "confirmed", "slot": "city", "source_ref": {"turn": 3, "文": "中"},
                    "created_at": T0, "updated_at": T0, "last_seen_at": T0,
                    "last_used_at": None, "use_count": 0, "confirm_count": 1, "version": 1,
                    "superseded_by": None, "override_of": None}
        for name, value in expected.items():
            _expect(getattr(m, name) == value,
                    f"add: {name} is {getattr(m, name)!r}, expected {value!r}")
        _expect(m.confirmed_sessions == ("s1",), f"add: sessions {m.confirmed_sessions}")
        _expect(store.get("u", m.id) == m, "get returns a different memory than add")
        d = store.add("u", "I like green tea", at=T0)
        _expect((d.kind, d.category, d.subject, d.importance, d.confidence, d.source, d.status,
                 d.qualifiers, d.slot, d.confirm_count) ==
                ("semantic", "fact", "user", 5, 0.8, "explicit", "candidate", (), None, 0),
                f"add: wrong defaults {d}")
        _expect(store.add("u", "Met Anna at the fair", category="event").kind == "episodic",
                "category event must imply kind episodic")
        _expect(store.add("u", "Always answer in French", kind="procedural").category == "rule",
                "kind procedural must imply category rule")
        batch = store.add_many("u", [{"content": f"batch item {i}"} for i in range(3)])
        _expect([b.content for b in batch] == [f"batch item {i}" for i in range(3)],
                "add_many must return memories in input order")
        _expect(len({b.id for b in batch} | {m.id, d.id}) == 5, "ids must be distinct")
        _expect(store.add_many("u", []) == [], "add_many([]) must add nothing")
        ids = [x.id for x in store.list("u")]
        _expect(len(ids) == 7 and ids == sorted(ids), "list must return all, oldest first")
        _raises(MemoryNotFoundError, "get of a missing id", store.get, "u", 10**9)


def check_add_many_is_all_or_nothing(make_store: StoreFactory) -> None:
    with make_store() as store:
        store.add("u", "already here")
        for bad in ([{"content": "valid one"}, {"content": "  "}],
                    [{"content": "valid one"}, {"content": "valid two", "importance": 11}],
                    [{"content": "valid one"}, "not a mapping"],
                    [{"content": "valid one"}, {"content": "valid two", "colour": "red"}]):
            _rejects(store, ["u"], InvalidInputError, f"add_many({bad!r})",
                     store.add_many, "u", bad)


def check_list_filters(make_store: StoreFactory) -> None:
    with make_store() as store:
        a = store.add("u", "I prefer window seats", category="preference", status="confirmed")
        b = store.add("u", "Visited Kyoto in spring", category="event")
        c = store.add("u", "Reply in English", kind="procedural", status="archived")
        cases: list[tuple[dict[str, Any], list[int]]] = [
            ({}, [a.id, b.id, c.id]), ({"statuses": ["confirmed"]}, [a.id]),
            ({"statuses": "archived"}, [c.id]), ({"kinds": ["episodic"]}, [b.id]),
            ({"kinds": "procedural"}, [c.id]),
            ({"categories": ["preference", "rule"]}, [a.id, c.id]),
            ({"categories": "event"}, [b.id]), ({"limit": 2}, [a.id, b.id]),
        ]
        for filters, expected in cases:
            got = [m.id for m in store.list("u", **filters)]
            _expect(got == expected, f"list(**{filters}) returned {got}, expected {expected}")
        for filters in ({"statuses": ["zombie"]}, {"kinds": ["opinion"]},
                        {"categories": ["gossip"]}, {"categories": 3}, {"limit": -1},
                        {"limit": "2"}):
            _rejects(store, ["u"], InvalidInputError, f"list(**{filters})",
                     store.list, "u", **filters)


def _scoped_calls(store: MemoryStore, memory_id: int) -> dict[str, Callable[[Any], object]]:
    line = json.dumps({"content": "imported memory"})
    return {
        "add": lambda s: store.add(s, "content here"),
        "add_many": lambda s: store.add_many(s, [{"content": "content here"}]),
        "get": lambda s: store.get(s, memory_id),
        "list": lambda s: store.list(s),
        "find_exact": lambda s: store.find_exact(s, "content here"),
        "search": lambda s: store.search(s, "content"),
        "vectors": lambda s: store.vectors(s, [memory_id]),
        "transition": lambda s: store.transition(s, memory_id, "confirmed", reason="r"),
        "update": lambda s: store.update(s, memory_id, reason="r", importance=6),
        "confirm": lambda s: store.confirm(s, memory_id, session="s"),
        "reset_confirmations": lambda s: store.reset_confirmations(s, memory_id, reason="r"),
        "mark_used": lambda s: store.mark_used(s, [memory_id]),
        "forget": lambda s: store.forget(s, memory_id),
        "forget_all": lambda s: store.forget_all(s),
        "purge_scope": lambda s: store.purge_scope(s),
        "transitions": lambda s: store.transitions(s),
        "history": lambda s: store.history(s, memory_id),
        "reembed": lambda s: store.reembed(s),
        "export": lambda s: store.export(s),
        "import_": lambda s: store.import_(s, [line]),
        "stats": lambda s: store.stats(s),
    }


SCOPED_CALLS: tuple[str, ...] = (
    "add", "add_many", "get", "list", "find_exact", "search", "vectors", "transition", "update",
    "confirm", "reset_confirmations", "mark_used", "forget", "forget_all", "purge_scope",
    "transitions", "history", "reembed", "export", "import_", "stats")
"""Every store method that takes a scope; each is exercised by :func:`check_scope_required`."""


def check_scope_required(make_store: StoreFactory) -> None:
    """There is no default scope: a missing, empty or non-text scope raises ScopeError."""
    with make_store() as store:
        memory = store.add("u", "content here")
        too_long = "x" * (store.config.max_scope_chars + 1)
        calls = _scoped_calls(store, memory.id)
        _expect(set(calls) == set(SCOPED_CALLS), "SCOPED_CALLS is out of date")
        for name, call in calls.items():
            for bad in (None, "", "   ", "\n\t", 42, b"u", ["u"], too_long):
                _rejects(store, ["u"], ScopeError, f"{name}(scope={bad!r})", call, bad)


def check_scope_isolation(make_store: StoreFactory) -> None:
    """Nothing of one scope is visible to, or changeable from, another."""
    text = "I am allergic to peanuts 我对花生过敏"
    with make_store() as store:
        a = store.add("alice", text)
        b = store.add("bob", text)
        for scope, mine in (("alice", a), ("bob", b)):
            for query in ("peanuts", "花生", text):
                hits = store.search(scope, query, k=10)
                _expect(_ids(hits) == [mine.id], f"search({scope!r}, {query!r}) -> {_ids(hits)}")
            _expect([m.id for m in store.list(scope)] == [mine.id], f"list({scope!r})")
            _expect([m.id for m in store.find_exact(scope, text)] == [mine.id],
                    f"find_exact({scope!r})")
        for near in ("Alice", "alice ", " alice", "alic"):
            _expect(store.list(near) == [] and store.search(near, "peanuts") == [],
                    f"scope {near!r} must be distinct from 'alice'")
        both = ["alice", "bob"]
        _rejects(store, both, MemoryNotFoundError, "get via bob", store.get, "bob", a.id)
        _rejects(store, both, MemoryNotFoundError, "forget via bob", store.forget, "bob", a.id)
        _rejects(store, both, MemoryNotFoundError, "transition via bob",
                 store.transition, "bob", a.id, "confirmed", reason="x")
        _rejects(store, both, MemoryNotFoundError, "update via bob",
                 store.update, "bob", a.id, reason="x", content="hacked")
        _rejects(store, both, MemoryNotFoundError, "confirm via bob",
                 store.confirm, "bob", a.id, session="s9")
        _rejects(store, both, MemoryNotFoundError, "link across scopes",
                 store.update, "bob", b.id, reason="x", superseded_by=a.id)
        _rejects(store, both, MemoryNotFoundError, "transition link across scopes",
                 store.transition, "bob", b.id, "superseded", reason="x", superseded_by=a.id)
        _expect(set(store.vectors("alice", [a.id, b.id])) == {a.id} and
                store.vectors("bob", [a.id]) == {}, "vectors must only return the scope's own")
        with _unchanged(store, ["alice"], "mark_used through another scope"):
            store.mark_used("bob", [a.id], at=T1)
        _expect(store.purge_scope("bob") == 1, "purge_scope('bob') must erase one memory")
        _expect(store.get("alice", a.id) == a, "purging bob changed alice's memory")
        _expect(_ids(store.search("alice", "peanuts")) == [a.id], "alice lost her memory")


def check_search(make_store: StoreFactory) -> None:
    with make_store() as store:
        _expect(store.search("u", "anything at all") == [], "search of an empty scope")
        texts = ["I live in Berlin", "My sister plays the cello", "I drink green tea daily",
                 "The office wifi password rotates monthly"]
        memories = store.add_many("u", [{"content": t} for t in texts])
        event = store.add("u", "Visited the cello museum in Berlin", category="event")
        for memory in memories:
            hits = store.search("u", memory.content, k=5)
            _expect(bool(hits) and hits[0].memory.id == memory.id,
                    f"search for exact content {memory.content!r} -> {_ids(hits)}")
            top = hits[0]
            _expect(math.isclose(top.vector_score, 1.0, abs_tol=1e-4) and
                    set(top.routes) == {"vector", "keyword"} and 0.0 <= top.score <= 1.0 + 1e-6,
                    f"exact hit scores: {top}")
            _expect([h.score for h in hits] == sorted((h.score for h in hits), reverse=True),
                    "hits must be best first")
        _expect(len(store.search("u", "Berlin", k=1)) == 1, "k=1 must return one hit")
        _expect(_ids(store.search("u", "cello Berlin", kinds=["episodic"])) == [event.id],
                "kinds filter")
        store.transition("u", memories[0].id, "archived", reason="moved away")
        _expect(memories[0].id not in _ids(store.search("u", "I live in Berlin", k=10)),
                "archived memories must not be returned by default")
        archived = store.search("u", "I live in Berlin", statuses=["archived"])
        _expect(_ids(archived) == [memories[0].id], "statuses filter")
        for bad_query in ("", "   ", None, 42):
            _rejects(store, ["u"], InvalidInputError, f"search(query={bad_query!r})",
                     store.search, "u", bad_query)
        for bad_k in (0, -1, "3", True, 2.5):
            _rejects(store, ["u"], InvalidInputError, f"search(k={bad_k!r})",
                     store.search, "u", "Berlin", k=bad_k)


KEYWORD_CORPUS: tuple[str, ...] = (
    "我对花生过敏", "项目代号叫星火计划", "我每天早上喝绿茶", "The deployment ticket is ACME-113",
    "I moved to Lisbon in 2019", "My sister plays the cello", "The budget is 1,500 euros",
)
KEYWORD_QUERIES: tuple[tuple[str, int], ...] = (
    ("花生", 0), ("对花生有什么要注意的", 0), ("星火", 1), ("星火计划进度", 1), ("绿茶", 2),
    ("ACME-113", 3), ("acme-113", 3), ("ＡＣＭＥ－１１３", 3), ("acme113", 3), ("2019", 4),
    ("Lisbon", 4), ("LISBON?", 4), ("cello", 5), ("1500", 6), ("1,500", 6),
)
"""Query -> index in :data:`KEYWORD_CORPUS` of the only memory containing the term."""


def check_keyword_search(make_store: StoreFactory) -> None:
    """Chinese bigrams inside unsegmented sentences, English words, numbers and codes."""
    with make_store() as store:
        memories = store.add_many("u", [{"content": t} for t in KEYWORD_CORPUS])
        for query, index in KEYWORD_QUERIES:
            target = memories[index].id
            hits = store.search("u", query, k=len(memories))
            _expect(bool(hits) and hits[0].memory.id == target,
                    f"search({query!r}) ranked {_ids(hits)}, expected {target} first")
            _expect("keyword" in hits[0].routes and hits[0].keyword_score > 0,
                    f"search({query!r}): keyword route missed {hits[0]}")
            false = [h.memory.content for h in hits[1:] if h.keyword_score > 0]
            _expect(not false, f"search({query!r}): keyword hits on {false}")


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


CONFORMANCE_CHECKS: tuple[Callable[[StoreFactory], None], ...] = (
    check_add_and_get, check_add_many_is_all_or_nothing, check_list_filters,
    check_scope_required, check_scope_isolation, check_search, check_keyword_search,
    check_lifecycle, check_update_and_history, check_confirm_and_mark_used, check_forget,
    check_ids_never_reused, check_purge_scope, check_find_exact, check_export_import,
    check_stats, check_bad_input_leaves_store_unchanged, check_transaction_rollback,
    check_closed_store,
)


def run_store_conformance(make_store: StoreFactory) -> None:
    """Run every conformance check; raises :class:`ConformanceError` on the first failure."""
    for check in CONFORMANCE_CHECKS:
        try:
            check(make_store)
        except ConformanceError as exc:
            raise ConformanceError(f"{check.__name__}: {exc}") from exc
