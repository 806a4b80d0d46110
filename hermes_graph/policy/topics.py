"""Topics and concepts: naming a kind of memory without its words (pure data + matchers).

A forget request often names a topic, not a memory: "forget the health stuff I told
you", "之前说的吃药的事别记了" (seed 004: the user can withdraw what they shared). A
:class:`Topic` pairs the words that name it in a request with the words that mark a
memory as belonging to it.

A negation often names a concept, not the stored words: "我现在不喝咖啡了" retires
"我每天早上一杯冰美式" (seed 000 §3.3). ``CONCEPTS`` maps the words of a few everyday
habits to one concept name so the gate can see that both speak of coffee.

Both tables are module constants so users can extend or replace them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


def _rx(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


@dataclass(frozen=True)
class Topic:
    name: str
    named_by: re.Pattern[str]
    """How a request names the topic."""
    member: re.Pattern[str]
    """What marks a memory as on the topic."""
    carries: bool = True
    """A clause on the topic takes the subject-less clauses after it along when it is
    forgotten ("我是焦虑症患者，一直在吃舍曲林"); a weight does not ("…76.5 公斤，在练深蹲")."""


FORGET_TOPICS: tuple[Topic, ...] = (
    Topic("health",
          _rx(r"\b(health|medical|medication|meds|medicine|diagnos\w*|condition|illness|"
              r"mental health|therapy)\b", r"健康|身体|病|药|医疗|治疗|看病|医生|心理"),
          _rx(r"\b(diagnos\w*|diabet\w*|allerg\w*|asthma|cancer|depress\w*|anxiety|medicat\w*|"
              r"pills?|surgery|disease|disorder|syndrome|blood pressure|"
              r"insulin|pregnan\w*|chemo\w*|adhd|ocd|ptsd|injur\w*|prescri\w*|carbs?|glucose|meds)\b",
              r"病|症|药|过敏|手术|血压|血糖|怀孕|患者|治疗|医院|医生|胰岛素|抑郁|焦虑|处方|失眠",
              r"(一直|长期)\S{0,2}(吃|服)|服用", r"\b(taking|on) \w+(ine|ol|am|pril|statin|zole|mab)\b")),
    Topic("money",
          _rx(r"\b(money|finances?|financial|salary|income|debts?|savings)\b",
              r"钱|财务|收入|工资|薪水|存款|负债|贷款"),
          _rx(r"\b(salary|income|debts?|loans?|mortgage|savings|earn\w*|paid|making)\b", r"[$£€¥]\s?\d",
              r"工资|薪水|收入|月薪|年薪|存款|贷款|房贷|负债|欠")),
    Topic("relationships",
          _rx(r"\b(relationship|dating|love life|divorce|breakup|ex)\b",
              r"感情|恋爱|婚姻|离婚|分手|前任"),
          _rx(r"\b(boyfriend|girlfriend|dating|divorc\w*|break ?up|broke up|my ex|married)\b",
              r"男朋友|女朋友|对象|恋爱|离婚|分手|前任|结婚|相亲")),
    Topic("weight",
          _rx(r"\b(weight|weigh-?ins?|the numbers)\b", r"体重|那些数字|那几个数"),
          # the user's own weight, not a barbell's ("目前 60 公斤做五组五次")
          _rx(r"\b(I'?m|I am|I weigh|weigh(ing)?|down to|up to) (about |around )?\d+(\.\d+)? ?(kg|kilos?|lbs?|pounds|stone)\b",
              r"我(现在|目前)?\S{0,2}\d+(\.\d+)?\s?(公斤|斤|kg)|体重|目标\S{0,2}\d+"), carries=False),
    Topic("wedding",
          _rx(r"\bwedding\b", r"婚礼|婚事|办酒"),
          _rx(r"\b(wedding|bridesmaid|best man|maid of honou?r|bride|groom|hen do|stag do)\b",
              r"婚礼|伴娘|伴郎|婚纱|新娘|新郎|酒席|婚宴"), carries=False),
)


CONCEPTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("coffee", _rx(r"咖啡|美式|拿铁|卡布奇诺|浓缩|星巴克|瑞幸",
                   r"\b(coffee|latte|espresso|cappuccino|americano|flat white|mocha)\b")),
    ("tea", _rx(r"茶", r"\b(tea|matcha|chai)\b")),
    ("alcohol", _rx(r"酒", r"\b(alcohol|beer|wine|whisk(e)?y|vodka|cocktails?|drinking|booze|IPA|lager|ale|pints?|sober)\b")),
    ("smoking", _rx(r"烟", r"\b(smok\w*|cigarettes?|vap\w*)\b")),
    ("meat", _rx(r"肉", r"\b(meat|beef|pork|chicken|steak)\b")),
    ("sugar", _rx(r"糖|甜食|奶茶", r"\b(sugar|sweets|dessert|candy|soda)\b")),
    ("car", _rx(r"开车|汽车|车子|(?<![火电高动列])车(?!站|票)", r"\b(car|cars|drive|driving|honda|toyota|ford|tesla|bmw|volkswagen|nissan|hyundai|kia|mazda|subaru)\b")),
    ("gaming", _rx(r"游戏|王者荣耀|原神|吃鸡", r"\b(gaming|video games?|games)\b")),
)


def topics_named(request: str) -> list[Topic]:
    """The topics a (forget) request names."""
    return [t for t in FORGET_TOPICS if t.named_by.search(request)]


def on_topic(topic: Topic, content: str) -> bool:
    return topic.member.search(content) is not None


def concepts_of(text: str) -> set[str]:
    """The everyday concepts a statement speaks of ("冰美式" -> coffee)."""
    return {name for name, pattern in CONCEPTS if pattern.search(text)}
