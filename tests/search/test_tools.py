import os
from datetime import date

import pytest

from memory.paths import MemoryRoot
from memory.search.service import MemorySearch, SearchSettings
from memory.search.tools import TOOL_SCHEMAS, memory_get, memory_search


def test_schemas_name_both_tools() -> None:
    names = [t["function"]["name"] for t in TOOL_SCHEMAS]
    assert names == ["memory_search", "memory_get"]
    assert TOOL_SCHEMAS[0]["function"]["parameters"]["required"] == ["query"]


def test_memory_search_returns_json_ready_hits(root: MemoryRoot) -> None:
    svc = MemorySearch(root, SearchSettings(provider="none"))
    result = memory_search(svc, "上海出差", max_results=3)
    assert result["provider"] == "none"
    first = result["results"][0]
    assert set(first) == {"path", "start_line", "end_line", "score", "snippet", "source"}
    assert first["path"] == "memory/2026-11-28.md"
    assert memory_search(svc, "  ")["error"] == "empty search query"
    assert memory_search(svc, "xyzzy", min_score=0)["results"] == []
    svc.close()


def test_memory_get_reads_lines_without_comments(root: MemoryRoot) -> None:
    got = memory_get(root, "MEMORY.md", start_line=4, num_lines=1)
    assert got == {
        "path": "MEMORY.md",
        "start_line": 4,
        "end_line": 4,
        "total_lines": 5,
        "text": "- 用户偏好美式咖啡，不加糖",
    }
    assert memory_get(root, "memory/2026-10-01.md", 5, 100)["end_line"] == 6
    assert memory_get(root, "memory/dreams/2026-11-28.md")["start_line"] == 1


@pytest.mark.parametrize(
    "path",
    [
        "../etc/passwd",
        "/etc/passwd",
        "memory/../../outside.md",
        "scopes/other/MEMORY.md",
        "notes.md",
        "memory/.dreams/state.md",
        "memory/.index/search.sqlite",
        "memory/missing.md",
        "",
        "MEMORY.md\x00",
    ],
)
def test_memory_get_refuses_anything_else(root: MemoryRoot, path: str) -> None:
    got = memory_get(root, path)
    assert "error" in got and "text" not in got


def test_memory_get_refuses_symlink_escaping_the_root(root: MemoryRoot, tmp_path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("- secret\n", "utf-8")
    os.symlink(secret, root.path / "memory" / "link.md")
    assert "error" in memory_get(root, "memory/link.md")


def test_memory_get_rejects_bad_numbers(root: MemoryRoot) -> None:
    assert "error" in memory_get(root, "MEMORY.md", start_line=0)
    assert "error" in memory_get(root, "MEMORY.md", num_lines=-3)


def test_memory_search_reports_unavailable_provider(root: MemoryRoot) -> None:
    svc = MemorySearch(root, SearchSettings(provider="openai"))
    result = memory_search(svc, "上海")
    assert result["results"] == [] and "unavailable" in result["error"]
    svc.close()
    _ = date
