"""LoCoMo raw mode with the raw (uncalibrated) multilingual-e5-small (session 8's probe).

The product's ``--embedder e5`` (``E5Embeddings``) centres e5's vectors (seed 004 §4.2,
score calibration); this script runs the same benchmark with ``centre=False``, the model
as it comes, to show what the calibration is worth.

Usage::

    pip install -e '.[e5]'
    python bench/locomo_e5.py --data ../shared/data/locomo10.json \\
        --out bench/results/locomo-raw-e5 --db /tmp/e5.db
"""

from __future__ import annotations

import sys

from locomo_local_model import probe_parser, run_raw_probe  # bench/ is the script's path

from hermes_graph.embeddings.e5 import E5Embeddings


def main(argv: list[str] | None = None) -> int:
    args = probe_parser(__doc__.split("\n\n")[0]).parse_args(argv)
    embeddings = E5Embeddings(centre=False)
    return run_raw_probe(args, embeddings, embeddings.embedder_id)


if __name__ == "__main__":
    sys.exit(main())
