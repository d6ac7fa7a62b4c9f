"""The held-out persona of the harder Chinese set: 王芳, a middle-school teacher in Chengdu,
June to November 2026. Written before any tuning and never tuned on: report it, do not
look at its failures to choose settings. Same shape as ``zh_hard_dev.py``.
"""

from __future__ import annotations

PERSONA = "heldout"
START, END = "2026-06-01", "2026-11-30"

EVENTS: dict[str, tuple[str, str]] = {
    "home_old": ("2026-06-03", "用户家住在武侯区的玉林小区，走路到学校只要十五分钟"),
    "dentist_kid": ("2026-06-06", "用户带女儿朵朵去华西口腔做了窝沟封闭，医生姓郑，很耐心"),
    "tea_pref": ("2026-06-10", "用户平时只喝竹叶青绿茶，不喝咖啡，喝了会心慌"),
    "exam_grading": ("2026-06-12", "用户: 这周中考阅卷，连着改了五天卷子，腰都直不起来了"),
    "old_car": ("2026-06-18", "用户家那辆白色卡罗拉已经开了八年，打算卖掉换新的"),
    "chenlin_visit": (
        "2026-06-20",
        "闺蜜陈琳从重庆来成都玩，用户带她去吃了蜀九香火锅，人均 130",
    ),
    "dog_vaccine": ("2026-06-27", "用户带金毛可乐去小区旁边的宠物医院打了狂犬疫苗，花了 260"),
    "diet": ("2026-07-02", "用户开始控糖，晚饭不吃米饭了，目标是瘦到 55 公斤"),
    "summer_trip": ("2026-07-15", "暑假用户一家三口去青岛玩了五天，朵朵第一次见到大海，特别兴奋"),
    "training": ("2026-07-28", "用户去北京参加了三天的初中语文骨干教师培训，住在海淀的一家宾馆"),
    "car": ("2026-08-05", "用户: 我们家终于换车了，买了一辆蓝色的小鹏 G6，落地 21 万"),
    "mom_surgery": ("2026-08-12", "用户的妈妈在乐山做了膝关节置换手术，用户回去照顾了四天"),
    "piano_exam": ("2026-08-19", "朵朵的钢琴考级过了六级，带她的是川音的杨老师"),
    "school_start": ("2026-09-01", "开学了，用户这学期教初二两个班的语文，还当三班的班主任"),
    "kid_class": ("2026-09-06", "用户给朵朵报了每周日下午的少儿编程课，一学期 3600 元"),
    "teachers_day": ("2026-09-10", "教师节学生们送了用户一束向日葵，还有一张全班签名的贺卡"),
    "husband_trip": ("2026-09-15", "老公李强去上海出差一个星期，主要是去看车展"),
    "meng_wedding": ("2026-09-26", "用户去绵阳参加了表妹萌萌的婚礼，随了一千六的礼"),
    "national_day": (
        "2026-10-03",
        "国庆用户一家自驾去稻城亚丁，住了四晚，朵朵在海拔四千多米的地方有点高原反应",
    ),
    "open_class": (
        "2026-10-16",
        "用户: 今天在区里上了一节公开课，讲朱自清的《背影》，教研组长张老师说讲得很扎实",
    ),
    "checkup": ("2026-10-22", "用户体检查出甲状腺结节，医生说是三类，半年以后再复查"),
    "move": (
        "2026-10-31",
        "用户一家搬进了高新区的新家，小区叫锦城南府，以后开车去学校要二十五分钟",
    ),
    "dog_sick": ("2026-11-07", "可乐拉肚子了，带去宠物医院看，医生说吃坏了东西，开了益生菌"),
    "parent_meeting": ("2026-11-13", "朵朵学校开家长会，是李强去的，班主任说朵朵的数学进步很大"),
    "chenlin_call": ("2026-11-20", "陈琳打电话来说她怀孕了，预产期在明年五月"),
    "award": ("2026-11-25", "用户写的教学论文在市里的评比中拿了一等奖，奖金两千元"),
}

DISTRACTORS: dict[str, str] = {
    "2026-06-07": "同事小周说她儿子下个月也要去做窝沟封闭",
    "2026-06-21": "陈琳说重庆的火锅比成都的更辣更麻",
    "2026-06-28": "邻居家的泰迪上周也去打了疫苗",
    "2026-07-16": "小周暑假去了三亚，晒得很黑",
    "2026-08-06": "李强的同事最近买了一辆比亚迪",
    "2026-08-20": "表妹萌萌小时候也学过钢琴，考到四级就不学了",
    "2026-09-11": "张老师说她去年教师节收到的是康乃馨",
    "2026-10-04": "小周国庆去了九寨沟，说人特别多",
    "2026-10-23": "李强说他们单位的体检安排在十二月",
    "2026-11-08": "陈琳家的猫以前也拉过肚子，换了猫粮就好了",
    "2026-11-14": "小周说她儿子的家长会上被老师批评上课讲话",
    "2026-09-16": "朵朵的同学在学围棋，已经考到业余三段",
}

MEMORY: dict[str, str] = {
    "move": "用户一家十月底搬到了高新区的锦城南府",
    "car": "用户家的车是一辆蓝色的小鹏 G6",
    "checkup": "用户有甲状腺结节（三类），半年后复查",
    "tea_pref": "用户只喝竹叶青绿茶，不喝咖啡",
    "school_start": "用户教初二两个班语文，兼三班班主任",
    "diet": "用户在控糖，晚饭不吃米饭，目标体重 55 公斤",
}

ARCHIVE: list[tuple[str, str, str]] = [
    ("home_old", "用户家住在武侯区玉林小区", "2026-11-01"),
    ("old_car", "用户家开一辆白色卡罗拉", "2026-08-06"),
]

QUESTIONS: list[tuple[str, str, list[str], str]] = [
    ("simple", "给朵朵做窝沟封闭的是哪位医生？", ["dentist_kid"], "郑医生"),
    ("simple", "暑假我们去的是哪个海边城市？", ["summer_trip"], "青岛"),
    ("simple", "家里新买的车是什么牌子？", ["car"], "小鹏"),
    ("simple", "朵朵钢琴考到几级了？", ["piano_exam"], "六级"),
    ("simple", "教师节孩子们送了我什么花？", ["teachers_day"], "向日葵"),
    ("simple", "陈琳的宝宝什么时候生？", ["chenlin_call"], "明年五月"),
    ("simple", "我体检查出了什么毛病？", ["checkup"], "甲状腺结节"),
    ("simple", "我平常喝什么茶？", ["tea_pref"], "竹叶青"),
    ("simple", "我们现在住在哪个小区？", ["move"], "锦城南府"),
    ("simple", "朵朵的编程课在星期几？", ["kid_class"], "周日下午"),
    ("simple", "我这学期带了几个班？", ["school_start"], "两个"),
    ("conditional", "落地 21 万的那辆车是什么颜色的？", ["car"], "蓝色"),
    ("conditional", "去绵阳喝喜酒那次随了多少礼？", ["meng_wedding"], "一千六"),
    ("conditional", "讲《背影》的那节课是哪一级的公开课？", ["open_class"], "区级"),
    ("conditional", "去北京培训的时候住在哪个区？", ["training"], "海淀"),
    ("conditional", "可乐拉肚子那次医生开了什么？", ["dog_sick"], "益生菌"),
    ("conditional", "请陈琳吃火锅那顿人均多少？", ["chenlin_visit"], "130"),
    ("conditional", "国庆自驾那次朵朵身体怎么了？", ["national_day"], "高原反应"),
    ("conditional", "我妈做手术那回我在乐山待了几天？", ["mom_surgery"], "四天"),
    ("conditional", "李强出差去上海是为了什么？", ["husband_trip"], "看车展"),
    ("conditional", "拿了市里一等奖的是我的什么东西？", ["award"], "教学论文"),
    ("conditional", "李强去开的那次家长会，老师怎么说朵朵？", ["parent_meeting"], "数学进步大"),
    ("comparative", "可乐打疫苗和拉肚子，哪个在前？", ["dog_vaccine", "dog_sick"], "打疫苗"),
    (
        "comparative",
        "青岛和稻城亚丁，哪次出去玩的时间更长？",
        ["summer_trip", "national_day"],
        "青岛",
    ),
    (
        "comparative",
        "表妹结婚和陈琳来成都玩，哪件事更早？",
        ["meng_wedding", "chenlin_visit"],
        "陈琳来成都",
    ),
    ("comparative", "北京培训和妈妈手术哪个先？", ["training", "mom_surgery"], "北京培训"),
    (
        "comparative",
        "萌萌婚礼的礼金和论文奖金比，哪个多？",
        ["meng_wedding", "award"],
        "论文奖金",
    ),
    (
        "comparative",
        "中考阅卷和北京培训，哪个花的天数多？",
        ["exam_grading", "training"],
        "阅卷（五天）",
    ),
    ("comparative", "我去北京和李强去上海，谁出差时间更久？", ["training", "husband_trip"], "李强"),
    (
        "comparative",
        "现在这辆车和以前那辆有什么不一样？",
        ["car", "old_car"],
        "蓝色小鹏 G6 对白色卡罗拉",
    ),
    (
        "comparative",
        "搬家之前和之后，去学校的路上分别要多久？",
        ["home_old", "move"],
        "步行十五分钟；开车二十五分钟",
    ),
    ("comparative", "体检和上公开课，哪个日子更早？", ["open_class", "checkup"], "公开课"),
    ("aggregative", "这半年可乐去过几次宠物医院？", ["dog_vaccine", "dog_sick"], "两次"),
    (
        "aggregative",
        "今年我们一家出去旅游过哪些地方？",
        ["summer_trip", "national_day"],
        "青岛、稻城亚丁",
    ),
    ("aggregative", "朵朵课外都在学些什么？", ["piano_exam", "kid_class"], "钢琴、编程"),
    (
        "aggregative",
        "除了旅游，我今年去外地办过哪些事？",
        ["training", "mom_surgery", "meng_wedding"],
        "北京培训、乐山照顾妈妈、绵阳婚礼",
    ),
    (
        "aggregative",
        "陈琳今年跟我有过哪些往来？",
        ["chenlin_visit", "chenlin_call"],
        "来成都玩、报喜怀孕",
    ),
    (
        "aggregative",
        "这学期我在工作上得到过哪些肯定？",
        ["teachers_day", "open_class", "award"],
        "学生送花、公开课被表扬、论文一等奖",
    ),
    ("aggregative", "今年家里超过三千块的开销有哪些？", ["car", "kid_class"], "新车、编程课"),
    (
        "aggregative",
        "今年家里人身体上出过哪些状况？",
        ["mom_surgery", "checkup", "national_day"],
        "妈妈膝关节手术、甲状腺结节、朵朵高原反应",
    ),
    ("post-processing", "陈琳的孩子大概还有几个月出生？", ["chenlin_call"], "约六个月"),
    ("post-processing", "我们出发去青岛那天是星期几？", ["summer_trip"], "星期三"),
    (
        "post-processing",
        "换车的钱够朵朵上多少个学期的编程课？",
        ["car", "kid_class"],
        "约 58 个学期",
    ),
    ("post-processing", "甲状腺结节大概什么时候该复查？", ["checkup"], "2027 年 4 月前后"),
    ("post-processing", "编程课平均每个月多少钱？", ["kid_class"], "约 720-900 元"),
    ("post-processing", "搬家以后上班比以前多花几分钟？", ["home_old", "move"], "十分钟"),
    ("post-processing", "国庆出去玩是哪天回来的？", ["national_day"], "10 月 7 日前后"),
    ("post-processing", "教师节那天是星期几？", ["teachers_day"], "星期四"),
    ("post-processing", "可乐两次看病之间隔了多久？", ["dog_vaccine", "dog_sick"], "四个多月"),
    ("noisy", "今天批作业批得头昏眼花，唉。可乐上回为什么拉肚子？", ["dog_sick"], "吃坏了东西"),
    ("noisy", "外面下大雨，朵朵又没带伞……对了编程课学费多少来着？", ["kid_class"], "3600 元"),
    ("noisy", "哎呀钥匙又落在办公室了！先不管，我妈的膝盖手术在哪做的？", ["mom_surgery"], "乐山"),
    ("noisy", "刚跟老公吵了一架，不想提。那个，青岛我们玩了几天？", ["summer_trip"], "五天"),
    ("noisy", "嗯嗯好的谢谢你。顺便问一下，公开课讲的哪篇课文？", ["open_class"], "《背影》"),
    ("noisy", "成都今天好冷，终于入冬了。我们家以前开的是什么车？", ["old_car"], "白色卡罗拉"),
    ("noisy", "吃完午饭好困……论文评奖给了多少奖金？", ["award"], "两千元"),
    ("noisy", "学生今天吵翻了，嗓子都哑了。我能喝咖啡吗？", ["tea_pref"], "不喝，会心慌"),
]

# MemDaily-style people: many look-alike facts about several people, one fact a line.
EVENTS.update(
    {
        "zhang_age": ("2026-06-15", "教研组长张老师今年五十一岁，明年就要退休了"),
        "zhang_home": ("2026-09-19", "张老师是重庆万州人，大学毕业后一直在成都教书"),
        "xiaozhou_age": ("2026-06-24", "同事小周今年三十四岁，教初一的数学"),
        "xiaozhou_kid": ("2026-08-28", "小周的儿子今年上小学三年级，特别调皮"),
        "chenlin_job": ("2026-07-08", "陈琳在重庆一家外企做人力资源主管"),
        "meng_age": ("2026-07-21", "表妹萌萌今年二十八岁，在绵阳当护士"),
        "liqiang_birthday": ("2026-08-24", "李强的生日是十二月八号，他说今年不想大办"),
        "duoduo_birthday": ("2026-10-26", "朵朵的生日是三月十五号，想要一套乐高"),
        "principal": ("2026-09-03", "新来的校长姓罗，以前在七中当副校长"),
        "xiaozhou_hobby": ("2026-10-05", "小周喜欢跳广场舞，每天晚饭后在小区跳一个小时"),
        "zhang_hobby": ("2026-11-19", "张老师爱好书法，周末在老年大学教毛笔字"),
    }
)
QUESTIONS.extend(
    [
        ("simple", "新校长姓什么？", ["principal"], "罗"),
        ("simple", "陈琳是做什么工作的？", ["chenlin_job"], "人力资源主管"),
        ("conditional", "明年要退休的是哪位老师？", ["zhang_age"], "张老师"),
        ("conditional", "在绵阳当护士的那个亲戚多大了？", ["meng_age"], "二十八岁"),
        ("conditional", "以前在七中当副校长的那个人现在是什么职位？", ["principal"], "校长"),
        ("comparative", "张老师和小周差了几岁？", ["zhang_age", "xiaozhou_age"], "十七岁"),
        (
            "comparative",
            "李强和朵朵谁的生日在前（按一年里的顺序）？",
            ["duoduo_birthday", "liqiang_birthday"],
            "朵朵",
        ),
        ("comparative", "萌萌和小周谁年纪小？", ["meng_age", "xiaozhou_age"], "萌萌"),
        (
            "comparative",
            "张老师和小周的业余爱好有什么不同？",
            ["zhang_hobby", "xiaozhou_hobby"],
            "书法对广场舞",
        ),
        (
            "aggregative",
            "我身边的人里有谁在教书？",
            ["zhang_age", "xiaozhou_age", "zhang_home"],
            "张老师、小周",
        ),
        (
            "aggregative",
            "家里人的生日都是哪天？",
            ["liqiang_birthday", "duoduo_birthday"],
            "李强 12 月 8 日，朵朵 3 月 15 日",
        ),
        ("post-processing", "张老师大概哪年出生？", ["zhang_age"], "1975 年前后"),
        ("post-processing", "小周的儿子大概几岁？", ["xiaozhou_kid"], "八九岁"),
        ("noisy", "哎今天开会开到七点。张老师周末在哪教毛笔字？", ["zhang_hobby"], "老年大学"),
    ]
)
