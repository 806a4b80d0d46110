"""Signal lexicons for Chinese and English (pure data + matchers).

These are the write triggers of seed 000 §2.3 (durable information, a
correction or negation, a decision), the change signals of §3.3, and the
filters of §3.2 (greetings, one-off asks, one-off time words, secrets). Each
lexicon is a module constant so users can extend or replace it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from hermes_graph.types import Candidate, Category


def _rx(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


# --- what makes a clause worth remembering, by category ---------------------
IDENTITY = _rx(
    r"我(是|叫|姓|今年|在\S{0,12}(工作|上班|上学|读书)|家在|住在|来自|老家|的职业|做\S{0,6}(工作|的))",
    r"我(有个|有一个|有两个|家有)", r"我(的)?(手机|电脑|车)是",
    r"\bI'?m an?\b", r"\bI am an?\b", r"\bmy name is\b", r"\bI live in\b", r"\bI'?m from\b",
    r"\bI work (at|as|for|in)\b", r"\bI'?m based in\b", r"\bI have an? (daughter|son|wife|husband|"
    r"partner|kid|child|dog|cat)\b", r"\bmy (phone|laptop|car) is\b", r"\bI use an?\b",
    r"\bI (just )?(joined|moved to)\b",
    r"我们?家在", r"我\S{0,4}在\S{0,12}(工作|上班|上学|读书|实习)", r"我在\S{1,8}(部|组|团队|公司|学校|医院|银行)",
    r"我(在|正在|一直)?(用|使用)", r"我们(公司|团队|组|项目|这边)?\S{0,6}(用的是|在用|基于|跑在|部署在)",
    r"我\S{0,4}(在|正在)(准备|备考|学|自学|考|带|做|搞|写|开发)", r"我(今年)?(高[一二三]|初[一二三]|大[一二三四]|研[一二三]|博[一二三])",
    r"我(刚|已经)?退休", r"我(自己)?是(做|搞|学)\S{1,8}的", r"是我(最|的)\S{0,2}(弱|强|擅长|短板)",
    r"我(最|比较|很|不)?(擅长|拿手)",
    r"\bour (backend|frontend|stack|app|main app|database|db|company|team|service|product)\b",
    r"\bwe (use|deploy|run|build|ship|host)\b", r"\bI'?m (the|on the|in the|part of)\b",
    r"\bI (teach|study|coach|manage|run|own|volunteer)\b",
    r"\bI'?m (learning|studying|training for|preparing for)\b",
    r"\bI have (two|three|four|\d+) (kids|children|sons|daughters|dogs|cats)\b",
    r"\bI (fly|travel|commute)\b",
    r"\bI'?m (building|making|writing|developing|working on|running)\b",
    r"\b(currently|these days|lately) (dabbling|learning|working|using|reading|studying|building)\b",
    r"\bI'?m (turning )?\d{1,2}( years old)?\b", r"我今年\d{1,2}岁", r"我\d{1,2}岁",
    r"\bI \w+ (every day|daily|(once|twice|three times|four times|\d+ times) (a|per) (day|week|month))\b",
    r"(每周|每天|每个月)\S{0,3}(\d|一|两|三|四|五)次",
    r"我(的|家)?(女儿|闺女|丫头|儿子|老婆|老公|孩子|宝宝|猫|狗)\S{0,4}(叫|是|名叫|小名|今年)",
    r"(就是|是)我(家|的)(女儿|闺女|丫头|儿子|老婆|老公|孩子|宝宝|猫|狗)",
    r"\bmy (daughter|son|wife|husband|partner|kid|child|dog|cat)('s name is| is called| is named|"
    r"\s+(?-i:[A-Z])[a-z]+)",
)
PREFERENCE = _rx(
    r"我(很|最|特别|比较|更)?(喜欢|爱|偏好|习惯|倾向|讨厌|不喜欢|受不了)", r"我\S{0,8}(一般|通常|平时|总是|经常|习惯|每次都)",
    r"我是个?\S{0,4}(迷|爱好者|发烧友)",
    r"\bI (really )?(like|love|prefer|enjoy|hate|dislike|can't stand)\b", r"\bI usually\b",
    r"\bI'?m an? (keen|big|huge|avid)\b", r"\bmy fav(ou)?rite\b", r"\bI always\b",
    r"^(平时|一般|通常|也|还|最|特别|很)?(喜欢|爱|讨厌|偏好|习惯)",  # implicit 我 after a comma
    r"离不开", r"我\S{0,4}(每天|每周|每晚|每早)", r"\bI'?m (obsessed with|really into|into|a fan of)\b",
    r"\bI can'?t live without\b", r"\bI'?d (like|rather|prefer)\b", r"\bI get around by\b",
)
CONSTRAINT = _rx(
    r"过敏", r"(不|不能|没法)(吃|喝|碰)", r"忌口", r"预算", r"素食", r"吃素", r"怀孕", r"糖尿病", r"高血压",
    r"(膝盖|腰|颈椎|脚踝|跟腱)\S{0,4}(疼|痛|不好|伤)", r"晕车", r"恐高",
    r"\ballerg", r"\bI (don'?t|can'?t|never) (eat|drink)\b", r"\bvegetarian\b", r"\bvegan\b",
    r"\bbudget\b", r"\bgluten\b", r"\blactose\b", r"\bdiabet", r"\bsore\b", r"\binjur",
    r"\bflat feet\b", r"\bclaustrophob", r"\bafraid of\b",
    r"不耐受", r"不会(说|开车|游泳|骑车)", r"没有驾照", r"\bintoleran", r"\bdiagnosed\b",
    r"\bI (don'?t|do not) have an?\b", r"\bno (elevator|lift|car)\b",
)
RULE = _rx(
    r"(以后|今后|之后)(都|请|要|别|不要|一律)", r"(请|麻烦)?(用|使用)(中文|英文|英语|简体|繁体)", r"(回答|回复|答复)(时|的时候)?(请|要|都)",
    r"(别|不要|不许)(用|使用|加|写)", r"代码注释", r"(先|首先)给结论", r"记得(每次|以后)",
    r"\balways (reply|answer|write|use|respond|book|include|give)\b", r"\bnever (use|reply|write|add)\b",
    r"\bplease (don'?t|do not|always|never)\b", r"\bdon'?t use\b", r"\bfrom now on\b",
    r"\b(reply|answer|respond|write) (to me )?in (english|chinese|french|spanish|german)\b",
    r"\bin anything you write\b", r"\bkeep (it|answers|replies) (short|brief)\b",
    r"(回答|回复)我", r"(回答|回复)\S{0,2}(简短|简洁|详细|短点|长点)", r"尽量(简短|简洁|详细|口语)", r"(最多|不超过)\S{0,3}(条|点|句|字)", r"列(要)?点", r"(叫|称呼)我",
    r"\bwhenever you\b", r"\bsign (me|it|them) as\b", r"\b(call|address) me\b",
    r"\bwhen you (write|answer|reply|draft|explain)\b",
    r"\bkeep (your |the |my )?(answers|replies|responses|it)\b", r"[,，]\s*(always|please)[.!]?$",
    r"\b(british|american) (english )?spelling\b",
)
STANDING_RULE = _rx(
    r"以后|今后|之后|每次|一律|永远|始终|记得|别|不要|不许|请", r"\b(always|never|from now on|whenever|"
    r"every time|please|don'?t|do not)\b",
)
"""What makes a rule-like clause a standing rule even when phrased as a request."""
DECISION = _rx(
    r"(决定|定了|选定|就用|敲定|报名|报了|订了|签了)",
    r"我\S{0,6}(要去|准备去|打算去|计划去|去)\S{0,10}(旅游|旅行|自由行|出差|度假)",
    r"\b(decided|we'?ll go with|I chose|I picked|signed up|registered for|enrolled|booked)\b",
)

# --- change, negation and forget ---------------------------------------------
CHANGE = _rx(
    r"改成", r"调整为", r"换成", r"换了", r"现在", r"不再", r"以后不", r"改为", r"搬到", r"已经不",
    r"\bfrom now on\b", r"\bactually\b", r"\bnow\b", r"\bno longer\b", r"\bchanged to\b",
    r"\bswitched to\b", r"\bmoved to\b", r"\banymore\b", r"\bnot any more\b",
)
NEGATION = _rx(
    r"不再", r"不用了", r"已经不", r"以后(别|不要)再?", r"别再", r"不是\S{0,6}了", r"戒了",
    r"\bno longer\b", r"\b(don'?t|do not) \w+ \w*\s?anymore\b", r"\banymore\b", r"\bstopped\b",
    r"\bquit\b",
)
FORGET = _rx(
    r"(忘掉|忘了吧|忘记|删掉|删除|别记|不要记|清除|清掉|清空|抹掉)",
    r"\brather (that|it|you)\b.{0,20}\bnot\b.{0,10}\b(stored|kept|remembered|keep|store|remember)",
    r"\bforget\b", r"\bdelete (that|what)\b", r"\b(don'?t|do not|stop) (remember|keep|store)",
    r"\brather you not keep\b", r"\berase\b",
)

RESTATEMENT = _rx(
    r"^(remember|again|as I said|like I said|once more|reminder)\b", r"^(再说一次|再说一遍|再强调一下|还是那句话|我说过)",
    r"\b(again|as I said before|like I said)\b",
)
"""The user repeats something already said: a confirmation, not a new memory."""
FORGET_TARGET = _rx(
    r"\b(about|what I (told|said|mentioned)|that I|where I|my|me|everything|all of it)\b",
    r"关于我|我(说|告诉|提)|这件事|这个事|那件事|全部|所有|一切|我的",
)
"""A forget verb only counts when it points at what the user told us."""
FORGET_ALL = _rx(
    r"(全部|所有|一切)\S{0,6}(清|删|忘)", r"(清|删|忘)\S{0,4}(全部|所有|一切)",
    r"\bforget (everything|all)\b(?! about)", r"\b(delete|erase|wipe|clear) (everything|all)\b(?! about)",
    r"\ball of it\b",
)
"""A request to erase everything remembered about the user."""

# --- what is never a memory ----------------------------------------------------
SMALLTALK = _rx(
    r"^(你好|您好|早上好|晚上好|下午好|早安|晚安|谢谢|多谢|感谢|哈+|嗯+|好的?|行|OK|ok|好吧|收到|明白|对|是的|没事|拜拜|再见)"
    r"[呀啊呢哈吧了啦！!。.~\s]*$",
    r"^(hi|hello|hey|good (morning|evening|night|afternoon)|thanks?( you)?|thx|cheers|ok(ay)?|"
    r"cool|great|nice|lol|haha+|bye|see you|got it|sure|yes|no|yep|nope)\b[\s!.,~]*"
    r"(so much|a lot|again)?[\s!.]*$",
)
REQUEST = _rx(
    r"^(帮我|请帮|麻烦|给我|替我|能不能|能否|可以|你说|你觉得|推荐|讲个|讲一个|再讲|说说|算一?下|查一?下|翻译)",
    r"(怎么|咋|如何|什么|啥|哪|几点|多少|吗|呢|吧)[？?。！!]?$", r"[？?]$",
    r"有什么|有没有|有啥|能不能|可不可以|是不是|怎么办|咋办|怎么样|行不行",
    r"\b(any (tips|ideas|suggestions|advice)|what should I|how (do|can|should) I)\b",
    r"^(can|could|would|will) you\b", r"^(please )?(help|tell|show|give|find|recommend|suggest|"
    r"explain|write|draft|make|translate|calculate|check)\b", r"^(what|how|why|where|when|which|"
    r"who|is|are|do|does|should)\b",
)
ONE_OFF_TIME = _rx(
    r"今天|今晚|今早|明天|明早|明晚|后天|昨天|昨晚|前天|刚才|刚刚|这周|本周|下周|这周末|这个月|下个月|待会|一会儿|马上",
    r"\b(today|tonight|tomorrow|yesterday|this (week|weekend|morning|afternoon|evening)|"
    r"next (week|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|right now|later today)\b",
)
EMOTIONAL = _rx(
    r"烦死|气死|受不了了|崩溃|累死|烦透|滚|去死|太烦了|太累了|气炸|无语|再也不想|紧张",
    r"\b(hate everything|so (annoyed|angry|tired|done)|sick of|fed up|ugh|damn|screw|"
    r"nervous|stressed|furious)\b", r"[!！]{2,}",
)
THIRD_PARTY = _rx(
    r"^(他|她|他们|她们)", r"我(的)?(室友|同事|朋友|老板|领导|同学|邻居|表哥|表姐|表弟|表妹|堂哥|堂姐|堂弟|堂妹|哥们|闺蜜|"
    r"姐姐|妹妹|哥哥|弟弟|奶奶|爷爷|外婆|外公|姥姥|姥爷|舅舅|阿姨|叔叔|姑姑|男朋友|女朋友|对象|上司|老师|客户)",
    r"^(he|she|they)\b", r"\bmy (friend|roommate|flatmate|colleague|coworker|boss|manager|"
    r"neighbou?r|classmate|cousin|sister|brother|grandma|grandpa|grandmother|grandfather|"
    r"aunt|uncle|niece|nephew|boyfriend|girlfriend|fianc[eé]e?|in-laws?|teacher|landlord|"
    r"client|ex)\b",
)
FAMILY = _rx(
    r"(女儿|闺女|丫头|儿子|老婆|老公|妻子|丈夫|爱人|媳妇|孩子|宝宝|妈妈|爸爸|父亲|母亲|老妈|老爸)",
    r"\bmy (daughter|son|wife|husband|partner|kid|child|baby|mom|mum|dad|mother|father)\b",
)
FAMILY_CANONICAL: tuple[tuple[re.Pattern[str], str], ...] = (
    (_rx(r"女儿|闺女|丫头", r"\bdaughter\b"), "daughter"),
    (_rx(r"儿子", r"\bson\b"), "son"),
    (_rx(r"老婆|妻子|爱人|媳妇", r"\bwife\b"), "wife"),
    (_rx(r"老公|丈夫", r"\bhusband\b"), "husband"),
    (_rx(r"妈妈|母亲|老妈", r"\b(mom|mum|mother)\b"), "mother"),
    (_rx(r"爸爸|父亲|老爸", r"\b(dad|father)\b"), "father"),
    (_rx(r"孩子|宝宝", r"\b(kid|child|baby)\b"), "child"),
    (_rx(r"猫|猫咪", r"\b(cat|kitten)\b"), "cat"),
    (_rx(r"狗|狗狗", r"\b(dog|puppy)\b"), "dog"),
)
TOOL_REQUEST = _rx(
    r"(帮我|请|麻烦)?(算一?下|算算|计算|翻译|换算|转换成)", r"用(英文|中文|日语|英语)怎么说", r"天气|气温|几点了|汇率",
    r"\d+\s*[-+*/×÷]\s*\d+", r"\b(calculate|compute|convert|translate|what'?s \d|how much is \d|"
    r"weather|time is it|exchange rate)\b",
)
"""A pure tool request (a sum, a translation, the weather): memory cannot help."""
PERSONAL = _rx(r"我(?!们?帮)|\b(my|me|I'?m|I am|I'?ve|mine)\b")
"""A first-person cue that can make even a tool-like request personal."""
DEICTIC = _rx(
    r"^(这个|那个|第[一二三四五六七八九十\d]+个|前一个|后一个|上一个)", r"\b(the (first|second|third|last|"
    r"other) one|that one|this one)\b",
)
"""A clause that only points at something in the chat ("I like the second one")."""
FAMILY_TOPIC = _rx(
    r"家人|全家|一家|家里人|孩子|娃|亲子|父母|爸妈|老人|宠物", r"\b(family|families|kids?|children|child|"
    r"parents|my (son|daughter|wife|husband|partner|mom|dad|cat|dog)|pets?)\b",
)
"""A request about the user's family: family members' memories match its context."""
FAMILY_SUBJECT = _rx(
    r"^我(的|家)?(女儿|闺女|丫头|儿子|老婆|老公|妻子|丈夫|爱人|媳妇|孩子|宝宝|妈妈|爸爸|父亲|母亲|老妈|老爸|猫|狗)",
    r"^my (daughter|son|wife|husband|partner|kid|child|baby|mom|mum|dad|mother|father|cat|dog)\b",
)
"""A clause whose grammatical subject is a family member (or pet) of the user."""
DISCOURSE_PREFIX = _rx(
    r"^(跟你说下|跟你说一下|说一下|对了|另外|还有|顺便说一下|其实|再说一遍啊?|帮我记一下|记一下|"
    r"heads up|btw|by the way|also|and|so|oh|just so you know|fyi|for the record|quick context|"
    r"context|update|big news|news|anyway|ok|okay|got it|cool|ah right|remember|again|general preference|"
    r"再说一次|再说一遍|再强调一下|记住)[:：,，.!\s]*",
)

# --- secrets and ID numbers (seed 004 privacy) ----------------------------------
SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("password", _rx(r"(密码|口令|passcode|password|passwd|pwd)\s*(是|为|:|：|is)?\s*\S+")),
    ("api_key", _rx(r"\b(sk|pk|rk|ghp|gho|xox[bap]|AKIA)[-_A-Za-z0-9]{12,}\b",
                    r"(api[ _-]?key|token|secret)\s*(是|为|:|：|is|=)\s*\S{8,}")),
    ("national_id", _rx(r"(?<!\d)\d{17}[\dXx](?!\d)", r"\b\d{3}-\d{2}-\d{4}\b",
                        r"(身份证|护照|passport|social security|SSN)\S{0,6}\s*\S*\d{6,}")),
    ("bank_card", _rx(r"(?<!\d)(?:\d[ -]?){15,18}\d(?!\d)", r"(银行卡|卡号|card number)\S{0,4}\s*\d{4,}")),
    ("verification_code", _rx(r"(验证码|verification code|OTP)\S{0,4}\s*\d{4,8}")),
)
PHONE_PATTERN = _rx(r"(?<!\d)1[3-9]\d{9}(?!\d)", r"(?<!\d)\+?\d{1,3}[ -]?\(?\d{2,4}\)?[ -]?\d{3,4}[ -]?\d{3,4}(?!\d)")

CATEGORY_SIGNALS: tuple[tuple[Category, re.Pattern[str]], ...] = (
    ("rule", RULE),
    ("constraint", CONSTRAINT),
    ("identity", IDENTITY),
    ("preference", PREFERENCE),
    ("event", DECISION),
)
"""Checked in order: the first category whose lexicon matches a clause wins."""


def matches(pattern: re.Pattern[str], text: str) -> bool:
    return pattern.search(text) is not None


def secret_kinds(text: str, *, include_phone: bool) -> list[str]:
    """Names of the secret kinds present in ``text`` (empty when clean)."""
    found = [name for name, pattern in SECRET_PATTERNS if pattern.search(text)]
    if include_phone and PHONE_PATTERN.search(text):
        found.append("phone")
    return found


def screen_secrets(candidate: Candidate, *, include_phone: bool) -> Candidate:
    """A candidate holding a secret or an ID number becomes a dropped, redacted one
    (seed 004 privacy rules), whatever extractor made it and whatever else it was
    dropped for: the secret goes no further, not even into a trace."""
    secrets = secret_kinds(candidate.content, include_phone=include_phone)
    if not secrets:
        return candidate
    return dataclasses.replace(candidate, content="[redacted]",
                               drop_reason=f"secret:{'+'.join(secrets)}")


def family_relation(text: str) -> str | None:
    for pattern, name in FAMILY_CANONICAL:
        if pattern.search(text):
            return name
    return None


def category_of(text: str) -> Category | None:
    for category, pattern in CATEGORY_SIGNALS:
        if pattern.search(text):
            return category
    return None


def any_match(patterns: Iterable[re.Pattern[str]], text: str) -> bool:
    return any(p.search(text) for p in patterns)
