"""Who a statement is about: the user, a family member or pet, or someone else (pure).

Seed 000 §2.3: a memory names its subject; "我妈对青霉素过敏" is the mother's allergy,
never the user's, and "My teammate Mike is vegan" belongs to Mike. Family members and pets
get ``user.<relation>`` subjects (recalled when a request is about the family, the pets
in the household kept as weighty as the user's identity); anyone else is a third party. A
request about the user alone ("我自己想吃点…", "travelling solo") leaves them all out.
"""

from __future__ import annotations

import re

from hermes_graph.language.hanzi import simplified


def _rx(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


DOG_BREEDS = (r"金毛|拉布拉多|柯基|哈士奇|泰迪|柴犬|边牧|萨摩耶|比熊|\b(golden retriever|retriever|labrador|"
              r"poodle|terrier|corgi|husky|beagle|dachshund|bulldog|spaniel|shepherd|schnauzer|collie|"
              r"shiba|pug|chihuahua|greyhound|whippet|doodle|pomeranian|maltese|samoyed|rottweiler|"
              r"dalmatian|mastiff)\b")
CAT_BREEDS = r"布偶|英短|美短|橘猫|暹罗|\b(persian|siamese|maine coon|ragdoll|tabby|sphynx)\b"
SUBJECT_USER = _rx(r"^(I|I'm|I've|I'd|I'll|I am|my|me|myself|我(?!们))\b", r"^我(?!们)")
"""A clause whose grammatical subject is the user."""
THIRD_PARTY = _rx(
    r"^(他|她|他们|她们)", r"我们?(的)?(室友|同事|朋友|老板|领导|同学|邻居|表哥|表姐|表弟|表妹|堂哥|堂姐|堂弟|堂妹|哥们|闺蜜|"
    r"姐姐|妹妹|哥哥|弟弟|奶奶|爷爷|外婆|外公|姥姥|姥爷|舅舅|阿姨|叔叔|姑姑|男朋友|女朋友|对象|上司|老师|客户|"
    r"组长|经理|主管|总监|导师|队友|合伙人|房东|室友|部长|班主任)", r"我(弟|哥|姐|妹)(?!们)", r"^(同事|朋友|闺蜜|室友|邻居|客户|同学)(?!\S{0,3}(把我|让我|给我|叫我))",
    r"我们?(的)?(部门|组|公司|团队|班|科室|单位)\S{0,2}(的)?(老|小)[\u4e00-\u9fff]",
    r"^(老|小)[张王李赵刘陈杨黄周吴徐孙马胡朱郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余杜叶程魏苏吕丁沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江薛段雷侯史陶贺顾毛郝龚邵钱严武戴孔汤]",
    # a name, then when, then a life change: "阿凯周三离职", "萌萌这周五离职" is someone else's
    r"^(?!我|咱|今|明|昨|下|上|这|那|每|后|前|本|周|月|年|星期|礼拜)[\u4e00-\u9fff]{2,3}(这|下|上)?"
    r"(周|星期|礼拜|个月|月)[一二三四五六日天末\d]?(就|要|会|才|正式)?(离职|辞职|入职|跳槽|退休|搬家|搬走|结婚|生了)",
    r"^(he|she|they)\b", r"\b(my|our) ((best|old|close|new|former|younger|older|little|big|elder) )?"
    r"(friend|roommate|flatmate|housemate|colleague|coworker|co-worker|teammate|team lead|"
    r"tech lead|supervisor|mentor|boss|manager|"
    r"neighbou?r|classmate|cousin|sister|brother|grandma|grandpa|grandmother|grandfather|"
    r"aunt|uncle|niece|nephew|boyfriend|girlfriend|fianc[eé]e?|in-laws?|teacher|landlord|"
    r"client|ex|mate|buddy|pal|bestie|bff|workmate)\b",
    r"\b(the|a|my|our) (neighbou?r|friend|colleague|coworker|boss|sister|brother|cousin|aunt|uncle|"
    r"landlord|flatmate|roommate)s?'s?\b(?! (house|place|flat))", r"(邻居|朋友|同事|室友|房东)(家)?的",
)
FAMILY = _rx(
    r"(女儿|闺女|丫头|儿子|老婆|老公|妻子|丈夫|爱人|媳妇|孩子|宝宝|妈妈|爸爸|父亲|母亲|老妈|老爸)",
    r"\bmy (daughter|son|wife|husband|partner|kid|child|baby|mom|mum|dad|mother|father)\b",
    r"我(妈|爸)",
)

def _kin(*words: str) -> str:
    """An English relative counts only as someone's ("my son", "I have a son"): "I'm a
    single dad" names the user's role, not their father."""
    alternatives = "|".join(words)
    return (rf"\b(my|our)\s+([\w-]+\s+)?({alternatives})\b|"
            rf"\bI have an?\s+([\w-]+\s+){{0,2}}({alternatives})\b")


FAMILY_CANONICAL: tuple[tuple[re.Pattern[str], str], ...] = (
    (_rx(r"女儿|闺女|丫头", _kin("daughter", "daughters")), "daughter"),
    (_rx(r"儿子", _kin("son", "sons", "boy", "boys")), "son"),
    (_rx(r"老婆|妻子|爱人|媳妇", _kin("wife")), "wife"),
    (_rx(r"老公|丈夫", _kin("husband")), "husband"),
    (_rx(r"伴侣", _kin("partner")), "partner"),
    (_rx(r"妈|母亲", _kin("mom", "mum", "mother")), "mother"),
    (_rx(r"爸|父亲", _kin("dad", "father")), "father"),
    (_rx(r"孩子|宝宝|老大|老二|老三|大宝|二宝|小宝|双胞胎", r"\b(the|my|our) twins\b", _kin("kid", "kids", "child", "children", "baby", "toddler",
                                              "infant", "newborn", "teen", "teenager", "little one")), "child"),
    (_rx(r"婆婆|公公|岳母|岳父|丈母娘|老丈人", r"\b(mother|father)-in-law\b"), "in_law"),
    (_rx(r"猫|猫咪", r"\b(cat|cats|kitten)\b", CAT_BREEDS), "cat"),
    (_rx(r"狗|狗狗", r"\b(dog|dogs|puppy)\b", DOG_BREEDS), "dog"),
)
FAMILY_TOPIC = _rx(
    r"母亲|父亲|妈妈|爸爸|老妈|老爸|老公|老婆|媳妇|丈夫|妻子|儿子|女儿|闺女|爷爷|奶奶|外公|外婆|\b(mom|mum|mother|dad|father)('s)?\b",
    r"家人|全家|一家|家里人|孩子|娃|亲子|父母|爸妈|老人|宠物|我(的)?(爸|妈|老婆|老公|女儿|儿子|猫|狗)",
    r"\b(family|families|kids?|children|child|"
    r"parents|my (son|daughter|wife|husband|partner|mom|dad|cat|dog)|pets?)\b",
)
"""A request about the user's family: family members' memories match its context."""
SELF_ONLY = _rx(
    r"我自己|一个人|就我自己|自个儿|独自|给自己", r"\b(solo|by myself|for myself|just me|alone|on my own|"
    r"just for me)\b",
    r"自己的",
)
"""A request about the user alone: other people's facts do not bear on it."""
FAMILY_SUBJECT = _rx(
    r"^我(的|家)?(女儿|闺女|丫头|儿子|老婆|老公|妻子|丈夫|爱人|媳妇|孩子|宝宝|妈妈|爸爸|父亲|母亲|老妈|老爸|妈|爸|猫|狗)",
    r"^(my|our) ((little|older|younger|elder|baby|eldest|youngest) )?(daughter|son|wife|husband|"
    r"partner|kid|child|baby|mom|mum|dad|mother|father|cat|dog)\b", rf"^(my|our) (\w+ )?({DOG_BREEDS}|{CAT_BREEDS})",
    r"^我(家)?(那|这)?(只|条)?(猫|狗|柯基|金毛|泰迪|柴犬|边牧|哈士奇)", r"^我(的)?(婆婆|公公|岳母|岳父|丈母娘|老丈人)",
    r"^my (mother|father)-in-law\b",
)
"""A clause whose grammatical subject is a family member (or pet) of the user."""


def family_relation(text: str) -> str | None:
    text = simplified(text)
    for pattern, name in FAMILY_CANONICAL:
        if pattern.search(text):
            return name
    return None


def clause_subject(clause: str) -> str | None:
    """Who a clause is about by its opening words: "other" (a family member, a pet or a
    third party), "user", or None when it names nobody ("the team lunch needs ...")."""
    clause = simplified(clause)
    if FAMILY_SUBJECT.match(clause) or THIRD_PARTY.match(clause):
        return "other"
    return "user" if SUBJECT_USER.match(clause) else None


_NAME_AFTER = re.compile(r"[\u4e00-\u9fff]{1,2}|\s+[A-Z][a-z]+")


def person_terms(content: str) -> str:
    """The words naming the third party a memory is about ("我同事小周", "My teammate
    Mike"): a query must share one of them to recall that person's facts."""
    found = THIRD_PARTY.search(simplified(content))
    if found is None:
        return ""
    name = _NAME_AFTER.match(content, found.end())  # "小周", " Mike"
    return content[found.start():name.end() if name else found.end()]
