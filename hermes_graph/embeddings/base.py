"""Helpers over any langchain-core ``Embeddings``: identity and float32 matrices."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
from langchain_core.embeddings import Embeddings
from numpy.typing import NDArray

from hermes_graph.errors import InvalidInputError


def embedder_identity(embeddings: Embeddings) -> str:
    """A stable id naming the embedder, so vectors of two models are never mixed.

    An embedder may set ``embedder_id``; otherwise the class and its model name are used.
    """
    explicit = getattr(embeddings, "embedder_id", None)
    if isinstance(explicit, str) and explicit:
        return explicit
    model = getattr(embeddings, "model", None) or getattr(embeddings, "model_name", None)
    name = f"{type(embeddings).__module__}.{type(embeddings).__qualname__}"
    return f"{name}:{model}" if model else name


def _as_matrix(rows: list[list[float]] | NDArray[np.float32], count: int) -> NDArray[np.float32]:
    matrix = np.asarray(rows, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[0] != count:
        raise InvalidInputError(
            f"embedder returned shape {matrix.shape}, expected ({count}, dim)"
        )
    if not np.all(np.isfinite(matrix)):
        raise InvalidInputError("embedder returned NaN or infinite values")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(matrix / norms, dtype=np.float32)


def embed_texts(embeddings: Embeddings, texts: list[str]) -> NDArray[np.float32]:
    """Embed documents as an L2-normalised float32 matrix (cosine = inner product)."""
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    return _as_matrix(embeddings.embed_documents(texts), len(texts))


def embed_query(embeddings: Embeddings, text: str) -> NDArray[np.float32]:
    vector: NDArray[np.float32] = _as_matrix([embeddings.embed_query(text)], 1)[0]
    return vector


class EmbeddingCache:
    """A bounded LRU of recent vectors, per embedder and per mode (query / document).

    The write path embeds the same text more than once (the gate searches with a
    candidate, then the store adds it), and a session's topic repeats turn after
    turn; the cache makes those repeats free. Vectors are read-only copies.
    """

    def __init__(self, embeddings: Embeddings, *, size: int = 4096) -> None:
        self.embeddings = embeddings
        self.size = size
        self._query: OrderedDict[str, NDArray[np.float32]] = OrderedDict()
        self._documents: OrderedDict[str, NDArray[np.float32]] = OrderedDict()

    def _remember(self, cache: OrderedDict[str, NDArray[np.float32]], text: str,
                  vector: NDArray[np.float32]) -> None:
        vector.setflags(write=False)
        cache[text] = vector
        if len(cache) > self.size:
            cache.popitem(last=False)

    def query(self, text: str) -> NDArray[np.float32]:
        hit = self._query.get(text)
        if hit is not None:
            self._query.move_to_end(text)
            return hit
        vector = embed_query(self.embeddings, text)
        self._remember(self._query, text, vector)
        return vector

    def documents(self, texts: list[str]) -> NDArray[np.float32]:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        found = {t: self._documents[t] for t in texts if t in self._documents}
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            for text, vector in zip(missing, embed_texts(self.embeddings, missing), strict=True):
                found[text] = vector.copy()
        for text in dict.fromkeys(texts):  # refresh or insert, after every lookup is done
            self._documents.pop(text, None)
            self._remember(self._documents, text, found[text])
        return np.vstack([found[t] for t in texts])
