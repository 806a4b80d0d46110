"""hermes-graph: long-term memory for LangGraph agents — clean, bounded, explainable."""

from hermes_graph.clock import FakeClock, system_clock
from hermes_graph.config import MemoryConfig
from hermes_graph.embeddings import E5Embeddings, HashingEmbeddings, USEEmbeddings
from hermes_graph.errors import (
    EmbedderMismatchError,
    ExtractionError,
    FormatError,
    HermesError,
    IllegalTransitionError,
    InvalidInputError,
    MemoryNotFoundError,
    SchemaVersionError,
    ScopeError,
    StoreClosedError,
)
from hermes_graph.store import MemoryStore
from hermes_graph.types import (
    CATEGORIES,
    KINDS,
    LIVE_STATUSES,
    SOURCES,
    STATUSES,
    Memory,
    ScoredMemory,
)

__all__ = [
    "CATEGORIES",
    "KINDS",
    "LIVE_STATUSES",
    "SOURCES",
    "STATUSES",
    "E5Embeddings",
    "EmbedderMismatchError",
    "ExtractionError",
    "FakeClock",
    "FormatError",
    "HashingEmbeddings",
    "HermesError",
    "IllegalTransitionError",
    "InvalidInputError",
    "Memory",
    "MemoryConfig",
    "MemoryNotFoundError",
    "MemoryStore",
    "SchemaVersionError",
    "ScopeError",
    "ScoredMemory",
    "StoreClosedError",
    "USEEmbeddings",
    "system_clock",
]
