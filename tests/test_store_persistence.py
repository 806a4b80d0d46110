"""Persistence across process restarts and rebuild of missing or damaged FAISS files."""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Callable
from pathlib import Path

import pytest

from hermes_graph import MemoryConfig, MemoryStore
from tests import store_helpers

TEXTS = [f"memory number {i}: 我记得第{i}件事 code-{i:03d}" for i in range(24)]
SPAWN = multiprocessing.get_context("spawn")


def run_child(target: Callable[..., None], *args: object, **kwargs: object) -> None:
    process = SPAWN.Process(target=target, args=args, kwargs=kwargs)
    process.start()
    process.join(timeout=120)
    assert process.exitcode == 0, f"child process failed with exit code {process.exitcode}"


def index_files(db_path: Path) -> list[Path]:
    directory = db_path.with_name(db_path.name + ".faiss")
    return sorted(directory.glob("*.faiss")) if directory.exists() else []


def assert_all_found_by_vector(store: MemoryStore, scope: str, expected: list[str]) -> None:
    memories = store.list(scope)
    assert [m.content for m in memories] == expected
    hits = store.search(scope, "memory number", k=len(expected))
    assert {h.memory.id for h in hits if "vector" in h.routes} == {m.id for m in memories}
    for memory in memories[::5]:
        top = store.search(scope, memory.content, k=3)[0]
        assert top.memory.id == memory.id and "vector" in top.routes


@pytest.mark.parametrize("crash", [False, True], ids=["clean-exit", "crash"])
def test_memories_survive_a_process_restart(db_path: Path, open_store: Callable[..., MemoryStore],
                                            caplog: pytest.LogCaptureFixture,
                                            crash: bool) -> None:
    run_child(store_helpers.write_then_exit, str(db_path), "u", TEXTS, crash=crash)
    files = index_files(db_path)
    assert len(files) == (0 if crash else 1)  # a crashed writer flushed no index
    inodes = [f.stat().st_ino for f in files]
    with caplog.at_level(logging.INFO, logger="hermes_graph"):
        store = open_store()
        assert_all_found_by_vector(store, "u", TEXTS)
        assert store.list("other") == []
        store.close()
    assert not [r for r in caplog.records if "rebuilding" in r.getMessage()]
    if not crash:  # the saved index was loaded as it was, not rebuilt and rewritten
        assert [f.stat().st_ino for f in index_files(db_path)] == inodes


def test_restart_keeps_every_field(db_path: Path, open_store: Callable[..., MemoryStore]) -> None:
    store = open_store()
    m = store.add("u", "我对花生过敏", category="constraint", importance=9, qualifiers=["食物"],
                  source_ref={"turn": 7}, session="s1", status="confirmed")
    store.update("u", m.id, reason="detail", content="我对花生严重过敏")
    store.transition("u", m.id, "frozen", reason="stable")
    before = (store.get("u", m.id), store.transitions("u"), store.history("u", m.id))
    store.close()
    again = open_store()
    assert (again.get("u", m.id), again.transitions("u"), again.history("u", m.id)) == before


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "deleted":
        path.unlink()
    elif how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "garbage":
        path.write_bytes(b"\x00garbage" * 100)
    elif how == "meta-corrupt":
        path.with_suffix(".json").write_text("{", encoding="utf-8")
    elif how == "meta-deleted":
        path.with_suffix(".json").unlink()


@pytest.mark.parametrize("how", ["deleted", "truncated", "empty", "garbage", "meta-corrupt",
                                 "meta-deleted"])
@pytest.mark.parametrize("ann_threshold", [20_000, 16], ids=["flat", "ivf"])
def test_damaged_index_file_is_rebuilt(db_path: Path,
                                       open_store: Callable[..., MemoryStore],
                                       caplog: pytest.LogCaptureFixture, how: str,
                                       ann_threshold: int) -> None:
    config = MemoryConfig(ann_threshold=ann_threshold)
    store = open_store(config=config)
    store.add_many("u", [{"content": t} for t in TEXTS])
    store.add("v", "another scope keeps its own index")
    expected = [(h.memory.id, round(h.score, 5)) for h in store.search("u", "第7件事 code", k=5)]
    store.search("v", "another")
    store.close()
    assert len(index_files(db_path)) == 2
    damaged = max(index_files(db_path), key=lambda p: p.stat().st_size)  # scope "u"
    _damage(damaged, how)

    with caplog.at_level(logging.INFO, logger="hermes_graph"):
        store = open_store(config=config)
        got = [(h.memory.id, round(h.score, 5)) for h in store.search("u", "第7件事 code", k=5)]
        assert got == expected
        assert_all_found_by_vector(store, "u", TEXTS)
        assert [h.memory.content for h in store.search("v", "another")] == [
            "another scope keeps its own index"]
        store.close()
    if how != "deleted":
        assert any("rebuilding" in r.getMessage() for r in caplog.records)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="hermes_graph"):
        store = open_store(config=config)  # the rebuilt index was saved and loads cleanly
        assert_all_found_by_vector(store, "u", TEXTS)
        store.close()
    assert not [r for r in caplog.records if "rebuilding" in r.getMessage()]


def test_stale_index_file_is_brought_up_to_date(open_store: Callable[..., MemoryStore],
                                                caplog: pytest.LogCaptureFixture) -> None:
    reader = open_store()
    reader.add_many("u", [{"content": t} for t in TEXTS[:10]])
    reader.search("u", "memory")  # loads the index; saved (at this version) on close
    writer = open_store()
    writer.add_many("u", [{"content": t} for t in TEXTS[10:]])
    forgotten = writer.list("u")[0]
    writer.forget("u", forgotten.id)
    writer.close()
    hits = reader.search("u", TEXTS[15], k=3)  # the reader's cached index follows the writer
    assert hits[0].memory.content == TEXTS[15] and "vector" in hits[0].routes
    assert forgotten.id not in {h.memory.id for h in reader.search("u", "memory", k=30)}
    reader.close()
    with caplog.at_level(logging.INFO, logger="hermes_graph"):
        store = open_store()
        assert_all_found_by_vector(store, "u", TEXTS[1:])


def test_growing_past_the_ann_threshold_keeps_results(open_store: Callable[..., MemoryStore],
                                                      tmp_path: Path) -> None:
    texts = [f"fact {i}: 城市{i} river{i} bridge{i}" for i in range(80)]
    for threshold in (0, 5, 40):
        store = open_store(tmp_path / f"ann-{threshold}.db",
                           config=MemoryConfig(ann_threshold=threshold))
        assert store.search("u", "nothing yet") == []  # load the empty index: adds then
        for text in texts:                             # grow it one row at a time
            store.add("u", text)
        for i in (0, 41, 79):
            top = store.search("u", texts[i], k=3)[0]
            assert top.memory.content == texts[i] and "vector" in top.routes
        store.close()
        store = open_store(tmp_path / f"ann-{threshold}.db",
                           config=MemoryConfig(ann_threshold=threshold))
        assert store.search("u", texts[63], k=1)[0].memory.content == texts[63]


def test_ivf_training_waits_for_flush_and_keeps_results(
        open_store: Callable[..., MemoryStore], tmp_path: Path) -> None:
    """k-means never runs inside a write: the index stays exact until flush/close."""
    texts = [f"note {i}: 城市{i} harbour{i} lantern{i}" for i in range(60)]
    store = open_store(tmp_path / "train.db", config=MemoryConfig(ann_threshold=40))
    assert store.search("u", "nothing yet") == []  # the index is loaded, as in an agent
    store.add_many("u", [{"content": t} for t in texts])
    before = store.stats("u")
    assert (before["index"], before["index_training_due"]) == ("flat", True)
    tops = [store.search("u", texts[i], k=1)[0].memory.id for i in (0, 30, 59)]
    store.flush()
    after = store.stats("u")
    assert (after["index"], after["index_trained_on"], after["index_training_due"]) == (
        "ivf", 60, False)
    assert [store.search("u", texts[i], k=1)[0].memory.id for i in (0, 30, 59)] == tops
    store.add_many("u", [{"content": f"later {i} 灯塔{i}"} for i in range(200)])
    assert store.stats("u")["index_training_due"]  # outgrew 4x its training set
    store.close()
    store = open_store(tmp_path / "train.db", config=MemoryConfig(ann_threshold=40))
    assert store.stats("u")["index_trained_on"] == 260  # retrained on close, and saved
    assert store.search("u", texts[30], k=1)[0].memory.id == tops[1]
