"""GURPS's log lines: the one-line text of each `gurps.*` and `combat.*` event, drawn when the log is
viewed, in the current language. Events written by earlier versions carried their text (a combat
`summary`): they are drawn from their facts like new ones, and only a fact an old event lacks (whose
turn began, for an old `combat.next`) falls back to the text it stored."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gamekernel.display import summarizes
from gamekernel.gurps.combat_render import label, side_word
from gamekernel.gurps.render import char_change_text, char_update_text, working_text
from gamekernel.gurps.rules.checks import SuccessRoll
from gamekernel.gurps.rules.contests import QuickContest, RegularContest
from gamekernel.gurps.rules.damage import DamageRoll
from gamekernel.gurps.rules.fright import FrightCheck
from gamekernel.gurps.rules.influence import InfluenceResult
from gamekernel.gurps.rules.reactions import ReactionRoll
from gamekernel.gurps.rules.selfcontrol import SelfControlRoll
from gamekernel.i18n import t

Data = Mapping[str, Any]


# ---------------------------------------------------------------- gurps


@summarizes("gurps.char.set")
def _char_set(d: Data) -> str:
    """What a sheet edit changed; older events without the change: the name only."""
    name = d["character"]["name"]
    if not d.get("change"):
        return t("gurps.event.char_set", name=name)
    return char_change_text(name, d["change"])


@summarizes("gurps.char.update")
def _char_update(d: Data) -> str:
    """"Aiko: DX 12 → 13" when the event kept the values before the edit, else "Aiko: dx=13"."""
    if "before" not in d:
        return t("gurps.event.char_update", name=d["name"],
                 changes=", ".join(f"{k}={v}" for k, v in d["changes"].items()))
    return char_update_text(d["name"], d["changes"], d["before"])


@summarizes("gurps.char.use")
def _char_use(d: Data) -> str:
    return t("gurps.event.char_use", name=d["name"])


@summarizes("gurps.char.save")
def _char_save(d: Data) -> str:
    return t("gurps.event.char_save", name=d["name"], path=d["path"])


_GURPS_RESULTS: dict[str, Callable[[dict], object]] = {  # each kind's result, rebuilt from the event
    "gurps.check": SuccessRoll.from_dict, "gurps.contest": QuickContest.from_dict,
    "gurps.regular_contest": RegularContest.from_dict, "gurps.react": ReactionRoll.from_dict,
    "gurps.influence": InfluenceResult.from_dict, "gurps.damage": DamageRoll.from_dict,
    "gurps.fright": FrightCheck.from_dict, "gurps.self_control": SelfControlRoll.from_dict,
}


def _gurps_result(kind: str) -> Callable[[Data], str]:
    rebuild = _GURPS_RESULTS[kind]

    def summary(d: Data) -> str:
        return str(rebuild(d["result"]))

    return summary


for _kind in _GURPS_RESULTS:
    summarizes(_kind)(_gurps_result(_kind))


@summarizes("gurps.luck")
def _luck(d: Data) -> str:
    return t("gurps.event.luck", name=d["result"]["actor"], total=d["result"]["kept"]["total"])


@summarizes("gurps.luck.reset")
def _luck_reset(d: Data) -> str:
    return t("gurps.event.luck_reset", names=", ".join(d["names"]) or "—", minutes=d.get("minutes") or "—")




# ---------------------------------------------------------------- gurps combat


def _combat_outcome(outcome: Data | None, verdict: str) -> str:
    """`: hit`, `: miss, injury 4`, `: defended`...: what an attack, defense or damage event decided
    (empty for an event written before outcomes were kept)."""
    if outcome is None:
        return ""
    parts = []
    if verdict and outcome.get(verdict) is not None:
        parts.append(t(f"combat.outcome.{verdict}.{'yes' if outcome[verdict] else 'no'}"))
    if outcome.get("injury") is not None:
        parts.append(t("combat.outcome.injury", injury=outcome["injury"]))
    return t("combat.outcome.sep") + ", ".join(parts) if parts else ""


def _combat_line(op: str, args: Data, d: Data) -> str:
    name = args.get("name", "")
    if op == "npc":
        return t("combat.event.npc", name=name)
    if op == "add":
        return t("combat.event.add", name=args["combatant"]["name"])
    if op == "start":
        return t("combat.event.start", names=", ".join(c["name"] for c in args["combatants"]))
    if op == "end":
        return t("combat.event.end")
    if op == "next":
        outcome = d.get("outcome")
        if outcome is None:  # written before outcomes were kept: the text it stored
            return str(d.get("summary") or op)
        if outcome["started"] == outcome["ended"]:  # a lone fighter's turn follows his own: no "(after Bob)"
            line = t("combat.event.next_again", name=outcome["started"], round=outcome["round"])
        else:
            line = t("combat.event.next", name=outcome["started"], ended=outcome["ended"], round=outcome["round"])
        return line + _turn_ended(outcome)
    if op == "maneuver":
        line = t("combat.event.maneuver", name=name, maneuver=label(args["maneuver"]))
        built = (d.get("outcome") or {}).get("built_up")
        if built:  # Aim's seconds, Evaluate's bonus so far (GURPS-CMB-12, 13; B364 [std])
            line = t("combat.event.built_up", line=line, target=d["outcome"]["target"],
                     built=t(f"combat.built_up.{args['maneuver']}", count=built))
        return line
    if op == "posture":
        return t("combat.event.posture", name=name, posture=label(args["posture"]))
    if op == "attack":
        working = (d.get("outcome") or {}).get("working")
        if working:  # the GM's modifiers named: the roll's working (GURPS-SR-04)
            roll = SuccessRoll.from_dict({**working, "dice": []})
            line = t("combat.event.attack_working", attacker=args["attacker"], target=args["target"],
                     working=working_text(roll))
        else:
            line = t("combat.event.attack", attacker=args["attacker"], target=args["target"])
        return line + _combat_outcome(d.get("outcome"), "hit")
    if op == "defend":
        kind = label(args["kind"]) + (f" ({args['weapon']})" if args.get("weapon") else "")
        line = t("combat.event.defend", name=name, kind=kind)
        return line + _combat_outcome(d.get("outcome"), "defended")
    if op == "damage":
        return t("combat.event.damage", name=name, spec=args["spec"]) + _combat_outcome(d.get("outcome"), "")
    if op == "arm":
        return f"{name}: {args['weapon']}"
    if op == "hazard":
        return t("combat.event.hazard", name=name, hazard=t(f"combat.hazard_kind.{args['hazard']}"))
    if op == "firstaid":
        return t("combat.event.firstaid", name=name)
    if op == "rest":
        return t("combat.event.rest", name=name, minutes=args["minutes"])
    if op == "natural_healing":
        return t("combat.event.natural_healing", name=name, days=args["days"])
    if op == "wake":
        return t("combat.event.wake", name=name)
    if op == "mortal":
        return t("combat.event.mortal", name=name)
    if op == "cast":
        return t("combat.event.cast", name=name, spell=args["spell"])
    if op == "join":
        return t("table.event.join", name=args["combatant"]["name"])
    if op == "leave":
        return t("table.event.leave", name=name)
    if op == "range":
        return _range_line(args, d)
    if op == "condition":
        seconds = int(args.get("seconds", 0))
        return t("combat.condition.added_for" if seconds else "combat.condition.added", name=name,
                 condition=args["condition"], seconds=seconds)
    if op == "lift":
        return t("combat.condition.lifted", name=name, condition=args["condition"])
    if op == "side":
        return t("combat.event.side", name=name, side=side_word(args["side"]))
    if op == "damage_amount":
        return t("combat.event.damage", name=name, spec=f"{args['amount']} {args['kind']}")
    return str(d.get("summary") or op)


def _turn_ended(outcome: Data) -> str:
    """What ended with a turn: the GM's conditions whose countdown ran out, Aim or Evaluate left for
    another maneuver (GURPS-CMB-12; B364 [std])."""
    parts = [t("combat.condition.ended", name=outcome["ended"], condition=c)
             for c in outcome.get("conditions_ended", ())]
    parts += [t("combat.lost", name=outcome["ended"], what=label(what)) for what in outcome.get("lost", ())]
    return "".join(f"; {part}" for part in parts)


def _range_line(args: Data, d: Data) -> str:
    """`%combat range`: the distance it set (a step's result is in its facts: the pair's new value)."""
    ranges = (d.get("facts") or {}).get("fight", {}).get("ranges")
    a, b = args["a"], args["b"]
    for x, y, metres in ranges or ():
        if {x, y} == {a, b}:
            return t("combat.event.range", a=a, b=b, metres=f"{metres:g}")
    return t("combat.event.range", a=a, b=b, metres=f"{float(args['metres']):g}")


@summarizes("combat.*")
def _combat(d: Data) -> str:
    line = _combat_line(d["op"], d.get("args", {}), d)
    nested = nested_rolls_text(d)
    return f"{line}; {nested}" if nested else line


def nested_rolls_text(d: Data) -> str:
    """The rolls a combat step made inside itself (`results.nested_rolls`), each with its outcome, as
    the step's log line ends with them: "stay conscious 12 · rolled 8 ... → stays conscious"."""
    parts = []
    for item in d.get("rolls") or ():
        text = str(SuccessRoll.from_dict(item["roll"]))
        parts.append(f"{text} → {label(item['outcome'])}" if item.get("outcome") else text)
    return "; ".join(parts)
