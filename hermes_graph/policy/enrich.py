"""Restatement merge: a fact said again in other words, with a detail added (pure).

Seed 001 §4.2 (third step): a candidate close to a memory already kept is the same fact
said again; it is merged into that memory, not added beside it. The duplicate test of
:func:`hermes_graph.policy.gate.decide` merges only a restatement that adds nothing ("乳糖
不耐受" after "我乳糖不耐受，早餐别推荐牛奶"). Users rarely repeat themselves that exactly:
"我是 vegetarian" comes back as "remind you again，vegetarian here，不吃肉也不吃鱼". Two such
statements name the same thing (a shared distinctive term) and read alike (cosine at
least ``MemoryConfig.enrich_cosine``); kept apart, the recalled block says the thing twice.

Enriching keeps one memory: the older statement, with the clauses of the new one that
carry terms it lacks ("不吃肉也不吃鱼"), the shared thing cut out of them so it is named
once. Seed 001 §5.4 warns that a merge must not lose a qualifier: nothing of the older
statement is dropped, and a clause that is mostly the shared thing plus a qualifier is
added whole. Negations and change signals never merge: "我不喝
咖啡了" after "我喜欢喝咖啡" is a conflict, decided by the conflict rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hermes_graph.config import MemoryConfig
from hermes_graph.policy import signals as sig
from hermes_graph.policy.normalize import distinctive_terms, has_han, term_stems
from hermes_graph.types import Candidate, Memory, ScoredMemory

_WORD = re.compile(r"[A-Za-z][\w'-]*")
_CLAUSE = re.compile(r"[^，。,.;；！!？?\n]+")
ENRICH_KINDS = ("semantic", "procedural")
"""What a restatement can enrich: events are distinct occurrences, never one memory (an
event about a kept fact, "老毛病了，2型糖尿病，最近空腹血糖有点高", joins the fact)."""


@dataclass(frozen=True)
class Enrichment:
    target: Memory
    content: str
    """The target's content with the restatement's new clauses added (or unchanged)."""


NOT_A_THING = frozenset({
    "prefer", "like", "love", "hate", "enjoy", "usually", "always", "never", "often", "really",
    "喜欢", "讨厌", "平时", "一般", "经常", "习惯", "偏好", "每天", "不喜", "不想", "最近"})
"""Words of liking and habit: two statements sharing only these are about two things."""
GENERIC_AMONG = 3
"""A term in this many of the candidate's neighbours names no one thing ("fact", "喜欢")."""


def _names_a_thing(term: str, texts: Sequence[str]) -> bool:
    """A Chinese term, a capitalised word ("Mateo", "Kindle"), or a longer English word
    that is not a verb or adverb form ("vegetarian", not "joined" or "really")."""
    if not term.isascii():
        return True
    capitalised = any(w[0].isupper() and w.lower().startswith(term)
                      for text in texts for w in _WORD.findall(text))
    return capitalised or (len(term) >= 5 and not term.endswith(("ed", "ing", "ly")))


def things_shared(mine: set[str], candidate: str, other: str,
                  similar: Sequence[ScoredMemory]) -> set[str]:
    """The distinctive terms two statements share that name a thing, not a habit of speech."""
    return _things_shared(mine, candidate, other,
                          [distinctive_terms(h.memory.content) for h in similar])


def _things_shared(mine: set[str], candidate: str, other: str,
                   neighbour_terms: Sequence[set[str]]) -> set[str]:
    shared = mine & distinctive_terms(other) - NOT_A_THING
    return {t for t in shared if _names_a_thing(t, (candidate, other))
            and sum(t in terms for terms in neighbour_terms) < GENERIC_AMONG}


def _without(clause: str, shared: set[str]) -> str:
    """The clause with the shared terms cut out ("my boy Mateo is obsessed with volcanoes"
    -> "my boy is obsessed with volcanoes"): the memory names the thing once."""
    # longest first, then by the term itself: overlapping bigrams ("氨氯", "氯地") cut in a
    # fixed order, not in the order a set happens to hold them in this process
    for term in sorted(shared, key=lambda t: (-len(t), t)):
        if term.isascii():
            clause = re.sub(rf"\b{re.escape(term)}\w*", "", clause, flags=re.IGNORECASE)
        else:
            clause = clause.replace(term, "")
    return " ".join(clause.split())


def novel_terms(text: str, existing: str) -> set[str]:
    """Stems of ``text`` that ``existing`` lacks. A Chinese bigram made only of characters
    ``existing`` already has ("蓮賞" of "花蓮賞鯨船" against "花蓮做賞鯨船") is no news."""
    seen = set(existing)
    return {t for t in term_stems(text) - term_stems(existing)
            if t.isascii() or not set(t) <= seen}


def clauses_of(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE.findall(text) if c.strip()]


def new_clauses(candidate: str, existing: str, shared: set[str]) -> list[str] | None:
    """The clauses of ``candidate`` that say something ``existing`` does not, each without
    the shared terms; a clause that is mostly the shared thing is left out. None when the
    whole candidate is such a clause with a qualifier: "I prefer short code examples" after
    "I prefer code examples" is another preference (seed 001 §5.4), kept apart."""
    clauses = clauses_of(candidate)
    if len(clauses) == 1 and novel_terms(clauses[0], existing):
        # one clause that mostly repeats the memory, plus something: a qualifier on it
        terms = distinctive_terms(clauses[0])
        if len(terms & distinctive_terms(existing)) * 3 >= len(terms) * 2:
            return None
    kept = []
    for clause in clauses:
        if not novel_terms(clause, existing) or sig.matches(sig.RESTATEMENT, clause) \
                or sig.matches(sig.EMOTIONAL, clause) \
                or sig.matches(sig.TO_YOU, clause):  # "remind you again": said to us
            continue
        cut = _without(clause, shared)
        left, before = len(distinctive_terms(cut)) * 2, len(distinctive_terms(clause))
        # a Chinese word cut out takes the bigrams on both its sides with it
        if (left > before or (has_han(clause) and left == before)) \
                and novel_terms(cut, existing):
            kept.append(cut)
        elif len(clauses) == 1:
            return None  # one clause, the shared thing plus a qualifier: kept apart
    return kept


def restatement_of(candidate: Candidate, similar: Sequence[ScoredMemory],
                   config: MemoryConfig, *, said_again: bool = False) -> Enrichment | None:
    """The memory ``candidate`` restates, and its enriched content; None if none.
    ``said_again``: the user said it is a restatement ("again, ..."), so no closeness
    is needed beyond the shared thing."""
    if candidate.change_signal or candidate.source == "emotional" or config.enrich_cosine <= 0:
        return None  # said in anger, it enriches no calm memory
    floor = 0.0 if said_again else config.enrich_cosine
    negated = sig.matches(sig.NEGATION, candidate.content)
    mine = distinctive_terms(candidate.content)
    neighbour_terms = [distinctive_terms(h.memory.content) for h in similar]  # once, not per hit
    for hit in similar:
        other = hit.memory
        shared = _things_shared(mine, candidate.content, other.content, neighbour_terms)
        if not ((shared or said_again) and hit.vector_score >= floor
                and other.kind in ENRICH_KINDS and other.subject == candidate.subject
                and tuple(sorted(candidate.qualifiers)) == other.qualifiers
                and sig.matches(sig.NEGATION, other.content) == negated):
            continue
        added = new_clauses(candidate.content, other.content, shared)
        if added is None:
            return None
        content = other.content
        if added and len(other.content) + sum(len(c) + 2 for c in added) \
                <= config.enrich_max_chars:
            content = "；".join([other.content, *added])
        return Enrichment(target=other, content=content)
    return None
