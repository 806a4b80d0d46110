"""How far can re-ranking recall's candidates go? A learned-ranker probe (issue 4).

Usage (scikit-learn is needed here only; it is not a project dependency)::

    pip install scikit-learn
    hermes-graph bench locomo --data DATA --mode raw --conversations 0-4 --db /tmp/dev.db
    hermes-graph bench locomo --data DATA --mode raw --conversations 5-9 --db /tmp/held.db
    python bench/locomo_ranker_probe.py --data DATA --dev /tmp/dev.db --held /tmp/held.db \\
        [--model-dir /tmp/minilm/model]

Each question gets recall's whole list with ``recall_k`` 20 (60 candidates from the
query route, plus what the other routes add), asked one day
after the last session with ``touch=False``, over a copy of each store. A logistic
ranker is fitted on the dev questions over what recall already knows of each item (the
fused score's parts, the routes, question form, list position, score and length); the
held-out questions are re-ranked with it and scored with the benchmark's Recall@10. With
``--model-dir`` (see locomo_local_model.py) a second embedder's cosine joins the
features. The last figure is the share of evidence anywhere in the list: no re-ranking
of it can do better.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hermes_graph.bench.locomo import QUESTION_DELAY, recall_at_k
from hermes_graph.bench.locomo_data import load_locomo
from hermes_graph.config import MemoryConfig
from hermes_graph.embeddings.use import USEEmbeddings
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.policy.conversation import named_speakers, without_speakers
from hermes_graph.store import MemoryStore
from hermes_graph.types import LIVE_STATUSES

PARTS = ("semantic", "subject_match", "importance", "freshness", "frequency", "context",
         "time_anchor")
ROUTES = ("vector", "keyword", "reply_carry", "time_anchor")
Question = dict[str, Any]


def recall_lists(data_path: Path, db: Path, model: Any | None) -> list[Question]:
    """Every question's whole recall list, with the source turns of each item."""
    config = MemoryConfig(recall_k=20)
    questions: list[Question] = []
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / "store.db"
        shutil.copyfile(db, copy)
        if Path(f"{db}.faiss").exists():
            shutil.copytree(f"{db}.faiss", f"{copy}.faiss")
        with MemoryStore(copy, embeddings=USEEmbeddings(), config=config) as store:
            for conversation in load_locomo(data_path).conversations:
                memories = {m.id: m for m in store.list(conversation.scope,
                                                        statuses=LIVE_STATUSES)}
                if not memories:
                    continue  # this store holds other conversations
                speakers = {str(m.source_ref.get("speaker")) for m in memories.values()}
                for q in conversation.questions:
                    items = recall_memories(store, conversation.scope, q.question,
                                            now=conversation.last_at + QUESTION_DELAY,
                                            config=config, touch=False)
                    questions.append({
                        "question": q, "items": items,
                        "refs": [tuple(str(r) for r in memories[i["id"]].source_ref.get(
                            "refs", ())) for i in items],
                        "topic": without_speakers(q.question,
                                                  named_speakers(q.question, speakers))
                        or q.question})
    if model is not None:
        add_second_cosine(questions, model)
    return questions


def add_second_cosine(questions: list[Question], model: Any) -> None:
    texts = sorted({i["content"] for q in questions for i in q["items"]})
    vectors = dict(zip(texts, model.embed_documents(texts), strict=True))
    queries = model.embed_documents([q["topic"] for q in questions])
    for q, vector in zip(questions, queries, strict=True):
        q["second"] = [float(np.dot(vectors[i["content"]], vector)) for i in q["items"]]


def features(q: Question) -> np.ndarray:
    rows = []
    for position, item in enumerate(q["items"]):
        row = [item["breakdown"].get(p, 0.0) for p in PARTS]
        row += [1.0 if r in item["routes"] else 0.0 for r in ROUTES]
        row += [1.0 if item["content"].rstrip().endswith("?") else 0.0, np.log1p(position),
                item["score"], len(item["content"]) / 200]
        if "second" in q:
            row.append(q["second"][position])
        rows.append(row)
    return np.array(rows, dtype=float).reshape(len(rows), -1)


def mean_recall(questions: Sequence[Question], order: Any, k: int = 10) -> float:
    scores = [recall_at_k(q["question"].evidence, tuple(q["refs"][i] for i in order(q)), k)
              for q in questions]
    return round(100 * sum(scores) / len(scores), 1)


def main(argv: Sequence[str] | None = None) -> int:
    from sklearn.linear_model import LogisticRegression  # the probe's own dependency

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--dev", type=Path, required=True, help="raw store of the dev split")
    parser.add_argument("--held", type=Path, required=True, help="raw store of held-out")
    parser.add_argument("--model-dir", type=Path, help="a local BERT model directory")
    args = parser.parse_args(argv)
    model = None
    if args.model_dir is not None:
        from locomo_local_model import LocalBertEmbeddings  # bench/ is the script's path

        model = LocalBertEmbeddings(args.model_dir)
    dev = recall_lists(args.data, args.dev, model)
    held = recall_lists(args.data, args.held, model)
    labels = np.concatenate([[1 if set(refs) & set(q["question"].evidence) else 0
                              for refs in q["refs"]] for q in dev])
    ranker = LogisticRegression(max_iter=5000).fit(np.vstack([features(q) for q in dev
                                                              if q["items"]]), labels)

    def learned(q: Question) -> list[int]:
        if not q["items"]:
            return []
        return list(np.argsort(-ranker.decision_function(features(q)), kind="stable"))

    def own(q: Question) -> range:
        return range(len(q["items"]))

    for name, split in (("dev", dev), ("held-out", held)):
        print(f"{name:9s} recall's order {mean_recall(split, own)}"
              f" | learned ranker {mean_recall(split, learned)}"
              f" | evidence anywhere in the list {mean_recall(split, own, k=1000)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
