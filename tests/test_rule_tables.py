"""Every pattern that stays a rule carries the sentences it must match and must not;
this checks each one, so a pattern cannot drift from its examples."""

from __future__ import annotations

import pytest

from hermes_graph.language.rules import PatternRule
from hermes_graph.language.secrets import (
    PHONE_RULES,
    SECRET_RULES,
    cn_id_valid,
    luhn_valid,
    secret_kinds,
)

TABLES: dict[str, tuple[PatternRule, ...]] = {"secrets": SECRET_RULES, "phones": PHONE_RULES}
RULES = [(f"{table}[{n}] {r.name}", r) for table, rules in TABLES.items()
         for n, r in enumerate(rules)]


@pytest.mark.parametrize(("name", "rule"), RULES, ids=[n for n, _ in RULES])
def test_every_pattern_has_examples_it_matches(name: str, rule: PatternRule) -> None:
    assert len(rule.examples) >= 2, f"{name} needs at least two example sentences"
    for example in rule.examples:
        assert rule.pattern.search(example), f"{name} misses its example {example!r}"
    for counter in rule.counterexamples:
        assert not rule.pattern.search(counter), f"{name} matches {counter!r}"


@pytest.mark.parametrize(("name", "rule"), RULES, ids=[n for n, _ in RULES])
def test_every_example_of_a_secret_is_screened_as_its_kind(name: str, rule: PatternRule) -> None:
    for example in rule.examples:
        assert rule.name in secret_kinds(example, include_phone=True), example


def test_check_digits_find_cards_and_id_numbers_whatever_the_words() -> None:
    assert luhn_valid("4111111111111111") and not luhn_valid("4111111111111112")
    assert cn_id_valid("11010519491231002X") and not cn_id_valid("110105194912310021")
    assert secret_kinds("pay with 3782 822463 10005 please", include_phone=False) == ["bank_card"]
    assert "national_id" in secret_kinds("编号11010519491231002X", include_phone=False)
    assert secret_kinds("order 1234 5678 9012 3", include_phone=False) == []


def test_traditional_characters_are_folded_first() -> None:
    assert secret_kinds("我的密碼是 hunter22", include_phone=False) == ["password"]
