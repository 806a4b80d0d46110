"""Pseudo-relevance feedback: a second retrieval hop from the first hits (pure).

A question that needs several memories ("what do A and B have in common", "what
did she do after the move") shares words or meaning with one of them at best. The
first hits carry what the question leaves out (names, places, the event), so a
second search with the query moved towards them (Rocchio) reaches memories the
question alone does not, such as the other half of a multi-part answer.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray


def feedback_vector(query: NDArray[np.float32], seeds: Sequence[NDArray[np.float32]],
                    weight: float) -> NDArray[np.float32]:
    """Rocchio: the unit vector of ``query + weight * mean(seeds)`` (``query`` if none)."""
    if not seeds or weight <= 0:
        return query
    moved = query + weight * np.mean(np.stack(seeds), axis=0)
    norm = float(np.linalg.norm(moved))
    return query if norm == 0 else (moved / norm).astype(np.float32)
