"""The ``eval`` command's semantics (shared/eval/SCENARIOS.md), as functions.

One fresh store per scenario, the clock driven by the scenario's times,
probes run after the session they name, and metrics for the file and per
category: recall_hit_rate, false_recall_rate, avg_injected_tokens,
p50_recall_ms, p95_recall_ms.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from hermes_graph.config import MemoryConfig
from hermes_graph.eval.history import history_sessions
from hermes_graph.eval.scenarios import Probe, Scenario
from hermes_graph.extract.base import Extractor
from hermes_graph.policy.budget import TokenCounter, approx_tokens
from hermes_graph.replay import Replayer
from hermes_graph.store import MemoryStore

METRIC_KEYS = ("recall_hit_rate", "false_recall_rate", "avg_injected_tokens",
               "p50_recall_ms", "p95_recall_ms")


@dataclass(frozen=True, kw_only=True)
class ProbeOutcome:
    scenario: str
    category: str
    query: str
    text: str
    tokens: int
    ms: float
    hit: bool | None
    """All expect entries present; None when the probe has no expect."""
    false_recall: bool | None
    """A forbid string or max_occurrences bound failed; None when it has neither."""
    missing: tuple[str, ...] = ()
    violations: tuple[str, ...] = ()


@dataclass
class EvalReport:
    outcomes: list[ProbeOutcome] = field(default_factory=list)

    def metrics(self, outcomes: Sequence[ProbeOutcome] | None = None) -> dict[str, Any]:
        chosen = self.outcomes if outcomes is None else list(outcomes)
        expects = [o.hit for o in chosen if o.hit is not None]
        checks = [o.false_recall for o in chosen if o.false_recall is not None]
        ms = [o.ms for o in chosen]
        return {
            "recall_hit_rate": sum(expects) / len(expects) if expects else None,
            "false_recall_rate": sum(checks) / len(checks) if checks else None,
            "avg_injected_tokens": float(np.mean([o.tokens for o in chosen])) if chosen else 0.0,
            "p50_recall_ms": float(np.percentile(ms, 50)) if ms else 0.0,
            "p95_recall_ms": float(np.percentile(ms, 95)) if ms else 0.0,
        }

    def to_json(self) -> dict[str, Any]:
        by_category: dict[str, list[ProbeOutcome]] = defaultdict(list)
        for outcome in self.outcomes:
            by_category[outcome.category].append(outcome)
        return {**self.metrics(), "probes": len(self.outcomes),
                "by_category": {c: {**self.metrics(o), "probes": len(o)}
                                for c, o in sorted(by_category.items())}}


def judge(probe: Probe, text: str) -> tuple[bool | None, bool | None, tuple[str, ...],
                                             tuple[str, ...]]:
    """Case-insensitive substring checks on the injected text only."""
    folded = text.casefold()
    missing = tuple("/".join(options) for options in probe.expect
                    if not any(o.casefold() in folded for o in options))
    violations = [f"forbid:{f}" for f in probe.forbid if f.casefold() in folded]
    for needle, bound in (probe.max_occurrences or {}).items():
        count = folded.count(needle.casefold())
        if count > bound:
            violations.append(f"max:{needle}={count}>{bound}")
    hit = (not missing) if probe.expect else None
    checked = bool(probe.forbid) or bool(probe.max_occurrences)
    return hit, (bool(violations) if checked else None), missing, tuple(violations)


def run_scenario(scenario: Scenario, *, embeddings: Embeddings,
                 config: MemoryConfig | None = None,
                 extractor_factory: Callable[[], Extractor] | None = None,
                 token_counter: TokenCounter = approx_tokens,
                 history: Callable[[Replayer, Scenario], None] | None = None,
                 ) -> list[ProbeOutcome]:
    """Replay one scenario into a fresh in-memory store and run its probes.

    ``history`` may pre-load earlier sessions (the long-history variant).
    """
    outcomes: list[ProbeOutcome] = []
    with MemoryStore(":memory:", embeddings=embeddings, config=config) as store:
        replayer = Replayer(store, config=config, token_counter=token_counter,
                            extractor=extractor_factory() if extractor_factory else None)
        if history is not None:
            history(replayer, scenario)
        for session in scenario.sessions:
            replayer.replay(session)
            for probe in (p for p in scenario.probes if p.after == session.id):
                result = replayer.probe(probe.scope, probe.query, probe.at)
                hit, false_recall, missing, violations = judge(probe, result.text)
                outcomes.append(ProbeOutcome(
                    scenario=scenario.id, category=scenario.category, query=probe.query,
                    text=result.text, tokens=result.tokens, ms=result.ms, hit=hit,
                    false_recall=false_recall, missing=missing, violations=violations))
    return outcomes


def _with_history(sessions: int) -> Callable[[Replayer, Scenario], None]:
    def replay_history(replayer: Replayer, scenario: Scenario) -> None:
        for session in history_sessions(scenario, sessions=sessions):
            replayer.replay(session)
    return replay_history


def evaluate(scenarios: Sequence[Scenario], *, embeddings: Embeddings,
             config: MemoryConfig | None = None,
             extractor_factory: Callable[[], Extractor] | None = None,
             token_counter: TokenCounter = approx_tokens,
             progress: Callable[[Scenario], None] | None = None,
             history_sessions: int = 0) -> EvalReport:
    """Run every scenario; ``history_sessions`` > 0 runs the long-history variant."""
    report = EvalReport()
    history = _with_history(history_sessions) if history_sessions > 0 else None
    for scenario in scenarios:
        report.outcomes.extend(run_scenario(
            scenario, embeddings=embeddings, config=config, extractor_factory=extractor_factory,
            token_counter=token_counter, history=history))
        if progress is not None:
            progress(scenario)
    return report
