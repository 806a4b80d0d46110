"""policy.substance: importance from sentence form (seed 001 §2.2), without a graph."""

from __future__ import annotations

import pytest

from hermes_graph import InvalidInputError, MemoryConfig
from hermes_graph.policy.substance import substance_importance, told_sentences, told_terms

CONFIG = MemoryConfig()


def test_questions_tell_nothing() -> None:
    assert told_sentences("I moved to Boston. Have you ever been there?") == [
        "I moved to Boston."]
    assert told_sentences("我上周去杭州出差了。你呢？") == ["我上周去杭州出差了。"]
    assert told_terms("How are you? What did you do this weekend?") == 0


def test_decimals_and_ellipses_do_not_split_a_sentence() -> None:
    assert told_sentences("The rent went up 3.5 percent...really?") == []


def test_told_terms_are_distinct_content_words_and_half_weight_cjk_bigrams() -> None:
    # "signed pottery class yesterday" + "like therapy"; stopwords and repeats do not count
    assert told_terms("I just signed up for a pottery class yesterday. It is like therapy, "
                      "pottery therapy.") == 6
    assert told_terms("杭州出差") == 1.5  # 杭州 州出 出差: three bigrams at half weight


def test_a_statement_of_specifics_outranks_a_reaction_or_a_question() -> None:
    telling = substance_importance(
        "I just signed up for a pottery class yesterday. It's like therapy for me, "
        "letting me express myself and get creative.", CONFIG)
    reacting = substance_importance("Wow, that's great!", CONFIG)
    asking = substance_importance("Have you found any activities that make you feel "
                                  "the same way?", CONFIG)
    assert telling > reacting >= asking == 1


def test_importance_is_base_plus_terms_per_point_clamped() -> None:
    config = CONFIG.replace(substance_importance_base=2.0, substance_terms_per_point=1.0,
                            substance_importance_max=6)
    assert substance_importance("Who?", config) == 2
    assert substance_importance("Alice adopted puppies.", config) == 5  # 2 + 3 terms
    many = " ".join(f"word{n}" for n in range(40))
    assert substance_importance(many, config) == 6
    assert substance_importance(many, CONFIG) == 10


@pytest.mark.parametrize("changes", [{"substance_terms_per_point": 0},
                                     {"substance_importance_max": 11},
                                     {"substance_importance_max": 0}])
def test_config_rejects_impossible_settings(changes: dict[str, float]) -> None:
    with pytest.raises(InvalidInputError, match="substance"):
        MemoryConfig(**changes)  # type: ignore[arg-type]
