"""Per-scope FAISS indexes keyed by SQLite row id.

FAISS holds vectors only; SQLite owns identity, fields and status. Each scope
has its own index (never a shared index filtered afterwards). The index keeps
a small copy of each row's status and kind so a filtered search passes FAISS
an id selector of exactly the rows that may be returned, instead of filtering
after the search. Small scopes use exact inner-product search; from
``ann_threshold`` rows on, an IVF index keeps large scopes fast. k-means
training never runs inside a write: a scope that crossed the threshold (or
outgrew its IVF) is trained at ``flush``/``close``, and keeps its current index
until then.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import faiss
import numpy as np
from numpy.typing import NDArray

from hermes_graph.types import KINDS, STATUSES

# One OpenMP thread: a single-query search over one scope is far cheaper than waking a
# thread team (a search over 29 vectors took ~7 ms with the default team on 2 cores).
faiss.omp_set_num_threads(1)

_STATUS_CODE: dict[str, int] = {s: i for i, s in enumerate(STATUSES)}
_KIND_CODE: dict[str, int] = {k: i for i, k in enumerate(KINDS)}

FloatMatrix = NDArray[np.float32]


@dataclass(frozen=True)
class _Filter:
    """The rows of a scope passing a status/kind filter, as FAISS sees them."""

    count: int
    selector: Any
    bits: NDArray[np.uint8] | None


@dataclass(frozen=True, kw_only=True)
class AnnSettings:
    """When a scope's index turns approximate (IVF) and how it is trained."""

    threshold: int
    nprobe: int
    retrain_growth: float
    train_points_per_list: int
    train_iterations: int


class ScopeIndex:
    """The vectors of one scope, with status/kind codes for pre-search filtering."""

    def __init__(self, dim: int, *, ann: AnnSettings) -> None:
        self.dim = dim
        self.ann = ann
        self.version = -1
        self.trained_size = 0
        self.index: Any = faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
        self._ids: list[int] = []
        self._status: list[int] = []
        self._kind: list[int] = []
        self._pos: dict[int, int] = {}
        self._selectors: dict[tuple[tuple[str, ...], tuple[str, ...] | None], _Filter] = {}

    # --- contents ---------------------------------------------------------
    @property
    def size(self) -> int:
        return len(self._ids)

    @property
    def ids(self) -> set[int]:
        return set(self._pos)

    @property
    def is_ann(self) -> bool:
        return isinstance(self.index, faiss.IndexIVF)

    def add(self, ids: Sequence[int], vectors: FloatMatrix, statuses: Sequence[str],
            kinds: Sequence[str]) -> None:
        if not len(ids):
            return
        self.remove([row_id for row_id in ids if row_id in self._pos])  # replace, never duplicate
        array_ids = np.asarray(ids, dtype=np.int64)
        self.index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), array_ids)
        for row_id, status, kind in zip(ids, statuses, kinds, strict=True):
            self._pos[int(row_id)] = len(self._ids)
            self._ids.append(int(row_id))
            self._status.append(_STATUS_CODE[status])
            self._kind.append(_KIND_CODE[kind])
        self._selectors.clear()

    def remove(self, ids: Iterable[int]) -> None:
        present = [int(i) for i in ids if int(i) in self._pos]
        if not present:
            return
        self.index.remove_ids(faiss.IDSelectorBatch(np.asarray(present, dtype=np.int64)))
        for row_id in present:
            pos = self._pos.pop(row_id)
            last = len(self._ids) - 1
            if pos != last:  # move the last row into the hole
                moved = self._ids[last]
                self._ids[pos] = moved
                self._status[pos] = self._status[last]
                self._kind[pos] = self._kind[last]
                self._pos[moved] = pos
            self._ids.pop()
            self._status.pop()
            self._kind.pop()
        self._selectors.clear()

    def set_status(self, row_id: int, status: str) -> None:
        pos = self._pos.get(int(row_id))
        if pos is not None:
            self._status[pos] = _STATUS_CODE[status]
            self._selectors.clear()

    def set_kind(self, row_id: int, kind: str) -> None:
        pos = self._pos.get(int(row_id))
        if pos is not None:
            self._kind[pos] = _KIND_CODE[kind]
            self._selectors.clear()

    # --- search -----------------------------------------------------------
    def _filter(self, statuses: Sequence[str], kinds: Sequence[str] | None) -> _Filter:
        """How many rows pass the filter and a bitmap selector of them (None when all
        pass), cached per filter until the rows change: building either on every query
        cost more than the search itself."""
        key = (tuple(sorted(statuses)), None if kinds is None else tuple(sorted(kinds)))
        cached = self._selectors.get(key)
        if cached is not None:
            return cached
        ids = np.asarray(self._ids, dtype=np.int64)
        mask = np.isin(np.asarray(self._status, dtype=np.int8),
                       [_STATUS_CODE[s] for s in statuses])
        if kinds is not None:
            mask &= np.isin(np.asarray(self._kind, dtype=np.int8),
                            [_KIND_CODE[k] for k in kinds])
        allowed = ids[mask]
        if allowed.size == len(ids):
            cached = _Filter(count=len(ids), selector=None, bits=None)
        elif allowed.size == 0:
            cached = _Filter(count=0, selector=None, bits=None)
        else:
            bits = np.zeros(int(allowed.max()) // 8 + 1, dtype=np.uint8)
            np.bitwise_or.at(bits, allowed >> 3, (1 << (allowed & 7)).astype(np.uint8))
            selector = faiss.IDSelectorBitmap(len(bits) * 8, faiss.swig_ptr(bits))
            # the selector points into ``bits``: keep them alive together
            cached = _Filter(count=int(allowed.size), selector=selector, bits=bits)
        self._selectors[key] = cached
        return cached

    def search(self, query: FloatMatrix, k: int, statuses: Sequence[str],
               kinds: Sequence[str] | None) -> list[tuple[int, float]]:
        if not self._ids or k <= 0:
            return []
        allowed = self._filter(statuses, kinds)
        if allowed.count == 0:
            return []
        params: Any = faiss.SearchParametersIVF() if self.is_ann else faiss.SearchParameters()
        if self.is_ann:
            params.nprobe = self.ann.nprobe
        if allowed.selector is not None:
            params.sel = allowed.selector
        scores, ids = self.index.search(query.reshape(1, -1), min(k, allowed.count),
                                        params=params)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i >= 0]

    # --- exact <-> approximate --------------------------------------------
    def _all_vectors(self) -> tuple[NDArray[np.int64], FloatMatrix]:
        ids = np.asarray(self._ids, dtype=np.int64)
        vectors = np.vstack([self.index.reconstruct(int(i)) for i in ids]) if len(ids) else (
            np.zeros((0, self.dim), dtype=np.float32))
        return ids, vectors.astype(np.float32)

    @property
    def needs_training(self) -> bool:
        """Has the scope reached the approximate-search size, or outgrown its IVF?"""
        if self.is_ann:
            return self.size > self.ann.retrain_growth * self.trained_size
        return self.size >= self.ann.threshold

    def train(self) -> bool:
        """(Re)build the IVF index if it is due; True if it was.

        Never called from a write: k-means takes seconds at 100k rows, so the
        store trains on ``flush``/``close`` (session end) and when it rebuilds an
        index from SQLite. Until then the current index keeps taking new rows.
        """
        if not self.needs_training:
            return False
        if not self.is_ann:
            ids = faiss.vector_to_array(self.index.id_map).astype(np.int64)
            flat: Any = faiss.downcast_index(self.index.index)
            vectors = faiss.rev_swig_ptr(flat.get_xb(), flat.ntotal * self.dim)
            vectors = np.asarray(vectors, dtype=np.float32).reshape(-1, self.dim).copy()
        else:
            # row ids are not 0..n-1, so reconstruct() needs a hashtable direct map
            self.index.set_direct_map_type(cast(Any, faiss).DirectMap.Hashtable)
            ids, vectors = self._all_vectors()
        self.index = build_ivf(ids, vectors, self.dim, self.ann)
        self.trained_size = len(ids)
        self._selectors.clear()
        return True

    # --- persistence ------------------------------------------------------
    def save(self, path: Path, *, embedder_id: str) -> None:
        tmp = path.with_suffix(".tmp")
        faiss.write_index(self.index, str(tmp))
        os.replace(tmp, path)
        meta = {"version": self.version, "dim": self.dim, "embedder_id": embedder_id,
                "trained_size": self.trained_size}
        meta_tmp = path.with_suffix(".json.tmp")
        meta_tmp.write_text(json.dumps(meta), encoding="utf-8")
        os.replace(meta_tmp, path.with_suffix(".json"))

    @classmethod
    def load(cls, path: Path, *, dim: int, ann: AnnSettings,
             rows: Sequence[tuple[int, str, str]]) -> tuple[ScopeIndex, int]:
        """Read an index file; returns it with the scope version it reflects.

        ``rows`` are (id, status, kind) from SQLite; ids the file lacks are
        left to the caller to add. Raises on a missing or unreadable file.
        """
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        index: Any = faiss.read_index(str(path))
        if index.d != dim or int(meta["dim"]) != dim:
            raise ValueError(f"index dimension {index.d} differs from {dim}")
        scope_index = cls(dim, ann=ann)
        scope_index.index = index
        scope_index.trained_size = int(meta.get("trained_size", 0))
        if isinstance(index, faiss.IndexIVF):
            stored = _ivf_ids(index)
        else:
            stored = faiss.vector_to_array(index.id_map).astype(np.int64)
        stored_set = {int(i) for i in stored}
        if len(stored_set) != len(stored) or stored_set != {row[0] for row in rows}:
            raise ValueError("index ids differ from the rows in SQLite")
        for row_id, status, kind in rows:
            scope_index._pos[row_id] = len(scope_index._ids)
            scope_index._ids.append(row_id)
            scope_index._status.append(_STATUS_CODE[status])
            scope_index._kind.append(_KIND_CODE[kind])
        return scope_index, int(meta["version"])


def build_ivf(ids: NDArray[np.int64], vectors: FloatMatrix, dim: int,
              ann: AnnSettings) -> Any:
    # 4 sqrt(n) lists, but never fewer training points per list than asked for
    nlist = max(1, min(int(4 * math.sqrt(len(ids))), len(ids) // ann.train_points_per_list))
    quantizer = faiss.IndexFlatIP(dim)
    index = faiss.IndexIVFFlat(quantizer, dim, nlist, faiss.METRIC_INNER_PRODUCT)
    index.cp.niter = ann.train_iterations
    sample_size = ann.train_points_per_list * nlist
    rng = np.random.default_rng(0)
    sample = vectors if len(vectors) <= sample_size else vectors[
        rng.choice(len(vectors), sample_size, replace=False)]
    index.train(sample)
    index.add_with_ids(vectors, ids)
    return index


def _ivf_ids(index: Any) -> NDArray[np.int64]:
    invlists = index.invlists
    parts = []
    for list_no in range(index.nlist):
        size = invlists.list_size(list_no)
        if size:
            ptr = invlists.get_ids(list_no)
            parts.append(np.asarray(faiss.rev_swig_ptr(ptr, size), dtype=np.int64).copy())
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
