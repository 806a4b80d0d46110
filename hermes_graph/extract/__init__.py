"""Extractors behind one interface: learned (the offline default), rule-based, LLM and verbatim."""

from hermes_graph.extract.base import Extractor, Turn
from hermes_graph.extract.learned import LearnedExtractor
from hermes_graph.extract.llm import LLMExtractor, chat_model_from_env, parse_memories
from hermes_graph.extract.prompts import CATCH_UP_PROMPT, EXTRACTION_PROMPT
from hermes_graph.extract.rules import RuleExtractor
from hermes_graph.extract.verbatim import VerbatimExtractor

__all__ = ["CATCH_UP_PROMPT", "EXTRACTION_PROMPT", "Extractor", "LLMExtractor", "LearnedExtractor",
           "RuleExtractor", "Turn", "VerbatimExtractor", "chat_model_from_env",
           "parse_memories"]
