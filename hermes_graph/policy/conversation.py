"""Read-path policy (pure): a memory's place in the conversation it came from.

Two signals that a memory's own words do not carry:

- **Subject match** (seed 000's ``subject`` field, "for exact matching"). A memory
  said by a person is about that person: when the query names the speaker of a
  memory ("What did Caroline research?"), that memory's relevance is raised by
  ``subject_match_boost``. Names are matched whole-word, case-insensitively; a
  CJK name as a substring. Memories without a recorded speaker are unaffected.
- **Reply carry.** A raw turn is often the answer to the one before it ("Can I get
  the recipe?" / "Sure, I'll write it down and mail it"): it shares no words with a
  question about the recipe, but follows a memory that does. The memories said in
  the next ``reply_carry_turns`` turns of the same session inherit
  ``reply_carry ** step`` of a hit's relevance when that is more than their own.
  The turn just before a hit inherits ``reply_carry_back`` of it: a hit is often a
  reply that echoes what was just said ("How was the museum?" after "I took the kids
  to the museum yesterday"), and the turn before holds the fact.
- **Subject-free query.** Once the subject match has found who the query is about,
  the name has done its work: left in the text that is embedded, it pulls every
  memory that person said towards the query, whatever its topic. The query's vector
  is taken from the text without the named speakers' names (``without_speakers``),
  so similarity measures what is asked about; the subject match still ranks that
  person's memories first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hermes_graph.config import MemoryConfig
from hermes_graph.types import Memory

_CJK = re.compile(r"[\u3400-\u9fff\uac00-\ud7af\u3040-\u30ff]")
MIN_NAME_CHARS = 2
"""Shorter name parts (initials) never count as naming a speaker."""


def speaker_of(memory: Memory) -> str | None:
    """Who said the message a memory came from (its source reference), if recorded."""
    speaker = memory.source_ref.get("speaker")
    return speaker.strip() or None if isinstance(speaker, str) else None


def _name_parts(speaker: str) -> list[str]:
    parts = [speaker, *speaker.split()]
    return [p for p in dict.fromkeys(parts) if len(p) >= MIN_NAME_CHARS]


def names_speaker(query: str, speaker: str) -> bool:
    """Does the query name this speaker (their full name or one of its words)?"""
    for part in _name_parts(speaker):
        if _CJK.search(part):
            if part in query:
                return True
        elif re.search(rf"(?<!\w){re.escape(part)}(?!\w)", query, re.IGNORECASE):
            return True
    return False


def named_speakers(query: str, speakers: Iterable[str]) -> frozenset[str]:
    """The speakers among ``speakers`` that the query names."""
    return frozenset(s for s in set(speakers) if names_speaker(query, s))


def without_speakers(query: str, named: Iterable[str]) -> str:
    """The query with the named speakers' names (and an English possessive 's) removed;
    empty when nothing else is left."""
    text = query
    for speaker in named:
        for part in sorted(_name_parts(speaker), key=len, reverse=True):
            if _CJK.search(part):
                text = text.replace(part, " ")
            else:
                text = re.sub(rf"(?<!\w){re.escape(part)}(?:['’]s)?(?!\w)", " ", text,
                              flags=re.IGNORECASE)
    text = re.sub(r"\s+([?？!！.,，。])", r"\1", re.sub(r"\s+", " ", text)).strip()
    return "" if not re.search(r"\w", text) else text


def subject_factor(memory: Memory, named: frozenset[str], config: MemoryConfig) -> float:
    """1 + ``subject_match_boost`` for a memory said by a speaker the query names, else 1."""
    if not named:
        return 1.0
    return 1.0 + config.subject_match_boost if speaker_of(memory) in named else 1.0


def carried_relevance(relevance: float, step: int, config: MemoryConfig) -> float:
    """The relevance a memory ``step`` turns after a hit (before it, when negative)
    inherits from it."""
    share = config.reply_carry ** step if step > 0 else config.reply_carry_back ** -step
    return max(0.0, relevance) * share
