"""A named person's fact, written in the third person, against that person's own later line
in a group's flush style; and a member's line about someone else. Whom each is about, and
what retires what. Examples of this file's own."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from two_days import dream_two_days

from memory.dream.contradiction import Side, verdict
from memory.dream.judge.address import after_lead, apposed, familiar_names, told_of, unaddressed
from memory.dream.judge.beings import doer, someone_else
from memory.dream.judge.relations import Said, replaces, subject_of
from memory.memory_file import parse_archive

GROUP = frozenset({"陈晨", "刘洋", "王芳", "Omar", "Priya", "Sam"})


def test_a_member_called_on_before_the_speakers_own_news_is_no_subject() -> None:
    # "陈晨：刘洋，我搬到渝中区了", "Omar: Priya, I moved to Hove", worded
    assert subject_of("陈晨：刘洋，陈晨搬到渝中区了", GROUP) == "陈晨"
    assert subject_of("Omar: Priya, Omar moved to Hove in April 2027", GROUP) == "Omar"
    assert subject_of("Omar: Sam, Priya: Omar moved to Hove", GROUP) == "Omar"
    assert subject_of("刘洋，陈晨搬到渝中区了", GROUP) == "陈晨"  # the label's body alone
    # a word to the member that says nothing of them ("王芳说得对，我早就不吃甜食了")
    assert subject_of("陈晨：王芳说得对，陈晨早就不吃甜食了", GROUP) == "陈晨"
    assert subject_of("王芳说得对，陈晨早就不吃甜食了", GROUP) == "陈晨"
    assert subject_of("Omar: Priya's right, Omar is not vegetarian anymore", GROUP) == "Omar"
    assert subject_of("Omar: Priya's car is a Fiat", GROUP) == "Priya"
    # a member named before what is said of them is still whom it is about
    assert subject_of("陈晨：刘洋搬到渝中区了", GROUP) == "刘洋"
    assert subject_of("陈晨：刘洋，你搬家了？", GROUP) == "刘洋"
    assert subject_of("Omar: Priya moved to Hove", GROUP) == "Priya"
    assert subject_of("Omar: Priya and Sam moved to Hove", GROUP) == "Priya+Sam"


def test_unaddressed_strips_only_names_another_members_name_follows() -> None:
    assert unaddressed("刘洋，陈晨搬到渝中区了", GROUP) == "陈晨搬到渝中区了"
    assert unaddressed("@Priya Omar moved to Hove", GROUP) == "Omar moved to Hove"
    assert unaddressed("Priya moved to Hove", GROUP) == "Priya moved to Hove"
    assert unaddressed("Priyanka, Omar moved", GROUP) == "Priyanka, Omar moved"


def test_a_tellers_dropped_frame_leaves_the_members_words() -> None:
    # "刘洋说陈晨在银行上班", "用户说陈晨在银行上班", as the wording drops the frame
    assert told_of("刘洋陈晨在银行上班", GROUP) == "陈晨在银行上班"
    assert subject_of("刘洋陈晨在银行上班", GROUP) == "陈晨"
    assert subject_of("用户陈晨在银行上班", GROUP) == "陈晨"
    assert subject_of("刘洋在银行上班", GROUP) == "刘洋"
    assert told_of("陈晨：刘洋在银行上班", GROUP) == ""  # a label, not a frame


def test_the_users_words_about_a_member_are_the_members() -> None:
    assert subject_of("The user: Omar drives a Fiat", GROUP) == "Omar"
    assert subject_of("The user said Omar drives a Fiat", GROUP) == "Omar"
    assert subject_of("用户：陈晨在银行上班", GROUP) == "陈晨"
    # a name no member has stays the user's line (judge.beings tells such beings apart)
    assert subject_of("The user: Bess is 11 now", GROUP) == "user"
    assert subject_of("The user: Omar drives a Fiat") == "user"  # a private chat


def test_hearsay_names_whom_it_is_about() -> None:
    assert subject_of("王芳：听说陈晨在银行上班", GROUP) == "陈晨"
    assert subject_of("Priya: Heard Omar works at Bean Scene", GROUP) == "Omar"
    assert subject_of("Priya told everyone Omar works at Bean Scene", GROUP) == "Omar"
    assert subject_of("王芳：听说银行要涨利息了", GROUP) == "王芳"


def test_doer_is_someone_named_before_what_only_a_person_does() -> None:
    assert doer("Mia: Jake moved to Hove last week") == "Jake"
    assert doer("The user said Jake quit his job") == "Jake"
    assert doer("陈晨：小李搬到渝中区了") == "小李"
    assert doer("Mia: Finally moved out of Leeds") == ""  # an adverb
    assert doer("Maya: Meeting moved to Friday the 25th") == ""  # a thing moves to a day
    assert doer("Kofi: Rent is 950 now") == ""
    assert doer("陈晨：周末搬到渝中区了") == ""


def test_someone_else_named_gives_the_subject_no_new_value() -> None:
    assert someone_else("Omar: Jake moved to Hove last month", "Omar lives in Brighton", "Omar")
    assert someone_else("陈晨：小李搬到渝中区了", "陈晨住在江北区", "陈晨")
    # the older names him: what changed may be the subject's ("Dan's moving, Marta coaches")
    assert not someone_else(
        "Gus: Dan's moving to London, so Marta is our coach now", "Gus: our coach is Dan", "Gus"
    )
    assert not someone_else("Omar: Omar moved to Hove", "Omar lives in Brighton", "Omar")
    # a name the chat gave the subject is the subject
    aliases = {"Joan": "user/mother"}
    older = "Joan lives in Harrogate"
    assert not someone_else("Joan moved into Oakwood", older, "user/mother", aliases)


def test_the_subjects_own_later_word_settles_what_another_said() -> None:
    day, later = date(2027, 5, 3), date(2027, 5, 6)
    other = Side("Priya: Omar works as a barista at Bean Scene", day, frozenset({"Priya"}), "Omar")
    own = Side("Omar left Bean Scene, Omar is a bus driver now", later, frozenset({"Omar"}), "Omar")
    assert verdict(own, other) == "replace"
    # another member's later word on him still leaves an open conflict
    third = Side("Sam: Omar is a bus driver now", later, frozenset({"Sam"}), "Omar")
    assert verdict(third, other) == "open"
    assert verdict(other, own) == "open"


def _superseded(archive: str) -> list[str]:
    return [a.text for a in parse_archive(archive) if a.reason == "superseded"]


def test_a_member_reporting_someone_else_moving_keeps_the_members_home(tmp_path: Path) -> None:
    first = ["Omar: morning all", "Priya: morning", "Omar lives in Brighton"]
    later = ["Omar: Jake moved to Hove last month", "Priya: wow"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "Omar lives in Brighton" in items
    assert not _superseded(archive)


def test_the_persons_own_line_retires_what_another_member_said(tmp_path: Path) -> None:
    first = ["Omar: morning all", "Priya: Omar works as a barista at Bean Scene"]
    later = ["Omar: I left Bean Scene, I'm a bus driver now", "Priya: nice"]
    items, archive = dream_two_days(tmp_path, first, later)
    assert "barista" not in items
    assert any("barista" in text for text in _superseded(archive))


def test_a_summarys_when_and_where_come_before_whom_it_tells_of() -> None:
    # "今天陈晨说她搬到渝中区了", its day resolved and its frame dropped by the wording
    assert after_lead("2027-05-03陈晨搬到渝中区了") == "陈晨搬到渝中区了"
    assert subject_of("2027-05-03陈晨搬到渝中区了", GROUP) == "陈晨"
    assert subject_of("群里陈晨搬家了", GROUP) == "陈晨"
    assert subject_of("On 2027-05-03 Omar said he moved to Hove", GROUP) == "Omar"
    assert subject_of("In the group chat, Omar said he moved to Hove", GROUP) == "Omar"
    assert subject_of("According to Omar, he now works at Bean Scene", GROUP) == "Omar"
    assert subject_of("2027-05-03全家去爬山", GROUP) == "user"  # no one named after it


def test_a_member_named_after_someones_relation_is_the_member() -> None:
    assert subject_of("Priya's friend Omar works at Bean Scene", GROUP) == "Omar"
    assert subject_of("刘洋的表妹陈晨在银行上班", GROUP) == "陈晨"
    assert subject_of("The user's colleague Omar works at Bean Scene", GROUP) == "Omar"
    assert apposed("The user's wife Ngozi is a doctor", GROUP) == ""
    assert subject_of("刘洋的表妹在银行上班", GROUP) == "刘洋"


def test_a_familiar_form_of_a_members_name_is_the_member() -> None:
    assert subject_of("老陈在银行上班", GROUP) == "陈晨"
    assert subject_of("小陈的狗叫豆豆", GROUP) == "陈晨/pet"
    # two members of one family name: the form calls neither (their given names still do:
    # "晨姐", "小静")
    forms = familiar_names(frozenset({"陈晨", "陈静"}))
    assert not [form for form in forms if "陈" in form]
    assert forms["晨姐"] == "陈晨"


def test_a_stops_thing_comes_before_a_not_one_measure() -> None:
    # "not one piece of it": the thing stopped is what comes before the measure
    older = Said("赵磊每天吃巧克力", "赵磊", "preference")
    newer = Said("赵磊：减肥了，巧克力一块都不吃了", "赵磊", "health")
    assert replaces(newer, older)
    assert not replaces(Said("赵磊：减肥了，薯片一片都不吃了", "赵磊", "health"), older)


def test_a_full_chinese_name_where_its_bearer_lives_is_the_doer() -> None:
    assert doer("用户说苏晴住在上海徐汇") == "苏晴"
    assert doer("李明明在深圳上班") == "李明明"
    assert doer("陈晨：明年搬去杭州") == ""  # a time word is no name
    assert doer("用户住在西丽") == ""
    # the user's own home is no new value of the girlfriend's
    assert someone_else("用户：公司已经搬到福田了，用户还住西丽", "用户说苏晴住在上海徐汇", "user")
