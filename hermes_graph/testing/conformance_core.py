"""Conformance checks: adding, reading, listing, scopes, vector and keyword search."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from hermes_graph.errors import (
    InvalidInputError,
    MemoryNotFoundError,
    ScopeError,
)
from hermes_graph.store.memory_store import MemoryStore
from hermes_graph.testing._support import (
    T0,
    T1,
    StoreFactory,
    _expect,
    _ids,
    _raises,
    _rejects,
    _unchanged,
)


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
        a = store.add("u", "I prefer window seats", category="preference", status="confirmed",
                      importance=8, slot="seat")
        b = store.add("u", "Visited Kyoto in spring", category="event", subject="user.son")
        c = store.add("u", "Reply in English", kind="procedural", status="archived",
                      importance=6, slot="language")
        cases: list[tuple[dict[str, Any], list[int]]] = [
            ({}, [a.id, b.id, c.id]), ({"statuses": ["confirmed"]}, [a.id]),
            ({"statuses": "archived"}, [c.id]), ({"kinds": ["episodic"]}, [b.id]),
            ({"kinds": "procedural"}, [c.id]),
            ({"categories": ["preference", "rule"]}, [a.id, c.id]),
            ({"categories": "event"}, [b.id]), ({"limit": 2}, [a.id, b.id]),
            ({"slots": ["language", "seat"]}, [a.id, c.id]), ({"subjects": "user.son"}, [b.id]),
            ({"min_importance": 6}, [a.id, c.id]),
            ({"most_important_first": True}, [a.id, c.id, b.id]),
        ]
        for filters, expected in cases:
            got = [m.id for m in store.list("u", **filters)]
            _expect(got == expected, f"list(**{filters}) returned {got}, expected {expected}")
        _expect(store.count("u") == 3, "count of a scope")
        _expect(store.count("u", statuses=["archived", "confirmed"]) == 2, "count by status")
        _expect(store.count("elsewhere") == 0, "count of an empty scope")
        for filters in ({"statuses": ["zombie"]}, {"kinds": ["opinion"]},
                        {"categories": ["gossip"]}, {"categories": 3}, {"limit": -1},
                        {"limit": "2"}, {"slots": [""]}, {"subjects": [3]},
                        {"min_importance": 11}):
            _rejects(store, ["u"], InvalidInputError, f"list(**{filters})",
                     store.list, "u", **filters)


def _scoped_calls(store: MemoryStore, memory_id: int) -> dict[str, Callable[[Any], object]]:
    line = json.dumps({"content": "imported memory"})
    return {
        "add": lambda s: store.add(s, "content here"),
        "add_many": lambda s: store.add_many(s, [{"content": "content here"}]),
        "get": lambda s: store.get(s, memory_id),
        "list": lambda s: store.list(s),
        "count": lambda s: store.count(s),
        "find_exact": lambda s: store.find_exact(s, "content here"),
        "search": lambda s: store.search(s, "content"),
        "vectors": lambda s: store.vectors(s, [memory_id]),
        "follow_ups": lambda s: store.follow_ups(s, [store.get("u", memory_id)], turns=1),
        "transition": lambda s: store.transition(s, memory_id, "confirmed", reason="r"),
        "update": lambda s: store.update(s, memory_id, reason="r", importance=6),
        "confirm": lambda s: store.confirm(s, memory_id, session="s"),
        "reset_confirmations": lambda s: store.reset_confirmations(s, memory_id, reason="r"),
        "mark_used": lambda s: store.mark_used(s, [memory_id]),
        "record_decision": lambda s: store.record_decision(s, action="drop", reason="r"),
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
    "add", "add_many", "get", "list", "count", "find_exact", "search", "vectors", "follow_ups",
    "transition",
    "update", "confirm", "reset_confirmations", "mark_used", "record_decision", "forget",
    "forget_all", "purge_scope", "transitions", "history", "reembed", "export", "import_",
    "stats")
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


def check_follow_ups(make_store: StoreFactory) -> None:
    """The memories said in the next (and, asked, the previous) turns of the same source
    session, in the asked scope, kinds and statuses only (reply carry)."""
    def said(scope: str, text: str, session: str, turn: int, kind: str = "episodic") -> Any:
        return store.add(scope, text, kind=kind, category="event" if kind == "episodic"
                         else "fact", source_ref={"session": session, "turn": turn})

    with make_store() as store:
        ask = said("u", "Can I get the recipe?", "s1", 4)
        reply = said("u", "Sure, I will mail it to you", "s1", 5)
        later = said("u", "Thanks a lot!", "s1", 6)
        said("u", "Too far to carry", "s1", 7)
        said("u", "Another session, same turn", "s2", 5)
        said("u", "A fact said in the reply turn", "s1", 5, kind="semantic")
        said("other", "Another scope, same session and turn", "s1", 5)
        bare = store.add("u", "No source turn recorded")
        found = store.follow_ups("u", [ask, bare], turns=2, kinds=["episodic"])
        got = {k: [(step, m.id) for step, m in v] for k, v in found.items()}
        _expect(got == {ask.id: [(1, reply.id), (2, later.id)]},
                f"follow_ups(turns=2, kinds=['episodic']) -> {got}")
        one = store.follow_ups("u", [ask], turns=1)
        _expect({m.content for _, m in one.get(ask.id, [])} ==
                {reply.content, "A fact said in the reply turn"}, f"turns=1, any kind: {one}")
        store.transition("u", reply.id, "archived", reason="old")
        live = store.follow_ups("u", [ask], turns=1, kinds=["episodic"])
        _expect(live == {}, f"archived memories are not live follow-ups: {live}")
        _expect(store.follow_ups("u", [ask], turns=0) == {}, "turns=0 finds nothing")
        back = store.follow_ups("u", [later], turns=0, turns_before=2, kinds=["episodic"])
        got = {k: [(step, m.id) for step, m in v] for k, v in back.items()}
        _expect(got == {later.id: [(-2, ask.id)]},  # the archived reply is not live
                f"follow_ups(turns=0, turns_before=2) -> {got}")
        for bad in (-1, "2", True, 1.5):
            _rejects(store, ["u"], InvalidInputError, f"follow_ups(turns={bad!r})",
                     store.follow_ups, "u", [ask], turns=bad)
            _rejects(store, ["u"], InvalidInputError, f"follow_ups(turns_before={bad!r})",
                     store.follow_ups, "u", [ask], turns=1, turns_before=bad)


def check_said_between(make_store: StoreFactory) -> None:
    """``list`` and ``search`` with ``said_between=(start, end)``: memories created in
    [start, end), other filters still applied (the time-anchor route)."""
    day = timedelta(days=1)
    with make_store() as store:
        first = store.add("u", "Went to the support group", category="event", at=T0)
        second = store.add("u", "Painted a sunset", category="event", at=T0 + day)
        third = store.add("u", "Signed up for a pottery class", category="event",
                          at=T0 + 2 * day)
        store.add("other", "Another scope, same day", category="event", at=T0)
        cases: list[tuple[tuple[datetime, datetime], dict[str, Any], list[int]]] = [
            ((T0, T0 + day), {}, [first.id]),
            ((T0 + day, T0 + 3 * day), {}, [second.id, third.id]),
            ((T0 - day, T0 + 3 * day), {"limit": 1}, [first.id]),
            ((T0 + 3 * day, T0 + 4 * day), {}, []),
        ]
        store.transition("u", third.id, "archived", reason="old")
        cases.append(((T0, T0 + 3 * day), {"statuses": ["archived"]}, [third.id]))
        for window, filters, expected in cases:
            got = [m.id for m in store.list("u", said_between=window, **filters)]
            _expect(got == expected, f"list(said_between={window}, **{filters}) -> {got}")
        searched = [(window, _ids(store.search("u", "painted a sunset", k=5,
                                               said_between=window)))
                    for window in ((T0, T0 + day), (T0, T0 + 3 * day), (T0 + 3 * day, T1))]
        _expect(searched[0][1] == [first.id] and searched[1][1][:1] == [second.id]
                and set(searched[1][1]) == {first.id, second.id} and searched[2][1] == [],
                f"search(said_between=...) must only rank live memories said then: {searched}")
        naive = datetime(2024, 1, 1)
        for bad in ((T0 + day, T0), (naive, T0), (T0,), "yesterday", (T0, "later")):
            _rejects(store, ["u"], InvalidInputError, f"list(said_between={bad!r})",
                     store.list, "u", said_between=bad)
            _rejects(store, ["u"], InvalidInputError, f"search(said_between={bad!r})",
                     store.search, "u", "sunset", said_between=bad)
