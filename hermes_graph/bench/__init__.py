"""Benchmarks run through the real memory graph (``hermes-graph bench ...``).

* :mod:`hermes_graph.bench.locomo` — LoCoMo evidence retrieval: each conversation is
  replayed into its own scope, each question goes through the real recall path,
  Recall@k over evidence turns against a BM25-over-turns baseline.
* :mod:`hermes_graph.bench.scale` — scale (issue 4): write throughput, hot-path
  recall+inject latency, search vs numpy brute force, open time, RSS and disk size at
  growing store sizes, in one scope and spread over many (synthetic data from
  :mod:`hermes_graph.bench.scale_data`).
* :mod:`hermes_graph.bench.report` — Markdown tables and recall@k plots, shared by
  the benchmarks.

The benchmark data is never shipped: point the command at a local copy.
``bm25s`` and ``matplotlib`` (the ``dev`` extra) are imported only when used.
"""
