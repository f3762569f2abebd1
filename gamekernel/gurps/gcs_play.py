"""A GCS character at the table against its file: every number a GM sees or rolls next to the value
the file carries (GCS's own `calc`).

    play_comparisons(data, character) -> [(kind, what, file's value, ours at the table)]
    play_differences(data, character) -> ("Broadsword (damage): file 2d+2 cut, at the table 2d+1 cut", ...)

Each value is read where the table uses it: the sheet's attributes and secondary characteristics,
what `%check` rolls for each skill, technique, spell and sense, `%fright`'s target, the fight's
Dodge/Parry/Block (a combatant made as `%combat add` makes it, its usual defences), each weapon's
level and the damage `%attack` rolls, the point total, Basic Lift and encumbrance. `%char load`
reports the differences (short), `%char diff` lists them all, and tools/measure_gcs_play.py counts
them over a whole library: one comparison for the three.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from gamekernel.errors import GameKernelError
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules.characters import Character, encumbrance_level
from gamekernel.gurps.rules.combat.sheets import combatant_from_character
from gamekernel.gurps.rules.damage import parse_damage
from gamekernel.gurps.rules.gcs import weapon_rows
from gamekernel.gurps.rules.gcs.calc import leaves, weight_lb
from gamekernel.gurps.rules.gcs.features import substitute
from gamekernel.i18n import t

Row = tuple[str, str, Any, Any]  # (kind, what, the file's value, ours at the table)
ATTRIBUTES = ("st", "dx", "iq", "ht", "will", "per", "hp", "fp", "basic_speed", "basic_move")
SENSES = {"fright_check": "Fright Check", "vision": "Vision", "hearing": "Hearing",
          "taste_smell": "Taste/Smell", "touch": "Touch"}


def _plain(value: Any) -> Any:
    """7.0 -> 7, so a whole Basic Speed compares with the file's 7."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _spaced(text: Any) -> str:
    """GCS's "2d+1 cut" and ours compare without spacing or case."""
    return re.sub(r"\s+", "", str(text)).casefold()


def attribute_rows(data: dict[str, Any], ch: Character) -> Iterator[Row]:
    """Attributes and secondary characteristics as the sheet shows them; Fright Check and the senses
    as `%fright` and `%check Vision` roll them."""
    calc = {a.get("attr_id"): (a.get("calc") or {}).get("value") for a in data.get("attributes") or []
            if isinstance(a, dict)}
    for key in ATTRIBUTES:
        if calc.get(key) is not None:
            yield "attribute", key, _plain(calc[key]), _plain(getattr(ch, key))
    for key, spec in SENSES.items():
        if calc.get(key) is not None:
            yield "sense", key, calc[key], ch.resolve(spec).target


def _full_name(row: dict[str, Any]) -> str:
    """A skill row's name with its specialization, nameables filled in as GCS shows them."""
    name = substitute(str(row.get("name", "?")), row.get("replacements"))
    spec = substitute(str(row.get("specialization", "") or ""), row.get("replacements"))
    return f"{name} ({spec})" if spec else name


def skill_rows(data: dict[str, Any], ch: Character) -> Iterator[Row]:
    """Each skill, technique and spell with a level in the file, against what `%check` rolls."""
    best: dict[tuple[str, str], int] = {}  # a name listed twice: `%check` rolls the better row
    for group in ("skills", "spells"):
        for row in leaves(data.get(group)):
            level = (row.get("calc") or {}).get("level")
            if level is not None:
                key = (group, _full_name(row))
                best[key] = max(best.get(key, int(level)), int(level))
    for group in ("skills", "spells"):
        for row in leaves(data.get(group)):
            level = (row.get("calc") or {}).get("level")
            if level is None:
                continue
            full = _full_name(row)
            kind = "spell" if group == "spells" else ("technique" if "/" not in str(row.get("difficulty", ""))
                                                       else "skill")
            entry = ch.find_skill_entry(full)
            try:
                if kind == "spell":  # as %cast reads it: the sheet's spell of that name first
                    ours = ch.spell_level(full).level
                else:
                    ours = ch.skill_level(entry.full_name if entry else full).level
            except GameKernelError:
                ours = None
            yield kind, full, best.get((group, full), int(level)), ours


def _leading_int(value: Any) -> int | None:
    match = re.match(r"\s*([+-]?\d+)", str(value or ""))
    return int(match.group(1)) if match else None


def encumbrance_level_of(data: dict[str, Any]) -> int | None:
    """GCS's encumbrance level: the carried weight against the file's own Basic Lift; None when the
    file does not say its weights (no `calc.extended_weight`)."""
    lift = weight_lb((data.get("calc") or {}).get("basic_lift"))
    rows = [row for row in data.get("equipment") or [] if isinstance(row, dict)]
    if not lift or any("extended_weight" not in (row.get("calc") or {}) for row in rows):
        return None
    carried = sum(weight_lb(row["calc"]["extended_weight"]) for row in rows)
    return min(4, encumbrance_level(carried, lift))


def usual_parry(state: Any, c: Any, weapon: Any) -> int | None:
    """The Parry `%defend parry` offers with this weapon against an ordinary attack."""
    if weapon.parry is None or weapon.ranged:
        return None
    only = cb.copy_with(c, weapons=(weapon,))
    return cb.effective_defenses(state.put(only), c.name).get("parry", (None,))[0]


def fight_damage(weapon: cb.Weapon, st: int) -> str:
    """The damage a hit with this fight weapon deals: its dice and a bracketed follow-up, or the file's
    text when no dice are rolled (what `%attack` names)."""
    if weapon.effect:
        return weapon.effect
    dice = str(parse_damage(weapon.damage, st=st))
    return f"{dice} {weapon.follow_up}" if weapon.follow_up else dice


def fight_rows(data: dict[str, Any], ch: Character) -> Iterator[Row]:
    """Dodge, and each weapon's level, damage, Parry and Block, as the fight offers them to a combatant
    made from the sheet (what `%attack` and `%defend` roll)."""
    c = combatant_from_character(ch)
    state = cb.start_combat([c], cb.Tape(faces=[]))
    usual = cb.effective_defenses(state, c.name)
    dodges = (data.get("calc") or {}).get("dodge")
    if isinstance(dodges, list) and dodges:
        level = encumbrance_level_of(data)
        level = min(4, ch.encumbrance) if level is None else level  # the file's weights unknown: ours
        yield "dodge", "Dodge", int(dodges[min(level, len(dodges) - 1)]), usual.get("dodge", (None,))[0]
    by_name = {w.name: w for w in c.weapons}
    for name, row in weapon_rows(data):
        wc = row.get("calc") or {}
        weapon = by_name.get(name)
        if wc.get("level") is not None:
            yield "weapon level", name, int(wc["level"]), None if weapon is None else weapon.skill
        if wc.get("damage"):
            ours = None if weapon is None else _spaced(fight_damage(weapon, c.st))
            yield "damage", name, _spaced(wc["damage"]), ours
        parry = _leading_int(wc.get("parry"))
        if parry is not None:
            yield "parry", name, parry, None if weapon is None else usual_parry(state, c, weapon)
        block = _leading_int(wc.get("block"))
        if block is not None:
            yield "block", name, block, usual.get("block", (None,))[0]


def gcs_spent(data: dict[str, Any]) -> int | None:
    """The points GCS counts as spent: attributes and top-level traits (their calc, containers
    included), every skill, technique and spell row; None when a row does not say its points."""
    total = 0
    rows = [row for row in data.get("attributes") or [] if isinstance(row, dict)]
    rows += [row for row in data.get("traits") or [] if isinstance(row, dict) and not row.get("disabled")]
    for row in rows:
        points = (row.get("calc") or {}).get("points")
        if points is None and not (row.get("attr_id") and not row.get("adj")):
            return None
        total += int(points or 0)
    for group in ("skills", "spells"):
        total += sum(int(row.get("points", 0) or 0) for row in leaves(data.get(group)))
    return total


def load_rows(data: dict[str, Any], ch: Character) -> Iterator[Row]:
    """Basic Lift (the file's lb at the seed's 1 lb = 0.5 kg), encumbrance level, thrust/swing and the
    point total the sheet shows."""
    calc = data.get("calc") or {}
    if calc.get("basic_lift"):
        yield "basic lift", "Basic Lift", _plain(weight_lb(calc["basic_lift"]) / 2), _plain(ch.basic_lift)
    level = encumbrance_level_of(data)
    if level is not None:
        yield "encumbrance", "encumbrance", level, min(4, ch.encumbrance)
    for key in ("thrust", "swing"):
        if calc.get(key):
            yield "thrust/swing", key, _spaced(calc[key]), _spaced(getattr(ch, key))
    spent = gcs_spent(data)
    if spent is not None:
        yield "points", "points spent", spent, ch.points().total


def play_comparisons(data: dict[str, Any], ch: Character) -> list[Row]:
    """Every compared value of one GCS document and the character made from it."""
    return [*attribute_rows(data, ch), *skill_rows(data, ch), *fight_rows(data, ch), *load_rows(data, ch)]


def play_differences(data: dict[str, Any], ch: Character) -> tuple[str, ...]:
    """One line per value the table uses that differs from the file's own."""
    return tuple(t("gurps.gcs.play_diff", what=what, kind=t(f"gurps.gcs.kind.{re.sub(r'[ /]', '_', kind)}"),
                   gcs=gcs, ours="—" if ours is None else ours)
                 for kind, what, gcs, ours in play_comparisons(data, ch) if gcs != ours)
