"""Extractors: rule-based (default, offline) and LLM-based, behind one interface."""

from hermes_graph.extract.base import Extractor, Turn
from hermes_graph.extract.llm import LLMExtractor, chat_model_from_env, parse_memories
from hermes_graph.extract.prompts import CATCH_UP_PROMPT, EXTRACTION_PROMPT
from hermes_graph.extract.rules import RuleExtractor

__all__ = ["CATCH_UP_PROMPT", "EXTRACTION_PROMPT", "Extractor", "LLMExtractor",
           "RuleExtractor", "Turn", "chat_model_from_env", "parse_memories"]
