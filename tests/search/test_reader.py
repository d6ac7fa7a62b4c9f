"""The question–line reader: a hit line's speaker and text, what the reader sees in one
line against a question, its model's arithmetic and the shipped weights, and the
answerability gate reading it when its model asks for it."""

from __future__ import annotations

import json
import math

import pytest

from memory.search.answerable import READER, AnswerModel, answers
from memory.search.ranker import Hit
from memory.search.reader import (
    Question,
    ReaderModel,
    best_line,
    char_pairs,
    hit_lines,
    line_features,
    shipped,
    split_line,
)


def hit(snippet: str, path: str = "memory/2026-06-01.md") -> Hit:
    return Hit(path, 1, 1, 0.5, snippet, "hybrid")


def read(question: str) -> Question:
    from memory.search.keyword_index import query_terms

    return Question.read(question, {t: 1.0 for t in query_terms(question)})


def test_a_line_splits_into_its_speaker_and_its_text() -> None:
    assert split_line("- [D1:3] Caroline: I went to a support group yesterday.") == (
        "Caroline",
        "I went to a support group yesterday.",
    )
    assert split_line("- 14:02 Lena: where do I live?") == ("Lena", "where do I live?")
    assert split_line("- 用户：下周三要去上海出差") == ("用户", "下周三要去上海出差")
    assert split_line("- 用户说楼下新开了一家面馆") == ("", "用户说楼下新开了一家面馆")
    assert split_line("- I told her and she said: yes") == ("", "I told her and she said: yes")


def test_character_pairs_leave_out_question_words_and_names() -> None:
    assert "什么" not in char_pairs("我最近在看什么书")
    assert "看什" in char_pairs("我最近在看什么书")
    assert char_pairs("阿杰结婚", frozenset({"阿杰"})) == {"杰结", "结婚"}


def test_the_asked_part_without_the_names() -> None:
    question = read("What did Caroline paint last summer?")
    assert "caroline" in question.named
    assert "caroline" not in question.slot
    about = line_features(question, "- [D2:1] Caroline: I love the kids so much!")
    answer = line_features(question, "- [D2:2] Caroline: I painted a sunset by the lake.")
    assert about["slot"] < answer["slot"]
    assert about["by_named"] == answer["by_named"] == 1.0


def test_the_kind_of_value_asked_for_must_be_in_the_line() -> None:
    when = read("When did Melanie run the charity race?")
    assert line_features(when, "- Melanie: I ran the charity race last Saturday!")["typed"] == 1.0
    assert line_features(when, "- Melanie: The charity race was so much fun!")["typed"] == 0.0
    many = read("小满一周上几次钢琴课？")
    assert line_features(many, "- 小满每周上两次钢琴课")["typed"] == 1.0
    assert line_features(many, "- 小满在学钢琴，老师很严格")["typed"] == 0.0
    where = read("阿杰结婚是在哪个城市办的？")
    assert line_features(where, "- 阿杰的婚礼在上海外滩边的酒店办的")["typed"] == 1.0
    who = read("Who taught Jon to dance?")
    assert line_features(who, "- Jon: my friend Gina taught me the basics")["typed"] == 1.0
    assert line_features(who, "- Jon: I love to dance")["typed"] == 0.0
    anything = read("What does Jon like?")
    assert line_features(anything, "- Jon: dancing")["typed"] == 1.0  # asks no kind


def test_a_question_line_and_chatter_are_marked() -> None:
    question = read("What did Caroline paint?")
    assert line_features(question, "- Melanie: What did you paint?")["asking"] == 1.0
    assert line_features(question, "- Melanie: Wow, that's so cool!")["chatter"] == 1.0
    assert line_features(question, "- Caroline: I painted a sunset.")["asking"] == 0.0


def test_hit_lines_are_the_first_hits_lines_with_their_rank() -> None:
    hits = [hit("- a\n- b"), hit("- c"), hit("- d")]
    assert hit_lines(hits, 2) == [(0, "- a"), (0, "- b"), (1, "- c")]


def test_the_model_arithmetic_and_round_trip() -> None:
    model = ReaderModel(("slot", "typed"), (0.0, 0.0), (1.0, 1.0), (2.0, 1.0), -1.0)
    chance = model.probability({"slot": 0.5, "typed": 1.0})
    assert chance == pytest.approx(1 / (1 + math.exp(-1.0)))
    assert ReaderModel.from_dict(json.loads(json.dumps(model.to_dict()))) == model
    with pytest.raises(ValueError):
        ReaderModel.from_dict({**model.to_dict(), "weights": [1.0]})


def test_the_shipped_reader_prefers_the_line_that_answers() -> None:
    models = shipped()
    assert set(models) == {"en", "zh"}
    question = "When did Caroline go to the LGBTQ support group?"
    weights = {"caroline": 0.01, "go": 3.4, "lgbtq": 2.2, "support": 1.5, "group": 2.4}
    answer = [hit("- [D1:3] Caroline: I went to a LGBTQ support group yesterday.")]
    look_alike = [hit("- [D4:2] Melanie: Thanks, Caroline! Good to see you again.")]
    assert best_line(question, answer, weights) > best_line(question, look_alike, weights)
    assert best_line(question, [], weights) == 0.0
    zh = "那台笔记本电脑多少钱买的？"
    zh_weights = {"那台": 5.0, "笔记本": 4.0, "电脑": 3.5, "钱": 3.0, "买": 2.5}
    paid = [hit("- 用户买了一台二手笔记本电脑，花了 4200 元")]
    other = [hit("- 用户说最近工作比较忙")]
    assert best_line(zh, paid, zh_weights) > best_line(zh, other, zh_weights)


def test_the_gate_reads_the_reader_when_its_model_asks_for_it() -> None:
    # a model of the reader's chance alone: passes what the reader finds an answer in
    only = AnswerModel((READER,), (0.0,), (1.0,), (20.0,), -10.0, 0.5)
    question = "When did Caroline go to the LGBTQ support group?"
    weights = {"caroline": 0.01, "go": 3.4, "lgbtq": 2.2, "support": 1.5, "group": 2.4}
    answer = [hit("- [D1:3] Caroline: I went to a LGBTQ support group yesterday.")]
    look_alike = [hit("- [D4:2] Melanie: Thanks, Caroline! Good to see you again.")]
    assert best_line(question, answer, weights) > 0.5 > best_line(question, look_alike, weights)
    assert answers(question, answer, weights, [0.8], only)
    assert not answers(question, look_alike, weights, [0.8], only)
