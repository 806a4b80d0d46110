"""VerbatimExtractor: each user turn kept whole, importance rated from what it tells."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

from langchain_core.messages import HumanMessage

from hermes_graph import MemoryStore
from hermes_graph.clock import FakeClock
from hermes_graph.extract import Turn, VerbatimExtractor
from hermes_graph.graph import create_memory_graph
from hermes_graph.policy import privacy
from hermes_graph.state import MemoryContext
from hermes_graph.types import Candidate, Memory
from tests.graph_helpers import RecordingChatModel

AT = datetime(2023, 5, 8, tzinfo=timezone.utc)


def turn(content: str, *, role: str = "user", speaker: str | None = "Bob Stone") -> Turn:
    return Turn(role=role, content=content, session="s", index=3, at=AT,  # type: ignore[arg-type]
                speaker=speaker, ref="D1:2")


def test_the_whole_turn_is_one_episodic_event_with_its_source() -> None:
    [candidate] = VerbatimExtractor().extract([turn("Bob Stone: hello there")], now=AT)
    assert (candidate.content, candidate.kind, candidate.category, candidate.subject) == (
        "Bob Stone: hello there", "episodic", "event", "user")
    assert candidate.source_ref == {"session": "s", "turn": 3, "at": AT.isoformat(),
                                    "refs": ["D1:2"], "speaker": "Bob Stone"}


def test_relative_dates_in_the_turn_get_their_absolute_date() -> None:
    [candidate] = VerbatimExtractor().extract(
        [turn("Bob Stone: Yesterday I went bowling; we camped two weeks ago")], now=AT)
    assert candidate.content == ("Bob Stone: Yesterday (2023-05-07) I went bowling; "
                                 "we camped two weeks ago (week of 2023-04-24)")


def test_only_a_non_empty_user_turn_is_kept() -> None:
    extractor = VerbatimExtractor()
    assert extractor.extract([turn("Sure, here it is.", role="assistant")], now=AT) == []
    assert extractor.extract([turn("   ")], now=AT) == []
    assert extractor.extract([], now=AT) == []


def test_a_turn_that_tells_nothing_is_dropped_unless_everything_is_kept() -> None:
    def reasons(extractor: VerbatimExtractor) -> list[str | None]:
        return [extractor.extract([turn(text, speaker=None)], now=AT)[0].drop_reason
                for text in ("Thanks!", "早上好呀", "How was your weekend?", "你周末过得怎么样？",
                             "Thanks! We hiked the Pennine Way.", "我们上个月去了杭州")]

    assert reasons(VerbatimExtractor()) == ["smalltalk", "smalltalk", "nothing_told",
                                            "nothing_told", None, None]
    assert reasons(VerbatimExtractor(keep_all=True)) == [None] * 6


def test_importance_rates_what_the_turn_tells_not_the_speakers_name() -> None:
    def rated(content: str) -> int:
        [candidate] = VerbatimExtractor().extract([turn(content)], now=AT)
        return candidate.importance

    assert rated("Bob Stone: How are you?") == 1
    # adopted two puppies shelter austin: 1 + 5 / 2 rounds to 4
    assert rated("Bob Stone: I adopted two puppies from the shelter in Austin.") == 4
    config_rated = VerbatimExtractor(
        VerbatimExtractor().config.replace(substance_terms_per_point=1.0))
    [candidate] = config_rated.extract([turn("I adopted two puppies in Austin.",
                                             speaker=None)], now=AT)
    assert candidate.importance == 5  # 1 + 4 terms (adopted two puppies austin), 1 a point


def test_a_turn_with_a_secret_is_dropped_whole_and_redacted() -> None:
    [candidate] = VerbatimExtractor().extract(
        [turn("Bob Stone: my password is hunter2hunter2, we hiked a lot")], now=AT)
    assert candidate.drop_reason == "secret:password" and candidate.content == "[redacted]"
    # a turn dropped for another reason (only a question) is redacted all the same
    [asked] = VerbatimExtractor().extract([turn("Is my password hunter2hunter2 safe?")],
                                          now=AT)
    assert asked.drop_reason == "secret:password" and asked.content == "[redacted]"


def test_a_candidate_an_extractor_dropped_for_another_reason_is_still_redacted() -> None:
    dropped = Candidate(content="my password is hunter2hunter2", kind="semantic",
                        category="fact", drop_reason="too_short")
    screened = privacy.screen_secrets(dropped, include_phone=True)
    assert (screened.content, screened.drop_reason) == ("[redacted]", "secret:password")
    clean = Candidate(content="I live in Leeds", kind="semantic", category="fact")
    assert privacy.screen_secrets(clean, include_phone=True) is clean


class EchoExtractor:
    """A user's own extractor that keeps the turn and screens nothing."""

    def extract(self, turns: Sequence[Turn], *, now: datetime,
                existing: Sequence[Memory] = ()) -> list[Candidate]:
        return [Candidate(content=turns[-1].content, kind="semantic", category="fact")]


def test_secrets_from_any_extractor_never_reach_the_store(store: MemoryStore,
                                                          clock: FakeClock) -> None:
    graph = create_memory_graph(RecordingChatModel(), store=store, extractor=EchoExtractor())
    context = MemoryContext(scope="u1", session_id="s1", clock=clock)
    result = graph.invoke({"messages": [HumanMessage("My password is hunter2hunter2")]},
                          context=context)
    assert [(d["action"], d["reason"]) for d in result["decisions"]] == [
        ("drop", "filter:secret:password")]
    assert store.list("u1") == [] and "hunter2" not in str(result["decisions"])


def test_in_the_graph_the_gate_still_screens_verbatim_turns(store: MemoryStore,
                                                            clock: FakeClock) -> None:
    graph = create_memory_graph(RecordingChatModel(), store=store,
                                extractor=VerbatimExtractor())
    context = MemoryContext(scope="u1", session_id="s1", clock=clock)
    graph.invoke({"messages": [HumanMessage("We hiked the Pennine Way last June.")]},
                 context=context)
    graph.invoke({"messages": [HumanMessage("My password is hunter2hunter2")]},
                 context=context)
    assert [m.content for m in store.list("u1")] == ["We hiked the Pennine Way last June."]
    assert "hunter2" not in str([m.content for m in store.list("u1")])
