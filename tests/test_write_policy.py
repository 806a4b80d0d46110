"""Write-side mechanisms (seeds 000, 001, 004), one focused test each, with a fake clock.

Real SQLite/FAISS stores and the real rule extractor; nothing of ours is mocked.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.clock import FakeClock
from hermes_graph.extract.base import Turn
from hermes_graph.extract.rules import RuleExtractor
from hermes_graph.nodes.gate import gate_candidates
from hermes_graph.nodes.persist import apply_decisions, maintain
from hermes_graph.types import Candidate, Memory
from hermes_graph.writer import write_turns

CONFIG = MemoryConfig()


def say(store: MemoryStore, scope: str, session: str, text: str, at: datetime,
        previous: list[Turn] | None = None) -> list[dict[str, object]]:
    turns = [*(previous or []), Turn(role="user", content=text, session=session, index=0, at=at)]
    return [dict(d) for d in write_turns(store, RuleExtractor(CONFIG), scope=scope,
                                         session=session, turns=turns, now=at, config=CONFIG)]


def live(store: MemoryStore, scope: str) -> list[Memory]:
    return store.list(scope, statuses=("candidate", "confirmed", "frozen"))


def contents(store: MemoryStore, scope: str) -> list[str]:
    return [m.content for m in live(store, scope)]


def test_chit_chat_and_one_off_requests_produce_nothing(store: MemoryStore,
                                                        clock: FakeClock) -> None:
    for text in ("早上好呀", "帮我算下 2375 除以 25 等于多少", "What's the weather in Paris today?",
                 "thanks a lot!", "Tell me a joke about giraffes", "哈哈哈谢谢"):
        assert all(d["action"] == "drop" for d in say(store, "u", "s1", text, clock()))
    assert store.list("u") == []


def test_exact_duplicate_confirms_instead_of_adding(store: MemoryStore, clock: FakeClock) -> None:
    say(store, "u", "s1", "I am allergic to peanuts.", clock())
    clock.advance(days=3)
    decisions = say(store, "u", "s2", "i am ALLERGIC to peanuts!!", clock())
    assert [d["action"] for d in decisions] == ["confirm"]
    [memory] = store.list("u")
    assert memory.confirm_count == 2 and memory.confirmed_sessions == ("s1", "s2")
    assert memory.last_seen_at == clock()


def test_qualifiers_keep_close_memories_apart(store: MemoryStore, clock: FakeClock) -> None:
    say(store, "u", "s1", "I prefer code examples.", clock())
    say(store, "u", "s2", "I prefer short code examples.", clock())
    assert contents(store, "u") == ["I prefer code examples", "I prefer short code examples"]


def test_change_signal_supersedes_a_single_valued_slot(store: MemoryStore,
                                                       clock: FakeClock) -> None:
    say(store, "u", "s1", "I live in Austin, near Zilker Park.", clock())
    clock.advance(days=40)
    [decision] = say(store, "u", "s2", "We moved to Portland last month!", clock())
    assert decision["action"] == "supersede"
    old = store.list("u", statuses=("superseded",))
    assert [m.content for m in old] == ["I live in Austin, near Zilker Park"]
    assert old[0].superseded_by == decision["memory_id"]
    assert contents(store, "u") == ["We moved to Portland last month (2024-01)"]  # its month kept


def test_without_a_change_signal_both_stay_and_the_older_loses_confidence(
        store: MemoryStore, clock: FakeClock) -> None:
    say(store, "u", "s1", "我在陆家嘴上班", clock())
    before = store.list("u")[0].confidence
    clock.advance(days=60)
    [decision] = say(store, "u", "s2", "我在漕河泾上班", clock())
    assert decision["action"] == "admit" and decision["target_ids"]
    first, second = store.list("u")
    assert first.confidence < before and second.confidence == before


def test_explicit_negation_retires_what_it_contradicts(store: MemoryStore,
                                                       clock: FakeClock) -> None:
    say(store, "u", "s1", "I love spicy Sichuan food.", clock())
    decisions = say(store, "u", "s2", "I don't eat spicy food anymore.", clock())
    assert decisions[0]["action"] == "supersede"
    assert "I love spicy Sichuan food" not in contents(store, "u")
    assert "I don't eat spicy food anymore" in contents(store, "u")


def test_forget_request_physically_erases_the_named_memory(store: MemoryStore, clock: FakeClock,
                                                           db_path: Path) -> None:
    say(store, "u", "s1", "I live in Leeds, and I'm a keen birdwatcher.", clock())
    decisions = say(store, "u", "s2", "Please forget where I live.", clock())
    assert decisions[0]["action"] == "forget"
    assert contents(store, "u") == ["I'm a keen birdwatcher"]
    store.close()
    assert b"Leeds" not in db_path.read_bytes()


def test_secret_leaves_no_trace_but_the_rest_is_kept(store: MemoryStore, clock: FakeClock,
                                                     db_path: Path) -> None:
    decisions = say(store, "u", "s1", "我 12306 的登录密码是 huoche@8871，我买卧铺一般都抢下铺",
                    clock())
    assert decisions[0]["reason"] == "filter:secret:password"
    assert contents(store, "u") == ["我买卧铺一般都抢下铺"]
    assert "8871" not in repr(decisions)
    store.close()
    raw = b"".join(p.read_bytes() for p in db_path.parent.iterdir() if p.is_file())
    assert b"huoche" not in raw and b"8871" not in raw


def test_third_party_facts_are_never_the_users_traits(store: MemoryStore,
                                                      clock: FakeClock) -> None:
    say(store, "u", "s1", "My friend Tom is terrified of flying and he hates airports.", clock())
    say(store, "u", "s1", "My roommate she is vegan.", clock())
    assert all(m.subject != "user" and m.importance <= 3 for m in store.list("u"))


def test_assistant_statements_never_become_memories(store: MemoryStore, clock: FakeClock) -> None:
    turns = [Turn(role="user", content="Sort my deadlines.", session="s1", index=0, at=clock()),
             Turn(role="assistant", content="Since you're a night owl, I'll assume you work late.",
                  session="s1", index=1, at=clock())]
    assert write_turns(store, RuleExtractor(), scope="u", session="s1", turns=turns, now=clock(),
                       config=CONFIG) == []
    assert store.list("u") == []


def test_emotional_remarks_are_marked(store: MemoryStore, clock: FakeClock) -> None:
    say(store, "u", "s1", "I hate everything about meetings, ugh!!", clock())
    [memory] = store.list("u")
    assert memory.source == "emotional" and memory.confidence < 0.8


def _frozen(store: MemoryStore, clock: FakeClock, content: str, slot: str) -> Memory:
    memory = store.add("u", content, category="preference", slot=slot, status="confirmed",
                       confidence=0.9, session="s0")
    for session in ("s1", "s2"):
        store.confirm("u", memory.id, session=session)
    maintain(store, "u", now=clock(), config=CONFIG)
    frozen = store.get("u", memory.id)
    assert frozen.status == "frozen"
    return frozen


def test_remark_twice_at_night_then_contradicted_never_freezes(store: MemoryStore,
                                                              clock: FakeClock) -> None:
    clock.set("2026-03-01T23:40:00+08:00")
    say(store, "u", "n1", "以后回答简短点，烦死了！！", clock())
    clock.set("2026-03-02T23:50:00+08:00")
    say(store, "u", "n2", "以后回答简短点，烦死了！！", clock())
    [remark] = store.list("u")
    assert remark.confirm_count == 2 and remark.status != "frozen"
    clock.set("2026-03-03T10:00:00+08:00")
    say(store, "u", "d1", "以后回答我详细一点", clock())
    assert store.get("u", remark.id).confirm_count == 0  # the contradiction reset the count
    for n, day in enumerate(("04", "05")):
        clock.set(f"2026-03-{day}T23:00:00+08:00")
        say(store, "u", f"n{n + 3}", "以后回答简短点，烦死了！！", clock())
    assert all(m.status != "frozen" for m in store.list("u"))


def test_hurried_request_does_not_overwrite_a_frozen_preference(store: MemoryStore,
                                                                clock: FakeClock) -> None:
    frozen = _frozen(store, clock, "I prefer concise answers", "verbosity")
    say(store, "u", "s9", "麻烦说细一点，要步骤", clock())
    hurried = Candidate(content="Give me every detail this time", kind="semantic",
                        category="preference", slot="verbosity", confidence=0.6)
    [decision] = gate_candidates(store, "u", "s9", [hurried], CONFIG, now=clock())
    assert decision.action == "ignore"
    apply_decisions(store, "u", "s9", [decision], now=clock(), config=CONFIG)
    assert store.get("u", frozen.id).status == "frozen"
    assert contents(store, "u") == ["I prefer concise answers"]


def test_pending_override_is_applied_once_confirmed(store: MemoryStore, clock: FakeClock) -> None:
    frozen = _frozen(store, clock, "I live in Leeds", "residence")
    change = Candidate(content="I live in York now", kind="semantic", category="identity",
                       slot="residence", confidence=0.85, change_signal=True)
    [parked] = gate_candidates(store, "u", "s5", [change], CONFIG, now=clock())
    assert parked.action == "pending_override"
    [item] = apply_decisions(store, "u", "s5", [parked], now=clock(), config=CONFIG)
    pending = store.get("u", item["memory_id"] or 0)
    assert pending.status == "pending_override" and pending.override_of == frozen.id
    assert store.get("u", frozen.id).status == "frozen"
    for session in ("s6", "s7"):
        clock.advance(days=1)
        [again] = gate_candidates(store, "u", session, [change], CONFIG, now=clock())
        assert again.action == "confirm"
        apply_decisions(store, "u", session, [again], now=clock(), config=CONFIG)
    assert store.get("u", frozen.id).status == "superseded"
    assert store.get("u", frozen.id).superseded_by == pending.id
    # confirmed in three calm sessions, the new value may itself freeze
    assert store.get("u", pending.id).status in ("confirmed", "frozen")


def test_explicit_correction_overrides_a_frozen_memory_keeping_history(
        store: MemoryStore, clock: FakeClock) -> None:
    frozen = _frozen(store, clock, "I live in Leeds", "residence")
    correction = Candidate(content="From now on I live in York", kind="semantic",
                           category="identity", slot="residence", confidence=0.97,
                           change_signal=True)
    [decision] = gate_candidates(store, "u", "s5", [correction], CONFIG, now=clock())
    assert decision.action == "supersede"
    apply_decisions(store, "u", "s5", [decision], now=clock(), config=CONFIG)
    old = store.get("u", frozen.id)
    assert old.status == "superseded" and old.content == "I live in Leeds"


def test_frozen_memory_weathers_after_sixty_quiet_days(store: MemoryStore,
                                                       clock: FakeClock) -> None:
    frozen = _frozen(store, clock, "I prefer concise answers", "verbosity")
    clock.advance(days=59)
    maintain(store, "u", now=clock(), config=CONFIG)
    assert store.get("u", frozen.id).status == "frozen"
    clock.advance(days=2)
    maintain(store, "u", now=clock(), config=CONFIG)
    assert store.get("u", frozen.id).status == "confirmed"
    moves = [(t["to_status"], t["reason"]) for t in store.transitions("u", frozen.id)]
    assert ("confirmed", "frozen:weathered") in moves
    assert store.get("u", frozen.id).confirm_count == 0  # it must earn its freeze again


def test_250_admissions_keep_the_hot_pool_at_200(store: MemoryStore, clock: FakeClock) -> None:
    for n in range(250):
        clock.advance(hours=1)
        candidate = Candidate(content=f"item{n} note{n * 7} tag{n * 13}",
                              kind="semantic", category="fact", importance=5, confidence=0.9)
        decisions = gate_candidates(store, "u", f"s{n}", [candidate], CONFIG, now=clock())
        apply_decisions(store, "u", f"s{n}", decisions, now=clock(), config=CONFIG)
    hot = store.list("u", statuses=("candidate", "confirmed"))
    archived = store.list("u", statuses=("archived",))
    assert len(hot) == CONFIG.hot_pool_cap
    assert len(archived) == 50
    assert max(m.created_at for m in archived) < min(m.created_at for m in hot)


def test_identity_and_constraints_survive_eviction(store: MemoryStore, clock: FakeClock) -> None:
    allergy = store.add("u", "I am allergic to peanuts", category="constraint", importance=5,
                        confidence=0.9, status="confirmed")
    for n in range(220):
        clock.advance(hours=1)
        candidate = Candidate(content=f"note {n} on subject{n} with detail{n * 3}",
                              kind="semantic", category="fact", importance=6, confidence=0.9)
        decisions = gate_candidates(store, "u", f"s{n}", [candidate], CONFIG, now=clock())
        apply_decisions(store, "u", f"s{n}", decisions, now=clock(), config=CONFIG)
    assert store.get("u", allergy.id).status == "confirmed"


def test_chinese_forget_request_erases_only_what_it_names(store: MemoryStore,
                                                          clock: FakeClock) -> None:
    say(store, "u", "s1", "我住在杭州，平时喜欢爬山", clock())
    assert contents(store, "u") == ["我住在杭州", "平时喜欢爬山"]
    decisions = say(store, "u", "s2", "把我住在杭州这件事忘掉", clock())
    assert decisions[0]["action"] == "forget"
    assert contents(store, "u") == ["平时喜欢爬山"]
