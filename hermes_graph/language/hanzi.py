"""Traditional Chinese folded to simplified for matching (pure).

The signal lexicons are written in simplified Chinese; a user writing traditional
characters ("我在台中梨山種茶", "密碼是…") must trigger the same signals, above all the
same secret filters. The fold is character for character, so offsets found in the folded
text hold in the original; stored text is never changed.
"""

from __future__ import annotations

import re

_TRADITIONAL = (
                "舖舊嘅係佢哋唔冇喺咗嗰啲"
                "個們這裡說話講記請對過會來後為電腦樣歡愛種養體簡點問題時間現學習買賣錢給讓還號碼帳戶銀險歲媽爺兒陽寫長開關車機飛讀書語聽"
                "見覺幾從認識醫藥療壓腳頭發燒樂專業務員師計設網絡線麼嗎與將應該並於動運場東鄉區縣灣臺戲劇聞雞魚蝦麵飯鹽刪別儲訂預萬億塊國"
                "際經濟華龍風雲氣溫熱涼濕齡婦孫親鄰寵貓園藝術畫圖顏紅綠藍黃態總結論紙筆錄試驗證報導處辦標準確則規範條須隨換遷調離職菸煙飲"
                "製麥豐產廠質觀鐘錶護診喚禮難鬆緊餓飽瘋懶歷團隊組織備鎖門鑰"
)
_SIMPLIFIED = (
               "铺旧的是他们不没在了那些"
               "个们这里说话讲记请对过会来后为电脑样欢爱种养体简点问题时间现学习买卖钱给让还号码账户银险岁妈爷儿阳写长开关车机飞读书语听"
               "见觉几从认识医药疗压脚头发烧乐专业务员师计设网络线么吗与将应该并于动运场东乡区县湾台戏剧闻鸡鱼虾面饭盐删别储订预万亿块国"
               "际经济华龙风云气温热凉湿龄妇孙亲邻宠猫园艺术画图颜红绿蓝黄态总结论纸笔录试验证报导处办标准确则规范条须随换迁调离职烟烟饮"
               "制麦丰产厂质观钟表护诊唤礼难松紧饿饱疯懒历团队组织备锁门钥"
)
_FOLD = str.maketrans(_TRADITIONAL, _SIMPLIFIED)


def simplified(text: str) -> str:
    """``text`` with common traditional characters replaced by their simplified forms."""
    return text.translate(_FOLD)


_SCRIPT_GAP = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[A-Za-z0-9])"
                         r"|(?<=[A-Za-z0-9])\s+(?=[\u4e00-\u9fff])")


def script_joined(text: str) -> str | None:
    """Mixed text with the spaces between Chinese and Latin words removed ("我在 RMIT 读中医"
    reads as "我在RMIT读中医" to a Chinese lexicon), or None when there are none. English
    patterns still need the original: "vegan所以" has no word boundary after "vegan"."""
    joined = _SCRIPT_GAP.sub("", text)
    return joined if joined != text else None
