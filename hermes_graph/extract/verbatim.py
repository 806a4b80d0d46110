"""The verbatim extractor: every user turn is kept whole, as one episodic memory.

What a plain conversation memory does (mem0's ``infer=False``): nothing is split,
rewritten or classified, so nothing the user said is lost to an extraction rule. A
turn that tells nothing (a greeting or thanks, or only questions) is dropped with its
reason, unless ``keep_all`` (the LoCoMo benchmark's raw mode stores every turn).
A turn holding a secret or an ID number is dropped whole (it cannot be split
around it), redacted; the gate still applies. Each memory's importance is rated
from what the turn tells (policy.substance); a speaker's name in front of the
text is not rated. The LoCoMo benchmark's raw mode uses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from hermes_graph.config import MemoryConfig
from hermes_graph.extract.base import Turn, source_ref
from hermes_graph.policy import privacy, signals
from hermes_graph.policy.dates import with_absolute_dates
from hermes_graph.policy.substance import substance_importance, told_terms
from hermes_graph.types import Candidate, Memory


class VerbatimExtractor:
    """The latest user turn, whole, as one episodic event memory."""

    def __init__(self, config: MemoryConfig | None = None, *, keep_all: bool = False) -> None:
        self.config = config or MemoryConfig()
        self.keep_all = keep_all

    def extract(self, turns: Sequence[Turn], *, now: datetime,
                existing: Sequence[Memory] = ()) -> list[Candidate]:
        if not turns or turns[-1].role != "user" or not turns[-1].content.strip():
            return []
        turn = turns[-1]
        said = turn.content.removeprefix(f"{turn.speaker}:") if turn.speaker else turn.content
        drop = None
        if not self.keep_all:
            if signals.matches(signals.SMALLTALK, said.strip()):
                drop = "smalltalk"
            elif told_terms(said) == 0:
                drop = "nothing_told"  # only questions: the user asked, told nothing
        candidate = Candidate(content=with_absolute_dates(turn.content, turn.at),
                              kind="episodic", category="event", subject="user",
                              importance=substance_importance(said, self.config),
                              drop_reason=drop, source_ref=source_ref(turn))
        # the secret itself is never copied into a candidate or a trace
        return [privacy.screen_secrets(candidate,
                                       include_phone=self.config.drop_phone_numbers)]
