"""Issue 10, round 27: news of a change read as chatter comes back by the rule that finds
it, not by a band of the classifier's chatter probability. A left-out line is kept
whatever its chatter when the rule that finds it a change of an older statement of the same
subject tells the change by itself (:func:`retire._news_of_change`): a new value of a slot
holding one value that both fill (where one lives, one's shift), given by a slot's rule or
named by a change word, or a turn of what one does or can; told of no one day and of no
other thing. An older read as chatter that still held a value is an older too. Examples
of this file's own."""

from __future__ import annotations

from memory.dream.retire import NEWS_SURE, NEWS_WORTH, WORTH_JUDGING
from tests.dream.judged_lines import judged as _statement
from tests.dream.judged_lines import news as _news

SURE = (NEWS_SURE + 1.0) / 2  # above any band: the classifier sure of chatter
BAND = (NEWS_WORTH + NEWS_SURE) / 2


def test_a_move_told_as_chatter_is_news_however_sure_the_classifier() -> None:
    home = _statement("用户住在杭州西湖区", 3, 4)
    moved = _statement("用户：终于搬到良渚了哈哈，累死", 9, 2, chatter=SURE)
    assert _news([moved], [home]) == [moved.text]
    bath = _statement("The user lives in Bath", 3, 5)
    bristol = _statement(
        "The user: finally moved to Bristol lol, boxes everywhere", 9, 3, chatter=SURE
    )
    assert _news([bristol], [bath]) == [bristol.text]


def test_a_turn_of_what_one_can_is_news_in_the_band() -> None:
    spicy = _statement("用户不吃辣", 3, 4)
    turned = _statement("用户：最近居然能吃辣了，哈哈，火锅都点红汤", 9, 2, chatter=BAND)
    assert _news([turned], [spicy]) == [turned.text]


def test_an_older_read_as_chatter_that_held_a_value_is_an_older_too() -> None:
    single = _statement("用户单身", 3, 4, chatter=(WORTH_JUDGING + NEWS_WORTH) / 2)
    dating = _statement("用户：哈哈我脱单了！有女朋友了", 9, 2, chatter=SURE)
    assert _news([single, dating], []) == [dating.text]
    # an older the classifier was sure of holds no value to change
    unsure = _statement("用户单身", 3, 4, chatter=SURE)
    assert _news([unsure, dating], []) == []


def test_chatter_that_shares_the_topic_stays_out() -> None:
    home = _statement("用户住在杭州西湖区", 3, 4)
    phone = _statement("用户的手机是iPhone 12", 3, 5)
    chengdu = _statement("用户住在成都", 3, 6)
    chatter = [
        _statement("用户：今天把沙发搬到阳台了哈哈，累死", 9, 2, chatter=SURE),  # of one day
        _statement("用户：把沙发搬到阳台了哈哈，累死", 9, 3, chatter=SURE),  # another thing
        _statement("用户：手机壳换成蓝色的了哈哈", 9, 4, chatter=BAND),  # no slot of one value
        _statement("用户：要是能搬到良渚就好了哈哈", 9, 5, chatter=SURE),  # a wish
        _statement("用户：下周搬到良渚，累死", 9, 6, chatter=SURE),  # a plan
        _statement("用户：搬到良渚了吗？", 9, 7, chatter=SURE),  # a question
        _statement("用户问搬到良渚会不会更便宜", 9, 10, chatter=BAND),  # ... with no mark
        _statement("用户：同事搬到良渚了哈哈", 9, 8, chatter=SURE),  # someone else's news
    ]
    assert _news(chatter, [home, phone, chengdu]) == []
    bath = _statement("The user lives in Bath", 3, 7)
    wondering = _statement(
        "The user is wondering whether to move to Bristol lol", 9, 11, chatter=SURE
    )
    assert _news([wondering], [bath]) == []
    # a member's own news in a group: her home, not the user's
    member = _statement("王芳：我搬到重庆了哈哈，房子好大", 9, 9, chatter=SURE)
    member.subject = member.speaker = "王芳"
    assert _news([member], [chengdu]) == []


def test_a_stage_with_a_partner_told_as_chatter_is_news() -> None:
    dating = _statement("The user is dating Sam", 3, 4)
    over = _statement("ugh Sam and I broke up, whatever lol", 9, 2, chatter=SURE)
    assert _news([over], [dating]) == [over.text]
    love = _statement("用户和小李在谈恋爱", 3, 5)
    engaged = _statement("用户：哈哈和小李订婚了！", 9, 3, chatter=BAND)
    assert _news([engaged], [love]) == [engaged.text]
    # another's stage is no news of the user's
    cousin = _statement("用户：哈哈表姐订婚了！", 9, 4, chatter=BAND)
    assert _news([cousin], [love]) == []
