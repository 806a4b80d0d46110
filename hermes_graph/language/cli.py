"""``hermes-graph train-extractor``: train the extraction model on the corpus and report
each head's macro-F1 on the held-out batches, per language."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from hermes_graph.language.corpus import read_corpus, read_slot_corpus
from hermes_graph.language.model import MODEL_PATH

DEFAULT_CORPUS = Path("data/extraction")
DEFAULT_SLOTS = Path("data/slots")


def format_report(report: dict[str, dict[str, dict[str, float]]]) -> str:
    langs = sorted({lang for head in report.values() for lang in head})
    lines = ["| head | " + " | ".join(f"{lang} macro-F1 (n)" for lang in langs) + " |",
             "|---|" + "---:|" * len(langs)]
    for head, by_lang in report.items():
        cells = [f"{by_lang[lang]['macro_f1']:.3f} ({by_lang[lang]['clauses']:.0f})"
                 if lang in by_lang else "" for lang in langs]
        lines.append(f"| {head} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def cmd_train(args: argparse.Namespace) -> int:
    from hermes_graph.embeddings import USEEmbeddings
    from hermes_graph.embeddings.base import embed_texts
    from hermes_graph.language.train import TrainingOptions, evaluate, fit, split

    files = sorted(Path(args.corpus).glob("*.jsonl"))
    if not files:
        print(f"no *.jsonl files in {args.corpus}")
        return 2
    records = read_corpus(files)
    statements = read_slot_corpus(sorted(Path(args.slots).glob("*.jsonl")))
    options = TrainingOptions(seed=args.seed, heldout_prefix=args.heldout_prefix)
    train, held = split(records, options.heldout_prefix)
    train_slots, held_slots = split(statements, options.heldout_prefix)
    embedder = USEEmbeddings(threads=args.threads)
    cache: dict[str, Any] = {}

    def embed(texts: list[str]) -> Any:
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            cache.update(zip(missing, embed_texts(embedder, missing), strict=True))
        import numpy as np
        return np.stack([cache[t] for t in texts])

    model = fit(train, embed=embed, embedder_id=embedder.embedder_id, dense_dim=3 * embedder.dim,
                options=options, slots=train_slots)
    report = evaluate(model, held, embed=embed, slots=held_slots) if held or held_slots else {}
    model = type(model)(**{**model.__dict__, "meta": {**model.meta, "heldout": report}})
    model.save(Path(args.out))
    print(f"trained on {len(train)} records ({model.meta['clauses']} clauses) and "
          f"{len(train_slots)} slot statements from {len(model.meta['batches'])} batches; "
          f"held out {len(held)} records and {len(held_slots)} slot statements; "
          f"wrote {args.out}")
    print(json.dumps(report, indent=1) if args.json else format_report(report))
    return 0


def add_train_parser(sub: Any) -> None:
    p = sub.add_parser("train-extractor", help="train the extraction model on the corpus",
                       description="Train the extraction model's heads on the labelled corpus "
                       "(needs the train extra: pip install -e '.[train]'), report each head's "
                       "macro-F1 per language on the held-out batches, and write the weights.")
    p.add_argument("--corpus", default=str(DEFAULT_CORPUS),
                   help="folder of corpus *.jsonl files (default: data/extraction)")
    p.add_argument("--slots", default=str(DEFAULT_SLOTS),
                   help="folder of slot corpus *.jsonl files (default: data/slots)")
    p.add_argument("--out", default=str(MODEL_PATH),
                   help="where to write the weights (default: the package's own model)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--heldout-prefix", default="h",
                   help="batches whose names start with this are held out (default: h)")
    p.add_argument("--threads", type=int, default=2, help="embedder threads")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_train)
