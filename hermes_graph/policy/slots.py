"""Single-valued slots (seed 000 §3.3, seed 004 §4.3).

A slot holds one value at a time (where the user lives, their employer, their
phone, budget, preferred language): a new value with a change signal
supersedes the old one. Multi-valued things (hobbies, allergies, skills) have
no slot and accumulate. A forget request naming a slot ("forget where I
live") erases the memories that fill it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from hermes_graph.language.hanzi import script_joined, simplified
from hermes_graph.policy.topics import concepts_of

BACKENDS = r"Django|DRF|Flask|FastAPI|Rails|Laravel|Spring Boot|Express|NestJS|Phoenix|Gin"
FRONTENDS = r"React|Vue|Angular|Svelte|Next\.js|Nuxt|SolidJS"
"""Named values of the stack slots: "everything's FastAPI now" fills the backend slot."""
SLOT_PATTERNS: Mapping[str, re.Pattern[str]] = {
    "residence": re.compile(
        r"住在|家在|我家住|人在[\u4e00-\u9fff]{2,4}$|(^|我|家)住(?!院|宿|手|[一二三四五六七八九十\d]+(楼|层))|搬到|搬去|搬回|搬来|"
        r"(全家|我们|我)\S{0,3}搬(家)?[\u4e00-\u9fff]{2,4}(了|啦)|\bnow that (I'?m|we'?re) (in|living in|based in) (?-i:[A-Z])|住址|地址|住哪|老家在|在\S{1,10}住|住了\S{1,4}年|租在|租了房|房子\S{0,3}租|在\S{1,10}租房|"
        r"\bended up (in|moving to|living in) (?-i:[A-Z])|"
        r"\b(I'?m|we'?re) (now )?(in|based in|living in) (?-i:[A-Z])[\w ]{0,20}\bnow\b|"
        r"\b(I|we|family) (still |now |currently )?lives? (in|at|on|near)\b|\bliving in\b|"
        r"\bbased in\b|"
        r"(\b(I|we|I'?ve|we'?ve|have|just|recently|finally|family|and) (just |recently |finally |have )?|^)moved (back |up |down |over |out )?to\b|\b(relocated|relocating|moving) (me |us )?to\b|\bwhere I live\b|"
        r"\bmy (location|(home |postal |street )?address|home town|hometown)\b",
        re.IGNORECASE),
    "employer": re.compile(
        r"在\S{1,12}(工作|上班|上夜班|干|任职|就职)|在\S{1,10}(坐|干|做|待|呆)了\S{1,4}年|跳槽|入职|离职|辞职|报到|自己开了(个|家)|\bwork (at|for)\b|"
        r"\bmy (employer|company)\b|"
        r"\bwhere I work\b|\bjoined \S+ as\b|\bleft (my (job|company)|(?-i:[A-Z]))|换工作|换了工作|"
        r"\bchanged jobs\b|\bnew (job|gig|role|position)\b|新公司|新工作|"
        r"在\S{1,10}(做|当)[^，。,.]{0,8}(经理|工程师|设计|运营|产品|开发|销售|测试|QA)|"
        r"(我|现在|目前)(自己)?在(?!家|想|考虑|琢磨|研究|看|学|犹豫|纠结)[^，。？?]{2,16}(做|当)",
        re.IGNORECASE),
    "phone": re.compile(
        r"(我的?|用的?是?|换了?|买了)\S{0,2}手机|手机(是|用的|换|买)|iPhone|安卓|Android|"
        r"\b(my|new) phone\b|"
        r"\bphone is\b|\bPixel\b|\bGalaxy\b", re.IGNORECASE),
    "frontend": re.compile(
        r"(我们|our|the)\S{0,3}\s?(的)?(前端|frontend|front-end)\S{0,3}\s?(是|用|基于|is|uses|runs on|is built)|"
        r"(前端|frontend|front-end)\S{0,6}\s?(迁到|迁移到|换成|改成|migrated to|moved to|switched to)|"
        rf"\b(everything'?s|we'?re (on|using)|all) (?:{FRONTENDS})\b|\b(?:{FRONTENDS})\b[^.]{{0,30}}\bnow\b|"
        rf"\b(our|we|my)\b[^.]{{0,80}}\b(is|are|on|in|to|with) (?:{FRONTENDS})\b",
        re.IGNORECASE),
    "backend": re.compile(
        r"(我们|our|the)\S{0,3}\s?(的)?(后端|backend|back-end)\S{0,3}\s?(是|用|基于|is|uses|runs on|is built)|"
        r"(后端|backend|back-end)\S{0,6}\s?(迁到|迁移到|换成|改成|migrated to|moved to|switched to)|"
        rf"\b(everything'?s|we'?re (on|using)|all) (?:{BACKENDS})\b|\b(?:{BACKENDS})\b[^.]{{0,30}}\bnow\b|"
        rf"\b(our|we|my)\b[^.]{{0,80}}\b(is|are|on|in|to|with) (?:{BACKENDS})\b",
        re.IGNORECASE),
    "computer": re.compile(
        r"(我的?|用的?是?|换了?|买了)\S{0,2}(电脑|笔记本|台式机)|(电脑|笔记本)(是|用的|换|买)|"
        r"\b(MacBook|ThinkPad|XPS|Surface|iMac|Chromebook)\b|\bmy (laptop|computer|desktop)\b",
        re.IGNORECASE),
    "pricing": re.compile(
        r"\b(base |starting |hourly |day )?(package|rate|price|fee)s? (is|are|starts? at)\b|收费|报价是|价格是",
        re.IGNORECASE),
    "car": re.compile(
        r"我(的)?(那|这)?(台|辆)\S{0,8}(车|开了)|我开的|(提|换|买)了(一)?(辆|台)|旧车|\bmy car\b|"
        r"\bI drive an?\b|\bmy new car\b", re.IGNORECASE),
    "budget": re.compile(r"预算|\bbudget\b", re.IGNORECASE),
    "exam": re.compile(
        r"(备考|准备|在考|要考|报了|报名|改考|换成|考)\S{0,4}(雅思|托福|GRE|GMAT|IELTS|TOEFL|LSAT|MCAT|CPA|注会|考研|考公|法考|教资)|"
        r"考试换成|\b(studying|preparing|prepping|registered|signed up) for (the )?(IELTS|TOEFL|GRE|GMAT|LSAT|MCAT|CPA|bar exam)\b",
        re.IGNORECASE),
    "commute": re.compile(
        r"通勤|(坐|骑|开车|挤|走路|步行|打车)\S{0,8}(上班|上学)|上班\S{0,2}(坐|骑|开车|挤)|\bcommute\b|"
        r"\b(drive|bike|cycle|walk|ride|take the (train|bus|tube|subway|metro)) to work\b",
        re.IGNORECASE),
    "database": re.compile(
        r"数据库|\b(database|mysql|postgres(ql)?|mongodb|sqlite|mariadb|oracle db|sql server|"
        r"dynamodb)\b", re.IGNORECASE),
    "language": re.compile(
        r"(用|说|讲|回复|回答)\S{0,3}(中文|英文|英语|日语|简体|繁体)|"
        r"\b(reply|answer|respond|write|speak)\w* (to me )?in (english|chinese|french|german|"
        r"spanish|japanese)\b|\bmy (preferred )?language\b", re.IGNORECASE),
    "verbosity": re.compile(
        r"简短|简洁|详细|说细|展开说|啰嗦|长篇|\b(concise|brief|short answers?|long answers?|"
        r"in (more )?detail|detailed|verbose|every detail)\b", re.IGNORECASE),
    "diet": re.compile(
        r"我\S{0,4}(吃素|素食|纯素|蛋奶素|生酮)|"
        r"\bI'?m (now |a |mostly |strictly |fully |basically )*"
        r"(vegetarian|vegan|pesc[ae]tarian|keto|"
        r"carnivore|flexitarian|paleo)\b|"
        r"\b(started|start|starting|going|went|go) (on )?(keto|vegan|vegetarian|paleo|pesc[ae]tarian|mediterranean)\b|"
        r"\bI (eat|went|go|have gone|'ve gone) (vegetarian|vegan|"
        r"pesc[ae]tarian|keto|paleo)\b", re.IGNORECASE),
    "job": re.compile(
        r"我(是|做|当)(一名|一个|个)?\S{0,6}(工程师|设计师|老师|医生|护士|律师|会计|程序员|产品经理|学生|插画师|教练|司机|厨师|"
        r"教师|警察|记者|编辑|主播|摄影师|翻译|药剂师|店主|画家|作家|演员|导游|快递员|外卖员|骑手|理发师|咖啡师|面包师)|"
        r"我在\S{1,10}(当|做)\S{0,6}(教练|司机|厨师|老师|医生|护士|咖啡师|面包师|摄影师)|"
        r"\bI'?m an? (freelance |senior |junior )?(?!(runner|rower|swimmer|climber|beginner|gamer|reader|"
        r"lover|member|owner|user|believer|learner|speaker|drinker|eater|sleeper|smoker|player|golfer|"
        r"cyclist|vegetarian|pescatarian|keeper|hiker|baker|fan|walker|traveller|traveler)\b)"
        r"\w*(er|or|ist|ian|ant)\b|\bmy job\b|"
        r"\bwhat I do for a living\b|\bstarted (as|work as) an? \w+|\bI work as an? \w+", re.IGNORECASE),
}


CLOSED_SLOT_VALUES: Mapping[str, Mapping[str, re.Pattern[str]]] = {
    "verbosity": {
        "short": re.compile(r"简短|简洁|短点|精简|\b(concise|brief|short|terse)\b", re.IGNORECASE),
        "long": re.compile(r"详细|说细|细一点|展开|\b(detailed|in (more )?detail|every detail|long|"
                           r"thorough)\b", re.IGNORECASE),
    },
    "diet": {
        "vegetarian": re.compile(r"素食|吃素|蛋奶素|\bvegetarian\b", re.IGNORECASE),
        "vegan": re.compile(r"纯素|\bvegan\b", re.IGNORECASE),
        "pescatarian": re.compile(r"鱼素|\bpesc[ae]tarian\b", re.IGNORECASE),
        "keto": re.compile(r"生酮|\bketo\b", re.IGNORECASE),
        "carnivore": re.compile(r"\bcarnivore\b", re.IGNORECASE),
        "flexitarian": re.compile(r"\bflexitarian\b", re.IGNORECASE),
        "paleo": re.compile(r"\bpaleo\b", re.IGNORECASE),
        "mediterranean": re.compile(r"\bmediterranean\b|地中海", re.IGNORECASE),
    },
    "language": {
        "zh": re.compile(r"中文|汉语|简体|繁体|\bchinese\b", re.IGNORECASE),
        "en": re.compile(r"英文|英语|\benglish\b", re.IGNORECASE),
        "ja": re.compile(r"日语|日文|\bjapanese\b", re.IGNORECASE),
        "fr": re.compile(r"法语|\bfrench\b", re.IGNORECASE),
        "de": re.compile(r"德语|\bgerman\b", re.IGNORECASE),
        "es": re.compile(r"西班牙语|\bspanish\b", re.IGNORECASE),
    },
}
"""Slots whose values form a closed set: the value is which alternative is named."""


def closed_value(slot: str | None, text: str) -> str | None:
    """The named alternative of a closed-valued slot; the last one named wins
    ("不用英文，用中文" names Chinese last)."""
    values = CLOSED_SLOT_VALUES.get(slot or "")
    if not values:
        return None
    found = [(m.start(), name) for name, p in values.items() for m in p.finditer(text)]
    return max(found)[1] if found else None


GENERIC_SLOT_TERMS = frozenset({
    "以后", "今后", "之后", "回答", "回复", "使用",
    "工作", "上班", "公司", "住在", "我家", "家在", "手机", "预算", "现在", "数据", "据库",
    "数据库",
    "live", "lives", "living", "work", "works", "company", "phone", "budget", "now", "database",
    "moved", "based", "job", "employer", "use", "using", "reply", "answer", "always", "please",
})
"""Words that name a slot rather than its value: sharing them is not sharing a value."""


_CLAUSE_BREAK = re.compile(r"[，。；！？;!?]|,(?!\d)")


def _clauses(text: str) -> list[str]:
    # a slot is named inside one clause: "数学不用考，英语有点拉胯" names no language
    text = simplified(text)
    return [c for c in _CLAUSE_BREAK.split(text) if c.strip()] or [text]


def slot_of(text: str) -> str | None:
    """The single-valued slot a statement fills, or None when it is multi-valued."""
    clauses = _clauses(text)
    clauses += [j for c in clauses if (j := script_joined(c)) is not None]  # "在 Shopee 做 PM"
    for name, pattern in SLOT_PATTERNS.items():
        if any(pattern.search(c) for c in clauses):
            return name
    return None


def slots_named(text: str) -> list[str]:
    """Every slot a (forget) request mentions."""
    clauses = _clauses(text)
    return [name for name, pattern in SLOT_PATTERNS.items()
            if any(pattern.search(c) for c in clauses)]


CONCEPT_SLOTS: Mapping[str, str] = {"car": "car"}
"""A clause naming the thing ("轿车实在太挤") tells which slot the next new value fills."""


def slot_named_by(text: str) -> str | None:
    """The slot a clause names by its words or by its thing ("轿车实在太挤": car), so a
    new value said right after it ("上周换成了理想L6") fills that slot."""
    by_concept = (CONCEPT_SLOTS[c] for c in sorted(concepts_of(text)) if c in CONCEPT_SLOTS)
    return slot_of(text) or next(by_concept, None)
