"""The grounding verifier: a generated item must cite existing lines that support it.

A cited line is a daily-note bullet or a session-log turn (``sessions/DATE.jsonl#Ln``: what
its speaker said). Support is measured as the share of the item's content words
(jieba-segmented) and, for Chinese, of its character pairs, found in the cited lines (both
read as Simplified Mandarin: :func:`memory.plain_chinese.plain`); digits
in the item must occur in the sources. An optional embedding similarity rescues paraphrases
that share fewer words.
Pure functions over the dream's inputs; nothing here does I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from memory.dream.judge.dates import find
from memory.dream.model import DreamInputs
from memory.plain_chinese import plain
from memory.provenance import SourceRef, compress_refs, strip_comments
from memory.segment import content_words
from memory.session_log import is_session_path, statement

SUPPORT_THRESHOLD = 0.6
EMBEDDING_RESCUE = (0.4, 0.86)  # (minimum word support, minimum cosine similarity)
_GENERIC = re.compile(
    r"(?i)用户|\bthe user\b|\buser\b|\busers\b"
    # modifiers a faithful restatement adds ("用户现在喝拿铁，不再喝美式"): not content
    r"|现在|目前|如今|最近|已经|不再|一直|总是|还是|\bnow\b|\bcurrently\b|\brecently\b"
    r"|\bstill\b|\balways\b|\bno longer\b|\banymore\b"
)
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
_NUMBER = re.compile(r"\d+(?:[.:]\d+)?")
_BULLET_PREFIX = re.compile(r"^\s*[-*+]\s+")

Similarity = Callable[[str, str], float]


@dataclass(frozen=True)
class Verdict:
    ok: bool
    support: float
    reason: str = ""


def cited_text(refs: Sequence[SourceRef], inputs: DreamInputs) -> tuple[list[str], str | None]:
    """The text of every cited line, or the first reference that does not exist."""
    texts = []
    for ref in refs:
        lines = inputs.lines.get(ref.path)
        if lines is None:
            return [], f"cites a file that is not among the inputs: {ref}"
        session = is_session_path(ref.path)
        for number in ref.lines():
            raw = lines[number - 1] if number <= len(lines) else ""
            said = statement(raw) if session else raw.strip()
            if not said:
                return [], f"cites a line that does not exist: {ref.path}#L{number}"
            texts.append(plain(said if session else strip_comments(_BULLET_PREFIX.sub("", raw))))
    return texts, None


def _grams(text: str) -> set[str]:
    grams: set[str] = set()
    for run in _CJK_RUN.findall(text):
        grams.update(run[i : i + 2] for i in range(len(run) - 1))
    return grams


def support(item: str, sources: Sequence[str], dated: frozenset[str] = frozenset()) -> float:
    """Share of ``item``'s content (words, or Chinese character pairs) found in ``sources``.

    ``dated`` holds the numbers of the dates the sources name relatively (:func:`dated_numbers`):
    an item that writes "今年" as "2026年" says nothing its lines do not.
    """
    item_core = _GENERIC.sub(" ", plain(item))
    source = _GENERIC.sub(" ", plain(" ".join(sources)))
    words = set(content_words(item_core))
    if not words:
        return 0.0
    source_words = set(content_words(source)) | dated
    word_share = len(words & source_words) / len(words)
    grams = _grams(item_core)
    gram_share = len(grams & _grams(source)) / len(grams) if grams else 0.0
    return max(word_share, gram_share)


def _resolved_numbers(
    refs: Sequence[SourceRef], sources: Sequence[str], inputs: DreamInputs
) -> frozenset[str]:
    """:func:`dated_numbers` of the cited lines, read on the day of the latest cited note."""
    cited = {r.path for r in refs}
    days = [n.day for n in inputs.notes if n.path in cited]
    return dated_numbers(sources, max(days) if days else inputs.today)


def dated_numbers(sources: Sequence[str], anchor: date) -> frozenset[str]:
    """The numbers of the dates ``sources`` name, read on ``anchor`` ("明天" in a note of
    2026-11-24 gives 2026, 11, 25): an item may write a relative date as the absolute one."""
    out: set[str] = set()
    for span in find(plain(" ".join(sources)), anchor):
        for day in (span.first, span.last):
            out.update({str(day.year), f"{day.month:02d}", str(day.month), f"{day.day:02d}"})
            out.add(str(day.day))
    return frozenset(out)


def verify(
    text: str,
    refs: Sequence[SourceRef],
    inputs: DreamInputs,
    similarity: Similarity | None = None,
) -> Verdict:
    """Accept ``text`` only if every cited line exists and together they support it."""
    text = plain(text)  # read as its sources are (:func:`cited_text`)
    if not text.strip():
        return Verdict(False, 0.0, "empty text")
    if not refs:
        return Verdict(False, 0.0, "cites no source")
    sources, missing = cited_text(refs, inputs)
    if missing:
        return Verdict(False, 0.0, missing)
    joined = " ".join(sources)
    dated = _resolved_numbers(refs, sources, inputs)
    for number in _NUMBER.findall(text):
        if number not in joined and number not in dated:
            return Verdict(False, 0.0, f"the number {number} is not in its sources")
    share = support(text, sources, dated)
    if share >= SUPPORT_THRESHOLD:
        return Verdict(True, share)
    rescue_floor, rescue_cosine = EMBEDDING_RESCUE
    if (
        similarity is not None
        and share >= rescue_floor
        and similarity(text, joined) >= rescue_cosine
    ):
        return Verdict(True, share)
    return Verdict(False, share, f"not supported by its sources (support {share:.2f})")


def split_sources(
    kept: str, retired: str, refs: Sequence[SourceRef], inputs: DreamInputs
) -> tuple[tuple[SourceRef, ...], tuple[SourceRef, ...]]:
    """The lines of ``refs`` each half of an item split in two cites: a line that says the
    ``retired`` half more than the ``kept`` one goes with it ("Rolo weighs 14 kg" of "The
    user has a beagle called Rolo; Rolo weighs 14 kg"), the rest stay, when each half is
    still supported by its own lines; else both halves cite every line (a prior item's lines
    outside the window, or a line that says both halves)."""
    whole = tuple(refs)
    lines = [SourceRef(r.path, n, n) for r in refs for n in r.lines()]
    said = [cited_text([line], inputs) for line in lines]
    if any(missing for _, missing in said):
        return whole, whole
    stays = [
        line
        for line, (text, _) in zip(lines, said, strict=True)
        if support(kept, text) >= support(retired, text)
    ]
    goes = [line for line in lines if line not in stays]
    if not stays or not goes:
        return whole, whole
    if not (verify(kept, stays, inputs).ok and verify(retired, goes, inputs).ok):
        return whole, whole
    return compress_refs(stays), compress_refs(goes)
