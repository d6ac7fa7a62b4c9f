"""Round 25: a left-out line the classifier finds likelier chatter than ``NEWS_WORTH`` is kept
as news only when told plainly (no question, doubt, plan or aim, nothing of one day), naming
the older's own thing by a rare word of its own and a new value for it (another number of
the same type, a name the older never writes). Examples of this file's own."""

from __future__ import annotations

from collections import Counter

from memory.dream.retire import (
    NEWS_SURE,
    NEWS_WORTH,
    _gives_new_value,
    _names_its_thing,
    _told_plainly,
)
from tests.dream.judged_lines import judged as _statement
from tests.dream.judged_lines import news as _news

BAND = (NEWS_WORTH + NEWS_SURE) / 2


def test_plain_news_of_the_older_thing_is_kept_however_chatty_it_reads() -> None:
    phone = _statement("用户的手机是小米13", 3, 4)
    news = _statement("用户：小米13摔坏了，换了一台华为Mate60", 9, 2, chatter=BAND)
    assert _news([news], [phone]) == [news.text]
    score = _statement("刘洋的托福成绩是95分", 3, 5)
    again = _statement("刘洋：托福又考了一次，102分", 9, 3, chatter=BAND)
    assert _news([again], [score]) == [again.text]
    # the classifier sure of chatter: no news however plain
    sure = _statement("刘洋：托福又考了一次，102分", 9, 3, chatter=NEWS_SURE)
    assert _news([sure], [score]) == []


def test_chatter_naming_the_older_thing_is_no_news() -> None:
    phone = _statement("用户的手机是小米13", 3, 4)
    score = _statement("刘洋的托福成绩是95分", 3, 5)
    chatter = [
        _statement("用户：要不要把小米13换成华为Mate60？", 9, 2, chatter=BAND),
        _statement("用户：小米13今天死机了三次", 9, 3, chatter=BAND),
        _statement("刘洋：托福还想再考一次，争取102分", 9, 4, chatter=BAND),
        _statement("刘洋：今天托福模考才80分，心态崩了", 9, 5, chatter=BAND),
    ]
    assert _news(chatter, [phone, score]) == []


def test_an_aim_leaves_a_value_held_but_changes_an_aim() -> None:
    rating = _statement("Sam's chess rating is 1500", 3, 4)
    hoping = _statement("Sam: hoping to get my rating to 1700", 9, 2, chatter=NEWS_WORTH / 2)
    assert _news([hoping], [rating]) == []
    goal = _statement("用户的微信步数目标是8000步", 3, 5)
    raised = _statement("用户：步数目标改成一万步了哈哈", 9, 3, chatter=BAND)
    assert _news([raised], [goal]) == [raised.text]


def test_what_plain_news_must_show() -> None:
    assert _told_plainly(_statement("用户：小米13摔坏了，换了一台华为Mate60", 9, 2))
    assert not _told_plainly(_statement("用户：要不要换台华为Mate60？", 9, 2))
    assert not _told_plainly(_statement("用户：小米13今天死机了三次", 9, 2))
    phone = _statement("用户的手机是小米13", 3, 4)
    new = _statement("用户：小米13摔坏了，换了一台华为Mate60", 9, 2)
    assert _names_its_thing(new, phone, Counter({"小米": 1}))
    # a word many kept statements say names a topic, not the older's own thing
    laptop = _statement("The user's laptop is a ThinkPad", 3, 4)
    slow = _statement("The user: laptop is slow, got a Dell monitor", 9, 2)
    assert not _names_its_thing(slow, laptop, Counter({"laptop": 5}))
    # nor a topic's word, however rare ("手机": a phone of any make)
    dropped = _statement("用户：手机摔了，换了华为Mate60", 9, 2)
    assert not _names_its_thing(dropped, phone, Counter({"手机": 1}))
    assert _gives_new_value(new, phone)  # a name the older never writes
    rating = _statement("Sam's chess rating is 1500", 3, 4)
    assert _gives_new_value(_statement("Sam: my rating is 1620 now", 9, 2), rating)
    assert not _gives_new_value(_statement("Sam: my rating is still 1500", 9, 2), rating)
    assert not _gives_new_value(_statement("The user quit chess, so boring", 9, 2), rating)


def test_what_held_one_day_is_no_news_however_little_chatter() -> None:
    weight = _statement("用户的体重是80公斤", 3, 4)
    today = _statement("用户：今天早上称了一下78公斤，哈哈", 9, 2, chatter=NEWS_WORTH / 2)
    assert _news([today], [weight]) == []
    lost = _statement("用户：哈哈终于瘦到75公斤了", 9, 3, chatter=NEWS_WORTH / 2)
    assert _news([lost], [weight]) == [lost.text]


def test_a_name_is_a_capital_word_past_a_sentence_start() -> None:
    broadband = _statement("The user's broadband is Virgin Media", 3, 4)
    ditched = _statement("The user: Ditched Virgin lol, BT now, way faster", 9, 2)
    assert _gives_new_value(ditched, broadband)  # "BT" after a comma is a name
    assert _news([_statement(ditched.text, 9, 2, chatter=BAND)], [broadband]) == [ditched.text]
    moaned = _statement("The user: Virgin is slow again. Ugh", 9, 2)
    assert not _gives_new_value(moaned, broadband)  # "Ugh" begins a sentence
