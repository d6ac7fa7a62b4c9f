"""The vector side of a facet query (``SearchSettings.facet_vectors``): what each choice
embeds, and that every named thing's best line still joins the top."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from conftest import FakeEmbeddings, write

from memory.errors import UsageError
from memory.paths import MemoryRoot
from memory.search.facets import facets
from memory.search.ranker import RankSettings
from memory.search.service import MemorySearch, SearchSettings

NOW = date(2026, 11, 30)
QUESTION = "which sauce did we make with tomatoes and basil"


SAUCES = [
    "we make a sauce with tomatoes and garlic",
    "a tomatoes sauce with onions, made on Sunday",
    "which sauce? the spicy one with tomatoes",
    "we make sauce with tomatoes for the pasta night",
    "tomatoes sauce again, with olives",
]


def garden(base: Path) -> MemoryRoot:
    """Five notes about a tomato sauce and eight about basil: the question's top three are
    sauces, a basil line comes only from the facet "basil"."""
    for n, line in enumerate(SAUCES):
        write(base, f"memory/2026-11-{20 + n}.md", f"# Daily Memory\n\n- {line}\n")
    for n in range(8):
        line = f"watered the basil on the balcony, pot {n}"
        write(base, f"memory/2026-10-{10 + n}.md", f"# Daily Memory\n\n- {line}\n")
    return MemoryRoot.at(base)


def settings(server: FakeEmbeddings, mode: str, decompose: bool = True) -> SearchSettings:
    return SearchSettings(
        provider="openai",
        api_key="sk-test",
        base_url=server.base_url,
        openai_model="fake",
        facet_vectors=mode,  # type: ignore[arg-type]
        ranking=replace(RankSettings(), decompose=decompose),
    )


def asked(server: FakeEmbeddings, root: MemoryRoot, chosen: SearchSettings) -> list[str]:
    """The texts the question's search embedded, then the paths and sources of its three
    hits."""
    svc = MemorySearch(root, chosen)
    svc.sync()
    server.calls.clear()
    hits = svc.search(QUESTION, limit=3, now=NOW, min_score=0.0)
    svc.close()
    return [t for call in server.calls for t in call] + [f"{h.path} {h.source}" for h in hits]


@pytest.mark.parametrize(
    ("mode", "embedded", "source"),
    [
        ("own", [QUESTION, *facets(QUESTION)], "hybrid"),
        ("question", [QUESTION], "hybrid"),  # the question's vector hits hold every line
        ("none", [QUESTION], "keyword"),
    ],
)
def test_each_named_thing_joins_the_top_whatever_its_vector_side(
    tmp_path: Path, embeddings_server: FakeEmbeddings, mode: str, embedded: list[str], source: str
) -> None:
    assert facets(QUESTION) == ["which sauce did we make with tomatoes", "basil"]
    root = garden(tmp_path / "r")
    plain = asked(embeddings_server, root, settings(embeddings_server, mode, decompose=False))
    assert not any("2026-10-" in p for p in plain[-3:])  # sauces only
    texts = asked(embeddings_server, root, settings(embeddings_server, mode))
    assert sorted(texts[:-3]) == sorted(embedded)  # each text once
    basil = [p for p in texts[-3:] if "2026-10-" in p]  # found by its facet
    assert len(basil) == 1 and basil[0].endswith(f" {source}")


def test_an_unknown_facet_vector_side_is_refused() -> None:
    with pytest.raises(UsageError, match="facet_vectors"):
        SearchSettings(facet_vectors="mine")  # type: ignore[arg-type]
