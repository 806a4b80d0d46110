"""Time anchors: the calendar days a query names (policy.dates) and recall's route for them."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.policy.dates import (
    asks_when,
    dated_spans,
    dated_within,
    query_windows,
    said_or_dated_within,
    states_time,
    widen,
    with_absolute_dates,
)

CONFIG = MemoryConfig()
T0 = datetime(2022, 11, 9, 15, 0, tzinfo=timezone.utc)


def day(y: int, m: int, d: int) -> tuple[date, date]:
    start = date(y, m, d)
    return start, start + timedelta(days=1)


@pytest.mark.parametrize(("query", "windows"), [
    ("What dish did Nate make on 9 November, 2022?", [day(2022, 11, 9)]),
    ("What did Melanie paint on October 13, 2023?", [day(2023, 10, 13)]),
    ("Who came on the 3rd of June, 2023?", [day(2023, 6, 3)]),
    ("What happened on Sept 1 2023?", [day(2023, 9, 1)]),
    ("2023-05-07 那天我去了哪里", [day(2023, 5, 7)]),
    ("我2023年5月7日去哪了", [day(2023, 5, 7)]),
    ("What was John doing in August 2023?", [(date(2023, 8, 1), date(2023, 9, 1))]),
    ("我2023年12月做了什么", [(date(2023, 12, 1), date(2024, 1, 1))]),
    ("From 1 May, 2023 to May 2024", [day(2023, 5, 1), (date(2024, 5, 1), date(2024, 6, 1))]),
    ("What happened on 30 February, 2022?", []),
    ("What should I cook today?", []),  # relative phrases are not anchors
    ("May I ask what you did in 2023?", []),
])
def test_query_windows_finds_named_days_and_months(query: str,
                                                    windows: list[tuple[date, date]]) -> None:
    assert query_windows(query) == windows


def test_a_memory_is_in_a_window_by_when_it_was_said_or_the_day_it_names() -> None:
    windows = [widen(day(2023, 5, 7), 0)]
    said = datetime(2023, 5, 7, 23, 0, tzinfo=timezone.utc)
    later = datetime(2023, 5, 9, tzinfo=timezone.utc)
    assert said_or_dated_within("Went to the support group", said, windows)
    assert not said_or_dated_within("Went to the support group", later, windows)
    assert said_or_dated_within("Went to the group yesterday (2023-05-07)", later, windows)
    assert said_or_dated_within("Went there", later, [widen(day(2023, 5, 7), 2)])


WEDNESDAY = datetime(2023, 5, 24, 19, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(("said", "dated"), [
    ("yesterday I went bowling", "yesterday (2023-05-23) I went bowling"),
    ("I held a party last night", "I held a party last night (2023-05-23)"),
    ("I leave the day after tomorrow", "I leave the day after tomorrow (2023-05-26)"),
    ("a couple of days ago", "a couple of days ago (2023-05-22)"),
    ("Last Friday I saw a car show", "Last Friday (2023-05-19) I saw a car show"),
    ("in 3 days", "in 3 days (2023-05-27)"),
    ("we camped two weeks ago", "we camped two weeks ago (week of 2023-05-08)"),
    ("Last weekend we drove to Jasper", "Last weekend (weekend of 2023-05-20) we drove to Jasper"),
    ("I took a road trip last month", "I took a road trip last month (2023-04)"),
    ("see you next month", "see you next month (2023-06)"),
    ("三天前我去了", "三天前 (2023-05-21)我去了"),
    ("上周我很忙", "上周 (week of 2023-05-15)我很忙"),
    ("上周末去爬山", "上周末 (weekend of 2023-05-20)去爬山"),
    ("下个月出差", "下个月 (2023-06)出差"),
    ("I went there recently", "I went there recently"),  # no span to name
    ("报告马上月底交", "报告马上月底交"), ("按上周期的数据", "按上周期的数据"),  # not spans
])
def test_a_relative_phrase_gets_the_day_week_or_month_it_names(said: str, dated: str) -> None:
    assert with_absolute_dates(said, WEDNESDAY) == dated
    assert with_absolute_dates(dated, WEDNESDAY) == dated  # once only


def test_a_memory_is_dated_by_the_spans_its_words_name() -> None:
    text = "yesterday (2023-05-23), two weeks ago (week of 2023-05-08) and last month (2023-04)"
    assert dated_spans(text) == [(date(2023, 5, 23), date(2023, 5, 24)),
                                 (date(2023, 5, 8), date(2023, 5, 15)),
                                 (date(2023, 4, 1), date(2023, 5, 1))]
    assert dated_within("bowling yesterday (2023-05-23)", [day(2023, 5, 23)])
    assert not dated_within("camped the week of 2023-05-22", [day(2023, 5, 23)])  # which day?
    april = (date(2023, 4, 1), date(2023, 5, 1))
    assert dated_within("a road trip last month (2023-04)", [april])
    assert dated_within("camped the week of 2023-04-10", [april])
    later = datetime(2023, 9, 1, tzinfo=timezone.utc)
    # a week overlapping a named day counts as said near it; a month does not
    assert said_or_dated_within("camped the week of 2023-05-22", later, [day(2023, 5, 23)])
    assert not said_or_dated_within("a trip last month (2023-05)", later, [day(2023, 5, 23)])


def test_a_memory_dated_that_day_by_its_own_words_matches_the_querys_context(
        store: MemoryStore) -> None:
    said_then = store.add("u", "Nate: I cook pasta", category="event", at=T0)
    dated = store.add("u", "Nate: I cook pasta yesterday (2022-11-09)", category="event",
                      at=T0 + timedelta(days=1))
    items = {i["id"]: i for i in recall_memories(store, "u", "What did Nate cook on "
                                                 "9 November, 2022?", now=LATER,
                                                 config=CONFIG, touch=False)}
    assert "dated" in items[dated.id]["routes"] and "dated" not in items[said_then.id]["routes"]
    assert items[dated.id]["breakdown"]["context"] == CONFIG.w_context
    assert items[dated.id]["breakdown"]["time_anchor"] > 0  # said within a day of it too


PLACES = [
    "harbour", "hillside", "market", "garden", "corner", "station", "river", "bridge", "plaza",
    "tower", "canal", "square", "alley", "meadow", "orchard", "dockside", "village", "airport",
    "museum", "library", "stadium", "bakery",
]
QUERY = "What did Nate cook on 9 November, 2022?"
LATER = T0 + timedelta(days=60)


def test_of_two_equally_relevant_memories_the_one_said_that_day_ranks_first(
        store: MemoryStore) -> None:
    other = store.add("u", "Nate: I cook pasta", category="event", at=T0 + timedelta(days=9))
    that_day = store.add("u", "Nate: I cook pasta", category="event", at=T0)
    items = recall_memories(store, "u", QUERY, now=LATER, config=CONFIG, touch=False)
    assert [i["id"] for i in items[:2]] == [that_day.id, other.id]
    assert items[0]["breakdown"]["time_anchor"] > 0 and "time_anchor" not in items[1]["breakdown"]
    off = recall_memories(store, "u", QUERY, now=LATER, touch=False,
                          config=CONFIG.replace(time_anchor_boost=0.0))
    assert [i["id"] for i in off[:2]] == [other.id, that_day.id]  # the fresher one


def test_what_was_said_that_day_joins_the_candidates_beyond_the_search_pool(
        store: MemoryStore) -> None:
    config = CONFIG.replace(recall_k=5)
    assert len(PLACES) > config.recall_k * config.coarse_pool_factor
    for n, place in enumerate(PLACES):  # closer matches fill the search pool
        store.add("u", f"Nate: I cook at the {place}", category="event",
                  at=T0 - timedelta(days=40 + n))
    that_day = store.add("u", "Nate: I cook coconut ice cream", category="event", at=T0)
    items = recall_memories(store, "u", QUERY, now=LATER, config=config, touch=False)
    assert that_day.id in {i["id"] for i in items if i["routes"] == ["time_anchor"]}
    off = recall_memories(store, "u", QUERY, now=LATER, touch=False,
                          config=config.replace(time_anchor_boost=0.0))
    assert that_day.id not in {i["id"] for i in off}


@pytest.mark.parametrize(("query", "expected"), [
    ("When did Caroline go to the support group?", True),
    ("Do you remember when I moved to Berlin?", True),
    ("What year did I adopt my first dog?", True),
    ("Which month was the wedding?", True),
    ("How long have I been learning the piano?", True),
    ("他养狗多久了", True),
    ("How many kids do I have?", False),
    ("我什么时候去的北京？", True),
    ("上次体检是哪天", True),
    ("What do I do when I'm stressed?", False),  # "when" as a condition, not a question
    ("What did Nate cook?", False),
    ("我喜欢吃什么", False),
])
def test_a_question_asking_when_is_told_apart(query: str, expected: bool) -> None:
    assert asks_when(query) is expected


@pytest.mark.parametrize(("content", "expected"), [
    ("I went to the group yesterday (2023-05-07)", True),
    ("We moved here in July", True),
    ("I adopted her three years ago", True),
    ("Graduated in 2019", True),
    ("我3月5日去体检", True),
    ("去年搬到了上海", True),
    ("We've been together for three years", True),
    ("我学了两年钢琴", True),
    ("I have two dogs", False),
    ("I love pottery, it calms me down", False),
    ("我喜欢吃辣", False),
    ("I may come along", False),  # "may" is no month
])
def test_a_memory_stating_a_time_is_told_apart(content: str, expected: bool) -> None:
    assert states_time(content) is expected


def test_a_question_asking_when_prefers_the_memory_that_says_when(store: MemoryStore) -> None:
    """Type and scene match (seed 000 §3.4): of two memories about the same event, the one
    that says when it happened answers "when"; other questions rank them as before."""
    plain = store.add("u", "Nate: I adopted a puppy named Scout", category="event",
                      at=T0 + timedelta(days=2))
    dated = store.add("u", "Nate: I adopted a puppy named Scout yesterday (2022-11-08)",
                      category="event", at=T0)
    items = {i["id"]: i for i in recall_memories(store, "u", "When did Nate adopt Scout?",
                                                 now=LATER, config=CONFIG, touch=False)}
    assert items[dated.id]["score"] > items[plain.id]["score"]
    assert "says_when" in items[dated.id]["routes"] and "says_when" not in items[plain.id]["routes"]
    assert items[dated.id]["breakdown"]["context"] == CONFIG.w_context
    off = {i["id"]: i for i in recall_memories(store, "u", "When did Nate adopt Scout?",
                                               now=LATER, touch=False,
                                               config=CONFIG.replace(when_context=0.0))}
    assert off[plain.id]["score"] > off[dated.id]["score"]  # the fresher one, as before
    other = {i["id"]: i for i in recall_memories(store, "u", "What pet does Nate have?",
                                                 now=LATER, config=CONFIG, touch=False)}
    assert "says_when" not in other[dated.id]["routes"]


def test_a_chinese_question_asking_when_prefers_the_memory_that_says_when(
        store: MemoryStore) -> None:
    plain = store.add("u", "我在杭州买了一套房子", category="event", at=T0 + timedelta(days=2))
    dated = store.add("u", "我去年在杭州买了一套房子", category="event", at=T0)
    query = "我是什么时候在杭州买的房子？"
    items = {i["id"]: i for i in recall_memories(store, "u", query, now=LATER, config=CONFIG,
                                                 touch=False)}
    assert items[dated.id]["score"] > items[plain.id]["score"]
    assert "says_when" in items[dated.id]["routes"]
    off = {i["id"]: i for i in recall_memories(store, "u", query, now=LATER, touch=False,
                                               config=CONFIG.replace(when_context=0.0))}
    assert off[plain.id]["score"] > off[dated.id]["score"]
