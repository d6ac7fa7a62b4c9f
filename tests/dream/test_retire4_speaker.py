"""Field labels of a terse summary ("Diet: pescatarian") told from the members of a group
chat, over the lines of one chat (:func:`memory.speaker.field_labels`). Examples of this
file's own."""

from __future__ import annotations

from memory.speaker import Spoken, field_labels, split

FIELDS = [
    "Occupation: dental hygienist, two days a week",
    "Diet: vegan since 2019",
    "Pets: two rescue greyhounds",
    "Mood: tired, long shift",
    "Sister: lives in Leeds, teacher",
    "Hometown: Cork",
    "Asked about a bread recipe",
]
GROUP = [
    "Priya: morning all",
    "Priya: the walk on Saturday starts at the car park, 9am",
    "Owen: nice one Priya",
    "Owen: boots are in the boot of my car",
    "Lena: subs are £5 this month",
    "Lena: can't make it, sorry",
    "Owen: Lena the map is in the drive",
]


def test_a_chat_in_fields_has_field_labels() -> None:
    labels = field_labels(FIELDS)
    assert {"Occupation", "Diet", "Pets", "Mood", "Sister", "Hometown"} <= labels
    # the labelled line stays whole: its field is kept with its value
    assert split("Diet: vegan since 2019", labels) == Spoken(None, "Diet: vegan since 2019")
    assert split("Diet: vegan since 2019") == Spoken("Diet", "vegan since 2019")


def test_the_members_of_a_group_chat_still_speak() -> None:
    assert field_labels(GROUP) == frozenset()
    # a member whose own lines read as values is named by the others, or talks as a person
    labels = field_labels(GROUP)
    assert split("Lena: subs are £5 this month", labels) == Spoken("Lena", "subs are £5 this month")
    assert (
        split("Priya: the walk on Saturday starts at the car park, 9am", labels).speaker == "Priya"
    )


def test_a_group_chat_beside_fields_keeps_its_speakers() -> None:
    labels = field_labels([*FIELDS, *GROUP])
    assert "Diet" in labels
    assert not labels & {"Priya", "Owen", "Lena"}
    assert split("用户：我对花生过敏", labels) == Spoken("用户", "我对花生过敏")


def test_a_few_silent_names_are_no_field_style() -> None:
    # two heads that only state values are too few to call the chat a summary in fields
    lines = ["Marta: flight lands 14:05", "Jonas: gate B12", "用户：好的谢谢"]
    assert field_labels(lines) == frozenset()


def test_chinese_field_labels_and_speakers() -> None:
    fields = ["职业：小学老师", "饮食：不吃香菜", "住址：成都武侯区", "爱好：钓鱼，周末去"]
    assert {"职业", "饮食", "住址", "爱好"} <= field_labels(fields)
    group = ["王芳：大家周六几点到", "李强：我九点到", "王芳：好的", "李强：王芳你带水"]
    assert field_labels(group) == frozenset()
