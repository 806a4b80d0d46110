"""Keyword search in Chinese and English: FTS5 over bigrams, words, numbers and codes."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from hermes_graph import MemoryConfig, MemoryStore
from hermes_graph.policy.normalize import (
    index_terms,
    keyword_index_terms,
    keyword_query_terms,
    normalize_key,
    query_terms,
)
from hermes_graph.store.keywords import KEYWORD_SCHEME, TermCounts, keyword_hits, token_key

FILLER = [f"日常记录第{i}条：今天天气不错，散步{i}分钟" for i in range(60)] + [
    f"routine note {i}: walked the dog for {i} minutes" for i in range(60)]


@pytest.mark.parametrize(("content", "query"), [
    ("我对花生过敏", "花生"),
    ("项目代号叫星火计划", "星火"),
    ("我对花生过敏", "花生过敏吗"),
    ("The deployment ticket is ACME-113", "ACME-113"),
    ("The deployment ticket is ACME-113", "acme113"),
    ("The deployment ticket is ACME-113", "ＡＣＭＥ－１１３"),
    ("I moved to Lisbon in 2019", "2019"),
    ("I moved to Lisbon in 2019", "lisbon"),
    ("我在Lisbon住了3年", "lisbon"),
    ("我在Lisbon住了3年", "住了"),
    ("Mein Nachname ist Müller", "müller"),
    ("Mein Nachname ist Müller", "Muller"),
    ("Я живу в Москве", "Москве"),
    ("The budget is 1,500 euros", "1500"),
])
def test_keyword_route_finds_the_term_among_many(store: MemoryStore, content: str,
                                                 query: str) -> None:
    store.add_many("u", [{"content": t} for t in FILLER])
    target = store.add("u", content)
    hits = store.search("u", query, k=3)
    assert hits[0].memory.id == target.id
    assert "keyword" in hits[0].routes and hits[0].keyword_score == 1.0
    assert all(h.keyword_score == 0 for h in hits[1:])


@pytest.mark.parametrize("query", ["花", "pea", "acme114", "2018", "星空", "allergy"])
def test_keyword_route_does_not_match_other_terms(store: MemoryStore, query: str) -> None:
    store.add_many("u", [{"content": t} for t in (
        "我对花生过敏", "项目代号叫星火计划", "ticket ACME-113", "I moved in 2019",
        "I am allergic to peanuts")])
    assert all(h.keyword_score == 0 and "keyword" not in h.routes
               for h in store.search("u", query, k=10))


@pytest.mark.parametrize(("content", "query"), [
    ("I am allergic to peanuts", "peanut"),
    ("We adopted a puppy last spring", "adoption"),
    ("Went camping with the kids", "camps"),
    ("She paints landscapes", "painting"),
])
def test_keyword_route_matches_other_forms_of_an_english_word(store: MemoryStore, content: str,
                                                              query: str) -> None:
    store.add_many("u", [{"content": t} for t in FILLER])
    target = store.add("u", content)
    hits = store.search("u", query, k=5)
    assert [h.memory.id for h in hits if "keyword" in h.routes] == [target.id]


@pytest.mark.parametrize(("text", "terms"), [
    ("We adopted puppies", ["we", "adopt", "puppi"]),
    ("我对花生过敏", ["我对", "对花", "花生", "生过", "过敏"]),  # bigrams are not stemmed
    ("ACME-113 in 2019s", ["acm", "113", "acme113", "in", "2019s"]),  # the code stays whole
    ("Café Müller running", ["café", "müller", "run"]),
])
def test_keyword_index_terms_stem_english_words_only(text: str, terms: list[str]) -> None:
    assert keyword_index_terms(text).split() == terms


def test_keyword_query_terms_stem_after_dropping_stopwords() -> None:
    # "was" is a stopword before stemming; "Adopting" and "adopted" share one stem
    assert keyword_query_terms("Was it the adopted dog? Adopting!") == ["adopt", "dog"]


def test_stopword_only_query_uses_the_vector_route(store: MemoryStore) -> None:
    memory = store.add("u", "what is it")
    hits = store.search("u", "what is it")
    assert [h.memory.id for h in hits] == [memory.id]
    assert hits[0].routes == ("vector",) and hits[0].keyword_score == 0


def test_keyword_search_respects_status_and_kind(store: MemoryStore) -> None:
    live = store.add("u", "我对花生过敏", category="constraint")
    event = store.add("u", "昨天吃了花生酱", category="event")
    gone = store.add("u", "花生米很好吃", status="archived")
    assert {h.memory.id for h in store.search("u", "花生")} == {live.id, event.id}
    assert [h.memory.id for h in store.search("u", "花生", kinds=["episodic"])] == [event.id]
    assert [h.memory.id for h in store.search("u", "花生", statuses=["archived"])] == [gone.id]


def test_query_with_fts_syntax_is_plain_text(store: MemoryStore) -> None:
    memory = store.add("u", 'he said "NEAR" AND OR NOT * ^ stuff')
    for query in ('"NEAR"', "AND OR NOT", "* ^ (", 'stuff"', "NEAR(a b)", "col:stuff"):
        hits = store.search("u", query)
        assert [h.memory.id for h in hits] == [memory.id]


@pytest.mark.parametrize(("text", "terms"), [
    ("我对花生过敏", ["我对", "对花", "花生", "生过", "过敏"]),
    ("ACME-113", ["acme", "113", "acme113"]),
    ("Café Müller", ["café", "müller"]),
    ("budget 1,500", ["budget", "1500"]),
    ("猫", ["猫"]),
])
def test_index_terms(text: str, terms: list[str]) -> None:
    assert index_terms(text).split() == terms


def test_query_terms_drop_stopwords_and_duplicates() -> None:
    assert query_terms("What is the ACME ticket? acme!") == ["acme", "ticket"]


@pytest.mark.parametrize(("a", "b", "same"), [
    ("I like Green Tea.", "i like green tea", True),
    ("ＡＢＣ１２３", "abc123", True),
    ("budget 1,000.00", "budget 1000", True),
    ("Müller", "Möller", False),
    ("Привет мир", "Пока мир", False),
    ("我喜欢猫", "我喜欢狗", False),
])
def test_normalize_key(a: str, b: str, same: bool) -> None:
    assert normalize_key(a) and normalize_key(b)
    assert (normalize_key(a) == normalize_key(b)) is same


def test_another_scopes_common_term_still_ranks_here(open_store: Callable[..., MemoryStore],
                                                     ) -> None:
    """Term counts are per scope: a word in every memory of one user does not make
    another user's single mention of it unsearchable (nor does it leak any row)."""
    store = open_store(config=MemoryConfig(keyword_min_df_cut=5, keyword_max_df_ratio=0.02))
    store.add_many("busy", [{"content": f"espresso number {i} today"} for i in range(120)])
    store.add_many("quiet", [{"content": t} for t in FILLER[:40]])
    target = store.add("quiet", "my favourite drink is an espresso")
    hits = store.search("quiet", "espresso", k=3)
    assert hits[0].memory.id == target.id and "keyword" in hits[0].routes
    assert {h.memory.scope for h in hits} == {"quiet"}
    # inside "busy" the same word is in every memory: it ranks nothing and is skipped
    assert all("keyword" not in h.routes for h in store.search("busy", "espresso", k=3))


def test_common_terms_of_a_scope_are_skipped_but_rare_ones_rank(
        open_store: Callable[..., MemoryStore]) -> None:
    store = open_store(config=MemoryConfig(keyword_min_df_cut=10, keyword_max_df_ratio=0.02))
    store.add_many("u", [{"content": f"routine walk {i}"} for i in range(30)])
    target = store.add("u", "routine visit to the zoo")
    assert keyword_hits(store.db.conn, "u", "routine", 10, scope_size=31, max_ratio=0.02,
                        floor=10) == {}
    hits = keyword_hits(store.db.conn, "u", "routine zoo", 10, scope_size=31, max_ratio=0.02,
                        floor=10)
    assert list(hits) == [target.id]


def test_a_changed_term_scheme_rebuilds_the_keyword_index(
        open_store: Callable[..., MemoryStore], db_path: Path) -> None:
    store = open_store()
    store.add_many("u", [{"content": t} for t in FILLER[:10]])
    target = store.add("u", "项目代号叫星火计划")
    store.close()
    conn = sqlite3.connect(db_path)  # as an older release would have left it
    conn.execute("DELETE FROM memory_terms")
    conn.execute("UPDATE store_meta SET value = 'older-scheme' WHERE key = 'keyword_scheme'")
    conn.commit()
    conn.close()

    store = open_store()
    assert store.search("u", "星火", k=1)[0].memory.id == target.id
    scheme = store.db.execute("SELECT value FROM store_meta WHERE key = 'keyword_scheme'")
    assert scheme.fetchone()[0] == KEYWORD_SCHEME
    assert store.db.execute("SELECT COUNT(*) FROM memory_terms").fetchone()[0] == 11


def test_term_counts_are_reused_until_the_scope_size_drifts(store: MemoryStore) -> None:
    store.add_many("u", [{"content": f"alpha note {i}"} for i in range(200)])
    cache, key = TermCounts(drift=0.01), token_key("u")
    token = key + keyword_query_terms("alpha")[0]
    assert cache.counts(store.db.conn, key, [token], 200) == {token: 200}
    store.add("u", "alpha once more")
    assert cache.counts(store.db.conn, key, [token], 201) == {token: 200}  # within 1 %
    store.add_many("u", [{"content": f"alpha later {i}"} for i in range(10)])
    assert cache.counts(store.db.conn, key, [token], 211) == {token: 211}  # drifted: re-read
