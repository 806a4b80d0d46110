"""Long-history variant of a scenario: months of unrelated earlier sessions per scope.

Real users bring hundreds of sessions, not five turns. Before a scenario's own
sessions, every scope it uses receives ``sessions`` earlier sessions, dated
before the scenario: task talk and one-off requests (nothing to remember),
chit-chat, and harmless durable facts that deserve to be stored (hobbies,
tastes, tools, routines). Generation is deterministic (seeded by the scope).
Facts that mention any of the scenario's expect/forbid strings are left out,
so the history stays unrelated to what the probes check.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from datetime import timedelta

from hermes_graph.eval.scenarios import RecordedTurn, Scenario, Session

HOBBIES_EN = ("pottery", "archery", "origami", "rock tumbling", "birding by ear", "bonsai",
              "calligraphy", "fencing", "geocaching", "woodturning", "beekeeping", "kite flying",
              "sea kayaking", "bread scoring", "lino printing", "board game design", "tai chi",
              "model railways", "stargazing", "fly tying")
HOBBIES_ZH = ("书法", "围棋", "钓鱼", "插花", "剪纸", "陶艺", "养多肉", "拼乐高", "做手账",
              "打羽毛球", "练瑜伽", "集邮", "听评书", "玩数独", "做木工", "种番茄", "折纸",
              "下象棋")
THINGS_EN = (("tea", ("oolong", "genmaicha", "rooibos", "earl grey", "pu-erh")),
             ("board game", ("Carcassonne", "Azul", "Wingspan", "Splendor", "Patchwork")),
             ("colour", ("teal", "ochre", "burgundy", "sage green", "navy")),
             ("author", ("Ursula Le Guin", "Terry Pratchett", "Ted Chiang", "Italo Calvino")),
             ("houseplant", ("monstera", "peace lily", "calathea", "fiddle-leaf fig")))
THINGS_ZH = (("茶", ("铁观音", "大红袍", "碧螺春", "普洱", "白毫银针")),
             ("水果", ("山竹", "杨梅", "枇杷", "荔枝", "火龙果")),
             ("作家", ("汪曾祺", "沈从文", "余华", "阿城", "金庸")),
             ("颜色", ("藏青色", "墨绿色", "米白色", "酒红色")))
TASKS_EN = ("Can you explain how a binary heap works?", "What's 17% of 2,340?",
            "How do I convert a PDF to Word?", "Translate 'good luck' into German.",
            "What's the difference between affect and effect?",
            "Give me a regex for hex colour codes.", "How long do I boil pasta for?",
            "Summarise the plot of Hamlet in two lines.", "What time zone is Reykjavik in?",
            "How do I undo the last git commit?", "Suggest a name for a spreadsheet tab.",
            "Why is the sky blue?")
TASKS_ZH = ("帮我算一下 368 乘以 12 等于多少", "Python 里怎么反转一个列表？",
            "“一帆风顺”用英文怎么说？", "给我讲讲什么是复利", "Excel 怎么冻结首行？",
            "帮我想个周报的标题", "地球到月球有多远？", "怎么把 Word 转成 PDF？",
            "解释一下什么是 HTTP 缓存", "帮我润色一句话：今天天气不错")
REPLIES_EN = ("Sure, here you go.", "Here's a quick answer.", "Happy to help with that.")
REPLIES_ZH = ("好的，给你整理好了。", "没问题，答案如下。", "可以，这样做就行。")
CHAT_EN = ("hi!", "thanks!", "ok cool", "good morning", "lol nice")
CHAT_ZH = ("你好", "谢谢啦", "好的", "早上好", "哈哈")


def _facts(rng: random.Random, zh: bool) -> list[str]:
    if zh:
        facts = [f"我平时喜欢{h}" for h in HOBBIES_ZH]
        facts += [f"我最喜欢的{kind}是{item}" for kind, items in THINGS_ZH for item in items]
        facts += [f"我每周都会去{h}两次" for h in HOBBIES_ZH[:6]]
    else:
        facts = [f"I really enjoy {h} on weekends" for h in HOBBIES_EN]
        facts += [f"My favourite {kind} is {item}" for kind, items in THINGS_EN for item in items]
        facts += [f"I usually do {h} twice a week" for h in HOBBIES_EN[:6]]
    rng.shuffle(facts)
    return facts


def _checked_strings(scenario: Scenario) -> list[str]:
    strings = [s for p in scenario.probes for options in p.expect for s in options]
    strings += [s for p in scenario.probes for s in p.forbid]
    strings += [s for p in scenario.probes for s in (p.max_occurrences or {})]
    return [s.casefold() for s in strings]


def synthetic_history(scenario: Scenario, scope: str, *, sessions: int,
                      zh: bool | None = None) -> list[Session]:
    """``sessions`` earlier sessions for one scope, ending a day before the scenario."""
    first = min(t.at for s in scenario.sessions for t in s.turns)
    rng = random.Random(int(hashlib.sha256(f"{scenario.id}/{scope}".encode()).hexdigest(), 16))
    chinese = zh if zh is not None else scenario.lang == "zh" or (
        scenario.lang == "mixed" and rng.random() < 0.5)
    checked = _checked_strings(scenario)
    facts = [f for f in _facts(rng, chinese) if not any(c in f.casefold() for c in checked)]
    tasks, replies, chat = (TASKS_ZH, REPLIES_ZH, CHAT_ZH) if chinese else (
        TASKS_EN, REPLIES_EN, CHAT_EN)
    out: list[Session] = []
    for n in range(sessions):
        start = first - timedelta(days=sessions - n, hours=rng.randint(0, 10))
        texts: list[str] = [rng.choice(chat)]
        if facts and rng.random() < 0.5:
            texts.append(facts.pop())
        texts += rng.sample(tasks, k=2)
        turns: list[RecordedTurn] = []
        at = start
        for text in texts:
            turns.append(RecordedTurn(role="user", content=text, at=at))
            turns.append(RecordedTurn(role="assistant", content=rng.choice(replies),
                                      at=at + timedelta(seconds=30)))
            at += timedelta(minutes=2)
        out.append(Session(id=f"history-{n:04d}", scope=scope, turns=tuple(turns)))
    return out


def history_sessions(scenario: Scenario, *, sessions: int) -> list[Session]:
    """The earlier sessions of every scope the scenario uses, oldest first."""
    scopes: Sequence[str] = sorted({s.scope for s in scenario.sessions})
    merged = [s for scope in scopes for s in synthetic_history(scenario, scope,
                                                               sessions=sessions)]
    return sorted(merged, key=lambda s: s.turns[0].at)
