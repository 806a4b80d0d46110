"""The LLM extractor: any langchain-core chat model, JSON facts validated strictly.

Broken or non-JSON output is bad input: it raises :class:`ExtractionError`,
the extract node logs it and keeps nothing from that turn, and the turn goes on.
``ChatOpenAI`` with ``base_url`` covers OpenAI-compatible endpoints (DeepSeek,
Qwen, vLLM, Ollama): see :func:`chat_model_from_env`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field, ValidationError

from hermes_graph.config import MemoryConfig
from hermes_graph.errors import ExtractionError
from hermes_graph.extract.base import Turn, source_ref, too_short
from hermes_graph.extract.prompts import CATCH_UP_PROMPT, EXTRACTION_PROMPT
from hermes_graph.policy import privacy, signals
from hermes_graph.policy.slots import slot_of
from hermes_graph.types import CATEGORIES, KIND_OF_CATEGORY, KINDS, SOURCES, Candidate, Memory

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)


def chat_model_from_env() -> BaseChatModel | None:
    """A ``ChatOpenAI`` from HERMES_LLM_BASE_URL / HERMES_LLM_MODEL / HERMES_LLM_API_KEY
    (falling back to OPENAI_*); None when no endpoint is configured."""
    base_url = os.environ.get("HERMES_LLM_BASE_URL") or os.environ.get("OPENAI_BASE_URL")
    api_key = os.environ.get("HERMES_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY")
    if not base_url and not api_key:
        return None
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(model=os.environ.get("HERMES_LLM_MODEL", "gpt-4o-mini"),
                      base_url=base_url, api_key=api_key or "not-needed",  # type: ignore[arg-type]
                      temperature=0)


class ExtractedMemory(BaseModel):
    """One fact, as the structured-output schema the chat model fills in."""

    content: str
    kind: str = "semantic"
    category: str = "fact"
    subject: str = "user"
    importance: int = 5
    confidence: float = 0.8
    source: str = "explicit"
    change: bool = False
    forget: bool = False
    replaces: int | None = None


class ExtractionResult(BaseModel):
    memories: list[ExtractedMemory] = Field(default_factory=list)


def parse_memories(text: str | Mapping[str, Any]) -> list[dict[str, Any]]:
    """Strict check of the model's answer (JSON text, or structured output as a dict);
    raises ExtractionError naming the problem."""
    if isinstance(text, Mapping):
        data: Any = dict(text)
    else:
        body = _FENCE.sub("", text.strip())
        try:
            data = json.loads(body)
        except json.JSONDecodeError as exc:
            raise ExtractionError(
                f"LLM output is not JSON ({exc.msg} at char {exc.pos})") from None
    items = data.get("memories") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ExtractionError("LLM output must be {\"memories\": [...]} or a JSON list")
    for n, item in enumerate(items):
        if not isinstance(item, dict):
            raise ExtractionError(f"memory {n} is not an object")
        content = item.get("content")
        if not isinstance(content, str) or not content.strip():
            raise ExtractionError(f"memory {n} has no content")
        for key, allowed in (("kind", KINDS), ("category", CATEGORIES), ("source", SOURCES)):
            if key in item and item[key] not in allowed:
                raise ExtractionError(f"memory {n}: {key} {item[key]!r} not in {list(allowed)}")
        importance = item.get("importance", 5)
        confidence = item.get("confidence", 0.8)
        if isinstance(importance, bool) or not isinstance(importance, int | float) or not (
                1 <= importance <= 10):
            raise ExtractionError(f"memory {n}: importance {importance!r} not in 1-10")
        if isinstance(confidence, bool) or not isinstance(confidence, int | float) or not (
                0 <= confidence <= 1):
            raise ExtractionError(f"memory {n}: confidence {confidence!r} not in 0-1")
    return items


class LLMExtractor:
    """Extract with a chat model; the model sees existing memories as short handles."""

    uses_existing = True
    """The extract node hands it the scope's nearest memories as numbered handles."""

    def __init__(self, model: BaseChatModel, *, config: MemoryConfig | None = None,
                 prompt: str = EXTRACTION_PROMPT,
                 catch_up_prompt: str = CATCH_UP_PROMPT, structured: bool = True) -> None:
        self.model = model
        self.structured = structured
        """Use ``with_structured_output`` (falls back to JSON text if unsupported)."""
        self.config = config or MemoryConfig()
        self.prompt = prompt
        self.catch_up_prompt = catch_up_prompt

    def render(self, turns: Sequence[Turn], now: datetime, existing: Sequence[Memory]) -> str:
        handles = "\n".join(f"[{n}] {m.content}" for n, m in enumerate(existing, 1))
        conversation = "\n".join(f"{t.role.upper()}: {t.content}" for t in turns)
        return self.prompt.format(today=now.date().isoformat(), existing=handles or "(none)",
                                  conversation=conversation)

    def _ask(self, prompt: str) -> list[dict[str, Any]]:
        """Structured output when the model supports it, JSON text otherwise."""
        if self.structured:
            try:
                runnable = self.model.with_structured_output(ExtractionResult)
            except (NotImplementedError, AttributeError):
                self.structured = False  # e.g. a model without tool calling
            else:
                try:
                    result = runnable.invoke(prompt)
                except (OutputParserException, ValidationError, ValueError) as exc:
                    raise ExtractionError(f"LLM structured output rejected: {exc}") from None
                data = result.model_dump() if isinstance(result, BaseModel) else result
                if not isinstance(data, Mapping):
                    raise ExtractionError(f"LLM structured output is not an object: {data!r}")
                return parse_memories(data)
        answer = self.model.invoke(prompt)
        text = answer.content if isinstance(answer.content, str) else json.dumps(answer.content)
        return parse_memories(text)

    def extract(self, turns: Sequence[Turn], *, now: datetime,
                existing: Sequence[Memory] = ()) -> list[Candidate]:
        if not turns or turns[-1].role != "user":
            return []
        items = self._ask(self.render(turns, now, existing))
        return [self._candidate(item, turns[-1], existing) for item in items]

    def catch_up(self, turns: Sequence[Turn], *, now: datetime) -> list[Candidate]:
        """Session-end pass over the whole transcript (the gate drops what is known)."""
        users = [t for t in turns if t.role == "user"]
        if not users:
            return []
        conversation = "\n".join(f"{t.role.upper()}: {t.content}" for t in turns)
        prompt = self.catch_up_prompt.format(today=now.date().isoformat(), existing="(none)",
                                             conversation=conversation)
        return [self._candidate(item, users[-1], ()) for item in self._ask(prompt)]

    def _candidate(self, item: dict[str, Any], turn: Turn,
                   existing: Sequence[Memory]) -> Candidate:
        content = str(item["content"]).strip()
        category = item.get("category", "fact")
        kind = item.get("kind") or KIND_OF_CATEGORY[category]
        subject = str(item.get("subject") or "user")
        drop = None
        secrets = privacy.secret_kinds(content, include_phone=self.config.drop_phone_numbers)
        if secrets:
            drop, content = f"secret:{'+'.join(secrets)}", "[redacted]"
        elif too_short(content, self.config):
            drop = "too_short"
        handle = item.get("replaces")
        ref = {**source_ref(turn)}
        if isinstance(handle, int) and 1 <= handle <= len(existing):
            ref["replaces"] = existing[handle - 1].id  # the handle maps back to a real id
        return Candidate(
            content=content, kind=kind, category=category, subject=subject,
            importance=int(item.get("importance", 5)),
            confidence=float(item.get("confidence", 0.8)),
            source=item.get("source", "explicit"),
            slot=slot_of(content) if subject == "user" else None,
            change_signal=bool(item.get("change", False)), forget=bool(item.get("forget", False)),
            negation=bool(item.get("change", False)) and signals.matches(signals.NEGATION, content),
            drop_reason=drop, source_ref=ref)
