"""`bench locomo`: the data reader, the Recall@k metric on a hand-built conversation,
the CLI on a slice of the real file (skipped without ../shared), and --llm without
an endpoint. Real SQLite/FAISS, the real graph, the hashing embedder for speed."""

from __future__ import annotations

import argparse
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from hermes_graph.bench.cli import parse_positions
from hermes_graph.bench.locomo import (
    LocomoRun,
    recall_at_k,
    recall_table,
    run_locomo,
)
from hermes_graph.bench.locomo_baseline import bm25_rankings
from hermes_graph.bench.locomo_data import load_locomo, parse_session_date, sessions_of
from hermes_graph.bench.locomo_llm import judge_outcomes
from hermes_graph.bench.report import write_locomo_report
from hermes_graph.cli import main
from hermes_graph.embeddings import HashingEmbeddings
from hermes_graph.errors import FormatError
from hermes_graph.store import MemoryStore

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "data" / "locomo10.json"
NAMES = ("overall", "single-hop", "multi-hop", "temporal", "open-domain")
TOP_KEYS = {"mode", "questions", "skipped", "hermes", "bm25", "avg_injected_tokens",
            "p50_recall_ms", "p95_recall_ms", "extra"}
LLM_ENV = ("HERMES_LLM_BASE_URL", "HERMES_LLM_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_KEY")

# Three turns in LoCoMo's shape. Each question shares words (stopwords included, as the
# hashing embedder sees them) with its evidence turns only: "puppy" -> D1:1; "violin
# lessons" -> D1:2 and "garden hose" -> D2:1; "chewed garden hose" -> D2:1; and the
# open-domain question names D2:1 as evidence but shares no word with it.
SAMPLE: dict[str, Any] = {
    "sample_id": "tiny",
    "conversation": {
        "speaker_a": "Alice", "speaker_b": "Bob",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Alice", "dia_id": "D1:1", "text": "I adopted a puppy named Biscuit."},
            {"speaker": "Bob", "dia_id": "D1:2", "text": "I started violin lessons downtown.",
             "img_url": ["https://example.invalid/v.jpg"],
             "blip_caption": "a photo of a violin on a chair"},
        ],
        "session_2_date_time": "10:00 am on 20 May, 2023",
        "session_2": [
            {"speaker": "Alice", "dia_id": "D2:1", "text": "Biscuit chewed the garden hose."},
        ],
    },
    "qa": [
        {"question": "Puppy name?", "answer": "Biscuit", "evidence": ["D1:1"], "category": 4},
        {"question": "Violin lessons; garden hose?", "answer": "Bob; Biscuit",
         "evidence": ["D1:2", "D2:1"], "category": 1},
        {"question": "When chewed garden hose?", "answer": "May 2023",
         "evidence": ["D2:1"], "category": 2},
        {"question": "Puppy behaviour?", "answer": "unknown",
         "evidence": ["D1:1; D2:1"], "category": 3},  # repaired into two ids
        {"question": "Is Bob a pilot?", "answer": "no", "evidence": ["D1:"], "category": 3},
        {"question": "What did Bob adopt?", "adversarial_answer": "a puppy",
         "evidence": ["D1:1"], "category": 5},
    ],
}


@pytest.fixture
def tiny_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps([SAMPLE]), encoding="utf-8")
    return path


@pytest.fixture
def tiny_run(tiny_file: Path, tmp_path: Path) -> LocomoRun:
    return run_locomo(load_locomo(tiny_file), mode="raw", ks=(1, 2, 3),
                      embeddings=HashingEmbeddings(1024), db=tmp_path / "kept.db",
                      progress=False)


def test_recall_at_k_counts_distinct_evidence_turns_in_the_top_k() -> None:
    ranked = (("D1:1",), ("D2:7", "D2:8"), ("D1:1",), ("D3:1",))
    assert recall_at_k(["D2:8"], ranked, 1) == 0.0
    assert recall_at_k(["D2:8"], ranked, 2) == 1.0  # an item may come from several turns
    assert recall_at_k(["D1:1", "D3:1"], ranked, 3) == 0.5
    assert recall_at_k(["D1:1", "D3:1"], ranked, 4) == 1.0
    assert recall_at_k(["D1:1", "D9:9"], ranked, 20) == 0.5
    assert recall_at_k(["D1:1", "D9:9", "D9:8"], (), 5) == 0.0
    with pytest.raises(ValueError):
        recall_at_k([], ranked, 1)


def test_bm25_baseline_matches_stems(tiny_file: Path) -> None:
    turns = load_locomo(tiny_file).conversations[0].turns
    # "adopting" and "chewing" share only their stems with D1:1 and D2:1
    ranked = bm25_rankings(turns, ["adopting", "chewing"], k=1)
    assert ranked == [(("D1:1",),), (("D2:1",),)]


def test_reader_repairs_skips_and_builds_user_sessions(tiny_file: Path) -> None:
    data = load_locomo(tiny_file)
    audit = data.audit
    assert (audit.questions, audit.skipped, audit.repaired_ids, audit.dropped_ids) == (5, 1, 2, 1)
    conversation = data.conversations[0]
    assert [q.evidence for q in conversation.questions] == [
        ("D1:1",), ("D1:2", "D2:1"), ("D2:1",), ("D1:1", "D2:1")]
    assert parse_session_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56,
                                                                      tzinfo=timezone.utc)
    sessions = sessions_of(conversation)
    assert [s.id for s in sessions] == ["session_1", "session_2"]
    turns = [t for s in sessions for t in s.turns]
    assert {t.role for t in turns} == {"user"}
    assert [t.speaker for t in turns] == ["Alice", "Bob", "Alice"]
    assert [t.ref for t in turns] == ["D1:1", "D1:2", "D2:1"]
    assert turns[1].content == ("Bob: I started violin lessons downtown. "
                                "[shares a photo of a violin on a chair]")
    assert turns[2].at.date().isoformat() == "2023-05-20"


def test_reader_keeps_the_chosen_positions(tmp_path: Path) -> None:
    samples = [{**SAMPLE, "sample_id": f"s{n}"} for n in range(4)]
    path = tmp_path / "four.json"
    path.write_text(json.dumps(samples), encoding="utf-8")
    data = load_locomo(path, positions=[3, 1, 1])
    assert [c.sample_id for c in data.conversations] == ["s1", "s3"]
    assert [c.sample_id for c in load_locomo(path, positions=[0, 2, 3],
                                             limit_conversations=2).conversations] == ["s0", "s2"]
    with pytest.raises(FormatError, match=r"position\(s\) \[4\]"):
        load_locomo(path, positions=[0, 4])


@pytest.mark.parametrize(("spec", "positions"), [
    ("0-4", [0, 1, 2, 3, 4]), ("5-9", [5, 6, 7, 8, 9]), ("0,2,5-6", [0, 2, 5, 6]), ("3", [3])])
def test_conversations_option_reads_positions_and_ranges(spec: str,
                                                         positions: list[int]) -> None:
    assert parse_positions(spec) == positions


@pytest.mark.parametrize("spec", ["a-b", ",", "1-x"])
def test_conversations_option_rejects_bad_specs(spec: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        parse_positions(spec)


def test_recall_at_k_matches_the_hand_computed_values(tiny_run: LocomoRun) -> None:
    hermes = recall_table(tiny_run.outcomes, "hermes", tiny_run.ks)
    # Only turns sharing a word with the question are recalled. single-hop: D1:1 alone
    # -> 1. multi-hop: one of its two turns at rank 1 -> 0.5, both by rank 2 -> 1.
    # temporal: D2:1 alone -> 1. open-domain: D1:1 of {D1:1, D2:1}; D2:1 shares no word
    # with the question and is never recalled -> 0.5 at every k.
    assert hermes == {
        "overall": {"1": 0.75, "2": 0.875, "3": 0.875},
        "single-hop": {"1": 1.0, "2": 1.0, "3": 1.0},
        "multi-hop": {"1": 0.5, "2": 1.0, "3": 1.0},
        "temporal": {"1": 1.0, "2": 1.0, "3": 1.0},
        "open-domain": {"1": 0.5, "2": 0.5, "3": 0.5},
    }
    bm25 = recall_table(tiny_run.outcomes, "bm25", tiny_run.ks)
    assert {name: row["1"] for name, row in bm25.items()} == {
        "overall": 0.75, "single-hop": 1.0, "multi-hop": 0.5, "temporal": 1.0,
        "open-domain": 0.5}
    assert all(row["3"] == 1.0 for row in bm25.values())  # three turns: all are ranked


def test_every_turn_is_stored_with_its_dia_id(tiny_run: LocomoRun, tmp_path: Path) -> None:
    assert (tiny_run.write.turns, tiny_run.write.turns_stored) == (3, 3)
    with MemoryStore(tmp_path / "kept.db", embeddings=HashingEmbeddings(1024)) as store:
        memories = store.list("locomo-tiny")
    assert {m.content.split(":")[0] for m in memories} == {"Alice", "Bob"}
    assert sorted(tuple(m.source_ref["refs"]) for m in memories) == [
        ("D1:1",), ("D1:2",), ("D2:1",)]
    assert {m.kind for m in memories} == {"episodic"}


def test_pipeline_mode_reports_evidence_survival(tiny_file: Path) -> None:
    run = run_locomo(load_locomo(tiny_file), mode="pipeline", ks=(1, 3),
                     embeddings=HashingEmbeddings(64), progress=False)
    survived = run.write.evidence_survived["overall"]
    assert run.write.evidence_turns["overall"] == 3 and 0 <= survived <= 3
    assert len(run.outcomes) == 4


def test_llm_judge_counts_correct_verdicts(tiny_run: LocomoRun) -> None:
    replies = ["Biscuit", "CORRECT", "Bob", "WRONG", "May", "Correct.", "unknown", "WRONG"]
    result = judge_outcomes(FakeListChatModel(responses=replies), tiny_run.outcomes,
                            progress=False)
    assert result["accuracy"] == {"overall": 0.5, "single-hop": 1.0, "multi-hop": 0.0,
                                  "temporal": 1.0, "open-domain": 0.0}
    assert (result["judged"], result["errors"]) == (4, 0)


def test_report_files(tiny_run: LocomoRun, tmp_path: Path) -> None:
    from hermes_graph.bench.locomo import run_to_json

    written = write_locomo_report(tmp_path / "out", run_to_json(tiny_run))
    assert [p.name for p in written] == ["results.json", "summary.md", "recall_at_k.png"]
    assert written[2].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| overall | 4 |" in written[1].read_text(encoding="utf-8")


def test_llm_without_endpoint_exits_0_with_a_note(
        tiny_file: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    for name in LLM_ENV:
        monkeypatch.delenv(name, raising=False)
    code = main(["bench", "locomo", "--data", str(tiny_file), "--llm", "--json", "--quiet",
                 "--embedder", "hashing", "--k", "1,3"])
    captured = capsys.readouterr()
    assert code == 0
    assert "no OpenAI-compatible endpoint" in captured.err
    result = json.loads(captured.out)
    assert "skipped" in result["extra"]["llm"]
    assert result["questions"] == 4 and result["skipped"] == 1


def test_set_changes_the_config_of_both_paths_and_the_report_names_it(
        tiny_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "locomo", "--data", str(tiny_file), "--json", "--quiet",
            "--embedder", "hashing", "--k", "1,3"]
    assert main(args) == 0
    default = json.loads(capsys.readouterr().out)["extra"]["recall_config"]
    assert default["changed_from_default"] == {}
    assert main([*args, "--set", "keyword_context=0", "--set", "coarse_pool_factor=5"]) == 0
    changed = json.loads(capsys.readouterr().out)["extra"]["recall_config"]
    assert changed["changed_from_default"] == {"keyword_context": 0.0, "coarse_pool_factor": 5}
    assert changed["searched"] == 5 * changed["recall_k"]
    assert main([*args, "--set", "keyword_contxt=0"]) == 2
    assert "keyword_contxt" in capsys.readouterr().err


def test_bench_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "locomo", "--help"])
    assert exit_info.value.code == 0
    assert "hermes-graph bench locomo" in capsys.readouterr().out


@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not found in ../shared/data")
def test_cli_json_on_a_slice_of_the_real_file(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """One conversation cut to its first two sessions, two questions per category
    whose evidence lies in them (the slice lives in tmp_path only)."""
    sample = json.loads(LOCOMO.read_text(encoding="utf-8"))[0]
    kept = ("speaker_a", "speaker_b", "session_1", "session_1_date_time", "session_2",
            "session_2_date_time")
    conversation = {k: sample["conversation"][k] for k in kept}
    per_category: dict[int, list[dict[str, Any]]] = {}
    for qa in sample["qa"]:
        evidence = qa.get("evidence") or []
        if qa["category"] != 5 and evidence and all(
                e.startswith(("D1:", "D2:")) for e in evidence):
            per_category.setdefault(qa["category"], []).append(qa)
    questions = [qa for group in per_category.values() for qa in group[:2]]
    path = tmp_path / "slice.json"
    path.write_text(json.dumps([{"sample_id": sample["sample_id"], "conversation": conversation,
                                 "qa": questions}]), encoding="utf-8")
    assert main(["bench", "locomo", "--data", str(path), "--json", "--quiet",
                 "--embedder", "hashing"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == TOP_KEYS
    assert result["mode"] == "raw" and result["questions"] == len(questions)
    for system in ("hermes", "bm25"):
        assert set(result[system]) == set(NAMES)
        for row in result[system].values():
            assert set(row) == {"1", "5", "10", "20"}
            assert all(v is None or 0.0 <= v <= 1.0 for v in row.values())
        assert result[system]["overall"]["20"] is not None
    assert set(result["extra"]["store_search"]) == set(NAMES)
    assert result["avg_injected_tokens"] > 0 and result["p95_recall_ms"] >= 0
