"""Self-disclosure: a plain first-person statement of how things stand (pure).

Seed 000 §3.1 keeps what "下次还有用" (will matter next time): a preference, an identity,
a lasting constraint. The category lexicons name such statements by their words; users
also just say how their life runs, in forms no lexicon lists: "I drive long haul, mostly
I-40", "I don't own a car", "I'm Jain", "I work nights on a cardiac unit". English marks
those by grammar, not vocabulary: the simple present (a habit or a state), a negated
ability or possession, "I'm" with a lasting attribute. The past tense ("I finished it
last week"), the progressive ("I'm melting"), a passing feeling ("I'm wired") and verbs
of thinking or wanting ("I think", "I need to") tell nothing lasting.

The rule extractor keeps such a statement as a fact when no lexicon named it; the gates
and recall still decide whether it ever reaches the model.
"""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_LEAD = (r"^(?:(?:and|but|so|also|plus|tbh|btw|honestly|basically|oh|well|yeah|yes|ok|okay|anyway|"
         r"actually|like|lol|haha|fwiw|cos|cuz|because)\b[,\s]*)*")
_FIRST_PERSON = re.compile(
    _LEAD + r"(?P<form>i'?m|i am|im|i'?ve|ive|i have|we'?re|we are|we'?ve|we have"
    r"|(?:i|we) (?:don'?t|dont|do not|can'?t|cant|cannae|canna|cannot|never|no longer|haven'?t"
    r"|have not)|i|we)\s+(?P<rest>.+)$",
    re.IGNORECASE)
_ADVERB = re.compile(r"^(usually|mostly|always|often|normally|generally|still|also|only|basically|"
                     r"mainly|rarely|sometimes|typically|pretty much|kind of|kinda|literally|"
                     r"actually|really|even)\s+", re.IGNORECASE)
_NOT_LASTING_VERBS = _words("""
think guess mean know hope feel wonder need want wanna gotta reckon suppose believe see
understand agree bet promise apologize apologise hear assume doubt forget remember get got just
will would could should might may must shall can did was were had went made took came saw said
told thought found gave left felt bought ran sat ate drank slept wrote met brought kept lost won
paid sent spent built heard knew became began broke fell flew grew drove rode tried asked
finished started stopped tried love like hate prefer enjoy am is are be been being do does have
has 'll 'd ll d also wish care mind miss owe appreciate realize realise recall notice expect
plan try tend keep swear totally definitely
""")
_NOT_LASTING_STATES = _words("""
so really just kinda pretty super very too quite a an the not going gonna about trying looking
thinking wondering planning hoping done back here there off sure sorry glad happy excited
nervous tired wired starving hungry thirsty bored stuck mad angry upset confused lost curious
worried scared stressed exhausted sick ill late early busy free ready fine good ok okay okey
alright great home out new still literally actually currently now today tonight this finally
almost nearly also afraid on at in with like up down outside inside over under into by near
heading headed stuck paranoid terrified devastated heartbroken gutted shattered knackered buzzing
""")
_PAST = re.compile(r"ed$")
_IRREGULAR_PAST = _words("""
was were had went made took came saw said told thought found gave left felt bought ran sat ate
drank slept wrote met brought kept lost won paid sent spent built heard knew became began broke
fell flew grew drove rode got did put set hit cut read let quit shut
""")


def _first_word(text: str) -> str:
    word = re.match(r"[\w'-]+", text)
    return word.group(0).lower() if word else ""


ZH_HABIT = re.compile(
    r"每天|每日|每周|每星期|每礼拜|每晚|每早|每月|每个月|每年|平时|平常|一般(?!般|来说|来讲)|通常|经常|常年|一直|"
    r"从小|向来|长期|天天|常常|固定|(早上|晚上|周末|下班|上班)都")
"""A habit: how the user's days run ("我笔记一直用印象笔记", "每天燕郊到国贸")."""
_ZH_ONGOING = re.compile(
    r"(最近|现在|目前|这阵子|这段时间|正|还)?(在|正在|坚持)(学|准备|备考|练|考|读|带|养|戒|减|跑|攒|定投|用|租|住|"
    r"做|管|负责|追|写|上)")
"""Something the user is in the middle of ("最近在学吉他", "在准备 CPA", "在戒糖")."""
_ZH_STATE = re.compile(r"不会(说|讲|开|游|做)?\S{1,4}$|完全不会|(特别|很|超级?|非常|比较|有点)怕\S|"
                       r"^(我|本人)?(单身|已婚|离异|丁克|独居)")
"""An ability, a fear or a status ("都完全不会日语", "特别怕晒", "我单身哈")."""
_ZH_NOT_MINE = re.compile(r"^(你|他|她|它|他们|她们|大家|别人)|[？?吗呢]$|"
                          r"会不会|可不可以|行不行|好不好|该不该|要不要|怎么|咋|为啥|为什么|多少|几(点|个|天)|"
                          r"(没|不)(搞)?(懂|明白|清楚)|吐槽|想问|想知道|好奇")
"""Someone else's habit, or a question ("晚上喝咖啡会不会睡不着")."""


LIFE_EVENT = re.compile(
    r"(奶奶|爷爷|外婆|外公|姥姥|姥爷|爸爸|妈妈|父亲|母亲|我爸|我妈|老公|老婆|猫|狗)\S{0,3}(去世|过世|走了|没了)|"
    r"\b(my|our) (\w+ ){0,2}(mum|mom|dad|father|mother|grandma|grandpa|gran|nan|granny|husband|"
    r"wife|cat|dog|brother|sister)( \w+)? (died|passed away|passed)\b|"
    r"\b(\w+ )?died (last|this|on|in)\b",
    re.IGNORECASE)
"""A loss that colours every later conversation ("今天我奶奶走了", "our cat Marmalade died
last week"): kept with its date however recent it is."""


def self_disclosure_zh(clause: str) -> bool:
    """Is this Chinese clause the user saying how their life runs? Chinese marks a habit
    or an ongoing pursuit with adverbs (每天, 一直, 平时) and 在 + verb, not tense."""
    text = clause.strip()
    if _ZH_NOT_MINE.search(text) or len(text) < 4:
        return False
    return bool(ZH_HABIT.search(text) or _ZH_ONGOING.search(text) or _ZH_STATE.search(text))


_SCHEDULE = re.compile(
    r"^[\w' -]{2,30}\b(is|are) (on )?(mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|"
    r"sundays|weekends|weekday mornings|weekday evenings)\b", re.IGNORECASE)
"""A weekly fixture: "therapy is tuesdays at 6", "five-a-side is wednesdays"."""
_HABIT_AFTER_DO = re.compile(
    r"^do (\d|nights|days|shifts|mornings|evenings|weekends|earlies|lates|yoga|pilates|crossfit|"
    r"karate|judo|boxing|ballet|parkrun)", re.IGNORECASE)
"""What one does as a habit ("I do nights"), unlike "I do think so"."""


def self_disclosure(clause: str) -> bool:
    """Is this English clause a first-person statement of a lasting habit or state?"""
    if clause.rstrip().endswith("?"):
        return False
    if _SCHEDULE.match(clause.strip()):
        return True
    found = _FIRST_PERSON.match(clause.strip())
    if found is None:
        return False
    # "we" is the user's household or workplace: "we do 4 on 4 off", "we're an Android shop"
    form = re.sub(r"^we(?=\b|re|ve)", "i", found["form"].lower().replace("'", ""))
    form = {"ire": "im", "i are": "i am"}.get(form, form)
    rest = _ADVERB.sub("", found["rest"].strip())
    word = _first_word(rest)
    if not word or (form == "i" and len(rest.split()) < 2):
        return False  # "I see", "I know": nothing about the user
    if form in ("im", "i am") and word in ("a", "an"):  # "we're an Android-only shop"
        after = _first_word(rest.split(maxsplit=1)[1]) if len(rest.split()) > 1 else ""
        return after not in ("bit", "little", "lot", "tad", "mess", "wreck", "few", "")
    if form in ("im", "i am"):
        if rest[:1].isupper() and word not in _NOT_LASTING_STATES:
            return True  # "I'm Jain", "I'm British"
        return word not in _NOT_LASTING_STATES and not word.endswith("ing")
    if form in ("ive", "i have"):
        return word in ("been", "always", "never", "lived", "worked", "used", "given", "quit",
                        "stopped", "switched", "moved", "started", "had")
    if form != "i":  # don't / can't / never / no longer + a verb
        return word not in ("know", "think", "understand", "get", "see", "remember", "care",
                            "mind", "want", "need", "wanna", "mean", "like", "have", "feel")
    if _HABIT_AFTER_DO.match(rest) or rest.lower().startswith("get paid"):
        return True  # "I do 3 or 4 nights in a row", "I get paid on the 15th"
    return (word not in _NOT_LASTING_VERBS and word not in _IRREGULAR_PAST
            and not _PAST.search(word) and word.isalpha())
