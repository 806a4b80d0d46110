"""Signal lexicons for Chinese and English (pure data + matchers).

These are the write triggers of seed 000 §2.3 (durable information, a
correction or negation, a decision), the change signals of §3.3, and the
filters of §3.2 (greetings, one-off asks, one-off time words, secrets). Each
lexicon is a module constant so users can extend or replace it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hermes_graph.policy.forgetting import CN_ADDRESSED as CN_ADDRESSED
from hermes_graph.policy.forgetting import FORGET as FORGET
from hermes_graph.policy.forgetting import FORGET_ALL as FORGET_ALL
from hermes_graph.policy.forgetting import FORGET_IMPERATIVE as FORGET_IMPERATIVE
from hermes_graph.policy.forgetting import FORGET_SELF as FORGET_SELF
from hermes_graph.policy.forgetting import FORGET_TARGET as FORGET_TARGET
from hermes_graph.policy.forgetting import PLEASE_FORGET as PLEASE_FORGET
from hermes_graph.policy.forgetting import RETRACT as RETRACT
from hermes_graph.policy.forgetting import TO_YOU as TO_YOU
from hermes_graph.policy.forgetting import VENTING_RETRACTED as VENTING_RETRACTED
from hermes_graph.policy.forgetting import forget_request as forget_request
from hermes_graph.policy.lexicon import matches as matches
from hermes_graph.policy.lexicon import readings
from hermes_graph.policy.lexicon import rx as _rx
from hermes_graph.policy.reply_form import REPLY_FORM as REPLY_FORM
from hermes_graph.policy.subjects import CAT_BREEDS, DOG_BREEDS
from hermes_graph.types import Category

# --- what makes a clause worth remembering, by category ---------------------
IDENTITY = _rx(
    r"我(是|叫|姓|今年|在\S{0,12}(工作|上班|上学|读书)|家在|住在|来自|老家|的职业|做\S{0,6}(工作|的))",
    r"我(有个|有一个|有两个|家有)", r"我(的)?(手机|电脑|车)是",
    r"\bI'?m an? (?!(bit|little|lot|tad|touch|mess|wreck)\b)", r"\bI am an? (?!(bit|little|lot|tad)\b)",
    r"\bmy name is\b", r"\bI live in\b", r"\bI'?m from\b",
    r"\bI work (at|as|for|in)\b", r"\bI'?m based in\b", r"\bI have an? (daughter|son|wife|husband|"
    r"partner|kid|child|dog|cat)\b", r"\bmy (phone|laptop|car) is\b",
    r"\bI (mainly |mostly |primarily |still )?(use|code in|program in)\b",
    r"\bI (just )?(joined|moved to)\b", r"\b(I|we) (just |recently )?(relocated|moved) (back )?to\b",
    r"\b(I|we)(?:'ve| have) got (an?|two|three|four|\d+)\b", r"养了|养着|在养",
    r"在\S{1,10}住了", r"住了\S{1,4}年",
    r"我们?家在", r"我\S{0,4}在\S{0,12}(工作|上班|上夜班|打工|兼职|上学|读书|实习)", r"我在\S{1,8}(部|组|团队|公司|学校|医院|银行)",
    r"我(在|正在|一直)?(用|使用)", r"我们(公司|团队|组|项目|这边)?\S{0,6}(用的是|在用|基于|跑在|部署在)",
    r"我\S{0,4}(在|正在)(准备|备考|学|自学|考|带|做|搞|写|开发)", r"我(今年)?(高[一二三]|初[一二三]|大[一二三四]|研[一二三]|博[一二三])",
    r"我(刚|已经)?退休", r"我(自己)?是(做|搞|学)\S{1,8}的", r"是我(最|的)\S{0,2}(弱|强|擅长|短板)",
    r"我(最|比较|很|不)?(擅长|拿手)",
    r"\bour (backend|frontend|stack|app|main app|database|db|company|team|service|product)\b",
    r"\bwe (use|deploy|run|build|ship|host)\b", r"\bI'?m (the|part of)\b",
    r"\bI'?m (on|in) the (\w+ ){0,2}(team|board|committee|staff|faculty|council|department|group|army|"
    r"navy|military|band|choir|club|program|programme)\b", r"\bI'?m in the (?-i:[A-Z])",
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
    r"\b(my|our) (daughter|son|wife|husband|partner|kid|child|dog|cat)('s name is| is called| is named|"
    r"\s+(?-i:[A-Z])[a-z]+)",
    r"\bas an? [\w-]+( [\w-]+)?,? I\b", r"作为一(个|名)\S{1,8}", r"\bleft-?handed\b|\blefty\b|左撇子",
    r"我家(那|这)?(只|条|个|位)?\S{0,4}(叫|名叫)|我家\S{0,3}(新来了|来了|养了|有)(一)?(只|条)", r"(猫|狗|柯基|金毛|泰迪|柴犬|边牧|哈士奇)\S{0,3}(叫|名叫)",
    r"\b(my|our|have|got|adopted)\b[^.]{0,40}\b(named|called) (?-i:[A-Z])", r"我们(的)?[^，。,.?？]{0,20}(全是|都是|全用|都用)",
    r"(打算|准备|计划|正在|在)(考|备考|报考)\S{1,8}", r"^我(现在|目前|人)?在[\u4e00-\u9fff]{2,5}$",
    r"^(I'?m|we'?re) (now |currently )?(based )?in (?-i:[A-Z])[\w ,]{1,30}$", r"我\S{0,3}是\S{1,6}(党|控|粉|迷)", r"我这(个)?人",
    r"我(平时|日常|一般|主要|现在|工作)\S{0,4}(用|使用)", r"^我(是)?(开|跑|做|干)\S{1,6}的$|^我(是)?(男|女)的$",
    r"^我家(住|在|是|那|老|新)?\S{0,6}(小区|楼|房子|公寓|别墅|平房)", r"^我[\u4e00-\u9fff]{2,3}(的|人)$",
    r"(娃|宝宝|孩子|儿子|女儿|闺女)\S{0,2}(刚满|满|快|才)\S{1,4}(个月|岁)", r"^我在\S{1,6}(管|负责)",
    r"^(前端|后端|算法|测试|产品|运营|数据|设计)\S{0,3}(实习|岗|工程师|开发)", r"我在\S{1,10}(做|当|担任)[^，。,.]{0,8}(经理|工程师|设计师?|运营|产品|开发|销售|老师|医生|护士|律师|会计|分析师?|研究员?|编辑|记者|主管|总监|实习生?|前端|后端|算法|测试|文案|平面设计|客服|司机|厨师)",
    r"^(平时|目前|现在)?在\S{1,10}(做|当)[^，。,.]{0,8}(经理|工程师|设计师?|运营|产品|开发|销售|老师|医生|护士|律师|会计|分析师?|研究员?|编辑|记者|主管|总监|实习生?|前端|后端|算法|测试|文案|平面设计|客服|司机|厨师)", r"我在\S{1,10}(教|读|念)", r"在\S{1,8}(跑|开)(外卖|滴滴|出租|网约车|快递|货车)",
    r"\bI work (from home|remotely)\b", r"\bI work (from home |remotely |full-time |part-time )?(at|as|for|in)\b",
    r"^(training for|preparing for|studying for|learning|working on|building|setting up|"
    r"running(?! (late|out|behind|low)))\b", r"\bmy (weakest|strongest|best|worst|biggest)\b",
    r"\bseason ticket\b|\btill I die\b|\b(die-?hard|lifelong) \w+ fan\b", r"\bI (play|sing|swim|climb|paint|knit|bake|dance|surf|ski|skate|row|box|cycle|hike) ",
    r"\bI have (like |about |around |over |almost )?(two|three|four|five|six|seven|eight|nine|ten|twenty|\d+|a few|several|lots of|a bunch of)\b"
    r"(?! (more |quick |small )?(questions?|minutes?|things?|ideas?|options?|problems?|issues?|hours?|"
    r"days?|weeks?|months?|seconds?|tabs?|choices?)\b)",
    r"^(主要|平时|一般|经常)(是|用来|拿来|在)?(剪|拍|写|画|练)",
    r"\bI (mainly |mostly |primarily |usually )?(write|code|program) (in )?(?-i:[A-Z])",
    rf"\b(my|our) (\w+ )?({DOG_BREEDS}|{CAT_BREEDS}|dog|cat|puppy|kitten|cockapoo|cavapoo|labradoodle),? (?-i:[A-Z])[a-z]+\b",
    r"\b(anniversary|birthday)\b.{0,12}\b(is|on|falls on)\b", r"(生日|纪念日)\S{0,4}(是|在)",
    r"我(白天|晚上|平时|工作日|周末)\S{0,3}(不在家|在家|上班|上课)",
    r"\b(sister|brother|friend|roommate|flatmate|colleague|coworker|teammate|boss|manager|neighbou?r|cousin|mom|mum|dad|mother|father|wife|husband|partner|son|daughter|boyfriend|girlfriend|aunt|uncle|grandma|grandpa)('s| is| was) (an?|the) ", r"(姐姐|妹妹|哥哥|弟弟|朋友|同事|室友|闺蜜|哥们|老公|老婆|女儿|儿子|爸|妈|男朋友|女朋友|对象|领导|老板)\S{0,4}(是(个|一名|一个)|在\S{1,10}(工作|上班|读书|上学))",
    r"我\S{0,4}(在|正在)(增肌|减脂|减肥|健身|备孕|戒烟|戒酒|练)", r"一(周|天|个月)\S{0,3}(\d|一|两|三|四|五|六|七)次",
    r"工作(了)?\S{0,3}年", r"我(自己)?(做|干|搞)[^，。,.]{0,12}(经理|工程师|设计师?|运营|产品|开发|销售|老师|医生|护士|律师|会计|分析师?|研究员?|编辑|记者|主管|总监|实习生?|前端|后端|算法|测试|文案|平面设计|客服|司机|厨师|审计|咨询|财务|人事|行政|法务|投行|研发|数值策划|策划)", r"(家里|我)(还)?有(个|一个|两个)",
    r"(老大|老二|老三|大宝|二宝)\S{0,3}(今年|刚|才|已经)", r"今年\S{0,2}(初|高|大)[一二三四]|(今年|刚|才)\S{0,3}(\d{1,2}|[一二三四五六七八九十两])岁",
    r"\bmy (\w+ )?(novel|book|thesis|dissertation|startup|podcast|channel|blog|band|side project|shop|business)\b",
    r"\bself-employed\b|\bfreelanc\w*\b", r"\bI (translate|design|edit|tutor|consult|photograph|illustrate|write for)\b",
    r"\bour (\w+ )?(api|service|stack|codebase|app|site|website|platform|frontend|backend)\b.{0,20}\b(is|are) (written|built|implemented|running) (in|on|with)\b",
    r"我们(的)?(前端|后端|服务|项目|系统|产品|技术栈|数据库|架构|app|网站)\S{0,3}(是|用|基于|跑在)",
    r"我(那|这)?(台|辆)\S{1,8}(开了|用了|买了)", r"提了(辆|台)|买了(辆|台)\S{0,8}(车|电车)",
    r"\bmy (toddler|baby|infant|newborn|teen|teenager|kid|son|daughter) (?-i:[A-Z])[a-z]+\b",
    r"每(周|个?星期)[一二三四五六日天]",
    r"\bI'?m (on|using) (Windows|Mac|macOS|Linux|Ubuntu|Android|iOS|an? iPhone|an? Android|Chrome ?OS)\b", r"我(用的是|是)\S{0,4}(Windows|Mac|Linux|安卓|苹果|鸿蒙)",
    r"\bmy (nemesis|weakness|kryptonite|weak spot|achilles heel)\b", r"是我的(弱项|死穴|噩梦|克星)",
    r"我们(是|公司是)[^，。]{0,24}(公司|startup|团队|工作室|店)", r"(考了|考到)\S{0,3}\d{2,3}", r"\b(the|my|our) twins\b|双胞胎",
    r"(要|想|打算|准备|计划|正在|在)(考|备考|报考)",
    r"^(competing|deploying|migrating)\b", r"\bis my (weak|weakest|strong|strongest|best|worst|favou?rite)\b",
    r"^[A-Za-z][\w -]{1,40} here([,.!]|$)", r"^(?!再|来|换|给|要)\S{1,12}(一枚|一个)$", r"\S{1,6}车主",
    r"我在\S{1,10}(养|种)\S{1,4}", r"\bI (direct|lead|conduct)\b", r"^(started|began|took up)\b|\bI (started|began|took up) \w+",
    r"我开的(是)?", r"我(的)?(儿子|女儿|孩子|闺女)\S{0,2}[一二三四五六七八九十两\d]{1,3}岁", r"passed away|去世|过世",
    r"\bI'?ve been \w+ing\b.{0,60}\b(for (about |almost |over |nearly )?\w+ (years|months)|since)\b", r"\bI (captain|skipper|pilot|crew)\b",
    r"^(大|高|初|研|博)[一二三四]了?$", r"考公|考编|省考|国考",
    r"\bmy (\w+ ){0,2}(app|api|service|site|website|project|repo|server|bot|pipeline|startup)\b", r"(路由器|相机|显示器|键盘|耳机|平板)\S{0,2}(是|用的是)",
    r"人在[\u4e00-\u9fff]{2,4}$", r"我(开|干|做|教)了\S{1,4}年", r"退下来", r"我在(?!家|想|考虑|琢磨|研究|看|学|犹豫|纠结)[^，。？?]{2,40}(做|当)[^，。？?]{1,20}",
    r"(我|自己)(新)?开了(个|家)",
    r"我[^，。]{0,12}开了(个|家|间)\S{0,6}(店|铺|馆|厅|工作室|公司)", r"我在\S{1,10}开\S{1,6}(店|馆|厂|公司|工作室)", r"做了\S{0,3}年",
    r"\bbeing an? [\w-]+( [\w-]+)? (at|in|for)\b", r"\bI'?m on call\b", r"\bfor a living\b|\bcontract work\b",
    r"\b(my|our) (\w+ ){0,2}(package|rate|price|fee|pricing)s? (is|are|starts?)\b", r"\b(adopted|rescued) an? (\w+ ){0,2}(dog|cat|puppy|kitten|greyhound|retriever|terrier)\b",
    r"\bI (build|make|craft|repair|restore|breed|grow|raise|host|rent out) \w+", r"\bI'?m (the )?(head|chief|lead|senior|junior|assistant) [\w-]+", r"我在\S{1,10}卖",
    r"\bI (drive|work|deliver|ride) for (?-i:[A-Z])\w+", r"\bfull[- ]time\b|\bpart[- ]time\b", r"\bI rotate\b|\bnight shifts?\b|\bon the \w+ ward\b",
    r"我(都|一直|平时都)(用|使用)", r"我\s?\S{1,10}党", r"我\S{0,4}(在|正在)(备战|训练|练习)",
    r"\bI (just |recently )?retired\b|\bI'?m retired\b|\byears (of )?(teaching|nursing|driving|working)\b",
    r"^(my|our) (\d{4} |'\d\d )?(?-i:[A-Z])\w+",
    r"\b(my|our) (\w+ )?(cockatiel|parrot|budgie|rabbit|bunny|hamster|guinea pig|tortoise|turtle|snake|"
    r"lizard|gecko|ferret|horse|pony|goldfish|chickens?|hens?) (?-i:[A-Z])[a-z]+\b",
    rf"(?-i:[A-Z])[a-z]+, (my|our) (\w+ )?({DOG_BREEDS}|{CAT_BREEDS}|dog|cat|puppy|kitten|parrot|rabbit)",
    r"^在(?!家|想|考虑|琢磨|研究|看|学|犹豫|纠结)[^，。？?]{2,20}(做|当)[^，。？?]{1,10}$",
    r"(\d|[一二两三四五六七八九十])岁(的|了)?\S{0,2}(英短|美短|布偶|橘猫|暹罗|金毛|柯基|泰迪|柴犬|边牧|哈士奇|拉布拉多|萨摩耶|比熊)",
    r"家里(的)?(猫|狗)", r"(我家|我的)(那|这)?(只|条)?(猫|狗|柯基|金毛|泰迪|柴犬|边牧|哈士奇|布偶|英短|美短|橘猫|暹罗|拉布拉多)[\u4e00-\u9fff]{1,3}",
    r"在家办公|居家办公|远程办公|\bWFH\b", r"(?-i:[A-Z])[a-z]+ \((my|our) [\w ,]{1,24}\)",
    r"\bwe (named|called) (him|her|them|it) (?-i:[A-Z])", r"\bon an? (F-1|H-1B|J-1|student visa|work visa|spouse visa)\b",
    r"\b(mum|mom|dad|father|mother|wife|husband|son|daughter|brother|sister)\b[^.]{0,20}\b(died|passed)\b",
    r"我(自己|现在|目前)在(?!家|想|考虑|琢磨|研究|看|学|犹豫|纠结)[^，。？?]{2,30}(做|当)", r"我在\S{1,8}开的",
    r"今年(考研|中考|高考|考公|考编)|自学\S{1,6}", r"(宝宝|孩子|儿子|女儿|闺女|老大|老二)\S{0,3}(刚满|满|快)?(\d{1,2}|[一二两三四五六七八九十]{1,3})(个月|岁)",
    r"^(儿子|女儿|闺女|孩子|老大|老二)\S{0,4}(初|高|大)[一二三四]|^(儿子|女儿|闺女|孩子)\S{0,2}在\S{1,10}(读|上|念)",
    r"(\d+|[一二两三四五六七八九十几]+)(多)?年了", r"了(\d+|[一二两三四五六七八九十几]+)(多)?年",
    r"\bmy (master'?s|masters|phd|degree|mba|apprenticeship|residency|diploma)\b", r"(爸|妈|父亲|母亲|爷爷|奶奶|外公|外婆)\S{0,6}(走的|走了|没了)",
)
PREFERENCE = _rx(
    r"我(很|最|特别|比较|更)?(喜欢|爱|偏好|习惯|倾向|讨厌|不喜欢|受不了)", r"我\S{0,8}(一般|通常|平时|总是|经常|习惯|每次都)",
    r"我是个?\S{0,4}(迷|爱好者|发烧友)",
    r"\bI (really )?(like|love|prefer|enjoy|hate|dislike|can't stand)\b", r"\bI usually\b", r"^(always|never) [\w -]{1,30} for me\b",
    r"\bI'?m an? (keen|big|huge|avid)\b", r"\bmy fav(ou)?rite\b", r"\bI always\b",
    r"^(平时|一般|通常|也|还|最|特别|很)?(喜欢|爱|讨厌|偏好|习惯)",  # implicit 我 after a comma
    r"离不开", r"我\S{0,4}(每天|每周|每晚|每早)", r"\bI'?m (obsessed with|really into|into|a fan of)\b",
    r"\bI can'?t live without\b", r"无\S不欢", r"吃货", r"\bI'?d (like|rather|prefer)\b", r"\bI get around by\b",
    r"\bI want to (get into|learn|try|start)\b", r"我(们|们俩|俩)?(自己)?(也|就|还|都)?(很|最|特别|比较|更|超|挺)?(喜欢|爱|偏好|习惯|倾向|讨厌|不喜欢|受不了)",
    r"^(就是|但是?|可是|只是)?(特别|最|实在|真的)?(受不了|讨厌|不喜欢|不爱吃|吃不惯|接受不了)", r"啥都吃|什么都吃|不挑食",
    r"\bI\b.{0,30}\b(on weekends|at weekends|in my (spare|free) time|for fun|to (relax|decompress|unwind))\b", r"都(记|放|存)在|不想装|一概不",
    r"\bI do (\w+ ){0,3}(shopping|banking|groceries) at\b",
    r"(妈|爸|老婆|老公|女儿|儿子|朋友|同事|男朋友|女朋友)\S{0,3}(很|最|特别|比较)?(喜欢|爱|讨厌)",
    r"迷上|着迷", r"我\S{0,3}(挺|很|最|特别|比较|超|真的)(喜欢|讨厌|受不了)", r"^(been )?(really |rly |so |super )?into \w+|\bbeen (really |rly |so )?into\b",
    r"我\S{0,2}(一向|向来|从来|常年|多年)", r"\bI\b[^.?!]{0,60}\b(every|each) (weekend|morning|evening|night|summer|winter|spring|fall|autumn|"
    r"(mon|tues|wednes|thurs|fri|satur|sun)day)\b", r"我(在\S{1,10})?开了(个|家|间|一家|一个|一间)",
    r"都选|只坐|只用|只买|只喝|只吃|\balways (pick|choose|book|fly|take)\b|\bonly (fly|use|buy|drink|eat)\b",
)
CONSTRAINT = _rx(
    r"过敏", r"(不|不能|没法)(吃|喝|碰)", r"^(我|我们)\S{0,6}必须", r"忌口", r"预算", r"素食", r"吃素", r"怀孕", r"糖尿病", r"高血压",
    r"(膝盖|腰|颈椎|脚踝|跟腱)\S{0,4}(疼|痛|不好|伤)", r"晕车", r"恐高",
    r"\ballerg", r"\bI (don'?t|can'?t|never) (eat|drink)\b", r"\bvegetarian\b", r"\bvegan\b",
    r"\bbudget\b", r"\bgluten\b", r"\blactose\b", r"\bsore\b", r"\binjur",
    r"\bflat feet\b", r"\bclaustrophob", r"\bafraid of\b",
    r"不耐受", r"不会(说|开车|游泳|骑车)", r"没有驾照", r"\bintoleran", r"\bdiagnosed\b",
    r"\bI (don'?t|do not) have an?\b", r"\bno (elevator|lift|car)\b",
    r"痛风|哮喘|癫痫|乳糖|(胃|肠胃)不好|手术|半月板|韧带|起疹|荨麻疹",
    r"(吃|喝|碰)\S{0,6}(会|就)\S{0,4}(疹|肿|吐|拉肚子|腹泻|难受|不舒服)",
    r"不能\S{0,2}(跑|跳|久坐|久站|提重|弯腰|剧烈)",
    r"\bcan'?t (do|have|handle|tolerate|stomach|digest)\b",
    r"\b(gout|asthma|celiac|coeliac|epilep|hives|anaphyla|surgery)", r"\bswells? up\b",
    r"\bI (don'?t|can'?t|never) (drive|swim|cook|fly)\b", r"\bno (driver'?s )?licen[cs]e\b|\bnever (got|had) (my|a) licen",
    r"(最多|顶多|只有|就)\S{0,4}\d+(\.\d+)?\s*(万|千|元|块)", r"\b(can|could) only (spend|afford)\b",
    r"(膝盖|腰|颈椎|脚踝)\S{0,4}(断|不行)", r"(焦虑|抑郁|强迫|多动)症|心理医生|心理咨询|失眠",
    r"\b(terrified|scared|phobi\w*|fear) of\b|\bphobia\b", r"受不了(?!了)\S{1,4}$",
    r"\bhard of hearing\b|\bdeaf\b|\bblind\b|\bvisually impaired\b|\bwheelchair\b|\bhearing aids?\b|听力|耳背|聋|视力不好|轮椅",
    r"\bmy (knees?|back|hips?|shoulders?|ankles?|wrists?|neck)\b.{0,20}\b(creak|hurt|ache|pain|bad|weak|injur|sore|stiff|paid for it)",
    r"\bIBS\b|\bFODMAP\b|\bon an? ([\w-]+ ){0,2}diet\b|肠易激|(吃|服)\S{0,4}药|降压|降糖|\bmedication\b|\bmeds\b",
    r"关节炎|风湿|腱鞘炎|\barthritis\b|\btendinitis\b", r"生活费|\bliving (costs|expenses)\b|每个?月\S{0,4}(预算|开销)",
    r"[£$€¥]\s?\d[\d,.]*\s*k?\s*(max|maximum|tops|at most)\b|\b(max|maximum|at most|up to|under) [£$€¥]\s?\d",
    r"(慢性|急性)?\S{0,2}(胃|肠|肝|肾|鼻|咽|皮)炎|不敢(碰|吃|喝)", r"colou?r ?blind|色弱|色盲",
    r"颈椎病|腰椎间盘|腰间盘|低血压|低血糖|贫血",
    r"\b(tendon\w*|tendinitis|carpal tunnel|sprain\w*|fractur\w*)\b|\bbroken (arm|leg|wrist|ankle)\b",
    r"血压\S{0,2}(高|偏高|低|偏低)|血糖\S{0,2}(高|偏高)",
    r"\b(don'?t|do not|doesn'?t) (own|have) an? (car|licen[cs]e|driver'?s licen[cs]e|oven|microwave|tv|dishwasher)\b"
    r"|\bcan'?t (drive|swim|ride a bike)\b|\bno car\b|\bcar-free\b",
    r"diabet|\bA1C\b|\bblood (sugar|pressure)\b|\bcholesterol\b|休克|过敏性",
    r"\b(doctor|GP|physio|dentist|cardiologist|dietitian|nutritionist|consultant)\b[^.!?]{0,30}"
    r"\b(told|tells|says|said|wants|advised|recommended|put) (me|I)\b|(?:^|[，,。；])(?![^，,。]*?[跟和对给向][^，,。]{0,4}(医生|老师|教练|大夫))[^，,。]{0,6}(医生|老师|教练|大夫)\S{0,3}(说|让|叫|建议|不让)",
    r"到现在(还|都)?\S{0,4}(不|没)", r"\b(the )?(vet|doctor|GP)\b[^.!?]{0,20}\b(said|says|told)\b|兽医\S{0,3}(说|让)",
    r"\b(seasick|carsick|airsick|motion sick|travel sick|migraines?)\b|晕船|晕机",
    r"产假|预产期|\bmaternity leave\b|(?<!not )\bpregnant\b|\b(saving|saved) up for\b|\bdon'?t (want to|wanna) go over\b",
    r"\b(Jain|halal|kosher)\b|清真|回族|\bno (onion|garlic|pork|beef|meat|eggs|dairy|nuts|gluten|shellfish)\b",
    r"\b(hip|knee|shoulder|heart|back) (replacement|replaced|surgery|operation)\b"
    r"|\bhad (my )?(left |right )?\w+ (replaced|removed)\b",
)
RULE = _rx(
    r"(以后|今后|之后|往后)\S{0,12}(都|请|要|别|不要|一律|统一|只)", r"一律|统一用",
    r"(回答|回复|答复)(我)?(时|的时候)", r"先(说|给|讲|写)?\S{0,2}结论", r"控制在\S{0,10}(以内|之内|内)",
    r"(请|麻烦)?(用|使用)(中文|英文|英语|简体|繁体)", r"(回答|回复|答复)(时|的时候)?(请|要|都)",
    r"(别|不要|不许)(用|使用|加|写)", r"代码注释", r"(先|首先)给结论", r"记得(每次|以后)",
    r"\balways (reply|answer|write|use|respond|book|include|give)\b", r"\bnever (use|reply|write|add)\b",
    r"\bplease (don'?t|do not|always|never)\b", r"\bdon'?t use\b", r"\bfrom now on\b",
    r"\b(reply|answer|respond|write) (to me )?in (english|chinese|french|spanish|german)\b",
    r"\bin anything you write\b", r"\bkeep (answers|replies) (short|brief)\b",
    r"(回答|回复)我", r"(回答|回复)\S{0,2}(简短|简洁|详细|短点|长点)", r"尽量(简短|简洁|详细|口语)", r"(最多|不超过)\S{0,3}(条|点|句|字)", r"列(要)?点", r"(叫|称呼)我",
    r"\bwhenever you\b", r"\bsign (me|it|them) as\b", r"\b(call|address) me\b",
    r"\bwhen you (write|answer|reply|draft|explain)\b",
    r"\bkeep (your |the |my )?(answers|replies|responses)\b", r"[,，]\s*(always|please)[.!]?$",
    r"\b(british|american) (english )?spelling\b", r"\bgoing forward\b",
    r"\bstop (using|adding|writing|saying|calling|putting)\b",
    r"\b(no|without|avoid) (more )?(bullet points?|bullets|emojis?|exclamation( marks| points)?|"
    r"jargon|markdown|tables|headers)\b", r"\bformat (all |every |the |my )?\w+ (as|in|like)\b",
    r"\b(when|whenever|if) you (write|draft|reply|answer|explain|suggest|recommend|send|make)\b",
    r"\b(for )?(anything|everything|any code|all code)\b[^.]{0,20}\byou (give|write|send|show)\b",
    r"\bin anything you (write|draft|send|make)\b",
    r"\balways (put|start|end|add|begin|lead|open|finish|keep|mention|show|cite|list)\b", r"(叫|称呼|喊)我",
    r"\b(metric|imperial)( units)?\b|\bcelsius\b|\bfahrenheit\b|公制|英制|摄氏",
    r"^(以后|今后|往后|从今以后)(涉及|遇到|碰到|有关|关于|凡是|只要|如果|问)",
    r"给我写[^，。]{0,12}(的话|时)", r"\b(talk|speak|write) to me (like|as|in)\b|\bstraight answers\b|\bnone of that\b",
    r"(别|不要)超过\S{0,4}(字|句|条|段)|纯文本|分点|分条", r"\b(ground rules|house rules|rules for)\b|\bany \w+ you write\b",
    r"(用|使用)\s?(English|Chinese)\b",
    r"\bcite\b|\bwith a link\b|附上\S{0,4}(来源|出处|链接)|注明(来源|出处)", r"\bwhen you (tell|give|recommend|suggest) me\b",
    r"(别|不要|不用)(再)?(每次都|老是|总是|一直)|(别|不要|不用)(再)?给我(列|写|推|发|来|整)", r"直接(说|讲|给)(重点|结论|答案)",
    r"(保留|不要翻|别翻|不用翻)(成)?(英文|中文|原文)",
)
STANDING_RULE = _rx(
    r"以后|今后|之后|每次|一律|统一|永远|始终|记得|别|不要|不许|请|控制在|结论",
    r"\b(always|never|from now on|whenever|every time|please|don'?t|do not|going forward|"
    r"stop using|in (the )?future)\b", r"\b(when|whenever|if) you (write|draft|reply|answer|explain|"
    r"suggest|recommend|send|make)\b",
    r"都用|一直用|(就行|就好|即可)(了|啦|哈)?$",
    r"的话|的时候",
    r"\bwhen you (tell|give|recommend|suggest) me\b",
)
"""What makes a rule-like clause a standing rule even when phrased as a request."""
DECISION = _rx(
    r"(决定|定了|选定|就用|敲定|报名|报了|订了|签了)",
    r"我\S{0,6}(要去|准备去|打算去|计划去|去)\S{0,10}(旅游|旅行|自由行|出差|度假)",
    r"\b(decided|we'?ll go with|I chose|I picked|signed up|registered for|enrolled|booked)\b",
)
TRIP = _rx(
    r"^(going|heading|flying|travel(l)?ing|off) to (?-i:[A-Z])",
    r"\bI'?m (going|heading|flying|travel(l)?ing) to (?-i:[A-Z])",
    r"我\S{0,6}(要去|准备去|打算去|计划去)\S{1,10}",
    r"^(下个月|下下个月|月底|年底|明年|[一二三四五六七八九十\d]{1,2}月(份|初|底)?)\S{0,2}(去|要去|飞)\S{2,8}",
)
"""A trip the user plans: an event, but no decision, so a one-off date ("next Wednesday")
still drops it while a trip in a named month is kept."""

# --- change, negation and forget ---------------------------------------------
CHANGE = _rx(
    r"改成", r"调整为", r"换成", r"换了", r"现在", r"不再", r"以后不", r"改为", r"搬到", r"已经不",
    r"\bfrom now on\b", r"\bactually\b", r"(?<!\bby )(?<!\bright )(?<!\bfor )(?<!\bjust )\bnow\b",
    r"\bno longer\b", r"\bchanged to\b",
    r"\bswitched to\b", r"\bmoved to\b", r"\banymore\b", r"\bnot any more\b",
    r"搬回|搬去|搬来|搬家|离职|辞职|跳槽|加到|涨到|提到|降到|减到|增加到|调到|变成|改喝|改吃|改用",
    r"不(喝|吃|抽|用|玩|做|去)\S{0,6}了", r"不在\S{1,10}(干|做|工作|上班|待)了",
    r"\b(relocated|relocating)\b", r"\bmoved (back )?to\b", r"\bI (just )?(left|quit)\b",
    r"\b(gone|went|go|is|has gone) (up|down) to\b",
    r"\b(increased|raised|bumped|upped|lowered|reduced|cut|dropped) (it |(my|the) \w+ )?to\b",
    r"\b(gave|given|giving) up\b|放弃了|结束了|告一段落|换工作|换了工作|换了份工作|\bchanged jobs\b|\bnew job\b",
    r"调到|调去|外派|\btransferred to\b|\bended up\b|\bafter all\b|\bfell through\b|\bturns out\b|原来|packed up|卖了|提了(辆|台)|换了(辆|台)|买了(辆|台)",
    r"报到|工牌交了|交了工牌",
    r"迁到|迁移到|\bmigrated to\b",
    r"辞了|不干了|(我|自己)(新)?开了(个|家)",
    r"(已经)?(养好了|痊愈|康复了)|\b(recovered|healed|all clear)\b|可以正常吃",
    r"\bsold (my|the|our)\b",
    r"\bfrom this (season|year|month)\b|\bwent up\b|\bcosts? went up\b",
    r"压到|砍到|\bcut (it |my budget )?(down )?to\b|离开了",
    r"新公司|新工作|新单位|新家|\bnew (gig|role|position|place|flat|apartment)\b|\brewrote\b|\bported to\b",
)
NEGATION = _rx(
    r"不再", r"不用了", r"已经不", r"以后(别|不要)再?", r"别再", r"不是\S{0,6}了", r"戒了",
    r"\bno longer\b", r"\b(don'?t|do not) \w+ \w*\s?anymore\b", r"\banymore\b", r"\bstopped\b",
    r"\bquit\b", r"不(喝|吃|抽|用|玩|做|去)\S{0,6}了", r"不在\S{1,10}(干|做|工作|上班|待)了",
    r"离职|辞职", r"\bleft (my (job|company|team)|(?-i:[A-Z]))",
    r"\b(gave|given|giving) up\b|放弃了|结束了|告一段落",
    r"\b(off|quit|cut out|cut) (the )?(coffee|caffeine|booze|alcohol|drinking|sugar|meat|dairy|carbs|smoking|cigarettes)\b",
    r"\bturns out I'?m not\b|\bI'?m not\b.{0,30}\bafter all\b|\bnot \w+ (after all|anymore)\b|原来(我)?(不|没)|其实(我)?不是|卖了|\bsold (my|the|our)\b",
    r"辞了|不干了",
    r"(已经)?(养好了|好了|痊愈|康复了)|\b(recovered|healed|all clear)\b|可以正常吃",
    r"离开了", r"\bleft the (café|cafe|firm|school|hospital|company|agency|restaurant|shop|bank|practice|office|lab|startup|studio|clinic)\b",
)
RESTATEMENT = _rx(
    r"^(remember|again|as I said|like I said|once more|reminder)\b", r"^(再说一次|再说一遍|再强调一下|还是那句话|我说过)",
    r"\b(as I said before|like I said|I'?ll say it again|(tell|told) you again)\b",
    r"\bas I'?ve (said|told you|mentioned)\b|\bI keep telling you\b|跟你说过|老规矩|说过好多次",
    r"提醒一下|再提醒|\breminder\b",
    r"\byou know this\b|\bas always\b|你知道的|老样子|重复一下|还是我",
)
"""The user repeats something already said: a confirmation, not a new memory."""
PRESUPPOSITION = _rx(
    r"\b(since|given|as|because|considering) (you'?re|you are|you have|you've|your)\b",
    r"考虑到你|既然你|鉴于你|因为你|你(有|是|对)\S{0,10}的话",
)
"""An assistant question that takes a user fact for granted ("Since you're vegan, ...?"):
a reply to it confirms nothing the user said (seed 000: no claims the user never made)."""
ASSENT = _rx(
    r"^((sure|ok|okay|yes|yeah|yep|yup|nah|no|nope|fine|whatever( works)?|maybe|hmm+|sounds good|"
    r"why not|go ahead|please do|that works|it'?s fine|that'?s fine|可以|行|好|嗯|对|是|没问题|随便|都行|算了|"
    r"不用)[\s,.!，。！~啊呀吧的了嘛哈]*)+$",
)
"""A reply that only agrees or declines, with nothing of its own to remember."""
# --- what is never a memory ----------------------------------------------------
SMALLTALK = _rx(
    r"^(你好|您好|早上好|晚上好|下午好|早安|晚安|谢谢|多谢|感谢|哈+|嗯+|好的?|行|OK|ok|好吧|收到|明白|对|是的|没事|拜拜|再见)"
    r"[呀啊呢哈吧了啦！!。.~\s]*$",
    r"^(hi|hello|hey|good (morning|evening|night|afternoon)|thanks?( you)?|thx|cheers|ok(ay)?|"
    r"cool|great|nice|lol|haha+|bye|see you|got it|sure|yes|no|yep|nope)\b[\s!.,~]*"
    r"(so much|a lot|again)?[\s!.]*$",
)
REQUEST = _rx(
    r"^(帮我|帮忙|请帮|麻烦|给我|替我|能不能|能否|可以|你说|你觉得|推荐|讲个|讲一个|再讲|说说|算一?下|查一?下|翻译)",
    r"(怎么|咋|如何|什么|啥|哪|几点|多少|吗|呢|吧|(啥|什么)意思)[？?。！!]?$", r"[？?]$", r"(就行|就好|即可)(了|啦|哈)?$",
    r"有什么|有没有|有啥|能不能|可不可以|是不是|怎么办|咋办|怎么样|行不行",
    r"\b(any (tips|ideas|suggestions|advice)|what should I|how (do|can|should) I)\b",
    r"^(can|could|would|will) you\b", r"^(please )?(help|tell|show|give|find|recommend|suggest|"
    r"explain|write|draft|make|translate|calculate|check)\b", r"^(what|how|why|where|when|which|"
    r"who|is|are|do|does|should)\b",
    r"^(为啥|为什么|咋|怎么)",
)
ONE_OFF_TIME = _rx(
    r"今天|今晚|今早|明天|明早|明晚|后天|昨天|昨晚|前天|刚才|刚刚|这周|本周|下周|这周末|这个月|下个月|待会|一会儿|马上",
    r"\b(today|tonight|tomorrow|yesterday|this (week|weekend|morning|afternoon|evening)|"
    r"next (week|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|right now|later today)\b",
    r"这两天|这几天|最近几天",
    r"\bon (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|(?<!每)(?<!每个)(周|星期)[一二三四五六日天]",
)
EMOTIONAL = _rx(
    r"烦死|气死|受不了了|崩溃|累死|烦透|滚|去死|太烦了|太累了|气炸|无语|再也不想|紧张|干脆\S{0,12}算了",
    r"\b(hate everything|so (annoyed|angry|tired|done)|sick of|fed up|ugh|damn|screw|"
    r"nervous|stressed|furious)\b",
    r"(烦|气|讨厌|恨|破|垃圾|滚|辞职|受够|\bhate|\bstupid|\bworst|\bdamn|\bwtf|\bangry|\bfurious|\bquit)[^。.]{0,40}[!！]{2,}",
    r"[!！]{2,}[^。.]{0,40}(烦|气|讨厌|恨|破|垃圾|滚|\bhate|\bstupid|\bworst|\bdamn|\bwtf)", r"(?-i:\b(HATE|SICK OF|DONE WITH|WORST|STUPID)\b)",
    r"\bI swear\b", r"\bnever (touching|using|doing) (it|that|this) again\b",
    r"\bI'?m (such )?an? (idiot|failure|loser|mess|moron)\b|can'?t do anything right|\bI'?m so (stupid|dumb|useless)\b",
    r"我(就是个|真是个)?(废物|白痴|傻子|笨蛋)|什么都做不好|一天都待不下去|破公司|受够了|老子",
    r"再也不\S{1,4}(了|啦)?[!！]|我恨\S{1,6}[!！，,]|这破\S{1,3}|谁爱(做|干)谁(做|干)|\bdone with \w+ing\b|\bstupidest\b|\bhate it\b",
    r"\bI'?m the worst\b|\bworst \w+ (alive|ever)\b",
    r"\b(total|complete) (fraud|failure|idiot|loser)\b|\bis garbage\b|\bI suck\b",
    r"失败的(妈妈|爸爸|人)|\bfailure\b|都不管了",
    r"\bcan'?t (do|cook|make|get) anything\b",
)
TEMPORARY_CONDITION = _rx(
    r"\b(sore throat|cold|flu|fever|cough|hangover|jet ?lag|headache|migraine)\b", r"发烧|感冒|咳嗽|头疼|头痛|嗓子疼|宿醉|倒时差",
)
"""An ailment that passes: said with a one-off time ("this week", "这两天"), no constraint."""
TOOL_REQUEST = _rx(
    r"(帮我|请|麻烦)?(算一?下|算算|计算(?!机)|翻译|换算|转换成)", r"用(英文|中文|日语|英语)怎么说", r"天气|气温|几点了|汇率",
    r"\d+\s*[-+*/×÷]\s*\d+", r"\b(calculate|compute|convert|translate|what'?s \d|how much is \d|"
    r"weather|time is it|exchange rate)\b",
    r"能换多少|\d+\s*(美元|人民币|日元|欧元|港币|英镑)\S{0,8}(换|等于|是多少)",
)
"""A pure tool request (a sum, a translation, the weather): memory cannot help."""
PERSONAL = _rx(r"我(?!们?帮)|\b(my|me|I'?m|I am|I'?ve|mine)\b")
"""A first-person cue that can make even a tool-like request personal."""
DEICTIC = _rx(
    r"^(这个|那个|第[一二三四五六七八九十\d]+个|前一个|后一个|上一个)", r"\b(the (first|second|third|last|"
    r"other) one|that one|this one)\b",
    r"^(以后|今后)?(都|就)?(这样|那样)(吧|了|就行|就好)?$", r"^(always )?(do it )?(like that|this way|that way)( from now on)?$",
)
"""A clause that only points at something in the chat ("I like the second one")."""
DISCOURSE_PREFIX = _rx(
    r"^(跟你说下|跟你说一下|说一下|对了|另外|还有|顺便说一下|其实|再说一遍啊?|帮我记一下|记一下|"
    r"heads up|btw|by the way|also|and|so|oh|just so you know|actually|personally|small update|"
    r"quick update|honestly|fyi|for the record|quick context|"
    r"context|update|big news|news|anyway|ok|okay|got it|cool|ah right|remember|again|general preference|"
    r"再说一次|再说一遍|再强调一下|记住|忘了说|forgot to mention|别忘了|别忘记|不要忘了|update ?一下|更新一下|"
    r"remember that|don'?t forget that)(?![A-Za-z])[:：,，.!\s]*",  # "some kind of" keeps its "so"
)

GOAL = _rx(r"\b(my |the |our )?(goal|aim|target)( time| race| score)? (is|was|'s|=)\b|^(goal|aim|target)[:：]",
           r"目标(是|：|:)?\S{2,}|(还是|准备|打算|今年|明年)冲\S{2,}|(争取|力争)\S{2,}")
"""A goal the user works towards ("Goal is sub-4", "目标5小时内完赛", "今年还是冲浙大计算机")."""

CATEGORY_SIGNALS: tuple[tuple[Category, re.Pattern[str]], ...] = (
    ("rule", RULE),
    ("rule", REPLY_FORM),
    ("constraint", CONSTRAINT),
    ("identity", IDENTITY),
    ("preference", PREFERENCE),
    ("event", DECISION),
    ("event", TRIP),
    ("fact", GOAL),
)
"""Checked in order: the first category whose lexicon matches a clause wins."""


def category_of(text: str) -> Category | None:
    found = readings(text)
    for category, pattern in CATEGORY_SIGNALS:
        if any(pattern.search(reading) for reading in found):
            return category
    return None


def any_match(patterns: Iterable[re.Pattern[str]], text: str) -> bool:
    return any(p.search(text) for p in patterns)


REMEMBER = _rx(r"别忘了|别忘记|不要忘了|记住|记得提醒|\bdon'?t (let me )?forget\b|\bremember (that|to remind)\b|"
                r"\bremind me\b|提醒我", r"(你|帮我|给我)(先)?(记一下|记下|记着|记好)|^(记一下|备注一下)",
                r"\b(keep|bear) (that |this )?in mind\b|\bfor the record\b|\bjust so you know\b|\bnote (that|this|down)\b")
"""The user asks us to keep something, dated or not ("别忘了我下周四要交开题报告")."""
CORRECTION = _rx(r"\bno wait\b|\bscratch that\b|(?<!\band )\bI mean\b|\bactually no\b|\bcorrection\b|不对|说错了|更正一下|哦不")
"""The user corrects themselves mid-sentence: what came before the marker is void."""
