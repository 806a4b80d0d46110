"""Material: what the user hands over to be worked on is not about them (pure).

Seed 000 §2.3 extracts what the user says of themselves. "Summarise this: <an article>",
"这句英文啥意思：<a sentence>", a pasted code block: the text after such a task frame is
the task's material, however many facts it states ("around 1304 homes lost power"). Only
what comes before the frame is read as the user speaking.
"""

from __future__ import annotations

import re

from hermes_graph.language.hanzi import simplified

TASK_FRAME = re.compile(
    r"(?:\b(summari[sz]e|summary of|tl;?dr|translate|translation|proofread|rewrite|rephrase|paraphrase|reword|"
    r"polish|shorten|simplify|grammar[- ]check|what does|meaning of)\b[^:：\n.!?]{0,60}|"
    r"(翻译|翻成|译成|总结|概括|缩一下|缩写|精简|润色|改写|校对|啥意思|什么意思|提炼|太长不看)[^:：\n。！？]{0,20})"
    r"(?:[:：]|\n)",
    re.IGNORECASE)
"""A request to work on text, ending in the colon or line break the text follows."""
CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)


POINTS_AHEAD = re.compile(
    r"\b(this|these|the following|below|this text|this article|this email|this paragraph)\b|"
    r"这段|这篇|这封|这条|以下|下面|如下", re.IGNORECASE)
"""A first line that points at text coming after it ("Can you give me the gist of this?",
"这段讲了啥？"), unlike a line that introduces the user ("给你说下我情况哈：")."""
_PARAGRAPH_END = re.compile(r"\n\s*\n")


def without_material(text: str) -> str:
    """The message without the material it hands over: code blocks, everything after a
    task frame ("summarise this:"), and the paragraph after a first line that points at
    it ("Can you give me the gist of this?\n\n<article>")."""
    first, newline, rest = text.strip().partition("\n")
    rest = rest.lstrip()
    if newline and rest and not rest.startswith("```") and POINTS_AHEAD.search(first):
        # the paragraph after it is the material; a later paragraph is the user again
        parts = _PARAGRAPH_END.split(rest, maxsplit=1)
        text = f"{first}\n{parts[1]}" if len(parts) > 1 else first
    text = CODE_BLOCK.sub(" ", text)
    found = TASK_FRAME.search(simplified(text))
    return text if found is None else text[:found.start()].rstrip()
