"""Helpers of the store tests, and functions run in child processes (spawn imports them by
name, so they live in an importable module)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from hermes_graph import MemoryStore
from hermes_graph.testing import FakeClock, HashingEmbeddings

START = "2024-01-01T00:00:00+00:00"


def open_store(path: str, dim: int = 64) -> MemoryStore:
    return MemoryStore(path, embeddings=HashingEmbeddings(dim), clock=FakeClock(START))


def write_then_exit(path: str, scope: str, texts: list[str], *, crash: bool) -> None:
    """Add memories one by one, search (so an index is loaded), then exit.

    With ``crash`` the process dies without closing the store: nothing is
    flushed, so only what SQLite committed can survive.
    """
    store = open_store(path)
    for text in texts:
        store.add(scope, text)
    store.search(scope, texts[0])
    if crash:
        os._exit(0)
    store.close()


def concurrent_writer(path: str, name: str, count: int, start: Any, new_files: int) -> None:
    """Add ``count`` memories to the scope "shared" and as many to the scope ``name``,
    alternating, each in its own transaction, while another process does the same.
    First, open ``new_files`` new database files in step with the other process.

    Every few adds it checks that the newest memory of the scope (whoever wrote
    it) is found by the vector index, i.e. the index follows the other
    process's writes. Any failure raises, so the exit code is non-zero.
    """
    open_new_files(str(Path(path).parent), new_files, start)
    start.wait(timeout=60)
    store = open_store(path)  # the file may not exist yet: the processes race to create it
    for i in range(count):
        for scope in ("shared", name):
            store.add(scope, f"{name} wrote memory {i} 第{i}条")
        if i % 3 == 2:
            latest = store.list("shared")[-1]
            hits = store.search("shared", latest.content, k=5)
            found = [h for h in hits if h.memory.id == latest.id and "vector" in h.routes]
            if not found:
                raise AssertionError(f"{name}: the vector index missed memory {latest.id} "
                                     f"({latest.content!r}); hits {[h.memory.id for h in hits]}")
    store.close()


def open_new_files(directory: str, count: int, barrier: Any) -> None:
    """Open ``count`` new database files, each at the same moment as another process."""
    for i in range(count):
        barrier.wait(timeout=20)
        with open_store(str(Path(directory) / f"new-{i}.db"), dim=8) as store:
            store.add("u", f"opened {i}")


def dump_db(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of a database file, read through a separate connection."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: sorted(conn.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr)
                for t in tables}
    finally:
        conn.close()
