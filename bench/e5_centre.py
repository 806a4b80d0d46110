"""Measure the centre that calibrates e5's scores (hermes_graph/embeddings/e5.py).

The centre is the mean raw e5 vector of a reference set: every user message and every
probe question of the project's own scenario files (Chinese and English; no benchmark
data), passages and queries together, as the store embeds them. Unrelated texts score
near 0 once it is taken out.

Usage (needs ``pip install -e '.[e5]'``)::

    python bench/e5_centre.py examples/scenarios.jsonl examples/stress/session*.jsonl \\
        --out hermes_graph/embeddings/e5_centre.npy
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from hermes_graph.embeddings.e5 import E5Embeddings, centred
from hermes_graph.eval.scenarios import load_scenarios


def reference_texts(paths: list[Path]) -> tuple[list[str], list[str]]:
    """(user messages, probe questions) of the scenario files, each once, in file order."""
    messages: dict[str, None] = {}
    questions: dict[str, None] = {}
    for path in sorted(paths):
        for scenario in load_scenarios(str(path)):
            for session in scenario.sessions:
                messages.update((t.content, None) for t in session.turns if t.role == "user")
            questions.update((p.query, None) for p in scenario.probes)
    return list(messages), list(questions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    raw = E5Embeddings(centre=False)
    messages, questions = reference_texts(args.files)
    passages = np.asarray(raw.embed_documents(messages), dtype=np.float32)
    queries = np.asarray([raw.embed_query(q) for q in questions], dtype=np.float32)
    everything = np.concatenate([passages, queries])
    centre = everything.mean(axis=0).astype(np.float32)
    rng = np.random.default_rng(0)
    pairs = rng.integers(0, len(passages), size=(2000, 2))
    before = float(np.mean(np.sum(passages[pairs[:, 0]] * passages[pairs[:, 1]], axis=1)))
    shifted = centred(passages, centre)
    after = float(np.mean(np.sum(shifted[pairs[:, 0]] * shifted[pairs[:, 1]], axis=1)))
    np.save(args.out, centre)
    print(f"{len(messages)} messages, {len(questions)} questions; mean cosine of random "
          f"message pairs {before:.3f} raw, {after:.3f} centred; wrote {args.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
