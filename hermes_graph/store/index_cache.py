"""Lazily loaded per-scope FAISS indexes, kept in step with SQLite.

Every change to a scope's rows bumps ``scopes.version`` in the same SQLite
transaction. An index in memory or on disk remembers the version it reflects;
when the numbers differ (another process wrote, a file is stale, missing or
corrupt) the index is brought back in step from the embeddings in SQLite.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from hermes_graph.config import MemoryConfig
from hermes_graph.store.vectors import AnnSettings, ScopeIndex

log = logging.getLogger(__name__)


def scope_file_key(scope: str) -> str:
    """A filesystem- and FTS-safe key for a scope (scopes are arbitrary text)."""
    return "s" + hashlib.sha256(scope.encode("utf-8")).hexdigest()[:24]


class IndexCache:
    def __init__(self, conn: sqlite3.Connection, directory: Path | None,
                 config: MemoryConfig) -> None:
        self._conn = conn
        self._dir = directory
        self._config = config
        self._ann = AnnSettings(
            threshold=config.ann_threshold, nprobe=config.ann_nprobe,
            retrain_growth=config.ann_retrain_growth,
            train_points_per_list=config.ann_train_points_per_list,
            train_iterations=config.ann_train_iterations)
        self._loaded: dict[str, ScopeIndex] = {}
        self._dirty: set[str] = set()

    def _path(self, scope: str) -> Path | None:
        return None if self._dir is None else self._dir / f"{scope_file_key(scope)}.faiss"

    def scope_version(self, scope: str) -> int:
        row = self._conn.execute("SELECT version FROM scopes WHERE scope = ?", (scope,)).fetchone()
        return int(row[0]) if row else 0

    def get(self, scope: str, dim: int) -> ScopeIndex:
        """The scope's index, in step with SQLite's current version."""
        version = self.scope_version(scope)
        index = self._loaded.get(scope)
        if index is not None and index.version == version and index.dim == dim:
            return index
        index = self._load_or_rebuild(scope, dim, version)
        self._loaded[scope] = index
        return index

    def loaded(self, scope: str) -> ScopeIndex | None:
        return self._loaded.get(scope)

    def mark_dirty(self, scope: str) -> None:
        self._dirty.add(scope)

    def forget_loaded(self, scope: str) -> None:
        self._loaded.pop(scope, None)
        self._dirty.discard(scope)

    def _rows(self, scope: str) -> list[tuple[int, str, str]]:
        return [(int(r[0]), r[1], r[2]) for r in self._conn.execute(
            "SELECT id, status, kind FROM memories WHERE scope = ? AND embedding IS NOT NULL",
            (scope,))]

    def _load_or_rebuild(self, scope: str, dim: int, version: int) -> ScopeIndex:
        rows = self._rows(scope)
        path = self._path(scope)
        index: ScopeIndex | None = None
        if path is not None and path.exists():
            try:
                index, file_version = ScopeIndex.load(path, dim=dim, ann=self._ann, rows=rows)
                if file_version != version:
                    log.info("vector index file is stale (v%s, db v%s); rebuilding",
                             file_version, version)
                    index = None
            except Exception as exc:  # truncated, corrupt or foreign file: rebuild
                log.warning("vector index for a scope is unreadable (%s); rebuilding", exc)
                index = None
        if index is None:
            index = ScopeIndex(dim, ann=self._ann)
            self._add_from_sqlite(index, rows, dim)
            if path is not None:
                self._dirty.add(scope)
        index.version = version
        return index

    def _add_from_sqlite(self, index: ScopeIndex, rows: Sequence[tuple[int, str, str]],
                         dim: int) -> None:
        if not rows:
            return
        chunk = 2000
        parts: list[np.ndarray] = []  # read everything first: one add, so IVF trains once
        for start in range(0, len(rows), chunk):
            part = rows[start : start + chunk]
            marks = ",".join("?" * len(part))
            blobs = dict(self._conn.execute(
                f"SELECT id, embedding FROM memories WHERE id IN ({marks})",
                [r[0] for r in part]).fetchall())
            parts.append(np.vstack([np.frombuffer(blobs[r[0]], dtype=np.float32)
                                    for r in part]))
        vectors = np.vstack(parts)
        if vectors.shape[1] != dim:
            raise ValueError(f"stored embeddings have dimension {vectors.shape[1]}, not {dim}")
        index.add([r[0] for r in rows], vectors, [r[1] for r in rows], [r[2] for r in rows])
        index.train()  # once, on everything: not a user's write waiting on k-means

    def save(self, scope: str, embedder_id: str) -> None:
        """Train the scope's IVF if it is due (session-end maintenance), then write it."""
        index = self._loaded.get(scope)
        if index is None:
            return
        index.train()
        path = self._path(scope)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            index.save(path, embedder_id=embedder_id)
        self._dirty.discard(scope)

    def save_dirty(self, embedder_id: str) -> None:
        """Write changed indexes, and train any loaded one that is due (session end)."""
        due = [scope for scope, index in self._loaded.items() if index.needs_training]
        for scope in dict.fromkeys([*self._dirty, *due]):
            self.save(scope, embedder_id)

    def delete_files(self, scope: str) -> None:
        self.forget_loaded(scope)
        path = self._path(scope)
        if path is not None:
            for p in (path, path.with_suffix(".json")):
                p.unlink(missing_ok=True)
