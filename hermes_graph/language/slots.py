"""Single-valued slots, recognised by example (seed 000 §3.3, seed 004 §4.3).

A slot holds one value at a time: where the user lives, their work, their phone, their
budget. A statement fills the slot whose examples it is closest to (the embedder's cosine,
at least ``MemoryConfig.slot_cosine``), so a new value supersedes the old one however
either is worded, in either language. Each slot's ``checks`` are sentences it must claim
and ``NO_SLOT`` sentences no slot may claim; a test holds the table to them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True, kw_only=True)
class Slot:
    examples: tuple[str, ...]
    checks: tuple[str, ...]


SLOTS: Mapping[str, Slot] = {
    "residence": Slot(
        examples=("I live in Leeds", "we just moved to Portland", "my flat is in Shoreditch",
                  "I'm based in Singapore now", "I relocated to Austin last month",
                  "我住在杭州", "家在顺义", "我们搬到深圳了", "现在住在滨江", "租的房子在天通苑"),
        checks=("we ended up settling in Lyon", "my apartment is in Brooklyn", "我家在成都高新区",
                "上个月搬去苏州了")),
    "work": Slot(
        examples=("I work at Google", "I just joined a fintech startup", "I left Amazon and now work "
                  "for a bank", "I'm a nurse", "I work as a software engineer",
                  "I teach maths at a high school", "I drive a truck for a living",
                  "I'm a freelance photographer", "I'm a barista at a cafe downtown",
                  "我在腾讯上班", "我跳槽到字节了", "我在一家外企工作", "新公司在陆家嘴", "我是一名程序员",
                  "我在医院当护士", "我开出租车的", "我在酒楼后厨做厨师", "我在中学教英语"),
        checks=("I got a job at Microsoft", "我现在在美团上班", "I'm an accountant", "我是小学老师",
                "I work as a paramedic")),
    "school": Slot(
        examples=("I'm in my second year at university", "my daughter is in third grade",
                  "I'm a sophomore studying biology", "我在读研一", "孩子今年上四年级",
                  "我闺女上幼儿园大班了"),
        checks=("my son just started first grade", "我在读大三")),
    "phone": Slot(
        examples=("my phone is an iPhone 15", "I switched to a Pixel", "I use a Samsung Galaxy",
                  "我手机是小米13", "换了个华为手机"),
        checks=("I got a new OnePlus phone", "我用的是 OPPO 手机")),
    "computer": Slot(
        examples=("I use a MacBook Pro", "my laptop is a ThinkPad running Linux", "I'm on Windows 11",
                  "我的电脑是联想拯救者", "换了台 Mac mini"),
        checks=("my laptop is a Dell XPS", "我电脑是 Surface")),
    "car": Slot(
        examples=("I drive a Tesla Model 3", "we sold the Civic and bought a BYD",
                  "my car is an old Honda Fit", "我开的是凯美瑞", "刚提了辆理想L6"),
        checks=("I drive a Subaru Outback", "我的车是大众朗逸")),
    "budget": Slot(
        examples=("my budget is about 5000 dollars", "we can spend up to 300 pounds",
                  "I can't go over $800", "预算15万左右", "预算控制在两千以内"),
        checks=("budget is around 2k", "我预算大概三千块")),
    "pricing": Slot(
        examples=("my base package is 1800 pounds", "I charge 60 an hour",
                  "our starter plan costs 9 dollars a month", "我的课时费是两百一节", "我们套餐价是三千八",
                  "我做一次上门服务收两百"),
        checks=("my hourly rate is $75", "我接单一张图收五百")),
    "schedule": Slot(
        examples=("I work nights, 7pm to 7am", "I'm on the early shift from 5am",
                  "my shifts are Saturday and Sunday", "我上夜班，晚上十点到早上六点",
                  "我们单休，周日休息"),
        checks=("I work the graveyard shift", "我早班六点开始")),
    "stack": Slot(
        examples=("our frontend is React", "the backend is Django with Postgres",
                  "we migrated the app to Svelte", "our services are written in Java with Spring",
                  "the API is built with FastAPI", "我们后端用的 Go", "前端是 Vue 3", "项目用 Laravel 写的"),
        checks=("our API is written in Rails", "我们项目前端用 Next.js")),
    "tool": Slot(
        examples=("we track tasks in Trello", "the team moved to Asana", "I write my notes in Evernote",
                  "we use Jira for tickets", "our team chats on Slack", "we do all our docs in Confluence",
                  "我们用飞书管理项目", "团队现在用钉钉", "我们公司内部沟通都在微信群里"),
        checks=("we switched our task tracking to ClickUp", "我们现在用企业微信沟通")),
    "diet": Slot(
        examples=("I'm vegetarian", "I went vegan last year", "I'm doing keto",
                  "我吃素", "我在生酮饮食"),
        checks=("I'm pescatarian now", "我现在纯素")),
    "language": Slot(
        examples=("please always answer me in Chinese", "reply in English from now on",
                  "write to me in Spanish", "以后用中文回答我", "跟我说话用繁体字"),
        checks=("answer in French please, always", "以后回复都用英文")),
    "verbosity": Slot(
        examples=("keep your answers short", "I prefer detailed explanations",
                  "no more than three sentences please", "回答简短一点", "说详细点，别太简略"),
        checks=("give me brief replies", "回答尽量简洁")),
}
MANY_VALUED: tuple[str, ...] = (
    "I'm allergic to shellfish", "I love jazz", "I have a dog named Rex", "I play tennis on Sundays",
    "my mum has diabetes", "I hate cilantro", "I went to Japan last spring", "I'm learning guitar",
    "I have a bad knee", "I'm scared of heights", "我对芒果过敏", "我喜欢爬山", "我家有两只猫",
    "我爸有高血压", "我去年去了云南", "我在学日语", "我怕狗", "我周末喜欢去钓鱼",
)
"""Statements that fill no slot (allergies, tastes, pets, hobbies, events): a text
nearest one of these fills none."""
NO_SLOT: tuple[str, ...] = (
    "I'm allergic to peanuts", "I have two cats", "I love hiking on weekends",
    "I'm training for a marathon", "我对青霉素过敏", "我喜欢看科幻电影", "my sister is getting married",
)


Embed = Callable[[list[str]], NDArray[np.float32]]


class SlotReader:
    """Which slot a text fills, by its closest example."""

    def __init__(self, embed: Embed, *, threshold: float) -> None:
        self.threshold = threshold
        self.names: list[str | None] = [name for name, slot in SLOTS.items()
                                        for _ in slot.examples]
        self.names += [None] * len(MANY_VALUED)
        self.vectors = embed([e for slot in SLOTS.values() for e in slot.examples]
                             + list(MANY_VALUED))

    def slot_of(self, vector: NDArray[np.float32]) -> str | None:
        similarity = self.vectors @ vector
        best = int(np.argmax(similarity))
        return self.names[best] if similarity[best] >= self.threshold else None
