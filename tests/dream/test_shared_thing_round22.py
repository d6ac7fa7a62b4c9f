"""Round 22 (issue 10): whom a group's line is about when it names a thing, a frame or no one.

Our own sentences. A line opening with a conjunction or a preposition ("Because of …",
"If the landlord …") names no one; a place's body ("Riverside staff", "Kendal council")
names a thing, not a person; a member telling, reminding or asking another ("周丽提醒周小满…",
"Priya reminded Tomasz that …") says something of the other member. A member's own
facts stay that member's, and a frame without another member in it stays its speaker's.
"""

from __future__ import annotations

import pytest

from memory.dream.judge.relations import subject_of

ZH = frozenset({"周丽", "周小满", "何建军", "何老爷子", "王秀梅"})
EN = frozenset({"Priya", "Tomasz", "Lena", "Sam"})
NONE: frozenset[str] = frozenset()

# (text, the chat's members, whom it is about)
NEW = [
    # a conjunction, a preposition or a quantifier opening the line names no one
    ("Because of the school run, the user starts at 9:30", NONE, "user"),
    ("If the landlord agrees, we keep the flat another year", EN, "user"),
    ("Although it rained, the user ran 10k", NONE, "user"),
    ("Until March the user works from home on Fridays", NONE, "user"),
    ("While in Lisbon the user takes Portuguese classes", NONE, "user"),
    ("Every Friday the user swims 40 lengths", NONE, "user"),
    ("Once the cast is off the user goes back to five-a-side", NONE, "user"),
    ("During Ramadan the user trains after sunset", NONE, "user"),
    ("With the new job the user cycles to work", NONE, "user"),
    # a place's body: a thing's name, not a person's
    ("Riverside staff changed the dressing schedule to mornings", NONE, "user"),
    ("Hillcrest school moved pickup to 3:15", NONE, "user"),
    ("Elmwood surgery switched the repeat prescription to monthly", NONE, "user"),
    ("Kendal council raised the parking permit to £60", EN, "user"),
    ("Maple nursery opens at 7:45 now", NONE, "user"),
    ("Sunnyside carers come twice a day from Monday", NONE, "user"),
    ("Leeds office closes on Fridays over the summer", EN, "user"),
    # a member telling, reminding or asking another: the other's
    ("周丽提醒周小满明天带体检表", ZH, "周小满"),
    ("周丽叮嘱周小满少喝冷饮", ZH, "周小满"),
    ("周丽告诉周小满补课改到周六了", ZH, "周小满"),
    ("周丽让周小满下周一去牙科复查", ZH, "周小满"),
    ("周丽：提醒周小满周五交学费", ZH, "周小满"),
    ("周丽说周小满期末考了第三名", ZH, "周小满"),
    ("周丽又提醒周小满别忘了带伞", ZH, "周小满"),
    ("王秀梅通知周小满钢琴课改到周日", ZH, "周小满"),
    ("何建军提醒老爷子按时吃降压药", ZH, "何老爷子"),
    # a member and a frame's verb is no relation's owner ("何建军说" has no father)
    ("何建军说老爷子的寿宴改到聚福楼", ZH, "何老爷子"),
    ("何建军说奶奶搬到县城了", ZH, "何建军"),
    ("Priya reminded Tomasz that his passport expires in May", EN, "Tomasz"),
    ("Priya told Tomasz the car service is on Monday", EN, "Tomasz"),
    ("Priya said Tomasz is moving to Gdansk in June", EN, "Tomasz"),
    ("Priya asked Tomasz to renew the TV licence", EN, "Tomasz"),
    ("Priya warned Lena that her train pass runs out Friday", EN, "Lena"),
    ("Priya said Tomasz and Lena are sharing the car now", EN, "Lena+Tomasz"),
    ("Priya: reminded Tomasz about his dentist on the 4th", EN, "Tomasz"),
]

KEPT = [
    # a member's own facts stay the member's; a person opening a line is that person
    ("Daniel works for Van Dijk Infrastructure", NONE, "Daniel"),
    ("Tomasz: I'm 31 now", EN, "Tomasz"),
    ("Tomasz: my sister is a vet in Poznan", EN, "Tomasz/sister"),
    ("The user: Mum's physio moved to Thursdays", NONE, "user/mother"),
    ("Priya and Tomasz moved to Gdansk", EN, "Priya"),  # her household, as before
    ("Quick update: Tomasz starts at the bakery on Monday", EN, "Tomasz"),
    ("Sam works at Harrogate council", EN, "Sam"),
    ("Lena's team moved her desk to the third floor", EN, "Lena"),
    # a frame without another member in it stays its speaker's
    ("周丽说她下个月换工作", ZH, "周丽"),
    ("周丽说周末可能下雨", ZH, "周丽"),
    ("周丽提醒大家周六聚餐改到七点", ZH, "周丽"),
    ("Priya said the rent is €700 each from March", EN, "Priya"),
    ("Tomasz reminded everyone that bins are Tuesday now", EN, "Tomasz"),
    ("Priya told us the boiler is fixed", EN, "Priya"),
    ("周丽帮周小满挂了号", ZH, "周丽"),
    ("何建军的爸爸住院了", ZH, "何建军/father"),
    ("何建军家的狗三岁了", ZH, "何建军/pet"),  # a favour done: no words of the other's
    ("Tomasz: because of the strike he works from home", EN, "Tomasz"),
]


@pytest.mark.parametrize(("text", "names", "subject"), NEW + KEPT)
def test_whom_a_line_is_about(text: str, names: frozenset[str], subject: str) -> None:
    assert subject_of(text, names) == subject


def test_the_table_is_long_enough() -> None:
    assert len(NEW) + len(KEPT) >= 40
