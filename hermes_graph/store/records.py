"""Validation of memory fields and conversion between SQLite rows and Memory."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from hermes_graph.clock import from_db, require_aware
from hermes_graph.config import MemoryConfig
from hermes_graph.errors import InvalidInputError, ScopeError
from hermes_graph.store.lifecycle import check_status
from hermes_graph.types import (
    CATEGORIES,
    DEFAULT_CATEGORY_OF_KIND,
    KIND_OF_CATEGORY,
    KINDS,
    SOURCES,
    Category,
    Kind,
    Memory,
    Source,
    Status,
)

COLUMNS = (
    "id, scope, kind, category, content, subject, qualifiers, slot, importance, confidence, "
    "source, status, created_at, updated_at, last_seen_at, last_used_at, use_count, "
    "confirm_count, confirmations, superseded_by, override_of, version, source_ref, "
    "embedder_id, dim"
)


def check_scope(scope: object, call: str, config: MemoryConfig) -> str:
    """Every read and write names a scope; there is no default."""
    if not isinstance(scope, str):
        raise ScopeError(f"{call}: scope must be a non-empty string, got {type(scope).__name__}")
    if not scope.strip():
        raise ScopeError(f"{call}: scope must be a non-empty string, got {scope!r}")
    if len(scope) > config.max_scope_chars:
        raise ScopeError(f"{call}: scope is {len(scope)} characters, at most "
                         f"{config.max_scope_chars} allowed")
    return scope


def check_content(content: object, config: MemoryConfig) -> str:
    if not isinstance(content, str):
        raise InvalidInputError(f"content must be a string, got {type(content).__name__}")
    if not content.strip():
        raise InvalidInputError("content must not be empty or whitespace")
    if len(content) > config.max_content_chars:
        raise InvalidInputError(f"content is {len(content)} characters, at most "
                                f"{config.max_content_chars} allowed (max_content_chars)")
    return content.strip()


def check_kind_category(kind: object, category: object) -> tuple[Kind, Category]:
    if kind is not None and kind not in KINDS:
        raise InvalidInputError(f"unknown kind {kind!r}; expected one of {list(KINDS)}")
    if category is not None and category not in CATEGORIES:
        raise InvalidInputError(
            f"unknown category {category!r}; expected one of {list(CATEGORIES)}")
    if kind is None and category is None:
        return "semantic", "fact"
    if kind is None:
        return KIND_OF_CATEGORY[category], category  # type: ignore[index,return-value]
    if category is None:
        return kind, DEFAULT_CATEGORY_OF_KIND[kind]
    return kind, category


def check_importance(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"importance must be an integer 1-10, got {value!r}")
    if not 1 <= value <= 10:
        raise InvalidInputError(f"importance must be between 1 and 10, got {value}")
    return value


def check_confidence(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(f"confidence must be a number 0-1, got {value!r}")
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise InvalidInputError(f"confidence must be between 0 and 1, got {value!r}")
    return float(value)


def check_source(value: object) -> Source:
    if value not in SOURCES:
        raise InvalidInputError(f"unknown source {value!r}; expected one of {list(SOURCES)}")
    return value


def check_text(value: object, what: str, *, allow_none: bool = False) -> str | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{what} must be a non-empty string, got {value!r}")
    return value.strip()


def check_qualifiers(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise InvalidInputError(f"qualifiers must be a list of strings, got {value!r}")
    items = list(value)
    if not all(isinstance(q, str) and q.strip() for q in items):
        raise InvalidInputError(f"qualifiers must be non-empty strings, got {items!r}")
    return tuple(sorted({q.strip() for q in items}))


def check_mapping(value: object, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInputError(f"{what} must be a mapping, got {type(value).__name__}")
    try:
        return dict(json.loads(json.dumps(dict(value))))
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{what} must be JSON-serialisable: {exc}") from None


def _names(values: object, what: str) -> tuple[object, ...]:
    """One name or an iterable of names, as a tuple."""
    if isinstance(values, str):
        return (values,)
    if not isinstance(values, Iterable):
        raise InvalidInputError(f"{what} must be a name or a list of names, got {values!r}")
    return tuple(values)


def check_statuses(statuses: Iterable[object]) -> tuple[Status, ...]:
    return tuple(check_status(s) for s in _names(statuses, "statuses"))


def check_kinds(kinds: Iterable[object] | None) -> tuple[Kind, ...] | None:
    if kinds is None:
        return None
    checked = _names(kinds, "kinds")
    for kind in checked:
        if kind not in KINDS:
            raise InvalidInputError(f"unknown kind {kind!r}; expected one of {list(KINDS)}")
    return checked  # type: ignore[return-value]


def check_categories(categories: Iterable[object] | None) -> tuple[Category, ...] | None:
    if categories is None:
        return None
    checked = _names(categories, "categories")
    for category in checked:
        if category not in CATEGORIES:
            raise InvalidInputError(
                f"unknown category {category!r}; expected one of {list(CATEGORIES)}")
    return checked  # type: ignore[return-value]


def check_limit(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInputError(f"limit must be a non-negative integer, got {value!r}")
    return value


def check_window(value: object, what: str) -> tuple[datetime, datetime]:
    """A (start, end) pair of timezone-aware datetimes with start <= end."""
    if not isinstance(value, tuple) or len(value) != 2:
        raise InvalidInputError(f"{what} must be a (start, end) tuple, got {value!r}")
    start, end = (require_aware(v, what) for v in value)
    if end < start:
        raise InvalidInputError(f"{what}: end {end.isoformat()} is before start "
                                f"{start.isoformat()}")
    return start, end


def check_names(values: Iterable[object] | None, what: str) -> tuple[str, ...] | None:
    """Slot or subject names to filter by: non-empty strings."""
    if values is None:
        return None
    if isinstance(values, str):
        values = (values,)
    checked = tuple(values)
    if not all(isinstance(v, str) and v.strip() for v in checked):
        raise InvalidInputError(f"{what} must be non-empty strings, got {list(checked)!r}")
    return checked  # type: ignore[return-value]


def _json(text: str) -> Any:
    """json.loads with the common empty values decoded without the parser (hot path)."""
    if text == "[]":
        return []
    if text == "{}":
        return {}
    return json.loads(text)


def row_to_memory(row: Mapping[str, Any]) -> Memory:
    return Memory(
        id=int(row["id"]),
        scope=row["scope"],
        kind=row["kind"],
        category=row["category"],
        content=row["content"],
        subject=row["subject"],
        qualifiers=tuple(_json(row["qualifiers"])),
        slot=row["slot"],
        importance=int(row["importance"]),
        confidence=float(row["confidence"]),
        source=row["source"],
        status=row["status"],
        created_at=from_db(row["created_at"]),  # type: ignore[arg-type]
        updated_at=from_db(row["updated_at"]),  # type: ignore[arg-type]
        last_seen_at=from_db(row["last_seen_at"]),  # type: ignore[arg-type]
        last_used_at=from_db(row["last_used_at"]),
        use_count=int(row["use_count"]),
        confirm_count=int(row["confirm_count"]),
        confirmations=tuple(_json(row["confirmations"])),
        superseded_by=row["superseded_by"],
        override_of=row["override_of"],
        version=int(row["version"]),
        source_ref=_json(row["source_ref"]),
        embedder_id=row["embedder_id"],
        dim=row["dim"],
    )


def memory_to_record(memory: Memory) -> dict[str, Any]:
    """A JSON-ready dict of a memory (times as ISO-8601), used by export."""
    record: dict[str, Any] = {}
    for name in Memory.__dataclass_fields__:
        value = getattr(memory, name)
        if hasattr(value, "isoformat"):
            value = value.isoformat()
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, Mapping):
            value = dict(value)
        record[name] = value
    return record
