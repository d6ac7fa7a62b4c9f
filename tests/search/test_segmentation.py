from memory.search.chunker import ChunkerConfig, chunk_text
from memory.search.keyword_index import index_tokens, query_terms
from memory.search.stemming import stem


def test_chinese_is_segmented_in_search_mode() -> None:
    words = index_tokens("用户下周三要去上海出差")
    assert "上海" in words and "出差" in words


def test_identifiers_stay_whole_and_also_split() -> None:
    words = index_tokens("Set OPENAI_API_KEY and retry ECONNREFUSED on v2.3")
    assert {"openai_api_key", "openai", "api", "key", "v2.3"} <= set(words)
    # stemmed identically at index and query time, so the exact string still matches
    assert query_terms("ECONNREFUSED") == [w for w in words if w.startswith("econnrefus")]


def test_query_terms_drop_stopwords_and_repeat() -> None:
    assert query_terms("When did the user go to 上海 上海?") == ["user", "go", "上海"]
    assert query_terms("the") == ["the"]  # nothing else left: keep what there is


def test_stemmer_is_light_and_consistent() -> None:
    assert [stem(w) for w in ["painted", "painting", "paints", "stories", "classes"]] == [
        "paint",
        "paint",
        "paint",
        "story",
        "class",
    ]
    assert stem("api_key") == "api_key" and stem("上海") == "上海" and stem("bus") == "bus"


def test_dialogue_turns_group_by_three_and_notes_by_two() -> None:
    turns = "\n".join(f"- [D1:{i}] Ann: turn {i}" for i in range(1, 7))
    assert [(c.start_line, c.end_line) for c in chunk_text("memory/a.md", turns)] == [
        (1, 3),
        (4, 6),
    ]
    notes = "\n".join(f"- 事实 {i}" for i in range(1, 5))
    assert [(c.start_line, c.end_line) for c in chunk_text("memory/a.md", notes)] == [
        (1, 2),
        (3, 4),
    ]
    group = "- 张三：明天开会\n- 李四：好的\n- 张三：带电脑\n"
    assert len(chunk_text("memory/a.md", group)) == 1


def test_overlap_shares_lines_between_chunks() -> None:
    text = "\n".join(f"- fact {i}" for i in range(1, 6))
    config = ChunkerConfig(max_lines=3, overlap=1)
    assert [(c.start_line, c.end_line) for c in chunk_text("m.md", text, config)] == [
        (1, 3),
        (3, 5),
    ]
