"""Schema migrations: from an empty file, from version 1, idempotence, newer schemas."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from hermes_graph import MemoryStore
from hermes_graph.store.migrations import MIGRATIONS, SCHEMA_VERSION, _split, migrate
from hermes_graph.testing import HashingEmbeddings
from tests.store_helpers import dump_db

TABLES = {"memories", "memory_terms", "transitions", "history", "scopes", "schema_version"}


def versions(path: Path) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    finally:
        conn.close()


@pytest.mark.parametrize("existing", [False, True], ids=["no-file", "empty-file"])
def test_migrates_an_empty_file(open_store: Callable[..., MemoryStore], db_path: Path,
                                existing: bool) -> None:
    if existing:
        db_path.write_bytes(b"")
    store = open_store()
    assert versions(db_path) == list(range(1, SCHEMA_VERSION + 1))
    assert set(dump_db(db_path)) >= TABLES
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    memory = store.add("u", "the first memory")
    assert store.get("u", memory.id) == memory


def test_reopening_applies_nothing_twice(open_store: Callable[..., MemoryStore],
                                         db_path: Path) -> None:
    open_store().add("u", "a memory")
    before = dump_db(db_path)
    for _ in range(3):
        open_store().close()
    assert dump_db(db_path) == before
    assert versions(db_path) == list(range(1, SCHEMA_VERSION + 1))


def test_migrate_is_idempotent_on_a_connection() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    assert migrate(conn, now="t1") == SCHEMA_VERSION
    assert migrate(conn, now="t2") == SCHEMA_VERSION
    assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == SCHEMA_VERSION


def _version_1_database(path: Path) -> None:
    """A database as version 1 left it: a memory, and the log of an erased one (id 7)."""
    embedder = HashingEmbeddings(64)
    vector = np.asarray(embedder.embed_query("我对花生过敏"), dtype=np.float32).tobytes()
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in _split(MIGRATIONS[0]):
        conn.execute(statement)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at TEXT)")
    conn.execute("INSERT INTO schema_version VALUES (1, '2024-01-01T00:00:00+00:00')")
    t = "2024-01-01T00:00:00.000000+00:00"
    conn.execute(
        "INSERT INTO memories (id, scope, kind, category, content, norm_key, subject, importance,"
        " confidence, source, status, created_at, updated_at, last_seen_at, embedding,"
        " embedder_id, dim) VALUES (3, 'u', 'semantic', 'constraint', '我对花生过敏',"
        " '我对花生过敏', 'user', 9, 0.9, 'explicit', 'confirmed', ?, ?, ?, ?, 'hashing-64', 64)",
        (t, t, t, vector))
    conn.execute("INSERT INTO memory_fts (rowid, scope_key, terms) VALUES "
                 "(3, ?, '我对 对花 花生 生过 过敏')", (_scope_key("u"),))
    conn.executemany(
        "INSERT INTO transitions (memory_id, scope, from_status, to_status, reason, actor, at)"
        " VALUES (?, 'u', ?, ?, 'r', 'api', ?)",
        [(3, None, "confirmed", t), (7, None, "candidate", t), (7, "candidate", "deleted", t)])
    conn.execute("INSERT INTO scopes (scope, embedder_id, dim, version) "
                 "VALUES ('u', 'hashing-64', 64, 3)")
    conn.close()


def _scope_key(scope: str) -> str:
    from hermes_graph.store.index_cache import scope_file_key

    return scope_file_key(scope)


def test_migrates_a_version_1_database(open_store: Callable[..., MemoryStore],
                                       db_path: Path) -> None:
    _version_1_database(db_path)
    store = open_store()
    assert versions(db_path) == list(range(1, SCHEMA_VERSION + 1))
    old = store.get("u", 3)
    assert (old.content, old.importance, old.status) == ("我对花生过敏", 9, "confirmed")
    hits = store.search("u", "花生")
    assert hits[0].memory.id == 3 and set(hits[0].routes) == {"vector", "keyword"}
    new = store.add("u", "a memory added after the upgrade")
    assert new.id > 7, "an id from the log of an erased memory was reused"
    assert [t["to_status"] for t in store.transitions("u", new.id)] == ["candidate"]


def test_failed_migration_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "other-app.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE memories (x TEXT)")  # another application's table
    conn.execute("INSERT INTO memories VALUES ('theirs')")
    conn.commit()
    conn.close()
    before = dump_db(path)
    with pytest.raises(sqlite3.OperationalError, match="already exists"):
        MemoryStore(path, embeddings=HashingEmbeddings(16))
    assert dump_db(path) == before
