"""The extraction model: trained by the trainer, saved and read back, refused when its
file is damaged or made for other heads. Trained here on a tiny labelled set with the
deterministic hashing embedder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from hermes_graph.embeddings.base import embed_texts
from hermes_graph.errors import FormatError
from hermes_graph.language.corpus import Record, SlotRecord, parse_record
from hermes_graph.language.features import FeatureSpec
from hermes_graph.language.model import HEADS, ExtractionModel, read_model
from hermes_graph.language.segment import segments
from hermes_graph.language.train import TrainingOptions, align, evaluate, fit, macro_f1
from hermes_graph.testing import HashingEmbeddings

EMBEDDER = HashingEmbeddings(32)
SPEC = FeatureSpec(buckets=1 << 10)


def embed(texts: list[str]) -> NDArray[np.float32]:
    return embed_texts(EMBEDDER, texts)


def _clause(text: str, keep: bool, category: str, subject: str = "user",
            change: str = "new") -> dict[str, Any]:
    return {"text": text, "keep": keep, "category": category, "subject": subject,
            "change": change, "venting": False}


def _records() -> list[Record]:
    facts = ["I am allergic to peanuts", "I am allergic to shellfish", "I am allergic to eggs",
             "I am allergic to cats"]
    asks = ["what time is it", "what is the weather", "what is a good film", "what is new"]
    out = []
    for n, (fact, ask) in enumerate(zip(facts, asks, strict=True)):
        message = f"{fact}, {ask}?"
        out.append(parse_record({
            "id": f"t-{n}", "batch": "t", "lang": "en", "register": "question_with_fact",
            "context": "", "message": message,
            "clauses": [_clause(fact, True, "constraint"), _clause(ask, False, "question")],
            "memories": [{"content": fact, "kind": "semantic", "category": "constraint",
                          "subject": "user", "from": [0]}]}, f"t:{n}"))
    return out


SLOT_STATEMENTS = [SlotRecord(id=f"s-{n}", batch="s", lang="en", text=text, slot=slot)
                   for n, (text, slot) in enumerate([
                       ("I live in Leeds", "residence"), ("I live in Oslo", "residence"),
                       ("I live in Lyon", "residence"), ("I love jazz", "none"),
                       ("I love tennis", "none"), ("I love soup", "none")])]


@pytest.fixture(scope="module")
def model() -> ExtractionModel:
    return fit(_records(), embed=embed, embedder_id=EMBEDDER.embedder_id, dense_dim=96,
               options=TrainingOptions(spec=SPEC, c=10.0), slots=SLOT_STATEMENTS)


def test_the_slot_head_learns_from_slot_statements(model: ExtractionModel) -> None:
    report = evaluate(model, [], embed=embed, slots=SLOT_STATEMENTS)
    assert set(report) == {"slot"} and report["slot"]["en"]["accuracy"] == 1.0
    assert model.read_whole("I live in Rome", embed=embed).top("slot")[0] == "residence"


def test_the_trained_heads_separate_what_they_were_shown(model: ExtractionModel) -> None:
    report = evaluate(model, _records(), embed=embed)
    assert report["keep"]["all"]["macro_f1"] == 1.0
    assert report["category"]["en"]["accuracy"] == 1.0
    read = model.read("I am allergic to kiwis, what is for dinner?", context="", embed=embed)
    assert [r[1].top("keep")[0] for r in read] == ["keep", "drop"]
    assert read[0][1].top("category")[0] == "constraint"


def test_every_head_gives_a_distribution(model: ExtractionModel) -> None:
    for _, scores in model.read("hello there, I am allergic to dust", context="hi?",
                                embed=embed):
        for head, labels in HEADS.items():
            assert set(scores.probs[head]) == set(labels)
            assert sum(scores.probs[head].values()) == pytest.approx(1.0)


def test_a_saved_model_reads_back_with_the_same_scores(model: ExtractionModel,
                                                      tmp_path: Path) -> None:
    path = tmp_path / "m.npz"
    model.save(path)
    back = read_model(path)
    assert back.spec == SPEC and back.embedder_id == EMBEDDER.embedder_id
    message = "I am allergic to pollen, what is up?"
    before = [s.probs for _, s in model.read(message, context="", embed=embed)]
    after = [s.probs for _, s in back.read(message, context="", embed=embed)]
    for old, new in zip(before, after, strict=True):
        for head in HEADS:
            for label in HEADS[head]:
                assert new[head][label] == pytest.approx(old[head][label], abs=0.01)


def test_a_damaged_or_foreign_model_file_is_refused(model: ExtractionModel,
                                                   tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="cannot read the extraction model"):
        read_model(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(FormatError, match="cannot read"):
        read_model(tmp_path / "junk.npz")
    model.save(tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz") as data:
        parts = dict(data)
    meta = json.loads(str(parts["meta"]))
    meta["heads"]["keep"] = ["no", "yes"]
    np.savez(tmp_path / "foreign.npz", **{**parts, "meta": np.array(json.dumps(meta))})
    with pytest.raises(FormatError, match="trained for other heads"):
        read_model(tmp_path / "foreign.npz")
    np.savez(tmp_path / "cut.npz", **{**parts, "bias": parts["bias"][:3]})
    with pytest.raises(FormatError, match="wrong shape"):
        read_model(tmp_path / "cut.npz")


def test_features_from_another_embedder_are_refused(model: ExtractionModel) -> None:
    other = HashingEmbeddings(16)
    with pytest.raises(ValueError, match="trained on 32"):
        model.read("I am allergic to dust", context="",
                   embed=lambda texts: embed_texts(other, texts))


def test_a_clause_takes_the_labels_of_the_labelled_span_it_overlaps_most() -> None:
    record = parse_record({
        "id": "t-9", "batch": "t", "lang": "zh", "register": "long_multi_fact", "context": "",
        "message": "我爸有痛风，海鲜和啤酒都不能碰。你好",
        "clauses": [_clause("我爸有痛风，海鲜和啤酒都不能碰", True, "constraint", "family"),
                    _clause("你好", False, "chitchat")],
        "memories": [{"content": "我爸有痛风，海鲜和啤酒都不能碰", "kind": "semantic",
                      "category": "constraint", "subject": "family", "from": [0]}]}, "t:9")
    labels = align(record, segments(record.message))
    assert [(x["keep"], x["subject"], x.get("join")) for x in labels] == [
        ("keep", "family", None), ("keep", "family", "join"), ("drop", "user", None)]


def test_macro_f1_counts_every_label_given_or_predicted() -> None:
    assert macro_f1(["a", "a", "b"], ["a", "a", "b"]) == 1.0
    assert macro_f1(["a", "a"], ["a", "c"]) == pytest.approx((2 / 3 + 0) / 2)
