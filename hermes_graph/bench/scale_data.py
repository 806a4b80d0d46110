"""Synthetic memories and queries for ``bench scale`` (deterministic for a seed).

Memories look like what the extractor stores for a real user: one atomic fact each,
in Chinese, English or both in one sentence, across the six categories (identity,
preference, constraint, fact, event, rule) with their kinds, varied importance,
confidence, source, status and creation time. Queries ask about the same topics in
the same languages, so both the vector and the keyword routes find something.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any, TypeVar

from hermes_graph.config import MemoryConfig
from hermes_graph.types import KIND_OF_CATEGORY, Category, Status

T = TypeVar("T")
Template = Callable[[random.Random], str]

NOW = datetime(2026, 1, 15, 12, 0, tzinfo=timezone.utc)
"""The benchmark's clock: memories are created up to ``HISTORY_DAYS`` before it."""
HISTORY_DAYS = 730
MAX_TURN = 40
"""Source turns are drawn from 0..MAX_TURN: some hits have a memory said right after them."""
SPEAKERS = ("Alex Chen", "Mia", "王芳", "李雷")
"""Who said a memory (source_ref["speaker"]), for half of those with a source: queries
that name one take recall's subject match and subject-free query."""

NAMES_ZH = ("张伟", "王芳", "李娜", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周杰", "吴倩",
            "徐明", "孙悦", "马超", "朱琳", "胡斌", "郭婷", "林峰", "何雪", "高远", "罗丹",
            "宋佳", "唐宁", "韩梅", "冯涛")
NAMES_EN = ("Alice", "Bob", "Carlos", "Diana", "Ethan", "Fatima", "George", "Hana", "Ivan",
            "Julia", "Kenji", "Laura", "Mohammed", "Nina", "Oscar", "Priya", "Quentin", "Rosa",
            "Sven", "Tomoko", "Uma", "Victor", "Wen", "Yusuf")
CITIES_ZH = ("北京", "上海", "深圳", "杭州", "成都", "广州", "南京", "武汉", "西安", "苏州",
             "重庆", "厦门", "青岛", "长沙", "天津", "昆明", "大连", "合肥")
CITIES_EN = ("Berlin", "London", "Tokyo", "Singapore", "Toronto", "Paris", "Seattle", "Sydney",
             "Amsterdam", "Lisbon", "Austin", "Dublin", "Zurich", "Seoul", "Oslo", "Vancouver",
             "Melbourne", "Munich")
JOBS_ZH = ("后端工程师", "产品经理", "数据分析师", "中学老师", "医生", "设计师", "律师",
           "会计", "研究员", "记者", "厨师", "摄影师", "护士", "建筑师")
JOBS_EN = ("backend engineer", "product manager", "data scientist", "nurse", "architect",
           "teacher", "lawyer", "accountant", "researcher", "journalist", "chef", "pilot",
           "UX designer", "site reliability engineer")
FOODS_ZH = ("火锅", "小笼包", "拉面", "寿司", "烤鸭", "麻辣烫", "煎饼", "饺子", "酸菜鱼",
            "螺蛳粉", "肠粉", "凉皮", "豆腐脑", "烧烤", "担担面", "生煎")
FOODS_EN = ("ramen", "tacos", "sourdough bread", "pad thai", "sushi", "lasagna", "falafel",
            "pho", "dim sum", "paella", "curry", "bagels", "oatmeal", "kimchi stew", "pizza",
            "bibimbap")
DRINKS = ("美式咖啡", "拿铁", "乌龙茶", "龙井", "普洱", "green tea", "oat milk latte",
          "espresso", "sparkling water", "hot chocolate", "matcha", "豆浆", "柠檬水", "cold brew")
ALLERGENS_ZH = ("花生", "海鲜", "芒果", "牛奶", "鸡蛋", "小麦", "坚果", "大豆", "青霉素",
                "猫毛", "花粉", "芝麻")
ALLERGENS_EN = ("peanuts", "shellfish", "penicillin", "gluten", "lactose", "tree nuts",
                "cat dander", "pollen", "sesame", "eggs", "soy", "latex")
HOBBIES = ("跑步", "羽毛球", "围棋", "摄影", "徒步", "游泳", "弹吉他", "书法", "bouldering",
           "chess", "cycling", "pottery", "birdwatching", "sailing", "yoga", "photography",
           "tennis", "baking")
TECH = ("Python", "Rust", "Go", "TypeScript", "Kotlin", "PostgreSQL", "Redis", "Kafka",
        "Kubernetes", "React", "FastAPI", "LangGraph", "FAISS", "SQLite", "Terraform", "Django",
        "ClickHouse", "gRPC")
CLOUDS = ("AWS", "GCP", "Azure", "阿里云", "腾讯云", "华为云", "a bare-metal cluster", "Fly.io")
PROJECTS = ("hermes", "atlas", "orion", "北极星", "phoenix", "蓝鲸", "nebula", "sparrow",
            "kestrel", "青鸟", "tundra", "mosaic", "天枢", "harbor")
TOPICS_ZH = ("季度预算", "招聘计划", "上线方案", "数据迁移", "性能优化", "用户调研", "合同续签",
             "年度体检", "搬家安排", "旅行路线", "论文修改", "装修报价", "孩子入学", "贷款续期")
TOPICS_EN = ("the Q3 roadmap", "the pricing change", "a database migration", "the launch plan",
             "hiring for the platform team", "the security audit", "a wedding venue",
             "the kid's school enrolment", "a visa application", "the mortgage renewal",
             "the on-call rotation", "the marathon training plan")
WEEKDAYS_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
LANGS = ("中文", "English", "日本語", "简体中文", "plain English", "中英双语")
FORMATS = ("表格", "要点列表", "a short summary", "a numbered list", "代码示例", "a table",
           "两段以内的文字", "a one-line answer", "Markdown 标题加列表")
PETS_ZH = ("猫", "狗", "仓鼠", "兔子", "鹦鹉", "乌龟")
PETS_EN = ("cat", "dog", "parrot", "goldfish", "tortoise", "rabbit")
TIMES_EN = ("in the morning", "after lunch", "late at night", "on weekends", "before meetings")
TIMES_ZH = ("早上", "午饭后", "深夜", "周末", "开会前")
RELATIONS_EN = ("sister", "manager", "neighbour", "co-founder", "doctor", "landlord", "mentor")
RELATIONS_ZH = ("姐姐", "领导", "邻居", "合伙人", "主治医生", "房东", "导师", "大学室友")
CARS = ("特斯拉", "比亚迪", "丰田", "大众", "蔚来", "Volvo", "Honda", "Subaru")
AIRLINES = ("CA", "MU", "CZ", "LH", "BA", "SQ", "NH", "AF")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def _p(rng: random.Random, options: Sequence[T]) -> T:
    return options[rng.randrange(len(options))]


def _date(rng: random.Random) -> str:
    return f"{rng.randint(2019, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


TEMPLATES: Mapping[Category, Sequence[Template]] = {
    "identity": (
        lambda r: f"我叫{_p(r, NAMES_ZH)}，今年{r.randint(18, 70)}岁，住在{_p(r, CITIES_ZH)}。",
        lambda r: f"My name is {_p(r, NAMES_EN)} and I work as a {_p(r, JOBS_EN)} in "
                  f"{_p(r, CITIES_EN)}.",
        lambda r: f"用户是一名{_p(r, JOBS_ZH)}，在{_p(r, CITIES_ZH)}工作了{r.randint(1, 25)}年。",
        lambda r: f"I was born in {_p(r, CITIES_EN)} in {r.randint(1950, 2006)} and moved to "
                  f"{_p(r, CITIES_ZH)} for work.",
        lambda r: f"用户的母语是中文，也会说{_p(r, ('英语', '日语', '法语', '德语', '粤语'))}。",
        lambda r: f"User's pronouns are {_p(r, ('she/her', 'he/him', 'they/them'))}; employee "
                  f"id E-{r.randint(10000, 99999)}.",
        lambda r: f"我是{_p(r, PROJECTS)}团队的 tech lead，负责 {_p(r, TECH)} 服务。",
        lambda r: f"The user is a {_p(r, JOBS_EN)} who studied at university in "
                  f"{_p(r, CITIES_EN)}.",
    ),
    "preference": (
        lambda r: f"我喜欢吃{_p(r, FOODS_ZH)}，最好是{_p(r, CITIES_ZH)}的老店。",
        lambda r: f"Prefers {_p(r, DRINKS)} {_p(r, TIMES_EN)}, with no sugar.",
        lambda r: f"用户{_p(r, TIMES_ZH)}喜欢{_p(r, HOBBIES)}，每周大约{r.randint(1, 6)}次。",
        lambda r: f"Likes {_p(r, FOODS_EN)} but dislikes {_p(r, FOODS_EN)}; rates spicy food "
                  f"{r.randint(1, 10)}/10.",
        lambda r: f"回复时更喜欢用{_p(r, LANGS)}，格式用{_p(r, FORMATS)}。",
        lambda r: f"Favourite editor theme is {_p(r, ('solarized', 'dracula', 'nord'))} with "
                  f"font size {r.randint(11, 20)}.",
        lambda r: f"养了一只{_p(r, PETS_ZH)}，名字叫{_p(r, NAMES_ZH)[1:]}"
                  f"{_p(r, ('宝', '球', '豆'))}。",
        lambda r: f"周末喜欢去{_p(r, CITIES_ZH)}周边{_p(r, HOBBIES)}, prefers early starts.",
        lambda r: f"Would rather fly {_p(r, AIRLINES)} and always picks an aisle seat.",
    ),
    "constraint": (
        lambda r: f"我对{_p(r, ALLERGENS_ZH)}过敏，不能吃含{_p(r, ALLERGENS_ZH)}的东西。",
        lambda r: f"Allergic to {_p(r, ALLERGENS_EN)}; carries an EpiPen since "
                  f"{r.randint(2005, 2025)}.",
        lambda r: f"Cannot take meetings before {r.randint(7, 11)} am on {_p(r, WEEKDAYS_EN)}s.",
        lambda r: f"{_p(r, WEEKDAYS_ZH)}晚上{r.randint(6, 10)}点以后不方便接电话。",
        lambda r: f"预算上限是{r.randint(1, 50) * 1000}元，超过需要先确认。",
        lambda r: f"Must not share data with {_p(r, CLOUDS)} accounts outside the "
                  f"{_p(r, PROJECTS)} project.",
        lambda r: f"医生说每天咖啡不能超过{r.randint(1, 3)}杯，晚上不喝{_p(r, DRINKS)}。",
        lambda r: f"Budget for {_p(r, TOPICS_EN)} is capped at {r.randint(2, 90)}k USD.",
    ),
    "fact": (
        lambda r: f"{_p(r, NAMES_ZH)}的生日是{r.randint(1, 12)}月{r.randint(1, 28)}日。",
        lambda r: f"The {_p(r, PROJECTS)} repo uses {_p(r, TECH)} and {_p(r, TECH)}, deployed "
                  f"on {_p(r, CLOUDS)}.",
        lambda r: f"{_p(r, NAMES_EN)} is the user's {_p(r, RELATIONS_EN)} and lives in "
                  f"{_p(r, CITIES_EN)}.",
        lambda r: f"用户的车是{r.randint(2012, 2025)}年的{_p(r, CARS)}，车牌尾号"
                  f"{r.randint(100, 999)}。",
        lambda r: f"Office for {_p(r, PROJECTS)} is on floor {r.randint(2, 30)}, room "
                  f"{r.randint(100, 999)}.",
        lambda r: f"项目{_p(r, PROJECTS)}的数据库是{_p(r, TECH)}，"
                  f"每天凌晨{r.randint(1, 5)}点备份。",
        lambda r: f"The user's {_p(r, PETS_EN)} is {r.randint(1, 15)} years old and sees the vet "
                  f"every {r.randint(2, 12)} months.",
        lambda r: f"{_p(r, NAMES_ZH)}是用户的{_p(r, RELATIONS_ZH)}，住在{_p(r, CITIES_ZH)}。",
        lambda r: f"{_p(r, PROJECTS)} 的 on-call 手册放在 wiki 的 {_p(r, TECH)} 目录下。",
    ),
    "event": (
        lambda r: f"{_date(r)} 和{_p(r, NAMES_ZH)}在{_p(r, CITIES_ZH)}讨论了{_p(r, TOPICS_ZH)}。",
        lambda r: f"On {_date(r)} the user met {_p(r, NAMES_EN)} in {_p(r, CITIES_EN)} about "
                  f"{_p(r, TOPICS_EN)}.",
        lambda r: f"上周{_p(r, WEEKDAYS_ZH)}去{_p(r, CITIES_ZH)}出差，吃了{_p(r, FOODS_ZH)}。",
        lambda r: f"Flew to {_p(r, CITIES_EN)} on {_date(r)} for {_p(r, TOPICS_EN)}; flight "
                  f"{_p(r, AIRLINES)}{r.randint(100, 9999)}.",
        lambda r: f"{_date(r)} 完成了{_p(r, PROJECTS)}的{_p(r, TOPICS_ZH)}，"
                  f"耗时{r.randint(1, 40)}天。",
        lambda r: f"Had a {_p(r, ('dentist', 'doctor', 'physio'))} appointment on {_date(r)} at "
                  f"{r.randint(8, 18)}:00.",
        lambda r: f"{_date(r)} 带{_p(r, PETS_ZH)}去打了疫苗，花了{r.randint(80, 900)}元。",
        lambda r: f"Ran a {_p(r, ('5k', '10k', 'half marathon'))} in {_p(r, CITIES_EN)} on "
                  f"{_date(r)}.",
    ),
    "rule": (
        lambda r: f"回答{_p(r, TOPICS_ZH)}相关的问题时用{_p(r, LANGS)}，并给出{_p(r, FORMATS)}。",
        lambda r: f"Always run the {_p(r, TECH)} tests before pushing to {_p(r, PROJECTS)}.",
        lambda r: f"写代码时优先用{_p(r, TECH)}，注释用{_p(r, LANGS)}。",
        lambda r: f"When summarising {_p(r, TOPICS_EN)}, answer with {_p(r, FORMATS)} first.",
        lambda r: f"每{_p(r, WEEKDAYS_ZH)}提醒用户检查{_p(r, PROJECTS)}的{_p(r, TOPICS_ZH)}进度。",
        lambda r: f"Never schedule anything on {_p(r, WEEKDAYS_EN)} after {r.randint(5, 9)} pm.",
        lambda r: f"给{_p(r, NAMES_ZH)}发邮件时抄送{_p(r, NAMES_EN)}, subject 用英文。",
    ),
}
CATEGORY_WEIGHTS: Mapping[Category, float] = {
    "identity": 0.07, "preference": 0.25, "constraint": 0.12, "fact": 0.26, "event": 0.20,
    "rule": 0.10,
}
IMPORTANCE_RANGE: Mapping[Category, tuple[int, int]] = {
    "identity": (6, 10), "preference": (3, 8), "constraint": (6, 10), "fact": (2, 8),
    "event": (1, 7), "rule": (4, 9),
}
STATUS_WEIGHTS: Mapping[Status, float] = {
    "candidate": 0.52, "confirmed": 0.35, "archived": 0.11, "pending_override": 0.02,
}
"""Statuses drawn for every row; ``frozen`` is given out separately (see below)."""
UNIQUE_TRIES = 40
"""Draws for a content not seen before (the later ones with a context clause) before a
number is appended."""
FREEZE_SHARE = 0.05
"""Share of eligible rows that become frozen while the scope's frozen pool has room."""

QUERY_TEMPLATES: Sequence[Template] = (
    lambda r: f"用户对{_p(r, ALLERGENS_ZH)}过敏吗？",
    lambda r: f"is the user allergic to {_p(r, ALLERGENS_EN)}?",
    lambda r: f"用户喜欢喝什么？{_p(r, DRINKS)}还是茶",
    lambda r: f"what food does the user like, maybe {_p(r, FOODS_EN)}?",
    lambda r: f"{_p(r, NAMES_ZH)}的生日是哪天",
    lambda r: f"which stack does the {_p(r, PROJECTS)} project use",
    lambda r: f"用户住在哪个城市，{_p(r, CITIES_ZH)}吗",
    lambda r: f"where does the user work as a {_p(r, JOBS_EN)}",
    lambda r: f"上次去{_p(r, CITIES_ZH)}出差是什么时候",
    lambda r: f"when did the user meet {_p(r, NAMES_EN)} about {_p(r, TOPICS_EN)}",
    lambda r: f"回答{_p(r, TOPICS_ZH)}问题应该用什么格式",
    lambda r: f"can we book a meeting on {_p(r, WEEKDAYS_EN)} morning?",
    lambda r: f"用户{_p(r, TIMES_ZH)}一般做什么运动",
    lambda r: f"what are the rules for pushing code to {_p(r, PROJECTS)}",
    lambda r: f"用户养的{_p(r, PETS_ZH)}多大了",
    lambda r: f"what is the budget limit for {_p(r, TOPICS_EN)}",
    lambda r: f"帮我安排一下{_p(r, TOPICS_ZH)}，要注意什么",
    lambda r: f"recommend a restaurant in {_p(r, CITIES_EN)} for dinner with {_p(r, NAMES_EN)}",
    lambda r: f"{_p(r, PROJECTS)} 的数据库多久备份一次？",
    lambda r: f"who is {_p(r, NAMES_EN)} to the user?",
    # speakers (subject match; the query is embedded again without the name)
    lambda r: f"what did {_p(r, SPEAKERS[:2])} say about {_p(r, TOPICS_EN)}?",
    lambda r: f"{_p(r, SPEAKERS[2:])}最近在忙{_p(r, TOPICS_ZH)}吗",
    # time anchors (recall's time-anchor route reads what was said on the named days)
    lambda r: (NOW - timedelta(days=r.randint(1, HISTORY_DAYS))).strftime(
        "what did the user do on %d %B, %Y?"),
    lambda r: (NOW - timedelta(days=r.randint(1, HISTORY_DAYS))).strftime("用户%Y年%m月去了哪里"),
)


CONTEXT_ZH: Sequence[Template] = (
    lambda r: f"（{r.randint(2019, 2025)}年{r.randint(1, 12)}月提到）",
    lambda r: f"，这是{_p(r, NAMES_ZH)}告诉我的",
    lambda r: f"，从{r.randint(2005, 2025)}年开始",
    lambda r: f"，{_p(r, WEEKDAYS_ZH)}聊{_p(r, TOPICS_ZH)}时说的",
    lambda r: f"，在{_p(r, CITIES_ZH)}的时候也一样",
)
CONTEXT_EN: Sequence[Template] = (
    lambda r: f" (mentioned in {_p(r, MONTHS)} {r.randint(2019, 2025)})",
    lambda r: f", according to {_p(r, NAMES_EN)}",
    lambda r: f", since {r.randint(2005, 2025)}",
    lambda r: f" (said on a {_p(r, WEEKDAYS_EN)} call about {_p(r, TOPICS_EN)})",
    lambda r: f", also when in {_p(r, CITIES_EN)}",
)


def with_context(rng: random.Random, content: str) -> str:
    """The content with a clause of context in its own language (more distinct texts)."""
    chinese = any("\u4e00" <= ch <= "\u9fff" for ch in content)
    body = content.rstrip("。.")
    end = content[len(body):] or ("。" if chinese else ".")
    return body + _p(rng, CONTEXT_ZH if chinese else CONTEXT_EN)(rng) + end


def make_memories(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` add_many items: mixed Chinese/English, six categories, varied fields.

    Contents are distinct (the gate never stores an exact duplicate in a scope, and a
    repeated text could be answered by an embedding cache instead of the embedder).

    Statuses never include ``frozen``; :func:`assign_frozen` hands it out per scope.
    """
    rng = random.Random(seed)
    speakers = random.Random(seed + 7)  # its own stream: the other draws stay as they were
    categories, category_weights = list(CATEGORY_WEIGHTS), list(CATEGORY_WEIGHTS.values())
    statuses, status_weights = list(STATUS_WEIGHTS), list(STATUS_WEIGHTS.values())
    items: list[dict[str, Any]] = []
    seen: set[str] = set()
    for n in range(count):
        category = rng.choices(categories, category_weights)[0]
        low, high = IMPORTANCE_RANGE[category]
        content = _p(rng, TEMPLATES[category])(rng)
        for attempt in range(UNIQUE_TRIES):
            if content not in seen:
                break
            content = _p(rng, TEMPLATES[category])(rng)
            if attempt >= UNIQUE_TRIES // 4:  # a small template space: add some context
                content = with_context(rng, content)
        else:
            content = f"{content} (#{n})"
        seen.add(content)
        items.append({
            "content": content,
            "category": category, "kind": KIND_OF_CATEGORY[category],
            "importance": rng.randint(low, high),
            "confidence": round(rng.uniform(0.5, 1.0), 2),
            "source": rng.choices(("explicit", "implicit", "emotional"), (0.6, 0.35, 0.05))[0],
            "status": rng.choices(statuses, status_weights)[0],
            "session": f"sess-{rng.randint(1, 5000)}" if rng.random() < 0.7 else None,
            "at": NOW - timedelta(days=rng.uniform(0, HISTORY_DAYS)),
        })
        if items[-1]["session"] is not None:  # where it was said, as the graph records it
            items[-1]["source_ref"] = {"session": items[-1]["session"],
                                       "turn": rng.randint(0, MAX_TURN)}
            if speakers.random() < 0.5:
                items[-1]["source_ref"]["speaker"] = _p(speakers, SPEAKERS)
    return items


def assign_frozen(items: Sequence[dict[str, Any]], frozen_so_far: int, seed: int,
                  config: MemoryConfig) -> tuple[list[dict[str, Any]], int]:
    """Copies of the items of one scope with some live ones frozen, as the frozen gate
    would: only categories it freezes, confident ones, never more than the scope's
    frozen pool cap. Returns the copies and the scope's new frozen count."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for item in items:
        copy = dict(item)
        if (frozen_so_far < config.frozen_pool_cap and rng.random() < FREEZE_SHARE
                and copy["category"] in config.freeze_categories
                and copy["confidence"] >= config.freeze_min_confidence
                and copy["status"] in ("candidate", "confirmed")):
            copy["status"] = "frozen"
            frozen_so_far += 1
        out.append(copy)
    return out, frozen_so_far


def make_queries(count: int, seed: int,
                 keep: Callable[[str], bool] = lambda query: True) -> list[str]:
    """``count`` distinct queries about the memories' topics that ``keep`` accepts."""
    rng = random.Random(seed + 1)
    queries: dict[str, None] = {}
    for _ in range(count * 1000):
        if len(queries) >= count:
            break
        query = _p(rng, QUERY_TEMPLATES)(rng)
        if keep(query):
            queries.setdefault(query, None)
    return list(queries)
