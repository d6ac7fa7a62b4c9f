"""The answerability gate: what a question asks for, what a hit holds, the model's
arithmetic, and the opt-in gate through the service, the tool, the CLI and the bot's pool
(which the chat command and the web console search through), with the local model."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from bot.config import BotConfig
from bot.search_pool import SearchPool
from memory.cli import main
from memory.errors import UsageError
from memory.paths import MemoryRoot
from memory.search import answerable
from memory.search.answerable import (
    AnswerModel,
    answers,
    asks,
    hit_cosines,
    holds,
    is_the_question,
    signals,
    type_check,
    without_question,
)
from memory.search.config import settings_from
from memory.search.ranker import Hit
from memory.search.service import MemorySearch, SearchSettings
from memory.search.store import StoredChunk
from memory.search.tools import memory_search


def hit(snippet: str, path: str = "MEMORY.md", score: float = 0.5, source: str = "keyword") -> Hit:
    return Hit(path, 1, 1, score, snippet, source)  # type: ignore[arg-type]


def test_what_a_question_asks_for() -> None:
    assert asks("When did Caroline go to the support group?") == {
        "when": 1.0,
        "count": 0.0,
        "where": 0.0,
        "who": 0.0,
    }
    assert asks("How many children does Melanie have?")["count"] == 1.0
    assert asks("我去上海那趟住在哪个区？")["where"] == 1.0
    assert asks("小满现在读几年级？")["count"] == 1.0
    assert asks("青鸟项目什么时候上线？")["when"] == 1.0
    assert asks("谁帮我修的电脑？")["who"] == 1.0
    assert asks("我平时喝什么样的咖啡？") == {"when": 0.0, "count": 0.0, "where": 0.0, "who": 0.0}


def test_what_a_hit_holds() -> None:
    plain = holds(hit("- 用户希望回答尽量简短"), set())
    assert plain == {"when": 0.0, "when_said": 0.0, "count": 0.0, "where": 0.0, "who": 0.0}
    said = holds(hit("- We met on 8 May 2023 in Boston"), set())
    assert said["when_said"] == 1.0 and said["when"] == 1.0 and said["count"] == 1.0
    assert said["where"] == 1.0
    assert holds(hit("- 用户养了一只柯基", path="memory/2026-06-01.md"), set())["when"] == 1.0
    assert holds(hit("- 用户每周跑 3 次步"), set())["count"] == 1.0
    assert holds(hit("- 用户住在杭州市西湖区"), set())["where"] == 1.0
    # a name the question gives is no answer to "who"
    assert holds(hit("- Then Caroline left"), {"Caroline"})["who"] == 0.0
    assert holds(hit("- Then Caroline left"), set())["who"] == 1.0


def test_the_answer_type_check_alone() -> None:
    undated = [hit("- 用户在公司负责支付网关的重构")]
    assert not type_check("公司年会在哪里办？", undated)
    assert type_check("公司年会在哪里办？", [hit("- 公司年会在西湖区的酒店办")])
    assert type_check("我平时喝什么样的咖啡？", undated)  # asks for no kind of value
    assert not type_check("When did she leave?", [hit("- she left the band")])
    assert type_check("When did she leave?", [hit("- she left", path="memory/2026-06-01.md")])


def test_signals_read_the_question_against_the_top_five() -> None:
    weights = {"年会": 3.0, "公司": 1.0}
    got = signals(
        "公司年会在哪里办？", [hit("- 用户在公司负责支付网关的重构", score=0.6)], weights, [0.8]
    )
    assert got["hits"] == 0.2
    assert got["cosine1"] == 0.8 and got["cosine_best"] == 0.8 and got["cosine_lead"] == 0.8
    assert got["score1"] == 0.6 and got["score2"] == 0.0 and got["lead"] == 0.6
    assert got["cover1"] == 0.25 and got["cover5"] == 0.25
    assert got["focus1"] == 0.0 and got["focus5"] == 0.0
    assert got["missing_most"] == 0.75
    assert got["asks_where"] == 1.0 and got["asks_where_top3"] == 0.0
    assert got["names5"] == 1.0 and got["named"] == 0.0


def test_a_hit_takes_the_best_cosine_of_the_chunks_inside_its_lines() -> None:
    rows = [
        StoredChunk(1, "memory/a.md", 3, 4, "", b"", None),
        StoredChunk(2, "memory/a.md", 5, 6, "", b"", None),
        StoredChunk(3, "memory/b.md", 3, 4, "", b"", None),
    ]
    near = {1: 0.81, 2: 0.86, 3: 0.9, 4: 0.78}
    widened = Hit("memory/a.md", 3, 6, 0.5, "", "hybrid")
    alone = Hit("memory/a.md", 3, 4, 0.5, "", "hybrid")
    elsewhere = Hit("memory/c.md", 1, 9, 0.5, "", "keyword")  # none of its chunks is near
    assert hit_cosines([widened, alone, elsewhere], rows, near) == [0.86, 0.81, 0.78]


def test_the_question_itself_is_no_answer() -> None:
    # the message being answered is logged (and indexed) before the search runs
    assert is_the_question("14:02 Lena: where do I live?", "where do I live?")
    assert is_the_question("- 用户: 我能吃多辣？", "我能吃多辣？")
    assert is_the_question("  Where  do I live? ", "where do I live?")
    assert not is_the_question("14:02 Lena: I know where do I live?", "where do I live?")
    assert not is_the_question("- I moved to Porto", "where do I live?")
    # a query that asks nothing: the line that says it is its best answer, not its echo
    assert not is_the_question("- 用户对花生过敏", "用户对花生过敏")
    assert not is_the_question("14:02 Lena: I parked on level 3", "I parked on level 3")
    asked = hit("14:02 用户: 我能吃多辣？", path="sessions/2026-06-01.jsonl")
    both = Hit(
        "sessions/2026-06-01.jsonl",
        3,
        4,
        0.9,
        "14:01 用户: 我爱吃辣\n14:02 用户: 我能吃多辣？",
        "hybrid",
    )
    plain = hit("- 用户对花生过敏")
    read = without_question("我能吃多辣？", [asked, both, plain])
    assert read == [replace(both, snippet="14:01 用户: 我爱吃辣"), plain]
    # its chunk's cosine (1.0) is not the hit's
    rows = [
        StoredChunk(1, "sessions/2026-06-01.jsonl", 3, 3, "14:01 用户: 我爱吃辣", b"", None),
        StoredChunk(2, "sessions/2026-06-01.jsonl", 4, 4, "14:02 用户: 我能吃多辣？", b"", None),
    ]
    assert hit_cosines([both], rows, {1: 0.8, 2: 1.0}, "我能吃多辣？") == [0.8]
    assert hit_cosines([both], rows, {1: 0.8, 2: 1.0}) == [1.0]
    always = AnswerModel(("hits",), (0.0,), (1.0,), (0.0,), 0.0, 0.5)  # p = 0.5 for any hits
    assert answers("我能吃多辣？", [both], {}, [0.8], always)
    assert not answers("我能吃多辣？", [asked], {}, [1.0], always)  # nothing but the question


def test_the_model_is_a_standardised_logistic() -> None:
    model = AnswerModel(("a", "b"), (0.0, 1.0), (1.0, 2.0), (1.0, -1.0), 0.5, 0.6)
    z = 0.5 + 1.0 * 2.0 - 1.0 * (3.0 - 1.0) / 2.0
    assert model.probability({"a": 2.0, "b": 3.0}) == pytest.approx(1 / (1 + math.exp(-z)))
    assert AnswerModel.from_dict(json.loads(json.dumps(model.to_dict()))) == model
    with pytest.raises(ValueError):
        AnswerModel.from_dict({**model.to_dict(), "weights": [1.0]})


def test_the_shipped_model_reads_every_signal() -> None:
    models = answerable.shipped()
    names = tuple(signals("When?", [hit("- x")], {"x": 1.0}, [0.8]))
    assert set(models) == {"en", "zh"}
    for model in models.values():
        assert model.features == names
    assert 0.0 < models["zh"].threshold < 1.0
    assert models["en"].threshold == 0.0  # no English threshold kept recall: never gates


NOTE = (
    "# 2026-06-01\n\n"
    "- 用户说公司年会的节目还没定\n\n"
    "- 用户的狗叫豆豆，是一只三岁的柯基\n\n"
    "- 用户对花生过敏，吃了会起疹子\n\n"
    "- 用户在公司负责支付网关的重构，用 Go 重写\n\n"
    "- 用户每周二和周四晚上去游泳\n\n"
    "- 用户住在杭州文一路\n"
)
ASKED = "我能吃多辣？"  # never said; the look-alike "过敏，吃了会起疹子" passes the evidence gate
ANSWERED = ("我对什么过敏？", "豆豆几岁了？", "我住在哪里？", "我什么时候去游泳？")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("answerable")
    (base / "memory").mkdir()
    (base / "memory" / "2026-06-01.md").write_text(NOTE, "utf-8")
    (base / "MEMORY.md").write_text("# Memory\n\n- 用户叫王芳，是一名护士\n", "utf-8")
    return base


def test_gated_search_answers_nothing_through_the_service_and_the_tool(workspace: Path) -> None:
    root = MemoryRoot.at(workspace)
    plain = MemorySearch(root, SearchSettings(provider="local"))
    gated = MemorySearch(root, SearchSettings(provider="local", answerable=True))
    try:
        assert plain.search(ASKED)  # without the gate the look-alikes come back
        assert gated.search(ASKED) == []
        assert memory_search(gated, ASKED)["results"] == []
        for question in ANSWERED:
            assert gated.search(question) == plain.search(question) != []
    finally:
        plain.close()
        gated.close()


def test_keyword_only_search_is_not_gated(workspace: Path) -> None:
    root = MemoryRoot.at(workspace)
    plain = MemorySearch(root, SearchSettings(provider="none"))
    gated = MemorySearch(root, SearchSettings(provider="none", answerable=True))
    try:  # the gate reads the hits' cosines: without vectors it lets everything through
        assert gated.search("豆豆是什么狗") == plain.search("豆豆是什么狗") != []
    finally:
        plain.close()
        gated.close()


def test_the_config_key_gates_the_cli_and_the_bot(
    workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"memory_search_answerable": True}), "utf-8")
    argv = ["search", ASKED, "--workspace", str(workspace), "--provider", "local", "--json"]
    assert main([*argv, "--config", str(config)]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) != []
    pool = SearchPool(
        BotConfig(
            agent_workspace=str(tmp_path / "ws"),
            embedding_provider="local",
            memory_search_answerable=True,
        )
    )
    try:
        assert pool.search(MemoryRoot.at(workspace), ASKED) == []
        assert pool.search(MemoryRoot.at(workspace), ANSWERED[0]) != []
    finally:
        pool.close()


def test_a_bad_config_value_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="memory_search_answerable"):
        settings_from({"memory_search_answerable": "yes"}, {})
