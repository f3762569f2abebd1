"""What the MtG house rule teaches: the working of an action check and a boost (`--explain`, `%explain`),
the colour words of its steps, and its quiz (`%quiz mtg`), registered in gamekernel.lessons when the
rule set's handles are imported (the teaching features read it and name no rule set). A card is named
in the current language (its printed Japanese name in ja)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamekernel.i18n import t
from gamekernel.lessons import (
    Explanation,
    Question,
    QuestionKind,
    Step,
    code_texts,
    explain_words,
    explains_on_table,
    quiz_set,
    shuffled,
)
from gamekernel.mtg.actions import Mtg
from gamekernel.mtg.rules.facts import COLOURS, bundled_facts, display_name
from gamekernel.mtg.rules.kinds import colour_modifier

if TYPE_CHECKING:
    from gamekernel.events import Event
    from gamekernel.rulesets import Core


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


# ---------------------------------------------------------------- the events, with the table at hand

@explains_on_table("mtg.check")
def _check_event(table: Core, event: Event) -> Explanation:
    data = event.data
    return mtg_check_explanation({"actor": data["actor"], **data["result"]}, is_land=lambda n: _is_land(table, n),
                                 shown=lambda n: _card_shown(table, n))


@explains_on_table("mtg.boost")
def _boost_event(table: Core, event: Event) -> Explanation:
    data = event.data
    boosted = {"actor": data["actor"], **data.get("result", data)}
    return mtg_boost_explanation(boosted, _check_before(table, event))


def _card_shown(table: Core, name: str) -> str:
    """A card's name as the current language prints it (its Japanese printed name in ja, when known)."""
    try:
        facts = (table.state["mtg"].card_facts(name) if name in table.state["mtg"].facts
                 else Mtg.of(table).facts.lookup(name))
    except Exception:  # an unknown card keeps the name the log holds
        return name
    return facts.shown_name


def _is_land(table: Core, name: str) -> bool:
    facts = table.state["mtg"].facts.get(name)
    if facts is not None:
        return table.state["mtg"].card_facts(name).is_land
    try:
        return Mtg.of(table).facts.lookup(name).is_land
    except Exception:  # an unknown card is simply not explained as a land
        return False


def _check_before(table: Core, event: Event) -> dict | None:
    for earlier in reversed(table.log):
        if earlier.seq < event.seq and earlier.kind == "mtg.check" and earlier.actor == event.actor:
            return earlier.data["result"]
    return None


# ---------------------------------------------------------------- the words of its steps

COLOUR_FIELDS = ("kind", "colour", "chosen")


@explain_words
def _step_words(key: str, name: str, value: object) -> str | None:
    """The colours of an MtG step or title in the current language (MTG-CHK-07..10)."""
    if not (key.startswith("explain.mtg.") or key == "explain.title.mtg"):
        return None
    if name in COLOUR_FIELDS and isinstance(value, str):
        return t(f"mtg.colour.{value}")
    if name == "colours" and isinstance(value, tuple | list):
        return t("mtg.comma").join(t(f"mtg.colour.{c}") for c in value)
    return None


# ---------------------------------------------------------------- the quiz: `%quiz mtg`

CARDS = ("Elvish Mystic", "Runeclaw Bear", "Lightning Bolt", "Counterspell", "Serra Angel", "Shivan Dragon",
         "Dark Ritual", "Giant Growth", "Forest", "Island", "Mountain", "Plains", "Swamp", "Sol Ring")
DECIDES = ("first", "second", "both", "colour")


def _two_cards(rng: random.Random) -> tuple[str, str]:
    first, second = rng.sample(CARDS, 2)
    return first, second


def _ja_names(*names: str) -> dict[str, str]:
    """The Japanese printed names of the bundled cards a question turns, so that it reads in Japanese."""
    found = {name: bundled_facts().lookup(name).ja_name for name in names}
    return {name: ja for name, ja in found.items() if ja}


def _make_decides(rng: random.Random) -> Question:
    """Which card sets the target of a check (MTG-CHK-05)."""
    kind = rng.choice(COLOURS)
    first, second = _two_cards(rng)
    choices = shuffled(DECIDES, rng)
    return {"type": "mtg.decides", "kind": kind, "difficulty": rng.randint(0, 4), "first": first,
            "second": second, "choices": choices, "answer": choices.index("first"),
            "ja_names": _ja_names(first, second)}


def _achievement(kind: str, name: str) -> int | float:  # mana values may be halves (Un-cards)
    card = bundled_facts().lookup(name)
    colour = card.achievement_colours[0] if card.achievement_colours else None
    return card.mana_value + colour_modifier(kind, colour)


def _make_achievement(rng: random.Random) -> Question:
    """The achievement value of a check's second card (MTG-CHK-06..08)."""
    kind = rng.choice(COLOURS)
    first, second = _two_cards(rng)
    achievement = _achievement(kind, second)
    others = [achievement + d for d in (3, -2, 5, 2, -3) if achievement + d >= 0]
    pool = [achievement, *[v for v in dict.fromkeys(others) if v != achievement][:3]]
    rng.shuffle(pool)
    return {"type": "mtg.achievement", "kind": kind, "difficulty": rng.randint(0, 4), "first": first,
            "second": second, "choices": pool, "answer": pool.index(achievement), "ja_names": _ja_names(first, second)}


def _quiz_result(question: Question) -> dict[str, Any]:
    """The question's check as a logged outcome, for `mtg_check_explanation`."""
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


def _explain_question(question: Question) -> Explanation:
    names = question.get("ja_names", {})
    return mtg_check_explanation(_quiz_result(question), is_land=lambda n: bundled_facts().lookup(n).is_land,
                                 shown=lambda n: display_name(n, names.get(n)))


def _prompt(question: Question) -> str:
    names = question.get("ja_names", {})  # a quiz saved before they were kept: English names
    first, second = question["first"], question["second"]
    return t(f"quiz.q.{question['type']}", kind=t(f"mtg.colour.{question['kind']}"),
             difficulty=question["difficulty"], first=display_name(first, names.get(first)),
             second=display_name(second, names.get(second)))


quiz_set(
    "mtg",
    decides=QuestionKind(make=_make_decides, prompt=_prompt, choices=code_texts, explain=_explain_question),
    achievement=QuestionKind(make=_make_achievement, prompt=_prompt, choices=lambda q: [str(v) for v in q["choices"]],
                             explain=_explain_question),
)
