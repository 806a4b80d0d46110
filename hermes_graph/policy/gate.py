"""The write gate: drop, confirm, merge, supersede, retire, forget or admit (pure).

Given a candidate and what the scope already holds near it, decide what to do
and say why. Every reason is a short machine-readable code (``dup:exact``,
``conflict:change_signal``, ...). The gate reads the store only through the
:class:`Neighbourhood` the caller gathered, so tests hit it without a graph.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from hermes_graph.config import MemoryConfig
from hermes_graph.policy.enrich import Enrichment, restatement_of
from hermes_graph.policy.frozen import override_action
from hermes_graph.policy.normalize import distinctive_terms, has_han, term_stems
from hermes_graph.policy.replacement import replacement_in
from hermes_graph.policy.slots import GENERIC_SLOT_TERMS, closed_value, slots_named
from hermes_graph.policy.subjects import clause_subject
from hermes_graph.policy.topics import concepts_of, on_topic, topics_named
from hermes_graph.types import Candidate, GateDecision, Memory, ScoredMemory

_NEGATION_CHARS = re.compile(r"[不没别无]")
_NEGATIVE = re.compile(
    r"不(吃|喝|碰|用|抽)|\b(don'?t|do not|never|can'?t|cannot) (eat|drink|have|use|touch|smoke)\b|"
    r"\bno (meat|fish|dairy|sugar|alcohol|caffeine|coffee|carbs?)\b", re.IGNORECASE)
_CLAUSES = re.compile(r"[，、；;]|,(?!\d)")


@dataclass(frozen=True, kw_only=True)
class Neighbourhood:
    """What the scope holds that may bear on one candidate."""

    exact: Sequence[Memory] = ()
    """Live memories whose normalised content equals the candidate's."""
    similar: Sequence[ScoredMemory] = ()
    """Live memories found by searching with the candidate's content."""
    slot_holders: Sequence[Memory] = ()
    """Live memories filling the candidate's single-valued slot."""
    same_subject: Sequence[Memory] = field(default_factory=tuple)
    """Live memories about the same non-user subject (a family member, ...)."""
    everything: Sequence[Memory] = ()
    """Every live memory of the scope (gathered only for a forget request naming
    everything or a topic)."""


def slot_value_terms(text: str) -> set[str]:
    """Distinctive terms that can name a slot's value: not slot vocabulary ("预算"), and
    no Chinese bigram that straddles it ("总预")."""
    terms = distinctive_terms(text) - GENERIC_SLOT_TERMS
    generic_chars = {c for g in GENERIC_SLOT_TERMS if g in text and not g.isascii() for c in g}
    generic_chars |= {"用"}  # 用中文 / 用英文: the verb is never the value
    return {t for t in terms if t.isascii() or not generic_chars & set(t)}


def same_slot_value(slot: str | None, text: str, other: str) -> bool:
    """Two statements of one slot name the same value ("我在杭州工作" / "我是在杭州上班的")."""
    mine = closed_value(slot, text)
    if mine is not None or closed_value(slot, other) is not None:
        return mine == closed_value(slot, other)
    return bool(slot_value_terms(text) & slot_value_terms(other))


def decide(candidate: Candidate, near: Neighbourhood, *, session: str,
           config: MemoryConfig) -> GateDecision:
    def make(action: str, reason: str, targets: Sequence[int] = (),
             status: str = "candidate") -> GateDecision:
        return GateDecision(action=action, reason=reason, candidate=candidate,  # type: ignore[arg-type]
                            target_ids=tuple(targets), status=status)  # type: ignore[arg-type]

    if candidate.drop_reason is not None:
        return make("drop", f"filter:{candidate.drop_reason}")
    if candidate.forget:
        targets = forget_targets(candidate, near, config)
        return make("forget", "user_forget_request", targets) if targets else make(
            "drop", "forget:no_match")
    status = "confirmed" if candidate.source == "explicit" and candidate.confidence >= 0.8 \
        else "candidate"
    # seed 001 §5.2: said in the heat of the moment ("我要辞职！…！！"), it overrides nothing
    calm = candidate.source != "emotional"

    def heated() -> GateDecision:
        return make("admit", "emotional:overrides_nothing", (), "candidate")
    if candidate.negation and candidate.change_signal and candidate.slot is None:
        targets = contradicted(candidate, near)
        if not targets:
            return make("drop", "negation:no_match") if candidate.category == "fact" else make(
                "admit", f"new:{candidate.category}", (), status)
        if not calm:
            return heated()
        frozen = _frozen_gate(candidate, near, targets, config, make)
        if frozen is not None:
            return frozen
        old_terms = set().union(*(distinctive_terms(m.content) for m in near_memories(near)
                                  if m.id in targets))
        if candidate.category == "fact" and distinctive_terms(candidate.content) & old_terms:
            # "小米那台我已经不用了": nothing new to keep, and it would name the old value
            return make("retire", "negation:retires_contradicted", targets)
        # "I don't eat spicy food anymore": retire the contradicted, keep the new statement
        return make("supersede", "negation:supersedes_contradicted", targets, status)
    holds_replaced = replaced_value_test(candidate)
    replaced = [] if candidate.negation or candidate.slot is not None else replaced_holders(
        candidate, near, holds_replaced)
    if replaced:  # "switched from Notion to Linear": what was said of Notion is over
        if not calm:
            return heated()
        frozen = _frozen_gate(candidate, near, [m.id for m in replaced], config, make)
        if frozen is not None:
            return frozen
        return GateDecision(action="supersede", reason="change:replaces_named_value",
                            candidate=inherit_role(replace(candidate, subject=replaced[0].subject),
                                                   replaced),
                            target_ids=tuple(m.id for m in replaced), status=status)  # type: ignore[arg-type]
    if candidate.change_signal and not candidate.negation and candidate.slot is None:
        targets = reversed_negatives(candidate, near)
        if targets and not calm:
            return heated()
        if targets:  # "现在每天碳水得吃够" after "晚饭基本不吃碳水": the refusal is over
            frozen = _frozen_gate(candidate, near, targets, config, make)
            return frozen or make("supersede", "change:reverses_negative", targets, status)
    if near.exact:
        existing = near.exact[0]
        if session in existing.confirmed_sessions:
            return make("ignore", "dup:exact_same_session", [existing.id])
        return make("confirm", "dup:exact", [existing.id])
    for hit in near.similar:
        other = hit.memory
        if (hit.vector_score >= config.dedup_cosine and other.kind == candidate.kind
                and other.category == candidate.category and other.subject == candidate.subject
                and tuple(sorted(candidate.qualifiers)) == other.qualifiers
                and term_stems(candidate.content) <= term_stems(other.content)):
            if session in other.confirmed_sessions:
                return make("ignore", "dup:semantic_same_session", [other.id])
            return make("merge", f"dup:semantic cos={hit.vector_score:.2f}", [other.id])
    if candidate.restated:
        mine = distinctive_terms(candidate.content)
        for hit in near.similar:
            other = hit.memory
            if other.subject == candidate.subject and (
                    (other.category == candidate.category
                     and hit.vector_score >= config.restatement_cosine)
                    or mine & distinctive_terms(other.content)):  # "我是阿杰，跟你说过的"
                enriched = _enriched(candidate, hit, config, status)
                if enriched is not None:  # "again, vegetarian here, no fish either"
                    return enriched
                if session in other.confirmed_sessions:
                    return make("ignore", "dup:restated_same_session", [other.id])
                return make("confirm", "dup:restated", [other.id])
    if candidate.subject != "user":
        mine = distinctive_terms(candidate.content)
        for other in near.same_subject:
            if mine & distinctive_terms(other.content):
                if session in other.confirmed_sessions:
                    return make("ignore", "dup:same_subject_same_session", [other.id])
                return make("confirm", "dup:same_subject_entity", [other.id])
    holders = [m for m in near.slot_holders if m.subject == candidate.subject]
    same_value = [] if candidate.change_signal else [
        m for m in holders if same_slot_value(candidate.slot, candidate.content, m.content)]
    if same_value:  # "我是在杭州上班的" again: the same value of the slot is a confirmation
        existing = same_value[0]
        if session in existing.confirmed_sessions:
            return make("ignore", "dup:same_slot_value_same_session", [existing.id])
        return make("confirm", f"dup:same_slot_value slot={candidate.slot}", [existing.id])
    if holders:
        frozen = _frozen_gate(candidate, near, [m.id for m in holders], config, make)
        if frozen is not None:
            return frozen
    if holders and candidate.change_signal:
        if not calm:
            return heated()
        # what this session already said about the slot is this change's own context
        # ("下周一去美团报到…新公司离我家近多了"), not the value it replaces
        holders = [m for m in holders if m.confirmed_sessions[:1] != (session,)
                   or holds_replaced(m)]  # "打错了！是徐州不是苏州"
        if not holders:
            return make("admit", f"new:{candidate.category} slot={candidate.slot}", (), status)
        old_terms = set().union(*(distinctive_terms(m.content) for m in holders))
        named = _object_terms(candidate.content)
        if candidate.negation and named & old_terms and len(named - old_terms) <= len(
                named & old_terms):
            # "小米那台我已经不用了": the slot's value is over, and the statement names the
            # old value more than anything new ("I left the café and started as a
            # paralegal" names a new one: it supersedes)
            return make("retire", f"negation:retires_slot_value slot={candidate.slot}",
                        [m.id for m in holders])
        return GateDecision(action="supersede", candidate=inherit_role(candidate, holders),
                            reason=f"conflict:change_signal slot={candidate.slot}",
                            target_ids=tuple(m.id for m in holders), status=status)  # type: ignore[arg-type]
    if holders:
        return make("admit", f"conflict:no_change_signal slot={candidate.slot} older_demoted",
                    [m.id for m in holders], status)
    enrichment = restatement_of(candidate, near.similar, config)
    if enrichment is not None:  # the same thing said again, maybe with a detail added
        target = enrichment.target
        if enrichment.content != target.content:
            return _enrich(candidate, enrichment, status)
        if session in target.confirmed_sessions:
            return make("ignore", "dup:restatement_same_session", [target.id])
        return make("confirm", "dup:restatement", [target.id])
    return make("admit", f"new:{candidate.category}", (), status)


def replaced_value_test(candidate: Candidate) -> Callable[[Memory], bool]:
    """Does a memory hold the value the candidate says it replaces? The rule extractor
    names the old value's terms (and cuts them from the content); another extractor that
    signals a change may still say "switched from Notion to Linear" in its content. The
    candidate is read once; the test runs per neighbour."""
    if candidate.replaces:
        old = set(candidate.replaces)
        return lambda memory: bool(old & distinctive_terms(memory.content))
    # a verbatim turn that quotes a switch changes nothing
    replacement = replacement_in(candidate.content) if candidate.change_signal else None
    if replacement is None:
        return lambda memory: False
    return lambda memory: replacement.replaces(memory.content)


def replaced_holders(candidate: Candidate, near: Neighbourhood,
                     holds_replaced: Callable[[Memory], bool]) -> list[Memory]:
    """The memories holding the value a candidate replaces: its own subject's, or, when
    the user corrects without naming whom it is about ("我家那个是上二年级，不是三年级"
    after "我闺女今年三年级"), the one subject's that holds it."""
    holding = [h.memory for h in near.similar if holds_replaced(h.memory)]
    own = [m for m in holding if m.subject == candidate.subject]
    if own or candidate.subject != "user" or len({m.subject for m in holding}) != 1:
        return own
    return holding


def _enrich(candidate: Candidate, enrichment: Enrichment, status: str) -> GateDecision:
    return GateDecision(action="enrich", reason="dup:restatement_enriched",
                        candidate=replace(candidate, content=enrichment.content),
                        target_ids=(enrichment.target.id,), status=status)  # type: ignore[arg-type]


def _enriched(candidate: Candidate, hit: ScoredMemory, config: MemoryConfig,
              status: str) -> GateDecision | None:
    """A restated candidate that adds a detail to the memory it restates enriches it."""
    enrichment = restatement_of(candidate, [hit], config, said_again=True)
    if enrichment is None or enrichment.content == hit.memory.content:
        return None
    return _enrich(candidate, enrichment, status)


def near_memories(near: Neighbourhood) -> list[Memory]:
    return [*near.slot_holders, *(h.memory for h in near.similar)]


def _frozen_gate(candidate: Candidate, near: Neighbourhood, targets: Sequence[int],
                 config: MemoryConfig, make: Callable[..., GateDecision]) -> GateDecision | None:
    """A conflicting update to a frozen memory: ignore, park as pending, or apply."""
    known = {m.id: m for m in near_memories(near)}
    frozen = [i for i in targets if i in known and known[i].status == "frozen"]
    if not frozen:
        return None
    action = override_action(candidate, config=config)
    if action == "ignore":
        return make("ignore", "frozen:override_ignored_low_confidence", frozen)
    if action == "pending_override":
        return make("pending_override", "frozen:override_parked", frozen, "pending_override")
    return None  # an explicit, very confident correction goes through (history kept)


def inherit_role(candidate: Candidate, holders: Sequence[Memory]) -> Candidate:
    """A new value of a slot keeps the role of the value it replaces: "现在换成 iPhone 了"
    is as much the user's identity as "我手机是小米13" was, and "we moved to Portland last
    month" is where the user lives now, not only an event."""
    if candidate.category not in ("fact", "event"):
        return candidate
    old = max(holders, key=lambda m: m.importance)
    return replace(candidate, kind=old.kind, category=old.category,
                   importance=max(candidate.importance, old.importance))


def forget_targets(candidate: Candidate, near: Neighbourhood,
                   config: MemoryConfig) -> list[int]:
    """Memories a forget request names: all of them, by slot ("where I live"), or by
    close match."""
    if "all" in candidate.qualifiers:
        return [m.id for m in near.everything]
    if "venting" in candidate.qualifiers:  # "昨晚说的都是气话": what was said in anger goes
        return [m.id for m in near.everything if m.source == "emotional"]
    slots = set(slots_named(candidate.content)) | ({candidate.slot} if candidate.slot else set())
    ids = [m.id for m in near.slot_holders if m.slot in slots]
    for topic in topics_named(candidate.content):  # "forget the health stuff I told you"
        ids += [m.id for m in near.everything if on_topic(topic, m.content)]
    for hit in near.similar:
        named_terms = distinctive_terms(candidate.content) & distinctive_terms(hit.memory.content)
        if hit.vector_score >= config.forget_match_cosine or (
                named_terms and hit.keyword_score > 0):
            ids.append(hit.memory.id)
    return list(dict.fromkeys(ids))


def _object_terms(text: str) -> set[str]:
    """Distinctive terms without the negation words: what a statement is about."""
    return {t for t in distinctive_terms(text) if not _NEGATION_CHARS.search(t)}


def _clauses_of(content: str) -> list[str]:
    return [c.strip() for c in _CLAUSES.split(content) if c.strip()]


def _rest(kept: list[str], clauses: list[str], content: str) -> str | None:
    """The kept clauses as one memory, or None when nothing or everything was kept."""
    if not kept or len(kept) == len(clauses):
        return None
    return ("，" if has_han(content) else ", ").join(kept)


def forget_remainder(memory: Memory, request: str) -> str | None:
    """What a memory keeps when a forget request names only part of it: "女朋友那个你忘了吧"
    takes the girlfriend clause out of "我在准备考研，目标浙大，女朋友也在杭州" and keeps the
    rest; "工资那个别记了" takes the salary clause out of "我在广州做UI设计师，月薪三万五". A
    memory the request names by its slot goes whole (None), as does one whose every clause
    the request names."""
    if memory.slot in slots_named(request):
        return None
    topics = topics_named(request)
    named = distinctive_terms(request) & distinctive_terms(memory.content)
    clauses = _clauses_of(memory.content)
    kept: list[str] = []
    elaborating = after_named = False
    for clause in clauses:
        own_subject = clause_subject(clause) is not None
        # on a sensitive topic, a clause without its own subject goes with the one before
        # it ("我是焦虑症患者，一直在吃舍曲林"); a named term takes its own clause and the one
        # right after it that has no subject ("我在准备考公，目标是省直单位")
        carried = elaborating and not own_subject
        cut = carried or any(on_topic(t, clause) for t in topics)
        elaborating = carried or any(t.carries and on_topic(t, clause) for t in topics)
        named_here = bool(named & distinctive_terms(clause))
        if not (cut or named_here or (after_named and not own_subject)):
            kept.append(clause)
        after_named = named_here
    return _rest(kept, clauses, memory.content)


def contradiction_remainder(memory: Memory, negation: str) -> str | None:
    """What a retired memory still says when the negation names only one of its clauses:
    "sold the car" retires "I drive my old Honda Fit there" out of "I teach ballet at a
    studio in Providence, I drive my old Honda Fit there" and keeps the teaching."""
    mine = _object_terms(negation)
    concepts = concepts_of(negation)
    clauses = _clauses_of(memory.content)
    kept = [c for c in clauses if not (mine & distinctive_terms(c) or concepts & concepts_of(c))]
    # only an add-on named by its concept is cut out; when the main (first) statement is
    # contradicted, what follows it elaborates it and goes too ("…, dairy-free at home")
    if not concepts or not kept or kept[0] != clauses[0]:
        return None
    return _rest(kept, clauses, memory.content)


def reversed_negatives(candidate: Candidate, near: Neighbourhood) -> list[int]:
    """Live negative statements ("不吃碳水", "I don't drink coffee") that a positive change
    about the same thing reverses; the candidate itself must not refuse it too."""
    if _NEGATIVE.search(candidate.content):
        return []
    mine = _object_terms(candidate.content)
    return [hit.memory.id for hit in near.similar
            if hit.memory.subject == candidate.subject and _NEGATIVE.search(hit.memory.content)
            and mine & _object_terms(hit.memory.content)]


def contradicted(candidate: Candidate, near: Neighbourhood) -> list[int]:
    """Live memories an explicit negation retires: they share its distinctive terms
    (the negation words aside: "不喝咖啡" contradicts nothing by its "不喝") or an everyday
    concept ("不喝咖啡了" retires "每天一杯冰美式")."""
    mine = _object_terms(candidate.content)
    concepts = concepts_of(candidate.content)
    return [hit.memory.id for hit in near.similar
            if (mine & distinctive_terms(hit.memory.content)
                or concepts & concepts_of(hit.memory.content))
            and hit.memory.subject == candidate.subject]
