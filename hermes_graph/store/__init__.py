"""Storage: SQLite (source of truth) + per-scope FAISS vectors + FTS5 keywords."""

from hermes_graph.store.lifecycle import ALLOWED_TRANSITIONS, can_transition, check_transition
from hermes_graph.store.memory_store import MemoryStore

__all__ = ["ALLOWED_TRANSITIONS", "MemoryStore", "can_transition", "check_transition"]
