"""memory.segment.warm: the Chinese runs of many texts cut in one pass, exactly as tokens()
would cut them one text at a time."""

from __future__ import annotations

import pytest

from memory import segment

TEXTS = [
    "用户喜欢拿铁，不加糖",
    "用户下周三要去上海出差，住在静安区",
    "The user's colleague 张伟 works on the Q3 budget",
    "用户对花生过敏",
    "ok thanks!",
]


def _clear() -> None:
    segment._runs.clear()
    segment._tokens.cache_clear()
    segment._content_words.cache_clear()


def test_warm_cuts_each_run_once_and_tokens_are_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear()
    expected = [segment.tokens(t) for t in TEXTS]
    words = [segment.content_words(t) for t in TEXTS]
    _clear()
    tokenizer = segment._ensure_jieba()
    cuts: list[str] = []
    real = tokenizer.lcut

    def counted(run: str, *args: object, **kwargs: object) -> list[str]:
        cuts.append(run)
        return real(run, *args, **kwargs)

    monkeypatch.setattr(tokenizer, "lcut", counted)
    segment.warm(TEXTS)
    runs = {run for text in TEXTS for run in segment._CJK.findall(text)}
    assert sorted(cuts) == sorted(runs)  # every run cut once, by the one pass
    assert [segment.tokens(t) for t in TEXTS] == expected
    assert [segment.content_words(t) for t in TEXTS] == words
    assert sorted(cuts) == sorted(runs)  # tokens() found every run already cut
    segment.warm(["no chinese here"])  # nothing to cut
    assert len(cuts) == len(runs)
