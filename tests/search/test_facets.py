from memory.search.facets import facets


def test_things_named_side_by_side_get_one_query_each() -> None:
    assert facets("老赵和小何谁的年纪大？") == ["老赵谁的年纪大", "小何谁的年纪大"]
    assert facets("这半年我去了几次医院或诊所？") == ["这半年我去了几次医院", "诊所"]
    assert facets("What subject have Caroline and Melanie both painted?") == [
        "What subject have Caroline both painted",
        "Melanie both painted",
    ]


def test_one_thing_gives_no_facets() -> None:
    assert facets("上海出差住在哪") == []
    assert facets("我和老赵一起参加过哪些活动？") == []  # "我" names nothing of its own
    assert facets("和平饭店在哪") == []  # a word holding 和 is no conjunction
    assert facets("天气暖和吗") == []
    assert facets("苹果、香蕉、橘子、葡萄和西瓜哪个最甜") == []  # too many parts: a list
