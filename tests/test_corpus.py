"""The extraction corpus: every file obeys data/extraction/GUIDE.md, and the corpus has
the size and spread the extractor is trained and measured on."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hermes_graph.errors import FormatError
from hermes_graph.language.corpus import (
    REGISTERS,
    SLOTS,
    check_files,
    parse_record,
    parse_slot_record,
    read_corpus,
    read_slot_corpus,
)

DATA = Path(__file__).resolve().parent.parent / "data"
FILES = sorted((DATA / "extraction").glob("*.jsonl"))
SLOT_FILES = sorted((DATA / "slots").glob("*.jsonl"))


def test_every_corpus_file_follows_the_guide() -> None:
    assert FILES, "no corpus files"
    assert check_files(FILES) == []


def test_the_corpus_is_large_and_spread_over_languages_registers_and_writers() -> None:
    records = read_corpus(FILES)
    langs = Counter(r.lang for r in records)
    assert len(records) >= 5000
    assert langs["zh"] >= 0.4 * len(records) and langs["en"] >= 0.4 * len(records)
    assert langs["mixed"] > 0
    registers = Counter(r.register for r in records)
    assert len(registers) >= 10 and set(registers) <= set(REGISTERS)
    batches = {r.batch for r in records}
    assert len(batches) >= 5
    assert any(b.startswith("h") for b in batches), "no held-out batch"


def _record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": "t01-0001", "batch": "t01", "lang": "en", "register": "question_with_fact",
        "context": "", "message": "As a vegan, what should I cook tonight?",
        "clauses": [
            {"text": "As a vegan", "keep": True, "category": "constraint", "subject": "user",
             "change": "new", "venting": False},
            {"text": "what should I cook tonight?", "keep": False, "category": "question",
             "subject": "user", "change": "new", "venting": False}],
        "memories": [{"content": "vegan", "kind": "semantic", "category": "constraint",
                      "subject": "user", "from": [0]}]}
    record.update(changes)
    return record


def test_a_good_record_is_read_with_clause_offsets() -> None:
    record = parse_record(_record(), "t.jsonl:1")
    assert [c.start for c in record.clauses] == [0, 12]
    assert record.memories[0].sources == (0,)


@pytest.mark.parametrize(("change", "problem"), [
    ({"lang": "fr"}, "'lang' is 'fr'"),
    ({"id": "x-1"}, "must start with its batch"),
    ({"message": "As a vegan, what should I bake tonight?"}, "is not in the message"),
    ({"message": "As a vegan, hmm, what should I cook tonight?"}, "belongs to no clause"),
    ({"memories": []}, "kept clause 0 is in 0 memories"),
])
def test_a_bad_record_is_refused_naming_the_problem(change: dict[str, Any], problem: str) -> None:
    with pytest.raises(FormatError, match=problem.replace("(", r"\(").replace("'", "'")):
        parse_record(_record(**change), "t.jsonl:1")


def test_labels_that_contradict_the_guide_are_refused() -> None:
    kept_question = _record()
    kept_question["clauses"][1]["keep"] = True
    with pytest.raises(FormatError, match="'question' is never a memory"):
        parse_record(kept_question, "t.jsonl:1")
    wrong_kind = _record()
    wrong_kind["memories"][0]["kind"] = "episodic"
    with pytest.raises(FormatError, match="does not fit category"):
        parse_record(wrong_kind, "t.jsonl:1")
    from_dropped = _record()
    from_dropped["memories"][0]["from"] = [0, 1]
    with pytest.raises(FormatError, match="keep false"):
        parse_record(from_dropped, "t.jsonl:1")
    hypothetical_kept = _record()
    hypothetical_kept["clauses"][0]["subject"] = "hypothetical"
    with pytest.raises(FormatError, match="'hypothetical' is never kept"):
        parse_record(hypothetical_kept, "t.jsonl:1")


def test_check_files_lists_every_problem_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "t01.jsonl"
    path.write_text("\n".join([json.dumps(_record()), "{not json",
                               json.dumps(_record(lang="fr")), json.dumps(_record())]),
                    encoding="utf-8")
    problems = check_files([path])
    assert [p.split(":")[1].split()[0] for p in problems] == ["2", "3", "4"]
    assert "not JSON" in problems[0] and "used twice" in problems[2]
    with pytest.raises(FormatError, match=r"t01\.jsonl:2: not JSON"):
        read_corpus([path])


def test_the_slot_corpus_covers_every_slot_in_both_languages_with_a_held_out_batch() -> None:
    statements = read_slot_corpus(SLOT_FILES)
    assert len(statements) >= 2000
    for lang in ("zh", "en"):
        assert {s.slot for s in statements if s.lang == lang} == set(SLOTS)
    assert any(s.batch.startswith("h") for s in statements)


def test_a_bad_slot_record_is_refused_naming_the_problem(tmp_path: Path) -> None:
    good = {"id": "s9-1", "batch": "s9", "lang": "en", "text": "I live in Leeds",
            "slot": "residence"}
    assert parse_slot_record(good, "s.jsonl:1").slot == "residence"
    with pytest.raises(FormatError, match="'slot' is 'city'"):
        parse_slot_record({**good, "slot": "city"}, "s.jsonl:1")
    with pytest.raises(FormatError, match="'text' is empty"):
        parse_slot_record({**good, "text": " "}, "s.jsonl:1")
    path = tmp_path / "s9.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(good), encoding="utf-8")
    with pytest.raises(FormatError, match="used twice"):
        read_slot_corpus([path])
