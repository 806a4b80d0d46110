"""Scenario files (``shared/eval/SCENARIOS.md`` format), replay and the eval metrics."""

from hermes_graph.eval.runner import EvalReport, evaluate, run_scenario
from hermes_graph.eval.scenarios import Probe, RecordedTurn, Scenario, Session, load_scenarios

__all__ = ["EvalReport", "Probe", "RecordedTurn", "Scenario", "Session", "evaluate",
           "load_scenarios", "run_scenario"]
