"""Recall variants over a copy of a store kept by a raw LoCoMo run (tuning aid, issue 4).

Usage::

    hermes-graph bench locomo --data DATA --mode raw --conversations 0-4 --db /tmp/dev.db
    python bench/locomo_variants.py --data DATA --conversations 0-4 --db /tmp/dev.db \\
        --work /tmp/dev-work.db [--reindex] [--embedder e5] --variant base \\
        --variant "kc0:keyword_context=0.0"

The store is copied to ``--work`` first (the kept store is never changed). ``--reindex``
rewrites the copy's FTS5 terms with the current ``keyword_index_terms`` (for a store
built before a keyword-scheme change). Each ``--variant NAME:field=value,...`` changes
MemoryConfig fields of both the store and recall (recall_k defaults to 10, as in the
benchmark). Every question is asked one day after its conversation's last session
with ``touch=False``, and scored with the benchmark's Recall@k.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from hermes_graph.bench.cli import parse_positions
from hermes_graph.bench.locomo import QUESTION_DELAY, mean_recall_by_category
from hermes_graph.bench.locomo_baseline import Ranking
from hermes_graph.bench.locomo_data import (
    LocomoData,
    LocomoQuestion,
    load_locomo,
)
from hermes_graph.config import MemoryConfig
from hermes_graph.embeddings import EMBEDDER_NAMES, named_embeddings
from hermes_graph.embeddings.base import embed_texts
from hermes_graph.errors import EmbedderMismatchError
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.store import MemoryStore
from hermes_graph.store.keywords import scoped_tokens, token_key
from hermes_graph.types import LIVE_STATUSES

KS = (1, 5, 10, 20)
Row = tuple[LocomoQuestion, Ranking]


def table(rows: Sequence[Row]) -> dict[str, list[float | None]]:
    """Recall@k in percent (1 decimal) per category and overall, for k in ``KS``."""
    return {name: [None if v is None else round(100 * v, 1) for v in row.values()]
            for name, row in mean_recall_by_category(rows, KS).items()}


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    name, _, spec = text.partition(":")
    changes = {k.strip(): _value(v.strip()) for k, _, v in
               (part.partition("=") for part in spec.split(",") if part.strip())}
    return name, changes


def previous_turns(data: LocomoData) -> dict[str, str]:
    """dia_id -> the message before it in its session (experiment: neighbour context)."""
    before: dict[str, str] = {}
    for conversation in data.conversations:
        for prev, turn in zip(conversation.turns, conversation.turns[1:], strict=False):
            if prev.session == turn.session:
                before[turn.dia_id] = prev.content
    return before


def add_context(path: Path, data: LocomoData, embeddings: Embeddings | None) -> None:
    """Experiment: give each memory its session's previous message as search context
    (FTS5 terms; with ``embeddings`` also the stored vector, of context + content)."""
    import sqlite3

    before = previous_turns(data)
    conn = sqlite3.connect(path)
    columns = {r[1] for r in conn.execute("PRAGMA table_info(memories)")}
    if "search_context" not in columns:
        conn.execute("ALTER TABLE memories ADD COLUMN search_context TEXT")
    rows = conn.execute("SELECT id, content, source_ref FROM memories").fetchall()
    updates = []
    for memory_id, content, ref in rows:
        refs = json.loads(ref).get("refs", [])
        context = before.get(refs[0]) if refs else None
        updates.append((context, memory_id, content))
    conn.executemany("UPDATE memories SET search_context = ? WHERE id = ?",
                     [(c, i) for c, i, _ in updates])
    if embeddings is not None:
        texts = [f"{c}\n{t}" if c else t for c, _, t in updates]
        vectors = embed_texts(embeddings, texts)
        conn.executemany("UPDATE memories SET embedding = ? WHERE id = ?",
                         [(v.tobytes(), i)
                          for v, (_, i, _) in zip(vectors, updates, strict=True)])
        conn.execute("UPDATE scopes SET version = version + 1")  # FAISS rebuilds
    conn.commit()
    conn.close()


def reindex(path: Path) -> None:
    """Rewrite every keyword-index row from the memory's content and search context
    (the store re-indexes by itself after a term-scheme change; this adds the context)."""
    import sqlite3

    conn = sqlite3.connect(path)
    columns = {r[1] for r in conn.execute("PRAGMA table_info(memories)")}
    context = "search_context" if "search_context" in columns else "NULL"
    rows = conn.execute(f"SELECT id, scope, content, {context} FROM memories").fetchall()
    conn.executemany("UPDATE memory_terms SET terms = ? WHERE rowid = ?",
                     [(scoped_tokens(token_key(scope), c if not x else f"{c}\n{x}"), i)
                      for i, scope, c, x in rows])
    conn.commit()
    conn.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--conversations", type=parse_positions)
    parser.add_argument("--db", type=Path, required=True, help="store kept by a raw run")
    parser.add_argument("--work", type=Path, required=True, help="where to copy it")
    parser.add_argument("--reindex", action="store_true")
    parser.add_argument("--context", choices=("fts", "fts+vector"),
                        help="experiment: index each memory with the previous message")
    parser.add_argument("--variant", action="append", default=[], type=parse_variant)
    parser.add_argument("--model-dir", type=Path,
                        help="a store built by locomo_local_model.py with this local model")
    parser.add_argument("--embedder", choices=EMBEDDER_NAMES, default="use",
                        help="embed with this (the copy is re-embedded when its scopes were "
                        "built with another; e5 needs the e5 extra)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{args.db}{suffix}")
        if source.exists():
            shutil.copyfile(source, f"{args.work}{suffix}")
    if Path(f"{args.db}.faiss").exists():
        shutil.copytree(f"{args.db}.faiss", f"{args.work}.faiss", dirs_exist_ok=True)
    data = load_locomo(args.data, positions=args.conversations)
    embeddings: Embeddings = named_embeddings(args.embedder)
    if args.model_dir is not None:
        from locomo_local_model import LocalBertEmbeddings  # bench/ is the script's path

        embeddings = LocalBertEmbeddings(args.model_dir)
    if args.context:
        add_context(args.work, data, embeddings if args.context == "fts+vector" else None)
    if args.reindex:
        reindex(args.work)
    with MemoryStore(args.work, embeddings=embeddings) as store:
        for conversation in data.conversations:
            try:
                store.search(conversation.scope, "check", k=1)
            except EmbedderMismatchError:
                store.reembed(conversation.scope)  # the kept store has another embedder's
    variants = args.variant or [("base", {})]
    result: dict[str, Any] = {}
    for name, changes in variants:
        config = MemoryConfig(**{"recall_k": 10, **changes})
        rows: dict[str, list[Row]] = {}
        latencies: list[float] = []
        with MemoryStore(args.work, embeddings=embeddings, config=config) as store:
            for conversation in data.conversations:
                scope, at = conversation.scope, conversation.last_at + QUESTION_DELAY
                refs = {m.id: tuple(str(r) for r in m.source_ref.get("refs", ()))
                        for m in store.list(scope, statuses=LIVE_STATUSES)}
                for q in conversation.questions:
                    started = time.perf_counter()
                    recalled = recall_memories(store, scope, q.question, now=at,
                                               config=config, touch=False)
                    latencies.append((time.perf_counter() - started) * 1000)
                    rows.setdefault("recall", []).append(
                        (q, tuple(refs[i["id"]] for i in recalled[:20])))
                    hits = store.search(scope, q.question, k=20)
                    rows.setdefault("search", []).append(
                        (q, tuple(refs[h.memory.id] for h in hits)))
        tables = {system: table(r) for system, r in rows.items()}
        latencies.sort()
        result[name] = {"changes": changes, **tables,
                        "p50_ms": round(latencies[len(latencies) // 2], 1),
                        "p95_ms": round(latencies[int(0.95 * len(latencies))], 1)}
        rec, srch = tables["recall"], tables["search"]
        print(f"{name:28s} recall {rec['overall']} mh@10 {rec['multi-hop'][2]:5.1f} | "
              f"search {srch['overall']} mh@10 {srch['multi-hop'][2]:5.1f} | "
              f"p50/p95 {result[name]['p50_ms']}/{result[name]['p95_ms']} ms", flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
