"""The rule extractor on everyday phrasings (seed 000 §2.3, §3.2; seed 004 privacy).

Pure: no store, no graph. Each case is how people actually say it, in Chinese and
English, and what the extractor must make of it.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from hermes_graph.extract import RuleExtractor, Turn
from hermes_graph.policy import privacy
from hermes_graph.types import Candidate

AT = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def extract(text: str) -> list[Candidate]:
    return RuleExtractor().extract([Turn(role="user", content=text, session="s1", index=0, at=AT)],
                                   now=AT)


def kept(text: str) -> list[Candidate]:
    return [c for c in extract(text) if c.drop_reason is None]


@pytest.mark.parametrize("text", [
    "I always forget my badge at work. Any tips for remembering stuff on the way out?",
    "我总是忘记我的车停在公司地库哪一层，有什么好办法吗？",
    "I forgot my umbrella at the office again",
    "Games are my go-to. I can relax, forget my troubles, and get lost in another world.",
    "Gaming really does help forget about the stresses of life.",
    "Life can get hectic and it's easy to forget about ourselves.",
])
def test_the_user_forgetting_things_is_no_forget_request(text: str) -> None:
    assert not any(c.forget for c in extract(text))


@pytest.mark.parametrize("text", [
    "Please remove my home address from your memory, I'm not comfortable with that.",
    "把我住址那条删了，不想让你记着。",
    "之前跟你说的吃药的事，别记了。",
    "Actually, forget the health stuff I told you, I'd rather keep that private.",
    "Hey, please don't keep the bit about my divorce.",
])
def test_forget_requests_in_many_phrasings(text: str) -> None:
    assert [c.forget for c in extract(text)] == [True]


@pytest.mark.parametrize(("text", "kind"), [
    ("here's my key AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY, why is the map grey?", "api_key"),
    ("calling it with Bearer "
     "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
     "api_key"),
    ("the alarm PIN is 4821", "access_code"),
    ("家里的门锁开锁码是385712", "access_code"),
])
def test_keys_tokens_and_codes_are_secrets(text: str, kind: str) -> None:
    assert kind in privacy.secret_kinds(text, include_phone=True)


def test_a_code_is_dropped_and_the_harmless_rest_kept() -> None:
    candidates = extract("我家在回龙观，家里的门锁开锁码是385712，帮我写个给保洁阿姨的留言")
    assert [c.content for c in candidates if c.drop_reason is None] == ["我家在回龙观"]
    assert all("385712" not in c.content for c in candidates)


@pytest.mark.parametrize(("text", "subject"), [
    ("我爸有痛风，海鲜和啤酒都不能碰。", "user.father"),
    ("我妈对青霉素过敏，以前打针差点出事。", "user.mother"),
    ("My partner can't eat gluten, she's celiac, so we cook gluten-free at home.", "user.partner"),
    ("My teammate Mike is vegan, so the team lunch needs a vegan option.", "third_party"),
    ("我们组长不吃辣，团建选餐厅得注意。", "third_party"),
    ("I'm a single dad and a nurse.", "user"),
])
def test_who_a_statement_is_about(text: str, subject: str) -> None:
    [candidate] = kept(text)
    assert candidate.subject == subject


@pytest.mark.parametrize("text", ["我吃素。", "我叫张伟。", "我不吃香菜，也不吃葱。"])
def test_short_chinese_statements_are_whole_memories(text: str) -> None:
    assert kept(text)


@pytest.mark.parametrize("text", [
    "I'm on the bus, quick one: how do I convert a PDF to Word for free?",
    "I'm a bit confused by your answer, which one keeps the formatting?",
])
def test_passing_remarks_are_no_identity(text: str) -> None:
    assert kept(text) == []


@pytest.mark.parametrize("text", [
    "以后给我写代码一律用 Go，别的语言我们组没人维护。",
    "回答的时候先说结论再解释，别绕弯子。",
    "Stop using bullet points with me, just write normal paragraphs.",
    "Please format all dates as DD/MM/YYYY.",
    "When you write emails for me, keep them under 100 words.",
    "回复控制在三句话以内。",
    "Going forward, no emojis and no exclamation marks in anything you draft for me.",
])
def test_rules_for_answering_in_many_phrasings(text: str) -> None:
    assert "rule" in [c.category for c in kept(text)]


@pytest.mark.parametrize(("text", "slot"), [
    ("Good news, my budget's gone up to $2,000 since I got a bonus.", "budget"),
    ("We relocated to Denver last month, still figuring out the neighborhood.", "residence"),
    ("我在望京住了五年了，小区离798很近。", "residence"),
    ("我从阿里离职了，下个月入职腾讯，还是做数据。", "employer"),
    ("Small update: I started eating fish again, so I'm pescatarian now.", "diet"),
])
def test_updates_name_their_slot(text: str, slot: str) -> None:
    assert slot in [c.slot for c in kept(text)]


def test_a_thousands_separator_does_not_split_a_clause() -> None:
    [candidate] = kept("My budget for a new laptop is around $1,200, mostly for photo editing.")
    assert "$1,200" in candidate.content


@pytest.mark.parametrize(("text", "content", "slot"), [
    ("我不在腾讯干了，现在在字节，做推荐系统的在线服务。", "现在在字节，做推荐系统的在线服务",
     "employer"),
    ("I left Stripe, I'm at Airbnb now, on the search ranking team.",
     "I'm at Airbnb now, on the search ranking team", "employer"),
])
def test_a_new_value_takes_the_negated_values_place(text: str, content: str, slot: str) -> None:
    [candidate] = kept(text)
    assert (candidate.content, candidate.slot, candidate.change_signal) == (content, slot, True)


@pytest.mark.parametrize("text", [
    "家里养了两只猫，一只叫年糕一只叫汤圆，都是橘猫。",
    "We've got a golden retriever named Biscuit, he's three.",
    "I use Neovim with a pretty heavy Lua config.",
    "Can't do shellfish, my throat swells up if I even eat one shrimp.",
    "我吃虾会起疹子，螃蟹也一样。",
    "我右膝盖半月板去年做过手术，现在还不能跑步和跳。",
])
def test_everyday_facts_are_caught(text: str) -> None:
    assert kept(text)


def test_living_in_a_tool_is_no_residence() -> None:
    candidates = kept("I use Neovim, I basically live in the terminal.")
    assert candidates and all(c.slot != "residence" for c in candidates)


@pytest.mark.parametrize(("text", "category"), [
    ("as a lefty I smudge literally everything I write.", "identity"),
    ("One thing I forgot to mention, I don't drive, never got my license.", "constraint"),
    ("新房刚交付，硬装加软装一共就25万，你觉得够吗", "constraint"),
    ("我日常开发用 Arch Linux + Neovim，有没有好用的插件管理器推荐", "identity"),
    ("我在美团做产品经理，这周得交一份PRD", "identity"),
    ("Could you always put a one-line TL;DR at the very top when you answer me?", "rule"),
    ("Our wedding anniversary is October 12th and last year I botched it.", "identity"),
    ("My beagle Biscuit keeps stealing socks. How do I stop this?", "identity"),
])
def test_statements_buried_in_everyday_talk(text: str, category: str) -> None:
    assert category in [c.category for c in kept(text)]


def test_a_bare_statement_keeps_the_context_before_it() -> None:
    [candidate] = kept("Visiting my in-laws this weekend and they have two cats — I'm pretty "
                       "allergic, my eyes swell up.")
    assert candidate.subject == "user" and "cats" in candidate.content
    assert candidate.drop_reason is None


def test_clauses_after_a_family_member_stay_about_them() -> None:
    [father] = kept("我爸去年做了膝盖置换手术，现在走路还是不太利索。")
    assert father.subject == "user.father" and "不太利索" in father.content


def test_a_rant_in_capitals_is_emotional() -> None:
    [candidate] = kept("I HATE JavaScript. ")
    assert candidate.source == "emotional"


def test_a_secret_with_punctuation_inside_is_dropped_whole() -> None:
    candidates = extract("为啥连不上数据库？连接串是 "
                         "postgres://admin:Qz!88rt@10.0.3.12:5432/orders ，"
                         "我们用的是阿里云 RDS 的 Postgres 15。")
    assert all("Qz" not in c.content and "admin" not in c.content for c in candidates)
    assert any("RDS" in c.content for c in candidates if c.drop_reason is None)


@pytest.mark.parametrize("text", [
    "Delete everything you know about me. I want a clean slate from here on.",
])
def test_erase_everything_requests(text: str) -> None:
    [request] = [c for c in extract(text) if c.forget]
    assert request.qualifiers == ("all",)


@pytest.mark.parametrize("text", [
    "Oh, forgot to mention, I'm on a low-FODMAP diet for IBS. Don't forget that one!",
    "我老是忘记吃降压药，医生让每天早上八点吃一片氨氯地平，有什么办法能让自己别忘？",
])
def test_remember_this_is_no_forget_request(text: str) -> None:
    candidates = extract(text)
    assert candidates and not any(c.forget for c in candidates)


def test_an_outburst_in_a_heated_turn_is_emotional() -> None:
    candidates = kept("我要辞职！这破公司一天都待不下去了，制作人把我两个月的数值全推翻了！！")
    assert candidates and all(c.source == "emotional" for c in candidates)


@pytest.mark.parametrize(("text", "slot"), [
    ("Well, we ended up in Lyon after all, the Marseille offer fell through.", "residence"),
    ("老板把我调到上海分公司了，房子先租在了张江，通勤要四十分钟地铁。", "residence"),
    ("上个月把旧车卖了，提了辆比亚迪海豹，纯电的。", "car"),
])
def test_indirect_updates_name_their_slot(text: str, slot: str) -> None:
    found = kept(text)
    assert any(c.slot == slot and c.change_signal for c in found)


def test_a_tool_question_is_no_rule_and_a_slot_never_spans_clauses() -> None:
    assert kept("“一帆风顺”用英文怎么说？") == []
    [candidate] = kept("准备考研，目标中山大学新闻传播，数学不用考，英语有点拉胯")
    # the exam the first clause names is its slot; no other clause's words make one
    assert candidate.slot == "exam" and "计算" not in candidate.content
    assert "目标浙大计算机" in kept("我在准备考研，目标浙大计算机，所以特别想考过去。")[0].content


def test_a_self_correction_voids_what_came_before_it() -> None:
    [candidate] = kept("Budget's £6,000, no wait, scratch that, we agreed £4,500 max because "
                       "of the insurance.")
    assert "4,500" in candidate.content and "6,000" not in candidate.content


def test_a_statement_withdrawn_in_the_same_message_is_dropped() -> None:
    found = kept("I own a small bakery in Sacramento. Also, I'm 9 weeks pregnant. Actually no, "
                 "don't hold onto that one, I haven't even told my mom.")
    assert [c.content for c in found] == ["I own a small bakery in Sacramento"]


def test_asked_to_remember_a_dated_task_keeps_it() -> None:
    found = kept("别忘了我下周四要交开题报告哈，到时候提醒我先改文献综述。")
    assert any("开题报告" in c.content for c in found)


@pytest.mark.parametrize("text", ["旧代码全删了，now everything is function components.",
                                  "I'm 34, and gaming helps me forget my troubles."])
def test_past_deletions_and_figures_of_speech_are_no_forget_request(text: str) -> None:
    assert not any(c.forget for c in extract(text))


@pytest.mark.parametrize(("text", "category"), [
    ("Postdoc in Munich here, physics.", "identity"),
    ("我在云南罗平养蜂，一百二十箱。", "identity"),
    ("程序员一枚，杭州，颈椎病两年了。", "constraint"),
    ("I direct the marching band at a high school in Omaha.", "identity"),
    ("Started piano lessons in September, my first student recital is in May.", "identity"),
    ("My dad passed away in April.", "identity"),
    ("我儿子十岁，最近迷上了 Scratch 编程。", "identity"),
    ("给我写 Python 的话记住几条：一、必须加类型注解", "rule"),
])
def test_self_introductions_and_life_facts(text: str, category: str) -> None:
    assert category in [c.category for c in kept(text)]


@pytest.mark.parametrize(("text", "slot"), [
    ("我们前端是 Vue 2 + Vuex，老项目。", "frontend"),
    ("上个 sprint 终于把整个前端迁到 React 18 + TypeScript 了。", "frontend"),
    ("我开的 Model Y，后驱版。", "car"),
])
def test_stack_and_car_slots(text: str, slot: str) -> None:
    assert slot in [c.slot for c in kept(text)]


def test_traditional_characters_trigger_the_same_signals() -> None:
    assert "rule" in [c.category for c in kept("你之後可不可以都用繁體字跟我講？")]
    assert kept("我在台中梨山種茶的啦")
    assert "password" in privacy.secret_kinds("我的密碼是 hunter2", include_phone=True)


def test_a_passing_ailment_is_no_constraint() -> None:
    found = extract("I'm red-green colorblind. I've got a brutal sore throat this week.")
    assert [c.content for c in found if c.drop_reason is None] == ["I'm red-green colorblind"]


@pytest.mark.parametrize(("text", "category"), [
    ("我在深圳做 real estate 航拍，主力机是 DJI Mavic 3 Pro。", "identity"),
    ("我开了三十年火车，最后十年开的高铁，去年刚退下来，人在西安。", "identity"),
    ("对了，我血压偏高，一直在吃氨氯地平。", "constraint"),
    ("Me, the most exercise I get is walking my greyhound, Pancake.", "identity"),
    ("My FastAPI app on Python 3.11 throws a 401 when calling OpenAI.", "identity"),
])
def test_more_facts_said_in_passing(text: str, category: str) -> None:
    assert category in [c.category for c in kept(text)]


def test_a_colleague_named_by_surname_is_a_third_party() -> None:
    [candidate] = kept("我们部门老张血压一直高，一天还抽一包烟。")
    assert candidate.subject == "third_party"
    assert kept("公司楼下新开了家奶茶店。") == []


@pytest.mark.parametrize(("text", "everything"), [
    ("Delete everything you know about me.", True),
    ("Wipe everything you know about my ex. Fully.", False),
])
def test_everything_about_someone_else_is_no_forget_all(text: str, everything: bool) -> None:
    [request] = [c for c in extract(text) if c.forget]
    assert (request.qualifiers == ("all",)) is everything


def test_in_laws_and_colleagues_are_not_the_user() -> None:
    [mil] = kept("我婆婆上周做了膝关节置换手术，现在出院在家。")
    assert mil.subject == "user.in_law"
    [colleague] = kept("同事小王怀孕四个月了，我们几个想凑钱送个礼物。")
    assert colleague.subject == "third_party"
    boss = kept("老板把我调到上海分公司了，房子先租在了张江。")
    assert all(c.subject == "user" for c in boss)


@pytest.mark.parametrize(("text", "category"), [
    ("I drive for Lyft full time in Phoenix and my Corolla is at 240k miles.", "identity"),
    ("When you tell me anything health-related, please cite where it comes from.", "rule"),
    ("我都用 Kindle 看书，推荐几本科幻", "identity"),
    ("我在备战三月份的厦门马拉松，全马，目标破四。", "identity"),
])
def test_work_habits_goals_and_citation_rules(text: str, category: str) -> None:
    assert category in [c.category for c in kept(text)]
