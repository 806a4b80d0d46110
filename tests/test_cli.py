"""The command line on good and bad files (real SQLite/FAISS; hashing embedder for speed)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from hermes_graph.cli import build_parser, main
from tests.conftest import dump_db

ROOT = Path(__file__).resolve().parents[1]
SHARED_EXAMPLES = ROOT.parent / "shared" / "eval" / "examples.jsonl"
OWN_SCENARIOS = ROOT / "examples" / "scenarios.jsonl"
COMMANDS = ("replay", "eval", "inspect", "forget", "export", "import")

SCENARIO = {
    "id": "cli-1", "lang": "en", "category": "single_fact",
    "sessions": [{"id": "s1", "scope": "cli-user", "start": "2026-01-05T09:00:00+00:00",
                  "turns": [{"role": "user", "content": "I live in Leeds and I love birdwatching."},
                            {"role": "assistant", "content": "Noted."}]}],
    "probes": [{"after": "s1", "scope": "cli-user", "at": "2026-02-01T09:00:00+00:00",
                "query": "Plan my weekend", "expect": [["Leeds"]], "forbid": ["Porto"]}],
}


def run(*args: str) -> int:
    return main([*args])


def write_lines(path: Path, rows: list[object]) -> Path:
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n",
                    encoding="utf-8")
    return path


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    for command in COMMANDS:
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args([command, "--help"])
        assert exit_info.value.code == 0
        assert f"hermes-graph {command}" in capsys.readouterr().out


def test_eval_json_has_exactly_the_documented_keys(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = write_lines(tmp_path / "s.jsonl", [SCENARIO])
    assert run("eval", str(path), "--json", "--quiet", "--embedder", "hashing") == 0
    report = json.loads(capsys.readouterr().out)
    metric_keys = {"recall_hit_rate", "false_recall_rate", "avg_injected_tokens",
                   "p50_recall_ms", "p95_recall_ms"}
    assert set(report) == metric_keys | {"probes", "by_category"}
    assert report["probes"] == 1 and report["recall_hit_rate"] == 1.0
    assert report["false_recall_rate"] == 0.0
    assert set(report["by_category"]["single_fact"]) == metric_keys | {"probes"}


def test_replay_prints_a_trace_and_writes_into_the_db(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.db"
    messages = [
        {"scope": "u1", "session": "a", "role": "user", "content": "I am allergic to peanuts.",
         "at": "2026-01-01T10:00:00+00:00"},
        {"scope": "u1", "session": "a", "role": "assistant", "content": "Noted.",
         "at": "2026-01-01T10:01:00+00:00"},
        {"scope": "u1", "session": "b", "role": "user", "content": "Suggest a snack for a hike.",
         "at": "2026-01-09T10:00:00+00:00"},
    ]
    path = write_lines(tmp_path / "m.jsonl", messages)
    assert run("replay", str(path), "--db", str(db), "--embedder", "hashing") == 0
    out = capsys.readouterr().out
    assert "admit" in out and "peanuts" in out and "injected" in out
    assert run("inspect", "--db", str(db), "--scope", "u1", "--embedder", "hashing",
               "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["content"] for m in data["memories"]] == ["I am allergic to peanuts"]
    assert data["transitions"][0]["to_status"] == "confirmed"


def test_replay_with_the_verbatim_extractor_keeps_each_user_turn_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.db"
    messages = [
        {"scope": "u1", "session": "a", "role": "user",
         "content": "We hiked the Pennine Way last June. Have you been?",
         "at": "2026-01-01T10:00:00+00:00"},
        {"scope": "u1", "session": "a", "role": "user", "content": "Thanks!",
         "at": "2026-01-01T10:02:00+00:00"},
    ]
    path = write_lines(tmp_path / "m.jsonl", messages)
    assert run("replay", str(path), "--db", str(db), "--embedder", "hashing",
               "--extractor", "verbatim", "--json") == 0
    capsys.readouterr()
    assert run("inspect", "--db", str(db), "--scope", "u1", "--embedder", "hashing",
               "--json") == 0
    [memory] = json.loads(capsys.readouterr().out)["memories"]  # "Thanks!" tells nothing
    assert memory["content"] == "We hiked the Pennine Way last June. Have you been?"
    assert memory["kind"] == "episodic" and memory["importance"] == 4  # 1 + 6 terms / 2


def test_replay_rejects_a_bad_file_naming_the_line_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.db"
    good = write_lines(tmp_path / "good.jsonl", [SCENARIO])
    assert run("replay", str(good), "--db", str(db), "--embedder", "hashing") == 0
    before = dump_db(db)
    bad_scenario = {**SCENARIO, "id": "cli-2", "sessions": [
        {"id": "s1", "scope": "cli-user", "start": "not a time", "turns": []}]}
    for rows, needle in (([SCENARIO, bad_scenario], "line 2"),
                         ([SCENARIO, "{broken"], "line 2")):
        path = tmp_path / "bad.jsonl"
        if isinstance(rows[-1], str):
            path.write_text(json.dumps(rows[0]) + "\n{broken\n", encoding="utf-8")
        else:
            write_lines(path, rows)
        capsys.readouterr()
        assert run("replay", str(path), "--db", str(db), "--embedder", "hashing") == 2
        assert needle in capsys.readouterr().err
    assert dump_db(db) == before


def test_export_forget_import_round_trip(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.db"
    path = write_lines(tmp_path / "s.jsonl", [SCENARIO])
    assert run("replay", str(path), "--db", str(db), "--embedder", "hashing") == 0
    out = tmp_path / "export.jsonl"
    common = ["--db", str(db), "--embedder", "hashing"]
    assert run("export", "--scope", "cli-user", "--out", str(out), *common) == 0
    exported = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert exported and all(e["scope"] == "cli-user" for e in exported)
    assert run("forget", "--scope", "cli-user", "--all", *common) == 0
    assert run("inspect", "--scope", "cli-user", "--json", *common) == 0
    capsys.readouterr()
    assert run("import", "--scope", "cli-user", str(out), *common, "--json") == 0
    assert json.loads(capsys.readouterr().out) == {"imported": len(exported)}
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"content": "fine line"}\n{"content": ""}\n', encoding="utf-8")
    assert run("import", "--scope", "cli-user", str(bad), *common) == 2
    assert "nothing written" in capsys.readouterr().err


def test_commands_that_need_a_db_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("inspect", "--scope", "u1", "--embedder", "hashing") == 2
    assert "--db" in capsys.readouterr().err


@pytest.mark.skipif(not SHARED_EXAMPLES.exists(), reason="shared/ is not beside the project")
def test_public_examples_reach_full_hits_and_no_false_recall(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The default offline configuration (multilingual USE, rule extractor)."""
    assert run("eval", str(SHARED_EXAMPLES), "--json", "--quiet") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["recall_hit_rate"] == 1.0
    assert report["false_recall_rate"] == 0.0


def test_own_scenario_file_is_valid() -> None:
    from hermes_graph.eval import load_scenarios

    scenarios = load_scenarios(OWN_SCENARIOS)
    categories = {s.category for s in scenarios}
    assert len(scenarios) >= 30 and {s.lang for s in scenarios} >= {"zh", "en"}
    assert categories >= {"single_fact", "multi_fact", "conflict_update", "procedural", "noise",
                          "isolation", "third_party", "assistant_claim", "sensitive",
                          "forget_request", "dedup", "long_gap", "emotional"}


def test_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extract = ci.split("test_command=$(", 1)[1].split(" README.md)", 1)[0]
    found = subprocess.run(["bash", "-c", f"{extract} README.md"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert found.startswith(". .venv/bin/activate && python -m pytest")
    assert f"```bash\n{found}\n```" in readme
    first_block = readme.split("```bash\n", 1)[1].split("\n```", 1)[0]
    assert "pip install" in first_block and "hermes-graph eval" in first_block
