"""Text normalisation and keyword terms for Chinese and English (pure).

``normalize_key`` is the exact-duplicate key (seed 000 §3.3: whitespace,
punctuation, case, number formats, full/half-width). ``index_terms`` and
``query_terms`` turn text into terms: English words, numbers and codes as
words; unsegmented Chinese as overlapping character bigrams, so a two-
character term such as 花生 is found inside 我对花生过敏.

``keyword_index_terms`` and ``keyword_query_terms`` are what the store's FTS5
keyword route indexes and searches: the same terms with alphabetic words reduced
to their Snowball (English) stem, so "adopted" finds "adoption" and "camping"
finds "camp". Chinese bigrams, numbers and codes are left as they are. The gate's
term overlap (``query_terms``) keeps the surface words.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import snowballstemmer

_CJK = (
    r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Han
    r"\u3040-\u30ff"  # kana
    r"\uac00-\ud7af"  # hangul
)
_WORD = rf"(?:(?![{_CJK}])[^\W_])"  # a letter or digit of any other script (é, ü, я, ...)
_RUN = re.compile(rf"[{_CJK}]+|{_WORD}+(?:[._\-/]{_WORD}+)*")
_CJK_RUN = re.compile(rf"^[{_CJK}]+$")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_TRAILING_ZERO = re.compile(r"(\d+)\.0+\b")
_NOT_WORD = re.compile(r"[\W_]+")  # keeps letters and digits of every script

ENGLISH_STOPWORDS = frozenset([
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did",
    "do", "does", "for", "from", "had", "has", "have", "he", "her", "him", "his", "how", "i",
    "i'm", "if", "in", "into", "is", "it", "its", "just", "me", "my", "no", "not", "of", "on",
    "or", "our", "she", "so", "than", "that", "the", "their", "them", "then", "there", "these",
    "they", "this", "to", "up", "us", "was", "we", "were", "what", "when", "where", "which",
    "who", "why", "will", "with", "would", "you", "your", "yours", "about", "any", "some", "here",
])


def fold(text: str) -> str:
    """NFKC (full-width -> half-width) and case-fold."""
    return unicodedata.normalize("NFKC", text).casefold()


def normalize_key(text: str) -> str:
    """The exact-duplicate key: folded, number formats unified, no spaces/punctuation."""
    folded = fold(text)
    folded = _THOUSANDS.sub("", folded)
    folded = _TRAILING_ZERO.sub(r"\1", folded)
    return _NOT_WORD.sub("", folded)


def _terms(text: str, *, keep_stopwords: bool) -> list[str]:
    terms: list[str] = []
    for run in _RUN.findall(_THOUSANDS.sub("", fold(text))):  # "1,000" is the word "1000"
        if _CJK_RUN.match(run):
            if len(run) == 1:
                terms.append(run)
            else:
                terms.extend(run[i : i + 2] for i in range(len(run) - 1))
        else:
            for word in re.split(r"[._\-/]", run):
                if word and (keep_stopwords or word not in ENGLISH_STOPWORDS):
                    terms.append(word)
            if any(sep in run for sep in "._-/"):
                terms.append(re.sub(r"[._\-/]", "", run))  # "A-113" is also "a113"
    return terms


_HAN = re.compile(r"[\u4e00-\u9fff]")


def has_han(text: str) -> bool:
    """Does ``text`` hold Chinese characters (which set length limits and clause glue)?"""
    return _HAN.search(text) is not None


def is_cjk_run(term: str) -> bool:
    """Is ``term`` made of CJK characters only (a character or a bigram of them)?"""
    return _CJK_RUN.match(term) is not None


def index_terms(text: str) -> str:
    """The space-separated tokens stored in the FTS5 table for ``text``."""
    return " ".join(_terms(text, keep_stopwords=True))


def query_terms(text: str) -> list[str]:
    """Distinct search tokens of a query, stopwords removed, in order of appearance."""
    seen: dict[str, None] = {}
    for term in _terms(text, keep_stopwords=False):
        seen.setdefault(term, None)
    return list(seen)


KEYWORD_SCHEME = "snowball-english-1"
"""Names how ``keyword_index_terms`` builds FTS5 terms; a store indexed under another
scheme must be re-indexed before its keyword route matches these query terms."""

_STEMMER = snowballstemmer.stemmer("english")  # uses PyStemmer's C code when installed
_ALPHA = re.compile(r"^[^\W\d_]{3,}$")  # letters only, 3+: "a113" and "2023" stay as they are


@lru_cache(maxsize=65_536)
def _stem(term: str) -> str:
    return str(_STEMMER.stemWord(term)) if _ALPHA.match(term) and not _CJK_RUN.match(
        term) else term


def keyword_index_terms(text: str) -> str:
    """The space-separated, stemmed tokens the store's FTS5 table holds for ``text``."""
    return " ".join(_stem(t) for t in _terms(text, keep_stopwords=True))


def keyword_query_terms(text: str) -> list[str]:
    """Distinct stemmed search tokens of a query, stopwords removed, in order."""
    seen: dict[str, None] = {}
    for term in _terms(text, keep_stopwords=False):
        seen.setdefault(_stem(term), None)
    return list(seen)


def fts_match_expression(terms: list[str]) -> str:
    """An FTS5 MATCH expression OR-ing the quoted terms (quotes escaped)."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


_FUNCTION_CHARS = re.compile(
    r"[我你他她它的了是有个叫在家就吗吧呢啊哈这那也都还又很和与嘛啦呀哦噢]")
STEM_CHARS = 5


def distinctive_terms(text: str) -> set[str]:
    """Keyword terms that carry content (names, nouns), not grammar."""
    return {t for t in query_terms(text) if len(t) > 1 and not _FUNCTION_CHARS.search(t)}


def term_stems(text: str) -> set[str]:
    """Distinctive terms cut to a short stem, so "allergic" and "allergy" are one term
    (a crude stem, for the write gate's duplicate tests only)."""
    return {t[:STEM_CHARS] if t.isascii() and t.isalpha() else t for t in distinctive_terms(text)}
