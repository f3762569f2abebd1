"""Quiz questions generated from the rules engine (a teaching feature): every answer and every explanation is
computed by the rule sets' own functions, and the questions are drawn with the session RNG.

A question is plain JSON data (stored in the `quiz.start` event, so the log replays it): its type,
the numbers it is about, the choices (codes or exact fractions) and the index of the right one.
`explanation(question)` gives the steps shown when the learner answers wrong.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from gamekernel import lessons
from gamekernel.errors import UsageError
from gamekernel.gammaworld.lessons import flux_pending_explanation
from gamekernel.gammaworld.rules.odds import p_overcharge
from gamekernel.gurps.lessons import check_explanation
from gamekernel.gurps.rules.checks import classify, success_roll
from gamekernel.gurps.rules.odds import check_odds
from gamekernel.i18n import t
from gamekernel.lessons import Explanation, Step
from gamekernel.mtg.lessons import mtg_check_explanation
from gamekernel.mtg.rules.facts import COLOURS, bundled_facts, display_name
from gamekernel.mtg.rules.kinds import colour_modifier

QUIZ_SETS = ("gurps", "mtg", "alpha")
MAX_QUESTIONS = 20
SITUATIONS = (("haste", -3), ("darkness", -5), ("good_tools", 2), ("bad_footing", -2), ("distraction", -3))
VERDICTS = ("success", "failure", "crit_success", "crit_failure")
MTG_CARDS = ("Elvish Mystic", "Runeclaw Bear", "Lightning Bolt", "Counterspell", "Serra Angel", "Shivan Dragon",
             "Dark Ritual", "Giant Growth", "Forest", "Island", "Mountain", "Plains", "Swamp", "Sol Ring")
DECIDES = ("first", "second", "both", "colour")
FLUX_CHOICES = ("flux", "nothing", "overcharge", "end")

Question = dict[str, Any]


def make_quiz(rule_set: str, count: int, rng: random.Random) -> list[Question]:
    """`count` questions on `rule_set` (gurps, mtg or alpha, or a quiz set a rule set registered in
    gamekernel/lessons.py), its kinds of question in turn."""
    if rule_set not in QUIZ_SETS and rule_set not in lessons.QUIZ_SETS:
        raise UsageError(t("quiz.err.set", got=rule_set, sets=", ".join([*QUIZ_SETS, *lessons.QUIZ_SETS])))
    if not 1 <= count <= MAX_QUESTIONS:
        raise UsageError(t("quiz.err.count", count=count, most=MAX_QUESTIONS))
    if rule_set in lessons.QUIZ_SETS:  # a rule set's own quiz (gamekernel/lessons.py)
        types = lessons.QUIZ_SETS[rule_set]
        return [{**lessons.QUESTION_KINDS[types[i % len(types)]].make(rng), "type": types[i % len(types)]}
                for i in range(count)]
    makers = {"gurps": (_gurps_chance, _gurps_verdict), "mtg": (_mtg_target, _mtg_achievement),
              "alpha": (_alpha_overcharge, _alpha_flux)}[rule_set]
    return [makers[i % 2](rng) for i in range(count)]


def _fraction_choices(correct: Fraction, others: list[Fraction], rng: random.Random) -> tuple[list, int]:
    pool = [correct, *[p for p in dict.fromkeys(others) if p != correct][:3]]
    rng.shuffle(pool)
    return [[p.numerator, p.denominator] for p in pool], pool.index(correct)


def _gurps_chance(rng: random.Random) -> Question:
    skill = rng.randint(10, 15)
    situation, modifier = SITUATIONS[rng.randrange(len(SITUATIONS))]
    target = skill + modifier
    odds = {n: check_odds(n).success for n in range(target - 4, target + 5)}
    choices, answer = _fraction_choices(odds[target], [odds[target + 2], odds[target - 2], odds[target + 4],
                                                       odds[target - 4]], rng)
    return {"type": "gurps.chance", "skill": skill, "situation": situation, "modifier": modifier,
            "choices": choices, "answer": answer}


def _gurps_verdict(rng: random.Random) -> Question:
    target = rng.randint(5, 16)
    dice = [rng.randint(1, 6) for _ in range(3)]
    success, critical = classify(sum(dice), target)
    verdict = f"crit_{critical}" if critical else "success" if success else "failure"
    return {"type": "gurps.verdict", "target": target, "dice": dice, "choices": list(VERDICTS),
            "answer": VERDICTS.index(verdict)}


def _two_cards(rng: random.Random) -> tuple[str, str]:
    first, second = rng.sample(MTG_CARDS, 2)
    return first, second


def _mtg_target(rng: random.Random) -> Question:
    kind = rng.choice(COLOURS)
    first, second = _two_cards(rng)
    choices = _shuffled(DECIDES, rng)
    return {"type": "mtg.decides", "kind": kind, "difficulty": rng.randint(0, 4), "first": first,
            "second": second, "choices": choices, "answer": choices.index("first"),
            "ja_names": _ja_names(first, second)}


def _ja_names(*names: str) -> dict[str, str]:
    """The Japanese printed names of the bundled cards a question turns, so that it reads in Japanese."""
    found = {name: bundled_facts().lookup(name).ja_name for name in names}
    return {name: ja for name, ja in found.items() if ja}


def _shuffled(codes: tuple[str, ...], rng: random.Random) -> list[str]:
    choices = list(codes)
    rng.shuffle(choices)
    return choices


def _mtg_achievement(rng: random.Random) -> Question:
    kind = rng.choice(COLOURS)
    first, second = _two_cards(rng)
    achievement = _achievement(kind, second)
    others = [achievement + d for d in (3, -2, 5, 2, -3) if achievement + d >= 0]
    pool = [achievement, *[v for v in dict.fromkeys(others) if v != achievement][:3]]
    rng.shuffle(pool)
    return {"type": "mtg.achievement", "kind": kind, "difficulty": rng.randint(0, 4), "first": first,
            "second": second, "choices": pool, "answer": pool.index(achievement), "ja_names": _ja_names(first, second)}


def _achievement(kind: str, name: str) -> int | float:  # mana values may be halves (Un-cards)
    card = bundled_facts().lookup(name)
    colour = card.achievement_colours[0] if card.achievement_colours else None
    return card.mana_value + colour_modifier(kind, colour)


def _alpha_overcharge(rng: random.Random) -> Question:
    bonus = rng.randint(0, 5)
    odds = {b: p_overcharge(b) for b in range(bonus - 4, bonus + 5)}
    choices, answer = _fraction_choices(odds[bonus], [odds[bonus + 2], odds[bonus - 2], odds[bonus + 4],
                                                      odds[bonus - 4]], rng)
    return {"type": "alpha.overcharge", "bonus": bonus, "choices": choices, "answer": answer}


def _alpha_flux(rng: random.Random) -> Question:
    bonus = rng.randint(0, 6)
    choices = _shuffled(FLUX_CHOICES, rng)
    return {"type": "alpha.natural_one", "label": f"1d20+{bonus}", "choices": choices, "answer": choices.index("flux")}


def is_correct(question: Question, choice: int) -> bool:
    if not 0 <= choice < len(question["choices"]):
        raise UsageError(t("quiz.err.choice", choice=choice + 1, count=len(question["choices"])))
    return choice == question["answer"]


def explanation(question: Question) -> Explanation:
    """The steps that give the right answer, from the same rule functions as a live roll or check."""
    kind = question["type"]
    if kind in lessons.QUESTION_KINDS:
        return lessons.QUESTION_KINDS[kind].explain(question)
    if kind == "gurps.chance":
        skill, modifier = question["skill"], question["modifier"]
        target = skill + modifier
        label = t(f"quiz.situation.{question['situation']}")
        odds = check_odds(target).success
        steps = (Step("GURPS-SR-04", "explain.gurps.target_mods",
                         {"who": "", "base": skill, "mods": ((modifier, label),), "target": target}),
                 Step("GURPS-SR-02", "explain.quiz.count", {"target": target, "ways": odds * 216}))
        return Explanation(steps, odds)
    if kind == "gurps.verdict":
        return check_explanation(success_roll(question["target"], dice=tuple(question["dice"])))
    if kind in ("mtg.decides", "mtg.achievement"):
        names = question.get("ja_names", {})
        return mtg_check_explanation(_mtg_result(question), is_land=lambda n: bundled_facts().lookup(n).is_land,
                                        shown=lambda n: display_name(n, names.get(n)))
    if kind == "alpha.overcharge":
        bonus = question["bonus"]
        faces = sum(1 for face in range(1, 21) if face + bonus >= 10)
        steps = (Step("GW-ALPHA-14", "explain.quiz.origin", {"bonus": bonus}),
                 Step("GW-ALPHA-13", "explain.quiz.overcharge_faces", {"need": 10 - bonus, "faces": faces}))
        return Explanation(steps, p_overcharge(bonus))
    return flux_pending_explanation({"count": 1, "label": question["label"]}, "")


def _mtg_result(question: Question) -> dict[str, Any]:
    facts = bundled_facts()
    kind, difficulty = question["kind"], question["difficulty"]
    first, second = facts.lookup(question["first"]), facts.lookup(question["second"])
    colours = list(second.achievement_colours)
    colour = colours[0] if colours else None
    modifier = colour_modifier(kind, colour)
    relation = "colourless" if colour is None else "same" if modifier == 5 else "allied" if modifier == 3 else "other"
    target = first.mana_value + difficulty
    achievement = second.mana_value + modifier
    return {"kind": kind, "difficulty": difficulty, "known": [], "first": first.name, "second": second.name,
            "target": target, "colours": colours, "chosen_colour": colour, "relation": relation,
            "modifier": modifier, "achievement": achievement, "success": achievement >= target,
            "bottom": [first.name, second.name], "odds": None, "actor": ""}
