"""Replacement: a statement that names the value it replaces (pure).

Seed 000 §3.3 supersedes an old entry when the new one shows an intent to replace
("改成", "现在用"). Most such changes fill a slot (city, employer, budget), and the slot
finds the old value. A replacement that names its old value needs no slot: "we switched
from Notion to Linear", "swapped my Kindle for a Kobo", "把 Jira 换成了飞书" retire what
was said about Notion, the Kindle or Jira, whatever kind of thing it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hermes_graph.policy.lexicon import readings
from hermes_graph.policy.normalize import distinctive_terms

_OLD = r"(?P<old>.{1,40}?)"
_NEW = (r"(?P<new>\S.{0,40}?)(?=\s+(?:for|in|at|on|since|because|last|this|and|but|after|"
        r"when|as|a while|recently|ago)\b|\s*[,.;!?(]|$)")
"""The new value ends where the sentence goes on ("to Linear for tickets last month")."""
_OLD_ZH = r"(?P<old>[^，。！？,.!?\s]{1,12}?)"
_NEW_ZH = r"(?:了)?(?P<new>[^，。！？,.!?]{1,20})"
REPLACEMENT: tuple[re.Pattern[str], ...] = tuple(re.compile(p, re.IGNORECASE) for p in (
    r"\b(?:switch|switched|switching|move|moved|moving|change|changed|changing|migrate|"
    r"migrated|migrating|went|gone|upgrade|upgraded|upgrading|downgraded|converted|"
    r"transitioned|jumped|graduated)\s+(?:over\s+|back\s+|all\s+)?from\s+" + _OLD
    + r"\s+(?:to|onto|over to)\s+" + _NEW,
    r"\b(?:swapped|swapping|traded|trading|ditched|dropped|replaced|replacing|exchanged)\s+"
    + _OLD + r"\s+(?:for|with)\s+" + _NEW,
    r"(?P<new>\S.{0,40}?)\s+(?:has\s+)?replaced\s+(?P<old>(?:my|our|the)\s+.{1,30}?)(?:$|[,.;!])",
    r"从" + _OLD_ZH + r"(?:换成|改成|换到|转到|改用|换用|切到|切换到|迁到|转成|变成|转向)"
    + _NEW_ZH,
    r"把" + _OLD_ZH + r"(?:换成|改成|替换成|替换为|改为|换为)" + _NEW_ZH,
    r"不用" + _OLD_ZH + r"了[，,\s]*(?:现在|改|换|都)?(?:用|改用|换成)" + _NEW_ZH,
))
""""<verb> from OLD to NEW", "<verb> OLD for NEW", "NEW replaced my OLD", "从OLD换成NEW",
"把OLD换成NEW", "不用OLD了，改用NEW"."""


GENERIC = frozenset({"old", "new", "one", "thing", "stuff", "setup", "current", "previous",
                     "usual", "whole", "entire", "all"})
"""Words of an old value's phrase that name no value ("our old Jira setup")."""


@dataclass(frozen=True)
class Replacement:
    old: frozenset[str]
    """Distinctive terms of the replaced value; terms the new value shares with it
    ("从安卓手机换成了苹果手机": 手机) name no old value."""
    new: frozenset[str]

    def replaces(self, content: str) -> bool:
        """Does a memory hold the old value (and not already the new one)?"""
        terms = distinctive_terms(content)
        return bool(self.old & terms) and not self.new & terms


def replacement_in(text: str) -> Replacement | None:
    """The replacement ``text`` states, if it names the old value: "moved our tickets
    from Notion to Linear" replaces {"notion"} with {"linear", ...}."""
    for reading in readings(text):
        for pattern in REPLACEMENT:
            found = pattern.search(reading)
            if found is not None:
                new = frozenset(distinctive_terms(found.group("new")))
                old = frozenset(distinctive_terms(found.group("old"))) - new - GENERIC
                return Replacement(old, new) if old else None
    return None
