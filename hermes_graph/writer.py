"""The write path outside the graph: background writes and the session catch-up pass.

``write_turns`` is extract -> gate -> persist as plain functions. A
:class:`MemoryWriter` runs it on one background thread, in order, so the write
path adds nothing to a reply's latency; ``flush()`` waits until every queued
write is applied (call it before shutdown; ``close()`` does).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime

from hermes_graph.config import MemoryConfig
from hermes_graph.errors import ExtractionError
from hermes_graph.extract.base import Extractor, Turn
from hermes_graph.nodes.extract import extract_candidates, screen_all
from hermes_graph.nodes.gate import gate_candidates
from hermes_graph.nodes.persist import apply_decisions
from hermes_graph.state import DecisionItem
from hermes_graph.store import MemoryStore
from hermes_graph.types import Candidate

log = logging.getLogger(__name__)


def gate_and_persist(store: MemoryStore, *, scope: str, session: str,
                     candidates: Sequence[Candidate], now: datetime,
                     config: MemoryConfig) -> list[DecisionItem]:
    """The gate decides on the candidates; persist applies the decisions atomically."""
    decisions = gate_candidates(store, scope, session, candidates, config, now=now)
    return apply_decisions(store, scope, session, decisions, now=now, config=config)


def write_turns(store: MemoryStore, extractor: Extractor, *, scope: str, session: str,
                turns: Sequence[Turn], now: datetime, config: MemoryConfig) -> list[DecisionItem]:
    """Extract from the last user turn, gate and persist; returns the decisions."""
    candidates = extract_candidates(extractor, turns, now=now, store=store, scope=scope)
    if not candidates:
        return []
    return gate_and_persist(store, scope=scope, session=session, candidates=candidates,
                            now=now, config=config)


def end_session(store: MemoryStore, extractor: Extractor, *, scope: str, session: str,
                turns: Sequence[Turn], now: datetime,
                config: MemoryConfig | None = None) -> list[DecisionItem]:
    """Catch-up pass (seed 000 §2.3): extract from the whole session what single turns
    missed, through the extractor's ``catch_up(turns, now=...)``. The gate ignores what
    the turns already stored in this session, so nothing is counted twice."""
    config = config or MemoryConfig()
    catch_up = getattr(extractor, "catch_up", None)
    if catch_up is None:
        return []
    try:
        candidates = screen_all(catch_up(list(turns), now=now),
                                include_phone=store.config.drop_phone_numbers)
    except ExtractionError as exc:
        log.warning("catch-up output rejected, nothing kept from this session: %s", exc)
        return []
    if not candidates:
        return []
    return gate_and_persist(store, scope=scope, session=session, candidates=candidates,
                            now=now, config=config)


class MemoryWriter:
    """One background thread applying write paths in submission order."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hermes-writer")
        self._pending: list[Future[list[DecisionItem]]] = []
        self._lock = threading.Lock()
        self.results: list[DecisionItem] = []
        self.errors: list[BaseException] = []

    def submit(self, store: MemoryStore, extractor: Extractor, *, scope: str, session: str,
               turns: Sequence[Turn], now: datetime, config: MemoryConfig) -> None:
        future = self._pool.submit(write_turns, store, extractor, scope=scope, session=session,
                                   turns=list(turns), now=now, config=config)
        with self._lock:
            self._pending.append(future)

    def flush(self, timeout: float | None = None) -> list[DecisionItem]:
        """Wait for every queued write; returns the decisions applied since the last flush."""
        with self._lock:
            pending, self._pending = self._pending, []
        done: list[DecisionItem] = []
        for future in pending:
            try:
                done.extend(future.result(timeout=timeout))
            except Exception as exc:  # a failed write must not hide the others
                log.error("background memory write failed: %s", exc)
                self.errors.append(exc)
        self.results.extend(done)
        return done

    def close(self) -> None:
        self.flush()
        self._pool.shutdown(wait=True)

    def __enter__(self) -> MemoryWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
