"""Optional LLM step (``--llm``): answer each question from the injected memory block,
then let the same model judge the answer against the gold one.

The prompts are module constants (override them by passing others).
"""

from __future__ import annotations

import logging
import statistics
import sys
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from tqdm import tqdm

from hermes_graph.bench.locomo import QuestionOutcome
from hermes_graph.bench.locomo_data import CATEGORY_ORDER

log = logging.getLogger(__name__)

ANSWER_PROMPT = """You are answering a question about a long conversation between two people.
All you know about it is the remembered context below (it may be incomplete).
The question is asked on {today}.

{block}

Question: {question}
Answer in a few words. If the remembered context does not contain the answer, say "unknown"."""

JUDGE_PROMPT = """Grade an answer to a question about a conversation.

Question: {question}
Gold answer: {gold}
Given answer: {answer}

The given answer is CORRECT if it means the same as the gold answer or contains it (for
dates, the same day, month or period the gold answer names; wording may differ). It is
WRONG if it is different, incomplete on the main point, or "unknown".
Reply with exactly one word: CORRECT or WRONG."""

NO_ENDPOINT_NOTE = ("--llm: no OpenAI-compatible endpoint is configured (set HERMES_LLM_BASE_URL"
                    " and HERMES_LLM_MODEL, and HERMES_LLM_API_KEY if needed; OPENAI_* also "
                    "work); skipping the LLM answer/judge step.")


def _text(answer: Any) -> str:
    content = getattr(answer, "content", answer)
    return content if isinstance(content, str) else str(content)


def is_correct(verdict: str) -> bool:
    words = verdict.strip().upper().split()
    return bool(words) and words[0].strip(".:*\"'") == "CORRECT"


def judge_outcomes(model: BaseChatModel, outcomes: Sequence[QuestionOutcome], *,
                   progress: bool = True, answer_prompt: str = ANSWER_PROMPT,
                   judge_prompt: str = JUDGE_PROMPT) -> dict[str, Any]:
    """LLM-judge accuracy per category and overall; a failed call counts as an error."""
    verdicts: dict[str, list[bool]] = {name: [] for name in CATEGORY_ORDER}
    errors = 0
    for outcome in tqdm(outcomes, desc="llm judge", unit="question", file=sys.stderr,
                        disable=not progress):
        q = outcome.question
        try:
            answer = _text(model.invoke(answer_prompt.format(
                today=outcome.asked_at.date().isoformat(),
                block=outcome.block or "(nothing remembered)", question=q.question)))
            verdict = _text(model.invoke(judge_prompt.format(
                question=q.question, gold=q.answer, answer=answer.strip())))
        except Exception as exc:  # an endpoint failure must not lose the other questions
            log.warning("llm judge: question %s/%d failed: %s", q.sample_id, q.number, exc)
            errors += 1
            continue
        verdicts[q.category].append(is_correct(verdict))
    every = [v for group in verdicts.values() for v in group]
    accuracy = {"overall": round(statistics.fmean(every), 4) if every else None}
    accuracy.update({name: round(statistics.fmean(group), 4) if group else None
                     for name, group in verdicts.items()})
    return {"accuracy": accuracy, "judged": len(every), "errors": errors,
            "model": str(getattr(model, "model_name", None) or type(model).__name__)}
