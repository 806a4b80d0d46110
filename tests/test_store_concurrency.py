"""Concurrent writers: two processes, and threads, adding to one database file."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

from hermes_graph import MemoryStore
from tests import store_helpers

SPAWN = multiprocessing.get_context("spawn")
COUNT = 30
NEW_FILES = 12
WRITERS = ("alpha", "beta")


def written_by(name: str) -> set[str]:
    return {f"{name} wrote memory {i} 第{i}条" for i in range(COUNT)}


def test_two_processes_lose_and_duplicate_nothing(db_path: Path,
                                                  open_store: Callable[..., MemoryStore]) -> None:
    """Both processes first create the same new files at the same moments (creating and
    migrating a file races too), then write to a shared scope and to their own scope."""
    start = SPAWN.Barrier(len(WRITERS))
    workers = [SPAWN.Process(target=store_helpers.concurrent_writer,
                             args=(str(db_path), name, COUNT, start, NEW_FILES))
               for name in WRITERS]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [w.exitcode for w in workers] == [0, 0]
    for i in range(NEW_FILES):
        conn = sqlite3.connect(db_path.with_name(f"new-{i}.db"))
        assert conn.execute("SELECT COUNT(*) FROM memories").fetchone()[0] == len(WRITERS)
        conn.close()

    conn = sqlite3.connect(db_path)
    rows = conn.execute("SELECT id, scope, content FROM memories").fetchall()
    fts = conn.execute("SELECT COUNT(*), COUNT(DISTINCT rowid) FROM memory_terms").fetchone()
    log = conn.execute("SELECT memory_id FROM transitions").fetchall()
    versions = dict(conn.execute("SELECT scope, version FROM scopes").fetchall())
    conn.close()
    total = 2 * len(WRITERS) * COUNT
    assert len(rows) == total and len({r[0] for r in rows}) == total
    for scope in ("shared", *WRITERS):
        contents = [r[2] for r in rows if r[1] == scope]
        expected = set().union(*map(written_by, WRITERS)) if scope == "shared" else (
            written_by(scope))
        assert sorted(contents) == sorted(expected), f"scope {scope!r}"
        assert versions[scope] == len(expected)  # every add bumped its scope exactly once
    assert fts == (total, total)
    assert sorted(r[0] for r in log) == sorted(r[0] for r in rows)

    store = open_store()
    for scope in ("shared", *WRITERS):
        memories = store.list(scope)
        hits = store.search(scope, "wrote memory", k=len(memories))
        assert {h.memory.id for h in hits if "vector" in h.routes} == {m.id for m in memories}


def test_threads_sharing_a_store_and_a_second_store(open_store: Callable[..., MemoryStore],
                                                    db_path: Path) -> None:
    shared, other = open_store(), open_store()
    errors: list[BaseException] = []

    def write(store: MemoryStore, name: str) -> None:
        try:
            for i in range(20):
                store.add("t", f"{name} thread memory {i}")
                store.search("t", f"{name} thread memory {i}")
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(store, name))
               for store, name in ((shared, "one"), (shared, "two"), (other, "three"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    contents = [m.content for m in shared.list("t")]
    assert len(contents) == len(set(contents)) == 60
    for store in (shared, other):
        hits = store.search("t", "thread memory", k=60)
        assert len({h.memory.id for h in hits if "vector" in h.routes}) == 60
