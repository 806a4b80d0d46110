"""How messages are cut into clauses: sentence marks, commas, the spaces Chinese chat
uses as commas; never inside numbers, brackets, quotes or after an abbreviation."""

from __future__ import annotations

import pytest

from hermes_graph.language.segment import segments, split_sentences


@pytest.mark.parametrize(("message", "clauses"), [
    ("我家在顺义，去首都机场也就二十分钟。下周要飞趟广州，你说我几点出门合适？",
     ["我家在顺义", "去首都机场也就二十分钟", "下周要飞趟广州", "你说我几点出门合适"]),
    ("can you find a gym near me, just moved to Leeds lol",
     ["can you find a gym near me", "just moved to Leeds lol"]),
    ("Dr. Okafor says my BP is 130/85. I paid $1,200!! ugh",
     ["Dr. Okafor says my BP is 130/85", "I paid $1,200", "ugh"]),
    ("我住杭州 在阿里上班～好累啊", ["我住杭州", "在阿里上班", "好累啊"]),
    ("the twins (Maya and Leo, 18 months) sleep badly",
     ["the twins (Maya and Leo, 18 months) sleep badly"]),
    ("他说“我明天来，你等着”。好吧", ["他说“我明天来，你等着”", "好吧"]),
    ("version 2.5 is out... meh", ["version 2.5 is out", "meh"]),
    ("😂😂", []),
])
def test_clauses(message: str, clauses: list[str]) -> None:
    found = segments(message)
    assert [c.text for c in found] == clauses
    assert all(message[c.start:c.end] == c.text for c in found)


def test_the_sentence_mark_belongs_to_the_last_clause_of_its_sentence() -> None:
    found = segments("I'm vegan, any ideas? Thanks!")
    assert [(c.text, c.sentence, c.mark) for c in found] == [
        ("I'm vegan", 0, ""), ("any ideas", 0, "?"), ("Thanks", 1, "!")]
    assert split_sentences("I'm vegan, any ideas? Thanks!") == ["I'm vegan, any ideas", "Thanks"]
