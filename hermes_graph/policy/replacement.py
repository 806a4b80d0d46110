"""Replacement: a statement that names the value it replaces (pure).

Seed 000 §3.3 supersedes an old entry when the new one shows an intent to replace
("改成", "现在用"). Most such changes fill a slot (city, employer, budget), and the slot
finds the old value. A replacement that names its old value needs no slot: "we switched
from Notion to Linear", "swapped my Kindle for a Kobo", "把 Jira 换成了飞书", and a
correction, "是二年级，不是三年级", "八千是我想多了", retire what was said of the old value,
whatever kind of thing it is.

The memory keeps the statement without the old value (``Replacement.text``): a superseded
value stays out of what is injected, as the shared example's "小米那台我已经不用了" does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hermes_graph.language.hanzi import simplified
from hermes_graph.policy.normalize import distinctive_terms

_OLD = r"(?P<old>.{1,40}?)"
_NEW = (r"(?P<new>\S.{0,40}?)(?=\s+(?:for|in|at|on|since|because|last|this|and|but|after|"
        r"when|as|a while|recently|ago)\b|\s*[,.;!?(]|$)")
"""The new value ends where the sentence goes on ("to Linear for tickets last month")."""
_OLD_ZH = r"(?P<old>[^，。！？,.!?\s]{1,12}?)"
_NEW_ZH = r"(?:了)?(?P<new>[^，。！？,.!?]{1,20})"
_CHANGE_ZH = r"(?:换成|改成|换到|转到|改用|换用|切到|切换到|迁到|转成|变成|转向|替换成|替换为|改为|换为)"
_CORRECTION_EN = re.compile(r"\b(actually|sorry|typo|i meant|i mean|correction|my bad|wait|oops|"
                            r"misspoke|misspelt|misspelled|wrong|mistake)\b", re.IGNORECASE)
"""An English "X, not Y" is a correction only when the user says they got it wrong."""


@dataclass(frozen=True)
class _Form:
    pattern: re.Pattern[str]
    instead: str = ""
    """What the cut span (the old value and its glue) becomes in the kept statement."""
    needs_correction: bool = False


def _form(pattern: str, instead: str = "", *, needs_correction: bool = False) -> _Form:
    return _Form(re.compile(pattern, re.IGNORECASE), instead, needs_correction)


FORMS: tuple[_Form, ...] = (
    _form(r"\b(?:switch|switched|switching|move|moved|moving|change|changed|changing|migrate|"
          r"migrated|migrating|went|gone|upgrade|upgraded|upgrading|downgraded|converted|"
          r"transitioned|jumped|graduated)\s+(?:over\s+|back\s+|all\s+)?(?P<cut>from\s+" + _OLD
          + r"\s+)(?:to|onto|over to)\s+" + _NEW),
    _form(r"(?P<cut>\b(?:swapped|swapping|traded|trading|ditched|dropped|replaced|replacing|"
          r"exchanged)\s+" + _OLD + r"\s+(?:for|with))\s+" + _NEW, "switched to"),
    _form(r"(?P<new>\S.{0,40}?)\s+(?P<cut>(?:has\s+)?replaced\s+(?P<old>(?:my|our|the)\s+"
          r".{1,30}?))(?=$|[,.;!])", "is what I use now"),
    _form(r"(?P<cut>从" + _OLD_ZH + r")" + _CHANGE_ZH + _NEW_ZH),
    # "把前端迁到 React": 把 names what moves, the old value only with 换成 / 改成
    _form(r"(?P<cut>把" + _OLD_ZH + r")(?:换成|改成|替换成|替换为|改为|换为|变成)" + _NEW_ZH),
    _form(r"(?P<cut>不用" + _OLD_ZH + r"了[，,\s]*)(?:现在|改|换|都)?(?:用|改用|换成)" + _NEW_ZH),
    _form(r"是(?P<new>[^，,。！？!?\s不]{1,12})(?P<cut>[，,\s]*而?不是" + _OLD_ZH + r")(?=$|[，,。！？!?\s])"),
    _form(r"(?P<cut>不是" + _OLD_ZH + r"[，,\s]*(?:而)?)是(?P<new>[^，,。！？!?\s]{1,12})"),
    _form(r"(?P<cut>(?:^|[，,]\s*)" + _OLD_ZH + r"(?:是我|那是我|我)(?:想多了|说错了|记错了|打错了|搞错了|"
          r"瞎说的|乱说的|口误|弄错了))"),
    _form(r"(?P<new>\b[\w'£$€¥.-]+(?:\s+[\w'£$€¥.-]+){0,3}?)(?P<cut>,?\s+not\s+(?P<old>[\w'£$€¥.-]+"
          r"(?:\s+[\w'£$€¥.-]+){0,3}?))(?=$|\s*[,.;!?])", needs_correction=True),
)
""""<verb> from OLD to NEW", "swapped OLD for NEW", "NEW replaced my OLD", "从OLD换成NEW",
"把OLD换成NEW", "不用OLD了，改用NEW", "是NEW，不是OLD", "不是OLD，是NEW", "OLD是我想多了",
and, said as a correction, "NEW, not OLD"."""
GENERIC = frozenset({"old", "new", "one", "thing", "stuff", "setup", "current", "previous",
                     "usual", "whole", "entire", "all"})
"""Words of an old value's phrase that name no value ("our old Jira setup")."""


@dataclass(frozen=True)
class Replacement:
    old: frozenset[str]
    """Distinctive terms of the replaced value; terms the new value shares with it
    ("从安卓手机换成了苹果手机": 手机) name no old value."""
    new: frozenset[str]
    text: str
    """The statement without the old value ("we switched to Linear for tickets")."""

    def replaces(self, content: str) -> bool:
        """Does a memory hold the old value (and not already the new one)?"""
        terms = distinctive_terms(content)
        return bool(self.old & terms) and not self.new & terms


def replacement_in(text: str) -> Replacement | None:
    """The replacement ``text`` states, if it names the old value: "moved our tickets
    from Notion to Linear" replaces {"notion"} with {"linear", ...}."""
    folded = simplified(text)  # same length: spans found in it cut ``text`` itself
    for form in FORMS:
        found = form.pattern.search(folded)
        if found is None or (form.needs_correction and not _CORRECTION_EN.search(folded)):
            continue
        named_new = distinctive_terms(found.groupdict().get("new") or "")
        named_old = distinctive_terms(found.group("old"))
        # what both name is the kind of thing, not a value ("二年级" / "三年级": 年级)
        old, new = frozenset(named_old - named_new - GENERIC), frozenset(named_new - named_old)
        if not old:
            continue
        start, end = found.span("cut")
        instead = form.instead
        if instead and start > 0 and not text[start - 1].isspace():
            instead = " " + instead
        kept = (text[:start] + instead + text[end:]).strip(" ，,")
        return Replacement(old, new, re.sub(r"\s{2,}", " ", kept))
    return None
