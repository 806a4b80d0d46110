"""Replacement (policy.replacement, seed 000 §3.3): a change that names the value it
replaces supersedes what was said of that value, with no slot to find it."""

from __future__ import annotations

import pytest

from hermes_graph import MemoryStore
from hermes_graph.clock import FakeClock
from hermes_graph.policy.replacement import replacement_in
from tests.test_write_policy import contents, live, say


@pytest.mark.parametrize(("text", "old", "new"), [
    ("We switched from Notion to Linear for tickets last month.", "notion", "linear"),
    ("I've swapped my Kindle for a Kobo, much better for library books", "kindle", "kobo"),
    ("我们组把Jira换成了飞书项目", "jira", "飞书"),
    ("我上个月从安卓换成了iPhone，用着挺顺", "安卓", "iphone"),
    ("Linear replaced our old Jira setup.", "jira", "linear"),
    ("不用微信读书了，现在改用Kindle", "微信", "kindle"),
    ("是徐州不是苏州，徐州铜山那边", "苏州", "徐州"),
    ("不是三年级，是二年级", "三年", "二年"),
    ("sorry, my daughter is 8, not 18", "18", "daughter"),
])
def test_a_replacement_names_its_old_and_new_value(text: str, old: str, new: str) -> None:
    found = replacement_in(text)
    assert found is not None and old in found.old and new in found.new
    assert not found.old & found.new


@pytest.mark.parametrize(("text", "kept"), [
    ("We switched from Notion to Linear for tickets.", "We switched to Linear for tickets."),
    ("我们组把Jira换成了飞书项目", "我们组换成了飞书项目"),
    ("其实预算是五千左右，八千是我想多了，家里不批", "其实预算是五千左右，家里不批"),
    ("哎我家那个是上二年级，不是三年级", "哎我家那个是上二年级"),
])
def test_the_kept_statement_no_longer_names_the_old_value(text: str, kept: str) -> None:
    found = replacement_in(text)
    assert found is not None and found.text == kept


@pytest.mark.parametrize("text", [
    "I eat fish, not meat",  # a contrast, not a correction
    "went from 3 days to 5 days a week",  # no old value, only a number
    "switched from the old one to a new one",  # nothing but words that name no value
    "I use Notion for notes and Linear for bugs",
])
def test_no_named_old_value_no_replacement(text: str) -> None:
    assert replacement_in(text) is None


def test_the_replaced_value_is_superseded_and_the_rest_stays(store: MemoryStore,
                                                             clock: FakeClock) -> None:
    say(store, "u", "s1", "Our team tracks every bug in Notion, it's a bit clunky honestly.",
        clock())
    say(store, "u", "s1", "I'm vegetarian, no exceptions.", clock())
    clock.advance(days=30)
    decisions = say(store, "u", "s2", "Quick update: we switched from Notion to Linear for "
                    "tickets last month.", clock())
    assert [d["reason"] for d in decisions if d["action"] == "supersede"] == [
        "change:replaces_named_value;bounded:admitted"]
    now = contents(store, "u")
    assert not any("clunky" in c or "Notion" in c for c in now)
    assert any("Linear" in c for c in now) and any("vegetarian" in c for c in now)
    [old] = store.list("u", statuses=("superseded",))
    assert "Notion" in old.content and old.superseded_by is not None


def test_a_request_to_switch_is_no_replacement(store: MemoryStore, clock: FakeClock) -> None:
    say(store, "u", "s1", "Our team tracks every bug in Notion.", clock())
    clock.advance(days=3)
    say(store, "u", "s2", "Can you help me plan how to move from Notion to Linear?", clock())
    assert any("Notion" in c for c in contents(store, "u"))
    assert store.list("u", statuses=("superseded",)) == []


def test_a_correction_reaches_the_memory_it_corrects_whoever_it_is_about(
        store: MemoryStore, clock: FakeClock) -> None:
    say(store, "u", "s1", "我闺女今年三年级，数学应用题老做错", clock())
    clock.advance(days=7)
    say(store, "u", "s2", "哎之前说错了，我家那个是上二年级，不是三年级，脑子糊涂了", clock())
    [now] = live(store, "u")
    assert "二年级" in now.content and "三年级" not in now.content
    assert now.subject == "user.daughter"


def test_a_same_session_slip_is_corrected_too(store: MemoryStore, clock: FakeClock) -> None:
    say(store, "u", "s1", "我下个月搬去苏州了，帮我想想租房要注意啥", clock())
    say(store, "u", "s1", "打错了！是徐州不是苏州，徐州铜山那边", clock())
    assert [m.content for m in live(store, "u")] == ["是徐州，徐州铜山那边"]


@pytest.mark.parametrize(("first", "forget", "gone", "left"), [
    ("我打算辞职考公，先裸辞备考一年", "辞职考公那事当我没说哈，家里死活不同意", "考公", None),
    ("我住上海徐汇，离 Apple 徐家汇那家店走路十分钟", "以后别记我住哪了哈，感觉有点隐私",
     "徐汇", None),
    ("i'm a bridesmaid at my sister's wedding in june", "never mind the wedding stuff, she's "
     "called it off", "bridesmaid", None),
    ("我现在体重 76.5 公斤，身高 163，在练深蹲，目前 60 公斤做五组五次",
     "体重那个数别给我存着了，删了吧", "76.5", "深蹲"),
])
def test_forget_requests_in_more_words(store: MemoryStore, clock: FakeClock, first: str,
                                       forget: str, gone: str, left: str | None) -> None:
    say(store, "u", "s1", first, clock())
    clock.advance(days=3)
    assert "forget" in [d["action"] for d in say(store, "u", "s2", forget, clock())]
    now = contents(store, "u")
    assert not any(gone in c for c in now)
    assert left is None or any(left in c for c in now)


def test_a_new_car_named_after_the_old_one_fills_the_car_slot(store: MemoryStore,
                                                              clock: FakeClock) -> None:
    say(store, "u", "s1", "我那台卡罗拉开了六年了，最近踩刹车有点吱吱响", clock())
    clock.advance(days=90)
    say(store, "u", "s2", "家里要添二胎了，轿车实在太挤，上周换成了理想L6，增程的。", clock())
    now = contents(store, "u")
    assert not any("卡罗拉" in c for c in now) and any("理想L6" in c for c in now)


@pytest.mark.parametrize(("first", "then", "gone", "now_"), [
    ("I work as a barista at a little café in Newtown, mostly 6am starts.",
     "Life update: I left the café and started as a junior paralegal at a property law firm.",
     "barista", "paralegal"),
    ("我在准备雅思，目标总分7，打算明年申英国的硕士。",
     "计划有变，我改申美国了，考试换成托福，目标100。", "雅思", "托福"),
])
def test_a_new_job_or_exam_replaces_the_old_one(store: MemoryStore, clock: FakeClock, first: str,
                                                then: str, gone: str, now_: str) -> None:
    say(store, "u", "s1", first, clock())
    clock.advance(days=60)
    say(store, "u", "s2", then, clock())
    now = contents(store, "u")
    assert not any(gone in c for c in now) and any(now_ in c for c in now)


def test_an_identity_said_as_x_here_names_nothing_more() -> None:
    from hermes_graph.policy.normalize import term_stems

    # the duplicate test needs the restatement's terms inside the memory's
    assert term_stems("coeliac here") <= term_stems("as a coeliac")


def test_a_verbatim_turn_quoting_a_switch_replaces_nothing(store: MemoryStore,
                                                           clock: FakeClock) -> None:
    from hermes_graph import MemoryConfig
    from hermes_graph.extract import Turn, VerbatimExtractor
    from hermes_graph.writer import write_turns

    for n, text in enumerate(["Our team tracks every bug in Notion.",
                              "Mel said they switched from Notion to Linear last year."]):
        turn = Turn(role="user", content=text, session=f"s{n}", index=0, at=clock())
        write_turns(store, VerbatimExtractor(), scope="u", session=f"s{n}", turns=[turn],
                    now=clock(), config=MemoryConfig())
    assert len(contents(store, "u")) == 2  # raw mode keeps every turn
