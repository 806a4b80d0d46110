"""One exception hierarchy; every message names the bad value and what was expected."""

from __future__ import annotations


class HermesError(Exception):
    """Base class of every error hermes-graph raises on purpose."""


class InvalidInputError(HermesError, ValueError):
    """A caller passed a value of the wrong type, range or shape."""


class ScopeError(InvalidInputError):
    """A call did not name a usable scope (there is no default scope)."""


class MemoryNotFoundError(HermesError, KeyError):
    """No memory with that id exists in that scope."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0]) if self.args else "memory not found"


class IllegalTransitionError(HermesError):
    """A status change that the lifecycle does not allow."""

    def __init__(self, from_status: str, to_status: str) -> None:
        super().__init__(f"illegal status transition {from_status!r} -> {to_status!r}")
        self.from_status = from_status
        self.to_status = to_status


class EmbedderMismatchError(HermesError):
    """The configured embedder differs from the one a scope was built with."""


class SchemaVersionError(HermesError):
    """The database was written by a newer hermes-graph schema."""


class StoreClosedError(HermesError):
    """The store was used after close()."""


class ExtractionError(HermesError):
    """An extractor (e.g. an LLM) returned output that is not valid memory JSON."""


class FormatError(InvalidInputError):
    """An input file is not in the expected format; names the line and the problem."""
