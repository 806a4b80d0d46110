"""Helpers over any langchain-core ``Embeddings``: identity and float32 matrices."""

from __future__ import annotations

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
