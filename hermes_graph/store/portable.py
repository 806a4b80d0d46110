"""Export, import and statistics of one scope (JSON Lines, no vectors)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from hermes_graph.clock import parse_time
from hermes_graph.errors import FormatError, InvalidInputError
from hermes_graph.store.records import memory_to_record
from hermes_graph.types import Memory

if TYPE_CHECKING:
    from hermes_graph.store.memory_store import MemoryStore

IMPORTED_FIELDS = ("content", "kind", "category", "subject", "qualifiers", "importance",
                   "confidence", "source", "status", "slot", "source_ref")


def export_lines(store: MemoryStore, scope: str) -> Iterator[str]:
    for memory in store.list(scope):
        record = memory_to_record(memory)
        yield json.dumps(record, ensure_ascii=False, sort_keys=True)


def import_lines(store: MemoryStore, scope: str, lines: Iterable[str]) -> list[Memory]:
    """Parse every line first; only a fully valid file is written (one transaction)."""
    items: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FormatError(f"line {number}: not JSON ({exc.msg})") from None
        if not isinstance(record, dict) or "content" not in record:
            raise FormatError(f"line {number}: expected an object with 'content'")
        item = {k: record[k] for k in IMPORTED_FIELDS if record.get(k) is not None}
        if item.get("status") in ("superseded", "deleted"):
            item["status"] = "archived"  # keeps it out of recall without a dangling link
        if "created_at" in record:
            try:
                item["at"] = parse_time(str(record["created_at"]), "created_at")
            except InvalidInputError as exc:
                raise FormatError(f"line {number}: {exc}") from None
        item["reason"] = "imported"
        items.append(item)
    try:
        return store.add_many(scope, items)
    except InvalidInputError as exc:
        raise FormatError(f"import rejected, nothing written: {exc}") from None


def scope_stats(store: MemoryStore, scope: str) -> dict[str, Any]:
    memories = store.list(scope)
    return {
        "scope": scope,
        "total": len(memories),
        "by_status": dict(Counter(m.status for m in memories)),
        "by_kind": dict(Counter(m.kind for m in memories)),
        "by_category": dict(Counter(m.category for m in memories)),
        "embedder_id": store.embedder_id,
        "dim": store.dim,
    }
