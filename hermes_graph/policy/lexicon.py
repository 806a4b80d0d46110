"""The lexicon matcher every signal module shares (pure).

A pattern is a case-insensitive alternation; a text is read folded to simplified Chinese
and, when it mixes scripts, also with the gaps between them closed ("我在 RMIT 读中医").
"""

from __future__ import annotations

import re

from hermes_graph.language.hanzi import script_joined, simplified


def rx(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


def readings(text: str) -> tuple[str, ...]:
    """The text as the lexicons read it: folded to simplified, and for mixed text also
    with the gaps between the scripts closed."""
    text = simplified(text)
    joined = script_joined(text)
    return (text,) if joined is None else (text, joined)


def matches(pattern: re.Pattern[str], text: str) -> bool:
    return any(pattern.search(reading) for reading in readings(text))
