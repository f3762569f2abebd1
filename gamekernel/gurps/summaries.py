"""GURPS's log lines: the one-line text of each `gurps.*` and `combat.*` event, drawn when the log is
viewed, in the current language. Events written by earlier versions carried their text (a combat
`summary`): they are drawn from their facts like new ones, and only a fact an old event lacks (whose
turn began, for an old `combat.next`) falls back to the text it stored."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gamekernel.display import Hide, hides_numbers, summarizes
from gamekernel.gurps.combat_render import label, side_word
from gamekernel.gurps.render import char_change_text, char_update_text, display_name, working_text
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
    """The roll Luck rerolled and each reroll with its dice, and the one kept (GURPS-ADV-19): "Aiko
    uses Luck: [6,5,4]=15, [2,3,1]=6, [5,5,2]=12 vs 13; kept 6"."""
    result = d["result"]
    rolls = [result["original"], *result["rerolls"]]
    if not all(r.get("dice") for r in rolls):  # nothing rolled to show
        return t("gurps.event.luck", name=result["actor"], total=result["kept"]["total"])
    dice = t("combat.outcome.list_sep").join(f"[{','.join(str(f) for f in r['dice'])}]={r['total']}" for r in rolls)
    return t("gurps.event.luck_rolls", name=result["actor"], rolls=dice, target=result["kept"]["target"],
             total=result["kept"]["total"])


@summarizes("gurps.luck.reset")
def _luck_reset(d: Data) -> str:
    return t("gurps.event.luck_reset", names=", ".join(d["names"]) or "—", minutes=d.get("minutes") or "—")




# ---------------------------------------------------------------- gurps combat


def _combat_outcome(outcome: Data | None, verdict: str, lead: str = "", hide: Hide = None) -> str:
    """`: hit`, `: miss, injury 4`, `: defended`...: what an attack, defense or damage event decided
    (empty for an event written before outcomes were kept), each roll it made with its dice and what
    it was rolled against: "Axe 3d6 [2,1,3]=6 vs 12, hit; damage 1d+4 [5]+4=9 cut → injury 13"
    (GURPS-CMB-26, 27, 40, DMG-04..08). `lead` names the roll ("Axe"); `hide` leaves out the numbers
    of the rolls it names (`roll_numbers_hidden`): a hidden fighter's, in the players' log."""
    if outcome is None:
        return ""
    words = []
    if verdict and outcome.get(verdict) is not None:
        words.append(t(f"combat.outcome.{verdict}.{'yes' if outcome[verdict] else 'no'}"))
    roll = outcome.get("roll")
    if roll and not (hide and hide(str(roll.get("actor") or ""))):
        rolled = SuccessRoll.from_dict(roll)
        critical = f" ({t('combat.word.critical_' + rolled.critical)})" if rolled.critical else ""
        words[:1] = [(lead + " " if lead else "") + success_words(rolled)
                     + "".join(t("combat.outcome.list_sep") + w + critical for w in words[:1])]
    damage = outcome.get("damage")
    if damage and not (hide and (hide(str(damage.get("attacker") or "")) or hide(str(damage.get("target") or "")))):
        words.append(damage_words(damage))
        return t("combat.outcome.sep") + t("combat.outcome.list_sep").join(words[:-1]) + (
            "; " if len(words) > 1 else "") + words[-1]
    if outcome.get("injury") is not None:
        words.append(t("combat.outcome.injury", injury=outcome["injury"]))
    return t("combat.outcome.sep") + t("combat.outcome.list_sep").join(words) if words else ""


def success_words(roll: SuccessRoll) -> str:
    """A success roll as a log line says it: "3d6 [2,1,3]=6 vs 12"; "vs 2" when nothing was rolled
    (target below 3, GURPS-SR-05)."""
    if not roll.dice or roll.total is None:
        return t("combat.roll.vs", target=roll.target)
    return t("combat.roll.words", faces=",".join(str(f) for f in roll.dice), total=roll.total,
             target=roll.target)


def damage_words(data: Data, *, spec: bool = True) -> str:
    """A damage roll as a log line says it (GURPS-DMG-04..08): "damage 1d+4 [5]+4=9 cut, DR 2 →
    injury 10"; without `spec` only from the dice on ("[5]+4=9, DR 2 → injury 10"), after a line that
    named the damage already. Typed-in damage (no dice) is its amount."""
    roll = DamageRoll.from_dict(dict(data))
    s = roll.spec
    if s.dice:
        times = f"x{s.times}" if s.times != 1 else ""
        rolled = f"[{','.join(str(f) for f in roll.faces)}]{f'{s.adds:+d}' if s.adds else ''}{times}={roll.raw}"
    else:
        rolled = str(s.adds)
    if roll.basic != roll.raw:  # the minimum, or halved beyond 1/2D (GURPS-DMG-04)
        rolled += f"→{roll.basic}"
    kind = "" if s.kind == "none" else s.kind
    if spec:
        dice = s.notation.removesuffix(f" {s.kind}") if s.dice else ""
        text = t("combat.damage.words", rolled=" ".join(x for x in (dice, rolled, kind) if x))
    else:
        text = rolled
    if roll.dr:
        armor = f"→{roll.armor_dr}" if roll.armor_dr != roll.dr else ""
        text += t("combat.outcome.list_sep") + t("combat.damage.dr", dr=f"{roll.dr}{armor}")
    return f"{text} → {t('combat.outcome.injury', injury=roll.injury)}"


def _combat_line(op: str, args: Data, d: Data, hide: Hide = None) -> str:
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
        burn = outcome.get("burn")  # a second in burning clothes (GURPS-HAZ-11, HAZ-12)
        if burn and not (hide and hide(str(outcome["started"]))):
            return line + _turn_ended(outcome) + "; " + burn_words(outcome["started"], burn)
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
        weapon = str(((d.get("outcome") or {}).get("roll") or {}).get("label") or args.get("weapon") or "")
        working = (d.get("outcome") or {}).get("working")
        if working and not (hide and hide(str(args["attacker"]))):  # the GM's modifiers named (GURPS-SR-04)
            roll = SuccessRoll.from_dict({**working, "dice": []})
            line = t("combat.event.attack_working", attacker=args["attacker"], target=args["target"],
                     working=working_text(roll))
            return line + _combat_outcome(d.get("outcome"), "hit", "", hide)  # the weapon named once
        line = t("combat.event.attack", attacker=args["attacker"], target=args["target"])
        return line + _combat_outcome(d.get("outcome"), "hit", weapon, hide)
    if op == "defend":
        rolled = (d.get("outcome") or {}).get("roll") or {}
        weapon = args.get("weapon") or str(rolled.get("label") or "").partition(" (")[2].removesuffix(")")
        kind = label(args["kind"]) + (f" ({weapon})" if weapon else "")
        line = t("combat.event.defend", name=name, kind=kind)
        if rolled and not (hide and hide(name)):  # the roll follows its defense: "Dodge 3d6 [4,2,4]=10 vs 9"
            return line + " " + _combat_outcome(d.get("outcome"), "defended", "", hide).removeprefix(
                t("combat.outcome.sep"))
        return line + _combat_outcome(d.get("outcome"), "defended", "", hide)
    if op == "damage":
        line = t("combat.event.damage", name=name, spec=args["spec"])
        damage = (d.get("outcome") or {}).get("damage")
        if damage and not (hide and (hide(name) or hide(str(args.get("attacker") or "")))):
            return line + t("combat.outcome.sep") + damage_words(damage, spec=False)
        return line + _combat_outcome(d.get("outcome"), "", "", hide)
    if op == "arm":
        return f"{name}: {args['weapon']}"
    if op in OWN_ROLLS:  # a spell, a hazard, first aid, healing, waking, a mortal wound: their dice follow
        line = step_head(op, args)
        words = own_rolls_words(op, d.get("outcome") or {}, hidden=bool(hide and hide(name)))
        return f"{line}{t('combat.outcome.sep')}{words}" if words else line
    if op == "rest":
        return t("combat.event.rest", name=name, minutes=args["minutes"])
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


OWN_ROLLS = ("cast", "hazard", "firstaid", "natural_healing", "wake", "mortal")  # `own_rolls_words`


def step_head(op: str, args: Data) -> str:
    """The words of a step of `OWN_ROLLS` before its rolls: "Aiko casts Fireball", "Aiko: fall"."""
    name = args.get("name", "")
    if op == "hazard":
        return t("combat.event.hazard", name=name, hazard=t(f"combat.hazard_kind.{args['hazard']}"))
    if op == "natural_healing":
        return t("combat.event.natural_healing", name=name, days=args["days"])
    if op == "cast":
        return t("combat.event.cast", name=name, spell=args["spell"])
    return t(f"combat.event.{op}", name=name)


def roll_words(roll: Data, lead: str = "") -> str:
    """A success roll the compact way of the log: "First Aid 3d6 [3,5,4]=12 vs 10, failure", its
    critical named ("..., success (critical success)", GURPS-SR-07, SR-08)."""
    found = _combat_outcome({"success": roll.get("success"), "roll": roll}, "success", lead)
    return found.removeprefix(t("combat.outcome.sep"))


def own_rolls_words(op: str, outcome: Data, *, hidden: bool = False) -> str:
    """The rolls a step of `OWN_ROLLS` made itself, each with its dice and what it was rolled against,
    and what came of them: "3d6 [2,5,3]=10 vs 13, success, 2 energy" (a spell, GURPS-MAG-01..04, the
    Critical Spell Failure Table MAG-19), a hazard's damage and HT or DX roll (HAZ-01..16), First Aid
    and its HP dice (INJ-17..19), a roll a day of natural healing (INJ-16), waking (INJ-13..15), a
    mortal wound's roll and the one after it (INJ-10, INJ-11). `hidden`: the outcome words only, no
    number (a fighter the GM hides, in the players' log: GURPS-SR-09); "" when the event kept none
    (written before its rolls were kept)."""
    roll = outcome.get("roll")
    parts: list[str] = []
    if op == "cast" and roll:
        parts.append(_cast_words(outcome, hidden))
    elif op == "hazard":
        if outcome.get("damage") and not hidden:
            parts.append(damage_words(outcome["damage"]))
        if roll:
            parts.append(_verdict(roll) if hidden else _named(roll))
            if outcome.get("heatstroke") and not hidden:
                parts[-1] += t("combat.outcome.list_sep") + t("combat.hazard.heatstroke_words",
                                                              face=outcome["heatstroke"][0])
        if outcome.get("injury") is not None and parts and not hidden:  # Catfall halved it (GURPS-HAZ-06)
            parts[-1] += f" → {t('combat.outcome.injury', injury=outcome['injury'])}"
    elif op == "firstaid" and roll:
        parts.append(_verdict(roll) if hidden else _named(roll))
        if not hidden:
            parts.append(t("combat.firstaid.hp_words", spec=outcome.get("hp_spec", ""),
                           faces=_faces(outcome["hp_dice"]), change=outcome["change"]))
    elif op == "natural_healing" and "checks" in outcome and not hidden:
        checks = outcome["checks"]
        parts += [_named(c) if i == 0 else roll_words(c) for i, c in enumerate(checks)]  # one roll a day
        gained = t("combat.healing.gained", gained=outcome["gained"])
        return f"{'; '.join(parts)} → {gained}" if parts else gained
    elif op in ("wake", "mortal") and "result" in outcome:
        word = t(f"combat.{op}_word.{outcome['result']}")
        parts.append(word if hidden or not roll else f"{_named(roll)} → {word}")
        after = outcome.get("after")
        if after:  # the HT roll on recovering from a mortal wound (GURPS-INJ-11)
            effect = t(f"combat.mortal_word.{outcome['effect']}")
            parts.append(effect if hidden else f"{_named(after)} → {effect}")
    return "; ".join(parts)


def _cast_words(outcome: Data, hidden: bool) -> str:
    """A spell roll (GURPS-MAG-01..04): its modifiers when it had any (shock, hurt while
    concentrating: GURPS-INJ-05, MAG-07), the dice, the energy spent, the Critical Spell Failure
    Table's roll (MAG-19)."""
    roll = outcome["roll"]
    energy = t("combat.cast.energy", energy=outcome.get("energy", 0))
    if hidden:
        return _verdict(roll)
    rolled = SuccessRoll.from_dict({**roll, "label": ""})
    working = f"{working_text(rolled)}{t('combat.outcome.list_sep')}" if rolled.modifiers else ""
    text = working + roll_words(roll) + t("combat.outcome.list_sep") + energy
    table = outcome.get("table")
    if table:
        row = sum(table)
        text += "; " + t("combat.spellfail", roll=f"3d6 [{_faces(table)}]={row}", text=t(f"combat.spellfail.{row}"))
    return text


def _named(roll: Data) -> str:
    """`roll_words` led by the roll's own label ("First Aid 3d6 [3,5,4]=12 vs 10, failure")."""
    return roll_words(roll, display_name(str(roll.get("label") or "")))


def _verdict(roll: Data) -> str:
    """A roll's outcome in words alone (no number): "success", "failure (critical failure)"."""
    rolled = SuccessRoll.from_dict(dict(roll))
    critical = f" ({t('combat.word.critical_' + rolled.critical)})" if rolled.critical else ""
    return t(f"combat.outcome.success.{'yes' if rolled.success else 'no'}") + critical


def _faces(faces: Any) -> str:
    return ",".join(str(f) for f in faces)


def burn_words(name: str, burn: Data) -> str:
    """A second in burning clothes at the start of the victim's turn, with its dice: "Aiko's clothes
    burn (a second): damage 1d-4 [5]-4=1 burn → injury 1" (GURPS-HAZ-11, HAZ-12)."""
    return t("combat.burning", name=name) + t("combat.outcome.sep") + damage_words(burn)


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
    return combat_text(d, None)


@hides_numbers("combat.*")
def combat_text(d: Data, hide: Hide = None) -> str:
    """A combat step's log line with every roll it made; `hide(name)` true for a fighter whose rolls
    keep their numbers out (a fighter the GM hides, in the players' log: GURPS-SR-09)."""
    line = _combat_line(d["op"], d.get("args", {}), d, hide)
    nested = nested_rolls_text(d, hide)
    return f"{line}; {nested}" if nested else line


def nested_rolls_text(d: Data, hide: Hide = None) -> str:
    """The rolls a combat step made inside itself (`results.nested_rolls`), each with its outcome, as
    the step's log line ends with them: "stay conscious 12 · rolled 8 ... → stays conscious"; those
    of a fighter `hide` names left out."""
    parts = []
    args = d.get("args") or {}
    named = [str(args[k]) for k in ("name", "attacker", "target") if args.get(k)]  # whose, when unnamed
    for item in d.get("rolls") or ():
        actor = str(item["roll"].get("actor") or "")
        if hide and any(hide(n) for n in ([actor] if actor else named)):
            continue
        text = str(SuccessRoll.from_dict(item["roll"]))
        parts.append(f"{text} → {label(item['outcome'])}" if item.get("outcome") else text)
    return "; ".join(parts)


def combat_roll_words(d: Data) -> list[tuple[tuple[str, ...], str]]:
    """The rolls a combat step made itself (not those inside it: `nested_rolls_text`), as the story
    tells them, each with the fighters whose numbers it shows: (("Orc",), "Orc: Axe 3d6 [2,1,3]=6 vs
    12, hit"), (("Orc", "Aiko"), "Orc → Aiko: damage 1d+4 [5]+4=9 cut → injury 13"). Empty for an
    event written before the rolls were kept (GURPS-CMB-26, 27, 40, DMG-04..08)."""
    op, args, outcome = d.get("op"), d.get("args") or {}, d.get("outcome") or {}
    out: list[tuple[tuple[str, ...], str]] = []
    if op in OWN_ROLLS:  # told whole: the rolls are the victim's, the caster's, the patient's
        words = own_rolls_words(op, outcome)
        return [((str(args["name"]),), f"{step_head(op, args)}{t('combat.outcome.sep')}{words}")] if words else []
    if op == "next" and outcome.get("burn"):
        return [((str(outcome["started"]),), burn_words(outcome["started"], outcome["burn"]))]
    roll = outcome.get("roll")
    if roll and op in ("attack", "defend"):
        rolled = SuccessRoll.from_dict(roll)
        who = rolled.actor or str(args.get("attacker") or args.get("name") or "")
        verdict = "hit" if op == "attack" else "defended"
        what = rolled.label if op == "attack" else label(args["kind"]) + (
            f" ({rolled.label.partition(' (')[2].removesuffix(')')})" if " (" in rolled.label else "")
        text = _combat_outcome({verdict: outcome.get(verdict), "roll": roll}, verdict, what)
        out.append(((who,), who + text))
    damage = outcome.get("damage")
    if damage:
        names = tuple(str(damage.get(k) or "") for k in ("attacker", "target") if damage.get(k))
        out.append((names, f"{' → '.join(names)}: {damage_words(damage)}" if names else damage_words(damage)))
    return out
