"""Sentences and clauses: how the rule extractor cuts a message, and the few signals
that read a clause in the light of its neighbours (pure).

A message is cut into sentences ("Dr. Okafor" stays one) and each sentence into clauses
at commas, dashes and "and I / but my"; a comma inside brackets or in "$1,200" never
cuts. Clauses are joined back with the glue of their script.
"""

from __future__ import annotations

import re

from hermes_graph.policy.normalize import has_han

_SENTENCE_END = re.compile(r"(?<=[。！？；\n])|(?<=[.;!?])\s+")  # "TL;DR", "Qz!88@host" stay whole
_ABBREVIATION = re.compile(r"\b(dr|mr|mrs|ms|prof|st|mt|jr|sr|vs|etc|e\.g|i\.e|no)\.$",
                           re.IGNORECASE)
_CLAUSE_SEP = re.compile(  # "$1,200" keeps its comma, "my greyhound, Pancake." its name
    r"[，]\s*|\s+[—–]\s*|\s+--?\s+|(?:(?<!\d),|,(?!\d))(?!\s*(?-i:[A-Z])[a-z]+\s*[.!?]?\s*$)\s*|"
    r"\s+(?:and|but|so)\s+(?=I\b|I'm\b|my\b|we\b)", re.IGNORECASE)


def split_sentences(text: str) -> list[str]:
    sentences: list[str] = []
    for part in (s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()):
        if sentences and _ABBREVIATION.search(sentences[-1]):
            sentences[-1] = f"{sentences[-1]} {part}"  # "Dr. Okafor" is one sentence
        else:
            sentences.append(part)
    return sentences


_PARENS = re.compile(r"\([^()]*\)|（[^（）]*）")


def split_clauses(sentence: str) -> list[str]:
    # a comma inside brackets never splits: "the twins (Maya and Leo, 18 months) ..."
    guarded = _PARENS.sub(lambda m: m.group().replace(",", "\x00").replace("，", "\x01"), sentence)
    return [c.strip(" 。.!！?？;；").replace("\x00", ",").replace("\x01", "，")
            for c in _CLAUSE_SEP.split(guarded) if c and c.strip()]


def bare(clause: str) -> bool:
    """A statement too short to stand alone ("I'm pretty allergic", "受不了")."""
    return len(clause) <= 3 if has_han(clause) else len(clause.split()) <= 4


def join(clauses: list[str]) -> str:
    glue = "，" if any(has_han(c) for c in clauses) else ", "
    return glue.join(clauses)


RULE_CONDITION = re.compile(
    r"^(如果|假如|当|每当|只要|要是|凡是|if|when|whenever|every time|anytime)", re.IGNORECASE)
"""A clause naming when a rule applies ("如果我问代码问题，请用英文回答") stays with it."""
WEAK_CHANGE = re.compile(r"原来|其实|\bactually\b|\bafter all\b|\bturns out\b", re.IGNORECASE)
"""Words that mark a change only beside a change verb: "原来在口袋里" states no new value.
"现在" / "now" do state how things stand now ("现在所有 task 都在 Notion 里")."""
LASTING_RULE = re.compile(r"以后|今后|往后|每次|一律|永远|始终|\balways\b|\bfrom now on\b|"
                          r"\bevery time\b|\bwhenever\b|\bgoing forward\b|\bin (the )?future\b",
                          re.IGNORECASE)
"""A rule said with "today" is for today, unless it says it lasts."""
MONTH_AHEAD = re.compile(r"下个月|下下个月|月底|\bnext month\b|\bend of the month\b", re.IGNORECASE)
"""A trip next month is planned, not a one-off like a trip tomorrow ("下个月去关西")."""
