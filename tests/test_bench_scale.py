"""`bench scale`: the command on tiny sizes with the hashing embedder (shape and sane
values of the JSON, the report files), the synthetic data and the query-vector wrapper.
No wall-clock assertions: only that the numbers are measured and consistent."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hermes_graph.bench.scale import RESULT_KEYS, QueryVectors, probe_main
from hermes_graph.bench.scale_data import assign_frozen, make_memories, make_queries
from hermes_graph.cli import main
from hermes_graph.config import MemoryConfig
from hermes_graph.embeddings import HashingEmbeddings
from hermes_graph.store import MemoryStore
from hermes_graph.types import CATEGORIES, KIND_OF_CATEGORY

TINY = ["bench", "scale", "--sizes", "50,120", "--scopes", "4", "--embedder", "hashing",
        "--queries", "6", "--rounds", "1", "--batch", "40", "--rss", "self", "--quiet"]
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """One run of the command on tiny sizes, shared by the shape tests."""
    out = tmp_path_factory.mktemp("scale") / "report"
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main([*TINY, "--json", "--out", str(out)])
    assert code == 0
    return json.loads(buffer.getvalue()), out


def test_json_has_exactly_the_documented_shape(tiny_run: tuple[dict[str, Any], Path]) -> None:
    result, _ = tiny_run
    assert set(result) == {"sizes", "results", "extra"}
    assert result["sizes"] == [50, 120]
    settings = [(r["size"], r["scopes"]) for r in result["results"]]
    assert settings == [(50, 1), (50, 4), (120, 1), (120, 4)]
    for r in result["results"]:
        assert list(r) == list(RESULT_KEYS)
        for key in RESULT_KEYS:
            assert isinstance(r[key], int | float) and not isinstance(r[key], bool), key
            assert r[key] > 0, (key, r)
        assert r["recall_inject_p50_ms"] <= r["recall_inject_p95_ms"]


def test_extra_diagnostics_are_consistent(tiny_run: tuple[dict[str, Any], Path]) -> None:
    result, _ = tiny_run
    extra = result["extra"]
    assert len(extra["per_result"]) == len(result["results"])
    for r, d in zip(result["results"], extra["per_result"], strict=True):
        assert (d["size"], d["scopes"]) == (r["size"], r["scopes"])
        assert d["write"]["rows_added"] == r["size"] - (50 if r["size"] == 120 else 0)
        assert d["write"]["add_many_calls"] >= 1
        assert d["memories_per_scope"] == r["size"] // r["scopes"]
        assert d["precomputed_query_misses"] == 0  # the no-embed runs never embedded
        assert d["query_embeddings_per_call"] == 1.0  # the hot path embedded every query
        assert d["mean_recalled_items"] > 0  # the hot path found memories
        for name, stats in d["latency_ms"].items():
            assert 0 < stats["p50"] <= stats["p95"], name
            assert stats["samples"] == extra["settings"]["queries"] * extra["settings"]["rounds"]
        assert d["disk"]["total_mb"] == r["disk_mb"]
        assert d["rss"]["this_process"]["peak_mb"] == r["rss_mb"]  # --rss self
        assert d["disk"]["sqlite_mb"] > 0 and d["disk"]["faiss_mb"] > 0
        assert r["search_p95_ms_no_embed"] == d["latency_ms"]["search_no_embed"]["p95"]
    assert extra["machine"]["nproc"] >= 1
    assert len(extra["load_avg_start"]) == 3
    assert {t["target"] for t in extra["targets"]} == {"write_per_s (min)"}  # tiny sizes


def test_out_writes_json_summary_and_plot(tiny_run: tuple[dict[str, Any], Path]) -> None:
    result, out = tiny_run
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == result
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "| memories | scopes |" in summary
    assert summary.count("\n| 120 |") == 2 and "latency.png" in summary
    assert (out / "latency.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_more_scopes_than_memories_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "scale", "--sizes", "10", "--scopes", "20", "--embedder", "hashing",
                 "--quiet"])
    assert code == 2
    assert "--scopes" in capsys.readouterr().err


def test_synthetic_memories_are_mixed_and_valid() -> None:
    items = make_memories(600, seed=3)
    assert items == make_memories(600, seed=3)  # deterministic
    assert {i["category"] for i in items} == set(CATEGORIES)
    assert all(i["kind"] == KIND_OF_CATEGORY[i["category"]] for i in items)
    assert all(i["status"] != "frozen" and i["at"].tzinfo is not None for i in items)
    contents = [i["content"] for i in items]
    assert len(set(contents)) == len(contents)  # the gate never stores exact duplicates
    both = sum(1 for c in contents if CJK.search(c) and LATIN.search(c))
    chinese = sum(1 for c in contents if CJK.search(c) and not LATIN.search(c))
    english = sum(1 for c in contents if not CJK.search(c))
    assert min(both, chinese, english) > 30
    assert len(Counter(i["importance"] for i in items)) >= 8


def test_frozen_rows_respect_the_frozen_pool_cap() -> None:
    config = MemoryConfig(frozen_pool_cap=5)
    items = make_memories(2000, seed=1)
    frozen_items, count = assign_frozen(items, 0, seed=0, config=config)
    frozen = [i for i in frozen_items if i["status"] == "frozen"]
    assert count == len(frozen) == 5
    assert all(i["category"] in config.freeze_categories for i in frozen)
    assert all(i["status"] != "frozen" for i in items)  # the originals are untouched
    _, again = assign_frozen(items, 5, seed=0, config=config)
    assert again == 5


def test_queries_are_distinct_and_filtered() -> None:
    queries = make_queries(40, seed=2, keep=lambda q: "?" not in q)
    assert len(queries) == len(set(queries)) == 40
    assert not any("?" in q for q in queries)


def test_query_vectors_answers_known_queries_only_when_asked() -> None:
    inner = HashingEmbeddings(dim=16)
    wrapper = QueryVectors(inner)
    assert wrapper.embedder_id == inner.embedder_id and wrapper.dim == 16
    wrapper.vectors["known"] = [1.0] + [0.0] * 15
    assert wrapper.embed_query("known") == inner.embed_query("known")  # off: real embedder
    wrapper.precomputed = True
    assert wrapper.embed_query("known") == [1.0] + [0.0] * 15
    assert wrapper.embed_query("other") == inner.embed_query("other")
    assert wrapper.misses == 1 and wrapper.embedded_queries == 2
    assert wrapper.embed_documents(["a b"]) == inner.embed_documents(["a b"])


def test_rss_probe_reads_a_job_and_prints_one_json_line(tmp_path: Path) -> None:
    """The fresh-process probe's entry point, run in this process (no subprocess)."""
    db = tmp_path / "probe.db"
    with MemoryStore(db, embeddings=HashingEmbeddings()) as store:
        store.add_many("s1", make_memories(30, seed=4))
    job = {"db": str(db), "scopes": ["s1"], "embedder": "hashing",
           "queries": make_queries(3, seed=4)}
    out = io.StringIO()
    assert probe_main(io.StringIO(json.dumps(job)), out) == 0
    report = json.loads(out.getvalue())
    assert report["recalls"] == 3 and report["peak_rss_mb"] > 0 and report["open_s"] > 0
