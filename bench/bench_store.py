"""Store benchmark (issue 2): add throughput, search latency, open time and RSS.

Usage::

    python bench/bench_store.py [--sizes 1000,10000,100000] [--json] [--out DIR]

What is measured, for each size N (all memories in ONE scope, growing in one
SQLite file so every size reuses the rows of the previous one):

* **add** -- the last ``--add-batch`` (1000) memories of N are inserted with one
  real ``MemoryStore.add_many`` call using the default embedder
  (``USEEmbeddings``); the time includes validation, USE embedding, the SQLite
  transaction, the FAISS update (the scope's index is loaded, as in a running
  agent) and the returned ``Memory`` objects. The rows *before* that batch are
  filler: their USE vectors are computed once per run (cached in a temp .npy)
  and fed to ``add_many`` through a lookup embedder, so filling 100k does not
  embed twice. Filler is never timed.
* **search** -- ``store.search(scope, text, k=8)`` over ``--queries`` distinct
  queries, ``--rounds`` passes, p50/p95 in ms; the variants below alternate query
  by query, so background load on a shared machine hits them alike:
  ``excl. embed``: a wrapper embedder returns the query's precomputed USE vector
  (so the time is the store: FAISS route, FTS5 route, SQLite fetch, fusion);
  ``incl. embed``: the real USE query embedding on every call;
  ``vector route``: the scope's FAISS index alone (private API, for breakdown);
  ``numpy``: brute force ``matrix @ q`` + ``argpartition`` top-(k*4) over the
  same vectors, in the same run. Searches use the default live-status filter;
  a realistic share of rows is archived or pending, so the filter is active.
* **open** -- constructor + first search of the scope (which lazily loads the
  FAISS file) in this process with an already loaded embedder; the same with
  the index files deleted (rebuild from SQLite); and in a fresh Python process
  with the default embedder (includes model load), which also reports that
  process's peak RSS (``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import inspect
import json
import os
import platform
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
from langchain_core.embeddings import Embeddings
from numpy.typing import NDArray
from threadpoolctl import threadpool_limits
from tqdm import tqdm

from hermes_graph.embeddings.use import USEEmbeddings
from hermes_graph.store.keywords import keyword_hits
from hermes_graph.store.memory_store import MemoryStore
from hermes_graph.types import KIND_OF_CATEGORY, LIVE_STATUSES, Category

FloatMatrix = NDArray[np.float32]
SCOPE = "bench:user-0001"
K = 8
ADD_TARGET_PER_S = 300.0
SEARCH_P95_TARGET_MS = 10.0

try:
    import psutil
except ImportError:  # psutil is in the "bench" extra; fall back to getrusage only
    psutil = None


# --- synthetic memories ---------------------------------------------------------------
NAMES_ZH = ["张伟", "王芳", "李娜", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周杰", "吴倩",
            "徐明", "孙悦", "马超", "朱琳", "胡斌", "郭婷", "林峰", "何雪", "高远", "罗丹"]
NAMES_EN = ["Alice", "Bob", "Carlos", "Diana", "Ethan", "Fatima", "George", "Hana", "Ivan",
            "Julia", "Kenji", "Laura", "Mohammed", "Nina", "Oscar", "Priya", "Quentin",
            "Rosa", "Sven", "Tomoko"]
CITIES_ZH = ["北京", "上海", "深圳", "杭州", "成都", "广州", "南京", "武汉", "西安", "苏州",
             "重庆", "厦门", "青岛", "长沙", "天津"]
CITIES_EN = ["Berlin", "London", "Tokyo", "Singapore", "Toronto", "Paris", "Seattle",
             "Sydney", "Amsterdam", "Lisbon", "Austin", "Dublin", "Zurich", "Seoul", "Oslo"]
JOBS_ZH = ["后端工程师", "产品经理", "数据分析师", "中学老师", "医生", "设计师", "律师",
           "会计", "研究员", "记者", "厨师", "摄影师"]
JOBS_EN = ["backend engineer", "product manager", "data scientist", "nurse", "architect",
           "teacher", "lawyer", "accountant", "researcher", "journalist", "chef", "pilot"]
FOODS_ZH = ["火锅", "小笼包", "拉面", "寿司", "烤鸭", "麻辣烫", "煎饼", "饺子", "酸菜鱼",
            "螺蛳粉", "肠粉", "凉皮", "豆腐脑", "烧烤"]
FOODS_EN = ["ramen", "tacos", "sourdough bread", "pad thai", "sushi", "lasagna", "falafel",
            "pho", "dim sum", "paella", "curry", "bagels", "oatmeal", "kimchi stew"]
DRINKS = ["美式咖啡", "拿铁", "乌龙茶", "龙井", "green tea", "oat milk latte", "espresso",
          "sparkling water", "hot chocolate", "matcha", "豆浆", "柠檬水"]
ALLERGENS_ZH = ["花生", "海鲜", "芒果", "牛奶", "鸡蛋", "小麦", "坚果", "大豆", "青霉素",
                "猫毛", "花粉", "芝麻"]
ALLERGENS_EN = ["peanuts", "shellfish", "penicillin", "gluten", "lactose", "tree nuts",
                "cat dander", "pollen", "sesame", "eggs", "soy", "latex"]
HOBBIES = ["跑步", "羽毛球", "围棋", "摄影", "徒步", "游泳", "弹吉他", "bouldering", "chess",
           "cycling", "pottery", "birdwatching", "sailing", "yoga", "photography"]
TECH = ["Python", "Rust", "Go", "TypeScript", "Kotlin", "PostgreSQL", "Redis", "Kafka",
        "Kubernetes", "React", "FastAPI", "LangGraph", "FAISS", "SQLite", "Terraform"]
CLOUDS = ["AWS", "GCP", "Azure", "阿里云", "腾讯云", "a bare-metal cluster", "Fly.io"]
PROJECTS = ["hermes", "atlas", "orion", "北极星", "phoenix", "蓝鲸", "nebula", "sparrow",
            "kestrel", "青鸟", "tundra", "mosaic"]
TOPICS_ZH = ["季度预算", "招聘计划", "上线方案", "数据迁移", "性能优化", "用户调研", "合同续签",
             "年度体检", "搬家安排", "旅行路线", "论文修改", "装修报价"]
TOPICS_EN = ["the Q3 roadmap", "the pricing change", "a database migration", "the launch plan",
             "hiring for the platform team", "the security audit", "a wedding venue",
             "the kid's school enrolment", "a visa application", "the mortgage renewal"]
WEEKDAYS_ZH = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
WEEKDAYS_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
LANGS = ["中文", "English", "日本語", "简体中文", "plain English", "bullet points in English"]
FORMATS = ["表格", "要点列表", "a short summary", "a numbered list", "代码示例", "a table",
           "两段以内的文字", "a one-line answer"]
PETS = ["猫", "狗", "仓鼠", "兔子", "cat", "dog", "parrot", "goldfish", "tortoise"]
TIMES_EN = ["in the morning", "after lunch", "late at night", "on weekends", "before meetings"]
TIMES_ZH = ["早上", "午饭后", "深夜", "周末", "开会前"]

Template = Callable[[random.Random], str]
T = TypeVar("T")


def _p(rng: random.Random, options: Sequence[T]) -> T:
    return options[rng.randrange(len(options))]


def _date(rng: random.Random) -> str:
    return f"{rng.randint(2019, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


TEMPLATES: Mapping[Category, Sequence[Template]] = {
    "identity": [
        lambda r: f"我叫{_p(r, NAMES_ZH)}，今年{r.randint(18, 70)}岁，住在{_p(r, CITIES_ZH)}。",
        lambda r: f"My name is {_p(r, NAMES_EN)} and I work as a {_p(r, JOBS_EN)} in "
                  f"{_p(r, CITIES_EN)}.",
        lambda r: f"用户是一名{_p(r, JOBS_ZH)}，在{_p(r, CITIES_ZH)}工作了{r.randint(1, 25)}年。",
        lambda r: f"I was born in {_p(r, CITIES_EN)} in {r.randint(1950, 2006)} and moved to "
                  f"{_p(r, CITIES_ZH)} for work.",
        lambda r: f"用户的母语是中文，也会说{_p(r, ['英语', '日语', '法语', '德语', '粤语'])}。",
        lambda r: f"User's pronouns are {_p(r, ['she/her', 'he/him', 'they/them'])}; "
                  f"employee id E-{r.randint(10000, 99999)}.",
    ],
    "preference": [
        lambda r: f"我喜欢吃{_p(r, FOODS_ZH)}，最好是{_p(r, CITIES_ZH)}的老店。",
        lambda r: f"Prefers {_p(r, DRINKS)} {_p(r, TIMES_EN)}, with no sugar.",
        lambda r: f"用户{_p(r, TIMES_ZH)}喜欢{_p(r, HOBBIES)}，每周大约{r.randint(1, 6)}次。",
        lambda r: f"Likes {_p(r, FOODS_EN)} but dislikes {_p(r, FOODS_EN)}; rates spicy food "
                  f"{r.randint(1, 10)}/10.",
        lambda r: f"回复时更喜欢用{_p(r, LANGS)}，格式用{_p(r, FORMATS)}。",
        lambda r: f"Favourite editor theme is {_p(r, ['solarized', 'dracula', 'nord', 'gruvbox'])}"
                  f" and font size {r.randint(11, 20)}.",
        lambda r: f"养了一只{_p(r, PETS)}，名字叫{_p(r, NAMES_ZH)[1:]}"
                  f"{_p(r, ['宝', '球', '豆'])}。",
    ],
    "constraint": [
        lambda r: f"我对{_p(r, ALLERGENS_ZH)}过敏，不能吃含{_p(r, ALLERGENS_ZH)}的东西。",
        lambda r: f"Allergic to {_p(r, ALLERGENS_EN)}; carries an EpiPen since "
                  f"{r.randint(2005, 2025)}.",
        lambda r: f"Cannot take meetings before {r.randint(7, 11)} am on {_p(r, WEEKDAYS_EN)}s.",
        lambda r: f"{_p(r, WEEKDAYS_ZH)}晚上{r.randint(6, 10)}点以后不方便接电话。",
        lambda r: f"预算上限是{r.randint(1, 50) * 1000}元，超过需要先确认。",
        lambda r: f"Must not share data with {_p(r, CLOUDS)} accounts outside the "
                  f"{_p(r, PROJECTS)} project.",
    ],
    "fact": [
        lambda r: f"{_p(r, NAMES_ZH)}的生日是{r.randint(1, 12)}月{r.randint(1, 28)}日。",
        lambda r: f"The {_p(r, PROJECTS)} repo uses {_p(r, TECH)} and {_p(r, TECH)}, deployed on "
                  f"{_p(r, CLOUDS)}.",
        lambda r: f"{_p(r, NAMES_EN)} is the user's {_p(r, ['sister', 'manager', 'neighbour'])}"
                  f" and lives in {_p(r, CITIES_EN)}.",
        lambda r: f"用户的车是{r.randint(2012, 2025)}年的{_p(r, ['特斯拉', '比亚迪', '丰田'])}，"
                  f"车牌尾号{r.randint(100, 999)}。",
        lambda r: f"Office wifi for {_p(r, PROJECTS)} is on floor {r.randint(2, 30)}, room "
                  f"{r.randint(100, 999)}.",
        lambda r: f"项目{_p(r, PROJECTS)}的数据库是{_p(r, TECH)}，"
                  f"每天凌晨{r.randint(1, 5)}点备份。",
        lambda r: f"The user's {_p(r, PETS)} is {r.randint(1, 15)} years old and sees the vet "
                  f"every {r.randint(2, 12)} months.",
    ],
    "event": [
        lambda r: f"{_date(r)} 和{_p(r, NAMES_ZH)}在{_p(r, CITIES_ZH)}讨论了{_p(r, TOPICS_ZH)}。",
        lambda r: f"On {_date(r)} the user met {_p(r, NAMES_EN)} in {_p(r, CITIES_EN)} about "
                  f"{_p(r, TOPICS_EN)}.",
        lambda r: f"上周{_p(r, WEEKDAYS_ZH)}去{_p(r, CITIES_ZH)}出差，吃了{_p(r, FOODS_ZH)}。",
        lambda r: f"Flew to {_p(r, CITIES_EN)} on {_date(r)} for {_p(r, TOPICS_EN)}; flight "
                  f"{_p(r, ['CA', 'MU', 'LH', 'BA', 'SQ'])}{r.randint(100, 9999)}.",
        lambda r: f"{_date(r)} 完成了{_p(r, PROJECTS)}的{_p(r, TOPICS_ZH)}，"
                  f"耗时{r.randint(1, 40)}天。",
        lambda r: f"Had a {_p(r, ['dentist', 'doctor', 'physio'])} appointment on {_date(r)} "
                  f"at {r.randint(8, 18)}:00.",
    ],
    "rule": [
        lambda r: f"回答{_p(r, TOPICS_ZH)}相关的问题时用{_p(r, LANGS)}，并给出{_p(r, FORMATS)}。",
        lambda r: f"Always run the {_p(r, TECH)} tests before pushing to {_p(r, PROJECTS)}.",
        lambda r: f"写代码时优先用{_p(r, TECH)}，注释用{_p(r, LANGS)}。",
        lambda r: f"When summarising {_p(r, TOPICS_EN)}, answer with {_p(r, FORMATS)} first.",
        lambda r: f"每{_p(r, WEEKDAYS_ZH)}提醒用户检查{_p(r, PROJECTS)}的{_p(r, TOPICS_ZH)}进度。",
        lambda r: f"Never schedule anything on {_p(r, WEEKDAYS_EN)} after {r.randint(5, 9)} pm.",
    ],
}
CATEGORY_WEIGHTS: Mapping[Category, float] = {
    "identity": 0.08, "preference": 0.25, "constraint": 0.12, "fact": 0.25, "event": 0.20,
    "rule": 0.10,
}
STATUS_WEIGHTS = {"candidate": 0.45, "confirmed": 0.33, "frozen": 0.08, "archived": 0.12,
                  "pending_override": 0.02}
QUERY_TEMPLATES: Sequence[Template] = [
    lambda r: f"用户对{_p(r, ALLERGENS_ZH)}过敏吗？",
    lambda r: f"what is the user allergic to, {_p(r, ALLERGENS_EN)}?",
    lambda r: f"用户喜欢喝什么？{_p(r, DRINKS)}还是茶",
    lambda r: f"what food does the user like, maybe {_p(r, FOODS_EN)}?",
    lambda r: f"{_p(r, NAMES_ZH)}的生日是哪天",
    lambda r: f"which stack does the {_p(r, PROJECTS)} project use",
    lambda r: f"用户住在哪个城市，{_p(r, CITIES_ZH)}吗",
    lambda r: f"where does the user work as a {_p(r, JOBS_EN)}",
    lambda r: f"上次去{_p(r, CITIES_ZH)}出差是什么时候",
    lambda r: f"when did the user meet {_p(r, NAMES_EN)} about {_p(r, TOPICS_EN)}",
    lambda r: f"回答{_p(r, TOPICS_ZH)}问题应该用什么格式",
    lambda r: f"can I book a meeting on {_p(r, WEEKDAYS_EN)} morning?",
    lambda r: f"用户{_p(r, TIMES_ZH)}一般做什么运动",
    lambda r: f"what are the rules for pushing code to {_p(r, PROJECTS)}",
    lambda r: f"用户养的{_p(r, PETS)}多大了",
    lambda r: f"budget limit for {_p(r, TOPICS_EN)}",
]


def make_memories(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` synthetic memories: mixed Chinese/English, six categories, varied fields."""
    rng = random.Random(seed)
    categories = list(CATEGORY_WEIGHTS)
    cat_weights = list(CATEGORY_WEIGHTS.values())
    statuses = list(STATUS_WEIGHTS)
    status_weights = list(STATUS_WEIGHTS.values())
    items: list[dict[str, Any]] = []
    for _ in range(count):
        category = rng.choices(categories, cat_weights)[0]
        content = _p(rng, TEMPLATES[category])(rng)
        items.append({
            "content": content, "category": category, "kind": KIND_OF_CATEGORY[category],
            "importance": rng.randint(1, 10), "confidence": round(rng.uniform(0.5, 1.0), 2),
            "source": rng.choices(["explicit", "implicit", "emotional"], [0.6, 0.35, 0.05])[0],
            "status": rng.choices(statuses, status_weights)[0],
            "session": f"sess-{rng.randint(1, 5000)}" if rng.random() < 0.7 else None,
        })
    return items


def make_queries(count: int, seed: int) -> list[str]:
    rng = random.Random(seed + 1)
    queries: dict[str, None] = {}
    while len(queries) < count:
        queries.setdefault(_p(rng, QUERY_TEMPLATES)(rng), None)
    return list(queries)


# --- embedder wrapper --------------------------------------------------------------------
class BenchEmbeddings(Embeddings):
    """The real USE embedder, or a lookup of vectors USE already computed for these texts.

    Same ``embedder_id`` and ``dim`` as the wrapped embedder, so rows added either
    way belong to one scope. With ``use_cache`` off every call goes to USE.
    """

    def __init__(self, inner: USEEmbeddings) -> None:
        self.inner = inner
        self.dim = inner.dim
        self.embedder_id = inner.embedder_id
        self.use_cache = True
        self.doc_rows: dict[str, int] = {}
        self.doc_vectors: FloatMatrix = np.zeros((0, inner.dim), dtype=np.float32)
        self.query_vectors: dict[str, FloatMatrix] = {}

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if self.use_cache and all(t in self.doc_rows for t in texts):
            rows = [self.doc_rows[t] for t in texts]
            return cast("list[list[float]]", np.asarray(self.doc_vectors[rows]))
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        vector = self.query_vectors.get(text) if self.use_cache else None
        if vector is not None:
            return cast("list[float]", vector)
        return self.inner.embed_query(text)


# --- measuring helpers -------------------------------------------------------------------
def percentiles(samples_ms: Sequence[float],
                cpu_ms: Sequence[float] | None = None) -> dict[str, float]:
    p50, p95 = np.percentile(np.asarray(samples_ms, dtype=np.float64), [50, 95])
    stats = {"p50": round(float(p50), 3), "p95": round(float(p95), 3),
             "mean": round(float(np.mean(samples_ms)), 3)}
    if cpu_ms is not None:
        c50, c95 = np.percentile(np.asarray(cpu_ms, dtype=np.float64), [50, 95])
        stats.update(cpu_p50=round(float(c50), 3), cpu_p95=round(float(c95), 3))
    return stats


Variant = tuple[Callable[[], None], Callable[[str], object]]
"""(setup, call): setup runs untimed before each timed call of the query."""


def time_interleaved(variants: Mapping[str, Variant], queries: Sequence[str], rounds: int,
                     desc: str, *, warmup: int = 10, quiet: bool) -> dict[str, dict[str, float]]:
    """p50/p95 per variant. Every query runs all variants, in a shuffled order, so
    background load on a shared machine and thread-pool warmth hit them alike."""
    for setup, call in variants.values():
        for q in queries[:warmup]:
            setup()
            call(q)
    samples: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    rng = random.Random(0)
    work = [q for _ in range(rounds) for q in queries]
    for q in tqdm(work, desc=desc, leave=False, disable=quiet, unit="query"):
        rng.shuffle(names)
        for name in names:
            setup, call = variants[name]
            setup()
            start, cpu_start = time.perf_counter_ns(), time.process_time_ns()
            call(q)
            samples[name].append((time.perf_counter_ns() - start) / 1e6)
            cpu[name].append((time.process_time_ns() - cpu_start) / 1e6)
    return {name: percentiles(samples[name], cpu[name]) for name in variants}


def peak_rss_mb() -> float:
    """Peak RSS of this process: VmHWM where /proc has it, else ``ru_maxrss``.

    ``ru_maxrss`` survives fork+exec on Linux, so a child started by a big parent
    would report the parent's size; VmHWM is reset by exec.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)  # kB
    except (OSError, ValueError, IndexError):
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # KiB on Linux


def current_rss_mb() -> float | None:
    if psutil is None:
        return None
    return round(float(psutil.Process().memory_info().rss) / 2**20, 1)


@contextmanager
def stopwatch() -> Iterator[list[float]]:
    """Yields ``[wall_s, cpu_s]``, filled on exit (cpu = this process, all threads)."""
    box = [0.0, 0.0]
    start, cpu = time.perf_counter(), time.process_time()
    try:
        yield box
    finally:
        box[0], box[1] = time.perf_counter() - start, time.process_time() - cpu


def scope_matrix(store: MemoryStore, scope: str) -> tuple[NDArray[np.int64], FloatMatrix,
                                                           NDArray[np.bool_]]:
    """Ids, stored (normalised) vectors and live mask of every row of the scope."""
    rows = store._conn.execute(
        "SELECT id, embedding, status FROM memories WHERE scope = ? ORDER BY id",
        (scope,)).fetchall()
    ids = np.asarray([r[0] for r in rows], dtype=np.int64)
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    live = np.asarray([r[2] in LIVE_STATUSES for r in rows], dtype=bool)
    return ids, matrix, live


def numpy_top(matrix: FloatMatrix, query: FloatMatrix, k: int) -> NDArray[np.intp]:
    scores = matrix @ query
    k = min(k, len(scores))
    top = np.argpartition(-scores, k - 1)[:k]
    return top[np.argsort(-scores[top])]


# --- the fresh-process open probe ------------------------------------------------------------
def probe_open(db: str, query: str, searches: int) -> dict[str, float]:
    """Run in a child process: open with the default embedder, search, report timings."""
    start = time.perf_counter()
    store = MemoryStore(db)  # default embedder: USEEmbeddings (loads the model)
    constructed = time.perf_counter()
    store.search(SCOPE, query, k=K)
    first = time.perf_counter()
    samples = []
    for _ in range(searches):
        t = time.perf_counter_ns()
        store.search(SCOPE, query, k=K)
        samples.append((time.perf_counter_ns() - t) / 1e6)
    store.close()
    return {"constructor_ms": round((constructed - start) * 1000, 1),
            "first_search_ms": round((first - constructed) * 1000, 1),
            "open_ms": round((first - start) * 1000, 1),
            "warm_search_incl_embed_p50_ms": round(float(np.median(samples)), 3),
            "peak_rss_mb": peak_rss_mb()}


def run_probe(db: Path, query: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--probe-open", str(db), "--probe-query", query],
        check=True, capture_output=True, text=True)
    return cast("dict[str, float]", json.loads(out.stdout.strip().splitlines()[-1]))


# --- the benchmark ------------------------------------------------------------------------------
def precompute(embeddings: BenchEmbeddings, texts: list[str], cache: Path, quiet: bool) -> None:
    """USE vectors of the filler texts, computed once and kept in a .npy for this run."""
    distinct = list(dict.fromkeys(texts))
    if cache.exists():
        vectors = np.load(cache)
        if vectors.shape != (len(distinct), embeddings.dim):
            vectors = None
    else:
        vectors = None
    if vectors is None:
        parts = []
        step = 1024
        for start in tqdm(range(0, len(distinct), step), desc="embed filler (USE, once)",
                          unit="batch", disable=quiet):
            parts.append(np.asarray(embeddings.inner.embed_documents(
                distinct[start : start + step]), dtype=np.float32))
        vectors = (np.concatenate(parts) if parts else
                   np.zeros((0, embeddings.dim), dtype=np.float32))
        np.save(cache, vectors)
    embeddings.doc_vectors = np.load(cache, mmap_mode="r")
    embeddings.doc_rows = {t: i for i, t in enumerate(distinct)}


def bench_size(result: dict[str, Any], store_path: Path, embeddings: BenchEmbeddings,
               memories: list[dict[str, Any]], start: int, add_batch: int, queries: list[str],
               rounds: int, fill_batch: int, quiet: bool) -> None:
    """Grow the scope from ``start`` to ``result["size"]`` rows and measure it.

    Fills ``result`` as it goes (``result["stage"]`` names the step), so a failure
    leaves the measurements made so far.
    """
    size = int(result["size"])
    batch = min(add_batch, size - start)
    # 1. fill with precomputed vectors (untimed), then the timed batch, index loaded
    result["stage"] = "open + load index before filling"
    store = MemoryStore(store_path, embeddings=embeddings)
    embeddings.use_cache = True
    store.search(SCOPE, queries[0], k=K)  # load (or build) the scope's index
    fill_end = size - batch
    fill_times: list[tuple[float, str]] = []
    for lo in tqdm(range(start, fill_end, fill_batch), desc=f"fill to {fill_end:,}",
                   unit="batch", disable=quiet or fill_end <= start):
        hi = min(lo + fill_batch, fill_end)
        result["stage"] = f"filler add_many of rows {lo:,}-{hi:,}"
        with stopwatch() as fill_s:
            store.add_many(SCOPE, memories[lo:hi])
        fill_times.append((fill_s[0], f"{lo:,}-{hi:,}"))
    if fill_times:  # precomputed vectors: this is the store's own write cost per batch
        slowest = max(fill_times)
        result["fill"] = {"batches": len(fill_times), "batch_size": fill_batch,
                          "median_batch_s": round(float(np.median([t for t, _ in fill_times])), 3),
                          "slowest_batch_s": round(slowest[0], 3),
                          "slowest_batch_rows": slowest[1]}
    timed = memories[fill_end:size]
    result["stage"] = "timed add_many"
    embeddings.use_cache = False
    with stopwatch() as add_s:
        store.add_many(SCOPE, timed)
    with stopwatch() as embed_s:
        embeddings.inner.embed_documents([m["content"] for m in timed])
    embeddings.use_cache = True
    result["add"] = {
        "batch": batch, "seconds": round(add_s[0], 3),
        "per_s": round(batch / add_s[0], 1),
        "per_cpu_s": round(batch / add_s[1], 1),
        "embed_only_per_s": round(batch / embed_s[0], 1),
        "store_share": round(max(add_s[0] - embed_s[0], 0.0) / add_s[0], 3),
        "scope_rows_before": fill_end,
    }
    result["stage"] = "close (save index)"
    store.close()  # writes the index file

    # 2. open: constructor + first search (loads the FAISS file), shared embedder
    result["stage"] = "open (index file in step)"
    with stopwatch() as ctor_s:
        store = MemoryStore(store_path, embeddings=embeddings)
    with stopwatch() as first_s:
        store.search(SCOPE, queries[1], k=K)
    result["open"] = {"constructor_ms": round(ctor_s[0] * 1000, 1),
                      "first_search_ms": round(first_s[0] * 1000, 1),
                      "open_ms": round((ctor_s[0] + first_s[0]) * 1000, 1)}
    index = store._indexes.get(SCOPE, store.dim)
    result["index"] = {"type": type(index.index).__name__, "ann": index.is_ann,
                       "rows": index.size, "trained_size": index.trained_size}

    # 3. search latency (the 1-minute load average shows whether the machine was shared)
    result["stage"] = "search latency"
    result["load_avg_1m_before_search"] = round(os.getloadavg()[0], 2)
    ids, matrix, live = scope_matrix(store, SCOPE)
    qvec = {q: np.asarray(embeddings.query_vectors[q], dtype=np.float32) for q in queries}
    qvec = {q: v / np.float32(np.linalg.norm(v)) for q, v in qvec.items()}
    # excl. embed: pass the precomputed vector where search() accepts one, else let the
    # lookup embedder answer embed_query from the same precomputed vectors
    by_vector = "query_vector" in inspect.signature(MemoryStore.search).parameters

    def search_excl(q: str) -> object:
        if by_vector:
            return cast(Any, store).search(SCOPE, q, k=K, query_vector=qvec[q])
        return store.search(SCOPE, q, k=K)
    pool = K * store.config.candidate_multiplier

    def cached() -> None:
        embeddings.use_cache = True

    def real() -> None:
        embeddings.use_cache = False

    # One BLAS thread while timing: the store's query path does not use BLAS (USE limits
    # itself to one thread), and idle OpenBLAS workers of the numpy baseline would
    # otherwise spin on the second core and slow whatever runs next.
    with threadpool_limits(limits=1, user_api="blas"):
        timings = time_interleaved({
            "excl": (cached, search_excl),
            "incl": (real, lambda q: store.search(SCOPE, q, k=K)),
            "vector": (cached, lambda q: index.search(qvec[q], pool, LIVE_STATUSES, None)),
            "keyword": (cached, lambda q: keyword_hits(
                store._conn, SCOPE, q, pool * store.config.keyword_overfetch,
                scope_size=index.size, max_ratio=store.config.keyword_max_df_ratio,
                floor=store.config.keyword_min_df_cut)),
            "numpy": (cached, lambda q: numpy_top(matrix, qvec[q], pool)),
        }, queries, rounds, f"{size:,}: search latency", quiet=quiet)
    embeddings.use_cache = True
    excl, incl, brute = timings["excl"], timings["incl"], timings["numpy"]
    # recall of the store's vector route against exact search over the same live rows
    live_ids, live_matrix = ids[live], np.ascontiguousarray(matrix[live])
    overlaps = []
    for q in queries:
        exact = {int(i) for i in live_ids[numpy_top(live_matrix, qvec[q], pool)]}
        got = {i for i, _ in index.search(qvec[q], pool, LIVE_STATUSES, None)}
        overlaps.append(len(exact & got) / max(len(exact), 1))
    result["search"] = {
        "k": K, "pool": pool, "queries": len(queries), "live_share": round(float(live.mean()), 3),
        "rounds": rounds,
        "excl_embed_method": "search(query_vector=...)" if by_vector else "lookup embedder",
        "excl_embed_ms": excl, "incl_embed_ms": incl,
        "vector_route_ms": timings["vector"], "keyword_route_ms": timings["keyword"],
        "numpy_bruteforce_ms": brute,
        "ratio_p50_store_vs_numpy": round(excl["p50"] / brute["p50"], 2),
        "ratio_p95_store_vs_numpy": round(excl["p95"] / brute["p95"], 2),
        "vector_recall_at_pool": round(float(np.mean(overlaps)), 4),
    }
    result["load_avg_1m_after_search"] = round(os.getloadavg()[0], 2)
    result["rss_mb_now"] = current_rss_mb()
    store.close()

    # 4. open with the index files gone: rebuilt from SQLite embeddings
    result["stage"] = "open with the index files deleted (rebuild from SQLite)"
    index_dir = store_path.with_name(store_path.name + ".faiss")
    shutil.rmtree(index_dir, ignore_errors=True)
    with stopwatch() as rebuild_s:
        store = MemoryStore(store_path, embeddings=embeddings)
        store.search(SCOPE, queries[2], k=K)
    store.close()  # writes the index file again
    result["open"]["rebuild_from_sqlite_ms"] = round(rebuild_s[0] * 1000, 1)

    # 5. open in a fresh process with the default embedder (model load included)
    result["stage"] = "open in a fresh process"
    result["open_fresh_process"] = run_probe(store_path, queries[3])
    result["peak_rss_mb_bench_process"] = peak_rss_mb()
    del result["stage"]


def code_version() -> dict[str, Any]:
    """The commit measured, read without touching the git index (no optional locks)."""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}

    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", "-C", str(root), *args], capture_output=True,
                                  text=True, check=True, env=env).stdout
        except (OSError, subprocess.CalledProcessError):
            return ""

    dirty = git("status", "--porcelain", "--", "hermes_graph").splitlines()
    return {"commit": git("rev-parse", "HEAD").strip() or "unknown",
            "hermes_graph_dirty": [line[3:] for line in dirty if len(line) > 3]}


def faiss_threads() -> int:
    import faiss

    return int(faiss.omp_get_max_threads())


def machine_info() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory_gb = None
    if psutil is not None:
        memory_gb = round(psutil.virtual_memory().total / 2**30, 1)
    return {"cpus": os.cpu_count(), "cpu": cpu, "memory_gb": memory_gb,
            "python": platform.python_version(), "platform": platform.platform(),
            "numpy": np.__version__}


def run(sizes: list[int], *, add_batch: int, query_count: int, rounds: int, fill_batch: int,
        seed: int,
        workdir: Path, cache_dir: Path | None, quiet: bool) -> dict[str, Any]:
    code = code_version()  # before the long run: the tree may change while it runs
    started = dt.datetime.now(dt.timezone.utc)
    with stopwatch() as load_s:
        use = USEEmbeddings()
    embeddings = BenchEmbeddings(use)
    total = max(sizes)
    memories = make_memories(total, seed)
    queries = make_queries(query_count, seed)

    # precomputed vectors only for filler rows; each size's timed batch is embedded for real
    timed: set[int] = set()
    previous = 0
    for size in sizes:
        timed.update(range(max(previous, size - add_batch), size))
        previous = size
    filler = [m["content"] for i, m in enumerate(memories) if i not in timed]
    cache = (cache_dir or workdir) / f"filler-{seed}-{total}-{add_batch}-{len(sizes)}.npy"
    precompute(embeddings, filler, cache, quiet)

    query_ms: list[float] = []
    for q in tqdm(queries, desc="embed queries", disable=quiet, leave=False):
        start = time.perf_counter_ns()
        vector = use.embed_query(q)
        query_ms.append((time.perf_counter_ns() - start) / 1e6)
        embeddings.query_vectors[q] = np.asarray(vector, dtype=np.float32)

    store_path = workdir / "bench.db"
    results: list[dict[str, Any]] = []
    previous = 0
    for size in sizes:
        result: dict[str, Any] = {"size": size}
        results.append(result)
        try:
            bench_size(result, store_path, embeddings, memories, previous, add_batch, queries,
                       rounds, fill_batch, quiet)
        except Exception as exc:  # report the failure and stop: the scope is now inconsistent
            result["error"] = f"{type(exc).__name__}: {exc}".splitlines()[0][:400]
            tqdm.write(f"size {size:,}: FAILED during {result['stage']}: {result['error']}",
                       file=sys.stderr)
            break
        previous = size
        if not quiet:
            tqdm.write(f"size {size:,}: add {result['add']['per_s']}/s, search p95 "
                       f"{result['search']['excl_embed_ms']['p95']} ms excl. embed",
                       file=sys.stderr)
    done = [r for r in results if "error" not in r]
    largest = results[-1]
    return {
        "benchmark": "hermes-graph MemoryStore (issue 2)",
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "finished": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python " + " ".join(sys.argv),
        "machine": machine_info(),
        "code": code,
        "embedder": {"id": use.embedder_id, "dim": use.dim, "threads": use.threads,
                     "load_s": round(load_s[0], 2)},
        "query_embed_ms": percentiles(query_ms),
        "settings": {"k": K, "add_batch": add_batch, "fill_batch": fill_batch,
                     "queries": len(queries), "rounds": rounds, "seed": seed,
                     "faiss_omp_threads": faiss_threads(), "numpy_baseline_blas_threads": 1,
                     "status_mix": STATUS_WEIGHTS, "category_mix": CATEGORY_WEIGHTS},
        "sizes": results,
        "targets": {
            "add_per_s_min": ADD_TARGET_PER_S,
            "add_met": bool(done) and all(r["add"]["per_s"] >= ADD_TARGET_PER_S
                                          for r in results if "add" in r),
            "add_met_per_cpu_s": bool(done) and all(r["add"]["per_cpu_s"] >= ADD_TARGET_PER_S
                                                    for r in results if "add" in r),
            "all_sizes_completed": len(done) == len(sizes),
            "search_p95_excl_embed_ms_max": SEARCH_P95_TARGET_MS,
            "search_checked_at_size": largest["size"],
            "search_met": "search" in largest and (
                largest["search"]["excl_embed_ms"]["p95"] <= SEARCH_P95_TARGET_MS),
            "search_met_cpu": "search" in largest and (
                largest["search"]["excl_embed_ms"]["cpu_p95"] <= SEARCH_P95_TARGET_MS),
        },
        "peak_rss_mb_bench_process": peak_rss_mb(),
    }


def markdown(report: Mapping[str, Any]) -> str:
    def pair(d: Mapping[str, float]) -> str:
        return f"{d['p50']:.2f} / {d['p95']:.2f}"

    def ok(met: bool) -> str:
        return "met" if met else "MISSED"

    def cpu_pair(d: Mapping[str, float]) -> str:
        return f"{d['cpu_p50']:.2f} / {d['cpu_p95']:.2f}"

    lines = [
        "| memories in scope | add/s incl. USE embed (per CPU-s) | search excl. embed p50 / p95 ms"
        " (CPU ms)"
        " | search incl. embed p50 / p95 ms | FAISS route p50 / p95 ms"
        " | FTS5 route p50 / p95 ms | numpy brute force p50 / p95 ms"
        " | store ÷ numpy p50 / p95 | vector index (recall@32) | open ms: file / rebuild"
        " | open ms, fresh process | peak RSS MB, fresh process |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for r in report["sizes"]:
        if "error" in r:
            added = f"{r['add']['per_s']:,.0f}" if "add" in r else "—"
            lines.append(f"| {r['size']:,} | {added} | **failed** during {r['stage']}: "
                         f"`{r['error'][:160]}` |||||||||")
            continue
        s, o, f = r["search"], r["open"], r["open_fresh_process"]
        lines.append(
            f"| {r['size']:,} | {r['add']['per_s']:,.0f} ({r['add']['per_cpu_s']:,.0f}) "
            f"| {pair(s['excl_embed_ms'])} ({cpu_pair(s['excl_embed_ms'])}) "
            f"| {pair(s['incl_embed_ms'])} "
            f"| {pair(s['vector_route_ms'])} | {pair(s['keyword_route_ms'])} "
            f"| {pair(s['numpy_bruteforce_ms'])} "
            f"| {s['ratio_p50_store_vs_numpy']:.1f} / {s['ratio_p95_store_vs_numpy']:.1f} "
            f"| {r['index']['type']} ({s['vector_recall_at_pool']:.3f}) "
            f"| {o['open_ms']:,.0f} / {o['rebuild_from_sqlite_ms']:,.0f} "
            f"| {f['open_ms']:,.0f} | {f['peak_rss_mb']:,.0f} |")
    t = report["targets"]
    e = report["embedder"]
    lines += [
        "",
        f"Add: one `add_many` of {report['settings']['add_batch']:,} new memories with the real "
        "USE embedder, into the scope at that size (index loaded). Per CPU-s and CPU ms count "
        "this process's CPU time (all its threads), which other processes on a shared machine "
        "do not inflate. Slowest filler `add_many` (precomputed vectors, store cost only): "
        + ", ".join(f"{r['size']:,}: {r['fill']['slowest_batch_s']:.1f} s for rows "
                    f"{r['fill']['slowest_batch_rows']} "
                    f"(median {r['fill']['median_batch_s']:.2f} s)"
                    for r in report["sizes"] if "fill" in r) + ". Query embedding alone "
        f"(USE, 1 thread): p50 / p95 {pair(report['query_embed_ms'])} ms; USE model load "
        f"{e['load_s']} s. 1-min load average around the search runs: "
        + ", ".join(f"{r['size']:,}: {r['load_avg_1m_before_search']}-"
                    f"{r['load_avg_1m_after_search']}"
                    for r in report["sizes"] if "load_avg_1m_after_search" in r) + ". "
        f"Code: {report['code']['commit'][:10]}"
        + (" + uncommitted changes in hermes_graph" if report["code"]["hermes_graph_dirty"]
           else "") + ".",
        "",
        f"Targets (wall clock; CPU time in brackets): add >= {t['add_per_s_min']:.0f}/s: "
        f"**{ok(t['add_met'])}** ({ok(t['add_met_per_cpu_s'])}); search p95 excl. embed <= "
        f"{t['search_p95_excl_embed_ms_max']:.0f} ms at {t['search_checked_at_size']:,}: "
        f"**{ok(t['search_met'])}** ({ok(t['search_met_cpu'])}).",
    ]
    return "\n".join(lines) + "\n"


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = sorted({int(part.replace("_", "")) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--sizes must be comma-separated integers: {text!r}") from None
    if not sizes or sizes[0] < 1:
        raise argparse.ArgumentTypeError("--sizes must be positive integers")
    return sizes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("1000,10000,100000"),
                        help="comma-separated scope sizes (default 1000,10000,100000)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--out", type=Path, help="write results.json and results.md here")
    parser.add_argument("--add-batch", type=int, default=1000,
                        help="memories per timed add_many call (default 1000)")
    parser.add_argument("--queries", type=int, default=200, help="distinct queries (200)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="passes over the queries when timing search (default 3)")
    parser.add_argument("--fill-batch", type=int, default=2000, help="filler add_many size")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cache-dir", type=Path,
                        help="keep the filler-vector .npy here across runs (default: temp)")
    parser.add_argument("--workdir", type=Path,
                        help="keep the benchmark database here (default: a temp dir)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument("--probe-open", help=argparse.SUPPRESS)
    parser.add_argument("--probe-query", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.probe_open:
        print(json.dumps(probe_open(args.probe_open, args.probe_query, 20)))
        return 0
    if min(args.add_batch, args.fill_batch, args.rounds) < 1 or args.queries < 4:
        parser.error("--add-batch, --fill-batch and --rounds must be >= 1, --queries >= 4")
    if args.cache_dir is not None:
        args.cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hermes-bench-") as tmp:
        workdir = Path(tmp)
        if args.workdir is not None:
            workdir = args.workdir
            workdir.mkdir(parents=True, exist_ok=True)
            for stale in workdir.glob("bench.db*"):  # start from an empty store
                shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
        report = run(args.sizes, add_batch=args.add_batch, query_count=args.queries,
                     rounds=args.rounds,
                     fill_batch=args.fill_batch, seed=args.seed, workdir=workdir,
                     cache_dir=args.cache_dir, quiet=args.quiet)
    table = markdown(report)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "results.json").write_text(
            json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        (args.out / "results.md").write_text(
            f"# Store benchmark\n\n`{report['command']}` -- {report['date']}, "
            f"{report['machine']['cpus']} CPUs ({report['machine']['cpu']})\n\n{table}",
            encoding="utf-8")
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print(table)
    return 0 if all("error" not in r for r in report["sizes"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
