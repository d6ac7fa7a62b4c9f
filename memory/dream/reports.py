"""Phase reports (``memory/dreaming/<phase>/YYYY-MM-DD.md``) and the diary's story of the
three phases, in the notes' language. Derived output: search does not index it and no
phase reads it as evidence. A second dream the same day appends a new section."""

from __future__ import annotations

from collections.abc import Sequence

from memory.dream.context import DreamContext
from memory.dream.promotion import Ranked
from memory.dream.short_term import Candidate
from memory.provenance import SourceRef

SHOW = 20
TITLES = {
    "light": ("Light Sleep", "浅睡"),
    "rem": ("REM Sleep", "快速眼动"),
    "deep": ("Deep Sleep", "深睡"),
}


def _refs(refs: Sequence[SourceRef], limit: int = 3) -> str:
    shown = ", ".join(str(r) for r in refs[:limit])
    return shown + (f" +{len(refs) - limit}" if len(refs) > limit else "")


def _quote(text: str, limit: int = 80) -> str:
    return "“" + (text if len(text) <= limit else text[: limit - 1] + "…") + "”"


def _more(shown: int, total: int, zh: bool) -> list[str]:
    if total <= shown:
        return []
    return [f"- ……另有 {total - shown} 条" if zh else f"- … and {total - shown} more"]


def light_section(ctx: DreamContext, zh: bool) -> str:
    light = ctx.state.light
    assert light is not None
    notes = len({n.path for n in ctx.inputs.notes})
    new = sum(1 for c in light.candidates if c.key not in ctx.short_term.candidates)
    if zh:
        head = (
            f"读了 {notes} 篇笔记（{len(ctx.inputs.notes)} 条）和 {len(ctx.recalls.recalls)} 次"
            f"检索召回；略过闲聊 {light.dropped} 条，合并重复说法 {light.merged} 条；"
            f"本次候选 {len(light.candidates)} 条（新增 {new} 条），暂存共 {light.staged} 条。"
        )
    else:
        head = (
            f"Read {notes} daily notes ({len(ctx.inputs.notes)} lines) and "
            f"{len(ctx.recalls.recalls)} recalls; left out {light.dropped} lines of chatter, "
            f"merged {light.merged} restatements; {len(light.candidates)} candidates this time "
            f"({new} new), {light.staged} staged in all."
        )
    lines = [head, ""]
    lines += [f"- {_candidate(c, zh)}" for c in light.candidates[:SHOW]]
    lines += _more(min(SHOW, len(light.candidates)), len(light.candidates), zh)
    if light.rejected:
        lines += ["", "被丢弃（原文已改动或被遗忘）：" if zh else "Dropped (source changed):"]
        lines += [f"- {_quote(c.text)}: {c.note}" for c in light.rejected[:SHOW]]
    for problem in _problems(ctx):
        lines += ["", f"⚠ {problem}"]
    return "\n".join(lines)


def _problems(ctx: DreamContext) -> list[str]:
    out = list(ctx.problems)
    if ctx.recalls.bad_lines:
        out.append(
            f"recall store: {ctx.recalls.bad_lines} unreadable line(s) skipped and set aside"
        )
    if ctx.short_term.problem:
        out.append(ctx.short_term.problem)
    return out


def _candidate(c: Candidate, zh: bool) -> str:
    if zh:
        counts = f"召回 {c.recall_count}，独立查询 {c.unique_queries}，置信 {c.confidence:.2f}"
    else:
        counts = (
            f"{c.recall_count} recalls, {c.unique_queries} unique queries, "
            f"confidence {c.confidence:.2f}"
        )
    return f"{_quote(c.text)} ({counts}; {c.status}) {_refs(c.refs)}"


def rem_section(ctx: DreamContext, zh: bool) -> str:
    rem = ctx.state.rem
    assert rem is not None
    if zh:
        lines = [
            f"回看最近 {rem.lookback} 天：主题 {len(rem.themes)} 个，可能的长期事实 "
            f"{len(rem.truths)} 条。",
            "",
        ]
    else:
        lines = [
            f"Looked back {rem.lookback} days: {len(rem.themes)} recurring themes, "
            f"{len(rem.truths)} possible lasting truths.",
            "",
        ]
    lines.append("### 主题" if zh else "### Themes")
    for theme in rem.themes:
        if zh:
            lines.append(
                f"- {theme.label}：{len(theme.keys)} 条候选，{theme.days} 天，"
                f"{theme.recalls} 次查询 {_refs(theme.refs)}"
            )
        else:
            lines.append(
                f"- {theme.label}: {len(theme.keys)} candidates over {theme.days} "
                f"days, {theme.recalls} queries {_refs(theme.refs)}"
            )
    lines.append("### 可能的长期事实" if zh else "### Possible lasting truths")
    for truth in rem.truths:
        lines.append(
            f"- {_quote(truth.text)} ({truth.days} {'天' if zh else 'days'}, "
            f"{truth.unique_queries} {'个查询' if zh else 'queries'}) {_refs(truth.refs)}"
        )
    if rem.reflections or rem.rejected or rem.model_note:
        lines.append("### 模型的反思" if zh else "### Reflections worded by the model")
        lines += [f"- {_quote(r.text, 160)} {_refs(r.refs)}" for r in rem.reflections]
        if rem.rejected:
            lines.append(
                f"- 拒绝 {len(rem.rejected)} 条无依据的反思："
                if zh
                else f"- rejected {len(rem.rejected)} ungrounded reflection(s):"
            )
            lines += [f"  - {why}" for why in rem.rejected[:SHOW]]
        if rem.model_note:
            lines.append(f"- ⚠ {rem.model_note}")
    return "\n".join(lines)


def _ranked(r: Ranked, zh: bool) -> str:
    mark = "✓" if r.passes else "·"
    label = "分" if zh else "score"
    return (
        f"{mark} {_quote(r.candidate.text)} {label} {r.score:.3f} "
        f"({r.evidence.recall_count}/{r.evidence.unique_queries}) {_refs(r.candidate.refs)}"
    )


def deep_section(ctx: DreamContext, zh: bool) -> str:
    deep = ctx.state.deep
    assert deep is not None and deep.decisions is not None
    t = ctx.options.thresholds
    gates = f"{t.min_score} / {t.min_recall_count} / {t.min_unique_queries}"
    if zh:
        head = (
            f"给 {len(deep.ranking)} 条候选打分（门槛 分数/召回/查询 = {gates}）；"
            f"{len(deep.decisions.promoted)} 条晋升进入 MEMORY.md（首次 {deep.promoted} 条），"
            f"{deep.competed} 条争夺 {ctx.inputs.max_items} 个位置。"
        )
    else:
        head = (
            f"Scored {len(deep.ranking)} candidates (thresholds score/recalls/queries = "
            f"{gates}); {len(deep.decisions.promoted)} promoted into MEMORY.md "
            f"({deep.promoted} for the first time); {deep.competed} items competed for "
            f"{ctx.inputs.max_items} places."
        )
    lines = [head, "", "### 排名" if zh else "### Ranking"]
    lines += [f"- {_ranked(r, zh)}" for r in deep.ranking[:SHOW]]
    lines += _more(min(SHOW, len(deep.ranking)), len(deep.ranking), zh)
    store = ctx.state.light.store if ctx.state.light else None
    for title, decided in (
        (("暂缓", "Deferred"), deep.decisions.deferred),
        (("拒绝", "Rejected"), deep.decisions.rejected),
    ):
        if decided and store is not None:
            lines.append(f"### {title[0] if zh else title[1]}")
            lines += [
                f"- {_quote(store.candidates[k].text)}: {why}"
                for k, why in sorted(decided.items())
                if k in store.candidates
            ]
    return "\n".join(lines)


SECTIONS = {"light": light_section, "rem": rem_section, "deep": deep_section}


def report(old: str, phase: str, day: str, ctx: DreamContext, zh: bool) -> str:
    """The report file of ``phase`` with this dream's section appended."""
    en, zh_title = TITLES[phase]
    if not old.strip():
        old = f"# {zh_title if zh else en}: {day}\n"
    section = f"## {zh_title if zh else en} ({ctx.now:%H:%M})\n\n{SECTIONS[phase](ctx, zh)}\n"
    return old.rstrip("\n") + "\n\n" + section


def story(ctx: DreamContext, zh: bool) -> str:
    """The diary's paragraph on the three phases."""
    light, rem, deep = ctx.state.light, ctx.state.rem, ctx.state.deep
    if light is None or rem is None or deep is None or deep.decisions is None:
        return ""
    promoted = [
        light.store.candidates[k].text
        for k in sorted(deep.decisions.promoted)
        if k in light.store.candidates
    ]
    themes = ("、" if zh else ", ").join(t.label for t in rem.themes[:3])
    quoted = ("；" if zh else "; ").join(_quote(t, 40) for t in promoted[:5])
    if zh:
        parts = [
            f"浅睡：从笔记和 {len(ctx.recalls.recalls)} 次检索召回中整理出 "
            f"{len(light.candidates)} 条候选，暂存 {light.staged} 条。",
            f"快速眼动：发现 {len(rem.themes)} 个反复出现的主题"
            + (f"（{themes}）" if themes else "")
            + f"和 {len(rem.truths)} 条可能的长期事实。",
            f"深睡：给 {len(deep.ranking)} 条候选打分，{len(promoted)} 条证据充分、晋升进入 "
            "MEMORY.md"
            + ("：" + "；".join(_quote(t, 40) for t in promoted[:5]) if promoted else "")
            + "。",
        ]
    else:
        parts = [
            f"Light: {len(light.candidates)} candidates from the notes and "
            f"{len(ctx.recalls.recalls)} recalls; {light.staged} staged.",
            f"REM: {len(rem.themes)} recurring themes"
            + (f" ({themes})" if themes else "")
            + f" and {len(rem.truths)} possible lasting truths.",
            f"Deep: scored {len(deep.ranking)} candidates; {len(promoted)} had the evidence to "
            "be promoted into MEMORY.md" + (f": {quoted}" if quoted else "") + ".",
        ]
    problems = _problems(ctx)
    if problems:
        parts.append(("注意：" if zh else "Note: ") + "; ".join(problems))
    return "\n".join(f"- {p}" for p in parts)
