"""Pseudo-facts (policy.pseudo_facts, seed 001 §1.2): what the user says without
claiming it is so never becomes a memory; what else the message says still does. And
the other side of reading requests: one about the form of every answer is a standing
rule (policy.reply_form)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from hermes_graph.extract import RuleExtractor, Turn
from hermes_graph.policy.pseudo_facts import pseudo_kind, still_pretending

AT = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def kept(*texts: str) -> list[str]:
    """What the rule extractor keeps of the last message, the earlier ones as context."""
    turns = [Turn(role="user", content=t, session="s1", index=i, at=AT)
             for i, t in enumerate(texts)]
    return [c.content for c in RuleExtractor().extract(turns, now=AT) if c.drop_reason is None]


@pytest.mark.parametrize(("clause", "kind"), [
    ("if I were vegan", "hypothetical"), ("假如我搬去上海", "hypothetical"),
    ("要是有一百万预算我们就包个小岛了", "hypothetical"), ("我妈老说我是路痴", "hearsay"),
    ("my boss thinks I'm lazy", "hearsay"),
    ("I've been to literally a million dentists", "hyperbole"),
    ("my doctor told me my A1C came back at 6.1", None), ("I'm vegetarian", None),
    ("如果我加班，就帮我点外卖", None),
])
def test_pseudo_kind(clause: str, kind: str | None) -> None:
    assert pseudo_kind(clause) == kind


def test_a_hypothetical_goes_and_the_real_fact_beside_it_stays() -> None:
    assert kept("预算卡得比较紧，要是有一百万预算我们就包个小岛了哈哈") == ["预算卡得比较紧"]
    assert kept("纯属好奇啊：假如我搬去上海，同样的工资能过得比现在好吗？") == []


def test_make_believe_lasts_until_the_user_steps_out_of_it() -> None:
    story = "帮我写个小说开头，主角就是我，设定：我在深圳开了家火锅店，老婆是急诊科医生"
    assert kept(story) == []
    assert kept(story, "再加点悬疑，我是被冤枉的厨师") == []
    assert still_pretending([story])
    real = kept(story, "写得不错！可惜现实是我在县城中学教语文，天天改作文改到眼花")
    assert any("语文" in c for c in real) and not any("火锅" in c for c in real)


def test_code_is_no_story() -> None:
    assert kept("Can you help me write a script that summarizes my notes? I mostly write "
                "Python 3.11.") == ["I mostly write Python 3.11"]


def test_a_rule_keeps_the_condition_it_applies_under() -> None:
    assert kept("如果我问代码问题，请用英文回答") == ["如果我问代码问题，请用英文回答"]
    assert kept("when I ask about code, answer in English") == [
        "when I ask about code, answer in English"]


@pytest.mark.parametrize("text", [
    "can you just give me the answer first and then the reasoning?",
    "please be blunt. don't do the compliment sandwich",
    "can you stop with the americanisms please",
    "你给我列东西的时候用1、2、3这种数字编号，别用小圆点",
    "订机票帮我优先选靠窗",
])
def test_a_request_about_the_form_of_answers_is_a_standing_rule(text: str) -> None:
    turn = Turn(role="user", content=text, session="s1", index=0, at=AT)
    found = [c for c in RuleExtractor().extract([turn], now=AT) if c.drop_reason is None]
    assert found and all(c.category == "rule" for c in found)


@pytest.mark.parametrize("text", ["can you be brief about the history of Rome?",
                                  "to be honest I'm not sure", "can you write me a short email?"])
def test_a_request_for_one_answer_is_no_rule(text: str) -> None:
    turn = Turn(role="user", content=text, session="s1", index=0, at=AT)
    assert not [c for c in RuleExtractor().extract([turn], now=AT)
                if c.drop_reason is None and c.category == "rule"]


@pytest.mark.parametrize(("text", "left"), [
    ("My beagle Biscuit has hip dysplasia. Anyway, summarise this for me:\n\nA storm brought "
     "35mm of rain. No injuries were reported.", ["My beagle Biscuit has hip dysplasia"]),
    ("Quick translation to Spanish please: Congratulations on the new job!", []),
    ("这句英文啥意思：Sorry, I'm ten minutes late.", []),
    ("太长不看，帮我缩一下：\n白沙镇一块废弃停车场被改造成社区菜园。", []),
    ("Can you give me the gist of this?\n\nThe council voted. Supporters said the lanes would "
     "cut injuries.\n\nAlso I'm vegan btw", ["I'm vegan btw"]),
    ("这段讲了啥？\n菜地免费认领，但每月要参与两次公共维护。", []),
    ("给你说下我情况哈：\n右手腱鞘炎，刻久了手腕疼", ["右手腱鞘炎，刻久了手腕疼"]),
    ("why does this 401?\n```\nBASE_URL=https://example.org\n```\nwe deploy on Fly.io btw",
     ["we deploy on Fly.io btw"]),
])
def test_material_handed_over_is_not_about_the_user(text: str, left: list[str]) -> None:
    assert kept(text) == left


def test_a_task_instruction_is_no_standing_rule() -> None:
    assert kept("Need a quick email to the council asking for a receipt. Keep it polite but "
                "firm.") == []
    assert kept("帮忙写个给物业的微信，要张发票报销简短一点就行。") == []


def test_a_glad_exclamation_beside_a_mild_sigh_is_no_outburst() -> None:
    text = "搬到 London 了！relocation 终于搞完。现在跟国内开会要算时差了 ugh。"
    turn = Turn(role="user", content=text, session="s1", index=0, at=AT)
    found = [c for c in RuleExtractor().extract([turn], now=AT) if "London" in c.content]
    assert found and found[0].source == "explicit"


@pytest.mark.parametrize(("text", "goal"), [
    ("Signed up for the Manchester Marathon, 19 April 2026. Goal is sub-4.", "sub-4"),
    ("报了12月的广州马拉松全马！第一次跑全马，目标5小时内完赛", "5小时"),
    ("Budget is £18k all in, and I mean ALL in, appliances included.", "18k"),
])
def test_a_goal_or_an_emphasis_is_kept(text: str, goal: str) -> None:
    assert any(goal in c for c in kept(text))


@pytest.mark.parametrize("text", ["别跟我说这种安慰的话，没用。", "三四行就分一段，我眼神不好",
                                  "skip the essay, code plus a one-line summary",
                                  "以后你帮我改译文，改动的地方用【】标出来"])
def test_more_ways_to_say_how_to_answer(text: str) -> None:
    turn = Turn(role="user", content=text, session="s1", index=0, at=AT)
    assert any(c.category == "rule" for c in RuleExtractor().extract([turn], now=AT)
               if c.drop_reason is None)


def test_a_fixed_weekly_habit_is_no_one_off() -> None:
    assert kept("我们面包店周一固定休息，我一般那天对账订货。")[0] == "我们面包店周一固定休息"
