"""The default extractor: a trained model reads every clause of the user's message.

The message is cut into clauses (``language.segment``); the extraction model
(``language.model``) scores each on six heads: keep or drop, category, subject (the user,
family, a third party, the assistant, or a hypothetical, quoted or joking clause), change
(new, restatement, update, retraction, forget request), venting, and whether a kept clause
continues the one before it. Kept clauses become candidates, with their head scores in
``source_ref["extraction"]`` so ``inspect`` can say why; dropped clauses become dropped
candidates whose reason names what the model took them for. Rules remain only where
rules are the right tool: secrets and ID numbers, absolute dates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from langchain_core.embeddings import Embeddings
from numpy.typing import NDArray

from hermes_graph.config import MemoryConfig
from hermes_graph.embeddings.base import EmbeddingCache, embedder_identity
from hermes_graph.extract.base import Turn, source_ref
from hermes_graph.language.model import ClauseScores, ExtractionModel, load_model
from hermes_graph.language.segment import Segment, segments
from hermes_graph.policy import privacy
from hermes_graph.policy.dates import with_absolute_dates
from hermes_graph.policy.forgetting import FORGET_ALL
from hermes_graph.policy.replacement import replacement_in
from hermes_graph.policy.scoring import PLAN
from hermes_graph.policy.subjects import family_relation
from hermes_graph.types import KIND_OF_CATEGORY, Candidate, Category, Memory

CATEGORY_OF_LABEL: dict[str, Category] = {
    "identity": "identity", "preference": "preference", "constraint": "constraint",
    "rule": "rule", "event": "event", "plan": "event", "relationship": "identity",
    "fact": "fact"}
"""The model's memory labels as stored categories: a plan is an event still to come, whom
the user lives with is who they are."""
KEPT_SUBJECTS = ("user", "family", "third_party")
SLOT_CATEGORY: dict[str, Category] = {
    "budget": "constraint", "diet": "constraint", "schedule": "constraint",
    "language": "rule", "verbosity": "rule", "tone": "rule", "address_as": "rule"}
"""A statement filling a slot says a lasting value of who the user is (identity, the
default), what binds them (constraint) or how to answer them (rule), even when the model
read it as an event or a plain fact: "we relocated to Denver last month" says where the
user lives now. Single-valued, these few slots keep the core profile bounded."""


@dataclass(frozen=True)
class _Read:
    clause: Segment
    scores: ClauseScores
    kept: bool
    forget: bool


def _shared_use() -> Embeddings:
    from hermes_graph.embeddings.use import shared_use

    return shared_use()


def last_sentence(text: str) -> str:
    """The last sentence of a message, with its mark ("你预算多少？")."""
    clauses = segments(text)
    last = [c for c in clauses if c.sentence == clauses[-1].sentence] if clauses else []
    return text[last[0].start:].strip() if last else text.strip()


def keep_score(scores: ClauseScores) -> float:
    """How surely a clause is kept: the keep head's probability, times the chance that it
    is a kind of thing a memory holds and about someone a memory may be about. The heads
    check each other: a clause the keep head likes but the category head reads as a
    question ("布洛芬和对乙酰氨基酚能一起吃吗") is not kept."""
    return (scores.p("keep", "keep")
            * sum(scores.p("category", label) for label in CATEGORY_OF_LABEL)
            * sum(scores.p("subject", subject) for subject in KEPT_SUBJECTS))


def kept_subject(scores: ClauseScores) -> str:
    """Whom a kept clause is about: the likeliest of the user, family, a third party."""
    return max(KEPT_SUBJECTS, key=lambda subject: scores.p("subject", subject))


def memory_label(scores: ClauseScores) -> str:
    """The likeliest label of a kept clause among those a memory can have."""
    return max(CATEGORY_OF_LABEL, key=lambda label: scores.p("category", label))


class LearnedExtractor:
    """Offline, deterministic, explainable: a small trained model over the clause's
    embedding (the model's own embedder) and its character n-grams."""

    def __init__(self, config: MemoryConfig | None = None, *,
                 embeddings: Embeddings | None = None,
                 model: ExtractionModel | None = None) -> None:
        self.config = config or MemoryConfig()
        self.model = model or load_model()
        if embeddings is None or embedder_identity(embeddings) != self.model.embedder_id:
            embeddings = _shared_use()  # the model reads the features it was trained on
        self._vectors = EmbeddingCache(embeddings, size=256)

    def _embed(self, texts: list[str]) -> NDArray[np.float32]:
        return self._vectors.documents(texts)

    def read(self, message: str, *, context: str = "") -> list[_Read]:
        """Every clause of a message with its scores and what the extractor makes of it."""
        config = self.config
        out: list[_Read] = []
        for clause, scores in self.model.read(message, context=context, embed=self._embed):
            # a forget request is never a memory itself ("please don't keep anything about
            # Jordan"), however much it reads like a rule
            forget = scores.p("change", "forget") >= config.extract_forget_threshold
            # of someone outside the family, only who they are to the user is kept
            kept = (not forget and keep_score(scores) >= config.extract_keep_threshold
                    and (kept_subject(scores) != "third_party"
                         or memory_label(scores) == "relationship"))
            out.append(_Read(clause, scores, kept, forget))
        return out

    def extract(self, turns: Sequence[Turn], *, now: datetime,
                existing: Sequence[Memory] = ()) -> list[Candidate]:
        if not turns or turns[-1].role != "user" or not turns[-1].content.strip():
            return []  # assistant statements never become memories about the user
        turn = turns[-1]
        said = (turn.content.removeprefix(f"{turn.speaker}:") if turn.speaker
                else turn.content).strip()
        before = turns[-2].content if len(turns) > 1 and (
            turns[-2].role == "assistant" or turns[-2].speaker not in (None, turn.speaker)) else ""
        ref = source_ref(turn)
        reads = self.read(said, context=before)
        candidates: list[Candidate] = []
        group: list[_Read] = []
        forgetting: list[_Read] | None = None

        def close() -> None:
            if group:
                candidates.append(self._candidate(said, group, before, turn, ref, reads))
                group.clear()

        for read in reads:
            secrets = privacy.secret_kinds(read.clause.text,
                                           include_phone=self.config.drop_phone_numbers)
            if secrets:  # the secret itself goes no further, not even into a trace
                close()
                forgetting = None
                candidates.append(Candidate(content="[redacted]", kind="semantic",
                                            category="fact", source_ref=ref,
                                            drop_reason=f"secret:{'+'.join(secrets)}"))
                continue
            if read.forget:
                close()
                if forgetting is not None:
                    # "I'd rather you didn't keep where I live. Please forget that bit": one
                    # request, named in its first part
                    candidates[-1] = self._forget(said, [*forgetting, read], ref)
                    forgetting.append(read)
                else:
                    forgetting = [read]
                    candidates.append(self._forget(said, forgetting, ref))
                continue
            forgetting = None
            if not read.kept:
                close()
                candidates.append(self._dropped(read, ref))
                continue
            if group and not self._joins(group[-1], read):
                close()
            group.append(read)
        close()
        return candidates

    def _joins(self, last: _Read, read: _Read) -> bool:
        return (read.clause.start >= last.clause.end
                and read.scores.p("join", "join") >= self.config.extract_join_threshold
                and kept_subject(read.scores) == kept_subject(last.scores))

    def _candidate(self, said: str, group: Sequence[_Read], before: str, turn: Turn,
                   ref: dict[str, object], reads: Sequence[_Read]) -> Candidate:
        config = self.config
        content = said[group[0].clause.start:group[-1].clause.end]
        first = group[0].scores
        label = memory_label(first)
        category = CATEGORY_OF_LABEL[label]
        who = kept_subject(first)
        change, _ = first.top("change")
        keep = min(keep_score(r.scores) for r in group)
        venting = max(r.scores.p("venting", "venting") for r in group) \
            >= config.extract_venting_threshold
        importance = config.category_importance.get(category, config.category_importance["fact"])
        subject = "user"
        if who == "family" and label != "relationship":  # whom they live with is the user's
            subject = f"user.{family_relation(content) or 'family'}"
            importance = min(importance, config.family_importance) \
                if category != "identity" else importance
        elif who == "third_party":
            subject, category, importance = "third_party", "fact", config.third_party_importance
        if before.rstrip().endswith(("?", "？")) and len(said) <= config.answer_max_chars \
                and len(reads) == 1 and change in ("new", "restatement"):
            # "预算多少？" / "50万左右": a one-clause answer means nothing without its question.
            # An answer that says more, or corrects the question ("不是啦，我是小学语文老师"),
            # keeps none of the question's words: they may be the assistant's wrong guess.
            content = f"{last_sentence(before)} {content}"
        replaced = replacement_in(content) if change == "update" else None
        slot = self._slot(content) if subject != "third_party" else None
        if slot is not None and category in ("event", "fact") and label != "plan":
            category = SLOT_CATEGORY.get(slot, "identity")
            importance = max(importance, config.category_importance.get(category, importance))
        if turn.speaker and turn.content.startswith(f"{turn.speaker}:"):
            content = f"{turn.speaker}: {content}"  # who said it, as the turn named them
        return Candidate(
            content=with_absolute_dates(content, turn.at), kind=KIND_OF_CATEGORY[category],
            category=category, subject=subject,
            qualifiers=(PLAN,) if label == "plan" else (),
            importance=importance,
            confidence=min(keep, config.emotional_confidence) if venting else keep,
            source="emotional" if venting else "explicit",
            slot=slot,
            change_signal=change in ("update", "retraction"), negation=change == "retraction",
            restated=change == "restatement",
            replaces=tuple(sorted(replaced.old)) if replaced is not None else (),
            source_ref={**ref, "extraction": [r.scores.summary() for r in group]})

    def _slot(self, text: str) -> str | None:
        """The single-valued slot the text gives a value of, read by the slot head."""
        slot, p = self.model.read_whole(text, embed=self._embed).top("slot")
        return slot if slot != "none" and p >= self.config.slot_threshold else None

    def _forget(self, said: str, reads: Sequence[_Read], ref: dict[str, object]) -> Candidate:
        content = said[reads[0].clause.start:reads[-1].clause.end]
        everything = FORGET_ALL.search(content) is not None
        return Candidate(content=content, kind="semantic", category="fact",
                         forget=True, importance=10,
                         confidence=min(r.scores.p("change", "forget") for r in reads),
                         qualifiers=("all",) if everything else (), slot=self._slot(content),
                         source_ref={**ref, "extraction": [r.scores.summary() for r in reads]})

    @staticmethod
    def _dropped(read: _Read, ref: dict[str, object]) -> Candidate:
        """What the model took the clause for, with its scores: the reason ``inspect``
        shows (the content itself is never logged)."""
        category, _ = read.scores.top("category")
        subject, _ = read.scores.top("subject")
        label = subject if subject not in KEPT_SUBJECTS else category
        reason = f"not_kept:{label} keep={keep_score(read.scores):.2f}"
        return Candidate(content=read.clause.text, kind="semantic", category="fact",
                         drop_reason=reason,
                         source_ref={**ref, "extraction": [read.scores.summary()]})
