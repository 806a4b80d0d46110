"""A scope is tied to the embedder that built it; reembed() moves it to another."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from hermes_graph import EmbedderMismatchError, MemoryStore
from hermes_graph.testing import HashingEmbeddings
from tests.store_helpers import dump_db

TEXTS = ["我对花生过敏", "I live in Lisbon", "ticket ACME-113", "my sister plays the cello"]


@pytest.fixture
def built(open_store: Callable[..., MemoryStore]) -> None:
    store = open_store()
    store.add_many("u", [{"content": t} for t in TEXTS])
    store.add("other", "a scope the new embedder never touches")
    store.search("u", "cello")
    store.close()


@pytest.mark.parametrize("new", [HashingEmbeddings(32), HashingEmbeddings(64, embedder_id="v2")],
                         ids=["other-dimension", "other-id"])
@pytest.mark.usefixtures("built")
def test_other_embedder_raises_then_reembed_fixes_it(
        open_store: Callable[..., MemoryStore], db_path: Path, new: HashingEmbeddings) -> None:
    store = open_store(embedder=new)
    memory = store.list("u")[0]
    before = dump_db(db_path)
    for call in (lambda: store.add("u", "a new memory"),
                 lambda: store.search("u", "cello"),
                 lambda: store.update("u", memory.id, reason="r", content="我对坚果过敏"),
                 lambda: store.import_("u", ['{"content": "imported"}'])):
        with pytest.raises(EmbedderMismatchError, match="reembed") as info:
            call()
        assert "hashing-64" in str(info.value) and new.embedder_id in str(info.value)
    assert dump_db(db_path) == before
    assert [m.content for m in store.list("u")] == TEXTS  # reads need no vectors
    stats = store.stats("u")  # stats describe the rows; the index waits for reembed()
    assert stats["total"] == len(TEXTS) and stats["index"] is None
    assert store.add("fresh", "a new scope takes the new embedder").dim == new.dim

    assert store.reembed("u") == len(TEXTS)
    assert {(m.embedder_id, m.dim) for m in store.list("u")} == {(new.embedder_id, new.dim)}
    top = store.search("u", "ticket ACME-113")[0]
    assert top.memory.content == "ticket ACME-113" and "vector" in top.routes
    assert store.add("u", "works again").embedder_id == new.embedder_id
    store.close()

    old = open_store()  # now the original embedder is the foreign one for "u" ...
    with pytest.raises(EmbedderMismatchError):
        old.search("u", "cello")
    assert old.search("other", "scope")[0].memory.scope == "other"  # ... but not for "other"


@pytest.mark.usefixtures("built")
def test_failed_update_does_not_break_the_original_embedder(
        open_store: Callable[..., MemoryStore]) -> None:
    foreign = open_store(embedder=HashingEmbeddings(32))
    with pytest.raises(EmbedderMismatchError):
        foreign.update("u", foreign.list("u")[0].id, reason="r", content="something else")
    foreign.close()
    store = open_store()
    hits = store.search("u", "我对花生过敏")
    assert hits[0].memory.content == "我对花生过敏" and "vector" in hits[0].routes


def test_reembed_of_an_empty_scope(store: MemoryStore) -> None:
    assert store.reembed("nobody") == 0
    assert store.search("nobody", "anything") == []
