"""Pseudo-facts: what the user says without claiming it is so (pure).

Seed 001 §1.2 calls a memory store full of "伪事实" polluted: the model then acts on
things that were never true of the user. Besides one-off and emotional talk, users say
things about themselves they do not assert:

- a hypothetical: "if I were vegan…", "假如我搬去上海…", "要是有一百万预算我们就包个小岛了";
- make-believe: "write a story where I run a hotpot place", "来玩个 role-play：我是 Google
  的 senior PM" (until "real me:" / "说正经的");
- someone else's opinion of them: "我妈老说我是路痴", "my boss thinks I'm lazy";
- an exaggeration: "I've been to literally a million dentists".

The rule extractor keeps none of these; what else the message says still counts.
"""

from __future__ import annotations

from collections.abc import Sequence

from hermes_graph.policy.lexicon import matches, rx

HYPOTHETICAL = rx(
    r"^(and |but |so |ok |okay )?(what )?if (I|we) (were|was|had|did|lived|moved|became|won|could|quit|got)\b",
    r"\bif (I|we) were\b", r"\bimagine (if )?(I|we)\b", r"\bsuppose (I|we)\b", r"\bhypothetically\b",
    r"\bin (a|another) (parallel|alternate) (universe|life)\b", r"\bin theory\b",
    r"(^|[:：]\s*)(假如|假设|假若|倘若|设想|想象一下|要是|万一)", r"^如果(我|咱|咱们|我们|有|能|可以)(?!.*(请|帮我|记得|以后|回答|回复))",
)
"""A clause that supposes instead of telling; what follows it in the sentence is its
consequence ("如果我是老板，我就天天放假"). A standing rule's condition ("如果我问代码问题，
请用英文回答") is no hypothetical: the rule lexicon decides first."""
FICTION = rx(
    r"\b(write|tell|make up|draft|compose|invent)( me)?( a| an| the)?( short| funny| little)? "
    r"(story|poem|scene|screenplay|fanfic|fan fiction|novel|tale)\b",
    r"\brole-?play\b", r"\bpretend (that |to be |you'?re |I'?m |we'?re )", r"\blet'?s play\b", r"\bas if I were\b",
    r"\bin character\b", r"\b(a|the) character (who|that|named)\b",
    r"(写|编)(个|一个|篇|一篇|段|一段|首|一首)?\S{0,6}(小说|故事|剧本|段子|诗)", r"角色扮演|(你|我)扮演|扮演一下|演一下",
    r"(你|我们|咱们)?假装(你|我)(是|在)", r"来玩个\S{0,6}(游戏|角色|role)", r"设定[:：]",
)
"""Make-believe starts here: every clause after it, in this message and the next ones
of the exchange, is the story's, not the user's."""
REALITY = rx(
    r"\b(real me|the real me|in real life|irl|for real though|out of character|ooc|back to reality|"
    r"seriously though|jokes aside|on a serious note|actual me|reality check)\b",
    r"说正经的|言归正传|说真的|现实中|现实里|现实是|真实的我|正经说|不闹了|不开玩笑了|不玩了|真实情况|演不下去|不演了|出戏",
    r"\b(in reality|reality is|truth is|back in the real world)\b",
)
"""The user steps out of the story: what follows is about them again."""
HEARSAY = rx(
    r"(妈|爸|老婆|老公|对象|女朋友|男朋友|老板|领导|同事|朋友|闺蜜|别人|大家|他们|他|她|老师|爷爷|奶奶|姐|哥|弟|妹|家里人)"
    r"\S{0,3}(老|总|总是|老是|常|一直|都)(说|觉得|认为|嫌|骂|夸|吐槽)我",
    r"(妈|爸|老婆|老公|对象|老板|领导|同事|朋友|闺蜜|别人|大家|家里人)\S{0,2}(嫌|骂|吐槽)我",
    r"\b(thinks|reckons|keeps saying|always says|calls|called|swears|claims|jokes)( that)? (I'?m|I am|me)\b",
    r"\baccording to (my )?(mum|mom|dad|boss|wife|husband|partner|sister|brother|friends?)\b",
)
"""Someone else's opinion of the user ("我妈老说我是路痴"): theirs, not a fact. A doctor's
finding reported by the user ("my doctor told me my A1C is 6.1") is not matched."""
HYPERBOLE = rx(
    r"\b(literally )?(a|like a) (million|billion|gazillion|zillion|hundred thousand) \w+",
    r"\bmillions of (times|\w+s)\b", r"\b(every single|each and every) (one|time)\b",
    r"一万(次|遍)|八百(次|遍)|一百万(次|遍)|无数次|一辈子都",
)
"""An exaggeration said in frustration: no count of anything."""


def pseudo_kind(clause: str) -> str | None:
    """Why a clause states no fact about the user, or None when it may."""
    if matches(HYPOTHETICAL, clause):
        return "hypothetical"
    if matches(HEARSAY, clause):
        return "hearsay"
    if matches(HYPERBOLE, clause):
        return "hyperbole"
    return None


def still_pretending(earlier: Sequence[str]) -> bool:
    """Did an earlier message of the exchange start make-believe that no "real me:" has
    ended since?"""
    pretending = False
    for text in earlier:
        story = [m.start() for m in FICTION.finditer(text)]
        real = [m.start() for m in REALITY.finditer(text)]
        if story and (not real or story[-1] > real[-1]):
            pretending = True
        elif real:
            pretending = False
    return pretending


def out_of_story(sentence: str) -> str | None:
    """What a sentence says after the user steps out of the story ("real me: 29, QA
    tester"), or None when it does not."""
    found = [m.end() for m in REALITY.finditer(sentence)]
    return sentence[found[-1]:].strip(" :：,，-—") if found else None
