"""Embedders: the default offline multilingual USE, the optional e5, a deterministic fake,
and identity."""

from langchain_core.embeddings import Embeddings

from hermes_graph.embeddings.base import embed_texts, embedder_identity
from hermes_graph.embeddings.e5 import E5Embeddings
from hermes_graph.embeddings.fake import HashingEmbeddings
from hermes_graph.embeddings.use import USEEmbeddings
from hermes_graph.errors import HermesError

EMBEDDER_NAMES = ("use", "e5", "hashing")
"""What ``--embedder`` takes: use (default, multilingual USE), e5 (multilingual-e5-small,
the ``e5`` extra), hashing (fast, deterministic; for tests)."""


def named_embeddings(name: str) -> Embeddings:
    """The embedder a command line names (each is offline; e5 needs its extra)."""
    if name == "use":
        return USEEmbeddings()
    if name == "e5":
        return E5Embeddings()
    if name == "hashing":
        return HashingEmbeddings()
    raise HermesError(f"unknown embedder {name!r}; expected one of {', '.join(EMBEDDER_NAMES)}")


__all__ = ["EMBEDDER_NAMES", "E5Embeddings", "HashingEmbeddings", "USEEmbeddings", "embed_texts",
           "embedder_identity", "named_embeddings"]
