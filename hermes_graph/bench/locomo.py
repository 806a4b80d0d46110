"""LoCoMo evidence retrieval through the real memory graph (issue 4).

Each conversation is replayed session by session through :class:`Replayer` (the
real LangGraph memory graph) into its own scope, with each session's date as the
clock. Then every question of categories 1-4 goes through the real recall path
(:func:`recall_memories`) one day after the last session; Recall@k is the share
of the question's evidence turns that the top-k recalled memories come from
(``source_ref["refs"]``). BM25 over the raw turns ranks the same questions.

Modes:

* ``raw`` — every turn is stored as one episodic memory (what a plain RAG memory
  does): the product's ``VerbatimExtractor`` (importance rated from what each turn
  tells), and a write config whose bounded gate never evicts and whose semantic
  dedup is off. Every turn must be stored (an exact repeat of an earlier turn is
  confirmed instead, and counted).
* ``pipeline`` — the real LearnedExtractor -> gate -> persist path with the default
  config; the report says how much evidence survives the gates.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import numpy as np
from langchain_core.embeddings import Embeddings
from tqdm import tqdm

from hermes_graph.bench.locomo_baseline import Ranking, bm25_rankings
from hermes_graph.bench.locomo_data import (
    CATEGORY_ORDER,
    Conversation,
    LocomoData,
    LocomoQuestion,
    sessions_of,
)
from hermes_graph.config import MemoryConfig
from hermes_graph.errors import HermesError
from hermes_graph.extract.learned import LearnedExtractor
from hermes_graph.extract.verbatim import VerbatimExtractor
from hermes_graph.nodes.gate import NEW_ROW_ACTIONS
from hermes_graph.nodes.inject import build_block
from hermes_graph.nodes.recall import recall_memories
from hermes_graph.policy.budget import approx_tokens
from hermes_graph.replay import Replayer, TurnTrace
from hermes_graph.store import MemoryStore
from hermes_graph.types import LIVE_STATUSES

Mode = Literal["raw", "pipeline"]
MODES: tuple[Mode, ...] = ("raw", "pipeline")
DEFAULT_KS = (1, 5, 10, 20)
QUESTION_DELAY = timedelta(days=1)
"""Questions are asked this long after the conversation's last session."""
UNBOUNDED = 10**9
NO_SEMANTIC_DEDUP = 1.01
"""A dedup cosine above any possible cosine: raw mode keeps near-identical turns apart."""


def write_config(mode: Mode, base: MemoryConfig | None = None) -> MemoryConfig:
    """Raw mode: the bounded gate admits everything and never evicts; no semantic dedup."""
    base = base or MemoryConfig()
    if mode == "pipeline":
        return base
    return base.replace(hot_pool_cap=UNBOUNDED, admission_min_pool=UNBOUNDED,
                        archive_cap=UNBOUNDED, dedup_cosine=NO_SEMANTIC_DEDUP)


def recall_config(ks: Sequence[int], recall_k: int | None = None,
                  base: MemoryConfig | None = None) -> MemoryConfig:
    """The config (default: MemoryConfig()), with recall_k just large enough to rank
    ``max(ks)`` memories: recall searches ``coarse_pool_factor * recall_k`` candidates and
    re-ranks them; the store-search column ranks ``2 * recall_k`` (so ceil(max k / 2))."""
    return (base or MemoryConfig()).replace(recall_k=recall_k or -(-max(ks) // 2))


def changed_settings(config: MemoryConfig) -> dict[str, Any]:
    """The fields a run's recall config set away from the defaults (recall_k aside)."""
    default = MemoryConfig()
    return {f.name: getattr(config, f.name) for f in dataclasses.fields(config)
            if f.name != "recall_k" and getattr(config, f.name) != getattr(default, f.name)}


def recall_at_k(evidence: Sequence[str], ranked: Ranking, k: int) -> float:
    """Share of the evidence turns that the top ``k`` ranked items come from."""
    if not evidence:
        raise ValueError("recall_at_k: a question without evidence cannot be scored")
    found = {ref for refs in ranked[:k] for ref in refs}
    return sum(1 for e in set(evidence) if e in found) / len(set(evidence))


@dataclass(frozen=True, kw_only=True)
class QuestionOutcome:
    question: LocomoQuestion
    hermes: Ranking
    """Source turns of each recalled memory, best first (up to max k)."""
    bm25: Ranking
    search: Ranking
    """Diagnostic: the store's own hybrid order of the candidates recall re-ranks."""
    recall_ms: float
    tokens: int
    block: str
    asked_at: datetime


@dataclass
class WriteStats:
    """What the write path kept, over all conversations."""

    turns: int = 0
    turns_with_candidates: int = 0
    actions: Counter[str] = field(default_factory=Counter)
    drop_reasons: Counter[str] = field(default_factory=Counter)
    live_memories: int = 0
    turns_stored: int = 0
    """Turns referenced by at least one live memory."""
    evidence_turns: dict[str, int] = field(default_factory=Counter)
    evidence_survived: dict[str, int] = field(default_factory=Counter)

    def on_turn(self, trace: TurnTrace) -> None:
        self.turns += 1
        self.turns_with_candidates += bool(trace.candidates)
        for decision in trace.decisions:
            self.actions[decision["action"]] += 1
            if decision["action"] not in NEW_ROW_ACTIONS:
                self.drop_reasons[decision["reason"].split()[0].split(";")[0]] += 1


@dataclass(frozen=True, kw_only=True)
class LocomoRun:
    mode: Mode
    ks: tuple[int, ...]
    outcomes: tuple[QuestionOutcome, ...]
    data: LocomoData
    write: WriteStats
    embedder_id: str
    config: MemoryConfig


def live_refs(store: MemoryStore, scope: str) -> set[str]:
    return {str(r) for m in store.list(scope, statuses=LIVE_STATUSES)
            for r in m.source_ref.get("refs", ())}


def _count_survival(stats: WriteStats, conversation: Conversation, stored: set[str]) -> None:
    groups = {"overall": {e for q in conversation.questions for e in q.evidence}}
    for name in CATEGORY_ORDER:
        groups[name] = {e for q in conversation.questions if q.category == name
                        for e in q.evidence}
    for name, evidence in groups.items():
        stats.evidence_turns[name] += len(evidence)
        stats.evidence_survived[name] += len(evidence & stored)


def _check_raw(stats: WriteStats) -> None:
    repeats = stats.drop_reasons["dup:exact"] + stats.drop_reasons["dup:exact_same_session"]
    if stats.turns_stored + repeats < stats.turns:
        raise HermesError(f"raw mode: only {stats.turns_stored} of {stats.turns} turns were "
                          f"stored ({repeats} exact repeats); decisions: "
                          f"{dict(stats.actions)} {dict(stats.drop_reasons)}")


def _ask(store: MemoryStore, conversation: Conversation, ks: Sequence[int],
         config: MemoryConfig, progress: Callable[[], None]) -> list[QuestionOutcome]:
    scope, at, depth = conversation.scope, conversation.last_at + QUESTION_DELAY, max(ks)
    baseline = bm25_rankings(conversation.turns, [q.question for q in conversation.questions],
                             depth)
    inject = MemoryConfig()  # default budgets
    refs: dict[int, tuple[str, ...]] = {}
    outcomes: list[QuestionOutcome] = []
    for question, bm25 in zip(conversation.questions, baseline, strict=True):
        started = time.perf_counter()
        recalled = recall_memories(store, scope, question.question, now=at, config=config,
                                   touch=False)  # questions are independent probes
        elapsed = (time.perf_counter() - started) * 1000
        block = build_block(recalled, inject, count=approx_tokens)
        searched = [h.memory for h in store.search(scope, question.question,
                                                   k=2 * config.recall_k)]
        for memory in searched:
            refs[memory.id] = tuple(str(r) for r in memory.source_ref.get("refs", ()))
        for item in recalled[:depth]:
            if item["id"] not in refs:
                memory = store.get(scope, item["id"])
                refs[item["id"]] = tuple(str(r) for r in memory.source_ref.get("refs", ()))
        outcomes.append(QuestionOutcome(
            question=question, hermes=tuple(refs[i["id"]] for i in recalled[:depth]),
            bm25=bm25, search=tuple(refs[m.id] for m in searched[:depth]), recall_ms=elapsed,
            tokens=block.tokens, block=block.text, asked_at=at))
        progress()
    return outcomes


@contextmanager
def _store_at(db: Path | None, embeddings: Embeddings) -> Iterator[MemoryStore]:
    with tempfile.TemporaryDirectory(prefix="hermes-locomo-") as tmp:
        path = db if db is not None else Path(tmp) / "locomo.db"
        with MemoryStore(path, embeddings=embeddings) as store:
            yield store


def run_locomo(data: LocomoData, *, mode: Mode = "raw", ks: Sequence[int] = DEFAULT_KS,
               embeddings: Embeddings, db: Path | None = None, recall_k: int | None = None,
               progress: bool = True, config: MemoryConfig | None = None) -> LocomoRun:
    """Replay every conversation, ask every usable question, rank with both systems
    (``config``: the settings both paths start from; default MemoryConfig())."""
    if mode not in MODES:
        raise HermesError(f"bench locomo: mode must be one of {list(MODES)}, got {mode!r}")
    ks = tuple(sorted(set(ks)))
    if not ks or ks[0] < 1:
        raise HermesError(f"bench locomo: k values must be positive integers, got {ks!r}")
    if db is not None and db.exists():
        raise HermesError(f"bench locomo: {db} exists; the benchmark writes a fresh store")
    config, asking = write_config(mode, config), recall_config(ks, recall_k, config)
    extractor = VerbatimExtractor(config, keep_all=True) if mode == "raw" else LearnedExtractor(
        config, embeddings=embeddings)
    stats = WriteStats()
    outcomes: list[QuestionOutcome] = []
    turns = sum(len(c.turns) for c in data.conversations)
    questions = sum(len(c.questions) for c in data.conversations)
    with _store_at(db, embeddings) as store:
        replayer = Replayer(store, config=config, extractor=extractor)
        with tqdm(total=turns, desc=f"replay ({mode})", unit="turn", file=sys.stderr,
                  disable=not progress) as bar:
            def on_turn(trace: TurnTrace) -> None:
                stats.on_turn(trace)
                bar.update(1)
            for conversation in data.conversations:
                for session in sessions_of(conversation):
                    replayer.replay(session, on_turn=on_turn)
        for conversation in data.conversations:
            stored = live_refs(store, conversation.scope)
            stats.live_memories += len(store.list(conversation.scope, statuses=LIVE_STATUSES))
            stats.turns_stored += len(stored)
            _count_survival(stats, conversation, stored)
        if mode == "raw":
            _check_raw(stats)
        with tqdm(total=questions, desc="recall", unit="question", file=sys.stderr,
                  disable=not progress) as bar:
            def advance() -> None:
                bar.update(1)
            for conversation in data.conversations:
                outcomes.extend(_ask(store, conversation, ks, asking, advance))
        embedder_id = store.embedder_id
    return LocomoRun(mode=mode, ks=ks, outcomes=tuple(outcomes), data=data, write=stats,
                     embedder_id=embedder_id, config=asking)


def mean_recall_by_category(rows: Sequence[tuple[LocomoQuestion, Ranking]],
                            ks: Sequence[int]) -> dict[str, dict[int, float | None]]:
    """Mean Recall@k of (question, ranking) pairs, overall and per category (unrounded;
    None where a group is empty)."""
    groups: dict[str, list[tuple[LocomoQuestion, Ranking]]] = {"overall": list(rows)}
    for name in CATEGORY_ORDER:
        groups[name] = [(q, r) for q, r in rows if q.category == name]
    return {name: {k: statistics.fmean(recall_at_k(q.evidence, r, k) for q, r in group)
                   if group else None for k in ks} for name, group in groups.items()}


def recall_table(outcomes: Sequence[QuestionOutcome],
                 system: Literal["hermes", "bm25", "search"],
                 ks: Sequence[int]) -> dict[str, dict[str, float | None]]:
    """Mean Recall@k per category name and overall (None where a group is empty)."""
    means = mean_recall_by_category([(o.question, getattr(o, system)) for o in outcomes], ks)
    return {name: {str(k): None if value is None else round(value, 4)
                   for k, value in row.items()} for name, row in means.items()}


def ratio_table(hermes: dict[str, dict[str, float | None]],
                bm25: dict[str, dict[str, float | None]]) -> dict[str, dict[str, float | None]]:
    ratios: dict[str, dict[str, float | None]] = {}
    for name, row in hermes.items():
        ratios[name] = {}
        for k, value in row.items():
            base = bm25[name][k]
            ratios[name][k] = round(value / base, 3) if value is not None and base else None
    return ratios


def _percentile(values: Sequence[float], q: float) -> float:
    return round(float(np.percentile(values, q)), 2) if values else 0.0


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def run_to_json(run: LocomoRun) -> dict[str, Any]:
    """The documented result object; everything beyond the fixed keys sits in ``extra``."""
    outcomes, ks, stats, audit = run.outcomes, run.ks, run.write, run.data.audit
    hermes, bm25 = recall_table(outcomes, "hermes", ks), recall_table(outcomes, "bm25", ks)
    latencies = [o.recall_ms for o in outcomes]
    extra = {
        "ratio_hermes_over_bm25": ratio_table(hermes, bm25),
        "questions_by_category": {name: sum(o.question.category == name for o in outcomes)
                                  for name in CATEGORY_ORDER},
        "conversations": len(run.data.conversations),
        "evidence_ids": {"questions_read": audit.questions, "skipped_questions": audit.skipped,
                         "repaired_ids": audit.repaired_ids, "dropped_ids": audit.dropped_ids,
                         "dropped": audit.dropped},
        "write": {"turns": stats.turns, "turns_with_candidates": stats.turns_with_candidates,
                  "live_memories": stats.live_memories, "turns_stored": stats.turns_stored,
                  "actions": dict(stats.actions.most_common()),
                  "not_stored_reasons": dict(stats.drop_reasons.most_common())},
        "evidence_survival": {name: _share(stats.evidence_survived[name], turns)
                              for name, turns in stats.evidence_turns.items()},
        "recall_config": {"recall_k": run.config.recall_k,
                          "searched": run.config.coarse_pool_factor * run.config.recall_k,
                          "question_delay_days": QUESTION_DELAY.days,
                          "changed_from_default": changed_settings(run.config)},
        "embedder": run.embedder_id,
        "store_search": recall_table(outcomes, "search", ks),
        "store_search_note": "diagnostic: the same questions ranked by store.search alone "
                             "(the candidates recall re-ranks, in the store's hybrid order)",
    }
    return {"mode": run.mode, "questions": len(outcomes), "skipped": audit.skipped,
            "hermes": hermes, "bm25": bm25,
            "avg_injected_tokens": round(statistics.fmean(o.tokens for o in outcomes), 1)
            if outcomes else 0.0,
            "p50_recall_ms": _percentile(latencies, 50),
            "p95_recall_ms": _percentile(latencies, 95),
            "extra": extra}
