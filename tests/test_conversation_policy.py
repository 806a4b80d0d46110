"""Subject match and reply carry (policy.conversation), alone and through recall."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta, timezone

import pytest

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.errors import InvalidInputError
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.policy.conversation import (
    carried_relevance,
    named_speakers,
    names_speaker,
    speaker_of,
    subject_factor,
    without_speakers,
)
from hermes_graph.state import RecalledItem
from hermes_graph.types import Memory

CONFIG = MemoryConfig()
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize(("query", "speaker", "named"), [
    ("What did Caroline research?", "Caroline", True),
    ("What is Caroline's job?", "Caroline", True),
    ("what did caroline research", "Caroline", True),
    ("What did Carolines research?", "Caroline", False),
    ("Where does Joanna live?", "Jo", False),
    ("Where does Smith work?", "Anna Smith", True),
    ("Who is A. Lee?", "A Lee", True),
    ("What does A like?", "A Lee", False),  # an initial alone names nobody
    ("小明喜欢什么运动？", "小明", True),
    ("小红喜欢什么运动？", "小明", False),
])
def test_a_speaker_is_named_by_a_whole_word_of_their_name(query: str, speaker: str,
                                                         named: bool) -> None:
    assert names_speaker(query, speaker) is named


@pytest.mark.parametrize(("query", "named", "left"), [
    ("What did Caroline research?", ["Caroline"], "What did research?"),
    ("What is Caroline's job?", ["Caroline"], "What is job?"),
    ("What have Caroline and Melanie both painted?", ["Caroline", "Melanie"],
     "What have and both painted?"),
    ("Did Anna Smith meet Smithers?", ["Anna Smith"], "Did meet Smithers?"),
    ("朵朵最近在学什么？", ["朵朵"], "最近在学什么？"),
    ("Caroline?", ["Caroline"], ""),
    ("What did Caroline research?", [], "What did Caroline research?"),
])
def test_without_speakers_leaves_the_topic(query: str, named: list[str], left: str) -> None:
    assert without_speakers(query, named) == left


def said(store: MemoryStore, text: str, *, speaker: str | None, session: str, turn: int,
         at: datetime = T0) -> Memory:
    ref: dict[str, object] = {"session": session, "turn": turn}
    if speaker is not None:
        ref["speaker"] = speaker
    return store.add("u", text, category="event", at=at, source_ref=ref)


def test_subject_factor_raises_only_memories_of_a_named_speaker(store: MemoryStore) -> None:
    alice = said(store, "I love hiking", speaker="Alice", session="s1", turn=0)
    bob = said(store, "I love hiking", speaker="Bob", session="s1", turn=1)
    nobody = said(store, "I love hiking", speaker=None, session="s1", turn=2)
    named = named_speakers("Does Bob like hiking?", ["Alice", "Bob", "Bob"])
    assert named == {"Bob"} and speaker_of(nobody) is None
    assert subject_factor(bob, named, CONFIG) == 1 + CONFIG.subject_match_boost
    assert subject_factor(alice, named, CONFIG) == 1.0
    assert subject_factor(nobody, named, CONFIG) == 1.0
    assert subject_factor(bob, frozenset(), CONFIG) == 1.0


def test_carried_relevance_decays_per_turn() -> None:
    assert math.isclose(carried_relevance(0.8, 1, CONFIG), 0.8 * CONFIG.reply_carry)
    assert math.isclose(carried_relevance(0.8, 2, CONFIG), 0.8 * CONFIG.reply_carry ** 2)
    assert carried_relevance(-0.2, 1, CONFIG) == 0.0
    assert math.isclose(carried_relevance(0.8, -1, CONFIG), 0.8 * CONFIG.reply_carry_back)


@pytest.mark.parametrize("changes", [{"reply_carry": 1.5}, {"reply_carry_back": 1.01},
                                     {"reply_carry_kinds": ("gossip",)},
                                     {"subject_match_boost": -0.1}])
def test_conversation_settings_are_checked(changes: dict[str, object]) -> None:
    with pytest.raises(InvalidInputError):
        MemoryConfig(**changes)  # type: ignore[arg-type]


def _recall(store: MemoryStore, query: str, config: MemoryConfig = CONFIG,
            ) -> list[RecalledItem]:
    return recall_memories(store, "u", query, now=T0 + timedelta(days=1), config=config,
                           touch=False)


def test_recall_puts_the_named_speakers_memory_first_and_shows_the_part(
        store: MemoryStore) -> None:
    alice = said(store, "I went hiking in the hills last weekend", speaker="Alice",
                 session="s1", turn=0)
    bob = said(store, "I went hiking in the hills last weekend", speaker="Bob",
               session="s2", turn=0)
    items = _recall(store, "Where did Bob go hiking?")
    assert [i["id"] for i in items[:2]] == [bob.id, alice.id]
    assert items[0]["breakdown"]["subject_match"] > 0
    assert "subject_match" not in items[1]["breakdown"]
    off = _recall(store, "Where did Bob go hiking?", CONFIG.replace(subject_match_boost=0.0))
    assert [i["id"] for i in off[:2]] == [alice.id, bob.id]  # a tie: the older first


def test_similarity_is_measured_against_the_query_without_the_named_speaker(
        open_store: Callable[..., MemoryStore]) -> None:
    # vectors only, so a memory's relevance is its cosine (no keyword score raises it)
    store = open_store(config=CONFIG.replace(keyword_weight=0.0))
    bob = said(store, "I went hiking on the mountain trail with my dog", speaker="Bob",
               session="s1", turn=0)
    stored = store.vectors("u", [bob.id])[bob.id]

    def semantic(config: MemoryConfig) -> float:
        [item] = [i for i in _recall(store, "Where did Bob go hiking on the trail?", config)
                  if i["id"] == bob.id]
        return item["breakdown"]["semantic"]

    topic = float(store.embed_query("Where did go hiking on the trail?") @ stored)
    whole = float(store.embed_query("Where did Bob go hiking on the trail?") @ stored)
    assert topic > whole + 0.05
    assert semantic(CONFIG) == pytest.approx(CONFIG.w_semantic * topic, abs=1e-4)
    off = CONFIG.replace(subject_free_query=False)
    assert semantic(off) == pytest.approx(CONFIG.w_semantic * whole, abs=1e-4)


def test_recall_carries_a_hit_to_the_reply_that_follows_it(store: MemoryStore) -> None:
    said(store, "We watched a documentary about whales", speaker="Bob", session="s1", turn=0)
    ask = said(store, "Can I get your honey garlic chicken recipe?", speaker="Tim",
               session="s1", turn=1)
    reply = said(store, "Sure thing! I can write it down and mail it to you.", speaker="John",
                 session="s1", turn=2)
    elsewhere = said(store, "Sure thing! I can write it down and mail it to you.",
                     speaker="John", session="s2", turn=2)
    query = "How will the honey garlic chicken recipe be shared?"
    items = {i["id"]: i for i in _recall(store, query)}
    assert ask.id in items and reply.id in items
    assert "reply_carry" in items[reply.id]["routes"]
    assert elsewhere.id not in items  # same words, but it follows nothing asked about
    assert reply.id not in {i["id"] for i in _recall(store, query,
                                                      CONFIG.replace(reply_carry=0.0))}


def test_recall_carries_a_hit_back_to_the_turn_it_replies_to(store: MemoryStore) -> None:
    whales = said(store, "We watched a documentary about whales", speaker="Bob", session="s1",
                  turn=0)
    told = said(store, "Yesterday I took my little ones somewhere new, they loved the dinosaurs",
                speaker="Mel", session="s1", turn=1)
    echo = said(store, "A museum trip with kids sounds fun! Which museum was it?",
                speaker="Ann", session="s1", turn=2)
    query = "Which museum did Mel visit with her kids?"
    ranked = [i["id"] for i in _recall(store, query)]
    items = {i["id"]: i for i in _recall(store, query)}
    assert ranked.index(told.id) < ranked.index(whales.id)  # Mel's, and Mel is named
    assert "reply_carry_back" in items[told.id]["routes"]
    off = {i["id"] for i in _recall(store, query, CONFIG.replace(reply_carry_back=0.0))}
    assert echo.id in off and told.id not in off  # no word of the query, before the hit


def test_only_the_configured_kinds_inherit(store: MemoryStore) -> None:
    ask = said(store, "Can I get your honey garlic chicken recipe?", speaker="Tim",
               session="s1", turn=1)
    fact = store.add("u", "Sure thing! I can write it down and mail it to you.",
                     category="fact", at=T0, source_ref={"session": "s1", "turn": 2})
    query = "How will the honey garlic chicken recipe be shared?"
    ids = {i["id"] for i in _recall(store, query)}
    assert ask.id in ids and fact.id not in ids
    wider = CONFIG.replace(reply_carry_kinds=("episodic", "semantic"))
    assert fact.id in {i["id"] for i in _recall(store, query, wider)}
