"""One config object for every tunable of hermes-graph.

Each default comes from the design seeds (``shared/seeds``); the comment on a
field names the seed concept so a reader can find where the number came from.
Code never repeats these literals: it reads them from a :class:`MemoryConfig`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hermes_graph.errors import InvalidInputError
from hermes_graph.types import KINDS


def _default_tau_days() -> dict[str, float]:
    # seed 000 §3.4: freshness time constant per memory kind
    return {"semantic": 180.0, "episodic": 14.0, "procedural": 365.0}


@dataclass(frozen=True, kw_only=True)
class MemoryConfig:
    """All budgets, thresholds, weights and caps, as named fields."""

    # --- store -------------------------------------------------------------
    max_content_chars: int = 2000
    """Longest accepted memory content; one memory is one atomic fact."""
    max_scope_chars: int = 200
    busy_timeout_ms: int = 30_000
    """How long a writer waits for another writer's lock (threads/processes)."""
    ann_threshold: int = 5_000
    """Scope size from which the vector index switches from exact to IVF search (trained at
    flush/close). At 10k rows IVF keeps 98.9% of the exact top 64 (nprobe 64) for a
    fifth of the scan: bench/README.md, "Store, session 2"."""
    ann_nprobe: int = 64
    """IVF lists probed per query once a scope uses approximate search."""
    ann_retrain_growth: float = 4.0
    """An IVF index is retrained once its scope has grown this many times its trained size
    (at flush/close, never inside a write)."""
    ann_train_points_per_list: int = 40
    """k-means sample per IVF list (FAISS warns below 39)."""
    ann_train_iterations: int = 10
    """k-means iterations when training an IVF index."""
    candidate_multiplier: int = 4
    """Each route fetches k * this many candidates before fusion."""
    keyword_overfetch: int = 3
    """The keyword route fetches this many times its pool (status is filtered after)."""
    keyword_max_df_ratio: float = 0.02
    """Query terms found in more than this share of the scope's memories are skipped: they
    rank little and BM25 must score every row holding them. Counts are per scope, so in
    scopes under 2,500 memories the floor below decides (on the LoCoMo dev split a floor
    of 25-200 changed Recall@10 by under 1 point); at 100k rows, 0.05 kept no more of the
    unpruned top 8 than 0.02 and doubled the keyword route's p95 (bench/README.md)..."""
    keyword_min_df_cut: int = 50
    """...unless they are in at most this many (small stores keep every term)."""
    keyword_count_drift: float = 0.01
    """Term counts for that cut are reused until the scope's size has changed by this share."""
    keyword_weight: float = 0.4
    """Share of the keyword (FTS5) route in the store's fused search score (0.35 before
    stemming, 0.5 with stemmed terms; 0.4 since session 9: on LoCoMo conversations 0-4 /
    5-9 it gains 0.3 / 0.5 points of Recall@10 with USE and 0.4 / 0.6 with e5,
    bench/README.md)."""

    # --- write path: triggers, filters, dedup (seed 000 §2.3, §3.2, §3.3) ---
    min_content_chars: int = 6
    """Rule filter: candidates shorter than this (in characters) are dropped."""
    min_content_chars_cjk: int = 3
    """The same filter for Chinese text, where one character carries about a word: 我吃素
    (three characters) is a whole constraint."""
    dedup_cosine: float = 0.6
    """Semantic duplicates at or above this cosine merge (same kind/category/subject, and
    every stem of the new statement already in the old). Seed 001 suggests 0.85 for a
    cosine alone; seed 004 warns each embedder has its own scale, and with the word test
    guarding meaning, USE's 0.69 for "I can't have any shellfish" / "I'm allergic to
    shellfish" is a duplicate."""
    restatement_cosine: float = 0.5
    """A restated candidate ("again, ...") confirms a same-category memory this close."""
    enrich_cosine: float = 0.45
    """A statement naming the same thing as a kept memory (a shared distinctive term) and
    at least this close is that fact said again: its new clauses join the memory instead
    of a second memory (policy.enrich; 0: off). Measured with USE: restatements sit at
    0.45-0.73 ("我开的 Model Y…" / "Model Y 车主"), different facts about one thing lower
    ("I'm allergic to peanuts" / "I love peanut butter cookies": 0.48, no shared term)."""
    enrich_max_chars: int = 240
    """An enriched memory grows to at most this many characters; past it, a restatement
    only confirms."""
    conflict_confidence_decay: float = 0.8
    """Without a change signal the older conflicting memory keeps this share of confidence."""
    forget_match_cosine: float = 0.6
    """A forget request erases memories this close to what it names (or sharing its terms)."""
    drop_phone_numbers: bool = True
    extract_keep_threshold: float = 0.3
    """The extraction model keeps a clause whose keep score (the keep head's probability
    times the chances that it is a memory's kind of thing and about the user, family or
    someone in their life) reaches this."""
    extract_join_threshold: float = 0.5
    """A kept clause joins the kept clause before it into one memory at this join
    probability ("我爸有痛风，海鲜和啤酒都不能碰" is one constraint)."""
    extract_venting_threshold: float = 0.5
    """A kept clause said in the heat of the moment (venting probability at least this) is
    stored as emotional: it overrides nothing (seed 001 §5.2)."""
    extract_forget_threshold: float = 0.5
    """A clause whose forget probability reaches this is a forget request."""
    slot_threshold: float = 0.5
    """A statement fills the single-valued slot the extraction model's slot head names when
    its probability reaches this (data/slots/GUIDE.md lists the slots)."""
    emotional_confidence: float = 0.6
    """Confidence given at most to a memory said in the heat of the moment."""
    answer_max_chars: int = 40
    """A kept user turn this short that answers the assistant's question is stored with
    the question ("预算多少？" / "50万左右")."""
    category_importance: Mapping[str, int] = field(default_factory=lambda: {
        "rule": 8, "constraint": 9, "identity": 7, "preference": 6, "fact": 5, "event": 5})
    """Importance of a new memory about the user, by category (seed 000 §2.2)."""
    family_importance: int = 5
    """Importance of a family member's or pet's own fact: kept, recalled when relevant,
    never in the core profile."""
    third_party_importance: int = 3
    """Importance of who someone outside the family is to the user."""
    """Treat phone numbers as secrets (seed 004 privacy rules)."""
    substance_importance_base: float = 1.0
    """Importance of a verbatim memory that tells nothing (policy.substance, seed 001 §2.2)."""
    substance_terms_per_point: float = 2.0
    """Each this many distinct content terms a verbatim memory tells add one importance
    point (chosen on LoCoMo conversations 0-4, checked on 5-9: bench/README.md)."""
    substance_importance_max: int = 10

    # --- bounded gate (seed 001 §2) ------------------------------------------
    w_recency: float = 0.25
    w_importance: float = 0.5
    w_confidence: float = 0.25
    hot_pool_cap: int = 200
    archive_cap: int = 2000
    importance_floor_rank: int = 50
    """Identity and constraint memories stay within this top rank of the hot pool."""
    admission_recency_tau_days: float = 30.0
    admission_min_pool: int = 100
    """The median threshold applies once the hot pool holds this many (a median of a
    handful of memories is noise)."""

    # --- frozen gate (seed 001 §3, §5.2) -------------------------------------
    freeze_categories: tuple[str, ...] = ("preference", "constraint", "identity")
    freeze_min_confidence: float = 0.8
    freeze_min_sessions: float = 3.0
    emotional_confirmation_weight: float = 0.5
    frozen_pool_cap: int = 30
    weathering_days: float = 60.0
    override_pending_confidence: float = 0.7
    """A conflicting update to a frozen memory at or above this is parked as pending."""
    override_apply_confidence: float = 0.95
    """An explicit correction at or above this overrides a frozen memory at once."""

    # --- read path: fused score (seed 000 §3.4) ------------------------------
    w_semantic: float = 0.45
    w_freshness: float = 0.20
    w_importance_recall: float = 0.15
    w_frequency: float = 0.10
    w_context: float = 0.10
    keyword_context: float = 0.5
    """A keyword (BM25) hit counts this much of a context match: its keyword score has
    already raised the relevance the store fused, so a full match counted it twice. 0.5
    (was 1) chosen on LoCoMo conversations 0-4, checked on 5-9: USE +0.9 / -0.1, e5 +0.7 /
    +0.8 points of Recall@10; with the when match and carry back, 0.5 is best for e5 too
    (bench/README.md)."""
    when_context: float = 1.0
    """Type and scene match (seed 000 §3.4) for a question asking when: a memory that
    says when (a date, a month, "two weeks ago", "for three years") gets this context match
    (policy.dates.asks_when / states_time; 0: off). Chosen on LoCoMo conversations 0-4,
    checked on 5-9 (bench/README.md)."""
    tau_days: Mapping[str, float] = field(default_factory=_default_tau_days)
    frequency_max_count: int = 50
    prior_gate_power: float = 2.0
    """For episodic memories, freshness and frequency count (relevance / best candidate's
    relevance) ** this: recency and popularity order events about as relevant as the best
    one, but do not lift a weakly relevant event over a relevant one (0: full weight).
    Facts and procedures keep full weight (their newest version is usually the one)."""
    similarity_floor: float = 0.15
    """Coarse stage: vector hits below this cosine (and no keyword hit) are not considered."""
    expired_plan_factor: float = 0.3
    """A plan whose dated days are all past has its relevance multiplied by this: it may
    still answer a question about it, but no longer steers unrelated planning."""
    plan_grace_days: int = 2
    """Days after a plan's last dated day before it counts as past."""
    inject_floor: float = 0.20
    """Absolute fused-score floor under which nothing is injected."""
    recall_k: int = 8
    coarse_pool_factor: int = 3
    """Coarse stage (seed 000 §4.5: fetch wide, let the fused score drop the noise): the
    query route takes ``coarse_pool_factor * recall_k`` candidates from the store. 3 (was
    2) chosen on LoCoMo conversations 0-4, checked on 5-9 (bench/README.md)."""
    current_instruction_factor: float = 0.5
    """Same-topic older memories are multiplied by this when the turn sets a value."""
    skip_recall_for_smalltalk: bool = True
    family_direct_cosine: float = 0.4
    """A family member's memory this close to the query is recalled even when the query
    names no family member (1: only when it does)."""
    profile_min_importance: int = 6
    """Profile route: identity/constraint/rule/preference memories at least this important."""
    profile_cap: int = 40
    core_min_importance: int = 7
    """Identity/constraint memories at least this important join the core tier."""
    topic_route_weight: float = 0.8
    """The session-topic route's similarity counts this much of the query's."""
    subject_match_boost: float = 0.5
    """A memory said by a speaker the query names has its relevance raised by this share
    (seed 000: the subject, for exact matching; policy.conversation). Chosen on LoCoMo
    conversations 0-4 (bench/README.md)."""
    subject_free_query: bool = True
    """When the query names a speaker, its vector is taken from the text without the name
    (policy.conversation.without_speakers): similarity then measures the topic, and the
    subject match alone ranks that person's memories. Chosen on LoCoMo conversations 0-4,
    checked on 5-9 (bench/README.md)."""
    reply_carry: float = 0.9
    """The next turn's memory inherits this much of a hit's relevance, the one after that
    this squared, when that is more than its own (policy.conversation; 0: off)."""
    reply_carry_back: float = 0.8
    """The turn just before a hit inherits this much of its relevance when that is more
    than its own: a hit is often a reply that echoes the turn before it ("How was the
    museum?" after "I took the kids to the museum yesterday"; 0: off). 0.8 chosen on
    LoCoMo conversations 0-4, checked on 5-9 (bench/README.md)."""
    reply_carry_turns: int = 2
    """How many following turns of the same session a hit's relevance reaches."""
    reply_carry_kinds: tuple[str, ...] = ("episodic",)
    """Kinds that inherit: extracted facts and rules stand on their own words."""
    time_anchor_boost: float = 0.5
    """A memory said on (or naming) a calendar day or month the query names has its
    relevance raised by this share; the best matches said then join the candidates
    (policy.dates.query_windows; 0: off)."""
    time_anchor_slack_days: int = 1
    """Days added on each side of a named day or month (time zones, a late-night session)."""
    time_anchor_cap: int = 1000
    """At most this many memories said in a named window (the earliest) are compared with
    the query; the best ``coarse_pool_factor * recall_k`` of them join the candidates."""

    # --- injection budget (seed 001 §4.3, seed 000 §3.5) ---------------------
    core_tier_tokens: int = 400
    hot_tier_tokens: int = 800
    long_tail_tier_tokens: int = 400
    hot_tier_top_n: int = 20
    long_tail_top_n: int = 5

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            if value != value or value < 0:  # NaN or negative
                raise InvalidInputError(
                    f"MemoryConfig.{f.name} must be a non-negative number, got {value!r}"
                )
        if self.coarse_pool_factor < 1:
            raise InvalidInputError(
                f"MemoryConfig.coarse_pool_factor must be at least 1 (the coarse stage "
                f"holds the recall_k it ranks), got {self.coarse_pool_factor!r}")
        for name in ("reply_carry", "reply_carry_back"):
            if getattr(self, name) > 1:
                raise InvalidInputError(
                    f"MemoryConfig.{name} must be at most 1 (a carried turn never outranks "
                    f"the hit it is next to), got {getattr(self, name)!r}")
        if self.substance_terms_per_point <= 0 or not 1 <= self.substance_importance_max <= 10:
            raise InvalidInputError(
                "MemoryConfig.substance_terms_per_point must be positive and "
                "substance_importance_max within 1-10, got "
                f"{self.substance_terms_per_point!r} and {self.substance_importance_max!r}")
        unknown_kinds = set(self.reply_carry_kinds) - set(KINDS)
        if unknown_kinds:
            raise InvalidInputError(
                f"MemoryConfig.reply_carry_kinds has unknown kinds {sorted(unknown_kinds)}; "
                "expected semantic, episodic or procedural")
        missing = set(KINDS) - set(self.tau_days)
        if missing:
            raise InvalidInputError(
                f"MemoryConfig.tau_days lacks kinds {sorted(missing)}; "
                "expected keys semantic, episodic, procedural"
            )

    def with_settings(self, settings: Sequence[str]) -> MemoryConfig:
        """A copy with ``FIELD=VALUE`` settings applied (a command line's ``--set``); each
        value is read as the field's type (numbers; true/false for switches)."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for setting in settings:
            name, sep, text = setting.partition("=")
            name, text = name.strip(), text.strip()
            if not sep or name not in fields:
                raise InvalidInputError(
                    f"--set expects FIELD=VALUE with a MemoryConfig field, got {setting!r}")
            current = fields[name]
            if not isinstance(current, (bool, float, int)):
                raise InvalidInputError(f"--set: {name} is not a number or a switch")
            try:
                if isinstance(current, bool):
                    if text.lower() not in ("true", "false", "1", "0"):
                        raise ValueError(text)
                    changes[name] = text.lower() in ("true", "1")
                elif isinstance(current, float):
                    changes[name] = float(text)
                else:
                    changes[name] = int(text)
            except ValueError:
                raise InvalidInputError(
                    f"--set {name}: {text!r} is not a {type(current).__name__}") from None
        return self.replace(**changes)

    def replace(self, **changes: Any) -> MemoryConfig:
        """A copy with some fields changed (unknown names raise)."""
        names = {f.name for f in dataclasses.fields(self)}
        unknown = set(changes) - names
        if unknown:
            raise InvalidInputError(
                f"unknown MemoryConfig field(s) {sorted(unknown)}; known: {sorted(names)}"
            )
        return dataclasses.replace(self, **changes)
