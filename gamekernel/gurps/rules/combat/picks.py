"""What a fighter picks from: his weapons as a menu (the main weapons first, shields and natural
attacks below, near-duplicates once), the weapon he most likely means, and whether a melee weapon
reaches a foe (the weapons he parries with are `parries.parry_options`, read from this menu).
[GURPS-CMB-14, CMB-30, CMB-31]

Why a module of its own: a sheet read from a file lists weapons in its own order (a shield before
the axe, three Small Knives, Natural Attacks three times); the tracker and `%attack` need them in
the order a GM means them, and the reach of a melee weapon against a distance the GM has set.
Nothing here rolls a die.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from gamekernel.errors import DataError, UsageError
from gamekernel.gurps.rules.combat.state import Combatant, Weapon
from gamekernel.gurps.rules.damage import parse_damage
from gamekernel.text import match_key

WEAPON, SHIELD, NATURAL = "weapon", "shield", "natural"
GROUPS = (WEAPON, SHIELD, NATURAL)  # the menu's order: a shield bash or a bite is never the first pick
_NATURAL_SKILLS = frozenset({"brawling", "boxing", "karate", "sumo wrestling", "wrestling"})
_NATURAL_WORDS = frozenset({  # whole words: a Hornbow or a Butterfly Sword is no natural attack
    "natural", "punch", "kick", "bite", "claw", "claws", "scratch", "teeth", "fang", "fangs", "talon", "talons",
    "horn", "horns", "hoof", "hooves", "tail", "slam", "trample", "butt", "gore", "sting", "striker", "strikers",
    "tentacle", "tentacles", "tusk", "tusks", "peck", "beak"})
_TRAIT_NAMES = ("natural attacks",)  # GCS's trait of a body's attacks: its usage says which ("Bite", "Kick")


def weapon_group(w: Weapon) -> str:
    """`shield` (a shield bash: used with the Shield skill), `natural` (unarmed and natural attacks,
    always ready, GURPS-CMB-31) or `weapon`."""
    uses, name, usage = match_key(w.uses), match_key(w.name), match_key(w.usage)
    if uses.startswith("shield") or "shield bash" in (usage, name):
        return SHIELD
    words = set(re.findall(r"\w+", f"{name} {usage}"))
    if w.parry_weapon == "bare_hands" or uses in _NATURAL_SKILLS or words & _NATURAL_WORDS:
        return NATURAL
    return WEAPON


def _base(w: Weapon) -> str:
    return match_key(w.name.split(" (")[0])


@dataclass(frozen=True)
class Pick:
    """One line of a weapon menu: the weapon's own name (what `%attack` takes), how the menu shows
    it, its group, its level and whether it reaches the foe at the distance set (None: not known)."""

    name: str
    label: str
    group: str
    skill: int
    reaches: bool | None = None


def weapon_menu(c: Combatant, distance: float | None = None) -> tuple[Pick, ...]:
    """`c`'s weapons as a GM picks from them: main weapons, then shields, then natural attacks (each
    group in the sheet's order); a weapon that repeats another (same base name, mode, level, damage,
    reach, parry) once; a trait's attack named by what it is ("Bite", not "Natural Attacks"), and the
    first of several modes by its own ("Broadsword (Swung)"). `distance`: metres to the foe, for
    `reaches` (GURPS-CMB-14)."""
    seen: set[tuple] = set()
    bases = [_base(w) for w in c.weapons]
    picks: list[Pick] = []
    for w, base in zip(c.weapons, bases, strict=True):
        key = (base, match_key(w.usage), w.skill, w.damage, w.effect, w.reach, w.parry, w.kind, w.acc)
        if key in seen:
            continue
        seen.add(key)
        group = weapon_group(w)
        picks.append(Pick(w.name, _label(w, group, bases.count(base) > 1), group, w.skill,
                          None if distance is None or w.ranged else reaches(w.reach, distance, f"{w.name} {w.usage}")))
    return tuple(sorted(picks, key=lambda p: GROUPS.index(p.group)))


def _label(w: Weapon, group: str, has_modes: bool) -> str:
    usage = w.usage.strip()
    if usage and match_key(w.name).startswith(_TRAIT_NAMES):
        return usage
    if usage and "(" not in w.name and (has_modes or group != WEAPON) and match_key(usage) not in match_key(w.name):
        return f"{w.name} ({usage})"
    return w.name


def _average(w: Weapon, st: int) -> float:
    try:
        spec = parse_damage(w.damage, st=st)
    except (UsageError, DataError):
        return 0.0
    return spec.dice * 3.5 + spec.adds


def best_weapon(c: Combatant, maneuver: str = "attack", *, distance: float | None = None) -> str:
    """The weapon `c` most likely attacks with (the tracker's first pick): the one he used last if he
    still has it, else the best main weapon (highest level, then most damage), else a shield, else a
    natural attack. A Feint is melee (GURPS-CMB-21), Aim a ranged weapon's (CMB-15); at a known
    distance a melee weapon out of reach is passed over (CMB-14). "" when he has nothing to attack with."""
    menu = weapon_menu(c, distance)
    usable = {w.name: w for w in c.weapons if not w.no_roll}
    if maneuver == "feint":
        usable = {n: w for n, w in usable.items() if not w.ranged}
    elif maneuver == "aim" and any(w.ranged for w in usable.values()):
        usable = {n: w for n, w in usable.items() if w.ranged}
    picks = [p for p in menu if p.name in usable and p.reaches is not False] or [p for p in menu if p.name in usable]
    if c.last_weapon in {p.name for p in picks}:
        return c.last_weapon
    if not picks:
        return ""
    first_group = picks[0].group
    best = max((p for p in picks if p.group == first_group),
               key=lambda p: (p.skill, _average(usable[p.name], c.st), -picks.index(p)))
    return best.name


def reach_span(reach: str) -> tuple[float, float] | None:
    """The distances a reach covers, as (nearest, farthest) metres: "C" is 0 (close combat, the same
    hex), "1" one metre, "C,1" and "C-1" both, "1,2" and "1-2" one to two ("*": the weapon needs a
    Ready after use, the span is the same). None: no reach given, or one not read."""
    marks = [m for m in match_key(reach).replace("*", "").replace(" ", "").replace("-", ",").split(",") if m]
    if not marks:
        return None
    values = []
    for mark in marks:
        if mark == "c":
            values.append(0.0)
        else:
            try:
                values.append(float(mark))
            except ValueError:
                return None
    return min(values), max(values)


#: a bare hand's punch: the weapon tables print its reach "C", but a bare-handed fighter reaches close
#: combat and one metre (Basic Set p. 101-102: "a punch is an attack with a Reach of C or 1")
PUNCH_WORDS = ("punch", "パンチ")


def reaches(reach: str, distance: float, name: str = "") -> bool | None:
    """Whether a melee weapon of `reach` strikes a foe `distance` metres away (GURPS-CMB-14: the target
    must be within reach). The distance counts in whole metres, a fraction as the next one (as the
    range table reads a distance between rows, CMB-39); a punch (`name`) reaches C and 1 whatever its
    table says. None: the weapon's reach is not known."""
    if match_key(reach).strip() == "c" and any(word in match_key(name) for word in PUNCH_WORDS):
        reach = "C,1"
    span = reach_span(reach)
    if span is None:
        return None
    metres = math.ceil(distance)
    return span[0] <= metres <= span[1]
