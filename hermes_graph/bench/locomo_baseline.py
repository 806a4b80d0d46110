"""The baseline: BM25 over a conversation's raw turns (``bm25s``, lucene variant).

Every turn is one document holding its session date, speaker and text (with an
image caption), as in the evidence-retrieval protocol of the data's README.
Terms are stemmed (Snowball English, as the store's keyword route): without
stems the baseline scores about four points under the README's reference BM25,
which would flatter the comparison.
"""

from __future__ import annotations

from collections.abc import Sequence

import snowballstemmer

from hermes_graph.bench.locomo_data import LocomoTurn
from hermes_graph.errors import HermesError

Ranking = tuple[tuple[str, ...], ...]
"""The source turn ids of each ranked item, best first (one tuple per item)."""


def bm25_document(turn: LocomoTurn) -> str:
    return f"[{turn.session_date}] {turn.content}"


def bm25_rankings(turns: Sequence[LocomoTurn], queries: Sequence[str], k: int) -> list[Ranking]:
    """The top ``k`` turns of each query, as one-id tuples (so both systems share a metric)."""
    try:
        import bm25s
    except ImportError:
        raise HermesError("the BM25 baseline needs the bm25s package "
                          "(pip install bm25s, or the project's dev extra)") from None
    if not turns or not queries:
        return [() for _ in queries]
    stemmer = snowballstemmer.stemmer("english")
    corpus = [bm25_document(t) for t in turns]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(corpus, stopwords="en", stemmer=stemmer, show_progress=False),
                    show_progress=False)
    query_tokens = bm25s.tokenize(list(queries), stopwords="en", stemmer=stemmer,
                                  show_progress=False)
    docs, _ = retriever.retrieve(query_tokens, k=min(k, len(corpus)), show_progress=False)
    return [tuple((turns[int(i)].dia_id,) for i in row) for row in docs]
