"""What the extraction model reads of a clause (pure).

Lexical features are hashed into a fixed number of buckets: the clause's words and word
pairs (Latin script), its character n-grams (any script, so Chinese needs no word
segmenter), the words of the clauses beside it, and a few shape marks (the sentence mark
after it, its place in the message, whether the assistant just asked something). Each
group is scaled to unit length, so a long clause does not outweigh a short one. The
dense part is the embedder's vectors of the clause, its message and the assistant turn
before it, computed by the caller.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from hermes_graph.language.hanzi import simplified
from hermes_graph.language.segment import Segment

_LATIN_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_HAN_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_SPACES = re.compile(r"\s+")


FEATURES_VERSION = 3
"""Changes whenever a message is cut or a clause is read differently (``segment``,
:func:`clause_groups`): a model trained on other features is refused
(``language.model.read_model``)."""


@dataclass(frozen=True, kw_only=True)
class FeatureSpec:
    """How lexical features are hashed; stored with the model that was trained on it."""

    buckets: int = 1 << 15
    char_min: int = 1
    char_max: int = 4
    length_step: int = 4
    """Clause length is marked in steps of this many words (Latin) or characters / 3 (Han)."""


def normalized(text: str) -> str:
    """Case-folded, full-width folded, traditional characters folded to simplified."""
    return _SPACES.sub(" ", simplified(unicodedata.normalize("NFKC", text)).casefold()).strip()


def _words(text: str) -> list[str]:
    return _LATIN_WORD.findall(text)


def _han_pairs(text: str) -> list[str]:
    return [run[i:i + 2] for run in _HAN_RUN.findall(text) for i in range(max(1, len(run) - 1))]


def _char_grams(text: str, spec: FeatureSpec) -> list[str]:
    padded = f"\x02{text}\x03"
    return [padded[i:i + n] for n in range(spec.char_min, spec.char_max + 1)
            for i in range(len(padded) - n + 1)
            if n > 1 or _HAN_RUN.match(padded[i])]  # single characters only for Han


def _length_mark(text: str, spec: FeatureSpec) -> str:
    size = len(_words(text)) + sum(len(r) for r in _HAN_RUN.findall(text)) // 3
    return f"len:{min(size // spec.length_step, 6)}"


def clause_groups(clauses: Sequence[Segment], index: int, *, context: str,
                  spec: FeatureSpec) -> list[list[str]]:
    """The named lexical feature groups of clause ``index`` of a message."""
    text = normalized(clauses[index].text)
    words = _words(text)
    own = [f"w:{w}" for w in words] + [f"b:{a}_{b}" for a, b in pairwise(words)]
    beside: list[str] = []
    for tag, n in (("p", index - 1), ("n", index + 1)):
        if 0 <= n < len(clauses):
            near = normalized(clauses[n].text)
            beside += [f"{tag}:{w}" for w in _words(near)]
            beside += [f"{tag}:{p}" for p in _han_pairs(near)]
    shape = [f"mark:{clauses[index].mark or '-'}", _length_mark(text, spec),
             "pos:first" if index == 0 else "pos:later",
             "pos:last" if index == len(clauses) - 1 else "pos:more",
             f"sentence:{min(clauses[index].sentence, 3)}",
             "ctx:ask" if context.rstrip().endswith(("?", "？")) else
             ("ctx:say" if context.strip() else "ctx:none"),
             f"count:{min(len(clauses), 6)}"]
    if any(c.isdigit() for c in text):
        shape.append("digit")
    # who a clause is about and what it does is mostly said at its start ("my coworker…",
    # "我们组…", "if I…", "forget…"): its opening words and characters count on their own
    start = [f"s:{w}" for w in words[:1]] + [f"s:{'_'.join(words[:2])}"] if words else []
    start += [f"s:{text[:n]}" for n in range(1, spec.char_max + 1) if len(text) >= n]
    return [own, [f"c:{g}" for g in _char_grams(text, spec)], beside, shape, start]


def hashed(groups: Sequence[Sequence[str]], spec: FeatureSpec,
           ) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    """Bucket indices and values of the feature groups, each group of unit length."""
    counts: dict[int, float] = {}
    for group in groups:
        if not group:
            continue
        weight = 1.0 / float(np.sqrt(len(group)))
        for feature in group:
            bucket = zlib.crc32(feature.encode("utf-8")) % spec.buckets
            counts[bucket] = counts.get(bucket, 0.0) + weight
    index = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
    values = np.fromiter(counts.values(), dtype=np.float32, count=len(counts))
    return index, values


def lexical(clauses: Sequence[Segment], *, context: str, spec: FeatureSpec,
            ) -> list[tuple[NDArray[np.int64], NDArray[np.float32]]]:
    """Hashed lexical features of every clause of a message."""
    return [hashed(clause_groups(clauses, n, context=context, spec=spec), spec)
            for n in range(len(clauses))]
