"""Importance from sentence form (seed 001 §2.2: the extraction step rates how important
the information itself is, "from its meaning and its sentence form"), pure.

A remembered turn that tells several specific things ("I just signed up for a pottery
class; it's like therapy for me") is worth more later than one that only reacts or
asks ("Wow, that's great! Have you found anything like that?"). Seed 003 asks the
extractor to judge whether a message is worth keeping at all; for the memories kept
verbatim (a whole turn, an event) this module grades that judgement instead of
making it yes/no:

    importance = substance_importance_base + told_terms / substance_terms_per_point

clamped to 1..``substance_importance_max``. ``told_terms`` counts the distinct content
terms (stopwords removed) of the sentences that tell: a question asks the other
person and tells little about the speaker. A Chinese character bigram counts half a
term (two characters make about one word).
"""

from __future__ import annotations

import math
import re

from hermes_graph.config import MemoryConfig
from hermes_graph.policy.normalize import is_cjk_run, query_terms

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
_QUESTION_END = re.compile(r"[?？]\s*$")
CJK_BIGRAM_WEIGHT = 0.5


def told_sentences(text: str) -> list[str]:
    """The sentences of ``text`` that do not end in a question mark."""
    return [s for s in _SENTENCE_END.split(text.strip()) if s.strip() and not
            _QUESTION_END.search(s)]


def told_terms(text: str) -> float:
    """Distinct content terms of the telling sentences (CJK bigrams at half weight)."""
    terms = query_terms(" ".join(told_sentences(text)))
    return sum(CJK_BIGRAM_WEIGHT if is_cjk_run(t) else 1.0 for t in terms)


def substance_importance(text: str, config: MemoryConfig) -> int:
    """Importance 1..``substance_importance_max`` of a memory kept in the speaker's words."""
    raw = config.substance_importance_base + told_terms(text) / config.substance_terms_per_point
    return max(1, min(config.substance_importance_max, math.floor(raw + 0.5)))
