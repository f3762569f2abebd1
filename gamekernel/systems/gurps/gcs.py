"""Import GURPS Character Sheet (GCS) `.gcs` files (JSON, version 2-5; tested on 5).

    import_gcs(data, where="file.gcs") -> GcsImport(character, mismatches, warnings)
    load_gcs(path) -> Character

Read: profile.name, total_points, attributes (adj -> our attributes and bought secondary
adjustments), traits (recursively through containers; `calc.points` is the cost), skills
(difficulty "dx/a", points, `calc.level`), equipment names (`description`), the melee and ranged
weapons of equipped items (damage, reach, parry, the best skill default; levels checked against
`calc.level`), DR (body location
`calc.dr.all` for the torso, else equipped `dr_bonus` features). Every skill level is recomputed
with our rules (GURPS-STD-01..03) and compared with the file's `calc.level`; differences are listed
in `mismatches` (a file from a GCS with bonuses we do not model shows them there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gamekernel import limits
from gamekernel.errors import DataError, GameKernelError, NotFoundError
from gamekernel.i18n import t
from gamekernel.systems.gurps.characters import Character, Skill
from gamekernel.systems.gurps.traits import Trait, maybe_trait
from gamekernel.systems.gurps.weapons import CharacterWeapon, validate_weapon

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
    mismatches: tuple[tuple[str, int, int], ...]  # (skill, file's calc.level, our level)
    warnings: tuple[str, ...]


def _walk(rows: list[dict[str, Any]]):
    """Leaf rows, depth first: a row with `children` is a container (its own cost is its children's)."""
    for row in rows or []:
        if not isinstance(row, dict):
            continue
        if "children" in row or str(row.get("type", "")).endswith("_container"):
            yield from _walk(row.get("children") or [])
        else:
            yield row


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


def import_gcs(data: dict[str, Any], where: str = "character.gcs") -> GcsImport:
    """Turn a parsed .gcs document into a Character (see the module docstring)."""
    if not isinstance(data, dict):
        raise DataError(t("gurps.err.gcs.object", where=where))
    version = data.get("version")
    if version not in SUPPORTED_VERSIONS:
        raise DataError(t("gurps.err.gcs.version", where=where, version=version))
    warnings: list[str] = []
    profile = data.get("profile") or {}
    name = str(profile.get("name") or Path(where).stem)
    kwargs: dict[str, Any] = {"name": name}
    if "total_points" in data:
        kwargs["budget"] = _int(data["total_points"], f"{where}: total_points")

    attributes = {a.get("attr_id"): a for a in data.get("attributes", []) if isinstance(a, dict)}
    for key in ("st", "dx", "iq", "ht"):
        if key in attributes:
            kwargs[key] = 10 + _int(attributes[key].get("adj", 0), f"{where}: attributes[{key}].adj")
    for attr, field_name, scale in (("hp", "hp_adj", 1), ("will", "will_adj", 1), ("per", "per_adj", 1),
                                    ("fp", "fp_adj", 1), ("basic_move", "move_adj", 1)):
        if attr in attributes:
            kwargs[field_name] = _int(attributes[attr].get("adj", 0), f"{where}: attributes[{attr}].adj") * scale
    if "basic_speed" in attributes:
        adj = float(attributes["basic_speed"].get("adj", 0) or 0)
        kwargs["speed_adj"] = round(adj * 4)
    if any(kwargs.get(k) for k in ("hp_adj", "will_adj", "per_adj", "fp_adj", "speed_adj", "move_adj")):
        kwargs["allow_bought_secondary"] = True
    if "hp" in attributes and attributes["hp"].get("damage"):
        kwargs["hp_lost"] = _int(attributes["hp"]["damage"], f"{where}: attributes[hp].damage")
    if "fp" in attributes and attributes["fp"].get("damage"):
        kwargs["fp_lost"] = _int(attributes["fp"]["damage"], f"{where}: attributes[fp].damage")

    traits: list[Trait] = []
    for index, row in enumerate(_walk(data.get("traits") or data.get("advantages") or [])):
        label = str(row.get("name", f"trait {index}"))
        points = row.get("calc", {}).get("points")
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
        defn = maybe_trait(label)
        trait_name = label + (f" ({row['notes']})" if row.get("notes") and not defn else "")
        traits.append(Trait(
            id=defn.id if defn else "", name=trait_name, points=points,
            level=_int(level, f"{where}: traits[{label}].levels") if level not in (None, "") else 1,
            cr=row.get("cr"), note=str(row.get("notes", "")) if defn else "",
        ))
    kwargs["traits"] = tuple(traits)

    skills: list[Skill] = []
    expected: list[tuple[str, int]] = []
    for row in _walk(data.get("skills") or []):
        label = str(row.get("name", "?"))
        difficulty = str(row.get("difficulty", ""))
        attribute, _, diff = difficulty.partition("/")
        if not diff:  # techniques: "a"/"h" relative to a parent skill; keep the file's level
            level = row.get("calc", {}).get("level")
            if level is None:
                warnings.append(f"{label}: no difficulty and no calc.level; skipped")
                continue
            skills.append(Skill(label, "", attribute.upper(), 0, _int(level, f"{where}: {label}.calc.level"),
                                str(row.get("specialization", ""))))
            continue
        attr = {"st": "ST", "dx": "DX", "iq": "IQ", "ht": "HT", "will": "Will", "per": "Per"}.get(attribute.lower())
        if attr is None:
            warnings.append(f"{label}: controlling attribute {attribute!r} is not supported; kept the file's level")
        skill = Skill(label, attr or "", diff.upper(), _int(row.get("points", 0), f"{where}: {label}.points"),
                      None if attr else row.get("calc", {}).get("level"), str(row.get("specialization", "")))
        skills.append(skill)
        if attr and row.get("calc", {}).get("level") is not None:
            expected.append((skill.full_name, _int(row["calc"]["level"], f"{where}: {label}.calc.level")))
    kwargs["skills"] = tuple(skills)

    equipment: list[str] = []
    dr_bonus = 0
    for row in _walk_all(data.get("equipment") or []):
        equipment.append(str(row.get("description", row.get("name", "?"))))
        if row.get("equipped", True):
            for feature in row.get("features", []) or []:
                if feature.get("type") == "dr_bonus" and (
                    not feature.get("locations") or "torso" in feature.get("locations", [])
                    or feature.get("location") == "torso"
                ):
                    dr_bonus += _int(feature.get("amount", 0), f"{where}: {row.get('description')}.dr_bonus")
    kwargs["equipment"] = tuple(equipment)
    kwargs["dr"] = _torso_dr(data) if _torso_dr(data) is not None else dr_bonus

    character = Character(**kwargs)
    weapons, expected_weapons = _weapons(character, data.get("equipment") or [], where, warnings)
    character = replace(character, weapons=tuple(weapons))
    mismatches = []
    for label, level in expected:
        try:
            ours = character.skill_level(label).level
        except (NotFoundError, DataError) as error:
            warnings.append(f"{label}: {error}")
            continue
        if ours != level:
            mismatches.append((label, level, ours))
    for weapon, level in expected_weapons:
        ours = character.weapon_level(weapon)
        if ours != level:
            mismatches.append((f"{weapon.name} (weapon)", level, ours))
    return GcsImport(character, tuple(mismatches), tuple(warnings))


def _is_melee(row: dict[str, Any]) -> bool | None:
    """GCS 5 weapon ids start with 'w' (melee) or 'W' (ranged); older files say type melee_weapon."""
    kind = str(row.get("type", ""))
    if kind in ("melee_weapon", "ranged_weapon"):
        return kind == "melee_weapon"
    wid = str(row.get("id", ""))
    if wid[:1] in ("w", "W"):
        return wid[0] == "w"
    return None


def _damage_text(row: dict[str, Any]) -> str:
    """{"type": "cut", "st": "sw", "base": "1"} -> "sw+1 cut"; {"base": "2d+1", "type": "pi"} -> "2d+1 pi"."""
    dmg = row.get("damage") or {}
    kind = str(dmg.get("type", "") or "cr")
    st = str(dmg.get("st", "") or "")
    base = str(dmg.get("base", "") or "").replace(" ", "")
    if st in ("thr", "sw"):
        if base and base.lstrip("+-").isdigit():
            return f"{st}{int(base):+d} {kind}"
        if not base:
            return f"{st} {kind}"
    elif base and "d" in base:
        return f"{base} {kind}"
    return str((row.get("calc") or {}).get("damage", ""))


def _best_default(character: Character, defaults: list[dict[str, Any]]) -> tuple[str, int, int] | None:
    """(skill or attribute, modifier, level) of the best weapon default the character can use: a skill
    on the sheet, or an attribute (as GCS resolves weapon levels)."""
    best = None
    for d in defaults or []:
        kind, mod = str(d.get("type", "")), int(d.get("modifier", 0) or 0)
        if kind == "skill":
            name = str(d.get("name", ""))
            if d.get("specialization"):
                name = f"{name} ({d['specialization']})"
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
        if best is None or level > best[2]:
            best = (name, mod, level)
    return best


def _weapons(character: Character, equipment: list[dict[str, Any]], where: str, warnings: list[str]):
    """Melee and ranged weapons of equipped items: one CharacterWeapon per usage (the first keeps the
    item's name, the others add the usage: "Broadsword (Thrust)"), with the best default as its skill."""
    weapons: list[CharacterWeapon] = []
    expected: list[tuple[CharacterWeapon, int]] = []
    for item in _walk_all(equipment):
        if not item.get("equipped", True):
            continue
        label = str(item.get("description", item.get("name", "?")))
        for row in item.get("weapons") or []:
            melee = _is_melee(row)
            if melee is None:
                warnings.append(f"{label}: a weapon entry that is neither melee nor ranged; skipped")
                continue
            usage = str(row.get("usage", ""))
            taken = {w.name for w in weapons}
            name = label if label not in taken else f"{label} ({usage or len(weapons)})"
            damage = _damage_text(row)
            best = _best_default(character, row.get("defaults") or [])
            if best is None:
                warnings.append(f"{name}: no usable skill or attribute default; skipped")
                continue
            parry_text = str(row.get("parry", "") or "0").lower()
            parry = None if ("no" in parry_text or not melee) else int(re.sub(r"[^0-9+-]", "", parry_text) or 0)
            flags: tuple[str, ...] = ()
            if not melee:
                acc = re.sub(r"[^0-9+-]", "", str(row.get("accuracy", "") or "0").split("+")[0]) or "0"
                flags = ("thrown" if "thrown" in usage.lower() else "ranged", f"acc={int(acc)}")
            weapon = CharacterWeapon(name=name, damage=damage, skill=best[0] if best[0] != name else "",
                                     modifier=best[1], reach=str(row.get("reach", "") or ""), parry=parry,
                                     flags=flags, usage=usage)
            try:
                validate_weapon(weapon, where=f"{where}: {name}")
            except GameKernelError as error:
                warnings.append(str(error))
                continue
            weapons.append(weapon)
            level = (row.get("calc") or {}).get("level")
            if level is not None:
                expected.append((weapon, _int(level, f"{where}: {name}.calc.level")))
    return weapons, expected


def _torso_dr(data: dict[str, Any]) -> int | None:
    body = (data.get("settings") or {}).get("body_type") or {}
    for location in body.get("locations", []) or []:
        if location.get("id") == "torso":
            dr = (location.get("calc") or {}).get("dr") or {}
            if "all" in dr:
                return int(dr["all"])
    return None


def load_gcs(path: str | Path) -> Character:
    """Read a .gcs file; DataError names the file and the field."""
    source = Path(path)
    try:
        data = limits.load_json(limits.read_text(source), source.name)
        limits.check_entries(data, source.name)
    except FileNotFoundError as error:
        raise NotFoundError(t("gurps.err.gcs.missing", source=source)) from error
    except ValueError as error:
        raise DataError(t("gurps.err.file.json", source=source, error=error)) from error
    result = import_gcs(data, where=str(source))
    notes = "; ".join([*(f"GCS level {lvl} vs ours {ours} for {name}" for name, lvl, ours in result.mismatches),
                       *result.warnings])
    return replace(result.character, source=str(source), notes=notes)
