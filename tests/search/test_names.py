from datetime import date
from pathlib import Path

import pytest
from conftest import write

from memory.paths import MemoryRoot
from memory.search.keyword_index import query_terms
from memory.search.names import names, names_unheard
from memory.search.ranker import RankSettings
from memory.search.service import MemorySearch, SearchSettings

NOW = date(2026, 11, 30)


def test_names_are_capitalised_words_inside_a_sentence() -> None:
    assert names("Did Jon meet Gina in May?") == ["Jon", "Gina"]
    assert names("What is Caroline's identity?") == ["Caroline's"]
    # a sentence's first word, months, weekdays and single letters are no names
    assert names("When did I go camping in July? Where on Sunday?") == []
    assert names("用户养了什么狗？") == []
    # a title's dot ends no sentence, and the title is no name
    assert names("Would Caroline have Dr. Seuss books?") == ["Caroline", "Seuss"]
    assert names("What areas of the U.S. has John seen?") == ["John"]


def test_unheard_when_every_name_is_missing_from_the_memory() -> None:
    q = "What did Jon and Gina do on Friday?"
    assert names_unheard(q, {"jon", "gina"}, query_terms)
    assert not names_unheard(q, {"jon"}, query_terms)  # Gina is known: ask on
    assert not names_unheard("What did I do on Friday?", set(), query_terms)  # no name
    assert names_unheard("Where is Gina's studio?", {"gina", "studio"}, query_terms)


@pytest.mark.parametrize("provider", ["none", "local"])
def test_a_question_about_someone_never_mentioned_finds_nothing(
    tmp_path: Path, provider: str
) -> None:
    base = tmp_path / "r"
    write(
        base,
        "memory/2026-11-20.md",
        "# Daily Memory: 2026-11-20\n\n## Session 1\n\n"
        "- Caroline: I went to a pottery class with Melanie yesterday\n"
        "- Melanie: The pottery class was fun, we made bowls\n",
    )
    svc = MemorySearch(MemoryRoot.at(base), SearchSettings(provider=provider))
    assert svc.search("What did Jon make at the pottery class?", now=NOW) == []
    assert svc.search("What did Melanie make at the pottery class?", now=NOW) != []
    svc.close()
    off = SearchSettings(provider=provider, ranking=RankSettings(unheard_names=False))
    svc = MemorySearch(MemoryRoot.at(base), off)
    assert svc.search("What did Jon make at the pottery class?", now=NOW) != []
    svc.close()
