"""The extractor interface: conversation turns in, candidate memories out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from hermes_graph.config import MemoryConfig
from hermes_graph.policy.normalize import has_han
from hermes_graph.types import Candidate, Memory

Role = Literal["user", "assistant"]

MESSAGE_REF_KEY = "ref"
"""A chat message's ``additional_kwargs[MESSAGE_REF_KEY]`` (an external message id)
becomes :attr:`Turn.ref` in the graph, and so ``source_ref["refs"]`` of its memories."""


@dataclass(frozen=True, kw_only=True)
class Turn:
    """One recorded message, with where it came from (for source_ref)."""

    role: Role
    content: str
    session: str
    index: int
    at: datetime
    speaker: str | None = None
    ref: str | None = None
    """An external id of the message (e.g. a LoCoMo dia_id)."""


class Extractor(Protocol):
    """Turns the latest user turn (with earlier turns as context) into candidates.

    ``turns`` ends with the user turn to extract from; earlier turns are context
    only. Only the user's own messages may produce memories about the user.
    """

    def extract(self, turns: Sequence[Turn], *, now: datetime,
                existing: Sequence[Memory] = ()) -> list[Candidate]: ...


def source_ref(turn: Turn) -> dict[str, object]:
    ref: dict[str, object] = {"session": turn.session, "turn": turn.index,
                              "at": turn.at.isoformat()}
    if turn.ref is not None:
        ref["refs"] = [turn.ref]
    if turn.speaker is not None:
        ref["speaker"] = turn.speaker
    return ref


def too_short(content: str, config: MemoryConfig) -> bool:
    """Too short to be a memory: measured in characters, with Chinese text given its own
    threshold since one character there carries about as much as an English word."""
    limit = config.min_content_chars_cjk if has_han(content) else config.min_content_chars
    return len(content.strip()) < limit
