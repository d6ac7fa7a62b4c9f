"""jieba's dictionary read on demand segments exactly as the dictionary loaded whole."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import jieba
import pytest

from memory import jieba_dict, segment

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "data"))
from zh_facts import FACTS, FILLER


@pytest.fixture(scope="module")
def whole() -> jieba.Tokenizer:
    tokenizer = jieba.Tokenizer()
    tokenizer.initialize()
    return tokenizer


def test_on_demand_segmentation_equals_the_whole_dictionary(whole: jieba.Tokenizer) -> None:
    texts = [f for f, _ in FACTS] + [q for _, q in FACTS] + FILLER
    texts += ["北京大学生前来应聘", "结婚的和尚未结婚的", "研究生命的起源", "乒乓球拍卖完了"]
    runs = [run for text in texts for run in segment._CJK.findall(text)]
    for run in runs:
        expected = [w for w in whole.lcut_for_search(run) if w.strip()]
        assert segment._cjk_words(run, for_search=True) == expected, run
        assert segment._cjk_words(run, for_search=False) == [
            w for w in whole.lcut(run) if w.strip()
        ]


def test_word_spans_equal_jiebas_tokenize_and_never_load_the_whole_dictionary(
    whole: jieba.Tokenizer,
) -> None:
    texts = ["老赵和小何谁的年纪大？", "A 和 B 哪个先举办", "北京大学生前来应聘", "乒乓球拍卖完了"]
    for text in texts + [q for _, q in FACTS]:
        for hmm in (True, False):
            assert segment.word_spans(text, hmm=hmm) == list(whole.tokenize(text, HMM=hmm))
    # query decomposition in a fresh process: jieba's default tokenizer stays unloaded
    probe = (
        "import jieba; from memory.search.facets import facets; "
        "assert facets('老赵和小何谁的年纪大') == ['老赵谁的年纪大', '小何谁的年纪大']; "
        "print(jieba.dt.initialized)"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"


def test_the_copy_is_built_once_into_the_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole: jieba.Tokenizer
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = jieba_dict.dictionary_path()
    assert path is not None and path.parent == tmp_path / "cowdream"
    assert jieba_dict.dictionary_path() == path  # found, not rebuilt
    frequencies = jieba_dict.LazyFrequencies(path)
    assert frequencies.total == whole.total
    for word in ("上海", "上", "静安区", "不存在的词语"):
        frequencies.prefetch(word)
        assert (word in frequencies) == (word in whole.FREQ)
        assert frequencies.get(word) == whole.FREQ.get(word)
    rows = sqlite3.connect(path).execute("SELECT COUNT(*) FROM freq").fetchone()[0]
    assert rows == len(whole.FREQ)
    frequencies.close()


def test_an_unwritable_cache_falls_back_to_the_next_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    path = jieba_dict.dictionary_path()
    assert path is not None and not str(path).startswith(str(blocked))
