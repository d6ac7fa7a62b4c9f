"""The dream diary ``memory/dreams/YYYY-MM-DD.md``: a short narrative with counts,
in the notes' language. A second dream on the same day appends a new section."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from memory.conflicts import open_conflicts
from memory.dream.model import DreamInputs, DreamReport, Proposal, new_items
from memory.segment import has_cjk


def notes_language(inputs: DreamInputs) -> str:
    texts = [n.text for n in inputs.notes] or [i.text for i in inputs.memory.items]
    cjk = sum(1 for t in texts if has_cjk(t))
    return "zh" if texts and cjk * 2 >= len(texts) else "en"


def _quote(text: str) -> str:
    return f"“{text}”"


def entry(
    inputs: DreamInputs, proposal: Proposal, report: DreamReport, now: datetime, days: int
) -> str:
    zh = notes_language(inputs) == "zh"
    note_count = len({n.path for n in inputs.notes})
    lines = [f"## Deep Dream ({now:%H:%M}, {report.engine})", ""]
    if zh:
        lines.append(
            f"回顾了最近 {days} 天的 {note_count} 篇笔记（{len(inputs.notes)} 条记录）"
            f"和 MEMORY.md 里的 {len(inputs.prior)} 条记忆。"
        )
    else:
        lines.append(
            f"Looked back over {note_count} daily notes from the last {days} days "
            f"({len(inputs.notes)} lines) and {len(inputs.prior)} items in MEMORY.md."
        )
    if proposal.model_diary:
        lines += ["", proposal.model_diary]
    lines.append("")
    added = new_items(inputs.prior, proposal.keep)
    out = _Lines(zh)
    out.head("merged", report.merged)
    out.items(
        f"{_quote(i.text)} ← {n + 1} {'处' if zh else 'mentions'}" for i, n in proposal.merges
    )
    out.head("added", report.added)
    back = {ref for item, _ in proposal.returned for ref in item.sources}
    out.items(_quote(i.text) for i in added if not set(i.sources) <= back)
    if proposal.returned:
        out.head("returned", len(proposal.returned))
        out.items(f"{_quote(i.text)} ({_moved(why, zh)})" for i, why in proposal.returned)
    if proposal.rewrites:
        out.head("reworded", len(proposal.rewrites))
        out.items(f"{_quote(old.text)} → {_quote(new.text)}" for old, new in proposal.rewrites)
    out.head("superseded", report.superseded)
    out.items(f"{_quote(old.text)} → {_quote(new.text)}" for old, new in proposal.superseded)
    out.head("archived", report.archived)
    for reason in sorted({r for _, r in proposal.archive}):
        name = ARCHIVE_REASONS.get(reason, (reason, reason))[0 if zh else 1]
        out.items(
            (f"{name}：{_quote(i.text)}" if zh else f"{name}: {_quote(i.text)}")
            + (f" ({_moved(proposal.why[i], zh)})" if i in proposal.why else "")
            for i, r in proposal.archive
            if r == reason
        )
    out.head("rejected", report.rejected)
    out.items(
        f"{_quote(text)}：{_why(why, zh)}" if zh else f"{_quote(text)}: {why}"
        for text, why in proposal.rejected
    )
    if report.engine == "llm":
        out.head("corrected", proposal.corrected)
    out.head("dropped", proposal.dropped)
    conflicts = open_conflicts(proposal.keep)
    if conflicts:
        out.head("conflicts", len(conflicts))
        out.items(f"{c.id}: " + " ↔ ".join(_quote(i.text) for i in c.items) for c in conflicts)
    lines += out.lines
    if proposal.fit is not None:
        lines += ["", _budget_line(proposal, report, zh)]
    lines.append("")
    if zh:
        lines.append(f"现在 MEMORY.md 有 {report.items} 条记忆。")
    else:
        noun = "item" if report.items == 1 else "items"
        lines.append(f"MEMORY.md now holds {report.items} {noun}.")
    return "\n".join(lines) + "\n"


LABELS = {
    "merged": ("合并", "Merged"),
    "returned": ("从归档回到 MEMORY.md", "Back from the archive"),
    "added": ("新增", "Added"),
    "reworded": ("改写", "Reworded"),
    "superseded": ("被新说法取代", "Superseded"),
    "archived": ("移入归档", "Archived"),
    "rejected": ("拒绝", "Rejected"),
    "corrected": ("经检查修正或拒绝的模型条目", "Model items corrected or rejected by the checks"),
    "dropped": ("略过的闲聊", "Chatter left out"),
    "conflicts": (
        "未决的矛盾（都保留，等人来定：/memory resolve）",
        "Open conflicts (both kept until a person decides: /memory resolve)",
    ),
}


class _Lines:
    """The diary's list: a count per heading, then every item it names (in full: the
    diary file keeps the whole list; a chat message may shorten it)."""

    def __init__(self, zh: bool) -> None:
        self.zh = zh
        self.lines: list[str] = []

    def head(self, key: str, count: int) -> None:
        zh_label, en_label = LABELS[key]
        self.lines.append(f"- {zh_label}：{count} 条" if self.zh else f"- {en_label}: {count}")

    def items(self, texts: Iterable[str]) -> None:
        self.lines += [f"  - {t}" for t in texts]


ARCHIVE_REASONS = {
    "superseded": ("被取代", "superseded"),
    "overflow": ("超出上限", "overflow"),
    "pruned": ("未被保留", "pruned"),
    "expired": ("已过期", "expired"),
    "merged": ("并入另一条", "merged"),
    "chatter": ("闲聊", "chatter"),
    "cold": ("久未使用", "cold"),
    "budget": ("超出篇幅预算", "over the token budget"),
    "tightened": ("精简前的原文", "tightened"),
    "conflict-dropped": ("解决矛盾时舍弃", "dropped when a conflict was resolved"),
}
REJECTION_REASONS = (
    ("cites a line that does not exist", "引用的行不存在"),
    ("cites a file that is not among the inputs", "引用的文件不在本次输入中"),
    ("cites a malformed reference", "引用格式不对"),
    ("cites no source", "没有引用来源"),
    ("not supported by its sources", "原文不支持这条内容"),
    ("the number", "数字在原文中找不到"),
    ("empty text", "内容为空"),
    ("chatter, not a lasting fact", "闲聊，不是长期事实"),
    ("an older value beside its replacement", "旧值，已有新说法"),
)


def _moved(why: str, zh: bool) -> str:
    """Why an item moved between the tiers, in the diary's language."""
    if not zh:
        return why
    numbers = re.findall(r"\d{4}-\d{2}-\d{2}|\d+", why)
    if why.startswith("used ") and len(numbers) >= 2:
        return f"最近 {numbers[1]} 天用了 {numbers[0]} 次"
    if why.startswith("no use") and len(numbers) >= 2:
        return f"{numbers[0]} 天没有用到、查到或提起（自 {numbers[1]}）"
    if why.startswith("over the budget"):
        return f"超出预算；最近一次用到或提起是 {numbers[0]}" if numbers else "超出预算"
    if why.startswith("tightened"):
        quoted = re.findall(r"“[^”]*”", why)
        return f"MEMORY.md 里精简为{quoted[0]}" if quoted else "已精简"
    return why


def _budget_line(proposal: Proposal, report: DreamReport, zh: bool) -> str:
    fit = proposal.fit
    assert fit is not None
    share = round(100 * report.tokens / fit.budget) if fit.budget else 0
    if zh:
        line = f"篇幅：约 {report.tokens} 个估算 token，预算 {fit.budget}（{share}%）。"
        if fit.moved:
            line = (
                f"MEMORY.md 约 {fit.before} 个估算 token，超出预算 {fit.budget}："
                f"移入归档 {len(fit.demoted)} 条，精简 {len(fit.tightened)} 条；"
                f"现在约 {report.tokens}（{share}%）。"
            )
        return line
    if fit.moved:
        return (
            f"MEMORY.md held about {fit.before} estimated tokens, over its budget of "
            f"{fit.budget}: {len(fit.demoted)} moved to the archive, {len(fit.tightened)} "
            f"tightened; now about {report.tokens} ({share} %)."
        )
    return f"Size: about {report.tokens} estimated tokens of a budget of {fit.budget} ({share} %)."


def _why(reason: str, zh: bool) -> str:
    """The reason in the diary's language (Chinese reasons carry no English)."""
    if not zh:
        return reason
    for prefix, chinese in REJECTION_REASONS:
        if reason.startswith(prefix):
            detail = reason[len(prefix) :].strip(" :()")
            quoted = re.findall(r"“[^”]*”", detail)
            number = re.findall(r"\d+(?:\.\d+)?", detail)
            if quoted:
                return f"{chinese}{quoted[0]}"
            ref = re.findall(r"\S+#L\d+(?:-L?\d+)?|\S+\.md", detail)
            if ref:
                return f"{chinese}（{ref[0]}）"
            if number and prefix in ("not supported by its sources", "the number"):
                return f"{chinese}（{number[0]}）"
            return chinese
    return "其他原因"


def append_entry(old: str, day: str, text: str) -> str:
    if not old.strip():
        old = f"# Dream Diary: {day}\n"
    return old.rstrip("\n") + "\n\n" + text
