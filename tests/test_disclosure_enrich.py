"""Self-disclosure (policy.disclosure) and restatement merge (policy.enrich), seed 000 §3.1
and seed 001 §4.2/§5.4. Pure functions first, then the write path on a real store."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.clock import FakeClock
from hermes_graph.extract import RuleExtractor, Turn
from hermes_graph.language.hanzi import script_joined
from hermes_graph.policy import signals as sig
from hermes_graph.policy.disclosure import self_disclosure, self_disclosure_zh
from hermes_graph.policy.enrich import new_clauses, novel_terms, restatement_of
from hermes_graph.types import Candidate, Memory, ScoredMemory
from hermes_graph.writer import write_turns

AT = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def say(store: MemoryStore, session: str, text: str, at: datetime,
        config: MemoryConfig | None = None) -> list[dict[str, object]]:
    """One user message through the real write path (extract, gate, persist) of scope "u"."""
    config = config or MemoryConfig()
    turns = [Turn(role="user", content=text, session=session, index=0, at=at)]
    return [dict(d) for d in write_turns(store, RuleExtractor(config), scope="u",
                                         session=session, turns=turns, now=at, config=config)]


@pytest.mark.parametrize("clause", [
    "I drive long haul, mostly I-40", "I don't own a car", "I'm Jain so no onion or garlic",
    "I work nights on a cardiac step-down unit", "i bike everywhere here in Portland",
    "I usually cook at home after my shift", "I've been sober since March",
])
def test_a_lasting_habit_or_state_is_a_self_disclosure(clause: str) -> None:
    assert self_disclosure(clause)


@pytest.mark.parametrize(("clause", "habit"), [
    ("我笔记一直用印象笔记", True), ("最近在学吉他", True), ("在准备 CPA", True),
    ("我和我对象都完全不会日语", True), ("就是特别怕晒", True), ("我工资每月10号发", True),
    ("每天燕郊到国贸", True), ("晚上喝咖啡会不会睡不着", False), ("他每天都加班", False),
    ("你平时用什么", False), ("今天好累", False),
])
def test_a_chinese_habit_or_pursuit_is_a_self_disclosure(clause: str, habit: bool) -> None:
    assert self_disclosure_zh(clause) is habit


def test_a_new_way_to_work_replaces_the_old_commute(store: MemoryStore, clock: FakeClock) -> None:
    say(store, "s1", "每天挤地铁2号线上班，人多到脚不沾地", clock())
    clock.advance(days=30)
    say(store, "s2", "我受不了地铁了，买了台电动车，现在每天骑车上班", clock())
    live = [m.content for m in store.list("u", statuses=("candidate", "confirmed"))]
    assert not any("2号线" in c for c in live) and any("骑车上班" in c for c in live)


@pytest.mark.parametrize("clause", [
    "I do 3 or 4 nights in a row at Jimmy's", "i get paid on the 15th", "therapy is tuesdays at 6",
])
def test_a_weekly_fixture_or_a_shift_pattern_is_a_self_disclosure(clause: str) -> None:
    assert self_disclosure(clause)


@pytest.mark.parametrize("clause", [
    "I do think so", "I finished the remake last week", "im wired", "I'm on the bus", "I think so",
    "I need a recipe for tonight", "I don't know what to tell her", "I'm melting in here",
    "Do I need a visa?", "I'm so tired", "I went to Rome",
])
def test_past_events_passing_states_and_questions_are_not(clause: str) -> None:
    assert not self_disclosure(clause)


def test_the_extractor_keeps_a_self_disclosure_no_lexicon_names() -> None:
    turn = Turn(role="user", content="I drive long haul, gone 2-3 weeks at a time. What's a "
                "good breakfast for the cab?", session="s1", index=0, at=AT)
    kept = [c for c in RuleExtractor().extract([turn], now=AT) if c.drop_reason is None]
    assert [(c.category, c.subject) for c in kept] == [("fact", "user")]
    assert "long haul" in kept[0].content


def test_a_user_led_clause_naming_someone_else_stays_the_users() -> None:
    turn = Turn(role="user", content="I go climbing with my coworker Dan every Sunday.",
                session="s1", index=0, at=AT)
    [candidate] = RuleExtractor().extract([turn], now=AT)
    assert candidate.subject == "user" and candidate.drop_reason is None


def test_mixed_text_is_read_with_the_gaps_between_scripts_closed() -> None:
    assert script_joined("我在 RMIT 读中医") == "我在RMIT读中医"
    assert script_joined("plain English only") is None
    assert sig.category_of("我在 RMIT 读中医 (Chinese medicine) 的 bachelor") == "identity"
    assert sig.matches(sig.CONSTRAINT, "I'm vegan 所以别推荐肉")  # the English \b still holds


@pytest.mark.parametrize("text", ["对了你记一下，我家离镇子一百多公里",
                                  "Just so you know, the cabin has no signal"])
def test_asking_us_to_note_something_is_a_remember_request(text: str) -> None:
    assert sig.matches(sig.REMEMBER, text)


def memory(content: str, memory_id: int = 1, kind: str = "semantic") -> Memory:
    return Memory(id=memory_id, scope="u", kind=kind, category="constraint",  # type: ignore[arg-type]
                  content=content, subject="user", importance=9, confidence=0.9,
                  source="explicit", status="confirmed", created_at=AT, updated_at=AT,
                  last_seen_at=AT, last_used_at=None, use_count=0, confirm_count=1,
                  confirmations=({"session": "s1", "at": AT.isoformat(), "emotional": False},),
                  qualifiers=(), superseded_by=None, override_of=None, version=1,
                  source_ref={}, embedder_id="test", dim=4, slot=None)


def candidate(content: str, **changes: object) -> Candidate:
    return Candidate(content=content, kind="semantic", category="constraint",  # type: ignore[arg-type]
                     **changes)  # type: ignore[arg-type]


def test_new_clauses_name_the_shared_thing_once() -> None:
    added = new_clauses("remind you again，vegetarian here，不吃肉也不吃鱼", "我是 vegetarian",
                        {"vegetarian"})
    assert added == ["不吃肉也不吃鱼"]
    assert new_clauses("my boy Mateo is obsessed with volcanoes", "my son Mateo turns 7",
                       {"mateo"}) == ["my boy is obsessed with volcanoes"]


def test_a_qualifier_on_the_shared_thing_keeps_the_statements_apart() -> None:
    # seed 001 §5.4: "short" must not be lost in a merge
    assert new_clauses("I prefer short code examples", "I prefer code examples",
                       {"code", "exampl"}) is None


def test_chinese_bigrams_of_old_characters_are_no_news() -> None:
    old = "我在花蓮做賞鯨船解說員，夏天每天出三趟海"
    assert novel_terms("我是花蓮賞鯨船的解說員", old) == set()
    assert "纸书" in novel_terms("纸书基本不买了", "我都用 Kindle 看书")


def test_restatement_of_needs_a_shared_thing_closeness_and_the_same_polarity() -> None:
    config = MemoryConfig()
    kindle = memory("我都用 Kindle 看书")
    near = [ScoredMemory(memory=kindle, score=0.7, vector_score=0.66, keyword_score=0.0,
                         routes=("vector",))]
    found = restatement_of(candidate("我 Kindle 党哈，纸书基本不买了"), near, config)
    assert found is not None and found.target is kindle
    assert found.content == "我都用 Kindle 看书；纸书基本不买了"
    far = [ScoredMemory(memory=kindle, score=0.3, vector_score=0.3, keyword_score=0.0,
                        routes=("vector",))]
    assert restatement_of(candidate("我 Kindle 党哈，纸书基本不买了"), far, config) is None
    assert restatement_of(candidate("我不用 Kindle 了", negation=True), near, config) is None
    assert restatement_of(candidate("我都用 Kindle 看书", change_signal=True), near,
                          config) is None
    off = MemoryConfig(enrich_cosine=0)
    assert restatement_of(candidate("我 Kindle 党哈，纸书基本不买了"), near, off) is None


def test_a_restatement_with_a_detail_enriches_the_memory(store: MemoryStore,
                                                         clock: FakeClock) -> None:
    config = MemoryConfig(enrich_cosine=0.3)  # the test embedder's scale, not USE's
    say(store, "s1", "I'm vegetarian and I travel for work a lot.", clock(), config)
    clock.advance(days=5)
    decisions = say(store, "s2", "Again, vegetarian here, no fish either.", clock(), config)
    assert "enrich" in [d["action"] for d in decisions]
    live = store.list("u", statuses=("candidate", "confirmed", "frozen"))
    vegetarian = [m for m in live if "vegetarian" in m.content]
    assert len(vegetarian) == 1 and "no fish either" in vegetarian[0].content
    assert vegetarian[0].content.lower().count("vegetarian") == 1
    assert vegetarian[0].confirm_count == 2 and vegetarian[0].version == 2
    assert store.history("u", vegetarian[0].id)[0]["content"] == "I'm vegetarian"
    assert vegetarian[0].source_ref["enriched_from"][0]["session"] == "s2"


@pytest.mark.parametrize(("text", "subject", "slot"), [
    ("年后我们全家搬深圳了，老公工作调过来的", "user", "residence"),
    ("在建行柜台坐了六年了，天天点钞点到手抽筋", "user", "employer"),
    ("Now that I'm in Austin the heat is unreal", "user", "residence"),
    ("宝宝刚满八个月，最近开始加辅食了", "user.child", None),
    ("My cockatiel Kiwi has started screaming every morning", "user", None),
    ("So my doctor told me my A1C came back at 6.1", "user", None),
])
def test_everyday_statements_of_who_and_where(text: str, subject: str, slot: str | None) -> None:
    turn = Turn(role="user", content=text, session="s1", index=0, at=AT)
    [found] = [c for c in RuleExtractor().extract([turn], now=AT) if c.drop_reason is None]
    assert (found.subject, found.slot) == (subject, slot)


@pytest.mark.parametrize("text", ["阿凯周三离职，贺卡上写点啥？", "小王下周离职"])
def test_a_named_colleague_leaving_is_no_change_of_the_users_job(text: str) -> None:
    turn = Turn(role="user", content=text, session="s1", index=0, at=AT)
    assert all(c.subject != "user" or c.slot is None for c in RuleExtractor().extract(
        [turn], now=AT))


@pytest.mark.parametrize("text", ["今天我奶奶走了，九十一岁，从小是她把我带大的",
                                  "our cat Marmalade died last week. he was 16.",
                                  "下个月去关西，大阪+京都，一共5天"])
def test_a_loss_or_a_trip_next_month_is_kept_however_near(text: str) -> None:
    turn = Turn(role="user", content=text, session="s1", index=0, at=AT)
    assert [c for c in RuleExtractor().extract([turn], now=AT) if c.drop_reason is None]


def test_my_buddys_news_is_never_the_users() -> None:
    turn = Turn(role="user", content="My buddy Raj just got laid off from Intel after 11 years. "
                "For context I run a one-person letterpress shop in Asheville.",
                session="s1", index=0, at=AT)
    kept = [c for c in RuleExtractor().extract([turn], now=AT) if c.drop_reason is None]
    assert [c.subject for c in kept if "Raj" in c.content] in ([], ["third_party"])
    assert any("letterpress" in c.content and c.subject == "user" for c in kept)


def test_a_pets_health_is_kept_out_of_the_core_profile() -> None:
    text = "我家狗豆豆，十二岁的老泰迪了，体检说肾指标偏高，医生让换处方粮。"
    turn = Turn(role="user", content=text, session="s1", index=0, at=AT)
    [found] = RuleExtractor().extract([turn], now=AT)
    assert found.subject == "user.dog" and found.importance < MemoryConfig().core_min_importance


def test_an_outburst_overrides_no_calm_fact(store: MemoryStore, clock: FakeClock) -> None:
    say(store, "s1", "我在一家游戏公司做数值策划，最近在做新卡牌游戏的经济系统", clock())
    clock.advance(days=3)
    rant = "我要辞职！这破公司一天都待不下去了，制作人把我两个月的数值全推翻了！！"
    decisions = say(store, "s2", rant, clock())
    assert any(str(d["reason"]).startswith("emotional:overrides_nothing") for d in decisions)
    assert any("数值策划" in m.content for m in store.list("u", statuses=("confirmed",)))


@pytest.mark.parametrize(("text", "slot"), [
    ("we ripped out DRF last sprint, everything's FastAPI + SQLAlchemy now", "backend"),
    ("现在在 ByteDance 做 PM，新 team 还在 onboarding", "employer"),
])
def test_a_named_value_or_a_mixed_script_statement_fills_its_slot(text: str, slot: str) -> None:
    from hermes_graph.policy.slots import slot_of

    assert slot_of(text) == slot


def test_she_after_naming_my_mother_is_my_mother() -> None:
    text = "三八节给我妈买了个电子血压计，她高血压好多年了，还有二型糖尿病。这种臂式的准不准啊"
    turn = Turn(role="user", content=text, session="s1", index=0, at=AT)
    [found] = [c for c in RuleExtractor().extract([turn], now=AT) if c.drop_reason is None]
    assert found.subject == "user.mother" and "高血压" in found.content


def test_the_neighbours_dog_is_not_the_users() -> None:
    text = "We're dog-sitting the neighbour's spaniel Biscuit. He's on a raw diet."
    turn = Turn(role="user", content=text, session="s1", index=0, at=AT)
    assert all(c.subject == "third_party" for c in RuleExtractor().extract([turn], now=AT)
               if c.drop_reason is None)


def test_a_budget_for_one_request_is_not_core() -> None:
    turn = Turn(role="user", content="manager 下个月 farewell，送什么礼物好？budget 50 SGD 左右",
                session="s1", index=0, at=AT)
    [found] = [c for c in RuleExtractor().extract([turn], now=AT) if c.drop_reason is None]
    assert found.slot == "budget" and found.importance < MemoryConfig().core_min_importance
    text = "我们家准备装修了，全包预算二十万，别给我推荐超预算的东西。"
    standing = Turn(role="user", content=text, session="s1", index=0, at=AT)
    kept = [c for c in RuleExtractor().extract([standing], now=AT) if "二十万" in c.content]
    assert kept[0].importance >= MemoryConfig().core_min_importance


def test_a_new_value_said_with_its_context_supersedes_only_the_old_one(
        store: MemoryStore, clock: FakeClock) -> None:
    say(store, "s1", "我在字节做 B 端产品经理，最近写 PRD 写到头秃", clock())
    clock.advance(days=30)
    say(store, "s2", "下周一去美团到家事业部报到，还是干产品。新公司离我家近多了", clock())
    live = " ".join(m.content for m in store.list("u", statuses=("candidate", "confirmed")))
    assert "美团" in live and "字节" not in live


@pytest.mark.parametrize("text", [
    "I get violently seasick, I threw up on the ferry once", "I'm Jain so no onion or garlic",
    "我家柯基馒头最近老是舔爪子", "反正我在家办公，白天一般都有人",
])
def test_lasting_conditions_diets_pets_and_work_from_home_are_kept(text: str) -> None:
    turn = Turn(role="user", content=text, session="s1", index=0, at=AT)
    assert any(c.drop_reason is None for c in RuleExtractor().extract([turn], now=AT))


def test_said_again_with_a_new_detail_enriches_even_without_a_shared_word(
        store: MemoryStore, clock: FakeClock) -> None:
    say(store, "s1", "那玩意我不吃，闻着就难受", clock())
    clock.advance(days=10)
    say(store, "s2", "再强调一下哈，香菜我是碰都不碰的。", clock())
    live = [m.content for m in store.list("u", statuses=("candidate", "confirmed"))]
    assert any("香菜" in c for c in live)


def test_taking_back_an_outburst_erases_what_was_said_in_anger(
        store: MemoryStore, clock: FakeClock) -> None:
    say(store, "s1", "我真的受够了！！明天我就提离职，这破游戏谁爱做谁做", clock())
    assert any(m.source == "emotional" for m in store.list("u"))
    clock.advance(days=1)
    decisions = say(store, "s2", "昨晚说的都是气话哈。我其实挺喜欢做关卡策划的", clock())
    assert "forget" in [d["action"] for d in decisions]
    left = store.list("u")
    assert not any("离职" in m.content for m in left)
    assert any("关卡策划" in m.content for m in left)


def test_a_fact_said_with_the_retraction_never_targets_the_erased_outburst(
        store: MemoryStore, clock: FakeClock) -> None:
    say(store, "s1", "气死我了！！这破公司我明天就辞职！！！", clock())
    clock.advance(days=1)
    # the new employer fact was gated against the outburst the same turn erases
    decisions = say(store, "s2", "昨天是气话哈，工作还得干。我在这家做 HR 六年了，主要管招聘",
                    clock())
    assert [d["action"] for d in decisions] == ["forget", "admit"]
    assert decisions[1]["target_ids"] == []
    assert [m.content for m in store.list("u")] == ["我在这家做 HR 六年了，主要管招聘"]


def test_an_enriched_memory_names_every_message_it_came_from() -> None:
    from hermes_graph.nodes.persist import enriched_ref

    merged = enriched_ref({"session": "s1", "turn": 0, "refs": ["D1:3"]},
                          {"session": "s4", "turn": 2, "at": "2026-03-02", "refs": ["D4:7"]})
    assert merged["refs"] == ["D1:3", "D4:7"] and merged["session"] == "s1"
    assert merged["enriched_from"] == [{"session": "s4", "turn": 2, "at": "2026-03-02"}]


@pytest.mark.parametrize(("text", "asks"), [
    ("hey can you drop the divorce thing from whatever notes you keep?", True),
    ("Weird request but forget the name of the company I work for.", True),
    ("I always forget the name of the street", False),
    ("I had to remove the old part of the fence", False),
])
def test_forget_requests_in_passing(text: str, asks: bool) -> None:
    assert sig.forget_request(text) is asks


def test_a_shared_verb_or_a_short_word_names_no_one_thing() -> None:
    from hermes_graph.policy.enrich import things_shared

    mine = {"joined", "gym", "ve"}
    assert things_shared(mine, "I joined a gym, I've", "I joined a service group, I've", []) \
        == set()
    assert things_shared({"mateo"}, "my boy Mateo", "my son Mateo turns 7", []) == {"mateo"}


def test_an_outburst_enriches_no_calm_memory() -> None:
    kindle = memory("我都用 Kindle 看书")
    near = [ScoredMemory(memory=kindle, score=0.7, vector_score=0.66, keyword_score=0.0,
                         routes=("vector",))]
    angry = candidate("烦死了，Kindle 又坏了，我就是个倒霉蛋", source="emotional")
    assert restatement_of(angry, near, MemoryConfig()) is None


def test_the_merge_cuts_overlapping_bigrams_in_one_order_whatever_the_hash_seed() -> None:
    import os
    import subprocess
    import sys

    code = ("from hermes_graph.policy.enrich import new_clauses; print(new_clauses("
            "'我吃的降压药是氨氯地平，饭后吃', '我有高血压，一天一片', {'氨氯', '氯地', '地平'}))")
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": str(seed)},
                              check=True).stdout for seed in range(1, 6)}
    assert len(outputs) == 1  # a set's order in one process decided it before
