"""The dev persona of the harder Chinese set: 陈默, a programmer in Hangzhou, April to
September 2026. Tune on this one; ``zh_hard_heldout.py`` is never tuned on.

``EVENTS`` maps an id to (date, bullet text); ``DISTRACTORS`` are look-alike lines about
other people or other times (never evidence); ``MEMORY`` lists the ids whose fact is also
kept in MEMORY.md (with the text MEMORY.md words it in); ``ARCHIVE`` the superseded items;
``QUESTIONS`` are (category, question, evidence ids, answer).
"""

from __future__ import annotations

PERSONA = "dev"
START, END = "2026-04-01", "2026-09-30"

EVENTS: dict[str, tuple[str, str]] = {
    "home_old": ("2026-04-02", "用户一家住在西湖区文一路的老小区，离公司骑车二十分钟"),
    "flu_shot": ("2026-04-03", "用户带儿子乐乐去西溪社区卫生服务中心打了流感疫苗"),
    "movie": ("2026-04-11", "用户: 今晚和苏晴去滨江万达看了《流浪地球3》，特效很震撼"),
    "wedding": (
        "2026-04-18",
        "用户去上海参加了大学室友阿杰的婚礼，酒店在外滩边上，随了两千块礼金",
    ),
    "parent_meeting": ("2026-04-24", "乐乐幼儿园开家长会，老师说他午睡时总是不肯睡"),
    "qiandao": ("2026-05-02", "五一假期用户一家三口去千岛湖玩，在湖边民宿住了两晚"),
    "checkup": ("2026-05-09", "用户: 公司体检报告出来了，轻度脂肪肝，医生让我少吃夜宵多运动"),
    "cat_surgery": ("2026-05-16", "用户带猫年糕去城西的瑞派宠物医院做了绝育，一共花了 800 元"),
    "shaoxing_trip": ("2026-05-20", "用户和组长老赵去绍兴出差两天，拜访一家做物流的客户"),
    "run_signup": ("2026-05-30", "用户报名了 6 月 21 日的西湖夜跑，10 公里组，报名费 120 元"),
    "tooth_fill": (
        "2026-06-06",
        "用户在口腔诊所补了一颗蛀牙，主治的是吴医生，约好 7 月 4 日复诊",
    ),
    "wife_birthday": (
        "2026-06-13",
        "今天是苏晴生日，用户订了湖滨一家叫“鮨一”的日料店，送了她一条周大福的项链",
    ),
    "night_run": ("2026-06-21", "用户: 西湖夜跑跑完了，用时 58 分钟，比预想的快"),
    "team_dinner": ("2026-06-27", "用户和同事小何、周婷下班后去吃了湘菜，AA 下来每人 150"),
    "tooth_followup": ("2026-07-04", "用户去口腔诊所复诊，吴医生说补的那颗牙恢复得不错"),
    "zoo": ("2026-07-11", "用户: 周末带乐乐去了杭州动物园，他最喜欢看长颈鹿，喂了半天"),
    "mother_visit": ("2026-07-18", "用户的妈妈从绍兴来杭州住一个星期，用户请了两天年假陪她逛"),
    "drone": ("2026-07-25", "用户入手了一台大疆 Mini 4 Pro 无人机，花了 4800 元，准备拍风景"),
    "father_in_law": ("2026-08-01", "用户一家去宁波给岳父过七十大寿，包了一个六千的红包"),
    "ajie_dinner": ("2026-08-08", "用户去上海出差顺便和阿杰吃了顿饭，阿杰说打算明年要孩子"),
    "fever": ("2026-08-15", "用户: 昨晚发烧到 39 度，去浙一医院挂了急诊，说是病毒性感冒，打了点滴"),
    "rafting": ("2026-08-22", "公司团建去安吉漂流，是老赵张罗的，用户的手机差点掉进水里"),
    "swim_class": (
        "2026-08-29",
        "用户给乐乐报了周六上午的游泳课，教练姓马，一期 12 节课 1980 元",
    ),
    "school": ("2026-09-01", "乐乐今天上小学一年级了，学校是文三路小学，班主任姓林"),
    "promotion": ("2026-09-04", "用户通过了晋升答辩，十月起升为高级工程师，工资涨百分之十五"),
    "move": ("2026-09-12", "用户一家搬进了滨江区的新房子，小区叫江南春晓，猫年糕适应得很快"),
    "liu_party": ("2026-09-19", "邻居刘姐请用户和苏晴去她的乔迁宴，刘姐一家搬到了余杭"),
    "recheck": ("2026-09-26", "用户去医院复查脂肪肝，B 超显示比五月那次好了不少"),
    "coffee_switch": ("2026-06-02", "用户说最近改喝冷萃了，不再喝拿铁，因为喝奶会胀气"),
    "kevin": ("2026-07-07", "组里新来了一个同事 Kevin，负责数据平台，是从字节跳槽过来的"),
    "budget": ("2026-08-10", "用户和苏晴商量好，每个月家庭开销控制在一万二以内"),
    "coffee_old": ("2026-04-09", "用户说每天早上都要喝一杯拿铁才能清醒"),
}

DISTRACTORS: dict[str, str] = {
    "2026-04-12": "同事小何说他上周也去看了《流浪地球3》，觉得剧情一般",
    "2026-05-10": "苏晴说她们公司的体检安排在下个月",
    "2026-05-17": "邻居刘姐家的狗上个月也做了绝育手术",
    "2026-05-31": "老赵说他报了十月份的杭州马拉松半程",
    "2026-06-07": "小何说他下周要去拔智齿，有点害怕",
    "2026-06-28": "周婷说她最近在减肥，不吃辣了",
    "2026-07-12": "阿杰发消息说上海动物园新来了一只大熊猫",
    "2026-07-26": "Kevin 说他也想买无人机，但是觉得太贵了",
    "2026-08-02": "苏晴说她爸爸身体还挺硬朗，每天早上打太极",
    "2026-08-16": "苏晴前两天也有点咳嗽，吃了点药好多了",
    "2026-08-23": "老赵说明年团建想去千岛湖",
    "2026-08-30": "老赵的女儿在学游泳，已经会蛙泳了",
    "2026-09-02": "刘姐的儿子今年上初中，在余杭的一所学校",
    "2026-09-20": "阿杰说他们在上海浦东看房子",
}

MEMORY: dict[str, str] = {
    "move": "用户一家九月搬到了滨江区的江南春晓小区",
    "checkup": "用户有轻度脂肪肝，医生建议少吃夜宵、多运动",
    "promotion": "用户十月起升为高级工程师",
    "school": "儿子乐乐在文三路小学读一年级，班主任姓林",
    "coffee_switch": "用户喝冷萃咖啡，不喝拿铁（喝奶会胀气）",
    "budget": "家庭开销每月控制在一万二以内",
}

ARCHIVE: list[tuple[str, str, str]] = [
    ("home_old", "用户一家住在西湖区文一路", "2026-09-13"),
    ("coffee_old", "用户每天早上喝一杯拿铁", "2026-06-03"),
]

QUESTIONS: list[tuple[str, str, list[str], str]] = [
    # simple: one fact, asked in other words
    ("simple", "给猫做绝育一共花了多少钱？", ["cat_surgery"], "800 元"),
    ("simple", "阿杰结婚是在哪个城市办的？", ["wedding"], "上海"),
    ("simple", "帮我补牙的是哪位医生？", ["tooth_fill"], "吴医生"),
    ("simple", "乐乐在动物园最喜欢什么动物？", ["zoo"], "长颈鹿"),
    ("simple", "我买的无人机是什么型号？", ["drone"], "大疆 Mini 4 Pro"),
    ("simple", "儿子游泳课的教练姓什么？", ["swim_class"], "马"),
    ("simple", "苏晴过生日我送了她什么？", ["wife_birthday"], "周大福的项链"),
    ("simple", "新同事 Kevin 之前在哪家公司？", ["kevin"], "字节跳动"),
    ("simple", "乐乐的班主任姓什么？", ["school"], "林"),
    ("simple", "我现在住在哪个小区？", ["move"], "江南春晓"),
    ("simple", "家里每个月的开销上限是多少？", ["budget"], "一万二"),
    ("simple", "体检查出了什么问题？", ["checkup"], "轻度脂肪肝"),
    # conditional: the event is named by one attribute, the question asks another
    ("conditional", "花了四千八买的那个东西是拿来干嘛的？", ["drone"], "拍风景"),
    ("conditional", "在浙一医院看急诊那次是什么病？", ["fever"], "病毒性感冒"),
    ("conditional", "老赵张罗的那次团建去了哪里？", ["rafting"], "安吉漂流"),
    ("conditional", "跟小何、周婷聚餐那回吃的什么菜？", ["team_dinner"], "湘菜"),
    ("conditional", "五一出去玩的那次在民宿住了几晚？", ["qiandao"], "两晚"),
    ("conditional", "去绍兴出差是见哪个行业的客户？", ["shaoxing_trip"], "物流"),
    ("conditional", "在湖滨那家日料店吃饭是为了庆祝什么？", ["wife_birthday"], "苏晴生日"),
    ("conditional", "我们家住文一路的时候骑车上班要多久？", ["home_old"], "二十分钟"),
    ("conditional", "那次在滨江看的电影叫什么名字？", ["movie"], "流浪地球3"),
    ("conditional", "陪妈妈逛杭州的时候我请了几天假？", ["mother_visit"], "两天"),
    ("conditional", "幼儿园家长会上老师反映乐乐什么问题？", ["parent_meeting"], "午睡不肯睡"),
    # comparative: two events must both be found
    ("comparative", "补牙和给年糕做绝育，哪件事在前？", ["cat_surgery", "tooth_fill"], "绝育"),
    ("comparative", "无人机和猫绝育手术，哪个花钱更多？", ["drone", "cat_surgery"], "无人机"),
    ("comparative", "去千岛湖和安吉漂流，哪次更早？", ["qiandao", "rafting"], "千岛湖"),
    (
        "comparative",
        "阿杰婚礼的礼金和岳父七十大寿的红包，哪个给得多？",
        ["wedding", "father_in_law"],
        "岳父的红包（六千）",
    ),
    ("comparative", "我是先报名夜跑还是先去补的牙？", ["run_signup", "tooth_fill"], "先报名夜跑"),
    (
        "comparative",
        "乐乐打流感疫苗和开家长会，哪个日子更靠后？",
        ["flu_shot", "parent_meeting"],
        "家长会",
    ),
    (
        "comparative",
        "复查脂肪肝的结果跟第一次体检比怎么样？",
        ["recheck", "checkup"],
        "好了不少",
    ),
    (
        "comparative",
        "我妈来杭州和我们去宁波，哪个先发生？",
        ["mother_visit", "father_in_law"],
        "妈妈来杭州",
    ),
    (
        "comparative",
        "游泳课学费和夜跑报名费相差多少钱？",
        ["swim_class", "run_signup"],
        "1860 元",
    ),
    (
        "comparative",
        "搬家和乐乐开学，哪个在前？",
        ["move", "school"],
        "开学（9 月 1 日）",
    ),
    # aggregative: every piece is needed
    (
        "aggregative",
        "这半年我自己去了几次医院或诊所？",
        ["checkup", "tooth_fill", "tooth_followup", "fever", "recheck"],
        "五次",
    ),
    ("aggregative", "我跟阿杰今年见过几次面？", ["wedding", "ajie_dinner"], "两次"),
    (
        "aggregative",
        "今年我去过哪些外地城市？",
        ["wedding", "shaoxing_trip", "father_in_law", "ajie_dinner"],
        "上海、绍兴、宁波",
    ),
    (
        "aggregative",
        "乐乐这几个月都做了哪些事？",
        ["flu_shot", "parent_meeting", "zoo", "swim_class", "school"],
        "疫苗、家长会、动物园、游泳课、上小学",
    ),
    (
        "aggregative",
        "年糕今年出过什么事？",
        ["cat_surgery", "move"],
        "做了绝育、跟着搬家",
    ),
    (
        "aggregative",
        "我这几个月在大件和红包礼金上一共花了多少？",
        ["drone", "wedding", "father_in_law"],
        "12800 元",
    ),
    (
        "aggregative",
        "吴医生一共给我看过几次牙？",
        ["tooth_fill", "tooth_followup"],
        "两次",
    ),
    (
        "aggregative",
        "我和老赵一起参加过哪些活动？",
        ["shaoxing_trip", "rafting"],
        "绍兴出差、安吉团建",
    ),
    # post-processing: the fact is found, then reasoned over
    ("post-processing", "苏晴的生日是星期几过的？", ["wife_birthday"], "星期六"),
    ("post-processing", "补完牙隔了几天去复诊？", ["tooth_fill", "tooth_followup"], "28 天"),
    ("post-processing", "夜跑的平均配速是多少？", ["night_run", "run_signup"], "5 分 48 秒每公里"),
    ("post-processing", "乐乐的游泳课平均一节多少钱？", ["swim_class"], "165 元"),
    ("post-processing", "升职以后工资大概是原来的多少倍？", ["promotion"], "1.15 倍"),
    ("post-processing", "岳父今年多大年纪？", ["father_in_law"], "七十岁"),
    ("post-processing", "那次聚餐三个人一共花了多少？", ["team_dinner"], "450 元"),
    ("post-processing", "我妈在杭州待到哪天走？", ["mother_visit"], "7 月 25 日前后"),
    ("post-processing", "从体检到复查过了几个月？", ["checkup", "recheck"], "四个多月"),
    # noisy: chatter around the real question
    (
        "noisy",
        "今天一直在下雨，烦死了，对了，我那次挂急诊是什么毛病来着？",
        ["fever"],
        "病毒性感冒",
    ),
    (
        "noisy",
        "刚开完一个超长的会，脑子都是懵的……乐乐的游泳课是星期几上？",
        ["swim_class"],
        "周六上午",
    ),
    (
        "noisy",
        "哈哈我刚看了个段子，笑死。话说苏晴生日那天我们去哪吃的？",
        ["wife_birthday"],
        "湖滨的鮨一",
    ),
    (
        "noisy",
        "中午吃了碗面，有点撑。问一下，我那台无人机多少钱买的？",
        ["drone"],
        "4800 元",
    ),
    (
        "noisy",
        "帮我想想啊，不急，就是那个给猫做手术的宠物医院叫啥？",
        ["cat_surgery"],
        "瑞派宠物医院",
    ),
    (
        "noisy",
        "唉周一综合症。刘姐家后来搬到哪去了？",
        ["liu_party"],
        "余杭",
    ),
    (
        "noisy",
        "我在地铁上，信号不好，简单说：阿杰明年有什么打算？",
        ["ajie_dinner"],
        "要孩子",
    ),
    (
        "noisy",
        "外面好吵，楼上又在装修。我以前早上习惯喝什么来着，现在喝什么？",
        ["coffee_old", "coffee_switch"],
        "以前拿铁，现在冷萃",
    ),
]

# MemDaily-style people: many look-alike facts about several people, one fact a line.
EVENTS.update(
    {
        "zhao_age": ("2026-04-15", "组长老赵今年四十二岁，老家在河南洛阳"),
        "zhao_kid": ("2026-06-16", "老赵的女儿在读初二，成绩在年级前十"),
        "he_age": ("2026-04-22", "小何今年二十六，是去年校招进来的，老家在江西九江"),
        "he_hobby": ("2026-07-14", "小何周末喜欢去攀岩，在城西的一家岩馆办了次卡"),
        "zhou_birthday": ("2026-05-13", "周婷说她的生日是十一月三号，今年想去日本过"),
        "zhou_home": ("2026-08-05", "周婷老家在福建厦门，每年春节都回去"),
        "kevin_age": ("2026-07-09", "Kevin 今年三十一岁，老婆是做医生的"),
        "kevin_hobby": ("2026-09-08", "Kevin 的爱好是打羽毛球，每周三晚上约球"),
        "ajie_job": ("2026-05-06", "阿杰在上海一家券商做量化研究员"),
        "liu_job": ("2026-06-24", "邻居刘姐在银行上班，做个人理财顾问"),
        "he_birthday": ("2026-08-18", "小何说他的生日在十二月二十号，比周婷晚一个多月"),
    }
)
QUESTIONS.extend(
    [
        ("simple", "老赵老家是哪里的？", ["zhao_age"], "河南洛阳"),
        ("simple", "阿杰现在做什么工作？", ["ajie_job"], "量化研究员"),
        ("conditional", "组里那个爱攀岩的同事叫什么？", ["he_hobby"], "小何"),
        ("conditional", "老婆是医生的那位同事多大了？", ["kevin_age"], "三十一岁"),
        ("conditional", "在银行做理财顾问的是谁？", ["liu_job"], "刘姐"),
        ("comparative", "老赵和小何谁的年纪大？", ["zhao_age", "he_age"], "老赵"),
        ("comparative", "小何和 Kevin 相差几岁？", ["he_age", "kevin_age"], "五岁"),
        ("comparative", "周婷和小何谁的生日更早？", ["zhou_birthday", "he_birthday"], "周婷"),
        ("comparative", "老赵和周婷的老家哪个更靠南？", ["zhao_age", "zhou_home"], "周婷（厦门）"),
        (
            "aggregative",
            "组里同事的老家都在哪些地方？",
            ["zhao_age", "he_age", "zhou_home"],
            "洛阳、九江、厦门",
        ),
        (
            "aggregative",
            "同事们周末或晚上都有什么运动爱好？",
            ["he_hobby", "kevin_hobby"],
            "攀岩、羽毛球",
        ),
        ("post-processing", "老赵大概是哪一年出生的？", ["zhao_age"], "1984 年前后"),
        (
            "post-processing",
            "周婷的生日离现在还有多少天？",
            ["zhou_birthday"],
            "从 9 月底算约 34 天",
        ),
        (
            "noisy",
            "今天食堂的菜好咸。话说 Kevin 一般星期几打球？",
            ["kevin_hobby"],
            "周三晚上",
        ),
    ]
)
