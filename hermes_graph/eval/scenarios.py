"""Reading scenario files and recorded-message files, strictly.

A file that is not the format raises :class:`FormatError` naming the line and
the problem, before anything is replayed (so nothing is written from a bad file).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from hermes_graph.clock import parse_time
from hermes_graph.errors import FormatError, InvalidInputError

TURN_GAP = timedelta(minutes=1)


@dataclass(frozen=True, kw_only=True)
class RecordedTurn:
    role: Literal["user", "assistant"]
    content: str
    at: datetime
    speaker: str | None = None
    ref: str | None = None


@dataclass(frozen=True, kw_only=True)
class Session:
    id: str
    scope: str
    turns: tuple[RecordedTurn, ...]


@dataclass(frozen=True, kw_only=True)
class Probe:
    after: str
    scope: str
    at: datetime
    query: str
    expect: tuple[tuple[str, ...], ...] = ()
    forbid: tuple[str, ...] = ()
    max_occurrences: Mapping[str, int] | None = None


@dataclass(frozen=True, kw_only=True)
class Scenario:
    id: str
    lang: str
    category: str
    sessions: tuple[Session, ...]
    probes: tuple[Probe, ...]


def _need(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise InvalidInputError(f"{where}: missing {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, str) and not value.strip()):
        raise InvalidInputError(f"{where}: {key!r} must be a non-empty "
                                f"{getattr(kind, '__name__', 'value')}, got {value!r}")
    return value


def _session(raw: Any, n: int) -> Session:
    where = f"sessions[{n}]"
    if not isinstance(raw, dict):
        raise InvalidInputError(f"{where} must be an object")
    start = parse_time(_need(raw, "start", str, where), f"{where}.start")
    turns = []
    clock = start
    for t, turn in enumerate(_need(raw, "turns", list, where)):
        tw = f"{where}.turns[{t}]"
        if not isinstance(turn, dict):
            raise InvalidInputError(f"{tw} must be an object")
        role = _need(turn, "role", str, tw)
        if role not in ("user", "assistant"):
            raise InvalidInputError(f"{tw}: role must be 'user' or 'assistant', got {role!r}")
        if "at" in turn:
            clock = parse_time(_need(turn, "at", str, tw), f"{tw}.at")
        elif t > 0:
            clock = clock + TURN_GAP
        turns.append(RecordedTurn(role=role, content=_need(turn, "content", str, tw), at=clock))
    return Session(id=_need(raw, "id", str, where), scope=_need(raw, "scope", str, where),
                   turns=tuple(turns))


def _probe(raw: Any, n: int, session_ids: set[str]) -> Probe:
    where = f"probes[{n}]"
    if not isinstance(raw, dict):
        raise InvalidInputError(f"{where} must be an object")
    after = _need(raw, "after", str, where)
    if after not in session_ids:
        raise InvalidInputError(f"{where}: after {after!r} names no session")
    expect = []
    for entry in raw.get("expect") or []:
        options = (entry,) if isinstance(entry, str) else tuple(entry)
        if not options or not all(isinstance(o, str) and o for o in options):
            raise InvalidInputError(f"{where}: expect entries must be strings or lists of them")
        expect.append(options)
    forbid = raw.get("forbid") or []
    if not all(isinstance(f, str) and f for f in forbid):
        raise InvalidInputError(f"{where}: forbid must be a list of strings")
    bounds = raw.get("max_occurrences")
    if bounds is not None and not (isinstance(bounds, dict) and all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in bounds.values())):
        raise InvalidInputError(f"{where}: max_occurrences must map strings to counts >= 0")
    return Probe(after=after, scope=_need(raw, "scope", str, where),
                 at=parse_time(_need(raw, "at", str, where), f"{where}.at"),
                 query=_need(raw, "query", str, where), expect=tuple(expect),
                 forbid=tuple(forbid), max_occurrences=bounds)


def parse_scenario(raw: Any) -> Scenario:
    if not isinstance(raw, dict):
        raise InvalidInputError("a scenario must be a JSON object")
    sessions = tuple(_session(s, n) for n, s in
                     enumerate(_need(raw, "sessions", list, "scenario")))
    ids = {s.id for s in sessions}
    if len(ids) != len(sessions):
        raise InvalidInputError("scenario: session ids must be unique")
    probes = tuple(_probe(p, n, ids) for n, p in enumerate(raw.get("probes") or []))
    return Scenario(id=_need(raw, "id", str, "scenario"), lang=str(raw.get("lang", "")),
                    category=str(raw.get("category", "uncategorised")), sessions=sessions,
                    probes=probes)


def _json_lines(lines: Iterable[str]) -> Iterable[tuple[int, Any]]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            raise FormatError(f"line {number}: not JSON ({exc.msg})") from None


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Every scenario of a JSON Lines file; ids must be unique within the file."""
    scenarios: list[Scenario] = []
    seen: set[str] = set()
    with open(path, encoding="utf-8") as handle:
        for number, raw in _json_lines(handle):
            try:
                scenario = parse_scenario(raw)
            except InvalidInputError as exc:
                raise FormatError(f"line {number}: {exc}") from None
            if scenario.id in seen:
                raise FormatError(f"line {number}: duplicate scenario id {scenario.id!r}")
            seen.add(scenario.id)
            scenarios.append(scenario)
    if not scenarios:
        raise FormatError(f"{path}: no scenarios found")
    return scenarios


def load_recorded(path: str | Path) -> list[Session]:
    """JSON Lines of ``{"scope","session","role","content","at"}``, grouped into sessions."""
    grouped: dict[tuple[str, str], list[RecordedTurn]] = {}
    with open(path, encoding="utf-8") as handle:
        for number, raw in _json_lines(handle):
            where = f"line {number}"
            try:
                if not isinstance(raw, dict):
                    raise InvalidInputError("expected a JSON object")
                role = _need(raw, "role", str, where)
                if role not in ("user", "assistant"):
                    raise InvalidInputError(f"role must be 'user' or 'assistant', got {role!r}")
                key = (_need(raw, "scope", str, where), _need(raw, "session", str, where))
                turn = RecordedTurn(role=role, content=_need(raw, "content", str, where),
                                    at=parse_time(_need(raw, "at", str, where), "at"),
                                    speaker=raw.get("speaker"), ref=raw.get("ref"))
            except InvalidInputError as exc:
                raise FormatError(f"line {number}: {exc}") from None
            grouped.setdefault(key, []).append(turn)
    if not grouped:
        raise FormatError(f"{path}: no messages found")
    return [Session(id=session, scope=scope, turns=tuple(turns))
            for (scope, session), turns in grouped.items()]


def detect_format(path: str | Path) -> Literal["scenarios", "messages"]:
    with open(path, encoding="utf-8") as handle:
        for number, raw in _json_lines(handle):
            if isinstance(raw, dict) and "sessions" in raw:
                return "scenarios"
            if isinstance(raw, dict) and "role" in raw:
                return "messages"
            raise FormatError(f"line {number}: neither a scenario (with 'sessions') nor a "
                              "recorded message (with 'role')")
    raise FormatError(f"{path}: empty file")
