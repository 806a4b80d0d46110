"""Forget requests and retractions: when the user asks us to drop what they said (pure).

Seed 003 §2.3 (passive forgetting): the user's explicit correction or request decides.
A forget verb counts only when it is addressed to us and points at what the user told us
("把我住址那条删了", "scrap anything about Jordan"); the user forgetting things themselves
("我总是忘记带工牌") is no request. Seed 001 §5.2: what was said in anger and then taken
back ("昨晚说的都是气话") is no lasting fact.
"""

from __future__ import annotations

from hermes_graph.policy.lexicon import matches
from hermes_graph.policy.lexicon import rx as _rx
from hermes_graph.policy.normalize import has_han

FORGET = _rx(
    r"(忘掉|忘了吧|忘记|删掉|删除|删了|删去|去掉|移除|别记|不要记|清除|清掉|清空|抹掉)",
    r"\b(remove|delete|wipe|scrub) (my|that|the|what|it|this|those|all)\b",
    r"\brather (that|it|you)\b.{0,20}\bnot\b.{0,10}\b(stored|kept|remembered|keep|store|remember)",
    r"\bforget\b", r"\bdelete (that|what)\b", r"\b(don'?t|do not|stop) (remember|keep|store)",
    r"\brather you not keep\b", r"\berase\b",
    r"别存|不要存|别保存|\bscratch (that|what)\b",
    r"\b(delete|erase|wipe|clear|forget) (everything|all)\b|\bclean slate\b",
    r"别\S{0,3}(存|记)|不要\S{0,3}(存|记)|不想(让你)?(留着|记着|存着)|别留|不要留", r"\bpretend I never said\b|\bhold ?on ?to\b",
    r"\b(scrap|ditch|drop|bin|purge) (that|what|it|this|anything|everything|all)\b|\b(not|off) (on |the )?record\b|\b(don'?t|do not) want (it|that|this|them) (stored|kept|saved|remembered)\b|\bdelete\b",
    r"\b(drop|lose|ditch|scrap|bin|remove|delete) the [\w -]{1,30}? (thing|stuff|bit|part|detail)s?\b|\bfrom (whatever |your |the )?(notes|memory|records)\b",
    r"当我没说|就当没说过|当我没提|\bnever mind (the|about) [\w -]{1,30}? (thing|stuff|bit|part)s?\b",
    r"\b(don'?t|do not) want (it|that|this|them) (coming|to come|brought) up\b",
)

FORGET_SELF = _rx(
    r"我(自己)?(总是|老是|经常|常常|总|老|又|一直|也|都|还|差点|有时|偶尔|容易)?(会)?(忘记|忘了|忘掉|忘)",
    r"\bI\s+(always |often |keep |sometimes |never |usually |tend to |just |totally |completely |"
    r"constantly |occasionally |might )?(forget|forgot|forgetting)\b", r"\bforgetful\b",
    r"\b(don'?t|do not|never) forget\b|别忘|不要忘|忘了说|\bforgot to (mention|say|tell)\b",
)
"""The user forgetting something themselves ("I always forget my badge"): no request to us."""

FORGET_IMPERATIVE = _rx(
    r"^((please|pls|just|also|and|ok(ay)?|actually|hey|so|oh|now|then|kindly|but|no|"
    r"on second thought|wait|(weird|odd|strange|quick|small|random) (request|one|question|thing))[,\s—–-]+)*"
    r"((can|could|would|will) you (please )?|I (want|need|'?d like|would like) you to |"
    r"you (can|should|may) )?(forget|delete|erase|remove|wipe|scratch|scrap|drop|clear|purge|get rid of|"
    r"(don'?t|do not|stop|no need to) (keep|store|remember|save|record|hold ?on ?to))\b",
)
"""An English forget request is an imperative ("Actually, forget the health stuff")."""

FORGET_TARGET = _rx(
    r"\b(about|what I (told|said|mentioned)|that I|where I|my|me|everything|all of it)\b",
    r"\bI (told|said|mentioned|shared|gave)\b",
    r"关于我|我(说|告诉|提)|这件事|这个事|那件事|全部|所有|一切|我的|(跟|和|对)你(说|讲|提)|那条|这条|的事",
    r"那个", r"(之前|刚才|上次|前面|以前)\S{0,2}(说|讲|提|告诉你)(的|过)",
    r"这事|那事|\b(that|this) (one|part|bit|thing|fact)\b|\bpretend I never said\b",
    r"\bthe [\w -]{1,30}? (thing|stuff|bit|part)s?\b|\bthe (name|names|bit|part|detail)s? of\b",
    r"当我没说|当我没提|(别|不要|不用)(再)?(记|存)(着|住|下)?我|(那|这)些|关于(他|她|它|这个人|那个人)",
)
"""A forget verb only counts when it points at what the user told us."""

FORGET_ALL = _rx(
    r"(全部|所有|一切)\S{0,6}(清|删|忘)", r"(清|删|忘)\S{0,4}(全部|所有|一切)",
    r"\bforget (everything|all)\b(?!.{0,30}\babout (?!me\b|myself\b))",
    r"\b(delete|erase|wipe|clear) (everything|all)\b(?!.{0,30}\babout (?!me\b|myself\b))",
    r"\ball of it\b",
    r"\bclean slate\b|\bstart (fresh|over) with (no|zero) memor",
)
"""A request to erase everything remembered about the user."""

RETRACT = _rx(r"\b(that|this) one\b|\bpretend I never said\b|刚才那句|刚说的那个|这句")
"""A forget request that points back at what was just said in the same message."""

CN_ADDRESSED = _rx(r"你|帮我|请|麻烦|别|不要|当我没说|当我没提", r"把[^，。]{0,20}(删|忘|清|去掉|抹|delete|remove|forget)", r"(删|忘|清|抹|去)\S{0,3}吧",
                   r"^(忘掉|忘了|删掉|删除|清除|清空|抹掉|去掉)")
"""A Chinese forget verb speaks to us ("把我住址那条删了", "别记了"), not of the past
("旧代码全删了")."""

PLEASE_FORGET = _rx(r"\bplease (forget|delete|remove|drop|erase)\b|\bplease (don'?t|do not) (keep|store|save|remember)\b",
                    r"不想\S{0,12}(被)?(存|记)(下来|住|着)?")
"""A polite forget request inside a longer message ("…，please forget 公司名字")."""

VENTING_RETRACTED = _rx(r"(是|都是|说的是|那是)气话|气头上|\bcalmed down\b|\bdidn'?t (really )?mean (it|that|any of (it|that))\b|"
                       r"\b(was|were) (just )?venting\b|别当真|\bignore (what I said|my rant|that rant)\b")
"""The user takes back what they said in anger (seed 001 §5.2): it is no lasting fact."""
TO_YOU = _rx(r"\b(you|your)\b")
NEVER_MIND = _rx(r"^(\w+[,\s]+)?never mind (the|about) [\w -]{1,30}? (thing|stuff|bit|part)s?\b")
""""never mind the wedding stuff" withdraws what was said of it."""


def forget_request(text: str) -> bool:
    """A forget verb addressed to us and pointing at what the user told us; the user
    forgetting things themselves ("我总是忘记带工牌", "gaming helps me forget my troubles")
    is no request. In English the verb must be an imperative or speak to "you"."""
    addressed = FORGET_SELF.sub(" ", text)
    if not (matches(FORGET, addressed) and matches(FORGET_TARGET, addressed)):
        return False
    if FORGET_IMPERATIVE.match(addressed.strip()) or PLEASE_FORGET.search(addressed) \
            or NEVER_MIND.search(addressed):
        return True  # mixed text may ask in either language
    return matches(CN_ADDRESSED if has_han(addressed) else TO_YOU, addressed)
