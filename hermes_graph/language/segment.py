"""How a message is cut into sentences and clauses (pure).

A message is cut into sentences at sentence marks and line breaks, and each sentence into
clauses at commas, dashes, tildes and the spaces Chinese chat uses as commas. A comma
between digits ("$1,200") or inside brackets never cuts, nor does a full stop after an
abbreviation ("Dr. Okafor") or inside a number. Every clause keeps its place in the
message, so a labelled span can be matched to the clause the extractor sees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HAN = r"\u3400-\u9fff\uf900-\ufaff"
_SENTENCE_MARK = re.compile(
    r"[。！？；!?;\n]+[\"'”’）)]*|(?<!\.)\.(?=\s|$)|…+|\.{3,}")
_ABBREVIATION = re.compile(r"\b(dr|mr|mrs|ms|prof|st|mt|jr|sr|vs|etc|e\.g|i\.e|no|approx)\.$",
                           re.IGNORECASE)
_CLAUSE_MARK = re.compile(
    rf"[，～~]+|(?<!\d),|,(?!\d)|\s+[—–-]{{1,2}}\s+|—+|(?<=[{_HAN}])\s+(?=[{_HAN}])"
    # "I teach chemistry in Glasgow and I've got 60 papers to mark": a new statement
    r"|\s+(?:and|but|so)\s+(?=(?:I|I'm|I've|I'd|my|we|we're)\b)")
_BRACKETS = re.compile(r"\([^()]*\)|（[^（）]*）|“[^“”]*”|\"[^\"]*\"")
_HAN_CHAR = re.compile(rf"[{_HAN}]")
_CONTENT = re.compile(r"[^\W_]", re.UNICODE)
_EDGE = " \t\r\n.,;:!?，。；：！？、~～…-—–"


@dataclass(frozen=True, kw_only=True)
class Segment:
    """One clause of a message."""

    text: str
    start: int
    end: int
    sentence: int
    """Index of the sentence it belongs to."""
    mark: str
    """The sentence mark that ends its sentence when it is the sentence's last clause
    ("?", "!", "." ...), else ""."""


def _pieces(text: str, marks: re.Pattern[str], start: int, end: int,
            guard: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """Spans of ``text[start:end]`` between the marks, each with the mark after it; a mark
    inside a guarded span (brackets, quotes) does not cut."""
    out: list[tuple[int, int, str]] = []
    at = start
    for match in marks.finditer(text, start, end):
        if any(a < match.start() < b for a, b in guard):
            continue
        if marks is _SENTENCE_MARK and match.group().startswith(".") \
                and _ABBREVIATION.search(text[at:match.end()]):
            continue
        out.append((at, match.start(), match.group().strip()))
        at = match.end()
    out.append((at, end, ""))
    return out


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in _EDGE:
        start += 1
    while end > start and text[end - 1] in _EDGE:
        end -= 1
    return start, end


def _too_short(text: str) -> bool:
    """A lead-in too short to say anything alone ("Also", "Actually", "嗯", "btw"): it is read
    with the clause after it."""
    words = text.split()
    return len(words) <= 1 and len(text) <= (2 if _HAN_CHAR.search(text) else 12)


def segments(message: str) -> list[Segment]:
    """The clauses of ``message`` in order; pieces with no letter or digit are left out."""
    guard = [(m.start(), m.end()) for m in _BRACKETS.finditer(message)]
    out: list[Segment] = []
    sentence = 0
    for s_start, s_end, mark in _pieces(message, _SENTENCE_MARK, 0, len(message), guard):
        found = False
        clauses = _pieces(message, _CLAUSE_MARK, s_start, s_end, guard)
        lead: int | None = None
        for n, (c_start, c_end, _) in enumerate(clauses):
            start, end = _trimmed(message, c_start, c_end)
            if not _CONTENT.search(message[start:end]):
                continue
            if lead is not None:
                start, lead = lead, None
            if n < len(clauses) - 1 and _too_short(message[start:end]):
                lead = start
                continue
            out.append(Segment(text=message[start:end], start=start, end=end,
                               sentence=sentence,
                               mark=mark[:1] if n == len(clauses) - 1 else ""))
            found = True
        sentence += found
    return out


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, each with its clauses as written."""
    parts = segments(text)
    return [text[min(p.start for p in parts if p.sentence == s):
                 max(p.end for p in parts if p.sentence == s)]
            for s in sorted({p.sentence for p in parts})]


def whole(text: str) -> Segment:
    """All of ``text`` as one clause (a memory's content, a slot statement)."""
    return Segment(text=text, start=0, end=len(text), sentence=0, mark="")
