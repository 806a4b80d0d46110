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
        f"- mean injected tokens per question: {result['avg_injected_tokens']}\n"
        f"- recall latency: p50 {result['p50_recall_ms']} ms, p95 {result['p95_recall_ms']} ms",
    ]
    write = extra.get("write")
    if write:
        lines = [f"- turns replayed: {write['turns']}; live memories: "
                 f"{write['live_memories']}; turns referenced by a live memory: "
                 f"{write['turns_stored']}",
                 f"- gate actions: {write['actions']}",
                 f"- not stored as a new memory (top reasons): "
                 f"{dict(list(write['not_stored_reasons'].items())[:8])}"]
        survival = extra.get("evidence_survival") or {}
        if survival:
            lines.append("- evidence turns referenced by a live memory: " + ", ".join(
                f"{name} {percent(share)}%" for name, share in survival.items()))
        parts += ["## Write path", "\n".join(lines)]
    llm = extra.get("llm")
    if llm:
        parts += ["## LLM judge", json.dumps(llm, ensure_ascii=False)]
    parts += [f"Plot: `{plot}`"]
    return "\n\n".join(parts) + "\n"


def _write_json_and_summary(out_dir: Path, result: Mapping[str, Any], summary: str,
                            plot_name: str) -> list[Path]:
    """results.json and summary.md in ``out_dir``; returns them and the plot's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = [out_dir / "results.json", out_dir / "summary.md", out_dir / plot_name]
    written[0].write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n",
                          encoding="utf-8")
    written[1].write_text(summary, encoding="utf-8")
    return written


def write_locomo_report(out_dir: Path, result: Mapping[str, Any]) -> list[Path]:
    """results.json, summary.md and the recall@k plot; returns the files written."""
    written = _write_json_and_summary(out_dir, result, locomo_markdown(result), PLOT_FILE)
    plot_recall_curves(written[2], {"hermes": result["hermes"], "BM25": result["bm25"]},
                       list(result["hermes"]), list(result["hermes"]["overall"]),
                       title=f"LoCoMo evidence Recall@k, mode {result['mode']}")
    return written


# --- bench scale (issue 4) ------------------------------------------------------------------
SCALE_PLOT_FILE = "latency.png"


def _scale_label(scopes: int) -> str:
    return "1 scope" if scopes == 1 else f"{scopes} scopes"


def _scale_rss(rss: Mapping[str, Any]) -> str:
    own = rss.get("this_process", {})
    fresh = rss.get("fresh_process")
    text = (f"RSS of this process: peak {own.get('peak_mb')} MB (before the open "
            f"{own.get('before_open_mb')} MB)")
    if fresh:
        text = (f"fresh process: peak RSS {fresh['peak_rss_mb']} MB after {fresh['recalls']} "
                f"recalls, open {fresh['open_s']} s + embedder load {fresh['embedder_load_s']}"
                f" s; {text}")
    return text


def scale_markdown(result: Mapping[str, Any], plot: str = SCALE_PLOT_FILE) -> str:
    """The summary of one ``bench scale`` result object: the table, targets and method."""
    extra = result.get("extra", {})
    diagnostics = extra.get("per_result", [])
    header = ["memories", "scopes", "per scope", "add/s (incl. embed)",
              "recall+inject p50 / p95 ms", "recall+inject p95 ms, no embed",
              "search p95 ms, no embed", "numpy p95 ms", "search ÷ numpy p95", "open s",
              "peak RSS MB", "disk MB"]
    rows = []
    for n, r in enumerate(result["results"]):
        d = diagnostics[n] if n < len(diagnostics) else {}
        no_embed = d.get("latency_ms", {}).get("recall_inject_no_embed", {}).get("p95")
        ratio = d.get("search_over_numpy_p95")
        rows.append([
            f"{r['size']:,}", str(r["scopes"]), f"{r['size'] // r['scopes']:,}",
            f"{r['write_per_s']:,.0f}",
            f"{r['recall_inject_p50_ms']:.2f} / {r['recall_inject_p95_ms']:.2f}",
            "-" if no_embed is None else f"{no_embed:.2f}",
            f"{r['search_p95_ms_no_embed']:.2f}", f"{r['numpy_p95_ms']:.2f}",
            "-" if ratio is None else f"{ratio:.1f}", f"{r['open_s']:.3f}",
            f"{r['rss_mb']:,.0f}", f"{r['disk_mb']:.1f}"])
    parts = ["# Scale benchmark", markdown_table(header, rows)]
    targets = extra.get("targets", [])
    if targets:
        parts += ["## Targets", "\n".join(
            f"- {t['target']} at {t['size']:,} memories / {_scale_label(t['scopes'])}: "
            f"{t['measured']} vs {'>=' if 'write' in t['target'] else '<='} {t['limit']} "
            f"-> **{'met' if t['met'] else 'MISSED'}**" for t in targets)]
    if diagnostics:
        lines = []
        for d in diagnostics:
            lat, write = d["latency_ms"], d["write"]
            lines.append(
                f"- {d['size']:,} / {_scale_label(d['scopes'])}: {d['vector_index']} index; "
                f"CPU ms p50 / p95 recall+inject {lat['recall_inject']['cpu_p50']} / "
                f"{lat['recall_inject']['cpu_p95']}, p95 search "
                f"{lat['search_no_embed']['cpu_p95']}, numpy {lat['numpy']['cpu_p95']}; "
                f"query embed alone p50 / p95 {lat['query_embed_only']['p50']} / "
                f"{lat['query_embed_only']['p95']} ms; add: {write['rows_added']:,} rows in "
                f"{write['add_many_calls']} add_many calls, {write['seconds']} s "
                f"({write['per_cpu_s']:,.0f}/CPU-s, slowest call {write['slowest_call_s']} s; "
                f"flush after, incl. IVF training: {write.get('flush_s', 'n/a')} s); "
                f"open: constructor {d['open']['constructor_s']} s + first search "
                f"{d['open']['first_search_s']} s; {_scale_rss(d['rss'])}; load avg "
                f"{d['load_avg_before']} -> {d['load_avg_after']}")
        parts += ["## Details", "\n".join(lines)]
    machine = extra.get("machine", {})
    settings = extra.get("settings", {})
    if machine:
        parts += [f"Machine: {machine.get('nproc')} CPUs ({machine.get('cpu')}), Python "
                  f"{machine.get('python')}; load average at start {extra.get('load_avg_start')},"
                  f" at end {extra.get('load_avg_end')}. Embedder: "
                  f"`{extra.get('embedder', {}).get('id')}`. {settings.get('queries')} queries x "
                  f"{settings.get('rounds')} rounds per row; add_many batches of "
                  f"{settings.get('batch')}; search k = {settings.get('search_k')}; "
                  f"peak RSS measured in {settings.get('rss')}."]
    parts += [f"Plot: `{plot}`"]
    return "\n\n".join(parts) + "\n"


def plot_scale_latency(path: Path, result: Mapping[str, Any]) -> None:
    """Latency against memory count: one line per measure, one style per scope setting."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    measures = (("recall_inject_p50_ms", "recall+inject p50", "tab:blue"),
                ("recall_inject_p95_ms", "recall+inject p95", "tab:orange"),
                ("search_p95_ms_no_embed", "search p95 (no embed)", "tab:green"),
                ("numpy_p95_ms", "numpy brute force p95", "tab:gray"))
    figure, ax = plt.subplots(figsize=(8, 6.2))
    settings = sorted({int(r["scopes"]) for r in result["results"]})
    for style, scopes in zip(("-", "--", ":", "-."), settings, strict=False):
        rows = sorted((r for r in result["results"] if r["scopes"] == scopes),
                      key=lambda r: int(r["size"]))
        x = [int(r["size"]) for r in rows]
        for key, label, color in measures:
            ax.plot(x, [float(r[key]) for r in rows], linestyle=style, marker="o", color=color,
                    label=f"{label}, {_scale_label(scopes)}")
    for size, limit in ((10_000, 20.0), (100_000, 60.0)):
        ax.scatter([size], [limit], marker="_", s=400, color="tab:red", zorder=3)
    ax.scatter([100_000], [10.0], marker="_", s=400, color="tab:purple", zorder=3)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("memories in the store")
    ax.set_ylabel("latency (ms)")
    ax.set_title("hermes-graph hot path by store size (red/purple ticks: targets)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.13))
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def write_scale_report(out_dir: Path, result: Mapping[str, Any]) -> list[Path]:
    """results.json, summary.md and the latency plot; returns the files written."""
    written = _write_json_and_summary(out_dir, result, scale_markdown(result),
                                      SCALE_PLOT_FILE)
    plot_scale_latency(written[2], result)
    return written
