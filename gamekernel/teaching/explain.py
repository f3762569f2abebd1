"""Explain mode: which rule decided what, derived from an event's stored outcome (a teaching feature).

Each function reads the facts a result or event already holds (the dice, the target, the cards
revealed) and returns numbered `Step`s: the rule id (shared RULES.md) that decided that part, an
i18n key for the working with its numbers, and the numbers. The explanation of each rule and its
source (seed document, lines, section) are data, one file per rule set
(gamekernel/<rule set>/data/explain.json), read by `rule_note`. Nothing here draws: render/explain.py does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from gamekernel.display import Displayable
from gamekernel.gurps.rules.checks import SuccessRoll
from gamekernel.gurps.rules.contests import QuickContest, margin_of_victory, quick_winner
from gamekernel.gurps.rules.damage import DamageRoll
from gamekernel.lessons import Explanation, Step


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class Explained(Displayable):
    """A result shown together with its working (`--explain`, `%explain N`); `result` may be None
    when an event is explained from the log alone."""

    result: Any
    explanations: tuple[Explanation, ...]
    seq: int | None = None
    by: str | None = None  # the player whose action it was (a remote table), None for the GM's own


@dataclass(frozen=True)
class RuleNote:
    """A rule's own-words explanation and where the seed says it."""

    rule: str
    text: str
    seed: str
    lines: str
    section: str

    @classmethod
    def lookup(cls, rule: str, language: str) -> RuleNote:
        """The note of `rule` in `language` (en or ja), read from the rule sets' explain.json."""
        note = rule_notes()[rule]
        return cls(rule, note[language], note["seed"], note["lines"], note["section"][language])


@cache
def rule_notes() -> dict[str, dict[str, Any]]:
    """Every rule id with an explanation: the union of the rule sets' explain.json files."""
    from gamekernel.rulesets import rule_sets

    notes: dict[str, dict[str, Any]] = {}
    for declared in rule_sets():
        path = None if declared.rule_notes is None else declared.folder / declared.rule_notes
        if path is not None and path.is_file():  # optional: a rule set without notes explains by its steps
            notes.update(json.loads(path.read_text(encoding="utf-8")))
    return notes




# ---------------------------------------------------------------- GURPS success rolls

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


class Who(str):
    """Who rolled: "Aiko Lockpicking" as text, keeping the actor and the roll's label apart so that
    the label can be drawn in the current language (render_explain.py)."""

    actor: str
    label: str

    def __new__(cls, actor: str, label: str) -> Who:
        who = super().__new__(cls, " ".join(part for part in (actor, label) if part))
        who.actor, who.label = actor, label
        return who


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


# ---------------------------------------------------------------- GURPS damage and combat

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


# ---------------------------------------------------------------- MtG action check

def mtg_check_explanation(result: Mapping[str, Any], *, is_land: Callable[[str], bool] = lambda name: False,
                          shown: Callable[[str], str] = lambda name: name) -> Explanation:
    """An action check from its logged outcome: known cards (CHK-04), target (CHK-05), the
    achievement card's colour (CHK-09 lands, CHK-10 several colours) and modifier (CHK-07/08),
    the verdict (CHK-11) and the cards to the bottom (CHK-12). `shown` names a card in the
    current language (the log keeps English names)."""
    kind, difficulty = result["kind"], result["difficulty"]
    steps: list[Step] = [Step("MTG-CHK-01", "explain.mtg.announce", {"kind": kind, "difficulty": difficulty})]
    if result.get("known"):
        steps.append(Step("MTG-CHK-04", "explain.mtg.known", {"cards": ", ".join(map(shown, result["known"]))}))
    target = result["target"]
    steps.append(Step("MTG-CHK-05", "explain.mtg.target",
                      {"card": shown(result["first"]), "mv": target - difficulty, "difficulty": difficulty,
                       "target": target}))
    name, colours = result["second"], tuple(result.get("colours") or ())
    second = shown(name)
    modifier, achievement = result["modifier"], result["achievement"]
    mv = achievement - modifier
    if is_land(name):
        if colours:
            steps.append(Step("MTG-CHK-09", "explain.mtg.land_colours", {"card": second, "colours": colours}))
        else:
            steps.append(Step("MTG-CHK-09", "explain.mtg.land_colourless", {"card": second}))
    if len(colours) > 1:
        steps.append(Step("MTG-CHK-10", "explain.mtg.random_colour",
                          {"card": second, "colours": colours, "chosen": result.get("chosen_colour")}))
    relation = result["relation"]
    rule = "MTG-CHK-08" if relation == "allied" else "MTG-CHK-07"
    steps.append(Step(rule, f"explain.mtg.relation.{relation}",
                      {"card": second, "mv": mv, "modifier": modifier, "achievement": achievement,
                       "colour": result.get("chosen_colour"), "kind": kind}))
    key = "explain.mtg.success" if result["success"] else "explain.mtg.failure"
    steps.append(Step("MTG-CHK-11", key, {"achievement": achievement, "target": target}))
    steps.append(Step("MTG-CHK-12", "explain.mtg.bottom", {"cards": ", ".join(map(shown, result.get("bottom") or ()))}))
    odds = result.get("odds")
    return Explanation(tuple(steps), Fraction(*odds) if odds else None, "explain.title.mtg",
                       {"who": result.get("actor") or "", "kind": kind, "difficulty": difficulty})


def mtg_boost_explanation(boost: Mapping[str, Any], check: Mapping[str, Any] | None) -> Explanation:
    """MTG-CHK-13: the exiled cards, the colourless ones counted, the new achievement against the target."""
    exiled = tuple(boost.get("exiled") or ())
    counted = tuple(name for name, ok in zip(exiled, boost.get("colourless") or (), strict=False) if ok)
    steps = [Step("MTG-CHK-13", "explain.mtg.boost",
                  {"count": len(exiled), "cards": ", ".join(exiled), "counted": ", ".join(counted) or "—",
                   "bonus": boost["bonus"], "achievement": boost["achievement"]})]
    if check is not None:
        key = "explain.mtg.success" if boost["success"] else "explain.mtg.failure"
        steps.append(Step("MTG-CHK-11", key, {"achievement": boost["achievement"], "target": check["target"]}))
    return Explanation(tuple(steps), None, "explain.title.boost", {"who": boost.get("actor") or ""})


# ---------------------------------------------------------------- Gamma World

def overcharge_explanation(detail: Mapping[str, Any], card: str, who: str) -> Explanation:
    """An overcharge from its logged detail: once per power (ALPHA-12), d20 + origin bonus
    (ALPHA-14) against the card's number (ALPHA-13), a natural 1 as a flux (ALPHA-10)."""
    from gamekernel.gammaworld.rules.odds import p_overcharge

    face, bonus, total, need = detail["face"], detail["bonus"], detail["total"], detail["success_min"]
    steps = [Step("GW-ALPHA-12", "explain.gw.overcharge_once", {"card": card})]
    if bonus:
        steps.append(Step("GW-ALPHA-14", "explain.gw.origin_bonus", {"face": face, "bonus": bonus, "total": total}))
    key = "explain.gw.overcharge_success" if detail["success"] else "explain.gw.overcharge_failure"
    steps.append(Step("GW-ALPHA-13", key, {"total": total, "need": need}))
    if not detail["success"] and detail.get("attack"):
        steps.append(Step("GW-ALPHA-13", "explain.gw.attack_still_works", {"card": card}))
    if detail.get("flux"):
        steps.append(Step("GW-ALPHA-10", "explain.gw.natural_one", {"label": "d20", "who": who}))
    return Explanation(tuple(steps), p_overcharge(bonus, need), "explain.title.overcharge", {"who": who, "card": card})


def flux_pending_explanation(detail: Mapping[str, Any], who: str) -> Explanation:
    """A natural 1 on a d20 in an encounter (ALPHA-10): one flux per natural 1."""
    from gamekernel.gammaworld.rules.odds import p_flux

    count = int(detail.get("count", 1))
    steps = (Step("GW-ALPHA-10", "explain.gw.natural_one", {"label": detail.get("label") or "d20", "who": who}),
             Step("GW-ALPHA-10", "explain.gw.flux_owed", {"who": who, "count": count}))
    return Explanation(steps, p_flux(1), "explain.title.flux", {"who": who})


def flux_explanation(detail: Mapping[str, Any], who: str, card_name: Callable[[str], str]) -> Explanation:
    """The flux itself (ALPHA-10): one readied card out, its replacement from the GM deck, usable now."""
    discarded = card_name(detail["discarded"]) if detail.get("discarded") else "—"
    drawn = ", ".join(card_name(c) for c in detail.get("drawn") or ()) or "—"
    source = detail.get("source", "gm")
    steps = (Step("GW-ALPHA-10", "explain.gw.flux_swap", {"who": who, "discarded": discarded, "drawn": drawn}),
             Step("GW-ALPHA-10" if source == "gm" else "GW-ALPHA-04", f"explain.gw.flux_source.{source}", {}),
             Step("GW-ALPHA-10", "explain.gw.flux_usable", {"drawn": drawn}))
    return Explanation(steps, None, "explain.title.flux", {"who": who})



NESTED_RULES = (  # a nested roll's label -> the rule that asked for it
    ("stay conscious", "GURPS-INJ-02"), ("Will to act", "GURPS-FAT-02"), ("knockdown", "GURPS-INJ-07"),
    ("death check", "GURPS-INJ-03"), ("stun recovery", "GURPS-INJ-08"), ("keep concentrating", "GURPS-CMB-23"),
    ("Will (no air", "GURPS-HAZ-18"), ("HT (no air", "GURPS-HAZ-20"), ("Hearing", "GURPS-CMB-51"),
    ("resist feint", "GURPS-CMB-21"),
)


def nested_roll_steps(rolls: Sequence[Mapping[str, Any]], who: str = "") -> list[Step]:
    """The rolls a combat step made inside itself (stored with its event as "rolls"): each named with
    the rule that asked for it, then worked as any success roll."""
    steps: list[Step] = []
    for item in rolls:
        roll = SuccessRoll.from_dict(item["roll"])
        rule = next((rule for start, rule in NESTED_RULES if roll.label.startswith(start)), "GURPS-SR-02")
        steps.append(Step(rule, "explain.gurps.nested", {"label": roll.label, "who": roll.actor or who}))
        steps += roll_steps(roll)
    return steps
