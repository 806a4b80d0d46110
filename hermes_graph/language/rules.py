"""Pattern tables: language knowledge that stays a rule, each pattern with the sentences
it must match and must not (a generated test checks every one)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class PatternRule:
    name: str
    """What a match means (a secret kind, ...)."""
    pattern: re.Pattern[str]
    examples: tuple[str, ...]
    """Sentences the pattern must find something in (at least two)."""
    counterexamples: tuple[str, ...] = ()
    """Sentences it must not."""


def rule(name: str, pattern: str, examples: Iterable[str],
         counterexamples: Iterable[str] = ()) -> PatternRule:
    return PatternRule(name=name, pattern=re.compile(pattern, re.IGNORECASE),
                       examples=tuple(examples), counterexamples=tuple(counterexamples))
