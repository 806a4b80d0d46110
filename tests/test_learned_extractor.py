"""The default extractor on clear cases, in Chinese and English: what it keeps, what it
drops and why, whom a memory is about, and the change a clause makes. These run the
shipped model with its own embedder (multilingual USE)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from hermes_graph.extract.base import Turn
from hermes_graph.extract.learned import LearnedExtractor
from hermes_graph.types import Candidate

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def extractor() -> LearnedExtractor:
    return LearnedExtractor()


def _turn(role: str, content: str, index: int = 0) -> Turn:
    return Turn(role=role, content=content, session="s1", index=index, at=NOW)  # type: ignore[arg-type]


def extract(extractor: LearnedExtractor, message: str, before: str = "") -> list[Candidate]:
    turns = ([_turn("assistant", before)] if before else []) + [_turn("user", message, 1)]
    return extractor.extract(turns, now=NOW)


def kept(candidates: list[Candidate]) -> list[Candidate]:
    return [c for c in candidates if c.drop_reason is None and not c.forget]


@pytest.mark.parametrize(("message", "word", "category"), [
    ("我对花生过敏，点餐的时候帮我避开", "花生", "constraint"),
    ("I'm allergic to shellfish, what should I order tonight?", "shellfish", "constraint"),
    ("我在杭州做前端开发，平时用 Vue", "杭州", "identity"),
    ("can you find a gym near me? I live in Leeds now", "Leeds", "identity"),
])
def test_a_lasting_fact_inside_a_request_is_kept(extractor: LearnedExtractor, message: str,
                                                word: str, category: str) -> None:
    found = kept(extract(extractor, message))
    assert [c for c in found if word in c.content and c.subject == "user"], found
    assert any(c.category == category for c in found if word in c.content)


@pytest.mark.parametrize("message", [
    "what's the weather like in Paris this weekend?",
    "帮我写一封请假邮件，语气正式一点",
    "哈哈好的谢谢",
    "if I were vegan, what would I eat for protein?",
    "假如我搬去上海，房租大概要多少？",
])
def test_questions_requests_chitchat_and_hypotheticals_are_not_kept(
        extractor: LearnedExtractor, message: str) -> None:
    found = extract(extractor, message)
    assert kept(found) == []
    assert all(c.drop_reason and c.drop_reason.startswith("not_kept:") for c in found)


def test_a_dropped_clause_says_what_the_model_took_it_for(extractor: LearnedExtractor) -> None:
    (dropped,) = extract(extractor, "what time does the pharmacy close?")
    assert dropped.drop_reason is not None
    assert dropped.drop_reason.startswith("not_kept:question keep=0.")
    assert dropped.source_ref["extraction"][0]["category"].startswith("question ")


def test_a_secret_is_redacted_and_the_rest_survives(extractor: LearnedExtractor) -> None:
    found = extract(extractor, "my wifi password is Tr0ub4dor&3. I'm vegetarian, btw.")
    assert [c.drop_reason for c in found if c.content == "[redacted]"] == ["secret:password"]
    assert all("Tr0ub4dor" not in c.content and "Tr0ub4dor" not in str(c.source_ref)
               for c in found)
    assert any("vegetarian" in c.content for c in kept(found))


def test_a_family_members_fact_is_theirs(extractor: LearnedExtractor) -> None:
    found = kept(extract(extractor, "我女儿对鸡蛋过敏，幼儿园的午饭要注意"))
    assert found and all(c.subject.startswith("user.") for c in found)


def test_a_forget_request_becomes_one(extractor: LearnedExtractor) -> None:
    found = extract(extractor, "please forget what I told you about my ex")
    assert [c.forget for c in found] == [True]


@pytest.mark.parametrize("message", ["we moved to Portland last month",
                                     "我换工作了，现在在字节跳动上班"])
def test_an_update_signals_a_change(extractor: LearnedExtractor, message: str) -> None:
    assert any(c.change_signal for c in kept(extract(extractor, message)))


def test_the_head_scores_of_a_kept_memory_go_with_it(extractor: LearnedExtractor) -> None:
    (memory,) = kept(extract(extractor, "I'm lactose intolerant"))
    scores = memory.source_ref["extraction"][0]
    assert set(scores) == {"keep", "category", "subject", "change", "venting", "join", "slot"}
    assert memory.confidence > 0.5


def test_a_short_answer_is_stored_with_the_question(extractor: LearnedExtractor) -> None:
    found = kept(extract(extractor, "50万左右", before="好的。你买车的预算大概多少？"))
    assert [c.content for c in found] == ["你买车的预算大概多少？ 50万左右"]


def test_only_the_users_own_latest_turn_is_read(extractor: LearnedExtractor) -> None:
    assert extractor.extract([_turn("assistant", "You live in Leeds, right?")], now=NOW) == []
    assert extractor.extract([_turn("user", "   ")], now=NOW) == []
    assert extractor.extract([], now=NOW) == []
