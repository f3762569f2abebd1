"""What the MtG house rule teaches: the working of an action check and a boost (`--explain`, `%explain`),
registered in gamekernel.lessons when the rule set's handles are imported (the teaching features read
it and name no rule set). A card is named in the current language (its printed Japanese name in ja)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamekernel.lessons import Explanation, Step, explains_on_table
from gamekernel.mtg.actions import Mtg

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
