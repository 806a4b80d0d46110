"""Test doubles for graph tests: a chat model that records what it was shown."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult


class RecordingChatModel(GenericFakeChatModel):
    """Answers "ok" forever and keeps every message list it was called with."""

    seen: list[list[BaseMessage]] = []  # noqa: RUF012 (a pydantic field, reset per instance)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(messages=iter(()), **kwargs)
        self.seen = []

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None,
                  **kwargs: Any) -> ChatResult:
        self.seen.append(list(messages))
        self.messages = iter([AIMessage(content="ok")])
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


class StructuredChatModel(GenericFakeChatModel):
    """A chat model that supports ``with_structured_output`` by returning fixed data
    (a stand-in for a provider's tool-calling endpoint)."""

    def __init__(self, payload: object, **kwargs: Any) -> None:
        super().__init__(messages=iter(()), **kwargs)
        self._payload = payload

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:
        from langchain_core.runnables import RunnableLambda

        payload = self._payload

        def answer(_: object) -> object:
            if isinstance(payload, Exception):
                raise payload
            return schema.model_validate(payload)

        return RunnableLambda(answer)
