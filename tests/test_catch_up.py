"""Session-end catch-up (seed 000 §2.3) through writer.end_session: real store, fake models."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timezone

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.extract import LLMExtractor, RuleExtractor, Turn
from hermes_graph.types import Candidate
from hermes_graph.writer import end_session

AT = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def turns(*pairs: tuple[str, str]) -> list[Turn]:
    return [Turn(role=role, content=text, session="s1", index=n, at=AT)  # type: ignore[arg-type]
            for n, (role, text) in enumerate(pairs)]


def test_a_short_answer_to_the_assistants_question_becomes_an_implicit_fact(
        store: MemoryStore) -> None:
    history = turns(("user", "帮我看看新房"), ("assistant", "预算大概多少？"), ("user", "50万左右"))
    decisions = end_session(store, RuleExtractor(), scope="u1", session="s1", turns=history,
                            now=AT)
    assert [d["action"] for d in decisions] == ["admit"]
    [memory] = store.list("u1")
    assert "50万" in memory.content and memory.source == "implicit"


class LeakyCatchUp:
    """A user's own extractor whose catch-up screens nothing."""

    def extract(self, turns: Sequence[Turn], *, now: datetime,
                existing: Sequence[object] = ()) -> list[Candidate]:
        return []

    def catch_up(self, turns: Sequence[Turn], *, now: datetime) -> list[Candidate]:
        return [Candidate(content=t.content, kind="semantic", category="fact")
                for t in turns if t.role == "user"]


def test_catch_up_output_is_screened_for_secrets(store: MemoryStore) -> None:
    history = turns(("user", "我的银行卡号 6222 0212 3456 7890 123"), ("user", "我住在杭州滨江"))
    decisions = end_session(store, LeakyCatchUp(), scope="u1", session="s1",  # type: ignore[arg-type]
                            turns=history, now=AT, config=MemoryConfig())
    [dropped] = [d["reason"] for d in decisions if d["action"] == "drop"]
    assert dropped.startswith("filter:secret:bank_card")
    assert [m.content for m in store.list("u1")] == ["我住在杭州滨江"]
    assert "6222" not in str(decisions)


def test_broken_catch_up_json_keeps_nothing_and_does_not_raise(
        store: MemoryStore, caplog: pytest.LogCaptureFixture) -> None:
    store.add("u1", "User lives in Leeds", category="identity")
    extractor = LLMExtractor(FakeListChatModel(responses=['{"memories": [{"content": "I li']))
    with caplog.at_level(logging.WARNING):
        decisions = end_session(store, extractor, scope="u1", session="s1",
                                turns=turns(("user", "I moved to York")), now=AT)
    assert decisions == []
    assert [m.content for m in store.list("u1")] == ["User lives in Leeds"]
    assert any("catch-up output rejected" in r.getMessage() for r in caplog.records)
