"""The extraction corpus: labelled user messages (``data/extraction/*.jsonl``).

``GUIDE.md`` beside the data states the format and how to label; this module reads it,
checks every record against it and says what is wrong, naming the file, line and field.
``python -m hermes_graph.language.corpus FILE...`` runs the check and prints counts.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hermes_graph.errors import FormatError

LANGS = ("zh", "en", "mixed")
REGISTERS = (
    "terse", "long_multi_fact", "implied_preference", "indirect_correction", "typos_slang",
    "question_with_fact", "hypothetical", "quote", "venting", "task_request", "answer_rule",
    "forget_request", "third_party", "smalltalk", "joke", "secret", "reply_to_assistant",
    "assistant_claim", "restatement", "life_event", "plan", "friend_chat",
)
MEMORY_CATEGORIES = ("identity", "preference", "constraint", "rule", "event", "plan",
                     "relationship", "fact")
CLAUSE_CATEGORIES = (*MEMORY_CATEGORIES, "request", "question", "chitchat", "remark")
SUBJECTS = ("user", "family", "third_party", "assistant", "hypothetical", "quote", "joke")
CHANGES = ("new", "restatement", "update", "retraction", "forget")
KEPT_SUBJECTS = ("user", "family", "third_party")
SLOTS = ("residence", "work", "school", "schedule", "commute", "phone", "computer", "car",
         "budget", "pricing", "income", "stack", "tool", "diet", "language", "verbosity", "tone",
         "address_as", "relationship", "exam", "none")
"""The single-valued slots of ``data/slots/GUIDE.md``; ``none`` for everything else."""
KIND_OF = {"event": "episodic", "plan": "episodic", "rule": "procedural"}
"""A memory category's kind; every other category is semantic."""


@dataclass(frozen=True, kw_only=True)
class Clause:
    text: str
    start: int
    """Where ``text`` starts in the message."""
    keep: bool
    category: str
    subject: str
    change: str
    venting: bool


@dataclass(frozen=True, kw_only=True)
class MemoryLabel:
    content: str
    kind: str
    category: str
    subject: str
    sources: tuple[int, ...]
    """Indices of the clauses the memory is made from (``from`` in the file)."""


@dataclass(frozen=True, kw_only=True)
class Record:
    id: str
    batch: str
    lang: str
    register: str
    context: str
    message: str
    clauses: tuple[Clause, ...]
    memories: tuple[MemoryLabel, ...]


@dataclass(frozen=True, kw_only=True)
class SlotRecord:
    """A statement labelled with the single-valued slot it gives a value of."""

    id: str
    batch: str
    lang: str
    text: str
    slot: str


def kind_of(category: str) -> str:
    return KIND_OF.get(category, "semantic")


def _field(data: Mapping[str, Any], name: str, kind: type, where: str) -> Any:
    if name not in data:
        raise FormatError(f"{where}: missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise FormatError(f"{where}: {name!r} must be {kind.__name__}, got {value!r}")
    return value


def _choice(data: Mapping[str, Any], name: str, allowed: Sequence[str], where: str) -> str:
    value = _field(data, name, str, where)
    if value not in allowed:
        raise FormatError(f"{where}: {name!r} is {value!r}, expected one of {', '.join(allowed)}")
    return str(value)


def _covered_only_by_gaps(gap: str) -> bool:
    """Text between clauses may hold only spaces, punctuation and symbols (emoji)."""
    return all(unicodedata.category(c)[0] in "PZS" or c.isspace() for c in gap)


def _clauses(data: Mapping[str, Any], message: str, where: str) -> tuple[Clause, ...]:
    raw = _field(data, "clauses", list, where)
    if not raw:
        raise FormatError(f"{where}: 'clauses' is empty; every message has at least one")
    clauses: list[Clause] = []
    at = 0
    for n, item in enumerate(raw):
        here = f"{where}: clause {n}"
        if not isinstance(item, dict):
            raise FormatError(f"{here}: must be an object, got {item!r}")
        text = _field(item, "text", str, here)
        start = message.find(text, at) if text.strip() else -1
        if start < 0:
            raise FormatError(f"{here}: text {text!r} is not in the message after clause {n - 1}"
                              " (copy it exactly, in order, without overlap)")
        if not _covered_only_by_gaps(message[at:start]):
            raise FormatError(f"{here}: {message[at:start]!r} before it belongs to no clause")
        clause = Clause(text=text, start=start, keep=_field(item, "keep", bool, here),
                        category=_choice(item, "category", CLAUSE_CATEGORIES, here),
                        subject=_choice(item, "subject", SUBJECTS, here),
                        change=_choice(item, "change", CHANGES, here),
                        venting=_field(item, "venting", bool, here))
        if clause.keep and clause.category not in MEMORY_CATEGORIES:
            raise FormatError(f"{here}: kept, but {clause.category!r} is never a memory")
        if clause.keep and clause.subject not in KEPT_SUBJECTS:
            raise FormatError(f"{here}: kept, but subject {clause.subject!r} is never kept")
        if clause.keep and clause.subject == "third_party" and clause.category != "relationship":
            raise FormatError(f"{here}: of a third party only a 'relationship' is kept")
        if clause.keep and clause.change == "forget":
            raise FormatError(f"{here}: a forget request is never kept")
        clauses.append(clause)
        at = start + len(text)
    if not _covered_only_by_gaps(message[at:]):
        raise FormatError(f"{where}: {message[at:]!r} at the end belongs to no clause")
    return tuple(clauses)


def _memories(data: Mapping[str, Any], clauses: Sequence[Clause],
              where: str) -> tuple[MemoryLabel, ...]:
    memories: list[MemoryLabel] = []
    used: Counter[int] = Counter()
    for n, item in enumerate(_field(data, "memories", list, where)):
        here = f"{where}: memory {n}"
        if not isinstance(item, dict):
            raise FormatError(f"{here}: must be an object, got {item!r}")
        sources = _field(item, "from", list, here)
        if not sources or not all(isinstance(i, int) and 0 <= i < len(clauses)
                                  for i in sources):
            raise FormatError(f"{here}: 'from' must list clause indices 0-{len(clauses) - 1},"
                              f" got {sources!r}")
        memory = MemoryLabel(content=_field(item, "content", str, here).strip(),
                             kind=_choice(item, "kind", ("semantic", "episodic", "procedural"),
                                          here),
                             category=_choice(item, "category", MEMORY_CATEGORIES, here),
                             subject=_choice(item, "subject", KEPT_SUBJECTS, here),
                             sources=tuple(sources))
        if not memory.content:
            raise FormatError(f"{here}: 'content' is empty")
        if memory.kind != kind_of(memory.category):
            raise FormatError(f"{here}: kind {memory.kind!r} does not fit category "
                              f"{memory.category!r} (expected {kind_of(memory.category)!r})")
        made_of = [clauses[i] for i in memory.sources]
        if not all(c.keep for c in made_of):
            raise FormatError(f"{here}: made from a clause with keep false")
        if memory.category not in {c.category for c in made_of}:
            raise FormatError(f"{here}: category {memory.category!r} is none of its clauses'")
        if memory.subject not in {c.subject for c in made_of}:
            raise FormatError(f"{here}: subject {memory.subject!r} is none of its clauses'")
        used.update(memory.sources)
        memories.append(memory)
    for n, clause in enumerate(clauses):
        if clause.keep and used[n] != 1:
            raise FormatError(f"{where}: kept clause {n} is in {used[n]} memories, expected 1")
    return tuple(memories)


def parse_record(data: object, where: str) -> Record:
    """One record, checked against the guide; FormatError names what is wrong."""
    if not isinstance(data, dict):
        raise FormatError(f"{where}: a record must be a JSON object")
    record_id = _field(data, "id", str, where)
    where = f"{where} ({record_id})"
    batch = _field(data, "batch", str, where)
    if not batch or not record_id.startswith(f"{batch}-"):
        raise FormatError(f"{where}: id must start with its batch {batch!r} and '-'")
    message = _field(data, "message", str, where)
    if not message.strip():
        raise FormatError(f"{where}: 'message' is empty")
    clauses = _clauses(data, message, where)
    return Record(id=record_id, batch=batch, lang=_choice(data, "lang", LANGS, where),
                  register=_choice(data, "register", REGISTERS, where),
                  context=_field(data, "context", str, where), message=message,
                  clauses=clauses, memories=_memories(data, clauses, where))


def parse_slot_record(data: object, where: str) -> SlotRecord:
    """One slot-corpus record, checked against ``data/slots/GUIDE.md``."""
    if not isinstance(data, dict):
        raise FormatError(f"{where}: a record must be a JSON object")
    record_id = _field(data, "id", str, where)
    where = f"{where} ({record_id})"
    batch = _field(data, "batch", str, where)
    if not batch or not record_id.startswith(f"{batch}-"):
        raise FormatError(f"{where}: id must start with its batch {batch!r} and '-'")
    text = _field(data, "text", str, where)
    if not text.strip():
        raise FormatError(f"{where}: 'text' is empty")
    return SlotRecord(id=record_id, batch=batch, lang=_choice(data, "lang", LANGS, where),
                      text=text, slot=_choice(data, "slot", SLOTS, where))


def _lines(paths: Iterable[Path]) -> Iterable[tuple[str, object]]:
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                where = f"{path.name}:{n}"
                try:
                    yield where, json.loads(line)
                except json.JSONDecodeError as error:
                    raise FormatError(f"{where}: not JSON ({error.msg})") from None


def read_slot_corpus(paths: Iterable[Path]) -> list[SlotRecord]:
    """Every slot record of the files; the first problem raises FormatError."""
    records: list[SlotRecord] = []
    seen: set[str] = set()
    for where, data in _lines(paths):
        record = parse_slot_record(data, where)
        if record.id in seen:
            raise FormatError(f"{where}: id {record.id!r} used twice")
        seen.add(record.id)
        records.append(record)
    return records


def read_corpus(paths: Iterable[Path]) -> list[Record]:
    """Every record of the files, in order; the first problem raises FormatError."""
    records: list[Record] = []
    seen: dict[str, str] = {}
    for where, data in _lines(paths):
        record = parse_record(data, where)
        if record.id in seen:
            raise FormatError(f"{where}: id {record.id!r} already used at {seen[record.id]}")
        seen[record.id] = where
        records.append(record)
    return records


def check_files(paths: Iterable[Path]) -> list[str]:
    """Every problem in the files, one line each (read_corpus stops at the first)."""
    problems: list[str] = []
    seen: set[str] = set()
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            where = f"{path.name}:{n}"
            try:
                record = parse_record(json.loads(line), where)
            except json.JSONDecodeError as error:
                problems.append(f"{where}: not JSON ({error.msg})")
                continue
            except FormatError as error:
                problems.append(str(error))
                continue
            if record.id in seen:
                problems.append(f"{where}: id {record.id!r} used twice")
            seen.add(record.id)
    return problems


def summary(records: Sequence[Record]) -> dict[str, dict[str, int]]:
    clauses = [c for r in records for c in r.clauses]
    return {
        "records": {"all": len(records), "clauses": len(clauses),
                    "kept clauses": sum(c.keep for c in clauses),
                    "memories": sum(len(r.memories) for r in records)},
        "lang": dict(Counter(r.lang for r in records)),
        "register": dict(Counter(r.register for r in records)),
        "batch": dict(Counter(r.batch for r in records)),
        "category": dict(Counter(c.category for c in clauses)),
        "subject": dict(Counter(c.subject for c in clauses)),
        "change": dict(Counter(c.change for c in clauses)),
    }


def main(argv: Sequence[str] | None = None) -> int:
    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        print("usage: python -m hermes_graph.language.corpus FILE...", file=sys.stderr)
        return 2
    problems = check_files(paths)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s)")
        return 1
    print(json.dumps(summary(read_corpus(paths)), ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
