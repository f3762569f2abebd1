"""Import GURPS Character Sheet (GCS) `.gcs` files (JSON, versions 2-5) with GCS's own numbers.

    read_gcs(path) -> GcsImport(character, mismatches, warnings, comparisons, encumbrance)
    import_gcs(data, where="file.gcs") -> GcsImport
    GcsImport.mismatch_lines() -> ("Thaumatology: GCS 15, ours 12 — using GCS", ...)
    load_gcs(path) -> Character
    export_gcs(character, target) -> Path     # a COPY with current HP/FP and conditions

gcs_calc.compute() works every number out from the file's rows and their `features` (attributes,
skills, techniques, spells, Dodge, damage, encumbrance); weapons (equipped items and natural attacks
of traits, every usage) are computed here. `comparisons` lists each value against the file's
`calc`; where they differ the file's value is used and `mismatches` says so (shown by `%char load`).
XML-era files (GCS 4 and older) are refused in one line naming the file. A skill outside our lists
(Merchant with 0 points) is kept at its level, never a reason to refuse the file.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import ceil, floor
from pathlib import Path
from typing import Any

from gamekernel import limits
from gamekernel.errors import DataError, GameKernelError, NotFoundError
from gamekernel.gurps.rules.characters import Character, Skill
from gamekernel.gurps.rules.gcs.calc import GcsNumbers, compute
from gamekernel.gurps.rules.gcs.features import (
    equipped_items,
    matches,
    matches_list,
    plain_name,
    reaction_lines,
    substitute,
)
from gamekernel.gurps.rules.gcs.weapon_damage import (
    damage_bonus,
    damage_or_effect,
    damage_text,
    divisor_bonus,
    effective_st_bonus,
    follow_up_of,
    per_die_of,
)
from gamekernel.gurps.rules.skills import DIFFICULTY_BASE
from gamekernel.gurps.rules.traits import Trait, maybe_trait
from gamekernel.gurps.rules.weapons import CharacterWeapon, validate_weapon
from gamekernel.i18n import t
from gamekernel.util import atomic_write_text

SUPPORTED_VERSIONS = range(2, 6)
APPEARANCE_NAMES = {
    "hideous": "hideous", "ugly": "ugly", "unattractive": "unattractive", "attractive": "attractive",
    "handsome": "handsome", "beautiful": "handsome", "handsome/beautiful": "handsome",
    "very handsome": "very_handsome", "very beautiful": "very_handsome",
    "very handsome/very beautiful": "very_handsome",
}


@dataclass(frozen=True)
class GcsImport:
    """The imported character plus what did not line up."""

    character: Character
    mismatches: tuple[tuple[str, Any, Any], ...]  # (what, file's calc value, ours) where they differ
    warnings: tuple[str, ...]
    comparisons: tuple[tuple[str, str, Any, Any], ...] = ()  # (kind, what, file's calc, ours), all
    encumbrance: int = 0
    document: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # the parsed file

    def mismatch_lines(self) -> tuple[str, ...]:
        """One visible line per difference: "Thaumatology: GCS 15, ours 12 — using GCS"."""
        return tuple(t("gurps.gcs.mismatch", what=what, gcs=gcs, ours="—" if ours is None else ours)
                     for what, gcs, ours in self.mismatches)


def _walk(rows: list[dict[str, Any]]):
    """Leaf rows, depth first: a row with `children` is a container (its own cost is its children's)."""
    for row in rows or []:
        if not isinstance(row, dict):
            continue
        if "children" in row or str(row.get("type", "")).endswith("_container"):
            yield from _walk(row.get("children") or [])
        else:
            yield row


def _row_points(row: dict[str, Any]) -> int:
    """A trait row's points as the file counts them: its calc, else its children's, else base_points."""
    points = (row.get("calc") or {}).get("points")
    if points is None and row.get("children") is not None:
        return sum(_row_points(child) for child in row["children"] if isinstance(child, dict))
    try:
        return int(float(points if points is not None else row.get("base_points", 0) or 0))
    except (TypeError, ValueError):
        return 0


def _trait_leaves(rows: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], int | None]]:
    """Leaf traits with the points they add to the total (None: the row's own). In an alternative-
    abilities container (Basic Set, as GCS counts it) the costliest alternative is paid in full and each
    other at 1/5, rounded up; the 1/5 is of the alternative as a whole, so its first leaf carries it."""
    for row in rows or []:
        if not isinstance(row, dict):
            continue
        if row.get("container_type") == "alternative_abilities" and row.get("children"):
            yield from _alternatives(row["children"])
        elif "children" in row or str(row.get("type", "")).endswith("_container"):
            yield from _trait_leaves(row.get("children") or [])
        else:
            yield row, None


def _alternatives(children: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], int | None]]:
    """The leaves of one alternative-abilities container: the first costliest child in full, every
    other child at ceil(points / 5) on its first leaf and 0 on the rest."""
    alternatives = [child for child in children if isinstance(child, dict) and not child.get("disabled")]
    values = [_row_points(child) for child in alternatives]
    full = values.index(max(values)) if values else -1
    for index, (child, value) in enumerate(zip(alternatives, values, strict=True)):
        if index == full:
            yield from _trait_leaves([child])
            continue
        reduced: int | None = ceil(Fraction(value, 5))
        for leaf, _ in _trait_leaves([child]):
            yield leaf, reduced
            reduced = 0


def _walk_all(rows: list[dict[str, Any]]):
    """Every row, containers included (a backpack is equipment too), depth first."""
    for row in rows or []:
        if isinstance(row, dict):
            yield row
            yield from _walk_all(row.get("children") or [])


def _int(value: Any, where: str) -> int:
    try:
        return int(float(value))
    except (TypeError, ValueError) as error:
        raise DataError(t("gurps.err.gcs.number", where=where, value=value)) from error


def _parse_version(data: Any, where: str) -> int:
    """The document's GCS format version; XML-era files (GCS 4 and older) are refused in one line."""
    if not isinstance(data, dict):
        raise DataError(t("gurps.err.gcs.object", where=where))
    version = data.get("version")
    if not isinstance(version, int | float) or version not in SUPPORTED_VERSIONS:
        raise DataError(t("gurps.err.gcs.version", where=where, version=version))
    return int(version)


def import_gcs(data: dict[str, Any], where: str = "character.gcs") -> GcsImport:
    """Turn a parsed .gcs document into a Character (see the module docstring)."""
    _parse_version(data, where)
    warnings: list[str] = []
    numbers = compute(data)
    comparisons: list[tuple[str, str, Any, Any]] = []
    profile = data.get("profile") or {}
    name = str(profile.get("name") or Path(where).stem)
    kwargs: dict[str, Any] = {"name": name}
    if "total_points" in data:
        kwargs["budget"] = _int(data["total_points"], f"{where}: total_points")

    values, gcs_values = numbers.attributes, numbers.attributes_gcs
    for key in ("st", "dx", "iq", "ht"):
        kwargs[key] = _used(values[key], gcs_values.get(key))
    for attr, field_name in (("hp", "hp_adj"), ("will", "will_adj"), ("per", "per_adj"), ("fp", "fp_adj")):
        base = kwargs["st" if attr == "hp" else "ht" if attr == "fp" else "iq"]
        kwargs[field_name] = _used(values[attr], gcs_values.get(attr)) - base
    speed = gcs_values.get("basic_speed", numbers.speed)
    kwargs["speed_adj"] = round((Fraction(str(speed)) - Fraction(kwargs["dx"] + kwargs["ht"], 4)) * 4)
    move = _used(values["basic_move"], gcs_values.get("basic_move"))
    kwargs["move_adj"] = move - floor(Fraction(kwargs["dx"] + kwargs["ht"] + kwargs["speed_adj"], 4))
    for key in ("st", "dx", "iq", "ht", "will", "per", "hp", "fp", "basic_speed", "basic_move", "fright_check",
                "vision", "hearing", "taste_smell", "touch"):
        if key in gcs_values:
            ours = values[key]
            ours = float(ours) if isinstance(ours, Fraction) else ours
            comparisons.append(("attribute", key, _plain(gcs_values[key]), _plain(ours)))
    kwargs["granted"] = tuple(sorted(numbers.granted.items()))
    kwargs["allow_bought_secondary"] = True
    attributes = {a.get("attr_id"): a for a in data.get("attributes", []) if isinstance(a, dict)}
    if "hp" in attributes and attributes["hp"].get("damage"):
        kwargs["hp_lost"] = _int(attributes["hp"]["damage"], f"{where}: attributes[hp].damage")
    if "fp" in attributes and attributes["fp"].get("damage"):
        kwargs["fp_lost"] = _int(attributes["fp"]["damage"], f"{where}: attributes[fp].damage")

    traits: list[Trait] = []
    for index, (row, paid) in enumerate(_trait_leaves(data.get("traits") or data.get("advantages") or [])):
        label = substitute(str(row.get("name", f"trait {index}")), row.get("replacements"))
        points = row.get("calc", {}).get("points") if paid is None else paid
        if points is None:
            points = row.get("base_points", 0)
        points = _int(points, f"{where}: traits[{label}].calc.points")
        if row.get("disabled"):
            continue
        appearance = APPEARANCE_NAMES.get(label.casefold())
        if appearance is not None:
            kwargs["appearance"] = appearance
            continue
        level = row.get("levels")
        # a trait whose file says what it does (features) is not also given our own effects
        defn = None if _has_features(row) else maybe_trait(label)
        if defn is not None and _only_gcs_numbers(defn):
            defn = None
        chosen = _chosen_modifiers(row)
        trait_name = label + (f" ({', '.join(chosen)})" if chosen else "")
        trait_name += f" ({row['notes']})" if row.get("notes") and not defn else ""
        traits.append(Trait(
            id=defn.id if defn else "", name=trait_name, points=points, option=_option(defn, chosen),
            level=_int(level, f"{where}: traits[{label}].levels") if level not in (None, "") else 1,
            cr=row.get("cr"), note=str(row.get("notes", "")) if defn else "",
        ))
    kwargs["traits"] = tuple(traits) + _other_attribute_costs(data, where)
    shield = _shield_bonuses(data)
    kwargs["shield_db"] = shield.get("block", 0)
    kwargs["can_block"] = any(_blocks_as_shield(row) for item in equipped_items(data.get("equipment") or [])
                              for row in item.get("weapons") or [] if isinstance(row, dict))
    # the fight adds the DB to every defense (GURPS-CMB-43): a shield giving less to Dodge or Parry than
    # to Block (a heavy shield) leaves that difference in the other bonuses
    defense = {key: value - kwargs["shield_db"] for key, value in numbers.defense_bonus.items()}
    kwargs["feature_bonuses"] = tuple((key, value, "GCS") for key, value in
                                      [*defense.items(), *_roll_bonuses(numbers).items()] if value)
    kwargs["conditionals"] = reaction_lines(numbers.features)
    kwargs["carried_kg"] = numbers.carried_lb / 2
    kwargs["striking_st"] = numbers.striking_st
    kwargs["lifting_st"] = numbers.lifting_st
    kwargs["cost_reduction"] = _cost_reduction(data, numbers)
    kwargs["damage_progression"] = numbers.progression
    kwargs["dice_for_adds"] = bool((data.get("settings") or {}).get("use_modifying_dice_plus_adds"))

    mismatches: list[tuple[str, int, int | None]] = []
    skills: list[Skill] = []
    chosen_levels: list[int | None] = []  # per row of `skills`: GCS's level, else ours
    for entry in numbers.skills:
        kind = "" if entry.kind == "skill" else entry.kind
        college = ", ".join(entry.colleges)
        if entry.gcs is not None:
            comparisons.append((entry.kind, entry.full_name, entry.gcs, entry.level))
            if entry.level != entry.gcs:
                mismatches.append((entry.full_name, entry.gcs, entry.level))
        level = entry.gcs if entry.gcs is not None else entry.level
        if level is None:
            warnings.append(t("gurps.gcs.no_level", skill=entry.full_name))
            continue
        paid = entry.points if entry.paid is None else entry.paid
        if entry.kind == "skill" and entry.attribute and paid > 0 and entry.difficulty in DIFFICULTY_BASE:
            skill = Skill(entry.name, entry.attribute, entry.difficulty, paid, None, entry.specialization,
                          bonus=entry.bonus)
        else:
            skill = Skill(entry.name, entry.attribute, entry.difficulty, paid, level, entry.specialization,
                          bonus=entry.bonus, kind=kind, college=college)
        skills.append(skill)
        chosen_levels.append(level)
    kwargs["skills"] = tuple(skills)

    equipment = [_owner_label(row) for row in _walk_all(data.get("equipment") or [])]
    dr_bonus = 0
    for feature in numbers.features:  # equipped armor and traits (Tough Skin): the torso's DR
        locations = feature.row.get("locations") or [feature.row.get("location") or "torso"]
        if feature.row.get("type") == "dr_bonus" and ("torso" in locations or "all" in locations):
            dr_bonus += int(feature.amount)
    kwargs["equipment"] = tuple(equipment)
    kwargs["dr"] = _torso_dr(data) if _torso_dr(data) is not None else dr_bonus

    character = Character(**kwargs)
    # a bought skill whose live level is not the one chosen (GCS's when ours differs) keeps that level;
    # row by row, so a skill the file lists twice keeps each row's own level
    fixed = []
    for skill, wanted in zip(character.skills, chosen_levels, strict=True):
        if skill.level is None:
            try:
                live = character.skill_level(skill.full_name).level
            except GameKernelError:
                live = None
            if live != wanted:
                skill = replace(skill, level=wanted)
        fixed.append(skill)
    character = replace(character, skills=tuple(fixed))
    weapons, expected_weapons = _weapons(character, data, numbers, where, warnings)
    character = replace(character, weapons=tuple(weapons))
    fitted = {}
    for weapon, level, parry, block, block_mod in expected_weapons:
        ours = character.weapon_level(weapon)
        comparisons.append(("weapon", weapon.name, level, ours))
        if ours != level:  # the file's level is used, and still follows the skill and ST from here
            mismatches.append((f"{weapon.name} (weapon)", level, ours))
            fitted[weapon.name] = replace(weapon, modifier=weapon.modifier + level - ours)
        if parry is not None and weapon.parry is not None:
            comparisons.append(("parry", weapon.name, parry, floor(ours / 2) + 3 + weapon.parry
                                + numbers.defense_bonus.get("parry", 0)))
        if block is not None:
            comparisons.append(("block", weapon.name, block, floor(ours / 2) + 3 + block_mod
                                + numbers.defense_bonus.get("block", 0)))
    if numbers.dodge_gcs is not None:
        comparisons.append(("dodge", "Dodge", numbers.dodge_gcs, numbers.dodge))
    if numbers.damage_gcs[0]:
        comparisons.append(("thrust", "thrust", numbers.damage_gcs[0], numbers.thrust))
        comparisons.append(("swing", "swing", numbers.damage_gcs[1], numbers.swing))
    for kind, label, gcs, ours in comparisons:
        if kind == "attribute" and gcs != ours:
            mismatches.append((label, gcs, ours))
    if fitted:
        character = replace(character, weapons=tuple(fitted.get(w.name, w) for w in character.weapons))
    return GcsImport(character, tuple(mismatches), tuple(warnings), tuple(comparisons), numbers.encumbrance,
                     document=data)


def _chosen_modifiers(row: dict[str, Any]) -> list[str]:
    """The names of a trait's enabled modifiers ("Every Living Being" of a Sense of Duty), as GCS
    lists them next to the trait; unfilled placeholders ("@Individual@") left out."""
    names = []
    for modifier in row.get("modifiers") or []:
        if isinstance(modifier, dict) and not modifier.get("disabled"):
            name = substitute(str(modifier.get("name", "")), modifier.get("replacements") or row.get("replacements"))
            if name and "@" not in name:
                names.append(name)
    return names


def _option(defn: Any, chosen: list[str]) -> str:
    """The catalog option a chosen modifier names (Sense of Duty: every_living_being), else ""."""
    options = getattr(defn, "options", None) or {}
    for name in chosen:
        for key, option in options.items():
            if str(option.get("name", "")).casefold() == name.casefold():
                return key
    return ""


def _cost_reduction(data: dict[str, Any], numbers: GcsNumbers) -> tuple[tuple[str, int], ...]:
    """% off each attribute's cost as GCS computes it: `cost_reduction` features (No Fine
    Manipulators -40% ST/DX) plus the Size Modifier times the attribute's `cost_adj_percent_per_sm`
    (ST and HP 10% per SM above 0), so the sheet's point total equals the file's."""
    percent: dict[str, int] = {}
    for feature in numbers.features:
        if feature.row.get("type") == "cost_reduction" and feature.row.get("attribute"):
            key = str(feature.row["attribute"])
            percent[key] = percent.get(key, 0) + int(_maybe_int(feature.row.get("percentage")) or 0)
    size = _maybe_int((data.get("profile") or {}).get("SM")) or 0
    size += sum(int(f.amount) for f in numbers.features
                if f.row.get("type") == "attribute_bonus" and f.row.get("attribute") == "sm")
    if size > 0:
        for row in (data.get("settings") or {}).get("attributes") or []:
            per_sm = _maybe_int(row.get("cost_adj_percent_per_sm")) if isinstance(row, dict) else None
            if per_sm:
                key = str(row.get("id"))
                percent[key] = percent.get(key, 0) + size * per_sm
    return tuple(sorted((key, value) for key, value in percent.items() if value))


SHEET_ATTRIBUTES = ("st", "dx", "iq", "ht", "will", "per", "hp", "fp", "basic_speed", "basic_move")


def _other_attribute_costs(data: dict[str, Any], where: str) -> tuple[Trait, ...]:
    """One cost line per attribute the file buys that the sheet has no field for (a bought Fright
    Check or Vision, a setting's own pool such as Magicka Points): its levels x the setting's cost per
    level, a fraction rounded up as GCS does, so the point total counts it. What it does at the table
    (Fright Check +1) is already in the sheet's roll bonuses; the line only carries the cost."""
    definitions = {row.get("id"): row for row in (data.get("settings") or {}).get("attributes") or []
                   if isinstance(row, dict)}
    size = _maybe_int((data.get("profile") or {}).get("SM")) or 0
    lines = []
    for row in data.get("attributes") or []:
        key = row.get("attr_id") if isinstance(row, dict) else None
        definition = definitions.get(key)
        if key in SHEET_ATTRIBUTES or definition is None or not row.get("adj"):
            continue
        levels = Fraction(str(row["adj"]))
        off = min(80, size * int(_maybe_int(definition.get("cost_adj_percent_per_sm")) or 0)) if size > 0 else 0
        cost = ceil(levels * Fraction(str(definition.get("cost_per_point", 0) or 0)) * (100 - off) / 100)
        if cost:
            name = str(definition.get("full_name") or definition.get("name") or key)
            lines.append(Trait(id="", name=f"{name} {float(levels):+g}", points=cost,
                               note=t("gurps.gcs.attribute_cost")))
    return tuple(lines)


def _blocks_as_shield(row: dict[str, Any]) -> bool:
    """A weapon row that blocks with the Shield or Cloak skill: a ready shield or cloak, what Block
    needs (GURPS-CMB-45). A flail's or a nunchaku's own Block (another rule set's, not the seed's) is
    not a shield."""
    if _maybe_int(row.get("block")) is None:
        return False
    return any(isinstance(d, dict) and d.get("type") in ("skill", "block")
               and plain_name(d.get("name")).casefold() in ("shield", "cloak") for d in row.get("defaults") or [])


def _shield_bonuses(data: dict[str, Any]) -> dict[str, int]:
    """The defense bonuses of the equipped item with the best Block bonus (a shield, a cloak): its DB,
    which the fight adds to every defense once, while the shield is ready (GURPS-CMB-43)."""
    best: dict[str, int] = {}
    for item in equipped_items(data.get("equipment") or []):
        own: dict[str, int] = {}
        for feature in item.get("features") or []:
            if isinstance(feature, dict) and feature.get("type") == "attribute_bonus" \
                    and feature.get("attribute") in ("dodge", "parry", "block"):
                own[feature["attribute"]] = own.get(feature["attribute"], 0) + int(feature.get("amount", 0) or 0)
        if own.get("block", 0) > best.get("block", 0):
            best = own
    return best


def _roll_bonuses(numbers: GcsNumbers) -> dict[str, int]:
    """Fright Check over Will and each sense over Per, as the file's features and bought levels make
    them (Combat Reflexes +2 Fright, Fearlessness, Acute senses: GURPS-MEN-01, MEN-10): `%fright` and
    `%check Vision` add them as the sheet's roll modifiers."""
    values = numbers.attributes
    out = {key: int(values[key]) - int(values["per"]) for key in ("vision", "hearing", "taste_smell", "touch")}
    out["fright_check"] = int(values["fright_check"]) - int(values["will"])
    return out


def _used(ours: int, gcs: Any) -> int:
    """The file's value where it has one (GCS is authoritative where we differ), else ours."""
    return int(gcs) if isinstance(gcs, (int, float)) and not isinstance(gcs, bool) else int(ours)


def _plain(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _maybe_int(value: Any) -> int | None:
    """"14" -> 14; "No", "", None, "14F" -> None/14 (the leading number only)."""
    match = re.match(r"\s*([+-]?\d+)", str(value or ""))
    return int(match.group(1)) if match else None


GCS_COMPUTED_ROLLS = ("dodge", "parry", "block", "vision", "hearing", "taste_smell", "touch", "fright_check")


def _only_gcs_numbers(defn: Any) -> bool:
    """Every automatic effect of our catalog's trait is on a number GCS works out from the file's
    features (a defense, a sense, Fright Check, a skill): a row of it without features grants none of
    them in GCS's numbers (an Enhanced Dodge limited to small projectiles), so none is added here."""
    effects = [e for e in defn.effects if e.get("auto")]
    return bool(effects) and all(str(e.get("roll", "")).startswith(("skill:", "skill_tag:"))
                                 or e.get("roll") in GCS_COMPUTED_ROLLS for e in effects)


def _has_features(row: dict[str, Any]) -> bool:
    return bool(row.get("features")) or any(m.get("features") for m in row.get("modifiers") or []
                                            if isinstance(m, dict) and not m.get("disabled"))


def _is_melee(row: dict[str, Any]) -> bool | None:
    """GCS 5 weapon ids start with 'w' (melee) or 'W' (ranged); older files say type melee_weapon."""
    kind = str(row.get("type", ""))
    if kind in ("melee_weapon", "ranged_weapon"):
        return kind == "melee_weapon"
    wid = str(row.get("id", ""))
    if wid[:1] in ("w", "W"):
        return wid[0] == "w"
    return None


def _default_levels(character: Character, defaults: list[dict[str, Any]]):
    """(default, skill or attribute, modifier, level) of each weapon default the character can use: a
    skill on the sheet, or an attribute (as GCS resolves weapon levels)."""
    for d in defaults or []:
        kind, mod = str(d.get("type", "")), int(d.get("modifier", 0) or 0)
        if kind == "skill":
            name = plain_name(d.get("name"))
            specialization = plain_name(d.get("specialization"))
            if specialization and "@" not in specialization:  # "@Attack Type@": an unfilled placeholder
                name = f"{name} ({specialization})"
            if character.find_skill_entry(name) is None:
                continue
            try:
                level = character.skill_level(name).level + mod
            except (NotFoundError, DataError):
                continue
        elif kind in ("st", "dx", "iq", "ht", "will", "per"):
            name, level = kind.upper() if len(kind) == 2 else kind.capitalize(), character.attribute_value(kind) + mod
        else:
            continue
        yield d, name, mod, level


def _best_default(character: Character, defaults: list[dict[str, Any]]) -> tuple[str, int, int] | None:
    """(skill or attribute, modifier, level) of the best weapon default the character can use (the
    first of equal ones)."""
    best = None
    for _, name, mod, level in _default_levels(character, defaults):
        if best is None or level > best[2]:
            best = (name, mod, level)
    return best


def _attack_skill(character: Character, defaults: list[dict[str, Any]]) -> tuple[str, str] | None:
    """(name, specialization) of the best skill default, the skill the weapon attacks with: GCS gives
    a `weapons_with_required_skill` bonus only for that one (a Kick at Kicking gets no Brawling
    damage bonus, though it also defaults to Brawling-2)."""
    best: tuple[dict[str, Any], int] | None = None
    for default, _, _, level in _default_levels(character, defaults):
        if default.get("type") == "skill" and (best is None or level > best[1]):
            best = (default, level)
    if best is None:
        return None
    return plain_name(best[0].get("name")), plain_name(best[0].get("specialization"))


def _weapon_owners(data: dict[str, Any]):
    """Rows that carry weapons: equipped items, then enabled traits (natural attacks: Bite, Punch...)."""
    for item in _walk_all(data.get("equipment") or []):
        if item.get("equipped", True):
            yield item
    yield from (row for row in _walk_enabled(data.get("traits") or data.get("advantages") or [])
                if row.get("weapons"))


def _walk_enabled(rows: list[dict[str, Any]]):
    for row in rows or []:
        if isinstance(row, dict) and not row.get("disabled"):
            yield row
            yield from _walk_enabled(row.get("children") or [])


def _weapon_skill_bonus(numbers: GcsNumbers, item: dict[str, Any], row: dict[str, Any]) -> int:
    """`skill_bonus` features aimed at weapons: by weapon name/usage/tags, or on the item itself."""
    total = 0.0
    name = str(item.get("description", item.get("name", "")))
    own = [f for f in item.get("features") or [] if isinstance(f, dict)]
    for modifier in item.get("modifiers") or []:  # an enabled modifier's features are the item's too
        if isinstance(modifier, dict) and not modifier.get("disabled"):
            own.extend(f for f in modifier.get("features") or [] if isinstance(f, dict))
    # the sheet's other features can only count by the weapon's name: look those few up
    others = (f.row for f in numbers.by_name.candidates("skill_bonus", name) if f.row not in own)
    for feature in [*others, *own]:
        if feature.get("type") != "skill_bonus":
            continue
        selection = feature.get("selection_type")
        amount = float(feature.get("amount", 0) or 0)
        if feature.get("per_level"):
            amount *= float(item.get("levels") or 1)
        if selection == "this_weapon" and feature in own:
            if matches(feature.get("specialization"), str(row.get("usage", ""))):
                total += amount
        elif (selection == "weapons_with_name" and feature not in own and matches(feature.get("name"), name)
              and matches(feature.get("specialization"), str(row.get("usage", "")))
              and matches_list(feature.get("tags"), item.get("tags") or [])):
            total += amount
    return int(total)


def _relative_levels(numbers: GcsNumbers) -> dict[tuple[str, str], int]:
    """(skill, specialization) -> level relative to its attribute (DX+2 -> 2), the file's level first,
    before the encumbrance penalty; a technique's over its default (GCS's relative levels): what a
    `weapons_with_required_skill` bonus tests (Brawling at DX+2 gives +1 per die). As GCS, only a
    skill with points counts (a Brawling known only by default gives no bonus)."""
    out: dict[tuple[str, str], int] = {}
    for row in numbers.skills:
        level = row.gcs if row.gcs is not None else row.level
        attribute = numbers.attributes.get(row.attribute.lower()) if row.attribute else None
        if row.kind == "skill" and level is not None and attribute is not None and row.points > 0:
            out.setdefault((row.name, row.specialization), level + row.penalty - attribute)
        elif row.kind == "technique" and row.above_default is not None:
            out.setdefault((row.name, row.specialization), row.above_default)
    return out


def _owner_label(item: dict[str, Any]) -> str:
    """A trait's or item's name as GCS shows it: its nameables filled in from the row's replacements
    ("Crushing Striker (@Body Part@)" -> "Crushing Striker (Tail)")."""
    return str(substitute(str(item.get("description", item.get("name", "?"))), item.get("replacements")))


def _usage_name(label: str, row: dict[str, Any], taken: set[str]) -> str:
    """The first free of: the owner's name, "Naginata (Swung)", "Naginata (Swung, The blunt end)"
    (GCS's usage notes tell two usages of one name apart), "Naginata (Swung 2)"."""
    usage = str(row.get("usage") or "").strip() or str(len(taken))
    notes = str(row.get("usage_notes") or "").strip()
    candidates = [label, f"{label} ({usage})"] + ([f"{label} ({usage}, {notes})"] if notes else [])
    number = 2
    while all(name in taken for name in candidates):
        candidates.append(f"{label} ({usage} {number})")
        number += 1
    return next(name for name in candidates if name not in taken)


def _named_weapon_rows(data: dict[str, Any]):
    """(sheet name, weapon row, owner row) of every weapon usage: the first keeps the owner's name,
    the others add their usage ("Broadsword (Thrust)"), each name once, so every view (the sheet,
    `%attack`, the comparison) names a usage alike and none hides another."""
    taken: set[str] = set()
    for item in _weapon_owners(data):
        label = _owner_label(item)
        for row in item.get("weapons") or []:
            if not isinstance(row, dict):
                continue
            name = _usage_name(label, substitute(row, item.get("replacements")), taken)
            taken.add(name)
            yield name, row, item


def weapon_rows(data: dict[str, Any]):
    """(sheet name, weapon row) of every weapon usage of a parsed .gcs document, as the sheet names them."""
    for name, row, _ in _named_weapon_rows(data):
        yield name, row


def _weapons(character: Character, data: dict[str, Any], numbers: GcsNumbers, where: str, warnings: list[str]):
    """Melee and ranged weapons of equipped items and traits: one CharacterWeapon per usage (the first
    keeps the item's name, the others add the usage: "Broadsword (Thrust)"), with the best default as
    its skill, less 1 per point of the weapon's minimum ST above the wielder's, plus weapon skill bonuses."""
    weapons: list[CharacterWeapon] = []
    expected: list[tuple[CharacterWeapon, int, int | None, int | None, int]] = []
    skill_features = [f for skill in _walk(data.get("skills") or []) for f in skill.get("features") or []
                      if isinstance(f, dict)]
    relative = _relative_levels(numbers)
    for name, row, item in _named_weapon_rows(data):
        label = _owner_label(item)
        melee = _is_melee(row)
        if melee is None:
            warnings.append(f"{label}: a weapon entry that is neither melee nor ranged; skipped")
            continue
        usage = str(row.get("usage", ""))
        attack = _attack_skill(character, row.get("defaults") or [])
        flat, bonus_per_die = damage_bonus(numbers.features, skill_features, relative, item, row, label, attack)
        divisor = divisor_bonus(numbers.features, skill_features, relative, item, row, label, attack)
        damage, worked = damage_text(row, flat, divisor, _owner_levels(item))
        damage, effect = damage_or_effect(damage, row)
        per_die = bonus_per_die + per_die_of(row) if worked and damage else 0
        strength = _damage_strength(row, item, effective_st_bonus(
            numbers.features, skill_features, relative, item, row, label, attack)) if worked and damage else {}
        file_level = _maybe_int((row.get("calc") or {}).get("level"))
        default = _best_default(character, row.get("defaults") or [])
        fixed = file_level if default is None else None  # no default we can use: the file's level, as is
        best: tuple[str, int, int | None] = ("", 0, file_level) if default is None else default
        parry_text = str(row.get("parry") or "").strip().lower()  # none written: cannot parry, as GCS shows it
        parry = None if (not parry_text or "no" in parry_text or not melee) else int(
            re.sub(r"[^0-9+-]", "", parry_text) or 0)
        if parry is not None:  # Enhanced Parry (Rapier) and the like: `weapon_parry_bonus` for this usage
            parry += sum(damage_bonus(numbers.features, skill_features, relative, item, row, label, attack,
                                      kind="weapon_parry_bonus"))
        flags: tuple[str, ...] = ("fencing",) if parry is not None and "f" in parry_text else ()
        if not melee:
            acc = re.sub(r"[^0-9+-]", "", str(row.get("accuracy", "") or "0").split("+")[0]) or "0"
            flags = ("thrown" if "thrown" in usage.lower() else "ranged", f"acc={int(acc)}")
        modifier = best[1] + _weapon_skill_bonus(numbers, item, row)
        minimum = _maybe_int(row.get("strength")) or 0
        if best[2] is None:  # neither a default nor the file's level: an aura, an engulf (GURPS-CMB-25)
            flags, parry = (*flags, "no_roll"), None
        weapon = CharacterWeapon(name=name, damage=damage, skill=best[0] if best[0] != name else "",
                                 modifier=modifier, level=fixed, reach=str(row.get("reach", "") or ""),
                                 parry=parry, flags=flags, usage=usage, per_die=per_die,
                                 min_st=max(0, minimum), effect=effect,
                                 follow_up=follow_up_of(row) if damage else "", **strength)
        try:
            validate_weapon(weapon, where=f"{where}: {name}")
        except GameKernelError as error:
            warnings.append(str(error))
            continue
        weapons.append(weapon)
        level = (row.get("calc") or {}).get("level")
        if level is not None:
            calc = row.get("calc") or {}
            expected.append((weapon, _int(level, f"{where}: {name}.calc.level"),
                             _maybe_int(calc.get("parry")), _maybe_int(calc.get("block")),
                             _maybe_int(row.get("block")) or 0))
    return weapons, expected


def _owner_levels(item: dict[str, Any]) -> int:
    """The levels of a leveled trait or item (what a weapon's `base_leveled` damage is multiplied by)."""
    try:
        return max(0, int(float(item.get("levels") or 0)))
    except (TypeError, ValueError):
        return 0


def _damage_strength(row: dict[str, Any], item: dict[str, Any], bonus: int) -> dict[str, int]:
    """How GCS reads a weapon's thr/sw (CharacterWeapon's rated_st, st_bonus, max_st): at the item's
    rated ST when it has one (a bow's pull), plus the features' effective-ST bonus, and never above 3x
    the weapon's minimum ST (the Basic Set's cap, not in the seed: carried as the file has it) [std]."""
    minimum = _maybe_int(row.get("strength")) or 0
    return {"rated_st": max(0, _maybe_int(item.get("rated_strength")) or 0), "st_bonus": bonus,
            "max_st": 3 * minimum if minimum > 0 else 0}


def _torso_dr(data: dict[str, Any]) -> int | None:
    body = (data.get("settings") or {}).get("body_type") or {}
    for location in body.get("locations", []) or []:
        if location.get("id") == "torso":
            dr = (location.get("calc") or {}).get("dr") or {}
            if "all" in dr:
                return int(dr["all"])
    return None


def read_gcs(path: str | os.PathLike[str]) -> GcsImport:
    """Read a .gcs file into a GcsImport; every error names the file (and the field)."""
    source = Path(path)
    try:
        text = limits.read_text(source)
    except FileNotFoundError as error:
        raise NotFoundError(t("gurps.err.gcs.missing", source=source)) from error
    if text.lstrip().startswith("<"):
        raise DataError(t("gurps.err.gcs.xml", where=source))
    try:
        data = limits.load_json(text, source.name)
    except ValueError as error:
        raise DataError(t("gurps.err.file.json", source=source, error=error)) from error
    limits.check_entries(data, source.name)
    return import_gcs(data, where=str(source))


def load_gcs(path: str | Path) -> Character:
    """Read a .gcs file as a Character; its notes say where GCS's value replaced ours."""
    result = read_gcs(path)
    notes = "; ".join([*result.mismatch_lines(), *result.warnings])
    return replace(result.character, source=str(path), notes=notes)


def export_gcs(character: Character, target: str | Path) -> Path:
    """Write current HP/FP damage and conditions into a COPY of the character's GCS file (the file
    it was imported from is never edited in place); DataError names what is wrong."""
    if not character.gcs_source:
        raise DataError(t("gurps.err.gcs.no_source", name=character.name))
    source, destination = Path(character.gcs_source), Path(target)
    if destination.resolve() == source.resolve():
        raise DataError(t("gurps.err.gcs.same_file", source=source))
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise NotFoundError(t("gurps.err.gcs.missing", source=source)) from error
    except ValueError as error:
        raise DataError(t("gurps.err.file.json", source=source, error=error)) from error
    for row in data.get("attributes") or []:
        if isinstance(row, dict) and row.get("attr_id") in ("hp", "fp"):
            lost = character.hp_lost if row["attr_id"] == "hp" else character.fp_lost
            if lost:
                row["damage"] = lost
            else:
                row.pop("damage", None)
    notes = [n for n in data.get("notes") or [] if not str(n.get("id", "")).startswith(EXPORT_NOTE_ID)]
    if character.conditions:
        text = ", ".join(t(f"gurps.condition.{key}") for key in character.conditions)
        notes.append({"id": EXPORT_NOTE_ID, "text": t("gurps.char.conditions", conditions=text)})
    data["notes"] = notes
    atomic_write_text(destination, json.dumps(data, ensure_ascii=False, indent="\t") + "\n")
    return destination


EXPORT_NOTE_ID = "ngamekernel"  # the note this export owns (replaced on the next export)
