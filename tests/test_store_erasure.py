"""forget and purge_scope leave no copy of the content anywhere on disk.

The check reads the raw bytes of every file the store owns (database, WAL,
shared memory, FAISS files) while the store is still open, again after
close, and once more after a checkpoint and VACUUM.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from hermes_graph import MemoryStore

SECRET_EN = "ZephyrQuokka-7731 lullabies for the wombat"
SECRET_ZH = "我的秘密暗号是紫罗兰星期三"
SECRET = f"{SECRET_EN} {SECRET_ZH}"
# The raw content, and the forms the keyword index stores (lowercase words, codes
# without separators, Chinese bigrams).
NEEDLES = (SECRET, SECRET_EN, SECRET_ZH, "ZephyrQuokka", "zephyrquokka", "zephyrquokka7731",
           "lullabies", "紫罗兰", "紫罗", "罗兰", "暗号")
FILLER = [f"ordinary memory {i} about the weather 天气记录{i}" for i in range(40)]


def leaks(directory: Path, needles: tuple[str, ...] = NEEDLES) -> list[tuple[str, str]]:
    """(file, needle) for every needle whose UTF-8 bytes occur in any file."""
    found = []
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        data = path.read_bytes()
        found += [(path.name, n) for n in needles if n.encode("utf-8") in data]
    return found


def fts_rows(db_path: Path, term: str) -> list[int]:
    """Rows of the keyword index holding ``term`` in any scope (tokens are scope-prefixed)."""
    conn = sqlite3.connect(db_path)
    try:
        conn.execute("INSERT INTO memory_terms (memory_terms) VALUES ('integrity-check')")
        tokens = [r[0] for r in conn.execute(
            "SELECT term FROM memory_terms_vocab WHERE term LIKE ?", (f"%{term}",))]
        return sorted({r[0] for token in tokens for r in conn.execute(
            "SELECT rowid FROM memory_terms WHERE memory_terms MATCH ?", (f'"{token}"',))})
    finally:
        conn.close()


def checkpoint_and_vacuum(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
    finally:
        conn.close()


def _forget(store: MemoryStore, memory_id: int) -> None:
    store.forget("secret", memory_id)


def _purge(store: MemoryStore, memory_id: int) -> None:
    assert store.purge_scope("secret") == 2


@pytest.mark.parametrize("erase", [_forget, _purge], ids=["forget", "purge_scope"])
@pytest.mark.parametrize("variant", ["plain", "updated", "long", "many"])
def test_erasure_leaves_no_bytes(tmp_path: Path, open_store: Callable[..., MemoryStore],
                                 erase: Callable[[MemoryStore, int], None],
                                 variant: str) -> None:
    db_path = tmp_path / "memory.db"
    store = open_store(db_path)
    # freed pages are zeroed even where SQLite was not compiled with SECURE_DELETE
    assert store.db.execute("PRAGMA secure_delete").fetchone()[0] == 1
    store.add_many("secret", [{"content": t} for t in FILLER[:20]])
    store.add_many("other", [{"content": t} for t in FILLER[20:]])
    if variant == "long":  # content spilling onto overflow pages
        content = SECRET + " " + "很长的秘密内容" * 250
    elif variant == "updated":  # the first version also sits in the history table
        content = "an innocent first version"
    else:
        content = SECRET
    memory = store.add("secret", content, session="s1")
    if variant == "updated":
        store.update("secret", memory.id, reason="edit", content=SECRET)
        store.confirm("secret", memory.id, session="s2")
    if variant == "many":  # several FTS segments and a larger WAL
        for i in range(30):
            store.add("secret" if i % 2 else "other", f"later memory {i}")
    if erase is _purge:  # purge erases the whole scope: keep only two memories in it
        for m in store.list("secret"):
            if m.id != memory.id:
                store.forget("secret", m.id)
        store.add("secret", "one more ordinary memory")
    assert store.search("secret", "zephyrquokka 紫罗兰")[0].memory.id == memory.id
    store.flush()
    assert leaks(tmp_path), "the scan must see the content before erasure"
    assert fts_rows(db_path, "紫罗") == [memory.id]

    erase(store, memory.id)

    assert leaks(tmp_path) == [], "content left on disk while the store is open"
    assert fts_rows(db_path, "紫罗") == [] and fts_rows(db_path, "zephyrquokka") == []
    top = store.search("other", "ordinary memory 天气记录21")[0]
    assert top.memory.content == FILLER[21], "erasure damaged another scope"
    store.close()
    assert leaks(tmp_path) == [], "content left on disk after close"
    checkpoint_and_vacuum(db_path)
    assert leaks(tmp_path) == []


def test_forget_erases_from_a_second_open_store(tmp_path: Path,
                                                open_store: Callable[..., MemoryStore]) -> None:
    """Another connection that cached the scope's index does not resurrect the content."""
    db_path = tmp_path / "memory.db"
    first, second = open_store(db_path), open_store(db_path)
    memory = first.add("secret", SECRET)
    first.add("secret", "an ordinary memory")
    assert second.search("secret", "zephyrquokka")[0].memory.id == memory.id
    first.forget("secret", memory.id)
    assert memory.id not in {h.memory.id for h in second.search("secret", SECRET, k=10)}
    second.close()
    first.close()
    assert leaks(tmp_path) == []
