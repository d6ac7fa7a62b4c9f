"""The dream diary ``memory/dreams/YYYY-MM-DD.md``: a short narrative with counts,
in the notes' language. A second dream on the same day appends a new section."""

from __future__ import annotations

from datetime import datetime

from memory.dream.model import DreamInputs, DreamReport, Proposal, new_items
from memory.segment import has_cjk

SHOW = 5


def notes_language(inputs: DreamInputs) -> str:
    texts = [n.text for n in inputs.notes] or [i.text for i in inputs.memory.items]
    cjk = sum(1 for t in texts if has_cjk(t))
    return "zh" if texts and cjk * 2 >= len(texts) else "en"


def _quote(text: str, limit: int = 60) -> str:
    text = text if len(text) <= limit else text[: limit - 1] + "…"
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
    label = {
        "merged": ("合并", "Merged"),
        "added": ("新增", "Added"),
        "superseded": ("被新说法取代", "Superseded"),
        "archived": ("移入归档", "Archived"),
        "rejected": ("拒绝（无依据）", "Rejected (not grounded)"),
        "dropped": ("略过的闲聊", "Chatter left out"),
    }

    def head(key: str, count: int) -> str:
        zh_label, en_label = label[key]
        return f"- {zh_label}：{count} 条" if zh else f"- {en_label}: {count}"

    def more(shown: int, total: int) -> list[str]:
        if total <= shown:
            return []
        return [f"  - ……另有 {total - shown} 条" if zh else f"  - … and {total - shown} more"]

    lines.append(head("merged", report.merged))
    for item, folded in proposal.merges[:SHOW]:
        lines.append(f"  - {_quote(item.text)} ← {folded + 1} {'处' if zh else 'mentions'}")
    lines += more(min(SHOW, len(proposal.merges)), len(proposal.merges))
    lines.append(head("added", report.added))
    lines += [f"  - {_quote(i.text)}" for i in added[:SHOW]]
    lines += more(min(SHOW, len(added)), len(added))
    lines.append(head("superseded", report.superseded))
    lines += [
        f"  - {_quote(old.text)} → {_quote(new.text)}" for old, new in proposal.superseded[:SHOW]
    ]
    lines += more(min(SHOW, len(proposal.superseded)), len(proposal.superseded))
    lines.append(head("archived", report.archived))
    reasons: dict[str, int] = {}
    for _, reason in proposal.archive:
        reasons[reason] = reasons.get(reason, 0) + 1
    if reasons:
        named = [(ARCHIVE_REASONS.get(r, r) if zh else r, n) for r, n in sorted(reasons.items())]
        lines.append("  - " + ("，" if zh else ", ").join(f"{r}: {n}" for r, n in named))
    lines.append(head("rejected", report.rejected))
    # The rejected text itself is never written anywhere, not even here: only why.
    lines += [f"  - {_why(why, zh)}" for _, why in proposal.rejected[:SHOW]]
    lines += more(min(SHOW, len(proposal.rejected)), len(proposal.rejected))
    lines.append(head("dropped", proposal.dropped))
    lines.append("")
    if zh:
        lines.append(f"现在 MEMORY.md 有 {report.items} 条记忆。")
    else:
        noun = "item" if report.items == 1 else "items"
        lines.append(f"MEMORY.md now holds {report.items} {noun}.")
    return "\n".join(lines) + "\n"


ARCHIVE_REASONS = {"superseded": "被取代", "overflow": "超出上限", "pruned": "未被保留"}
REJECTION_REASONS = (
    ("cites a line that does not exist", "引用的行不存在"),
    ("cites a file that is not among the inputs", "引用的文件不在本次输入中"),
    ("cites a malformed reference", "引用格式不对"),
    ("cites no source", "没有引用来源"),
    ("not supported by its sources", "原文不支持这条内容"),
    ("the number", "数字在原文中找不到"),
    ("empty text", "内容为空"),
)


def _why(reason: str, zh: bool) -> str:
    if not zh:
        return reason
    for prefix, chinese in REJECTION_REASONS:
        if reason.startswith(prefix):
            return f"{chinese}（{reason}）"
    return reason


def append_entry(old: str, day: str, text: str) -> str:
    if not old.strip():
        old = f"# Dream Diary: {day}\n"
    return old.rstrip("\n") + "\n\n" + text
