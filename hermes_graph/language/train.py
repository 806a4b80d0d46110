"""Training the extraction model on the corpus (needs the ``train`` extra: scikit-learn).

Each clause the extractor sees (``segment.segments``) takes the labels of the labelled
clause it overlaps most. Every head is a multinomial logistic regression over the same
features; their weights are stacked into one :class:`ExtractionModel`. Batches whose
names start with ``heldout_prefix`` were written by another writer and are never trained
on: the report gives each head's macro-F1 on them, per language.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from hermes_graph.language.corpus import Record, SlotRecord
from hermes_graph.language.features import FeatureSpec
from hermes_graph.language.model import HEADS, ExtractionModel, output_size
from hermes_graph.language.segment import Segment, segments, whole

Embed = Callable[[list[str]], NDArray[np.float32]]
R = TypeVar("R", Record, SlotRecord)


@dataclass(frozen=True, kw_only=True)
class TrainingOptions:
    seed: int = 0
    c: float = 8.0
    """Inverse regularisation strength of every head."""
    balanced_heads: tuple[str, ...] = ("category", "change", "venting", "slot")
    """Heads whose classes are weighted by their inverse frequency, so rare labels (a forget
    request, a rule) are not lost to the common ones. Keep, subject and join stay
    calibrated: the extractor multiplies their probabilities (held-out keep F1 on one
    training batch: 0.875 with these three balanced, 0.871 with subject too)."""
    max_iter: int = 2000
    heldout_prefix: str = "h"
    spec: FeatureSpec = field(default_factory=FeatureSpec)


@dataclass(frozen=True, kw_only=True)
class LabelledClause:
    lang: str
    batch: str
    labels: dict[str, str]
    """The labels it has: a corpus clause has every head's but ``slot`` (``join`` only when
    it and the clause before are kept); a slot statement has only ``slot``."""


def align(record: Record, clauses: Sequence[Segment]) -> list[dict[str, str]]:
    """Each clause's labels, from the labelled clause it overlaps most."""
    memory_of = {i: n for n, m in enumerate(record.memories) for i in m.sources}
    owners: list[int] = []
    for clause in clauses:
        overlaps = [max(0, min(clause.end, c.start + len(c.text)) - max(clause.start, c.start))
                    for c in record.clauses]
        owners.append(int(np.argmax(overlaps)))
    out: list[dict[str, str]] = []
    for n, owner in enumerate(owners):
        label = record.clauses[owner]
        labels = {"keep": "keep" if label.keep else "drop", "category": label.category,
                  "subject": label.subject, "change": label.change,
                  "venting": "venting" if label.venting else "calm"}
        if n > 0 and label.keep and record.clauses[owners[n - 1]].keep:
            before = owners[n - 1]
            same = before == owner or memory_of.get(before) == memory_of.get(owner)
            labels["join"] = "join" if same else "apart"
        out.append(labels)
    return out


Features = tuple[NDArray[np.float32], list[tuple[NDArray[np.int64], NDArray[np.float32]]],
                 list[LabelledClause]]


def featurize(records: Sequence[Record], model: ExtractionModel, embed: Embed,
              slots: Sequence[SlotRecord] = ()) -> Features:
    """Every clause the extractor would see in the records, and every slot statement read
    as one clause, with their features and labels."""
    dense_rows: list[NDArray[np.float32]] = []
    lexical_rows: list[tuple[NDArray[np.int64], NDArray[np.float32]]] = []
    labelled: list[LabelledClause] = []
    for record in records:
        clauses = segments(record.message)
        if not clauses:
            continue
        dense, lexical = model.features(clauses, message=record.message,
                                        context=record.context, embed=embed)
        dense_rows.append(dense)
        lexical_rows += lexical
        labelled += [LabelledClause(lang=record.lang, batch=record.batch, labels=labels)
                     for labels in align(record, clauses)]
    for statement in slots:
        dense, lexical = model.features([whole(statement.text)], message=statement.text,
                                        context="", embed=embed)
        dense_rows.append(dense)
        lexical_rows += lexical
        labelled.append(LabelledClause(lang=statement.lang, batch=statement.batch,
                                       labels={"slot": statement.slot}))
    return np.concatenate(dense_rows), lexical_rows, labelled


def _matrix(dense: NDArray[np.float32],
            lexical: Sequence[tuple[NDArray[np.int64], NDArray[np.float32]]],
            buckets: int) -> Any:
    from scipy import sparse

    rows = np.repeat(np.arange(len(lexical)), [len(i) for i, _ in lexical])
    cols = np.concatenate([i for i, _ in lexical])
    vals = np.concatenate([v for _, v in lexical])
    lex = sparse.csr_matrix((vals, (rows, cols)), shape=(len(lexical), buckets))
    return sparse.hstack([sparse.csr_matrix(dense), lex], format="csr")


def empty_model(spec: FeatureSpec, embedder_id: str, dense_dim: int) -> ExtractionModel:
    return ExtractionModel(spec=spec, embedder_id=embedder_id, dense_dim=dense_dim,
                           w_dense=np.zeros((dense_dim, output_size()), dtype=np.float32),
                           w_sparse=np.zeros((spec.buckets, output_size()), dtype=np.float32),
                           bias=np.zeros(output_size(), dtype=np.float32))


def fit(records: Sequence[Record], *, embed: Embed, embedder_id: str, dense_dim: int,
        options: TrainingOptions, slots: Sequence[SlotRecord] = ()) -> ExtractionModel:
    """A model trained on every record and slot statement given."""
    from sklearn.linear_model import LogisticRegression

    blank = empty_model(options.spec, embedder_id, dense_dim)
    dense, lexical, labelled = featurize(records, blank, embed, slots)
    x = _matrix(dense, lexical, options.spec.buckets)
    w_dense = blank.w_dense.copy()
    w_sparse = blank.w_sparse.copy()
    bias = blank.bias.copy()
    at = 0
    for head, labels in HEADS.items():
        rows = [n for n, c in enumerate(labelled) if head in c.labels]
        y = np.array([labels.index(labelled[n].labels[head]) for n in rows])
        present = sorted(set(y.tolist()))
        if len(present) > 1:
            classifier = LogisticRegression(
                C=options.c, max_iter=options.max_iter, random_state=options.seed,
                class_weight="balanced" if head in options.balanced_heads else None)
            classifier.fit(x[rows], y)
            coef = classifier.coef_
            intercept = classifier.intercept_
            if len(present) == 2:  # binary: one row for the second class
                coef = np.vstack([-coef / 2, coef / 2])
                intercept = np.array([-intercept[0] / 2, intercept[0] / 2])
            for k, label_index in enumerate(present):
                column = at + label_index
                w_dense[:, column] = coef[k, :dense_dim]
                w_sparse[:, column] = coef[k, dense_dim:]
                bias[column] = intercept[k]
            for label_index in set(range(len(labels))) - set(present):
                bias[at + label_index] = -30.0  # never seen in training: never predicted
        at += len(labels)
    return ExtractionModel(spec=options.spec, embedder_id=embedder_id, dense_dim=dense_dim,
                           w_dense=w_dense, w_sparse=w_sparse, bias=bias,
                           meta={"seed": options.seed, "c": options.c,
                                 "balanced_heads": list(options.balanced_heads),
                                 "records": len(records), "slot_statements": len(slots),
                                 "clauses": len(labelled) - len(slots),
                                 "batches": sorted({r.batch for r in records}
                                                   | {s.batch for s in slots})})


def macro_f1(gold: Sequence[str], predicted: Sequence[str]) -> float:
    labels = sorted(set(gold) | set(predicted))
    scores = []
    for label in labels:
        tp = sum(g == p == label for g, p in zip(gold, predicted, strict=True))
        fp = sum(p == label != g for g, p in zip(gold, predicted, strict=True))
        fn = sum(g == label != p for g, p in zip(gold, predicted, strict=True))
        scores.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return float(np.mean(scores)) if scores else 0.0


def evaluate(model: ExtractionModel, records: Sequence[Record], *, embed: Embed,
             slots: Sequence[SlotRecord] = ()) -> dict[str, dict[str, dict[str, float]]]:
    """Per head, per language (and ``all``): macro-F1, accuracy and the number of clauses."""
    dense, lexical, labelled = featurize(records, model, embed, slots)
    scores = model.scores(dense, lexical)
    report: dict[str, dict[str, dict[str, float]]] = {}
    for head in HEADS:
        pairs: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for clause, score in zip(labelled, scores, strict=True):
            if head in clause.labels:
                pair = (clause.labels[head], score.top(head)[0])
                pairs[clause.lang].append(pair)
                pairs["all"].append(pair)
        if not pairs:
            continue  # no held-out clause carries this head's label
        report[head] = {
            lang: {"macro_f1": round(macro_f1([g for g, _ in got], [p for _, p in got]), 3),
                   "accuracy": round(sum(g == p for g, p in got) / len(got), 3),
                   "clauses": len(got)}
            for lang, got in sorted(pairs.items())}
    return report


def split(records: Sequence[R], prefix: str) -> tuple[list[R], list[R]]:
    """Training records and held-out records (batches named with ``prefix``)."""
    held = [r for r in records if r.batch.startswith(prefix)]
    return [r for r in records if not r.batch.startswith(prefix)], held
