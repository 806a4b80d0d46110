"""Secrets and ID numbers (seed 004 privacy): what never reaches storage or logs (pure).

What a secret looks like is language knowledge (``language.secrets``); the policy here is
that a candidate holding one is dropped and redacted, whatever made it.
"""

from __future__ import annotations

import dataclasses

from hermes_graph.language.secrets import secret_kinds
from hermes_graph.types import Candidate

__all__ = ["screen_secrets", "secret_kinds"]


def screen_secrets(candidate: Candidate, *, include_phone: bool) -> Candidate:
    """A candidate holding a secret or an ID number becomes a dropped, redacted one
    (seed 004 privacy rules), whatever extractor made it and whatever else it was
    dropped for: the secret goes no further, not even into a trace."""
    secrets = secret_kinds(candidate.content, include_phone=include_phone)
    if not secrets:
        return candidate
    return dataclasses.replace(candidate, content="[redacted]",
                               drop_reason=f"secret:{'+'.join(secrets)}")
