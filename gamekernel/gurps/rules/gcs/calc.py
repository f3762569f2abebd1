"""Compute a GCS character's numbers the way GCS does, from the file's own rows and features.

    compute(data) -> GcsNumbers   # attributes, skill/technique/spell levels, dodge, weapons, damage

Rules: attributes GURPS-CH-05..12 plus `attribute_bonus` features; skills GURPS-STD-01..03 plus
`skill_bonus` (a Talent's bonus counts once, also on defaults: ADV-26); techniques from their parent
skill; spells as IQ/H or IQ/VH skills plus `spell_bonus` (Magery); Dodge CH-10; Parry/Block
floor(skill/2)+3 (CMB); thrust/swing DMG-02 (and its continuation above ST 26); encumbrance from
the carried weight against Basic Lift (1/2/3/6/10 x BL). Weights are read in lb (GCS's unit) and
converted at 1 lb = 0.5 kg (the seed's metric convention).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from math import ceil, floor
from typing import Any

from gamekernel.gurps.rules.characters import basic_lift_lb, encumbrance_level
from gamekernel.gurps.rules.damage import progression_damage as gcs_damage
from gamekernel.gurps.rules.gcs.features import (
    ActiveFeature,
    FeatureIndex,
    active_features,
    attribute_bonuses,
    plain_name,
    skill_bonus,
    spell_bonus,
    substitute,
)
from gamekernel.gurps.rules.skills import DIFFICULTY_BASE, points_for_relative, relative_level

BASE_ATTRIBUTES = ("st", "dx", "iq", "ht")


@dataclass
class SkillRow:
    """One skill, technique or spell with our level and the file's."""

    name: str
    specialization: str
    kind: str  # "skill", "technique", "spell"
    attribute: str  # "DX", ... or "" when not a standard attribute
    difficulty: str
    points: int
    bonus: int
    level: int | None  # ours (None: we cannot compute it)
    gcs: int | None  # the file's calc.level
    colleges: tuple[str, ...] = ()
    paid: int | None = None  # points paid when features add free ones (skill_point_bonus)
    penalty: int = 0  # the encumbrance penalty in `level` (GCS's relative level leaves it out)
    above_default: int | None = None  # a technique: its level over its default (GCS's relative level)

    @property
    def full_name(self) -> str:
        return f"{self.name} ({self.specialization})" if self.specialization else self.name


@dataclass
class GcsNumbers:
    """Everything compute() found; `attributes` and friends are ours, `*_gcs` the file's."""

    attributes: dict[str, int] = field(default_factory=dict)
    attributes_gcs: dict[str, int] = field(default_factory=dict)
    bought: dict[str, int] = field(default_factory=dict)  # adj of each attribute
    granted: dict[str, int] = field(default_factory=dict)  # feature bonuses folded into attributes
    speed: Fraction = Fraction(5)
    skills: list[SkillRow] = field(default_factory=list)
    defense_bonus: dict[str, int] = field(default_factory=dict)  # dodge/parry/block from features
    dodge: int = 8
    dodge_gcs: int | None = None
    thrust: str = ""
    swing: str = ""
    damage_gcs: tuple[str, str] = ("", "")
    carried_lb: float = 0.0
    striking_st: int = 0  # ST for damage only (Striking ST)
    lifting_st: int = 0  # ST for Basic Lift only (Lifting ST)
    progression: str = "basic_set"  # the file's damage progression setting
    encumbrance: int = 0
    features: list[ActiveFeature] = field(default_factory=list)
    by_name: FeatureIndex = field(default_factory=lambda: FeatureIndex(()))  # `features`, indexed once


def _num(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def weight_lb(text: Any) -> float:
    """"15 lb", "2.5 lb", "1 kg", "8 oz", "1,280 lb" (GCS writes thousands with commas) -> pounds."""
    match = re.match(r"\s*([0-9.]+)\s*([a-z]*)", str(text or "0").replace(",", ""))
    if not match:
        return 0.0
    value, unit = float(match.group(1) or 0), match.group(2)
    return value * {"kg": 2.0, "g": 0.002, "oz": 1 / 16, "tn": 2000.0, "t": 2000.0}.get(unit, 1.0)


def _attributes(data: dict[str, Any], numbers: GcsNumbers) -> None:
    rows: dict[str, dict[str, Any]] = {  # a row without an id names no attribute
        a["attr_id"]: a for a in data.get("attributes") or []
        if isinstance(a, dict) and isinstance(a.get("attr_id"), str)
    }
    bonus = attribute_bonuses(numbers.features)
    for key, row in rows.items():
        numbers.bought[key] = int(_num(row.get("adj", 0))) if key != "basic_speed" else row.get("adj", 0)
        calc = (row.get("calc") or {}).get("value")
        if calc is not None:
            numbers.attributes_gcs[key] = calc
    values: dict[str, int] = {}
    for key in BASE_ATTRIBUTES:
        values[key] = 10 + numbers.bought.get(key, 0) + int(bonus.get(key, 0))
    values["will"] = values["iq"] + numbers.bought.get("will", 0) + int(bonus.get("will", 0))
    values["per"] = values["iq"] + numbers.bought.get("per", 0) + int(bonus.get("per", 0))
    values["hp"] = values["st"] + numbers.bought.get("hp", 0) + int(bonus.get("hp", 0))
    values["fp"] = values["ht"] + numbers.bought.get("fp", 0) + int(bonus.get("fp", 0))
    speed = (Fraction(values["dx"] + values["ht"], 4) + Fraction(str(_num(numbers.bought.get("basic_speed", 0))))
             + Fraction(str(bonus.get("basic_speed", 0))))
    numbers.speed = speed
    values["basic_speed"] = speed  # type: ignore[assignment]
    values["basic_move"] = floor(speed) + numbers.bought.get("basic_move", 0) + int(bonus.get("basic_move", 0))
    for sense in ("vision", "hearing", "taste_smell", "touch"):
        values[sense] = values["per"] + numbers.bought.get(sense, 0) + int(bonus.get(sense, 0))
    values["fright_check"] = values["will"] + numbers.bought.get("fright_check", 0) + int(bonus.get("fright_check", 0))
    numbers.attributes = values
    numbers.granted = {k: int(v) for k, v in bonus.items() if k in (*BASE_ATTRIBUTES, "will", "per", "hp", "fp",
                                                                      "basic_move") and v}
    speed_quarters = round(Fraction(str(bonus.get("basic_speed", 0))) * 4)
    if speed_quarters:  # Basic Speed a trait grants, in quarters (the sheet's speed_adj), paid in the trait
        numbers.granted["speed"] = speed_quarters
    numbers.defense_bonus = {k: int(bonus.get(k, 0)) for k in ("dodge", "parry", "block")}
    numbers.striking_st = int(bonus.get("st:striking_only", 0))
    striking = values["st"] + numbers.striking_st
    progression = numbers.progression = str((data.get("settings") or {}).get("damage_progression", "basic_set"))
    thrust, swing = gcs_damage(striking, progression)
    numbers.thrust, numbers.swing = str(thrust), str(swing)
    calc = data.get("calc") or {}
    numbers.damage_gcs = (str(calc.get("thrust", "")), str(calc.get("swing", "")))
    numbers.lifting_st = int(bonus.get("st:lifting_only", 0))
    lifting = values["st"] + numbers.lifting_st
    numbers.carried_lb = sum(_extended_weight(row) for row in data.get("equipment") or [] if isinstance(row, dict))
    numbers.encumbrance = encumbrance_level(numbers.carried_lb, float(basic_lift_lb(lifting, progression)))
    numbers.dodge = floor(speed) + 3 + numbers.defense_bonus["dodge"]
    # reeling (HP < 1/3, GURPS-INJ-01) and tired (FP < 1/3, FAT-01) each halve Dodge, rounding up
    halved = sum(1 for key in ("hp", "fp") if _below_third(data, key, values[key]))
    if halved:
        numbers.dodge = ceil((speed + 3 + numbers.defense_bonus["dodge"]) / (2 * halved))
    dodges = calc.get("dodge")
    if isinstance(dodges, list) and dodges:
        numbers.dodge_gcs = int(dodges[0])


def _below_third(data: dict[str, Any], key: str, maximum: int) -> bool:
    """Current HP or FP (maximum - the file's damage) below a third of the maximum, or at 0 or less."""
    row = next((a for a in data.get("attributes") or [] if isinstance(a, dict) and a.get("attr_id") == key), None)
    if row is None:
        return False
    current = maximum - int(_num(row.get("damage", 0)))
    return current * 3 < maximum or current <= 0


def _extended_weight(row: dict[str, Any]) -> float:
    calc = row.get("calc") or {}
    if "extended_weight" in calc:
        return weight_lb(calc["extended_weight"])
    quantity = _num(row.get("quantity", 1)) or 0
    own = weight_lb(row.get("base_weight") or row.get("weight"))
    return own * quantity + sum(_extended_weight(child) for child in row.get("children") or []
                                if isinstance(child, dict))


def leaves(rows: Any) -> Iterator[dict[str, Any]]:
    """The rows of a GCS list that are not containers, containers opened (any depth)."""
    for row in rows or []:
        if not isinstance(row, dict):
            continue
        if row.get("children") is not None or str(row.get("type", "")).endswith("_container"):
            yield from leaves(row.get("children"))
        else:
            yield row


ATTRIBUTE_LABELS = {"st": "ST", "dx": "DX", "iq": "IQ", "ht": "HT", "will": "Will", "per": "Per"}


def _skill_base(numbers: GcsNumbers, attribute: str, difficulty: str, points: int) -> int | None:
    if attribute not in numbers.attributes or points < 1 or difficulty.upper() not in DIFFICULTY_BASE:
        return None
    return numbers.attributes[attribute] + relative_level(difficulty, points)


class _Levels(dict[str, tuple[int, int]]):
    """Known skills' (level, bonus) by _key(name, specialization), and their keys by name: a default
    with a placeholder specialization ("@Type@": any) looks its skills up instead of scanning all."""

    def __init__(self) -> None:
        super().__init__()
        self.by_name: dict[str, list[str]] = {}  # "name|" -> keys starting so, in insertion order

    def __setitem__(self, key: str, value: tuple[int, int]) -> None:
        if key not in self:
            for position, character in enumerate(key):
                if character == "|":
                    self.by_name.setdefault(key[:position + 1], []).append(key)
        super().__setitem__(key, value)

    def setdefault(self, key: str, default: tuple[int, int]) -> tuple[int, int]:
        if key not in self:
            self[key] = default
        return self[key]


def _default_level(numbers: GcsNumbers, defaults: list[dict[str, Any]], levels: _Levels,
                   exclude: str, raised: dict[str, tuple[str, tuple[int, int]]] | None = None,
                   ) -> tuple[int | None, str]:
    """Best default and the skill it comes from: attribute + modifier, or a known skill's level
    WITHOUT its bonus + modifier (the defaulting skill adds its bonus once: ADV-26). A skill that was
    itself raised from `exclude`'s default counts at its level before that (no loop)."""
    best, source = None, ""
    for d in defaults or []:
        kind, mod = str(d.get("type", "")), int(_num(d.get("modifier", 0)))
        if kind in numbers.attributes and kind in ATTRIBUTE_LABELS:
            value, origin = numbers.attributes[kind] + mod, kind
        elif kind == "skill":
            options = []
            name, specialization = plain_name(d.get("name")), plain_name(d.get("specialization"))
            # a default naming no specialization takes any (Esoteric Medicine -> Esoteric Medicine (Holy))
            keys = _keys(levels, name, specialization) or (_keys(levels, name, "@any@") if not specialization else [])
            for key in keys:
                if key == exclude:
                    continue
                level, bonus = levels[key]
                if raised and key in raised and raised[key][0] == exclude:
                    level, bonus = raised[key][1]
                options.append((level - bonus + mod, key))
            if not options:
                continue
            value, origin = max(options)
        else:
            continue
        if best is None or value > best:
            best, source = value, origin
    return best, source


def _keys(levels: _Levels, name: str, specialization: str) -> list[str]:
    """The known skills a default names; an unfilled placeholder specialization ("@Type@") matches any."""
    if "@" in specialization:
        return list(levels.by_name.get(f"{name.casefold()}|", ()))
    key = _key(name, specialization)
    return [key] if key in levels else []


def _key(name: str, specialization: str) -> str:
    return f"{name.casefold()}|{specialization.casefold()}"


def _skills(data: dict[str, Any], numbers: GcsNumbers) -> None:
    rows: dict[tuple[str, str], dict[str, Any]] = {}  # the first row of each name and specialization
    levels = _Levels()  # key -> (level, bonus)
    pending = []
    for row in leaves(data.get("skills")):
        name = substitute(str(row.get("name", "?")), row.get("replacements"))
        spec = substitute(str(row.get("specialization", "") or ""), row.get("replacements"))
        rows.setdefault((name, spec), row)
        attr, _, diff = str(row.get("difficulty", "")).partition("/")
        points = paid = int(_num(row.get("points", 0)))
        bonus, _ = skill_bonus(numbers.by_name.candidates("skill_bonus", name), name, spec, row.get("tags") or [])
        points += skill_bonus(numbers.by_name.candidates("skill_point_bonus", name), name, spec,
                              row.get("tags") or [], kind="skill_point_bonus")[0]
        gcs = (row.get("calc") or {}).get("level")
        gcs = int(gcs) if gcs is not None else None
        penalty = numbers.encumbrance * int(_num(row.get("encumbrance_penalty_multiplier", 0)))
        if not diff:  # a technique: "a"/"h" relative to its default
            pending.append((row, name, spec, attr, points, bonus, gcs))
            continue
        base = _skill_base(numbers, attr, diff, points)
        if base is not None:
            levels[_key(name, spec)] = (base + bonus - penalty, bonus)
        numbers.skills.append(SkillRow(name, spec, "skill", ATTRIBUTE_LABELS.get(attr, ""), diff.upper(),
                                       points, bonus, None if base is None else base + bonus - penalty, gcs,
                                       paid=paid, penalty=penalty))
    raised: dict[str, tuple[str, tuple[int, int]]] = {}
    for _ in range(2):  # twice: a skill bought up from a default can itself be another's default
        _defaulted_levels(numbers, rows, levels, raised)
    _techniques(numbers, pending, levels)


def _defaulted_levels(numbers: GcsNumbers, rows: dict[tuple[str, str], dict[str, Any]], levels: _Levels,
                      raised: dict[str, tuple[str, tuple[int, int]]]) -> None:
    """Zero-point skills get their best default; bought skills are raised on top of a skill default
    (`raised` remembers from which skill, and the level before)."""
    for skill in numbers.skills:  # zero-point skills: their best default (attribute or a bought skill)
        if skill.kind != "skill":
            continue
        if skill.level is None and skill.points < 1:
            row = rows[skill.name, skill.specialization]
            level, _ = _default_level(numbers, row.get("defaults") or [], levels,
                                      _key(skill.name, skill.specialization), raised)
            if level is not None:
                skill.level = level + skill.bonus
                levels.setdefault(_key(skill.name, skill.specialization), (skill.level, skill.bonus))
        elif skill.level is not None:  # bought on top of a skill default: that default's points count too
            row = rows[skill.name, skill.specialization]
            skill_defaults = [d for d in row.get("defaults") or [] if d.get("type") == "skill"]
            key = _key(skill.name, skill.specialization)
            level, origin = _default_level(numbers, skill_defaults, levels, key, raised)
            attr = next(k for k, v in ATTRIBUTE_LABELS.items() if v == skill.attribute)
            relative = None if level is None else level - numbers.attributes[attr]
            if relative is not None and relative >= DIFFICULTY_BASE[skill.difficulty]:
                extra = points_for_relative(skill.difficulty, relative)
                bought = numbers.attributes[attr] + relative_level(skill.difficulty, skill.points + extra)
                penalty = numbers.encumbrance * int(_num(row.get("encumbrance_penalty_multiplier", 0)))
                if bought + skill.bonus - penalty > skill.level:
                    raised.setdefault(key, (origin, levels[key]))
                    skill.level = bought + skill.bonus - penalty
                    levels[key] = (skill.level, skill.bonus)


def _techniques(numbers: GcsNumbers, pending: list[Any], levels: _Levels) -> None:
    """Techniques: the parent's default + points (H: points - 1), at most parent + limit. A parent named
    without a specialization is any specialization; a technique may build on an earlier technique."""
    for row, name, spec, attr, points, bonus, gcs in pending:
        default = row.get("default") or {}
        parent_name, parent_spec = plain_name(default.get("name")), plain_name(default.get("specialization"))
        keys = _keys(levels, parent_name, parent_spec) or (
            _keys(levels, parent_name, "@any@") if not parent_spec else [])
        level = None
        kind = str(default.get("type", "skill"))
        start = (max(levels[k][0] for k in keys) if kind == "skill" and keys
                 else numbers.attributes.get(kind) if kind in ATTRIBUTE_LABELS else None)
        if start is not None:
            relative = points - (1 if attr.lower() == "h" and points > 0 else 0)
            base = start + int(_num(default.get("modifier", 0)))
            level = base + max(relative, 0)
            if row.get("limit") is not None:
                level = min(level, start + int(_num(row["limit"])))
            level += bonus
            levels.setdefault(_key(name, spec), (level, bonus))
        numbers.skills.append(SkillRow(name, spec, "technique", "", attr.upper(), points, bonus, level, gcs,
                                       above_default=None if level is None else level - base))


def _spells(data: dict[str, Any], numbers: GcsNumbers) -> None:
    known: dict[str, list[SkillRow]] = {}  # skills and spells with a level by name (Ritual Magic's base skill)
    for skill in numbers.skills:
        if skill.level is not None:
            known.setdefault(skill.name.casefold(), []).append(skill)
    for row in leaves(data.get("spells")):
        name = str(row.get("name", "?"))
        attr, _, diff = str(row.get("difficulty", "iq/h")).partition("/")
        points = int(_num(row.get("points", 0)))
        colleges = tuple(str(c) for c in row.get("college") or [])
        tags = row.get("tags") or []
        source = str(row.get("power_source", "") or "")
        bonus = spell_bonus(numbers.by_name.candidates("spell_bonus", name, *colleges, source),
                            name, colleges, tags, power_source=source)
        points += spell_bonus(numbers.by_name.candidates("spell_point_bonus", name, *colleges, source),
                              name, colleges, tags, kind="spell_point_bonus", power_source=source)
        gcs = (row.get("calc") or {}).get("level")
        if row.get("base_skill"):  # Ritual Magic: base skill - prerequisites + points (as a technique)
            # the base skill of the spell's college (Ritual Magic (Illusion)), else another college's -6
            bases = known.get(str(row["base_skill"]).casefold(), [])
            own = [s.level for s in bases if s.specialization in colleges and s.level is not None]
            other = [s.level - 6 for s in bases if s.specialization not in colleges and s.level is not None]
            start = max(own or other) if own or other else None
            relative = max(points - (1 if (diff or attr).lower() == "h" else 0), 0)
            level = None if start is None else start - int(_num(row.get("prereq_count", 0))) + relative + bonus
            spell = SkillRow(name, "", "spell", "", attr.upper(), points, bonus, level,
                             int(gcs) if gcs is not None else None, colleges)
        else:
            base = _skill_base(numbers, attr, diff or "h", points)
            spell = SkillRow(name, "", "spell", ATTRIBUTE_LABELS.get(attr, ""), (diff or "h").upper(),
                             points, bonus, None if base is None else base + bonus,
                             int(gcs) if gcs is not None else None, colleges)
        numbers.skills.append(spell)
        if spell.level is not None:
            known.setdefault(name.casefold(), []).append(spell)


def compute(data: dict[str, Any]) -> GcsNumbers:
    """GCS's numbers for a parsed .gcs document, computed by us (see the module docstring)."""
    features = active_features(data)
    numbers = GcsNumbers(features=features, by_name=FeatureIndex(features))
    _attributes(data, numbers)
    _skills(data, numbers)
    _spells(data, numbers)
    return numbers
