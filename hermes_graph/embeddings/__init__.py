"""Embedders: the default offline multilingual USE, a deterministic fake, and identity."""

from hermes_graph.embeddings.base import embed_texts, embedder_identity
from hermes_graph.embeddings.fake import HashingEmbeddings
from hermes_graph.embeddings.use import USEEmbeddings

__all__ = ["HashingEmbeddings", "USEEmbeddings", "embed_texts", "embedder_identity"]
