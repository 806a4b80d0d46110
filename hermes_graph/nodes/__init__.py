"""The six memory nodes: recall -> inject -> model -> extract -> gate -> persist.

Each module holds a plain function with the logic and a ``make_*_node`` factory
returning the thin node wrapper LangGraph calls.
"""

from hermes_graph.nodes.extract import extract_candidates, make_extract_node
from hermes_graph.nodes.gate import gate_candidates, make_gate_node
from hermes_graph.nodes.inject import build_block, make_inject_node, with_memory
from hermes_graph.nodes.model import call_model, make_model_node
from hermes_graph.nodes.persist import apply_decisions, make_persist_node
from hermes_graph.nodes.recall import make_recall_node, recall_memories

__all__ = [
    "apply_decisions",
    "build_block",
    "call_model",
    "extract_candidates",
    "gate_candidates",
    "make_extract_node",
    "make_gate_node",
    "make_inject_node",
    "make_model_node",
    "make_persist_node",
    "make_recall_node",
    "recall_memories",
    "with_memory",
]
