"""Where LoCoMo recall is lost: alternative rankings over a store kept by a raw run.

Usage::

    hermes-graph bench locomo --data ../shared/data/locomo10.json --mode raw --db /tmp/raw.db
    python bench/locomo_diagnostics.py --data ../shared/data/locomo10.json --db /tmp/raw.db \\
        [--out bench/results/locomo-raw/diagnostics.json]

Nothing is written to the store (recall runs with ``touch=False``). Each variant ranks
the same questions at the same time (one day after the last session) and is scored
with the benchmark's Recall@k; only config values change, never code:

* recall_memories with the bench config, with a larger candidate pool, and with the
  freshness and/or frequency weights at 0;
* store.search alone (the candidates recall re-ranks, in the store's hybrid order),
  with other keyword weights and a wider per-route pool;
* how much evidence the store's top 100 holds (the ceiling of any re-ranking of it);
* the vector route alone (exact USE cosine over the whole scope);
* Recall@10 by how many sessions lie between the newest evidence turn and the last
  session (what freshness does), and use_count after the replay (what frequency sees).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hermes_graph.bench.locomo import QUESTION_DELAY, mean_recall_by_category
from hermes_graph.bench.locomo_baseline import Ranking
from hermes_graph.bench.locomo_data import LocomoQuestion, load_locomo
from hermes_graph.config import MemoryConfig
from hermes_graph.embeddings.use import USEEmbeddings
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.store import MemoryStore
from hermes_graph.types import LIVE_STATUSES

KS = (1, 5, 10, 20)
RECALL_VARIANTS = {
    "recall, bench config (recall_k=10)": MemoryConfig(recall_k=10),
    "recall, recall_k=20 (40 candidates)": MemoryConfig(recall_k=20),
    "recall, w_freshness=0": MemoryConfig(recall_k=10, w_freshness=0.0),
    "recall, w_frequency=0": MemoryConfig(recall_k=10, w_frequency=0.0),
    "recall, w_freshness=0 and w_frequency=0": MemoryConfig(recall_k=10, w_freshness=0.0,
                                                            w_frequency=0.0),
}
STORE_VARIANTS = {
    "store.search order (k=20)": MemoryConfig(),
    "store.search order, keyword_weight=0.5": MemoryConfig(keyword_weight=0.5),
    "store.search order, candidate_multiplier=16": MemoryConfig(candidate_multiplier=16),
}
Row = tuple[LocomoQuestion, Ranking]


def table(rows: Sequence[Row]) -> dict[str, list[float | None]]:
    """Recall@k in percent (1 decimal) per category and overall, for k in ``KS``."""
    return {name: [None if v is None else round(100 * v, 1) for v in row.values()]
            for name, row in mean_recall_by_category(rows, KS).items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--db", type=Path, required=True, help="store kept by a raw run")
    parser.add_argument("--out", type=Path, help="also write the result as JSON here")
    args = parser.parse_args(argv)
    data = load_locomo(args.data)
    embeddings = USEEmbeddings()
    store = MemoryStore(args.db, embeddings=embeddings)
    others = {name: MemoryStore(args.db, embeddings=embeddings, config=config)
              for name, config in STORE_VARIANTS.items()}
    rows: dict[str, list[Row]] = {}
    ages: list[tuple[Row, int]] = []
    for conversation in data.conversations:
        scope, at = conversation.scope, conversation.last_at + QUESTION_DELAY
        memories = {m.id: m for m in store.list(scope, statuses=LIVE_STATUSES)}
        refs = {i: tuple(str(r) for r in m.source_ref.get("refs", ()))
                for i, m in memories.items()}
        ids = list(memories)
        vectors = store.vectors(scope, ids)
        matrix = np.stack([vectors[i] for i in ids])
        last = max(t.session for t in conversation.turns)
        for q in conversation.questions:
            for name, config in RECALL_VARIANTS.items():
                recalled = recall_memories(store, scope, q.question, now=at, config=config,
                                           touch=False)
                rows.setdefault(name, []).append((q, tuple(refs[i["id"]]
                                                           for i in recalled[:20])))
            for name, other in others.items():
                hits = other.search(scope, q.question, k=20)
                rows.setdefault(name, []).append((q, tuple(refs[h.memory.id] for h in hits)))
            pool = tuple(r for h in store.search(scope, q.question, k=100)
                         for r in refs[h.memory.id])
            rows.setdefault("store.search top 100, any order (ceiling)", []).append(
                (q, (pool,) * 20))
            cosine = matrix @ store.embed_query(q.question)
            rows.setdefault("vector route alone (exact USE cosine)", []).append(
                (q, tuple(refs[ids[i]] for i in np.argsort(-cosine)[:20])))
            newest = max(int(e[1:].split(":")[0]) for e in q.evidence)
            ages.append((rows["recall, bench config (recall_k=10)"][-1], last - newest))
        print(conversation.sample_id, file=sys.stderr, flush=True)
    result: dict[str, Any] = {"recall_at_k_percent": {name: table(r) for name, r in rows.items()}}
    by_age: dict[str, dict[str, list[Row]]] = {}
    for variant in ("recall, bench config (recall_k=10)",
                    "recall, w_freshness=0 and w_frequency=0", "store.search order (k=20)"):
        for (q, _), age in ages:
            bucket = "0-2" if age <= 2 else ("3-9" if age <= 9 else "10+")
            ranked = next(r for qq, r in rows[variant] if qq is q)
            by_age.setdefault(variant, {}).setdefault(bucket, []).append((q, ranked))
    result["recall_at_10_by_sessions_since_evidence"] = {
        variant: {b: {"questions": len(g), "recall": table(g)["overall"][2]}
                  for b, g in sorted(buckets.items())} for variant, buckets in by_age.items()}
    uses = sorted(m.use_count for c in data.conversations for m in store.list(c.scope))
    result["use_count_after_replay"] = {"p50": uses[len(uses) // 2],
                                        "p90": uses[9 * len(uses) // 10], "max": uses[-1]}
    text = json.dumps(result, indent=1)
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
