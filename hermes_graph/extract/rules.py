"""The rule-based extractor: no LLM, Chinese and English signal phrases.

A user message is cut into sentences and clauses. A clause that carries a
write trigger (seed 000 §2.3: durable information, a correction or negation,
a decision) starts a candidate; plain clauses that follow it are kept with it
as context; questions, one-off asks, greetings and secrets are cut out, so the
harmless rest of a message survives a secret in it (seed 004 §3.1).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from hermes_graph.config import MemoryConfig
from hermes_graph.extract.base import Turn, source_ref, too_short
from hermes_graph.extract.clauses import (
    LASTING_RULE,
    MONTH_AHEAD,
    RULE_CONDITION,
    WEAK_CHANGE,
    split_clauses,
    split_sentences,
)
from hermes_graph.extract.clauses import bare as _bare
from hermes_graph.extract.clauses import join as _join
from hermes_graph.policy import privacy, subjects
from hermes_graph.policy import pseudo_facts as pf
from hermes_graph.policy import signals as sig
from hermes_graph.policy.dates import with_absolute_dates
from hermes_graph.policy.disclosure import (
    LIFE_EVENT,
    ZH_HABIT,
    self_disclosure,
    self_disclosure_zh,
)
from hermes_graph.policy.material import without_material
from hermes_graph.policy.normalize import distinctive_terms, has_han
from hermes_graph.policy.replacement import replacement_in
from hermes_graph.policy.slots import slot_named_by, slot_of
from hermes_graph.types import KIND_OF_CATEGORY, Candidate, Category, Memory

DEFAULT_IMPORTANCE: dict[Category, int] = {
    "rule": 8, "constraint": 9, "identity": 7, "preference": 6, "fact": 5, "event": 5,
}
THIRD_PARTY_IMPORTANCE = 3
FAMILY_IMPORTANCE = 5
"""A family member's own fact: kept, recalled when relevant, never in the core profile."""
ANSWER_MAX_CHARS = 40
"""Catch-up reads user turns up to this long as answers to the question before them."""
SLOT_CATEGORY: dict[str, Category] = {"residence": "identity", "employer": "identity",
                                      "job": "identity"}
"""Where the user lives and works is who they are: such a statement joins the core profile
even when no identity phrase marks it ("we ended up in Lyon after all")."""
PRONOUN = re.compile(r"(he|she|they)\b|(他|她)(们)?", re.IGNORECASE)
"""A clause opening with a pronoun is about whoever the clause before it named."""
WE = re.compile(r"我们|咱们|全家|一家人|\bwe\b|\bour family\b|\bus\b", re.IGNORECASE)
"""The user and their family together: such a statement is the user's own."""
SLOT_IMPORTANCE_CAP: dict[str, int] = {"budget": 6}
"""A budget said with a request belongs to that purchase: recalled when one comes up, never
part of the core profile injected into every reply ("帮我挑个键盘，budget 50 SGD 左右")."""
TASK_DETAIL_SLOTS = frozenset({"verbosity", "language"})
"""After a request in the same sentence, how long or in which language is that task's
detail ("帮忙写个给物业的微信…简短一点就行"), not a standing value."""
JOINED_CATEGORIES: frozenset[Category] = frozenset({"rule", "constraint"})
"""One rule or constraint said in several clauses ("我爸有痛风，海鲜和啤酒都不能碰") is one
memory."""


@dataclass
class _Group:
    category: Category
    clauses: list[str] = field(default_factory=list)
    subject: str | None = None
    """Who the group's first clause names (``subjects.clause_subject``)."""
    slot: str | None = None
    """The slot of a negated value this group's new value replaces."""
    prefix: list[str] = field(default_factory=list)
    """Context said just before a bare statement ("they have two cats, I'm pretty allergic"):
    stored with it, but never deciding whom it is about."""

    def takes(self, category: Category, subject: str | None) -> bool:
        """Does a clause continue this group rather than start a memory of its own?"""
        if not self.clauses:
            return False
        if self.subject == "other" and subject is None:
            return True  # "我爸去年做了手术，现在走路还不利索": still the father
        if category == "rule" == self.category:
            return True
        return category == self.category and category in JOINED_CATEGORIES and (
            subject is None or subject == self.subject)

    def replace_negated(self, clause: str) -> bool:
        """"我不在腾讯干了，现在在字节": the new value takes the negated one's place and its
        slot, so it supersedes the old value without repeating it."""
        slot = slot_of(_join(self.clauses))
        if slot is None or not sig.matches(sig.NEGATION, self.clauses[-1]):
            return False
        self.clauses, self.slot = [clause], slot
        return True


class RuleExtractor:
    """Default extractor: deterministic, offline, explainable."""

    def __init__(self, config: MemoryConfig | None = None) -> None:
        self.config = config or MemoryConfig()

    def extract(self, turns: Sequence[Turn], *, now: datetime,
                existing: Sequence[Memory] = ()) -> list[Candidate]:
        if not turns or turns[-1].role != "user":
            return []  # assistant statements never become memories about the user
        turn = turns[-1]
        candidates: list[Candidate] = []
        sentences = split_sentences(without_material(turn.content))  # not "summarise this: …"
        shouted = any(s.rstrip().endswith(("!", "！")) for s in sentences)
        # "气死我了！！！老子明天就辞职，这破公司…": after an outburst, an angry sentence is
        # part of the rant even without its own "!"; a glad "搬到 London 了！" beside a
        # mild "ugh。" is none
        heated = any(sig.matches(sig.EMOTIONAL, s) and s.rstrip().endswith(("!", "！"))
                     for s in sentences)
        previous: list[Candidate] = []
        mention: str | None = None  # the last clause naming someone, for "he"/"她" after it
        asked = False
        pretending = pf.still_pretending([t.content for t in turns[:-1] if t.role == "user"])
        for sentence in sentences:
            stepped_out = pf.out_of_story(sentence)
            if stepped_out is not None:  # "real me: 29, QA tester, live in Austin"
                pretending, sentence = False, stepped_out
            if pretending or sig.matches(pf.FICTION, sentence):  # the story's, not the user's
                pretending = True
                candidates.append(self._pseudo("make_believe", sentence, source_ref(turn)))
                continue
            found, mention = self._sentence(sentence, turn, mention, after_question=asked)
            asked = sentence.rstrip().endswith(("?", "？"))
            if any(c.forget for c in found) and sig.matches(sig.RETRACT, sentence) and previous:
                # "I'm 9 weeks pregnant. Actually no, don't hold onto that one.": withdrawn
                withdrawn = [replace(c, content="[retracted]", drop_reason="retracted")
                             if c.drop_reason is None else c for c in previous]
                candidates[len(candidates) - len(previous):] = withdrawn
                previous = []
                continue
            if heated and (sentence.rstrip().endswith(("!", "！"))
                           or (shouted and sig.matches(sig.EMOTIONAL, sentence))):
                # "我要辞职！这破公司一天都待不下去了！！": the outburst is part of the rant
                found = [replace(c, source="emotional", confidence=min(c.confidence, 0.6))
                         if c.drop_reason is None and not c.forget else c for c in found]
            candidates.extend(found)
            previous = found
        return candidates

    def catch_up(self, turns: Sequence[Turn], *, now: datetime) -> list[Candidate]:
        """Session-end pass: what single turns miss. A short user answer to the
        assistant's question ("预算多少？" -> "50万左右") means nothing alone; read with
        the question it becomes a durable fact, attributed to the user (implicit)."""
        found: list[Candidate] = []
        for previous, turn in itertools.pairwise(turns):
            if (previous.role != "assistant" or turn.role != "user"
                    or not previous.content.rstrip().endswith(("?", "？"))
                    or len(turn.content) > ANSWER_MAX_CHARS
                    or sig.matches(sig.SMALLTALK, turn.content.strip())
                    or sig.matches(sig.ASSENT, turn.content.strip())
                    or sig.matches(sig.EMOTIONAL, turn.content)  # "气死了" answers nothing
                    or privacy.secret_kinds(turn.content, include_phone=True)
                    or self.extract([turn], now=now)):
                continue
            question = split_sentences(previous.content)[-1]
            if sig.matches(sig.PRESUPPOSITION, question):
                continue  # "Since you're vegan, ...?" - "sure": the premise stays the assistant's
            if sig.category_of(question) is None and sig.category_of(turn.content) is None:
                continue
            pair = Turn(role="user", content=f"{question} {turn.content}", session=turn.session,
                        index=turn.index, at=turn.at, speaker=turn.speaker, ref=turn.ref)
            for candidate in self._sentence(f"{question.rstrip('?？')}：{turn.content}", pair)[0]:
                if candidate.drop_reason is None:
                    found.append(replace(candidate, source="implicit", confidence=0.7))
        return found

    def _sentence(self, sentence: str, turn: Turn, mention: str | None = None, *,
                  after_question: bool = False) -> tuple[list[Candidate], str | None]:
        """The sentence's candidates, and the last clause in it (or before it) that names
        someone other than the user. ``after_question``: the sentence qualifies a question
        just asked ("送什么礼物好？budget 50 SGD 左右")."""
        ref = source_ref(turn)
        change = sig.matches(sig.CHANGE, sentence)
        remember = sig.matches(sig.REMEMBER, sentence)
        restated = sig.matches(sig.RESTATEMENT, sentence)
        corrected = list(sig.CORRECTION.finditer(sentence))
        if corrected:  # "Budget's £6,000, no wait, scratch that, we agreed £4,500"
            sentence = sentence[corrected[-1].end():].strip(" ,，:：")
        body = sig.DISCOURSE_PREFIX.sub("", sentence).strip()
        replaced = replacement_in(body)
        if replaced is not None:  # "是二年级，不是三年级": kept without the old value
            body, change = replaced.text, True
        out: list[Candidate] = []
        if sig.matches(sig.VENTING_RETRACTED, body):  # and what follows it still counts:
            # "气头上说的话别当真，我不辞，还得在这家游戏公司接着当策划呢"
            out.append(Candidate(content=body, kind="semantic", category="fact", forget=True,
                                 importance=10, confidence=0.95, source_ref=ref,
                                 qualifiers=("venting",)))
        elif sig.forget_request(body):
            everything = sig.matches(sig.FORGET_ALL, body)
            return [Candidate(content=body, kind="semantic", category="fact", forget=True,
                              importance=10, confidence=0.95, source_ref=ref,
                              qualifiers=("all",) if everything else ())], mention
        groups: list[_Group] = []
        lead: str | None = None  # "我妈上个月体检": whom the next unnamed clause is about
        context: str | None = None  # an unattached clause a bare statement may need
        raws = split_clauses(body)
        asked = body.rstrip().endswith(("?", "？"))
        supposing = False  # after "if I were…", the rest of the sentence supposes too
        requested = False  # a clause before asked for a task: "简短一点就行" is its detail
        rule_said = sig.matches(sig.RULE, body)  # "如果我问代码问题，请用英文回答" is a rule
        for n, raw in enumerate(raws):
            clause = sig.DISCOURSE_PREFIX.sub("", raw).strip()
            if not clause:
                continue
            # the sentence's question mark belongs to its last clause
            said = f"{clause}？" if asked and n == len(raws) - 1 else clause
            if sig.matches(sig.TOOL_REQUEST, clause) and not sig.matches(sig.PERSONAL, clause):
                continue  # "“一帆风顺”用英文怎么说": a tool request, nothing about the user
            secrets = privacy.secret_kinds(clause, include_phone=self.config.drop_phone_numbers)
            if secrets:
                out.append(self._dropped(f"secret:{'+'.join(secrets)}", ref))
                groups.append(_Group("fact"))  # a barrier: nothing attaches across a secret
                lead = None
                continue
            if sig.matches(sig.SMALLTALK, clause):
                continue
            pseudo = "hypothetical" if supposing else pf.pseudo_kind(clause)
            if pseudo is not None and not rule_said:  # "假如我搬去上海", "我妈老说我是路痴"
                supposing = pseudo == "hypothetical"
                out.append(self._pseudo(pseudo, clause, ref))
                groups.append(_Group("fact"))  # a barrier, as a secret is
                lead = context = None
                continue
            request = sig.matches(sig.REQUEST, said)
            emotional = sig.matches(sig.EMOTIONAL, clause)
            negated = sig.matches(sig.NEGATION, clause)
            slot = slot_of(clause)
            continuing = bool(groups and groups[-1].clauses)  # it may elaborate that memory
            category = sig.category_of(clause)
            if category == "fact" and continuing:
                category = None  # a goal right after a statement elaborates it ("…，目标浙大")
            new_value = False
            if category is None and change and (
                    negated or sig.matches(sig.CHANGE, WEAK_CHANGE.sub("", clause))
                    or (replaced is not None and replaced.new & distinctive_terms(clause)
                        and not continuing)):
                # "小米那台我已经不用了" / "现在换成 iPhone 了": old or new value
                category = SLOT_CATEGORY.get(slot or "", "fact")
                new_value = not negated
            if category is None and remember and not request \
                    and not sig.matches(sig.FORGET_SELF, clause) and not continuing:
                category = "event"  # "别忘了我下周四要交开题报告": kept, dated, on request
            if category is None and slot is not None and not request \
                    and not (requested and slot in TASK_DETAIL_SLOTS):
                # "我跳槽了", "we ended up in Lyon": names a single-valued slot
                category = SLOT_CATEGORY.get(slot, "fact")
            if category is None and LIFE_EVENT.search(clause):
                category = "event"  # "今天我奶奶走了": a loss, not a passing remark
            if category is None and not (request or emotional) and (
                    self_disclosure(said) if not has_han(said)
                    else self_disclosure_zh(said) and not continuing):
                category = "fact"  # "I drive long haul", "I don't own a car": how life runs
            subject = subjects.clause_subject(clause)
            pronoun = PRONOUN.match(clause) is not None
            names_someone = not pronoun and (
                subjects.family_relation(clause) is not None
                or sig.matches(subjects.THIRD_PARTY, clause))
            ask = category is not None and self._is_ask(said, category)
            last = groups[-1] if groups else None
            if new_value and last is not None and last.clauses and last.replace_negated(clause):
                pass
            elif category is not None and last is not None and last.takes(category, subject) \
                    and (category == "rule" or not ask):
                last.clauses.append(clause)
            elif category is not None and not ask:
                if lead is None and pronoun and mention is not None:
                    lead = mention  # "给我妈买了个血压计，她高血压好多年了": she is the mother
                if lead is not None and (subject is None or pronoun):
                    # "My brother Kev's coming, he's got a nut allergy": the name goes along
                    groups.append(_Group(category, [lead, clause], "other"))
                else:
                    prefix = [context] if context and (_bare(clause) or (
                        category == "rule" and RULE_CONDITION.search(context))) else []
                    # "轿车实在太挤，上周换成了理想L6": the new value fills the slot named before it
                    named = slot_named_by(context) if new_value and context and slot is None \
                        else None
                    groups.append(_Group(category, [clause], subject, slot=named, prefix=prefix))
                lead = context = None
            elif category is None and subject == "other" and not request:
                lead = clause  # never context of the user's memory before it
            elif continuing and not (request or emotional
                                     or sig.matches(sig.ONE_OFF_TIME, clause)):
                groups[-1].clauses.append(clause)
            elif category is None and (RULE_CONDITION.search(clause)
                                       or not (request or emotional)):
                context = clause  # "when I ask about code" is no question
            if names_someone:
                mention = clause
            requested = requested or request
        asked_here = after_question or sig.matches(sig.REQUEST, body)
        for group in groups:
            if group.clauses:
                candidate = self._candidate(group, ref, change=change, remember=remember,
                                            asked=asked_here,
                                            replaces=tuple(sorted(replaced.old)) if replaced
                                            else ())
                if candidate.slot is None and candidate.subject == "user" and group.slot:
                    candidate = replace(candidate, slot=group.slot)
                out.append(replace(candidate, restated=restated,
                                   content=with_absolute_dates(candidate.content, turn.at)))
        return out, mention

    @staticmethod
    def _is_ask(clause: str, category: Category) -> bool:
        """A question or one-off request that merely mentions a signal word
        ("“一帆风顺”用英文怎么说？" asks; "以后都用英文回答我" rules)."""
        if not sig.matches(sig.REQUEST, clause):
            return False
        if category == "rule":  # "can you just give me the answer first?" asks for good
            return not (sig.matches(sig.STANDING_RULE, clause)
                        or sig.matches(sig.REPLY_FORM, clause))
        return not sig.matches(sig.IDENTITY, clause[:8])

    def _candidate(self, group: _Group, ref: dict[str, object], *, change: bool,
                   remember: bool = False, asked: bool = False,
                   replaces: tuple[str, ...] = ()) -> Candidate:
        own = _join(group.clauses)  # who and when come from the statement, not its prefix
        content = _join([*group.prefix, *group.clauses])
        emotional = sig.matches(sig.EMOTIONAL, content)
        category = group.category
        subject = "user"
        importance = DEFAULT_IMPORTANCE[category]
        drop: str | None = None
        relation = subjects.family_relation(own)
        if sig.matches(subjects.THIRD_PARTY, own) and group.subject != "user":
            # "I go bouldering with my coworker every Sunday" is the user's habit
            subject, category, importance = "third_party", "event", THIRD_PARTY_IMPORTANCE
        elif relation is not None and sig.matches(subjects.FAMILY_SUBJECT, own):
            # "my son is autistic": the family member's trait, never the user's; who is in
            # the household ("my beagle Biscuit") stays as weighty as the user's identity
            subject = f"user.{relation}"
            # a pet's or relative's health ("肾指标偏高，医生让换处方粮") is theirs: not core
            importance = importance if category == "identity" and not sig.matches(
                sig.CONSTRAINT, own) else FAMILY_IMPORTANCE
        elif relation is not None and group.subject == "other" and len(group.clauses) > 1 \
                and PRONOUN.match(group.clauses[1]):
            subject = f"user.{relation}"  # "…给我妈买了个血压计，她高血压好多年了"
            importance = FAMILY_IMPORTANCE
        elif relation is not None and category not in ("rule", "constraint") \
                and not sig.matches(WE, own):  # "我们全家搬深圳了": the user moved too
            subject = f"user.{relation}"  # "我有个闺女叫朵朵": the user's family
        negation = sig.matches(sig.NEGATION, own)
        slot = slot_of(own) if subject == "user" else None
        if asked:  # "帮我挑个键盘，budget 50 SGD 左右": the budget of this one request
            importance = min(importance, SLOT_IMPORTANCE_CAP.get(slot or "", importance))
        if too_short(content, self.config) and slot is None:
            drop = "too_short"  # a short clause naming a slot value ("我住在杭州") is no junk
        elif sig.matches(sig.DEICTIC, own):
            drop = "contextual_reference"
        elif sig.matches(sig.ONE_OFF_TIME, own) and (category not in ("rule", "constraint")
                                                     or sig.matches(sig.TEMPORARY_CONDITION, own)) \
                and not sig.matches(sig.DECISION, own) and slot is None and not remember \
                and not replaces and not LIFE_EVENT.search(own) and not ZH_HABIT.search(own) \
                and not (sig.matches(sig.TRIP, own) and MONTH_AHEAD.search(own)):
            drop = "one_off_time_bound"  # "下个月入职腾讯" fills a slot: a durable change, dated
        elif category == "rule" and sig.matches(sig.ONE_OFF_TIME, own) \
                and not LASTING_RULE.search(own):
            drop = "one_off_rule"  # "今天回答都短点，我在地铁上": today's answers only
        elif subject == "third_party" and sig.matches(sig.ONE_OFF_TIME, own) \
                and not LIFE_EVENT.search(own):
            drop = "third_party_one_off"
        kind = KIND_OF_CATEGORY[category]
        return Candidate(
            content=content, kind=kind, category=category, subject=subject,
            importance=importance, confidence=0.6 if emotional else 0.9,
            source="emotional" if emotional else "explicit",
            slot=slot,
            change_signal=change, negation=negation,
            drop_reason=drop, source_ref=ref, replaces=replaces)

    @staticmethod
    def _pseudo(kind: str, text: str, ref: dict[str, object]) -> Candidate:
        return Candidate(content=text, kind="semantic", category="fact",
                         drop_reason=f"pseudo_fact:{kind}", source_ref=ref)

    @staticmethod
    def _dropped(reason: str, ref: dict[str, object]) -> Candidate:
        # the secret itself is never copied into a candidate, a trace or a log
        return Candidate(content="[redacted]", kind="semantic", category="fact",
                         drop_reason=reason, source_ref=ref)
