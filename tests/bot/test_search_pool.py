"""The bot's search pool: one index per chat, few open at a time, one model for all."""

from __future__ import annotations

from pathlib import Path

from bot_support import BotFactory, base_config, owner

from bot.search_pool import SearchPool
from memory.paths import MemoryRoot

FACTS = "滑雪 游泳 爬山 钓鱼 下棋 跑步 骑车 摄影 烘焙 露营 潜水 冲浪".split()


def chat_roots(tmp_path: Path) -> list[MemoryRoot]:
    roots = []
    for n, fact in enumerate(FACTS):
        base = tmp_path / f"chat{n}"
        (base / "memory").mkdir(parents=True)
        (base / "memory/2026-11-28.md").write_text(f"- 用户{n}号喜欢{fact}\n", "utf-8")
        roots.append(MemoryRoot.at(base))
    return roots


def test_few_indexes_stay_open_and_a_closed_one_reopens_on_demand(tmp_path: Path) -> None:
    pool = SearchPool(base_config(tmp_path), max_open=3)
    roots = chat_roots(tmp_path)
    for n, root in enumerate(roots):
        hits = pool.search(root, FACTS[n], min_score=0.0)
        assert [h.snippet for h in hits] == [f"- 用户{n}号喜欢{FACTS[n]}"]
        assert pool.open_count() <= 3
        assert pool.search(root, FACTS[(n + 1) % len(FACTS)], min_score=0.0) == []
    first = pool.search(roots[0], FACTS[0], min_score=0.0)  # closed long ago: reopened
    assert [h.snippet for h in first] == [f"- 用户0号喜欢{FACTS[0]}"]
    pool.close()
    assert pool.open_count() == 0


def test_idle_indexes_are_closed(tmp_path: Path) -> None:
    pool = SearchPool(base_config(tmp_path), idle_seconds=0.0)
    roots = chat_roots(tmp_path)
    pool.search(roots[0], FACTS[0])
    pool.search(roots[1], FACTS[1])
    assert pool.open_count() == 1
    pool.close()


def test_a_vector_budget_closes_indexes_and_one_model_serves_every_chat(tmp_path: Path) -> None:
    pool = SearchPool(base_config(tmp_path, embedding_provider="local"), vector_budget=1)
    roots = chat_roots(tmp_path)[:3]
    for n, root in enumerate(roots):
        pool.search(root, FACTS[n])
        pool._services[str(root.path)][0].wait_for_vectors(60)
    pool.search(roots[0], FACTS[0])
    assert pool.open_count() == 1  # the others held vectors over the budget
    services = [service for service, _ in pool._services.values()]
    providers = {id(service._provider) for service in services}
    assert len(providers) == 1 and pool._provider is not None  # one model for every chat
    pool.close()


def test_a_dream_brings_an_open_index_up_to_date_before_the_next_question(
    make_bot: BotFactory,
) -> None:
    bot, channel = make_bot(language="en", embedding_provider="local")
    root = bot.services.scopes.root_for(owner("x").scope)
    root.notes_dir.mkdir(parents=True, exist_ok=True)
    (root.notes_dir / "2026-11-28.md").write_text(
        "# Daily Memory: 2026-11-28\n\n## Daily Summary (23:55)\n"
        "- 用户是护士，在利兹的医院上班\n- 用户对青霉素过敏\n",
        encoding="utf-8",
    )
    assert bot.handle(owner("/memory search 护士"))[0].startswith("Memory hits")
    (service, _) = bot.services.search._services[str(root.path)]
    service.wait_for_vectors(60)
    before = service.status()
    assert service._state is not None and "MEMORY.md" not in service._state.files

    assert bot.handle(owner("/memory dream"))[0].startswith("Dream started")
    assert bot.services.dreams.wait_idle(60)
    assert channel.wait_for(1)[-1][1].startswith("Dream done")
    service.wait_for_vectors(60)
    after = service.status()  # counts only: no search has run since the dream
    assert "MEMORY.md" in service._state.files  # read and embedded already
    assert after["chunks"] > before["chunks"] and after["pending"] == 0
