"""Reply form: a request about how the assistant answers is a standing rule (pure).

Seed 000 counts "rules for how to answer" (程序性记忆) among what must persist; seed 001
§5.1 credits the frozen rules with a steady style across sessions. Users rarely say
"from now on": they ask, "can you just give me the answer first?", "please be blunt,
don't do the compliment sandwich", "你给我列东西的时候用数字编号". A request about the
form of every answer, not about one task, is such a rule even without a standing word.
"""

from __future__ import annotations

from hermes_graph.policy.lexicon import rx

REPLY_FORM = rx(
    r"\b(can|could|would|will) you (please )?(just )?(stop|quit) (with|using|adding|writing|saying|giving|doing|being|starting|ending|putting)\b",
    r"\b(stop|quit) with the\b",
    r"\b(the )?(answer|conclusion|bottom line|tl;?dr|verdict|summary|short version|recommendation) (first|up front|upfront|at the top)\b",
    r"\blead with (the )?(answer|conclusion|bottom line|verdict|recommendation)\b",
    r"(^|\b(please|just|always)\s+)be (more |really |brutally |totally )?(blunt|brief|concise|direct|frank|critical|harsh|"
    r"straightforward|succinct)\b(?! about)",
    r"\bbe (brutally )?honest with me\b",
    r"^(please )?(just )?(don'?t|do not|never) (start|open|begin|end|finish|pad|sugarcoat|sugar-coat|soften|hedge|lecture|"
    r"moralise|moralize|bother with|apologi[sz]e|do the|give me (a |the )?(lecture|disclaimer|caveats?|pep talk))\b",
    r"\b(no|skip the|cut the|without the) (preamble|intro|fluff|small talk|pleasantries|disclaimers?|caveats?|"
    r"compliment sandwich|waffle|filler|lecture|pep talk|essay|essays|walls? of text)\b",
    r"(别|不要)(跟我)?说\S{0,4}(安慰|客套|鸡汤)", r"\S{0,4}行就?分一?段|分段",
    r"^(以后|今后|往后)(你)?(帮我|给我|替我)",
    r"\b(keep|make) (your |the |my )?(answers?|replies|responses|explanations?|emails?|messages?) (short|shorter|brief|"
    r"under|below|simple|casual|formal|plain)\b",
    r"\b(use|write in|stick to|stick with) (british|uk|us|american|australian|canadian) (english|spelling)\b",
    r"\b(americanisms|britishisms)\b", r"\bexplain (it |things |stuff )?like I'?m\b", r"\bin plain (english|language)\b",
    r"(你)?(给我|帮我|跟我)\S{0,10}(的时候|的话|时)[，,]?\S{0,4}(用|要|别|不要|先|都|请)",
    r"(帮我|给我)?优先(选|订|用|推荐|考虑|安排)",
    r"(说|讲|回答|点评)\S{0,3}(直接|直白|狠|犀利|毒舌)(一)?点|(别|不要|不用)(客套|绕弯|铺垫|废话|夸我|安慰我|说教)",
    r"(直接)?(指出|说)(问题|缺点|哪里不行|哪里不好)",
    r"(先|开头|一上来就)(说|给|讲|写)(结论|答案|重点)",
    r"\b(the )?code only\b|\bjust the code\b|\bno explanations?( unless)?\b", r"的时候\s?(always|一律|都要|记得)|\balways\s?(加|用|写|带)",
)
"""Asked of the assistant, about the form of its answers: answer first, be blunt, no
preamble, British spelling, numbered lists, window seats first."""
