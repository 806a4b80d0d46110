"""Test helpers for users of hermes-graph and for its own test suite.

* :class:`HashingEmbeddings` — deterministic offline embeddings (no model, no network).
* :class:`FakeClock` — a clock that only moves when told to.
* :func:`snapshot` — everything a store holds for some scopes, through the public API.
* A **store conformance suite**: plain ``check_*`` functions that any storage
  backend must pass. Each takes a factory returning a *fresh, empty* store and
  closes the stores it opens::

      from hermes_graph.testing import run_store_conformance
      run_store_conformance(lambda: MemoryStore(tmp / "m.db", embeddings=HashingEmbeddings()))

A failed check raises :class:`ConformanceError` (an ``AssertionError``) that
names the check and what went wrong.
"""

from __future__ import annotations

from collections.abc import Callable

from hermes_graph.clock import FakeClock
from hermes_graph.embeddings.fake import HashingEmbeddings
from hermes_graph.testing._support import ConformanceError, StoreFactory, snapshot
from hermes_graph.testing.conformance_core import (
    KEYWORD_CORPUS,
    KEYWORD_QUERIES,
    SCOPED_CALLS,
    check_add_and_get,
    check_add_many_is_all_or_nothing,
    check_follow_ups,
    check_keyword_search,
    check_list_filters,
    check_said_between,
    check_scope_isolation,
    check_scope_required,
    check_search,
)
from hermes_graph.testing.conformance_lifecycle import (
    BAD_FIELDS,
    check_bad_input_leaves_store_unchanged,
    check_closed_store,
    check_confirm_and_mark_used,
    check_export_import,
    check_find_exact,
    check_forget,
    check_ids_never_reused,
    check_lifecycle,
    check_purge_scope,
    check_stats,
    check_transaction_rollback,
    check_update_and_history,
)

__all__ = [
    "BAD_FIELDS",
    "CONFORMANCE_CHECKS",
    "KEYWORD_CORPUS",
    "KEYWORD_QUERIES",
    "SCOPED_CALLS",
    "ConformanceError",
    "FakeClock",
    "HashingEmbeddings",
    "StoreFactory",
    "run_store_conformance",
    "snapshot",
]


CONFORMANCE_CHECKS: tuple[Callable[[StoreFactory], None], ...] = (
    check_add_and_get, check_add_many_is_all_or_nothing, check_list_filters,
    check_scope_required, check_scope_isolation, check_search, check_keyword_search,
    check_follow_ups, check_said_between,
    check_lifecycle, check_update_and_history, check_confirm_and_mark_used, check_forget,
    check_ids_never_reused, check_purge_scope, check_find_exact, check_export_import,
    check_stats, check_bad_input_leaves_store_unchanged, check_transaction_rollback,
    check_closed_store,
)


def run_store_conformance(make_store: StoreFactory) -> None:
    """Run every conformance check; raises :class:`ConformanceError` on the first failure."""
    for check in CONFORMANCE_CHECKS:
        try:
            check(make_store)
        except ConformanceError as exc:
            raise ConformanceError(f"{check.__name__}: {exc}") from exc
