"""How the players' story tells GURPS's events (`RuleSet.story`; the story itself is
gamekernel/render/story.py): a check or a contest as one line in words, damage, and a fight collapsed to
its outcomes (hit or not, the injury, HP after for a fighter someone plays, a word for anyone else, who
fell), each step followed by the rolls it made inside itself. Where only outcomes are disclosed, a check
says whether it worked, a reaction its word, a contest its winner; never a number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gamekernel.events import kind_word
from gamekernel.gurps.combat_render import label
from gamekernel.gurps.render import band_name, display_name, pct, verdict_text
from gamekernel.gurps.rules.checks import SuccessRoll
from gamekernel.gurps.rules.contests import QuickContest, RegularContest
from gamekernel.gurps.rules.reactions import ReactionRoll
from gamekernel.gurps.summaries import combat_roll_words, nested_rolls_text, step_head
from gamekernel.hiding import condition
from gamekernel.i18n import t

if TYPE_CHECKING:
    from gamekernel.events import Event
    from gamekernel.rulesets import Telling

COMBAT_PART = "gurps_combat"
# its rolls told as their log line, or by their outcome alone while only outcomes are disclosed
# (`%table disclose outcome`)
OUTCOME_KINDS = frozenset({"gurps.contest", "gurps.regular_contest", "gurps.react", "gurps.influence",
                           "gurps.fright", "gurps.self_control", "gurps.luck"})
CONTESTS = frozenset({"gurps.contest", "gurps.regular_contest", "gurps.influence"})

Fighters = dict[str, tuple[int, int, str, bool]]  # name -> (HP, HP max, how far down, HP told as numbers)


class GurpsStory:
    """GURPS's story lines (gamekernel.rulesets.StoryLines)."""

    outcome_kinds = OUTCOME_KINDS

    def before(self, telling: Telling) -> tuple[Fighters, Any]:
        """The fighters and the attack waiting for its defense, before an event replays."""
        return _fighters(telling), _pending(telling)

    def tell(self, telling: Telling, event: Event, before: object) -> None:
        kind, d = event.kind, event.data
        if kind == "gurps.check":
            roll = SuccessRoll.from_dict(d["result"])
            telling.line(_outcome_line(roll) if telling.outcome_only else _check_line(roll, telling.odds))
        elif kind == "gurps.contest" and not telling.outcome_only:
            telling.line(_contest_line(QuickContest.from_dict(d["result"]), telling.odds))
        elif kind == "gurps.damage":
            telling.line(_damage_outcome(d) if telling.outcome_only else _damage_line(d))
        elif kind.startswith("combat."):
            fighters, pending = before if isinstance(before, tuple) else ({}, None)
            _combat_step(telling, event, fighters, pending)
            _step_rolls(telling, event)
            _nested_rolls(telling, event)
        elif kind in OUTCOME_KINDS:
            telling.line(telling.summary_line(event))

    def outcome(self, event: Event) -> str | None:
        """A reaction's word, a contest's winner (or a tie); None for the rest (their recorded success)."""
        if event.kind == "gurps.react":
            actor = event.actor or str(event.data.get("actor") or "") or t("story.check.someone")
            band = ReactionRoll.from_dict(event.data["result"]).band
            return t("story.outcome.line", actor=actor, what=kind_word(event.kind), outcome=band_name(band))
        if event.kind in CONTESTS:
            name = _contest_winner(event)
            outcome = t("story.contest.tie") if name is None else t("story.outcome.wins", name=name)
            return t("story.outcome.plain", what=kind_word(event.kind), outcome=outcome)
        return None

    def odds_marks(self) -> tuple[str, ...]:
        """How a check's and a contest's odds parts begin ("odds 50.0% ...", "odds: A ...")."""
        return (t("gurps.check.odds", p="\0", crit="", fumble="").split("\0")[0].strip(),
                t("gurps.contest.odds", a="\0", b="", tie="").split("\0")[0].strip())


# -- the fight, replayed from the public events ------------------------------------------------------

def _fight(telling: Telling) -> Any:
    """The running fight (None once it is over: a hazard or damage after it hurts someone outside it)."""
    part = telling.state.parts.get(COMBAT_PART)
    fight = getattr(part, "fight", None) if telling.replay_ok else None
    return None if fight is None or getattr(fight, "over", False) else fight


def _fighters(telling: Telling) -> Fighters:
    fight = _fight(telling)
    if fight is None:
        return {}
    return {c.name: (c.hp, c.hp_max, _down(c), telling.numbers(c.name, c.pc)) for c in fight.combatants}


def _pending(telling: Telling) -> Any:
    fight = _fight(telling)
    return getattr(fight, "pending", None) if fight is not None else None


def _down(c: Any) -> str:
    """The worst state a fighter is in, as a story key ("" when still up)."""
    if getattr(c, "dead", False) or getattr(c, "destroyed", False):
        return "dies"
    if getattr(c, "unconscious", False) or getattr(c, "collapsed", False):
        return "falls"
    return ""


def _combat_step(telling: Telling, event: Event, before: Fighters, pending: Any) -> None:
    op, args = event.data["op"], event.data.get("args", {})
    if op == "start":
        names = ", ".join(c["name"] for c in args["combatants"])
        telling.heading("fight", t("story.heading.fight", names=names))
        return
    if op == "end":
        telling.line(t("story.combat.end"))
        return
    if op in {"condition", "lift"}:  # the GM's own condition on a fighter: what the table sees
        telling.line(event.summary())
        return
    if op == "next":  # a turn's end ends the GM's conditions whose countdown ran out
        outcome = event.data.get("outcome") or {}
        for name in outcome.get("conditions_ended", ()):
            telling.line(t("combat.condition.ended", name=outcome["ended"], condition=name))
        return
    if op not in {"attack", "defend", "damage", "hazard"}:
        return  # maneuvers, postures, turns, NPC templates: how, not what happened
    if op == "attack" and _pending(telling) is not None:
        return  # told once the defense is known
    if op in {"attack", "defend"}:
        attacker = args.get("attacker") or getattr(pending, "attacker", "")
        target = args.get("target") or getattr(pending, "target", args.get("name", ""))
        head = t("story.combat.attack", attacker=attacker, target=target)
        if op == "defend":
            head += t("story.combat.defense", defense=label(args["kind"]))
    elif op == "damage":
        head = t("story.combat.damage", name=args["name"], spec=args["spec"])
    else:  # a hazard: its words; its dice follow in the step's rolls (`_step_rolls`, `_nested_rolls`)
        head = step_head(op, args)
    if op in ("damage", "hazard") and _fight(telling) is None:  # outside a fight: a character's sheet
        rolls_follow = not telling.outcome_only and combat_roll_words(event.data)  # `_step_rolls` tells them
        if op == "hazard" and rolls_follow:
            return  # the line of its rolls names it
        telling.line(head if telling.outcome_only or op == "hazard" or rolls_follow else f"{head} — {event.summary()}")
        return
    outcomes = _outcomes(telling, before) if telling.replay_ok else []
    if telling.replay_ok and not outcomes:
        outcomes = [t("story.combat.no_harm")]
    telling.line(" — ".join([head, "; ".join(outcomes)]) if outcomes else head)


def _outcomes(telling: Telling, before: Fighters) -> list[str]:
    out = []
    for name, (hp, hp_max, down, numbers) in _fighters(telling).items():
        old = before.get(name)
        if old is None:
            continue
        if hp < old[0] and telling.outcome_only:  # outcome words only: no injury, no HP
            out.append(t("story.combat.hurt", name=name, condition=t(f"table.condition.{condition(hp, hp_max)}")))
        elif hp < old[0] and numbers:
            out.append(t("story.combat.injury", name=name, injury=old[0] - hp, hp=hp, hp_max=hp_max))
        elif hp < old[0]:
            out.append(t("story.combat.injury_word", name=name, injury=old[0] - hp,
                         condition=t(f"table.condition.{condition(hp, hp_max)}")))
        if down and down != old[2]:
            out.append(t(f"story.combat.{down}", name=name))
    return out


def _step_rolls(telling: Telling, event: Event) -> None:
    """The rolls the step made itself, in one line after it (an attack's with its defense's):
    "Orc: Axe 3d6 [2,1,3]=6 vs 12, hit; Aiko: Dodge 3d6 [4,2,4]=10 vs 9, not defended; Orc → Aiko:
    damage 1d+4 [5]+4=9 cut → injury 13" (GURPS-CMB-26, 40, DMG-04..08); a spell's, a hazard's, first
    aid's, healing's, waking's, a mortal wound's, burning clothes' (MAG, HAZ, INJ); none while the GM
    discloses outcomes only (the step's line tells them)."""
    if telling.outcome_only:
        return
    held: list[tuple[tuple[str, ...], str]] = telling.scratch.pop("attack_rolls", [])
    words = [*held, *combat_roll_words(event.data)]
    if event.data.get("op") == "attack" and _pending(telling) is not None:
        telling.scratch["attack_rolls"] = words  # told once the defense is known, as the step's line is
        return
    if words:
        names = tuple(dict.fromkeys(n for who, _ in words for n in who))
        telling.line("; ".join(text for _, text in words), names)


def _nested_rolls(telling: Telling, event: Event) -> None:
    """The rolls a step made inside itself (stay conscious, knockdown, death checks ...), each told;
    while the GM discloses outcomes only, by its outcome alone, no number."""
    rolls = event.data.get("rolls") or ()
    if not rolls:
        return
    args = event.data.get("args", {})
    who = event.actor or args.get("name") or args.get("attacker") or ""
    if telling.outcome_only:
        for item in rolls:
            roll = SuccessRoll.from_dict(item["roll"])
            telling.line(_outcome_line(replace(roll, actor=roll.actor or who)))
        return
    nested = nested_rolls_text(event.data)
    text = nested if telling.odds else telling.without_odds(nested)
    unnamed = [str(args[k]) for k in ("name", "attacker", "target") if args.get(k)]  # a roll naming nobody
    named = tuple(dict.fromkeys(n for item in rolls for n in (
        [str(item["roll"]["actor"])] if item["roll"].get("actor") else unnamed)))
    telling.line(f"{who}: {text}" if who and not text.startswith(who) else text, named)


# -- one line each ----------------------------------------------------------------------------------

def _contest_winner(event: Event) -> str | None:
    """The winner's name of a Quick or Regular Contest (None: a tie, or undecided)."""
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
