"""Shared helpers of the conformance suite: failures, snapshots, clock points."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

from hermes_graph.store.memory_store import MemoryStore
from hermes_graph.store.records import memory_to_record

StoreFactory = Callable[[], MemoryStore]
"""Returns a new, empty store each time it is called."""

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc)
T1 = T0 + timedelta(days=3)
T2 = T0 + timedelta(days=9)

class ConformanceError(AssertionError):
    """A store backend broke the store contract."""


# --- helpers -------------------------------------------------------------------
def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def _raises(expected: type[BaseException], what: str, call: Callable[..., object],
            *args: Any, **kwargs: Any) -> BaseException:
    """``call(*args, **kwargs)`` must raise ``expected`` with a non-empty message."""
    try:
        result = call(*args, **kwargs)
        if isinstance(result, Iterator):
            list(result)  # a lazy call (export) raises when consumed
    except expected as exc:
        _expect(bool(str(exc).strip()), f"{what}: {type(exc).__name__} has no message")
        return exc
    except Exception as exc:
        raise ConformanceError(
            f"{what}: expected {expected.__name__}, got {type(exc).__name__}: {exc}") from exc
    raise ConformanceError(f"{what}: expected {expected.__name__}, nothing was raised")


def snapshot(store: MemoryStore, scopes: Iterable[str] = ()) -> dict[str, Any]:
    """Memories, transitions and history of ``scopes`` plus every listed scope."""
    state: dict[str, Any] = {"scopes": store.scopes()}
    for scope in sorted(set(scopes) | set(state["scopes"])):
        memories = store.list(scope)
        state[scope] = {
            "memories": [memory_to_record(m) for m in memories],
            "transitions": store.transitions(scope),
            "history": {m.id: store.history(scope, m.id) for m in memories},
        }
    return state


@contextmanager
def _unchanged(store: MemoryStore, scopes: Iterable[str], what: str) -> Iterator[None]:
    scopes = tuple(scopes)
    before = snapshot(store, scopes)
    yield
    after = snapshot(store, scopes)
    _expect(before == after, f"{what} changed the store:\nbefore={before}\nafter={after}")


def _rejects(store: MemoryStore, scopes: Iterable[str], expected: type[BaseException],
             what: str, call: Callable[..., object], *args: Any,
             **kwargs: Any) -> BaseException:
    """``call`` raises ``expected`` and leaves the store exactly as it was."""
    with _unchanged(store, scopes, what):
        return _raises(expected, what, call, *args, **kwargs)


def _ids(hits: Iterable[Any]) -> list[int]:
    return [h.memory.id for h in hits]


# --- the checks ------------------------------------------------------------------
