"""Updates, duplicates, topic forgets and self-only recall (seeds 000 §3.3, 004 §3-4).

Real SQLite/FAISS stores with fake embeddings and the real rule extractor; the pure
gate is also hit directly with a hand-built neighbourhood.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.clock import FakeClock
from hermes_graph.extract import RuleExtractor, Turn
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.policy.gate import Neighbourhood, decide
from hermes_graph.policy.topics import concepts_of, topics_named
from hermes_graph.types import Candidate, ScoredMemory
from tests.test_write_policy import contents, say

CONFIG = MemoryConfig()
AT = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(("old", "new", "gone", "kept"), [
    ("我家卫生间要翻新，预算五万。", "预算加到八万了，老婆说厨房也要一起弄。", "五万", "八万"),
    ("My budget for a new laptop is around $1,200.", "My budget's gone up to $2,000.",
     "1,200", "2,000"),
    ("I live in Austin, right by Barton Springs.", "We relocated to Denver last month.",
     "Austin", "Denver"),
    ("我住在北京朝阳，通勤单程一个多小时。", "我已经从北京搬回老家成都了。", "朝阳", "成都"),
    ("我在腾讯上班，做微信支付后台。", "我不在腾讯干了，现在在字节，做推荐系统。",
     "微信支付", "字节"),
    ("I'm vegetarian, no meat or fish.", "I started eating fish again, so I'm pescatarian now.",
     "no meat", "pescatarian"),
    ("我现在在减脂，晚饭基本不吃碳水。", "减脂阶段结束了，教练说我现在该增肌了，每天碳水得吃够。",
     "不吃碳水", "碳水得吃够"),
    ("I don't drink coffee, it makes me jittery.", "I drink coffee every morning now.",
     "don't drink", "every morning"),
])
def test_an_update_supersedes_the_old_value(store: MemoryStore, clock: FakeClock, old: str,
                                            new: str, gone: str, kept: str) -> None:
    say(store, "u", "s1", old, clock())
    clock.advance(days=5)
    say(store, "u", "s2", new, clock())
    live = " | ".join(contents(store, "u"))
    assert gone not in live and kept in live


def test_a_negated_habit_retires_the_habit_by_its_concept(store: MemoryStore,
                                                          clock: FakeClock) -> None:
    say(store, "u", "s1", "我每天早上一杯冰美式。", clock())
    clock.advance(days=5)
    say(store, "u", "s2", "我现在不喝咖啡了，胃不好，改喝茶了。", clock())
    assert not any("冰美式" in c for c in contents(store, "u"))
    assert concepts_of("一杯冰美式") == concepts_of("不喝咖啡了") == {"coffee"}


def test_a_duplicate_in_other_words_merges(store: MemoryStore) -> None:
    row = store.add("u", "I'm allergic to shellfish", category="constraint", session="s1")
    near = Neighbourhood(similar=[ScoredMemory(memory=row, score=0.95, vector_score=0.95,
                                               keyword_score=0.0)])
    again = Candidate(content="I have a shellfish allergy", kind="semantic",
                      category="constraint")
    assert decide(again, near, session="s2", config=CONFIG).action == "merge"
    other = Candidate(content="I have a peanut allergy", kind="semantic", category="constraint")
    assert decide(other, near, session="s2", config=CONFIG).action == "admit"


def test_forgetting_a_topic_erases_its_memories_only(store: MemoryStore,
                                                     clock: FakeClock) -> None:
    say(store, "u", "s1", "I was diagnosed with type 2 diabetes last spring, so I watch my carbs.",
        clock())
    say(store, "u", "s1", "I love hiking in the Peak District.", clock())
    assert [t.name for t in topics_named("forget the health stuff I told you")] == ["health"]
    say(store, "u", "s2", "Actually, forget the health stuff I told you.", clock())
    assert contents(store, "u") == ["I love hiking in the Peak District"]


def test_forget_word_without_request_erases_nothing(store: MemoryStore, clock: FakeClock) -> None:
    say(store, "u", "s1", "我在国贸上班，公司在国贸三期，每天开车去。", clock())
    say(store, "u", "s2", "我总是忘记我的车停在公司地库哪一层，有什么好办法吗？", clock())
    assert any("国贸" in c for c in contents(store, "u"))


def test_a_request_for_the_user_alone_leaves_others_facts_out(store: MemoryStore,
                                                               clock: FakeClock) -> None:
    say(store, "u", "s1", "我爸有痛风，海鲜和啤酒都不能碰。", clock())
    say(store, "u", "s1", "我自己是个吃货，最爱生蚝和小龙虾。", clock())
    for_dad = recall_memories(store, "u", "周末带我爸出去吃饭，去哪类馆子好？", now=clock(),
                              config=CONFIG)
    alone = recall_memories(store, "u", "我自己晚上想吃个夜宵，推荐点啥", now=clock(),
                            config=CONFIG)
    assert any("痛风" in i["content"] for i in for_dad)
    assert not any("痛风" in i["content"] for i in alone)


def test_a_presupposing_question_answered_vaguely_stores_nothing(store: MemoryStore) -> None:
    history = [Turn(role=role, content=text, session="s1", index=n, at=AT)  # type: ignore[arg-type]
               for n, (role, text) in enumerate([
                   ("user", "红烧肉怎么做好吃？"),
                   ("assistant", "你有高血压的话，要不要少放点盐和酱油？"),
                   ("user", "行吧，少放点"),
                   ("user", "Give me a workout."),
                   ("assistant", "Given your knee injury, should I leave out the jumping moves?"),
                   ("user", "nah, it's fine")])]
    assert RuleExtractor().catch_up(history, now=AT) == []


def test_a_contradicted_memory_leaves_recall_entirely(store: MemoryStore,
                                                      clock: FakeClock) -> None:
    say(store, "u", "s1", "New year's resolution: I'm learning Spanish on the train.", clock())
    clock.advance(days=30)
    say(store, "u", "s2", "Confession: I gave up on the Spanish thing.", clock())
    [old] = store.list("u", statuses=("superseded",))
    assert "Spanish" in old.content
    recalled = recall_memories(store, "u", "Spanish podcasts for the train?", now=clock(),
                               config=CONFIG)
    assert not any("Spanish" in i["content"] for i in recalled)


def test_a_restatement_confirms_across_categories(store: MemoryStore, clock: FakeClock) -> None:
    say(store, "u", "s1", "以后叫我阿杰就行。", clock())
    clock.advance(days=2)
    decisions = say(store, "u", "s2", "我是阿杰，上次跟你说过的。", clock())
    assert [d["action"] for d in decisions] == ["confirm"]
    assert len(contents(store, "u")) == 1


def test_forgetting_part_of_a_memory_keeps_the_rest(store: MemoryStore, clock: FakeClock,
                                                    db_path: Path) -> None:
    say(store, "u", "s1", "我在准备考研，目标浙大计算机，女朋友也在杭州，所以特别想考过去。",
        clock())
    clock.advance(days=3)
    decisions = say(store, "u", "s2", "女朋友那个你忘了吧，我们分了，不想再提。", clock())
    assert [d["action"] for d in decisions][:2] == ["forget", "admit"]
    assert sorted(contents(store, "u")) == ["我在准备考研，目标浙大计算机", "所以特别想考过去"]
    store.close()
    raw = b"".join(p.read_bytes() for p in db_path.parent.iterdir() if p.is_file())
    assert "女朋友".encode() not in raw


def test_a_topic_forget_keeps_the_clauses_off_the_topic(store: MemoryStore,
                                                        clock: FakeClock) -> None:
    say(store, "u", "s1", "我在广州做 UI 设计师，税前月薪三万五，想存钱明年买车。", clock())
    say(store, "u", "s1", "刚才说的工资那个别记了，我不太想让你知道具体数。", clock())
    assert contents(store, "u") == ["我在广州做 UI 设计师"]


def test_turns_out_not_retires_the_old_constraint(store: MemoryStore, clock: FakeClock) -> None:
    say(store, "u", "s1", "I'm lactose intolerant, so I keep everything dairy-free at home.",
        clock())
    clock.advance(days=20)
    say(store, "u", "s2", "Update: turns out I'm not lactose intolerant after all!", clock())
    assert not any("dairy-free" in c for c in contents(store, "u"))


def test_a_negated_add_on_leaves_the_main_statement(store: MemoryStore, clock: FakeClock) -> None:
    say(store, "u", "s1", "I teach ballet to kids at a studio in Providence, and I drive my old "
        "Honda Fit there with the trunk full of costumes.", clock())
    clock.advance(days=40)
    say(store, "u", "s2", "Finally sold the car, it was dying anyway.", clock())
    live = contents(store, "u")
    assert any("ballet" in c for c in live) and not any("Honda" in c for c in live)


def test_a_third_partys_fact_needs_the_query_to_name_them(store: MemoryStore,
                                                          clock: FakeClock) -> None:
    say(store, "u", "s1", "我同事小周最近确诊了抑郁症，在吃药。", clock())
    about_me = recall_memories(store, "u", "最近排班乱，周末想放松一下，有啥推荐？", now=clock(),
                               config=CONFIG)
    about_him = recall_memories(store, "u", "小周最近状态不好，我该怎么跟他聊？", now=clock(),
                                config=CONFIG)
    assert not any("小周" in i["content"] for i in about_me)
    assert any("小周" in i["content"] for i in about_him)


def test_a_mixed_language_forget_request_takes_the_named_clauses(store: MemoryStore,
                                                                 clock: FakeClock) -> None:
    say(store, "u", "s1", "Training for 港百 next year, 目前体重 92 kg，身高 183。", clock())
    say(store, "u", "s2", "Please 把我的体重 data delete 掉, 身高也一起, I don't want it stored.",
        clock())
    live = " | ".join(contents(store, "u"))
    assert "港百" in live and "92" not in live and "183" not in live
