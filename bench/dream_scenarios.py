"""Labelled dream scenarios (``bench/data/dream/{dev,heldout}/*.md``): parsing and set-up.

A scenario file is YAML front matter, then daily notes, each bullet labelled after `` // ``::

    ---
    title: A private chat in Chinese, written as LLM summaries
    today: 2026-11-29        # the evening of the (last) dream
    mode: once               # once: one dream over `days`; nightly: a dream every note day
    days: 7                  # the window of each dream
    max_items: 30
    tags: [zh, private, llm_summary]
    ---

    ## 2026-11-25
    ### Daily Summary (23:55)
    - 用户叫王小明，是一名软件工程师 // fact name: 王小明 ; fact job: 软件工程师|程序员
    - 用户向助手问好 // chatter
    - 用户: 我最近改喝拿铁了 ^a1 // fact drink: 拿铁

    ## MEMORY.md                (optional: the MEMORY.md before the first dream)
    - 用户喜欢美式咖啡 <!-- src: ^a1 -->

Labels (separated by `` ; ``): ``fact ID: KEYS`` a durable fact, current at the end
(``fact ID`` alone restates it); ``old ID: KEYS`` a value of fact ID that a later line
replaces; ``plan ID YYYY-MM-DD: KEYS`` a plan on that date (expired when the date is before
``today``); ``event ID YYYY-MM-DD: KEYS`` a past event worth keeping; ``chatter[: TEXT]``
transient text that must never reach MEMORY.md (default: the bullet without its speaker).
KEYS are groups joined by `` + ``, each a ``|``-list of alternatives (case-insensitive
substrings of one item); a group starting with ``!`` must not match. Every bullet carries
at least one label. ``^name`` anchors a line for the prior MEMORY.md's ``src`` comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import yaml

DATA = Path(__file__).resolve().parent / "data" / "dream"
KINDS = ("fact", "old", "plan", "event", "chatter")
_LABEL = re.compile(
    r"^(?P<kind>fact|old|plan|event|chatter)"
    r"(?:\s+(?P<id>[\w.-]+))?(?:\s+(?P<day>\d{4}-\d{2}-\d{2}))?\s*(?::\s*(?P<keys>.+))?$"
)
_ANCHOR = re.compile(r"\s+\^(?P<name>[\w-]+)\s*$")
_SPEAKER = re.compile(r"^[^:：]{1,16}?(?:说)?[:：]\s*")
_NORMALISE = re.compile(r"[\s\W_]+", re.UNICODE)


def normalise(text: str) -> str:
    """Lower-cased, without spaces or punctuation: how strings are compared."""
    return _NORMALISE.sub("", text.lower())


@dataclass(frozen=True)
class Keys:
    """Groups of alternatives; an item matches when every positive group has one of its
    alternatives in it and no negative group does."""

    groups: tuple[tuple[str, ...], ...]
    negative: tuple[tuple[str, ...], ...] = ()

    @classmethod
    def parse(cls, text: str) -> Keys:
        pos, neg = [], []
        for raw in text.split(" + "):
            raw = raw.strip()
            target = neg if raw.startswith("!") else pos
            alts = tuple(normalise(a) for a in raw.lstrip("!").split("|") if normalise(a))
            if alts:
                target.append(alts)
        if not pos:
            raise ValueError(f"keys without a positive group: {text!r}")
        return cls(tuple(pos), tuple(neg))

    def match(self, text: str) -> bool:
        flat = normalise(text)
        return all(any(a in flat for a in g) for g in self.groups) and not any(
            any(a in flat for a in g) for g in self.negative
        )


UNKNOWN = Keys((("?",),))  # the keys of a fact whose current value is not yet read


@dataclass
class Fact:
    id: str
    kind: str  # fact | plan | event
    keys: Keys
    day: date | None = None  # plans and events
    olds: list[Keys] = field(default_factory=list)
    lines: int = 0  # note lines stating it (restatements included)

    def current(self, today: date) -> bool:
        return self.kind != "plan" or (self.day is not None and self.day >= today)


@dataclass
class Scenario:
    name: str
    split: str
    title: str
    today: date
    mode: str
    days: int
    max_items: int
    tags: list[str]
    notes: dict[date, list[str]]  # the note files' lines, labels stripped
    memory: list[str]  # the prior MEMORY.md's lines ([] for none)
    facts: dict[str, Fact]
    chatter: list[str]
    bullets: int
    # each note bullet's labels, ``memory/DATE.md#Ln`` -> (kind, fact id or "")
    labels: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    @property
    def handwritten(self) -> list[str]:
        return [line for line in self.memory if line.startswith("- ") and "<!--" not in line]


def _labels(text: str, where: str) -> list[tuple[str, str | None, date | None, str | None]]:
    out = []
    for part in text.split(" ; "):
        match = _LABEL.match(part.strip())
        if not match:
            raise ValueError(f"{where}: bad label {part!r}")
        day = date.fromisoformat(match.group("day")) if match.group("day") else None
        out.append((match.group("kind"), match.group("id"), day, match.group("keys")))
    return out


def parse(path: Path) -> Scenario:
    text = path.read_text(encoding="utf-8")
    _, front, body = text.split("---\n", 2)
    meta = yaml.safe_load(front)
    notes: dict[date, list[str]] = {}
    memory: list[str] = []
    facts: dict[str, Fact] = {}
    chatter: list[str] = []
    anchors: dict[str, str] = {}
    day: date | None = None
    in_memory = False
    bullets = 0
    pending_memory: list[str] = []
    labels: dict[str, list[tuple[str, str]]] = {}
    for number, raw in enumerate(body.splitlines(), start=1):
        where = f"{path.name}:{number + front.count(chr(10)) + 2}"
        line = raw.rstrip()
        if line.startswith("## "):
            title = line[3:].strip()
            in_memory = title == "MEMORY.md"
            if not in_memory:
                day = date.fromisoformat(title)
                notes[day] = [f"# Daily Memory: {day.isoformat()}"]
            continue
        if in_memory:
            pending_memory.append(line)
            continue
        if day is None:
            if line.strip():
                raise ValueError(f"{where}: text before the first ## DATE")
            continue
        if line.startswith("### "):
            notes[day] += ["", "## " + line[4:].strip()]
            continue
        if not line.startswith("- "):
            if line.strip():
                raise ValueError(f"{where}: expected a bullet, heading or blank line")
            continue
        content, sep, tail = line[2:].partition(" // ")
        if not sep:
            raise ValueError(f"{where}: bullet without labels")
        content = content.rstrip()
        anchor = _ANCHOR.search(content)
        if anchor:
            content = content[: anchor.start()]
        notes[day].append(f"- {content}")
        bullets += 1
        if anchor:
            rel = f"memory/{day.isoformat()}.md#L{len(notes[day])}"
            anchors[anchor.group("name")] = rel
        line_labels = labels.setdefault(f"memory/{day.isoformat()}.md#L{len(notes[day])}", [])
        for kind, ident, when, keys in _labels(tail, where):
            line_labels.append((kind, ident or ""))
            if kind == "chatter":
                chatter.append(keys.strip() if keys else _SPEAKER.sub("", content, count=1))
                continue
            if not ident:
                raise ValueError(f"{where}: {kind} needs an id")
            fact = facts.get(ident)
            if kind == "old":
                if not keys:
                    raise ValueError(f"{where}: old needs keys")
                fact = facts.setdefault(ident, Fact(ident, "fact", UNKNOWN))
                fact.olds.append(Keys.parse(keys))
                continue
            if keys:
                if fact is not None and fact.keys is not UNKNOWN:
                    raise ValueError(f"{where}: {ident} already has keys")
                new = Fact(ident, kind, Keys.parse(keys), when)
                if fact is not None:
                    new.olds, new.lines = fact.olds, fact.lines
                facts[ident] = fact = new
            elif fact is None:
                raise ValueError(f"{where}: {ident} restated before it has keys")
            fact.lines += 1
    for ident, fact in facts.items():
        if fact.keys is UNKNOWN:
            raise ValueError(f"{path.name}: {ident} has old values but no current one")
        if fact.kind in ("plan", "event") and fact.day is None:
            raise ValueError(f"{path.name}: {ident} needs a date")
    for line in pending_memory:
        for name, rel in anchors.items():
            line = line.replace(f"^{name}", rel)
        if "^" in line and "<!--" in line:
            raise ValueError(f"{path.name}: unknown anchor in {line!r}")
        memory.append(line)
    while memory and not memory[-1].strip():
        memory.pop()
    return Scenario(
        name=path.stem,
        split=path.parent.name,
        title=str(meta.get("title", path.stem)),
        today=date.fromisoformat(str(meta["today"])),
        mode=str(meta.get("mode", "once")),
        days=int(meta.get("days", 3)),
        max_items=int(meta.get("max_items", 30)),
        tags=[str(t) for t in meta.get("tags", [])],
        notes=notes,
        memory=(["# MEMORY", "", *memory]) if memory else [],
        facts=facts,
        chatter=chatter,
        bullets=bullets,
        labels=labels,
    )


def load(split: str) -> list[Scenario]:
    """The split's scenarios (its README.md, if any, describes the split: not a scenario)."""
    return [parse(p) for p in sorted((DATA / split).glob("*.md")) if p.name != "README.md"]


def write_root(scenario: Scenario, root: Path, upto: date | None = None) -> None:
    """Write the scenario's notes (those dated up to ``upto``) and prior MEMORY.md."""
    notes = root / "memory"
    notes.mkdir(parents=True, exist_ok=True)
    for day, lines in scenario.notes.items():
        if upto is None or day <= upto:
            (notes / f"{day.isoformat()}.md").write_text("\n".join(lines) + "\n", "utf-8")
    if scenario.memory and not (root / "MEMORY.md").exists():
        (root / "MEMORY.md").write_text("\n".join(scenario.memory) + "\n", "utf-8")
