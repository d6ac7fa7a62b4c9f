"""``/memory people [name]`` and ``/memory people rebuild <name>``: the people of a group
and one person's card with its sources; an admin may have a card regenerated."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import Translator
from memory.errors import Busy
from memory.people.directory import Directory, Person, load_directory
from memory.people.limits import people_on
from memory.people.view import CardView, card_view, people_view, prompt_card
from plugins.events import ChatContext

if TYPE_CHECKING:
    from bot.services import BotServices


def people_command(services: BotServices, ctx: ChatContext, rest: str) -> str:
    tr = ctx.lang
    if not people_on(services.config.people_enabled, ctx.scope.is_group):
        return tr.t("people.off")
    words = rest.split(maxsplit=1)
    if words and words[0].lower() in {"rebuild", "forget"}:
        if len(words) < 2:
            return tr.t("commands.usage_people")
        if not ctx.is_admin:
            return tr.t("commands.refused")
        if words[0].lower() == "forget":
            return _forget(ctx, words[1].strip())
        return _rebuild(services, ctx, words[1].strip())
    directory = load_directory(ctx.root)
    if not rest:
        return _list(ctx, directory)
    found = _one(tr, directory, rest)
    if isinstance(found, str):
        return found
    return card_text(tr, card_view(ctx.root, found))


def _one(tr: Translator, directory: Directory, name: str) -> Person | str:
    matches = directory.find(name)
    if not matches:
        return tr.t("people.no_match", name=tr.quote(name))
    if len(matches) > 1:
        names = tr.join([p.label for p in matches])
        return tr.t("people.ambiguous", name=tr.quote(name), names=names)
    return matches[0]


def _list(ctx: ChatContext, directory: Directory) -> str:
    tr = ctx.lang
    view = people_view(ctx.root, directory)
    if not any(p.lines for p in view.people):
        return tr.t("people.none")
    lines = [tr.t("people.head", n=len(view.people))]
    for person in view.people:
        conflicts = person.open_count
        suffix = tr.t("people.open_suffix", open=tr.t("count.open", n=conflicts))
        lines.append(
            tr.t(
                "people.line",
                name=person.name,
                lines=tr.t("count.card_line", n=len(person.lines)),
                open=suffix if conflicts else "",
            )
        )
    return "\n".join(lines)


def card_text(tr: Translator, view: CardView) -> str:
    if not view.lines:
        return tr.t("people.card_empty", name=view.name)
    out = [tr.t("people.card_head", name=view.name, id=view.id)]
    for line in view.lines:
        out.append(tr.t("people.card_line", text=line.text, sources="; ".join(line.sources)))
        for conflict in line.open:
            sources = "; ".join(conflict.sources)
            out.append(tr.t("people.open_line", text=conflict.text, sources=sources))
    if view.inductions:
        out.append(tr.t("people.inductions", n=len(view.inductions)))
    return "\n".join(out)


def _forget(ctx: ChatContext, query: str) -> str:
    """``forget NAME`` shows what would go; ``forget NAME confirm`` deletes it."""
    from memory.people.forget_person import forget_person, plan_forget_person

    tr = ctx.lang
    name, _, last = query.rpartition(" ")
    confirmed = last.lower() == "confirm" and bool(name.strip())
    wanted = name.strip() if confirmed else query
    found = _one(tr, load_directory(ctx.root), wanted)
    if isinstance(found, str):
        return found
    if not confirmed:
        plan = plan_forget_person(ctx.root, found)
        lines = tr.t("count.line", n=plan.lines)
        return tr.t("people.forget_plan", name=found.name, lines=lines, query=wanted)
    try:
        forget_person(ctx.root, found.slug)
    except Busy:
        return tr.t("people.busy")
    return tr.t("people.forgotten", name=found.name)


def _rebuild(services: BotServices, ctx: ChatContext, name: str) -> str:
    from memory.dream.state import root_lock
    from memory.people.phase import rebuild

    tr = ctx.lang
    found = _one(tr, load_directory(ctx.root), name)
    if isinstance(found, str):
        return found
    config = services.config
    model = services.model if config.dream_engine != "extractive" else None
    try:
        with root_lock(ctx.root, blocking=False):
            counts = rebuild(
                ctx.root,
                found.slug,
                ctx.now.date().isoformat(),
                config.people_limits,
                model=model,
            )
    except Busy:
        return tr.t("people.busy")
    lines = tr.t("count.card_line", n=counts.carded)
    return tr.t("people.rebuilt", name=found.name, lines=lines)


CARD_PROMPT_CHARS = 1200


def speaker_card_block(services: BotServices, ctx: ChatContext) -> str:
    """The prompt block with the speaker's card ("" when they have none): this chat's
    card only, never the ledger, and only in a chat that keeps people knowledge."""
    from bot.people import speaker

    if not people_on(services.config.people_enabled, ctx.scope.is_group):
        return ""
    person = speaker(ctx.message, ctx.root)
    if person is None:
        return ""
    view = card_view(ctx.root, person)
    body = prompt_card(view, CARD_PROMPT_CHARS)
    if not body:
        return ""
    return (
        f"What this chat has recorded about {person.label}, who wrote the last message "
        "(each line: who said it, and what; an unresolved line is a conflicting account "
        f"nobody has settled, so do not pick one):\n{body}"
    )
