"""A deterministic embedding for tests and examples: hashed bag of keyword terms.

Unlike a random-per-text fake, texts that share words (or Chinese bigrams) get
a high cosine, so semantic search behaves plausibly without any model.
"""

from __future__ import annotations

import hashlib

import numpy as np
from langchain_core.embeddings import Embeddings

from hermes_graph.errors import InvalidInputError
from hermes_graph.policy.normalize import index_terms


class HashingEmbeddings(Embeddings):
    """Feature hashing of :func:`index_terms` into ``dim`` signed buckets."""

    def __init__(self, dim: int = 64, *, embedder_id: str | None = None) -> None:
        if isinstance(dim, bool) or not isinstance(dim, int) or dim < 1:
            raise InvalidInputError(f"dim must be a positive integer, got {dim!r}")
        self.dim = dim
        self.embedder_id = embedder_id or f"hashing-{dim}"

    def _vector(self, text: str) -> list[float]:
        vector = np.zeros(self.dim, dtype=np.float64)
        for term in index_terms(text).split() or [text]:
            digest = hashlib.blake2b(term.encode("utf-8"), digest_size=8).digest()
            value = int.from_bytes(digest, "little")
            vector[value % self.dim] += 1.0 if (value >> 32) & 1 else -1.0
        norm = float(np.linalg.norm(vector))
        if norm == 0.0:
            vector[0] = 1.0
            norm = 1.0
        result: list[float] = (vector / norm).tolist()
        return result

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)
