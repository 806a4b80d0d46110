"""Time anchors: the calendar days a query names (policy.dates) and recall's route for them."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.policy.dates import query_windows, said_or_dated_within, widen

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
    for n, place in enumerate(PLACES):  # 22 closer matches fill the search pool (16)
        store.add("u", f"Nate: I cook at the {place}", category="event",
                  at=T0 - timedelta(days=40 + n))
    that_day = store.add("u", "Nate: I cook coconut ice cream", category="event", at=T0)
    items = recall_memories(store, "u", QUERY, now=LATER, config=CONFIG, touch=False)
    assert that_day.id in {i["id"] for i in items if i["routes"] == ["time_anchor"]}
    off = recall_memories(store, "u", QUERY, now=LATER, touch=False,
                          config=CONFIG.replace(time_anchor_boost=0.0))
    assert that_day.id not in {i["id"] for i in off}
