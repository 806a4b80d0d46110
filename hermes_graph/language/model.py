"""The extraction model: linear heads over a clause's features, run in numpy.

Each head is a softmax over its labels (``HEADS``), reading the clause's dense vectors
(from the embedder it was trained with) and its hashed lexical features. The weights ship
inside the package (``extractor.npz``, written by ``hermes-graph train-extractor``) with the
feature spec, the labels and the embedder they were trained on, so a model can never be
read with features it was not trained on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from hermes_graph.errors import FormatError
from hermes_graph.language.corpus import CHANGES, CLAUSE_CATEGORIES, SLOTS, SUBJECTS
from hermes_graph.language.features import FEATURES_VERSION, FeatureSpec, lexical
from hermes_graph.language.segment import Segment, segments, whole

Embed = Callable[[list[str]], NDArray[np.float32]]
"""Texts to L2-normalised vectors, one row each."""

HEADS: Mapping[str, tuple[str, ...]] = {
    "keep": ("drop", "keep"),
    "category": CLAUSE_CATEGORIES,
    "subject": SUBJECTS,
    "change": CHANGES,
    "venting": ("calm", "venting"),
    "join": ("apart", "join"),
    "slot": SLOTS,
}
"""Every head and its labels. ``join``: a kept clause continues the kept one before it;
``slot``: the single-valued slot a statement gives a value of (trained on ``data/slots``)."""

MODEL_PATH = Path(__file__).with_name("extractor.npz")
DENSE_PARTS = ("clause", "message", "context")
"""The dense vectors of a clause, in order: the clause, its whole message, the assistant
turn before it (zeros when there is none)."""


@dataclass(frozen=True)
class ClauseScores:
    """One clause's probability for every label of every head."""

    probs: Mapping[str, Mapping[str, float]]

    def top(self, head: str) -> tuple[str, float]:
        label = max(self.probs[head], key=lambda name: self.probs[head][name])
        return label, self.probs[head][label]

    def p(self, head: str, label: str) -> float:
        return self.probs[head][label]

    def summary(self) -> dict[str, str]:
        """Each head's top label and probability, for traces and ``inspect``."""
        return {head: f"{label} {p:.2f}" for head in self.probs
                for label, p in [self.top(head)]}


@dataclass(frozen=True)
class ExtractionModel:
    spec: FeatureSpec
    embedder_id: str
    dense_dim: int
    w_dense: NDArray[np.float32]
    w_sparse: NDArray[np.float32]
    bias: NDArray[np.float32]
    meta: Mapping[str, Any] = field(default_factory=dict)

    def scores(self, dense: NDArray[np.float32],
               lexical: Sequence[tuple[NDArray[np.int64], NDArray[np.float32]]],
               ) -> list[ClauseScores]:
        """Every head's probabilities for each clause (rows of ``dense``)."""
        if dense.shape != (len(lexical), self.dense_dim):
            raise ValueError(f"dense features of shape {dense.shape}, expected "
                             f"({len(lexical)}, {self.dense_dim})")
        logits = dense @ self.w_dense + self.bias
        for row, (index, values) in enumerate(lexical):
            logits[row] += values @ self.w_sparse[index]
        out: list[ClauseScores] = []
        for row in logits:
            probs: dict[str, dict[str, float]] = {}
            at = 0
            for head, labels in HEADS.items():
                part = row[at:at + len(labels)]
                exp = np.exp(part - part.max())
                probs[head] = dict(zip(labels, (exp / exp.sum()).tolist(), strict=True))
                at += len(labels)
            out.append(ClauseScores(probs))
        return out

    def features(self, clauses: Sequence[Segment], *, message: str, context: str,
                 embed: Embed) -> tuple[NDArray[np.float32],
                                        list[tuple[NDArray[np.int64], NDArray[np.float32]]]]:
        """The dense and lexical features of a message's clauses."""
        texts = [c.text for c in clauses] + [message] + ([context] if context.strip() else [])
        vectors = embed(texts)
        part = vectors.shape[1]
        if part * len(DENSE_PARTS) != self.dense_dim:
            raise ValueError(f"the embedder gives {part} dimensions; the extraction model "
                             f"was trained on {self.dense_dim // len(DENSE_PARTS)}")
        dense = np.zeros((len(clauses), self.dense_dim), dtype=np.float32)
        dense[:, :part] = vectors[:len(clauses)]
        dense[:, part:2 * part] = vectors[len(clauses)]
        if context.strip():
            dense[:, 2 * part:] = vectors[len(clauses) + 1]
        return dense, lexical(clauses, context=context, spec=self.spec)

    def read(self, message: str, *, context: str, embed: Embed,
             ) -> list[tuple[Segment, ClauseScores]]:
        """Every clause of ``message`` with its scores."""
        clauses = segments(message)
        if not clauses:
            return []
        dense, lex = self.features(clauses, message=message, context=context, embed=embed)
        return list(zip(clauses, self.scores(dense, lex), strict=True))

    def read_whole(self, text: str, *, embed: Embed) -> ClauseScores:
        """The scores of all of ``text`` read as one clause (a memory's content)."""
        dense, lex = self.features([whole(text)], message=text, context="", embed=embed)
        return self.scores(dense, lex)[0]

    def save(self, path: Path) -> None:
        meta = {**self.meta, "spec": self.spec.__dict__, "features": FEATURES_VERSION,
                "embedder_id": self.embedder_id,
                "dense_dim": self.dense_dim, "heads": {h: list(v) for h, v in HEADS.items()}}
        np.savez_compressed(path, w_dense=self.w_dense.astype(np.float16),
                            w_sparse=self.w_sparse.astype(np.float16),
                            bias=self.bias.astype(np.float32),
                            meta=np.array(json.dumps(meta, ensure_ascii=False)))


def output_size() -> int:
    return sum(len(labels) for labels in HEADS.values())


def read_model(path: Path) -> ExtractionModel:
    """A saved model; FormatError when the file is missing, damaged or made for other
    heads than this version's."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            w_dense = data["w_dense"].astype(np.float32)
            w_sparse = data["w_sparse"].astype(np.float32)
            bias = data["bias"].astype(np.float32)
    except (OSError, KeyError, ValueError) as error:
        raise FormatError(f"cannot read the extraction model {path}: {error}") from None
    heads = {h: tuple(v) for h, v in meta.get("heads", {}).items()}
    if heads != dict(HEADS):
        raise FormatError(f"the extraction model {path} was trained for other heads "
                          f"({sorted(heads)}); retrain it with hermes-graph train-extractor")
    if meta.get("features") != FEATURES_VERSION:
        raise FormatError(f"the extraction model {path} was trained on features of version "
                          f"{meta.get('features')}, this version reads {FEATURES_VERSION}; "
                          "retrain it with hermes-graph train-extractor")
    spec = FeatureSpec(**meta["spec"])
    dense_dim = int(meta["dense_dim"])
    if w_dense.shape != (dense_dim, output_size()) or w_sparse.shape != (
            spec.buckets, output_size()) or bias.shape != (output_size(),):
        raise FormatError(f"the extraction model {path} has weights of the wrong shape")
    return ExtractionModel(spec=spec, embedder_id=str(meta["embedder_id"]), dense_dim=dense_dim,
                           w_dense=w_dense, w_sparse=w_sparse, bias=bias,
                           meta={k: v for k, v in meta.items()
                                 if k not in ("spec", "features", "embedder_id", "dense_dim",
                                              "heads")})


@lru_cache(maxsize=4)
def load_model(path: Path = MODEL_PATH) -> ExtractionModel:
    """The model at ``path`` (the shipped one by default), read once per process."""
    return read_model(path)
