"""Reading LoCoMo (``locomo10.json``) into conversations, sessions and questions.

Schema in brief: a list of samples, each with ``sample_id``, ``conversation``
(``speaker_a``, ``speaker_b``, ``session_N_date_time``, ``session_N`` = turns
``{speaker, dia_id, text, optional blip_caption}``) and ``qa`` (``{question,
answer, evidence: [dia_id, ...], category}``). Categories 1-4 are used
(5 is adversarial, unanswerable). A few evidence ids are malformed: obvious
ones are repaired ("D8:6; D9:17" -> two ids, "D:11:26" -> "D11:26", "D30:05"
-> "D30:5"); ids that name no turn are dropped; a question left without
evidence is skipped. Everything is counted in :class:`EvidenceAudit`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from hermes_graph.errors import FormatError
from hermes_graph.eval.scenarios import TURN_GAP, RecordedTurn, Session

CATEGORY_NAMES: Mapping[int, str] = {4: "single-hop", 1: "multi-hop", 2: "temporal",
                                     3: "open-domain"}
"""LoCoMo's category numbers (as in the file and the dataset's own eval code)."""
CATEGORY_ORDER: tuple[str, ...] = ("single-hop", "multi-hop", "temporal", "open-domain")
DATE_FORMAT = "%I:%M %p on %d %B, %Y"
"""``session_N_date_time``, e.g. "1:56 pm on 8 May, 2023" (read as UTC)."""

_SESSION = re.compile(r"session_(\d+)")
_EVIDENCE_SPLIT = re.compile(r"[;,\s]+")
_EVIDENCE_ID = re.compile(r"D:?(\d+):(\d+)")


@dataclass(frozen=True, kw_only=True)
class LocomoTurn:
    dia_id: str
    speaker: str
    content: str
    """``"Speaker: text"``, with an image turn's caption appended as ``[shares ...]``."""
    session: int
    session_date: str
    """The session's date as written in the file (for the BM25 documents)."""
    at: datetime


@dataclass(frozen=True, kw_only=True)
class LocomoQuestion:
    sample_id: str
    number: int
    """Position in the sample's ``qa`` list."""
    category: str
    """One of :data:`CATEGORY_ORDER`."""
    question: str
    answer: str
    evidence: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    turns: tuple[LocomoTurn, ...]
    questions: tuple[LocomoQuestion, ...]
    """Questions of categories 1-4 with usable evidence."""

    @property
    def scope(self) -> str:
        return f"locomo-{self.sample_id}"

    @property
    def last_at(self) -> datetime:
        return max(t.at for t in self.turns)


@dataclass
class EvidenceAudit:
    """What was done to the evidence ids of the category 1-4 questions."""

    questions: int = 0
    """Category 1-4 questions read."""
    skipped: int = 0
    """Questions without any usable evidence id (not scored)."""
    repaired_ids: int = 0
    dropped_ids: int = 0
    dropped: list[str] = field(default_factory=list)
    """``sample_id:id`` of every dropped id, for the report."""


@dataclass(frozen=True, kw_only=True)
class LocomoData:
    conversations: tuple[Conversation, ...]
    audit: EvidenceAudit


def parse_session_date(text: str, where: str = "session date") -> datetime:
    """ "1:56 pm on 8 May, 2023" -> 2023-05-08T13:56:00+00:00."""
    try:
        return datetime.strptime(text.strip(), DATE_FORMAT).replace(tzinfo=timezone.utc)
    except ValueError:
        raise FormatError(f"{where}: {text!r} is not a date like '1:56 pm on 8 May, 2023'"
                          ) from None


def turn_content(turn: Mapping[str, Any]) -> str:
    content = f"{turn['speaker']}: {turn['text']}"
    caption = turn.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        content += f" [shares {caption.strip()}]"
    return content


def repair_evidence(raw: Sequence[object], known: set[str],
                    audit: EvidenceAudit, sample_id: str) -> tuple[str, ...]:
    """Usable evidence ids of one question, in order, without repeats."""
    usable: list[str] = []
    for entry in raw:
        parts = [p for p in _EVIDENCE_SPLIT.split(str(entry)) if p]
        for part in parts:
            match = _EVIDENCE_ID.fullmatch(part)
            fixed = f"D{int(match[1])}:{int(match[2])}" if match else None
            if fixed is None or fixed not in known:
                audit.dropped_ids += 1
                audit.dropped.append(f"{sample_id}:{part}")
                continue
            if fixed != entry:
                audit.repaired_ids += 1
            if fixed not in usable:
                usable.append(fixed)
    return tuple(usable)


def _turns(conversation: Mapping[str, Any], where: str) -> list[LocomoTurn]:
    numbers = sorted(int(m[1]) for key in conversation if (m := _SESSION.fullmatch(key)))
    turns: list[LocomoTurn] = []
    for number in numbers:
        key = f"session_{number}"
        date_key = f"{key}_date_time"
        if not isinstance(conversation.get(date_key), str):
            raise FormatError(f"{where}: {key} has no {date_key}")
        start = parse_session_date(conversation[date_key], f"{where}.{date_key}")
        raw_turns = conversation[key]
        if not isinstance(raw_turns, list):
            raise FormatError(f"{where}.{key} must be a list of turns")
        for index, raw in enumerate(raw_turns):
            tw = f"{where}.{key}[{index}]"
            if not isinstance(raw, dict) or not all(
                    isinstance(raw.get(k), str) for k in ("speaker", "dia_id", "text")):
                raise FormatError(f"{tw}: a turn needs string speaker, dia_id and text")
            turns.append(LocomoTurn(dia_id=raw["dia_id"], speaker=raw["speaker"],
                                    content=turn_content(raw), session=number,
                                    session_date=conversation[date_key],
                                    at=start + index * TURN_GAP))
    return turns


def _conversation(sample: Any, n: int, audit: EvidenceAudit) -> Conversation:
    where = f"sample[{n}]"
    if not isinstance(sample, dict) or not isinstance(sample.get("conversation"), dict) \
            or not isinstance(sample.get("qa"), list):
        raise FormatError(f"{where}: expected an object with 'conversation' and 'qa'")
    sample_id = str(sample.get("sample_id") or f"sample-{n}")
    conversation = sample["conversation"]
    turns = _turns(conversation, where)
    known = {t.dia_id for t in turns}
    questions: list[LocomoQuestion] = []
    for number, qa in enumerate(sample["qa"]):
        number_of = qa.get("category") if isinstance(qa, dict) else None
        category = CATEGORY_NAMES.get(number_of) if isinstance(number_of, int) else None
        if category is None:
            continue  # adversarial (5) or not a question
        audit.questions += 1
        evidence = repair_evidence(qa.get("evidence") or [], known, audit, sample_id)
        if not evidence or not isinstance(qa.get("question"), str):
            audit.skipped += 1
            continue
        questions.append(LocomoQuestion(sample_id=sample_id, number=number, category=category,
                                        question=qa["question"], answer=str(qa.get("answer")),
                                        evidence=evidence))
    speakers = (str(conversation.get("speaker_a", "")), str(conversation.get("speaker_b", "")))
    return Conversation(sample_id=sample_id, speakers=speakers, turns=tuple(turns),
                        questions=tuple(questions))


def load_locomo(path: str | Path, *, limit_conversations: int | None = None,
                positions: Sequence[int] | None = None) -> LocomoData:
    """Read the file strictly; a bad shape raises :class:`FormatError` naming where.

    ``positions`` keeps only those positions of the file's list (0-based), e.g. a
    dev split to tune on and a held-out split to report; ``limit_conversations`` then
    keeps the first N of what is left."""
    try:
        with open(path, encoding="utf-8") as handle:
            raw = json.load(handle)
    except json.JSONDecodeError as exc:
        raise FormatError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(raw, list) or not raw:
        raise FormatError(f"{path}: expected a non-empty JSON list of LoCoMo samples")
    if positions is not None:
        bad = [n for n in positions if not 0 <= n < len(raw)]
        if bad:
            raise FormatError(f"{path}: no conversation at position(s) {bad}; "
                              f"the file holds {len(raw)} (0-{len(raw) - 1})")
        raw = [raw[n] for n in sorted(set(positions))]
    if limit_conversations is not None:
        raw = raw[:limit_conversations]
    audit = EvidenceAudit()
    conversations = tuple(_conversation(s, n, audit) for n, s in enumerate(raw))
    return LocomoData(conversations=conversations, audit=audit)


def sessions_of(conversation: Conversation) -> list[Session]:
    """The conversation as recorded sessions: both speakers are people, so every turn
    is a user message (speaker = the speaker's name, ref = the dia_id)."""
    by_session: dict[int, list[RecordedTurn]] = {}
    for turn in conversation.turns:
        by_session.setdefault(turn.session, []).append(RecordedTurn(
            role="user", content=turn.content, at=turn.at, speaker=turn.speaker,
            ref=turn.dia_id))
    return [Session(id=f"session_{n}", scope=conversation.scope, turns=tuple(turns))
            for n, turns in sorted(by_session.items())]
