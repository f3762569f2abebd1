"""The players' story: the session log told as a page a GM hands out (`%log export story.md --players`)
and as the players' page shows it (`players_story`: one story for both, so they never disagree).

A title (campaign, session, date), a heading per session, scene, fight or encounter, the GM's public
notes as prose, each roll as one line in words, a fight collapsed to its outcomes (hit or not, the
injury, HP after for a fighter someone plays, a word for anyone else, who fell). Each rule set tells
its own events (`RuleSet.story`: gurps/story.py, mtg/story.py, gammaworld/story.py), through the
teller's `Telling` face (gamekernel/rulesets.py); this module tells the core's. Left out: secrets the
GM has not revealed and any trace of them, undone events, the seed, setup (characters, NPC templates,
decks, libraries and their file names), internal event ids, the fighters the GM hides, and odds unless
asked for. A revealed secret is told where it was revealed ("Revealed: ...", GURPS-SR-09). The story
is built only from the events the players may know, still in effect, and replays those alone for
fight outcomes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gamekernel.dice import RollResult
from gamekernel.display.html import FONT_STACK, esc
from gamekernel.events import EVENT_KINDS, Event, kind_word
from gamekernel.i18n import t
from gamekernel.render.log import md_escape
from gamekernel.rulesets import story_lines, story_of
from gamekernel.state import TableState

SEP = " · "  # between the parts of a log line (the odds part is one of them)


@dataclass(frozen=True)
class Block:
    """One piece of the story: a "heading", a "note" (prose) or a "line" (a roll or an outcome).
    `rolled_by`: the fighters whose roll numbers a line shows; a players' view leaves it out whole
    while one of them is hidden from the players (GURPS-SR-09)."""

    kind: str
    text: str
    rolled_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Story:
    title: str
    date: str
    blocks: tuple[Block, ...]

    @property
    def count(self) -> int:
        """How many entries the page holds (notes and lines; headings are not entries)."""
        return sum(1 for b in self.blocks if b.kind != "heading")


def tell(log: Sequence[Event], *, odds: bool = False, date: str | None = None, outcome_only: bool = False,
         revealed: Iterable[int] = (), seated: frozenset[str] | None = None) -> Story:
    """The players' story of `log`: only public events still in effect, in order, and the secret
    events the GM `revealed`, each told where it was revealed ("Revealed: ...") with what it did then.

    Its date is `date` when given, else the last session's own: the date the GM set for it
    (`session.date`), else the day (UTC) its first event was stamped. Never the day it is exported.
    `outcome_only` tells a check by its outcome alone (no target, roll or margin), as a GM who
    discloses only outcomes to the players wants. With `seated`, a fighter's HP is a number only for
    a seated character (or, nobody seated, a player character), a word for anyone else (`players_story`)."""
    public = public_events(log, revealed)
    opened = [e for e in log if e.kind == "campaign.open" and not e.secret]
    if opened:
        data = opened[-1].data
        title = t("story.title.campaign", name=data["name"], session=session_number(data))
    else:
        title = t("story.title.plain")
    blocks = _Teller(odds, outcome_only, seated).run(public)
    return Story(title, date or session_date(log, [e for e in public if not e.secret]), tuple(blocks))


def players_story(session: Any, events: Sequence[Event] | None = None, *, odds: bool = False,
                  date: str | None = None) -> Story:
    """The one players' story of `session` (its log, or `events` of it), as every player reads it: the
    remote players' page and `%log export --players` both tell this one, so they agree.

    Public events and the secrets the GM revealed (GURPS-SR-09), checks by their outcome alone while
    the GM discloses outcomes only, a fighter nobody plays hurt in words (no HP number), a fighter
    the GM hides "someone" in a line and absent from a heading's names, no invisible control."""
    from gamekernel.hiding import hidden_keys, scrub
    from gamekernel.text import visible

    seats = session.state["seats"]
    seated = frozenset(c for chars in seats.seats.values() for c in chars)
    story = tell(session.log if events is None else events, odds=odds, date=date,
                 outcome_only=seats.disclose == "outcome", revealed=seats.revealed, seated=seated)
    hidden = hidden_keys(session)
    blocks = [Block(b.kind, scrub(session, visible(b.text), heading=b.kind == "heading")) for b in story.blocks
              if not rolls_hidden(b, hidden)]
    return replace(story, title=visible(story.title), blocks=tuple(b for b in blocks if b.text))


def rolls_hidden(block: Block, hidden: frozenset[str]) -> bool:
    """Whether `block` shows the roll numbers of a fighter whose match key is in `hidden`."""
    from gamekernel.hiding import is_hidden

    return bool(hidden) and any(is_hidden(name, hidden) for name in block.rolled_by)


def public_events(log: Sequence[Event], revealed: Iterable[int] = ()) -> list[Event]:
    """The events of `log` a story tells: the public ones still in effect, and the secrets the GM
    `revealed` (GURPS-SR-09)."""
    from gamekernel.hiding import visible
    from gamekernel.replay import active_events

    known = {e.seq for e in log}
    active, _ = active_events(  # an undo may name events outside `log` (an earlier session's)
        [replace(e, data={**e.data, "seqs": [s for s in e.data["seqs"] if s in known]})
         if e.kind in {"undo", "redo"} else e for e in log])
    shown = set(revealed)
    return [e for e in active if visible(e, shown)]


class StoryCache:
    """The blocks of a growing log's story, each event told once: a call tells only the public
    events after those told before (the teller is a fold over them); when the past changed (an undo,
    a reveal, another log) the story is told again from the start, and `generation` moves. The same
    telling as `tell` with the same `outcome_only`, `revealed` and `seated`."""

    def __init__(self, *, outcome_only: bool = False, revealed: Iterable[int] = (),
                 seated: frozenset[str] | None = None) -> None:
        self.outcome_only = outcome_only
        self.revealed = tuple(revealed)
        self.seated = seated
        self.told: list[Event] = []
        self.read: tuple[int, Event | None] = (0, None)  # how much of the last log was read, its last event
        self.teller = _Teller(False, outcome_only, seated)
        self.generation = 0

    def blocks(self, log: Sequence[Event]) -> list[Block]:
        from gamekernel.hiding import visible

        count, (read, last) = len(self.told), self.read
        if (read <= len(log) and (not read or log[read - 1] is last)
                and not any(e.kind in ("undo", "redo") for e in log[read:])):  # the log only grew
            shown = set(self.revealed)
            public, grown = self.told + [e for e in log[read:] if visible(e, shown)], True
        else:
            public, grown = public_events(log, self.revealed), False
        self.read = (len(log), log[-1] if log else None)
        if not grown and (len(public) < count
                          or any(a is not b and a != b for a, b in zip(public, self.told, strict=False))):
            self.teller, self.generation, count = _Teller(False, self.outcome_only, self.seated), self.generation + 1, 0
        self.teller.run(public[count:])
        self.told = public
        return self.teller.blocks


def session_date(log: Sequence[Event], public: Sequence[Event]) -> str:
    """The last session's date: the latest `session.date` of that session still in effect (in
    `public`), else the UTC day of the stamp of its opening (or first) event; "" with no stamp."""
    opened = [e for e in log if e.kind == "campaign.open" and not e.secret]
    first = opened[-1].seq if opened else 0
    dated = [e for e in public if e.kind == "session.date" and e.seq >= first]
    if dated:
        return str(dated[-1].data["date"])
    stamp = (opened[-1].time if opened else next((e.time for e in public if e.time), "")) or ""
    return stamp[:10]


class _Teller:
    """Walks the public events once, replaying them so that a rule set can tell a fight by its outcomes
    (the `Telling` each rule set's story lines see)."""

    def __init__(self, odds: bool, outcome_only: bool = False, seated: frozenset[str] | None = None):
        self.odds = odds
        self.outcome_only = outcome_only
        self.seated = seated  # None: every HP a number (the whole truth of the public events)
        self.by: str | None = None
        self.state = TableState()
        self.replay_ok = True
        self.blocks: list[Block] = []
        self.section = ""  # what the last heading opened: "fight", "encounter", "scene", "session"
        self.held: dict[int, list[Block]] = {}  # a revealed secret's blocks, told at its reveal
        self.scratch: dict[str, Any] = {}  # a rule set's own notes while telling (Telling.scratch)

    def run(self, events: Sequence[Event]) -> list[Block]:
        reveals = {e.data.get("seq") for e in events if e.kind == "table.reveal"}
        for event in events:
            lines = story_of(event.kind)
            before = lines.before(self) if lines is not None else None
            self._apply(event)
            self.by = event.by  # a player's own action says so (the GM's own say nothing)
            if event.kind == "table.reveal":
                self.blocks += self.held.pop(int(event.data.get("seq", 0)), [])
            if not event.secret:
                self._tell(event, before)
                continue
            # GURPS-SR-09: a secret the GM revealed is told as what it did when it happened, at the
            # place the players learned it (its reveal, which a public step on its fighter makes)
            start, section = len(self.blocks), self.section
            self._tell(event, before)
            told = [b if b.kind != "line" else replace(b, text=t("story.revealed", line=b.text))
                    for b in self.blocks[start:]]
            key = event.seq if event.data.get("cause") is None or event.seq in reveals else event.data["cause"]
            if key in reveals and not self._revealed_yet(events, event, key):
                del self.blocks[start:]
                self.section = section
                self.held.setdefault(key, []).extend(b for b in told if b.kind != "heading")
            else:
                self.blocks[start:] = told
        return self.blocks

    @staticmethod
    def _revealed_yet(events: Sequence[Event], event: Event, key: int) -> bool:
        """Whether the reveal of `key` came before `event` (a flux caused by a roll revealed earlier)."""
        return any(e.kind == "table.reveal" and e.data.get("seq") == key and e.seq < event.seq for e in events)

    # -- replay (public events only: outcomes never reflect a secret)
    def _apply(self, event: Event) -> None:
        reducer = EVENT_KINDS[event.kind].apply if event.kind in EVENT_KINDS else None
        if reducer is None or not self.replay_ok:
            return
        try:
            reducer(self.state, event.data)
        except Exception:  # a fight that depended on a secret event: tell the rest without outcomes
            self.replay_ok = False

    def numbers(self, name: str, pc: bool) -> bool:
        """Whether the players may read this fighter's HP as numbers: anyone's when no seating is
        given, else a seated character's (nobody seated: a player character's)."""
        if self.seated is None:
            return True
        return name in self.seated if self.seated else pc

    # -- telling
    def heading(self, section: str, text: str) -> None:
        self.section = section
        self._add("heading", text)

    def line(self, text: str, rolled_by: tuple[str, ...] = ()) -> None:
        self._add("line", text, rolled_by)

    def aside(self) -> None:
        """A line that is no part of the fight (a Gamma World draw outside an encounter, an MtG check)
        never sits under the fight's heading: it opens an "Aside" section of its own."""
        if self.section == "fight":
            self.heading("aside", t("story.heading.aside"))

    def _add(self, kind: str, text: str, rolled_by: tuple[str, ...] = ()) -> None:
        if self.by is not None and kind == "line":
            text += " " + t("core.log.by", user=self.by)
        self.blocks.append(Block(kind, text, rolled_by))

    def _tell(self, event: Event, before: object) -> None:
        kind, d = event.kind, event.data
        if kind == "note":
            self._add("note", d["text"])
        elif kind == "campaign.open":
            self.heading("session", t("story.heading.session", session=session_number(d)))
        elif kind == "roll":
            self.line(_roll_line(event, self.outcome_only))
        elif kind == "table.handout":  # told once the GM reveals it to everyone
            self.line(t("remote.handout.line", name=d["name"]))
        elif kind in ("rolltable.roll", "rolltable.rolled"):  # a table roll, or that one was rolled for someone
            self.line(event.summary() if self.odds else _without_table_odds(event.summary()))
        else:
            lines = story_of(kind)
            if lines is not None:
                lines.tell(self, event, before)

    def summary_line(self, event: Event) -> str:
        """A rule-set line in words: who acted first (an MtG check names its character), its odds only
        when asked, and by its outcome alone where only outcomes are disclosed."""
        lines = story_of(event.kind)
        if self.outcome_only and lines is not None and event.kind in lines.outcome_kinds:
            return outcome_line(event)
        text = event.summary() if self.odds else self.without_odds(event.summary())
        actor = event.actor or str(event.data.get("actor") or "")
        if actor and not text.startswith(actor):
            text = f"{actor}: {text}"
        return text

    def without_odds(self, text: str) -> str:
        """A summary line without its odds parts (the odds are an option of the story): the parts that
        begin as a rule set's odds texts begin."""
        marks = [mark for lines in story_lines().values() for mark in lines.odds_marks() if mark]
        parts = [p for p in text.split(SEP) if not any(p.strip().startswith(m) for m in marks)]
        return SEP.join(parts)


def session_number(opened: Mapping[str, Any]) -> str:
    """A `campaign.open` event's session number: its "number", or for a log of before it the number
    in the file name ("session-003.jsonl" -> "3"): the players get the session's number, never a file name."""
    number = opened.get("number")
    if type(number) is int:
        return str(number)
    match = re.fullmatch(r"session-(\d+)\.jsonl", str(opened.get("session", "")))
    return str(int(match.group(1))) if match else "?"


def _roll_line(event: Event, outcome_only: bool = False) -> str:
    data = event.data["result"]
    result = RollResult.from_dict(data)
    what = data.get("label") or data["text"]
    if outcome_only and result.success is not None:  # a roll against a number: whether it made it
        return t("story.outcome.line", actor=event.actor or t("story.check.someone"), what=what,
                 outcome=t("story.outcome.success" if result.success else "story.outcome.failure"))
    key = "story.roll.actor" if event.actor else "story.roll.plain"
    line = t(key, actor=event.actor or "", what=what, total=result.total)
    if result.success is not None:
        line += " — " + t("story.roll.success" if result.success else "story.roll.failure")
    return line


def outcome_line(event: Event) -> str:
    """A roll of any rule set told by its outcome alone (`%table disclose outcome`): who, what kind of
    roll, and how it came out in words (succeeded, failed, who won, the reaction's word: the rule
    set's `outcome`); never a number, a target, a margin or the odds. A kind with no outcome to tell
    says only that it happened."""
    lines = story_of(event.kind)
    own = lines.outcome(event) if lines is not None else None
    if own is not None:
        return own
    data = event.data
    actor = event.actor or str(data.get("actor") or "") or t("story.check.someone")
    what = kind_word(event.kind)
    result: dict[str, Any] = data["result"] if isinstance(data.get("result"), dict) else {}
    success = _success_in(result) if result else None
    if success is None and isinstance(data.get("detail"), dict):
        success = _success_in(data["detail"])
    if success is None:
        return t("story.outcome.happened", actor=actor, what=what)
    return t("story.outcome.line", actor=actor, what=what,
             outcome=t("story.outcome.success" if success else "story.outcome.failure"))


def _success_in(data: Mapping[str, Any]) -> bool | None:
    """The recorded success of a roll: its own, or its inner check's (a fright check's roll)."""
    if isinstance(data.get("success"), bool):
        return bool(data["success"])
    roll = data.get("roll")
    return bool(roll["success"]) if isinstance(roll, dict) and isinstance(roll.get("success"), bool) else None


def _without_table_odds(text: str) -> str:
    """A table roll's line without the odds of the entries it read (the odds are an option of the story)."""
    before, _, after = t("rolltable.odds_of", odds="\0").partition("\0")
    return re.sub(rf" {re.escape(before)}[^{re.escape(after[:1] or ')')}]*{re.escape(after)}", "", text)


# -- pages ------------------------------------------------------------------------------------

def story_markdown(story: Story) -> str:
    """GitHub-friendly Markdown: headings, paragraphs and bullet lines, no inline HTML."""
    lines = [f"# {md_escape(story.title)}", ""]
    if story.date:
        lines += [f"*{md_escape(story.date)}*", ""]
    in_list = False
    for block in story.blocks:
        if block.kind == "line":
            lines.append(f"- {md_escape(block.text)}")
            in_list = True
            continue
        if in_list:
            lines.append("")
            in_list = False
        if block.kind == "heading":
            lines += [f"## {md_escape(block.text)}", ""]
        else:
            lines += [md_escape(block.text), ""]
    if not story.blocks:
        lines += [t("story.empty"), ""]
    return "\n".join(lines).rstrip() + "\n"


def story_html(story: Story) -> str:
    """One self-contained page (no scripts, no external assets); every text escaped."""
    body = [f"<h1>{esc(story.title)}</h1>"]
    if story.date:
        body.append(f'<p class="gk-story-date"><time>{esc(story.date)}</time></p>')
    items: list[str] = []

    def flush() -> None:
        if items:
            body.append("<ul>" + "".join(items) + "</ul>")
            items.clear()

    for block in story.blocks:
        if block.kind == "line":
            items.append(f"<li>{esc(block.text)}</li>")
            continue
        flush()
        body.append(f"<h2>{esc(block.text)}</h2>" if block.kind == "heading" else f"<p>{esc(block.text)}</p>")
    flush()
    if not story.blocks:
        body.append(f"<p>{esc(t('story.empty'))}</p>")
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(story.title)}</title></head>"
        f'<body style="font-family:{FONT_STACK};line-height:1.5;max-width:42em;margin:2em auto;padding:0 1em">'
        f"{''.join(body)}</body></html>\n"
    )
