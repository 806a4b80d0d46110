"""Benchmark reports: results.json, a Markdown summary and recall@k plots (PNG).

The helpers take plain tables (``row -> k -> recall in 0-1 or None``) so any
benchmark can use them; :func:`write_locomo_report` assembles the LoCoMo one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

Table = Mapping[str, Mapping[str, float | None]]
"""Row (a category, "overall") -> k (as a string) -> recall in 0-1, None when empty."""

PLOT_FILE = "recall_at_k.png"


def percent(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{100 * value:.{digits}f}"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if n == 0 else "---:" for n in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def versus_table(systems: Mapping[str, Table], rows: Sequence[str], ks: Sequence[str],
                 counts: Mapping[str, int] | None = None) -> str:
    """Recall@k of several systems side by side, in percent."""
    header = ["", *(["n"] if counts else [])]
    header += [f"R@{k} {name}" for k in ks for name in systems]
    body = []
    for row in rows:
        cells = [row, *([str(counts.get(row, "-"))] if counts else [])]
        cells += [percent(table[row][k]) for k in ks for table in systems.values()]
        body.append(cells)
    return markdown_table(header, body)


def ratio_rows(numerator: Table, denominator: Table, rows: Sequence[str],
               ks: Sequence[str]) -> str:
    body = []
    for row in rows:
        cells = [row]
        for k in ks:
            top, bottom = numerator[row][k], denominator[row][k]
            cells.append("-" if top is None or not bottom else f"{top / bottom:.2f}")
        body.append(cells)
    return markdown_table(["", *(f"@{k}" for k in ks)], body)


def plot_recall_curves(path: Path, systems: Mapping[str, Table], panels: Sequence[str],
                       ks: Sequence[str], *, title: str) -> None:
    """One subplot per panel (row of the tables), one recall@k line per system."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = min(3, len(panels))
    lines = (len(panels) + columns - 1) // columns
    figure, axes = plt.subplots(lines, columns, figsize=(4.2 * columns, 3.4 * lines),
                                squeeze=False, sharey=True)
    x = [int(k) for k in ks]
    for n, panel in enumerate(panels):
        ax = axes[n // columns][n % columns]
        for name, table in systems.items():
            y = [table[panel][k] for k in ks]
            if all(v is not None for v in y):
                ax.plot(x, [100 * float(v or 0) for v in y], marker="o", label=name)
        ax.set_title(panel)
        ax.set_xscale("log")
        ax.set_xticks(x, [str(v) for v in x])
        ax.set_ylim(0, 100)
        ax.set_xlabel("k")
        ax.grid(alpha=0.3)
        if n % columns == 0:
            ax.set_ylabel("Recall@k (%)")
    for n in range(len(panels), lines * columns):
        axes[n // columns][n % columns].set_visible(False)
    axes[0][0].legend(loc="lower right")
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def locomo_markdown(result: Mapping[str, Any], plot: str = PLOT_FILE) -> str:
    """The summary of one ``bench locomo`` result object."""
    extra = result.get("extra", {})
    rows = list(result["hermes"])
    ks = list(result["hermes"]["overall"])
    counts = {**extra.get("questions_by_category", {}), "overall": result["questions"]}
    systems = {"hermes": result["hermes"], "BM25": result["bm25"]}
    parts = [
        f"# LoCoMo evidence retrieval — mode `{result['mode']}`",
        f"{result['questions']} questions (categories 1-4), {result['skipped']} skipped "
        "(no usable evidence id). Recall@k in percent.",
        versus_table(systems, rows, ks, counts),
        "## Ratio hermes / BM25",
        ratio_rows(result["hermes"], result["bm25"], rows, ks),
        "## Cost",
        f"- mean injected tokens per question: {result['avg_injected_tokens']}",
        f"- recall latency: p50 {result['p50_recall_ms']} ms, p95 {result['p95_recall_ms']} ms",
    ]
    write = extra.get("write")
    if write:
        parts += ["## Write path",
                  f"- turns replayed: {write['turns']}; live memories: "
                  f"{write['live_memories']}; turns referenced by a live memory: "
                  f"{write['turns_stored']}",
                  f"- gate actions: {write['actions']}",
                  f"- not stored (top reasons): "
                  f"{dict(list(write['not_stored_reasons'].items())[:8])}"]
    survival = extra.get("evidence_survival")
    if survival:
        parts += ["- evidence turns referenced by a live memory: " + ", ".join(
            f"{name} {percent(share)}%" for name, share in survival.items())]
    llm = extra.get("llm")
    if llm:
        parts += ["## LLM judge", json.dumps(llm, ensure_ascii=False)]
    parts += [f"Plot: `{plot}`"]
    return "\n\n".join(parts) + "\n"


def write_locomo_report(out_dir: Path, result: Mapping[str, Any]) -> list[Path]:
    """results.json, summary.md and the recall@k plot; returns the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = [out_dir / "results.json", out_dir / "summary.md", out_dir / PLOT_FILE]
    written[0].write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n",
                          encoding="utf-8")
    written[1].write_text(locomo_markdown(result), encoding="utf-8")
    plot_recall_curves(written[2], {"hermes": result["hermes"], "BM25": result["bm25"]},
                       list(result["hermes"]), list(result["hermes"]["overall"]),
                       title=f"LoCoMo evidence Recall@k, mode {result['mode']}")
    return written
