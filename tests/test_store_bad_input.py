"""Bad input gets a clear exception and leaves the database byte-for-byte unchanged."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings

from hermes_graph import (
    InvalidInputError,
    MemoryConfig,
    MemoryStore,
    SchemaVersionError,
    ScopeError,
)
from hermes_graph.store.migrations import SCHEMA_VERSION
from hermes_graph.testing import BAD_FIELDS, SCOPED_CALLS, FakeClock, HashingEmbeddings
from tests.store_helpers import dump_db


def files_of(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.fixture
def filled(store: MemoryStore) -> MemoryStore:
    store.add("u", "I like green tea", category="preference", status="confirmed")
    store.add("u", "我对花生过敏", category="constraint")
    store.add("v", "another scope")
    store.search("u", "tea")
    return store


@pytest.mark.parametrize("fields", BAD_FIELDS, ids=repr)
def test_bad_fields_raise_and_change_nothing(filled: MemoryStore, db_path: Path,
                                             fields: dict[str, Any]) -> None:
    before = dump_db(db_path)
    with pytest.raises(InvalidInputError) as info:
        filled.add("u", **{"content": "a valid memory", **fields})
    assert str(info.value)
    assert dump_db(db_path) == before


@pytest.mark.parametrize(("fields", "named"), [
    ({"kind": "opinion"}, "opinion"), ({"category": "gossip"}, "gossip"),
    ({"status": "zombie"}, "zombie"), ({"importance": 11}, "11"), ({"confidence": math.nan},
                                                                   "nan"),
    ({"content": 42}, "int"), ({"source": "rumour"}, "rumour"), ({"colour": "red"}, "colour"),
])
def test_messages_name_the_bad_value(filled: MemoryStore, fields: dict[str, Any],
                                     named: str) -> None:
    with pytest.raises(InvalidInputError, match=named):
        filled.add("u", **{"content": "a valid memory", **fields})


@pytest.mark.parametrize("limit", [20, 5])
def test_content_size_limit_is_configurable(open_store: Callable[..., MemoryStore],
                                            db_path: Path, limit: int) -> None:
    store = open_store(config=MemoryConfig(max_content_chars=limit))
    assert store.add("u", "x" * limit).content == "x" * limit
    before = dump_db(db_path)
    with pytest.raises(InvalidInputError, match="max_content_chars"):
        store.add("u", "y" * (limit + 1))
    with pytest.raises(InvalidInputError):
        store.add_many("u", [{"content": "ok"}, {"content": "z" * (limit + 1)}])
    with pytest.raises(InvalidInputError):
        store.update("u", store.list("u")[0].id, reason="grow", content="w" * (limit + 1))
    assert dump_db(db_path) == before


@pytest.mark.parametrize("name", SCOPED_CALLS)
def test_every_call_needs_a_scope(filled: MemoryStore, db_path: Path, name: str) -> None:
    memory_id = filled.list("u")[0].id
    args: dict[str, tuple[Any, ...]] = {
        "add": ("content",), "add_many": ([{"content": "c"}],), "get": (memory_id,),
        "find_exact": ("c",), "search": ("c",), "vectors": ([memory_id],),
        "follow_ups": (filled.list("u"),),
        "transition": (memory_id, "confirmed"), "update": (memory_id,), "confirm": (memory_id,),
        "reset_confirmations": (memory_id,), "mark_used": ([memory_id],), "forget": (memory_id,),
        "history": (memory_id,), "import_": (['{"content": "c"}'],),
    }
    kwargs: dict[str, dict[str, Any]] = {
        "transition": {"reason": "r"}, "update": {"reason": "r", "importance": 3},
        "confirm": {"session": "s"}, "reset_confirmations": {"reason": "r"},
        "record_decision": {"action": "drop", "reason": "r"}, "follow_ups": {"turns": 1}}
    before = dump_db(db_path)
    for scope in (None, "", "  ", "\t\n", 0, ("u",), "x" * 201):
        with pytest.raises(ScopeError, match="scope"):
            result = getattr(filled, name)(scope, *args.get(name, ()), **kwargs.get(name, {}))
            if name == "export":
                list(result)
    assert dump_db(db_path) == before


def test_scope_is_required_positionally(filled: MemoryStore) -> None:
    with pytest.raises(TypeError):
        filled.search(query="tea")  # type: ignore[call-arg]


def test_path_that_is_a_directory(tmp_path: Path) -> None:
    directory = tmp_path / "a-directory"
    directory.mkdir()
    (directory / "keep.txt").write_text("untouched", encoding="utf-8")
    before = files_of(tmp_path)
    with pytest.raises(InvalidInputError, match="directory"):
        MemoryStore(directory, embeddings=HashingEmbeddings(16))
    assert files_of(tmp_path) == before


def test_path_in_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="does not exist"):
        MemoryStore(tmp_path / "missing" / "m.db", embeddings=HashingEmbeddings(16))
    assert list(tmp_path.iterdir()) == []


def test_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n" * 50, encoding="utf-8")
    before = files_of(tmp_path)
    with pytest.raises(InvalidInputError, match="not a SQLite database"):
        MemoryStore(path, embeddings=HashingEmbeddings(16))
    assert files_of(tmp_path) == before


def test_database_of_a_newer_schema(filled: MemoryStore, db_path: Path, tmp_path: Path) -> None:
    filled.close()
    conn = sqlite3.connect(db_path)
    conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, 'future')",
                 (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()
    before = files_of(tmp_path)
    with pytest.raises(SchemaVersionError, match=str(SCHEMA_VERSION + 1)):
        MemoryStore(db_path, embeddings=HashingEmbeddings(64))
    assert files_of(tmp_path) == before


class NaNEmbeddings(Embeddings):
    """An external embedder that returns NaN (a broken model)."""

    dim = 8
    embedder_id = "nan-8"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[math.nan] * 8 for _ in texts]

    def embed_query(self, text: str) -> list[float]:
        return [math.nan] * 8


class ShortEmbeddings(HashingEmbeddings):
    """Claims 16 dimensions but returns 8."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [v[:8] for v in super().embed_documents(texts)]


@pytest.mark.parametrize("embedder", [NaNEmbeddings(), ShortEmbeddings(16)],
                         ids=["nan", "wrong-dim"])
def test_broken_embedder_writes_nothing(tmp_path: Path, embedder: Embeddings) -> None:
    path = tmp_path / "m.db"
    with MemoryStore(path, embeddings=embedder, clock=FakeClock("2024-01-01T00:00:00Z")) as s:
        before = dump_db(path)
        with pytest.raises(InvalidInputError, match=r"NaN|dimension"):
            s.add("u", "a memory")
        assert dump_db(path) == before


@pytest.mark.parametrize("make", [
    lambda: MemoryConfig(max_content_chars=-1), lambda: MemoryConfig(keyword_weight=math.nan),
    lambda: MemoryConfig().replace(no_such_field=1), lambda: HashingEmbeddings(0),
    lambda: HashingEmbeddings(-3), lambda: FakeClock(datetime(2024, 1, 1)),
    lambda: FakeClock("yesterday"), lambda: MemoryConfig(coarse_pool_factor=0),
])
def test_bad_configuration_objects(make: Callable[[], object]) -> None:
    with pytest.raises(InvalidInputError):
        make()


def test_config_settings_from_a_command_line_are_typed_and_checked() -> None:
    config = MemoryConfig().with_settings(
        ["keyword_context=0", "recall_k=5", "subject_free_query=false"])
    assert (config.keyword_context, config.recall_k, config.subject_free_query) == (0.0, 5, False)
    for bad, named in [("nope=1", "nope"), ("keyword_context=abc", "abc"),
                       ("keyword_context", "keyword_context"), ("recall_k=2.5", "2.5"),
                       ("keyword_context=-1", "keyword_context"),
                       ("reply_carry_kinds=episodic", "not a number or a switch")]:
        with pytest.raises(InvalidInputError, match=named):
            MemoryConfig().with_settings([bad])
