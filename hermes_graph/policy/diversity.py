"""Maximal marginal relevance: near-duplicate memories should not fill the top (pure).

A question about several events ("what activities does she do") is answered by
memories from different moments; the best-scored ones often say the same thing
twice (one event told over a few turns). MMR picks, one at a time, the memory with
the best ``score - penalty * max cosine to those already picked``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray


def mmr_order(scores: Sequence[float], vectors: Sequence[NDArray[np.float32] | None],
              penalty: float) -> list[int]:
    """Indices of ``scores`` in MMR order; an item without a vector is never penalised."""
    n = len(scores)
    if penalty <= 0 or n < 3:
        return sorted(range(n), key=lambda i: -scores[i])
    dim = next((len(v) for v in vectors if v is not None), 0)
    matrix = np.stack([v if v is not None else np.zeros(dim, dtype=np.float32)
                       for v in vectors]) if dim else np.zeros((n, 0), dtype=np.float32)
    similar = matrix @ matrix.T
    closest = np.full(n, -np.inf)  # max cosine to what is picked so far
    left = list(range(n))
    order: list[int] = []
    while left:
        values = [scores[i] - penalty * max(0.0, closest[i]) for i in left]
        pick = left.pop(int(np.argmax(values)))
        order.append(pick)
        closest = np.maximum(closest, similar[pick])
    return order
