"""What GURPS teaches: the working of its checks, contests, damage, fights and hazards (`--explain`,
`%explain`), the words its steps are drawn in, and its quiz (`%quiz gurps`), registered in
gamekernel.lessons when the rule set's handles are imported (the teaching features read it and name no
rule set). Each function reads the facts a result or event already holds (the dice, the target) and
returns numbered `Step`s: the rule id (shared RULES.md) that decided that part, an i18n key for the
working with its numbers, and the numbers."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from gamekernel.display.html import sign
from gamekernel.errors import GameKernelError
from gamekernel.gurps.render import display_name, rule_label
from gamekernel.gurps.rules.checks import SuccessRoll, classify, success_roll
from gamekernel.gurps.rules.contests import QuickContest, margin_of_victory, quick_winner
from gamekernel.gurps.rules.damage import DamageRoll
from gamekernel.gurps.rules.odds import check_odds
from gamekernel.i18n import t
from gamekernel.lessons import (
    Explanation,
    Question,
    QuestionKind,
    Step,
    Who,
    code_texts,
    explain_words,
    explains_on_table,
    fraction_choices,
    fraction_texts,
    quiz_set,
)
from gamekernel.text import resolve_name

if TYPE_CHECKING:
    from gamekernel.events import Event
    from gamekernel.rulesets import Core


# ---------------------------------------------------------------- success rolls

@dataclass(frozen=True)
class RollRules:
    """Which rule decides each part of a roll: a plain success roll, an attack, a defense."""

    compare: str = "GURPS-SR-02"
    automatic: str = "GURPS-SR-03"
    critical_success: str = "GURPS-SR-07"
    critical_failure: str = "GURPS-SR-08"


SUCCESS_ROLL = RollRules()
ATTACK_ROLL = RollRules("GURPS-CMB-26", "GURPS-SR-03", "GURPS-CMB-27", "GURPS-CMB-28")
DEFENSE_ROLL = RollRules("GURPS-CMB-40", "GURPS-CMB-42", "GURPS-CMB-42", "GURPS-CMB-42")


def _who(roll: SuccessRoll) -> Who:
    return Who(roll.actor, roll.label)


def roll_steps(roll: SuccessRoll, rules: RollRules = SUCCESS_ROLL) -> list[Step]:
    """The working of one 3d success roll: target, the verdict and the rule that gave it, margin,
    criticals (GURPS-SR-02..08)."""
    mods = tuple((m.value, m.label) for m in roll.modifiers)
    who = _who(roll)
    if mods:
        steps = [Step("GURPS-SR-04", "explain.gurps.target_mods",
                      {"who": who, "base": roll.base, "mods": mods, "target": roll.target})]
    else:
        steps = [Step("GURPS-SR-02", "explain.gurps.target", {"who": who, "target": roll.target})]
    if roll.refused is not None or roll.total is None:
        return [*steps, Step("GURPS-SR-05", "explain.gurps.refused", {"target": roll.target})]
    total, target = roll.total, roll.target
    dice = tuple(roll.dice)
    if total <= 4:
        steps.append(Step(rules.automatic, "explain.gurps.auto_success", {"total": total, "dice": dice}))
    elif total >= 17:
        steps.append(Step(rules.automatic, "explain.gurps.auto_failure", {"total": total, "dice": dice}))
    elif roll.success:
        steps.append(Step(rules.compare, "explain.gurps.success", {"total": total, "dice": dice, "target": target}))
    else:
        steps.append(Step(rules.compare, "explain.gurps.failure", {"total": total, "dice": dice, "target": target}))
    if roll.success:
        steps.append(Step("GURPS-SR-06", "explain.gurps.margin_success", {"margin": roll.margin_of_success}))
    else:
        steps.append(Step("GURPS-SR-06", "explain.gurps.margin_failure", {"margin": roll.margin_of_failure}))
    steps.append(_critical_step(total, target, roll.critical, rules))
    return steps


def _critical_step(total: int, target: int, critical: str | None, rules: RollRules) -> Step:
    """Why the roll is (or is not) critical: the clause of SR-07/SR-08 that applies."""
    fields = {"total": total, "target": target}
    if critical == "success":
        reason = "low" if total <= 4 else "five" if total == 5 else "six"
        return Step(rules.critical_success, f"explain.gurps.crit_success.{reason}", fields)
    if critical == "failure":
        reason = "18" if total == 18 else "17" if total == 17 and target <= 15 else "ten"
        return Step(rules.critical_failure, f"explain.gurps.crit_failure.{reason}", fields)
    if total == 17:  # 17 at target 16+: the critical-failure rule makes it an ordinary failure
        return Step(rules.critical_failure, "explain.gurps.not_critical_17", fields)
    crit_low = 6 if target >= 16 else 5 if target >= 15 else 4
    crit_high = min(17 if target <= 15 else 18, max(target + 10, 5))
    rule = rules.critical_success if roll_is_low(total, target) else rules.critical_failure
    return Step(rule, "explain.gurps.not_critical", {**fields, "low": crit_low, "high": crit_high})


def roll_is_low(total: int, target: int) -> bool:
    """A roll at or under the target is measured against the critical-success bands, else failure."""
    return total <= target


def check_explanation(roll: SuccessRoll, skill: Step | None = None) -> Explanation:
    """`%check` explained: how the skill level was reached (when known), the roll's steps and its
    exact odds of success."""
    odds = None if roll.refused is not None else roll.odds.success
    steps = ([skill] if skill is not None else []) + roll_steps(roll)
    return Explanation(tuple(steps), odds, "explain.title.check", {"who": _who(roll) or roll.target})


def skill_step(level: Any, difficulty: str, points: int) -> Step | None:
    """How a sheet skill got its level (a SkillLevel): bought with points (GURPS-STD-01) or an
    untrained default (GURPS-STD-03); None for a level written on the sheet directly."""
    if level.source == "points" and level.relative is not None:
        return Step("GURPS-STD-01", "explain.gurps.skill_points",
                    {"skill": level.name, "attribute": level.attribute.upper(), "difficulty": difficulty.upper()[:1],
                     "points": points, "relative": f"{level.relative:+d}" if level.relative else "",
                     "level": level.level})
    if level.source.startswith("default"):
        return Step("GURPS-STD-03", "explain.gurps.skill_default",
                    {"skill": level.name, "source": level.source.removeprefix("default ").upper(),
                     "level": level.level})
    return None


def contest_explanation(contest: QuickContest) -> Explanation:
    """`%contest` explained: both rolls, then who won (SR-10) and by how much (SR-11)."""
    steps: list[Step] = []
    for side, roll in (("A", contest.a), ("B", contest.b)):
        steps += [Step(s.rule, s.key, {**s.fields, "side": side}) for s in roll_steps(roll)]
    winner = quick_winner(contest.a, contest.b)
    a_ok, b_ok = contest.a.success, contest.b.success
    case = "both_succeed" if a_ok and b_ok else "both_fail" if not (a_ok or b_ok) else "one_succeeds"
    names = {"a": _who(contest.a) or "A", "b": _who(contest.b) or "B"}
    if winner is None:
        steps.append(Step("GURPS-SR-10", "explain.gurps.contest_tie", {"case": case}))
    else:
        steps.append(Step("GURPS-SR-10", f"explain.gurps.contest_{case}", {"winner": names[winner]}))
        steps.append(Step("GURPS-SR-11", "explain.gurps.victory_margin",
                          {"winner": names[winner], "margin": margin_of_victory(contest.a, contest.b)}))
    win_a = contest.odds.a_wins
    return Explanation(tuple(steps), win_a, "explain.title.contest", {"a": names["a"], "b": names["b"]})


# ---------------------------------------------------------------- damage and combat

def damage_steps(damage: DamageRoll) -> list[Step]:
    """Basic damage (SR-01 dice, DMG-04 minimum and halving), DR (DMG-05), wounding (DMG-07/08)."""
    spec = damage.spec
    steps = [Step("GURPS-SR-01", "explain.gurps.damage_dice",
                  {"text": spec.text or f"{spec.dice}d{spec.adds:+d}", "faces": tuple(damage.faces),
                   "raw": damage.raw})]
    if damage.halved or damage.basic != damage.raw:
        steps.append(Step("GURPS-DMG-04", "explain.gurps.damage_minimum",
                          {"raw": damage.raw, "basic": damage.basic, "halved": damage.halved}))
    if damage.penetrating == 0:
        steps.append(Step("GURPS-DMG-05", "explain.gurps.no_penetration",
                          {"basic": damage.basic, "dr": damage.armor_dr}))
        return steps
    steps.append(Step("GURPS-DMG-05", "explain.gurps.penetration",
                      {"basic": damage.basic, "dr": damage.armor_dr, "penetrating": damage.penetrating}))
    steps.append(Step("GURPS-DMG-07", "explain.gurps.wounding",
                      {"kind": spec.kind, "multiplier": damage.multiplier}))
    steps.append(Step("GURPS-DMG-08", "explain.gurps.injury",
                      {"penetrating": damage.penetrating, "multiplier": damage.multiplier, "injury": damage.injury}))
    return steps


def damage_explanation(damage: DamageRoll) -> Explanation:
    return Explanation(tuple(damage_steps(damage)), None, "explain.title.damage", {"text": damage.spec.text})


def injury_steps(report: Any) -> list[Step]:
    """What the injury did to HP (DMG-08), shock (INJ-05) and a major wound (INJ-06)."""
    steps = [Step("GURPS-DMG-08", "explain.gurps.hp",
                  {"name": report.name, "injury": report.injury, "before": report.hp_before, "after": report.hp_after})]
    if report.shock:
        steps.append(Step("GURPS-INJ-05", "explain.gurps.shock", {"name": report.name, "shock": report.shock}))
    if report.major_wound:
        steps.append(Step("GURPS-INJ-06", "explain.gurps.major_wound", {"name": report.name}))
    return steps


def _hit_steps(damage_report: Any) -> list[Step]:
    if damage_report is None:
        return []
    return damage_steps(damage_report.damage) + injury_steps(damage_report.injury)


def attack_explanation(report: Any) -> Explanation:
    """`%attack` explained: the attack roll (CMB-26..28), the defense offered (CMB-40) or why none
    (a critical hit, CMB-27), and the damage when it hit at once."""
    steps: list[Step] = []
    attack = report.attack
    if attack is None:
        return Explanation((), None, "explain.title.attack", {"who": "", "target": ""})
    steps += roll_steps(attack.roll, ATTACK_ROLL)
    if attack.roll.success and report.offered:
        offered = ", ".join(f"{kind} {value}" for kind, value in report.offered)
        steps.append(Step("GURPS-CMB-40", "explain.gurps.defense_offered",
                          {"target": attack.target, "offered": offered}))
    elif attack.roll.success and attack.roll.critical == "success":
        steps.append(Step("GURPS-CMB-27", "explain.gurps.no_defense_critical", {"target": attack.target}))
    steps += _hit_steps(report.damage)
    return Explanation(tuple(steps), attack.roll.odds.success, "explain.title.attack",
                       {"who": attack.attacker, "target": attack.target})


def defense_explanation(report: Any) -> Explanation:
    """`%defend` explained: the defense roll (CMB-40/42), then the damage if it failed."""
    steps: list[Step] = []
    odds = None
    if report.roll is not None:
        steps += roll_steps(report.roll, DEFENSE_ROLL)
        odds = report.roll.odds.success
    steps += _hit_steps(report.damage)
    title = "explain.title.defend" if report.roll is not None else "explain.title.undefended"
    return Explanation(tuple(steps), odds, title, {"who": report.defender, "kind": report.kind})


def combat_damage_explanation(report: Any) -> Explanation:
    """`%damage` in a fight: the damage roll and what the injury did."""
    return Explanation(tuple(_hit_steps(report)), None, "explain.title.damage", {"text": report.damage.spec.text})


HAZARD_RULES = {"fall": "GURPS-HAZ-06", "cold": "GURPS-HAZ-01", "heat": "GURPS-HAZ-13", "poison": "GURPS-HAZ-15",
                "disease": "GURPS-HAZ-07", "suffocation": "GURPS-HAZ-17"}
FIRE_RULE = "GURPS-HAZ-10"
FP_RULES = {"cold": "GURPS-HAZ-03", "heat": "GURPS-HAZ-13", "suffocation": "GURPS-HAZ-17"}


def hazard_explanation(outcome: Any, who: str, metres: float = 0) -> Explanation:
    """`%hazard` explained from its outcome: the hazard's rule, its HT (or Catfall DX) roll, the
    damage (a fall's crushing dice, fire) and the FP lost."""
    rule = HAZARD_RULES.get(outcome.kind, FIRE_RULE)
    steps = [Step(rule, "explain.gurps.hazard", {"who": who, "kind": outcome.kind})]
    if outcome.fall is not None and outcome.fall.dice is not None:
        steps.append(Step("GURPS-HAZ-06", "explain.gurps.fall",
                          {"metres": metres, "velocity": outcome.fall.velocity, "dice": str(outcome.fall.dice)}))
    if outcome.check is not None:
        steps += roll_steps(outcome.check)
    if outcome.damage is not None:
        steps += damage_steps(outcome.damage)
    if outcome.fp_loss:
        steps.append(Step(FP_RULES.get(outcome.kind, rule), "explain.gurps.fp_loss",
                          {"who": who, "fp": outcome.fp_loss}))
    odds = outcome.check.odds.success if outcome.check is not None and outcome.check.refused is None else None
    return Explanation(tuple(steps), odds, "explain.title.hazard", {"who": who, "kind": outcome.kind})


# ---------------------------------------------------------------- the events, with the table at hand

@explains_on_table("gurps.check")
def _check_event(table: Core, event: Event) -> Explanation:
    roll = SuccessRoll.from_dict(event.data["result"])
    return check_explanation(roll, _skill_step(table, roll))


@explains_on_table("gurps.contest")
def _contest_event(table: Core, event: Event) -> Explanation:
    return contest_explanation(QuickContest.from_dict(event.data["result"]))


@explains_on_table("gurps.damage")
def _damage_event(table: Core, event: Event) -> Explanation:
    return damage_explanation(DamageRoll.from_dict(event.data["result"]))


COMBAT_EXPLAINED = {"attack": attack_explanation, "defend": defense_explanation, "damage": combat_damage_explanation}


@explains_on_table(*(f"combat.{op}" for op in (*COMBAT_EXPLAINED, "maneuver", "next", "cast")))
def _combat_event(table: Core, event: Event) -> Explanation | None:
    """An attack, a defence or damage in a fight: its operation rerun on the fight just before it; any
    combat step also works the rolls it made inside itself (stay conscious, knockdown ...)."""
    found = None
    if event.data.get("op") in COMBAT_EXPLAINED:
        report = _combat_report(table, event)
        found = None if report is None else COMBAT_EXPLAINED[event.data["op"]](report)
    return _with_nested(found, event.data)


NESTED_RULES = (  # a nested roll's label -> the rule that asked for it
    ("stay conscious", "GURPS-INJ-02"), ("Will to act", "GURPS-FAT-02"), ("knockdown", "GURPS-INJ-07"),
    ("death check", "GURPS-INJ-03"), ("stun recovery", "GURPS-INJ-08"), ("keep concentrating", "GURPS-CMB-23"),
    ("Will (no air", "GURPS-HAZ-18"), ("HT (no air", "GURPS-HAZ-20"), ("Hearing", "GURPS-CMB-51"),
    ("resist feint", "GURPS-CMB-21"),
)


def nested_roll_steps(rolls: Any, who: str = "") -> list[Step]:
    """The rolls a combat step made inside itself (stored with its event as "rolls"): each named with
    the rule that asked for it, then worked as any success roll."""
    steps: list[Step] = []
    for item in rolls:
        roll = SuccessRoll.from_dict(item["roll"])
        rule = next((rule for start, rule in NESTED_RULES if roll.label.startswith(start)), "GURPS-SR-02")
        steps.append(Step(rule, "explain.gurps.nested", {"label": roll.label, "who": roll.actor or who}))
        steps += roll_steps(roll)
    return steps


def _with_nested(found: Explanation | None, data: Any) -> Explanation | None:
    """`found` with the rolls its step made inside itself as further steps; a step that explains
    nothing else explains those."""
    rolls = data.get("rolls") or ()
    if not rolls:
        return found
    args = data.get("args") or {}
    steps = nested_roll_steps(rolls, str(args.get("name") or args.get("attacker") or args.get("target") or ""))
    if found is None:
        return Explanation(tuple(steps), None, "explain.title.nested", {"what": data.get("op", "")})
    return replace(found, steps=(*found.steps, *steps))


def _skill_step(table: Core, roll: SuccessRoll) -> Step | None:
    """How the actor's sheet reaches the rolled skill level, if the sheet still gives that level."""
    if roll.kind != "skill" or not roll.actor or not roll.label:
        return None
    characters = table.state["gurps"].characters  # the sheets (the "gurps" state part)
    found, _ = resolve_name(roll.actor, characters)
    if found is None:
        return None
    character = characters[found]
    try:
        level = character.skill_level(roll.label)
    except GameKernelError:
        return None
    if level.level != roll.base:
        return None
    entry = character.find_skill_entry(roll.label)
    difficulty = (entry.difficulty if entry else "") or _skill_difficulty(level.name)
    return skill_step(level, difficulty, entry.points if entry else 0)


def _skill_difficulty(name: str) -> str:
    from gamekernel.gurps.rules.skills import maybe_skill

    definition = maybe_skill(name)
    return definition.difficulty if definition else ""


@explains_on_table("combat.hazard")
def _hazard_event(table: Core, event: Event) -> Explanation | None:
    """Expose the person as they were just before the event to the same hazard with its dice."""
    from gamekernel.gurps.combat_part import PART, lend_characters
    from gamekernel.gurps.rules import hazards as hz
    from gamekernel.gurps.rules.combat import Tape
    from gamekernel.replay import active_events, replay

    args = event.data["args"]
    state = replay(active_events([e for e in table.log if e.seq < event.seq])[0])
    part = state[PART]
    lend_characters(state, part)
    try:
        c = part.person(args["name"])
        options = {k: v for k, v in args.items() if k not in ("name", "hazard")}
        outcome = hz.expose(args["hazard"], Tape(faces=event.data["faces"]).d6, ht=c.ht, hp_max=c.hp_max,
                            dr=c.dr, dx=c.dx, **options)
    except Exception:  # a hazard that no longer replays is not explained
        return None
    return hazard_explanation(outcome, c.name, float(args.get("metres", 0)))


def _combat_report(table: Core, event: Event) -> Any:
    """Rerun a combat event's operation with its recorded dice on the state just before it."""
    from gamekernel.gurps.combat_ops import OPS
    from gamekernel.gurps.combat_part import PART, lend_characters
    from gamekernel.gurps.rules.combat import Tape
    from gamekernel.replay import active_events, replay

    before = [e for e in table.log if e.seq < event.seq]
    state = replay(active_events(before)[0])
    part = state[PART]
    lend_characters(state, part)
    try:
        _, (_kind, report) = OPS[event.data["op"]](part, event.data["args"], Tape(faces=event.data["faces"]))
    except Exception:  # a fight that no longer replays is not explained
        return None
    return report


# ---------------------------------------------------------------- the words of its steps

@explain_words
def _step_words(key: str, name: str, value: object) -> str | None:
    """A step's modifiers, skill and roller in the current language: the labels the rules or the table
    wrote ("dark", "per −HP") and a skill's Japanese name (〈鍵開け〉); None for any other field."""
    if name == "mods" and isinstance(value, tuple | list):
        return " ".join(t("gurps.mod.labelled", value=sign(v), label=rule_label(label)) if label else sign(v)
                        for v, label in value)
    if name == "skill" and isinstance(value, str):
        return display_name(value)
    if isinstance(value, Who):
        return " ".join(part for part in (value.actor, display_name(value.label)) if part)
    return None


# ---------------------------------------------------------------- the quiz: `%quiz gurps`

SITUATIONS = (("haste", -3), ("darkness", -5), ("good_tools", 2), ("bad_footing", -2), ("distraction", -3))
VERDICTS = ("success", "failure", "crit_success", "crit_failure")


def _make_chance(rng: random.Random) -> Question:
    """The chance of a check at a skill in a situation (GURPS-SR-02, SR-04)."""
    skill = rng.randint(10, 15)
    situation, modifier = SITUATIONS[rng.randrange(len(SITUATIONS))]
    target = skill + modifier
    odds = {n: check_odds(n).success for n in range(target - 4, target + 5)}
    choices, answer = fraction_choices(odds[target], [odds[target + 2], odds[target - 2], odds[target + 4],
                                                      odds[target - 4]], rng)
    return {"type": "gurps.chance", "skill": skill, "situation": situation, "modifier": modifier,
            "choices": choices, "answer": answer}


def _make_verdict(rng: random.Random) -> Question:
    """What three dice make of a target: success, failure or a critical (GURPS-SR-02, SR-07, SR-08)."""
    target = rng.randint(5, 16)
    dice = [rng.randint(1, 6) for _ in range(3)]
    success, critical = classify(sum(dice), target)
    verdict = f"crit_{critical}" if critical else "success" if success else "failure"
    return {"type": "gurps.verdict", "target": target, "dice": dice, "choices": list(VERDICTS),
            "answer": VERDICTS.index(verdict)}


def _explain_chance(question: Question) -> Explanation:
    skill, modifier = question["skill"], question["modifier"]
    target = skill + modifier
    label = t(f"quiz.situation.{question['situation']}")
    odds = check_odds(target).success
    steps = (Step("GURPS-SR-04", "explain.gurps.target_mods",
                  {"who": "", "base": skill, "mods": ((modifier, label),), "target": target}),
             Step("GURPS-SR-02", "explain.quiz.count", {"target": target, "ways": odds * 216}))
    return Explanation(steps, odds)


quiz_set(
    "gurps",
    chance=QuestionKind(
        make=_make_chance,
        prompt=lambda q: t("quiz.q.gurps.chance", skill=q["skill"], modifier=sign(q["modifier"]),
                           situation=t(f"quiz.situation.{q['situation']}")),
        choices=fraction_texts,
        explain=_explain_chance),
    verdict=QuestionKind(
        make=_make_verdict,
        prompt=lambda q: t("quiz.q.gurps.verdict", target=q["target"], total=sum(q["dice"]),
                           dice=",".join(str(d) for d in q["dice"])),
        choices=code_texts,
        explain=lambda q: check_explanation(success_roll(q["target"], dice=tuple(q["dice"])))),
)
