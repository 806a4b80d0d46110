"""The store conformance suite (hermes_graph.testing) against the SQLite backend."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path

import pytest

from hermes_graph import MemoryStore
from hermes_graph.testing import (
    CONFORMANCE_CHECKS,
    SCOPED_CALLS,
    FakeClock,
    HashingEmbeddings,
    StoreFactory,
    run_store_conformance,
)


@pytest.mark.parametrize("check", CONFORMANCE_CHECKS, ids=lambda c: c.__name__)
def test_file_store_conforms(check: Callable[[StoreFactory], None],
                             fresh_store: StoreFactory) -> None:
    check(fresh_store)


def test_in_memory_store_conforms() -> None:
    run_store_conformance(lambda: MemoryStore(":memory:", embeddings=HashingEmbeddings(32),
                                              clock=FakeClock("2024-01-01T00:00:00Z")))


def test_conformance_covers_every_scoped_method() -> None:
    scoped = {name for name, fn in inspect.getmembers(MemoryStore, inspect.isfunction)
              if not name.startswith("_")
              and list(inspect.signature(fn).parameters)[1:2] == ["scope"]}
    assert scoped == set(SCOPED_CALLS)


def test_fresh_store_factory_gives_separate_files(fresh_store: StoreFactory) -> None:
    a, b = fresh_store(), fresh_store()
    assert Path(a.path) != Path(b.path)
    a.add("u", "only in a")
    assert b.list("u") == []
