"""Whether a withheld question's gold answer is still in the memory (the eval's diagnostic)."""

import json
from pathlib import Path

from memory.search.eval import evaluate
from memory.search.gold_answer import (
    AnswerFound,
    answer_items,
    answer_words,
    content_lines,
    find_answer,
    holders,
    said,
)
from memory.search.service import SearchSettings


def test_answer_words_are_stemmed_content_words() -> None:
    assert answer_words("Two cats and a dog") == ("two", "cats", "dog")
    assert answer_words("Paintings, of the Sunsets!") == ("painting", "sunset")
    assert answer_words(2022) == ("2022",)
    assert answer_words("周大福的项链") == ("周大福", "项链")
    assert answer_words("Likely yes, she loves painting") == ("love", "paint")
    assert answer_words(None) == () and answer_words("No") == () and answer_words("Yes") == ()


def test_answer_items_split_a_list_answer() -> None:
    assert answer_items("Kickboxing, Taekwondo") == [("kickbox",), ("taekwondo",)]
    assert answer_items("pottery, painting, and camping") == [("pottery",), ("paint",), ("camp",)]
    assert answer_items("Pepper and Salt") == [("pepper",), ("salt",)]
    assert answer_items("a sunset with a palm tree") == []  # one item: not a list
    assert answer_items("上海、杭州") == [("上海",), ("杭州",)]


def test_strict_needs_one_line_with_every_word_loose_most() -> None:
    lines = said(["Ann: I bought a red bicycle", "Ann: my bike is blue"])
    assert find_answer("red bicycles", lines) == AnswerFound(True, True)
    # one of the two words in each line: neither all nor most in one line
    assert find_answer("blue bicycle", lines) == AnswerFound(False, False)
    # two of three words in one line: most, not all
    assert find_answer("red bicycle helmet", lines) == AnswerFound(False, True)
    # a word inside another is not the word ("art" in "party")
    assert find_answer("art", said(["we had a party"])) == AnswerFound(False, False)
    # Chinese words are looked for as substrings of the line
    assert find_answer("周大福的项链", said(["- 我送了苏晴一条周大福项链"])) == AnswerFound(
        True, True
    )
    assert find_answer("Yes", lines) is None and find_answer(None, lines) is None


def test_a_list_answer_is_strict_when_each_item_is_said_somewhere() -> None:
    lines = said(["John: I started kickboxing", "John: taekwondo is tough", "Maria: hi"])
    assert find_answer("Kickboxing, Taekwondo", lines) == AnswerFound(True, True)
    assert find_answer("Kickboxing, Judo", lines) == AnswerFound(False, False)
    assert [h.text for h in holders("Kickboxing, Taekwondo", lines)] == [
        "john: i started kickboxing",
        "john: taekwondo is tough",
    ]


def test_content_lines_skip_headings_blanks_and_comments(tmp_path: Path) -> None:
    (tmp_path / "memory").mkdir()
    (tmp_path / "MEMORY.md").write_text("# MEMORY\n\n- Lives in Porto <!-- src: x#L1 -->\n")
    (tmp_path / "memory" / "2026-01-02.md").write_text("# Daily Memory: 2026-01-02\n\n- tea\n")
    assert content_lines(tmp_path) == ["- Lives in Porto", "- tea"]


SESSION_1 = """# Daily Memory: 2026-03-01

## Session 1 (10:00)

- [D1:1] Ann: I adopted two kittens from the shelter yesterday.
- [D1:2] Bob: Lovely! What are their names?
- [D1:3] Ann: Pepper and Salt. They climb the curtains all day.
- [D1:4] Bob: I started painting watercolours last month.
- [D1:5] Ann: My sister Clara moved to Lisbon for work.
"""
SESSION_2 = """# Daily Memory: 2026-03-08

## Session 2 (18:00)

- [D2:1] Ann: Pepper and Salt knocked over my plant again!
- [D2:2] Bob: My watercolours are getting better.
- [D2:3] Ann: I baked sourdough bread this weekend.
"""


def _question(number: int, question: str, answer: object, line: int) -> str:
    evidence = [{"file": "memory/2026-03-01.md", "line": line}]
    record = {"qid": str(number), "question": question, "answer": answer, "evidence": evidence}
    return json.dumps(record)


def test_eval_splits_no_match_by_whether_the_answer_is_still_there(tmp_path: Path) -> None:
    root = tmp_path / "conv"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2026-03-01.md").write_text(SESSION_1)
    (root / "memory" / "2026-03-08.md").write_text(SESSION_2)
    (root / "last_date").write_text("2026-03-08\n")
    # every 4th question (0, 4, 8) is withheld: its evidence line is deleted from a copy
    questions = [
        (0, "What are the names of Ann's kittens?", "Pepper and Salt", 7),  # said again (D2:1)
        (1, "What does Bob paint?", "watercolours", 8),
        (2, "What did Ann adopt?", "two kittens", 5),
        (3, "What does Bob paint?", "watercolours", 8),
        (4, "Which city did Clara move to?", "Lisbon", 9),  # said only there: gone
        (5, "What did Ann adopt?", "two kittens", 5),
        (6, "What did Ann adopt?", "two kittens", 5),
        (7, "What did Ann adopt?", "two kittens", 5),
        (8, "What did Bob ask Ann?", None, 6),  # no gold answer: not tested
    ]
    (root / "qa.jsonl").write_text("\n".join(_question(*q) for q in questions) + "\n")
    result = evaluate(root, SearchSettings(provider="none"), tmp_path / "work")
    assert result["no_match_questions"] == 3  # the count no_match is over, as before
    assert result["no_match_answer_tested"] == 2
    assert result["no_match_answer_in_root"] == 2
    assert result["no_match_answer_present"] == 1 and result["no_match_answer_present_loose"] == 1
    assert result["no_match_absent_questions"] == 1 and result["no_match_absent"] == 1.0
    assert result["no_match_present_questions"] == 1 and result["no_match_present"] == 0.0
