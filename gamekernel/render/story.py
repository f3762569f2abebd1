"""The players' story: the session log told as a page a GM hands out (`%log export story.md --players`)
and as the players' page shows it (`players_story`: one story for both, so they never disagree).

A title (campaign, session, date), a heading per session, scene, fight or encounter, the GM's public
notes as prose, each roll as one line in words, a fight collapsed to its outcomes (hit or not, the
injury, HP after for a fighter someone plays, a word for anyone else, who fell). Left out: secrets the
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
from gamekernel.gurps.combat_render import label
from gamekernel.gurps.render import SEP, band_name, display_name, pct, verdict_text
from gamekernel.gurps.rules.checks import SuccessRoll
from gamekernel.gurps.rules.contests import QuickContest
from gamekernel.gurps.rules.reactions import ReactionRoll
from gamekernel.gurps.summaries import combat_roll_words, nested_rolls_text
from gamekernel.hiding import condition, is_hidden
from gamekernel.i18n import t
from gamekernel.render.log import md_escape
from gamekernel.state import TableState

COMBAT_PART = "gurps_combat"
# the rolls `%table disclose outcome` tells by their outcome alone (a draw, a flux, a tap tells no number)
OUTCOME_KINDS = frozenset({"gurps.contest", "gurps.regular_contest", "gurps.react", "gurps.influence",
                           "gurps.fright", "gurps.self_control", "gurps.luck", "mtg.check", "mtg.boost",
                           "gw.overcharge"})
# Gamma World steps that are table setup, not story
GW_SETUP = frozenset({"gw.setup", "gw.character", "gw.deck_add", "gw.deck"})


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
    """Walks the public events once, replaying them so that fights can be told by their outcomes."""

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
        self.attack_rolls: list[tuple[tuple[str, ...], str]] = []  # an attack's, told with its defense

    def run(self, events: Sequence[Event]) -> list[Block]:
        reveals = {e.data.get("seq") for e in events if e.kind == "table.reveal"}
        for event in events:
            before = self._fighters()
            pending = self._pending()
            self._apply(event)
            self.by = event.by  # a player's own action says so (the GM's own say nothing)
            if event.kind == "table.reveal":
                self.blocks += self.held.pop(int(event.data.get("seq", 0)), [])
            if not event.secret:
                self._tell(event, before, pending)
                continue
            # GURPS-SR-09: a secret the GM revealed is told as what it did when it happened, at the
            # place the players learned it (its reveal, which a public step on its fighter makes)
            start, section = len(self.blocks), self.section
            self._tell(event, before, pending)
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

    def _fight(self):
        part = self.state.parts.get(COMBAT_PART)
        return getattr(part, "fight", None) if self.replay_ok else None

    def _fighters(self) -> dict[str, tuple[int, int, str, bool]]:
        fight = self._fight()
        if fight is None:
            return {}
        return {c.name: (c.hp, c.hp_max, _down(c), self._numbers(c.name, c.pc)) for c in fight.combatants}

    def _numbers(self, name: str, pc: bool) -> bool:
        """Whether the players may read this fighter's HP as numbers: anyone's when no seating is
        given, else a seated character's (nobody seated: a player character's)."""
        if self.seated is None:
            return True
        return name in self.seated if self.seated else pc

    def _pending(self):
        fight = self._fight()
        return getattr(fight, "pending", None) if fight is not None else None

    # -- telling
    def _heading(self, section: str, text: str) -> None:
        self.section = section
        self._add("heading", text)

    def _outside_the_fight(self) -> None:
        """A line that is no part of the fight (a Gamma World draw outside an encounter, an MtG check)
        never sits under the fight's heading: it opens an "Aside" section of its own."""
        if self.section == "fight":
            self._heading("aside", t("story.heading.aside"))

    def _add(self, kind: str, text: str, rolled_by: tuple[str, ...] = ()) -> None:
        if self.by is not None and kind == "line":
            text += " " + t("core.log.by", user=self.by)
        self.blocks.append(Block(kind, text, rolled_by))

    def _tell(self, event: Event, before: dict, pending) -> None:
        kind, d = event.kind, event.data
        if kind == "note":
            self._add("note", d["text"])
        elif kind == "campaign.open":
            self._heading("session", t("story.heading.session", session=session_number(d)))
        elif kind == "mtg.scene":
            self._heading("scene", t("story.heading.scene", scene=d["scene"]))
        elif kind == "gw.encounter_start":
            self._heading("encounter", t("story.heading.encounter"))
        elif kind == "roll":
            self._add("line", _roll_line(event, self.outcome_only))
        elif kind == "table.handout":  # told once the GM reveals it to everyone
            self._add("line", t("remote.handout.line", name=d["name"]))
        elif kind in ("rolltable.roll", "rolltable.rolled"):  # a table roll, or that one was rolled for someone
            self._add("line", event.summary() if self.odds else _without_table_odds(event.summary()))
        elif kind == "gurps.check":
            roll = SuccessRoll.from_dict(d["result"])
            self._add("line", _outcome_line(roll) if self.outcome_only else _check_line(roll, self.odds))
        elif kind == "gurps.contest" and not self.outcome_only:
            self._add("line", _contest_line(QuickContest.from_dict(d["result"]), self.odds))
        elif kind == "gurps.damage":
            self._add("line", _damage_outcome(d) if self.outcome_only else _damage_line(d))
        elif kind.startswith("combat."):
            self._combat(event, before, pending)
        elif kind in {"gurps.contest", "gurps.regular_contest", "gurps.react", "gurps.influence", "gurps.fright",
                      "gurps.self_control", "gurps.luck", "mtg.check", "mtg.boost"} or (
                kind.startswith("gw.") and kind not in GW_SETUP and kind != "gw.encounter_start"):
            if kind.startswith(("gw.", "mtg.")):
                self._outside_the_fight()
            self._add("line", self._summary_line(event))

    def _summary_line(self, event: Event) -> str:
        """A rule-set line in words: who acted first (an MtG check names its character), and never a
        command to type (a pending Alpha Flux is told as what happened)."""
        if event.kind in {"gw.flux_pending", "gw.flux_ask"}:
            return t("story.gw.flux_pending", name=event.actor or "?")
        if self.outcome_only and event.kind in OUTCOME_KINDS:
            return outcome_line(event)
        text = event.summary() if self.odds else _without_odds(event.summary())
        actor = event.actor or str(event.data.get("actor") or "")
        if actor and not text.startswith(actor):
            text = f"{actor}: {text}"
        return text

    def _combat(self, event: Event, before: dict, pending) -> None:
        """A combat step's line, then the rolls it made inside itself (a knockdown follows its blow)."""
        self._combat_step(event, before, pending)
        self._step_rolls(event)
        self._nested_rolls(event)

    def _step_rolls(self, event: Event) -> None:
        """The rolls the step made itself, in one line after it (an attack's with its defense's):
        "Orc: Axe 3d6 [2,1,3]=6 vs 12, hit; Aiko: Dodge 3d6 [4,2,4]=10 vs 9, not defended; Orc → Aiko:
        damage 1d+4 [5]+4=9 cut → injury 13" (GURPS-CMB-26, 40, DMG-04..08); none while the GM
        discloses outcomes only (the step's line tells them)."""
        if self.outcome_only:
            return
        words = [*self.attack_rolls, *combat_roll_words(event.data)]
        self.attack_rolls = []
        if event.data.get("op") == "attack" and self._pending() is not None:
            self.attack_rolls = words  # told once the defense is known, as the step's line is
            return
        if words:
            names = tuple(dict.fromkeys(n for who, _ in words for n in who))
            self._add("line", "; ".join(text for _, text in words), names)

    def _nested_rolls(self, event: Event) -> None:
        """The rolls a step made inside itself (stay conscious, knockdown, death checks ...), each told;
        while the GM discloses outcomes only, by its outcome alone, no number."""
        rolls = event.data.get("rolls") or ()
        if not rolls:
            return
        args = event.data.get("args", {})
        who = event.actor or args.get("name") or args.get("attacker") or ""
        if self.outcome_only:
            for item in rolls:
                roll = SuccessRoll.from_dict(item["roll"])
                self._add("line", _outcome_line(replace(roll, actor=roll.actor or who)))
            return
        nested = nested_rolls_text(event.data)
        text = nested if self.odds else _without_odds(nested)
        unnamed = [str(args[k]) for k in ("name", "attacker", "target") if args.get(k)]  # a roll naming nobody
        named = tuple(dict.fromkeys(n for item in rolls for n in (
            [str(item["roll"]["actor"])] if item["roll"].get("actor") else unnamed)))
        self._add("line", f"{who}: {text}" if who and not text.startswith(who) else text, named)

    def _combat_step(self, event: Event, before: dict, pending) -> None:
        op, args = event.data["op"], event.data.get("args", {})
        if op == "start":
            names = ", ".join(c["name"] for c in args["combatants"])
            self._heading("fight", t("story.heading.fight", names=names))
            return
        if op == "end":
            self._add("line", t("story.combat.end"))
            return
        if op not in {"attack", "defend", "damage", "hazard"}:
            return  # maneuvers, postures, turns, NPC templates: how, not what happened
        if op == "attack" and self._pending() is not None:
            return  # told once the defense is known
        if op in {"attack", "defend"}:
            attacker = args.get("attacker") or getattr(pending, "attacker", "")
            target = args.get("target") or getattr(pending, "target", args.get("name", ""))
            head = t("story.combat.attack", attacker=attacker, target=target)
            if op == "defend":
                head += t("story.combat.defense", defense=label(args["kind"]))
        elif op == "damage":
            head = t("story.combat.damage", name=args["name"], spec=args["spec"])
        else:
            head = event.summary()
        if op in ("damage", "hazard") and self._fight() is None:  # outside a fight: a character's sheet
            self._add("line", head if self.outcome_only or op == "hazard" else f"{head} — {event.summary()}")
            return
        outcomes = self._outcomes(before) if self.replay_ok else []
        if self.replay_ok and not outcomes:
            outcomes = [t("story.combat.no_harm")]
        self._add("line", " — ".join([head, "; ".join(outcomes)]) if outcomes else head)

    def _outcomes(self, before: dict) -> list[str]:
        out = []
        for name, (hp, hp_max, down, numbers) in self._fighters().items():
            old = before.get(name)
            if old is None:
                continue
            if hp < old[0] and self.outcome_only:  # outcome words only: no injury, no HP
                out.append(t("story.combat.hurt", name=name, condition=t(f"table.condition.{condition(hp, hp_max)}")))
            elif hp < old[0] and numbers:
                out.append(t("story.combat.injury", name=name, injury=old[0] - hp, hp=hp, hp_max=hp_max))
            elif hp < old[0]:
                out.append(t("story.combat.injury_word", name=name, injury=old[0] - hp,
                             condition=t(f"table.condition.{condition(hp, hp_max)}")))
            if down and down != old[2]:
                out.append(t(f"story.combat.{down}", name=name))
        return out


def session_number(opened: Mapping[str, Any]) -> str:
    """A `campaign.open` event's session number: its "number", or for a log of before it the number
    in the file name ("session-003.jsonl" -> "3"): the players get the session's number, never a file name."""
    number = opened.get("number")
    if type(number) is int:
        return str(number)
    match = re.fullmatch(r"session-(\d+)\.jsonl", str(opened.get("session", "")))
    return str(int(match.group(1))) if match else "?"


def _down(c: Any) -> str:
    """The worst state a fighter is in, as a story key ("" when still up)."""
    if getattr(c, "dead", False) or getattr(c, "destroyed", False):
        return "dies"
    if getattr(c, "unconscious", False) or getattr(c, "collapsed", False):
        return "falls"
    return ""


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
    roll, and how it came out in words (succeeded, failed, who won, the reaction's word); never a
    number, a target, a margin or the odds. A kind with no outcome to tell says only that it happened."""
    data = event.data
    actor = event.actor or str(data.get("actor") or "") or t("story.check.someone")
    what = kind_word(event.kind)
    result: dict[str, Any] = data["result"] if isinstance(data.get("result"), dict) else {}
    if event.kind == "gurps.react":
        band = ReactionRoll.from_dict(result).band
        return t("story.outcome.line", actor=actor, what=what, outcome=band_name(band))
    if event.kind in {"gurps.contest", "gurps.regular_contest", "gurps.influence"}:
        name = _contest_winner(event)
        outcome = t("story.contest.tie") if name is None else t("story.outcome.wins", name=name)
        return t("story.outcome.plain", what=what, outcome=outcome)
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


def _contest_winner(event: Event) -> str | None:
    """The winner's name of a Quick or Regular Contest (None: a tie, or undecided)."""
    from gamekernel.gurps.rules.contests import RegularContest

    data = event.data["result"]
    contest = RegularContest.from_dict(data) if event.kind == "gurps.regular_contest" else \
        QuickContest.from_dict(data["contest"] if event.kind == "gurps.influence" else data)
    if contest.winner is None:
        return None
    rolls = contest.rounds[-1] if isinstance(contest, RegularContest) else (contest.a, contest.b)
    winner = rolls[0] if contest.winner == "a" else rolls[1]
    return winner.actor or display_name(winner.label)


def _check_line(roll: SuccessRoll, odds: bool) -> str:
    what = display_name(roll.label) or t("story.check.plain")
    total = "—" if roll.refused is not None else roll.total
    key = "story.check.actor" if roll.actor else "story.check.plain_line"
    line = t(key, actor=roll.actor, what=what, target=roll.target, total=total, verdict=verdict_text(roll))
    if odds:
        line += " " + t("story.odds", p=pct(roll.odds.success))
    return line


def _outcome_line(roll: SuccessRoll) -> str:
    """A check told by its outcome only: who tried what, and whether it worked."""
    what = display_name(roll.label) or t("story.check.plain")
    outcome = t("story.outcome.success" if roll.success else "story.outcome.failure")
    return t("story.check.outcome", actor=roll.actor or t("story.check.someone"), what=what, outcome=outcome)


def _contest_line(contest: QuickContest, odds: bool) -> str:
    def side(roll: SuccessRoll) -> str:
        return t("story.contest.side", who=roll.actor or display_name(roll.label), what=display_name(roll.label),
                 target=roll.target, total=roll.total)

    if contest.winner is None:
        verdict = t("story.contest.tie")
    else:
        winner = contest.a if contest.winner == "a" else contest.b
        verdict = t("story.contest.winner", name=winner.actor or display_name(winner.label), margin=contest.margin)
    line = t("story.contest.line", a=side(contest.a), b=side(contest.b), verdict=verdict)
    if odds:
        line += " " + t("story.odds", p=pct(contest.odds.a_wins))
    return line


def _damage_outcome(d: Mapping[str, Any]) -> str:
    """Damage told by its outcome alone: who was hurt (no injury, no HP)."""
    target = d["result"].get("target") or t("story.damage.someone")
    return t("story.damage.outcome", target=target)


def _damage_line(d: Mapping[str, Any]) -> str:
    result = d["result"]
    target = result.get("target") or t("story.damage.someone")
    return t("story.damage.line", target=target, injury=d.get("injury", result.get("injury", 0)),
             spec=result.get("spec") or result.get("text") or "")


def _without_table_odds(text: str) -> str:
    """A table roll's line without the odds of the entries it read (the odds are an option of the story)."""
    before, _, after = t("rolltable.odds_of", odds="\0").partition("\0")
    return re.sub(rf" {re.escape(before)}[^{re.escape(after[:1] or ')')}]*{re.escape(after)}", "", text)


def _without_odds(text: str) -> str:
    """A summary line without its odds parts (the odds are an option of the story): the parts that
    begin as the catalog's odds texts begin."""
    marks = [t("gurps.check.odds", p="\0", crit="", fumble="").split("\0")[0].strip(),
             t("gurps.contest.odds", a="\0", b="", tie="").split("\0")[0].strip()]
    parts = [p for p in text.split(SEP) if not any(p.strip().startswith(m) for m in marks if m)]
    return SEP.join(parts)


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
