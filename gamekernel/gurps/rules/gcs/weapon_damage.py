"""A GCS weapon's damage as GCS works it out: the row's base and thr/sw, its `modifier_per_die`, and
the `weapon_bonus` features that aim at it (Brawling/Karate +1 per die, Weapon Master, a weapon's own
bonus), so a sheet weapon rolls what the file shows.

    damage_bonus(features, skills, attributes, item, row, name) -> (flat adds, adds per die)
    damage_text(row, flat, divisor, levels) -> ("sw+2 cut", True) or ("1d+1 cut", False)   # True: bonuses in it
    divisor_bonus(features, skills, attributes, item, row, name) -> what features add to the armor divisor
    effective_st_bonus(features, skills, attributes, item, row, name, attack) -> ST added for its thr/sw
    damage_or_effect(text, row) -> ("1d+1 cut", "") or ("", "R-HT-2 or KO")  # no dice: the file's text
    follow_up_of(row) -> "[1d burn]" or ""       # the bracketed second damage: shown, not rolled

Which features count follows GCS's selections: `this_weapon` (the owner's own features, usage by
`specialization`), `weapons_with_name` (the owner's name, usage, tags) and
`weapons_with_required_skill` (the skill the weapon attacks with, its best skill default, at the
relative level `level` asks). Armor divisors are not in the seed but the file carries them: kept as
GCS writes them ("1d+2(2) pi") and applied where the damage meets DR (damage.armor_dr).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from gamekernel.errors import UsageError
from gamekernel.gurps.rules.damage import divisor_text, parse_damage
from gamekernel.gurps.rules.gcs.features import ActiveFeature, matches, matches_list


def number_matches(criterion: dict[str, Any] | None, value: float) -> bool:
    """GCS numeric criteria ({"compare": "at_least", "qualifier": 2}); a missing one, or "any", matches;
    a comparison without its qualifier compares with 0 (GCS writes no zero: "at least" alone is DX+0)."""
    if not criterion or criterion.get("compare", "any") == "any":
        return True
    want = float(criterion.get("qualifier") or 0)
    return {"is": value == want, "is_not": value != want, "at_least": value >= want,
            "at_most": value <= want}.get(str(criterion.get("compare")), True)


def own_features(item: dict[str, Any]) -> list[dict[str, Any]]:
    """The owner's own feature rows, its enabled modifiers' too (what `this_weapon` means)."""
    own = [f for f in item.get("features") or [] if isinstance(f, dict)]
    for modifier in item.get("modifiers") or []:
        if isinstance(modifier, dict) and not modifier.get("disabled"):
            own.extend(f for f in modifier.get("features") or [] if isinstance(f, dict))
    return own


def _required_skill(feature: dict[str, Any], attack: tuple[str, str] | None,
                    skills: dict[tuple[str, str], int]) -> bool:
    """The skill the weapon attacks with (its best skill default) is named as the feature asks, and
    its relative level (the best of its specializations on the sheet) is the one the feature asks."""
    if attack is None:
        return False
    name, specialization = attack
    levels = [relative for (skill, spec), relative in skills.items() if skill.casefold() == name.casefold()
              and (not specialization or spec.casefold() == specialization.casefold())]
    return (bool(levels) and matches(feature.get("name"), name)
            and matches(feature.get("specialization"), specialization)
            and number_matches(feature.get("level"), max(levels)))


def _applies(feature: dict[str, Any], own: bool, item: dict[str, Any], row: dict[str, Any], label: str,
             skills: dict[tuple[str, str], int], attack: tuple[str, str] | None) -> bool:
    usage = str(row.get("usage", ""))
    selection = feature.get("selection_type")
    if selection == "this_weapon":
        return own and matches(feature.get("specialization"), usage)
    if selection == "weapons_with_name":
        return (matches(feature.get("name"), label) and matches(feature.get("specialization"), usage)
                and matches_list(feature.get("tags"), item.get("tags") or []))
    if selection == "weapons_with_required_skill":
        return (_required_skill(feature, attack, skills) and matches(feature.get("usage"), usage)
                and matches_list(feature.get("tags"), item.get("tags") or []))
    return False


def damage_bonus(features: Iterable[ActiveFeature], skill_features: Iterable[dict[str, Any]],
                 skills: dict[tuple[str, str], int], item: dict[str, Any], row: dict[str, Any],
                 label: str, attack: tuple[str, str] | None = None, *, kind: str = "weapon_bonus") -> tuple[int, int]:
    """(flat adds, adds per die) of every `weapon_bonus` (or other `kind` of weapon feature) aimed at
    this weapon usage, each feature once; `attack` is the (skill, specialization) it attacks with."""
    own = own_features(item)
    flat = per_die = 0.0
    seen: set[int] = set()
    for feature, amount in _candidates(features, skill_features, own):
        if feature.get("type") != kind or id(feature) in seen:
            continue
        seen.add(id(feature))
        if not _applies(feature, any(feature is f for f in own), item, row, label, skills, attack):
            continue
        if feature.get("per_die"):
            per_die += amount
        else:
            flat += amount
    return int(flat), int(per_die)


def _candidates(features: Iterable[ActiveFeature], skill_features: Iterable[dict[str, Any]],
                own: list[dict[str, Any]]) -> list[tuple[dict[str, Any], float]]:
    """(feature row, amount) of the sheet's active features, the skills' and the owner's own."""
    candidates = [(f.row, f.amount) for f in features]
    candidates += [(f, float(f.get("amount", 0) or 0)) for f in skill_features]
    candidates += [(f, float(f.get("amount", 0) or 0)) for f in own]
    return candidates


def divisor_bonus(features: Iterable[ActiveFeature], skill_features: Iterable[dict[str, Any]],
                  skills: dict[tuple[str, str], int], item: dict[str, Any], row: dict[str, Any],
                  label: str, attack: tuple[str, str] | None = None) -> Fraction:
    """The `weapon_dr_divisor_bonus` features aimed at this weapon usage (a trait's "Armor Divisor (2)"
    modifier adds 1 to the divisor), each feature once, selected as `damage_bonus` selects."""
    own = own_features(item)
    total, seen = Fraction(0), set()
    for feature, amount in _candidates(features, skill_features, own):
        if feature.get("type") != "weapon_dr_divisor_bonus" or id(feature) in seen:
            continue
        seen.add(id(feature))
        if _applies(feature, any(feature is f for f in own), item, row, label, skills, attack):
            total += Fraction(str(amount))
    return total


def effective_st_bonus(features: Iterable[ActiveFeature], skill_features: Iterable[dict[str, Any]],
                       skills: dict[tuple[str, str], int], item: dict[str, Any], row: dict[str, Any],
                       label: str, attack: tuple[str, str] | None) -> int:
    """ST added for this usage's thr/sw (`weapon_effective_st_bonus`: Striking ST with One Attack Only
    gives its levels to the Bite alone); GCS counts a per-die one once."""
    flat, per_die = damage_bonus(features, skill_features, skills, item, row, label, attack,
                                 kind="weapon_effective_st_bonus")
    return flat + per_die


def _dice_adds(text: str) -> tuple[int, int] | None:
    """"" -> (0, 0), "+3" -> (0, 3), "2d+1" -> (2, 1), "1d-1+2" -> (1, 1); None for any other form."""
    text = text.replace(" ", "")
    match = re.fullmatch(r"(?:(\d+)d)?([+-]?\d+(?:[+-]\d+)*)?", text)
    if not match:
        return None
    adds = sum(int(part) for part in re.findall(r"[+-]?\d+", match.group(2) or ""))
    return int(match.group(1) or 0), adds


def damage_text(row: dict[str, Any], flat: int, divisor_bonus: Fraction = Fraction(0),
                levels: int = 0) -> tuple[str, bool]:
    """{"type": "cut", "st": "sw", "base": "1"} -> ("sw+1 cut", True); {"base": "2d+1", "type": "pi"}
    -> ("2d+1 pi", True), `flat` adds and the armor divisor (the row's plus `divisor_bonus`) included,
    and `base_leveled` once per level of the owner
    (`levels`: a Grave Curse of level 2 with "1" adds 2); any other form is the file's own result
    (its bonuses already in it: False)."""
    dmg = row.get("damage") or {}
    kind = str(dmg.get("type", "") or "").strip() or "none"  # no type in the file: none shown, x1
    st = str(dmg.get("st", "") or "")
    base = _dice_adds(str(dmg.get("base", "") or ""))
    leveled = _dice_adds(str(dmg.get("base_leveled", "") or "")) if levels > 0 else (0, 0)
    divisor = _divisor_of(dmg, divisor_bonus)
    if base is not None and leveled is not None:
        dice, adds = base[0] + levels * leveled[0], base[1] + levels * leveled[1] + flat
        if st in ("thr", "sw") and not dice:
            return (f"{st}{adds:+d}{divisor} {kind}" if adds else f"{st}{divisor} {kind}"), True
        if not st and dice:
            return f"{dice}d{adds:+d}{divisor} {kind}" if adds else f"{dice}d{divisor} {kind}", True
        if not st and adds > 0:  # flat damage ("2": an Innate Attack of fixed injury)
            return f"{adds}{divisor} {kind}", True
    shown = _rollable(str((row.get("calc") or {}).get("damage", "")))
    return (f"{shown} none" if shown and kind == "none" else shown), False


def _divisor_of(dmg: dict[str, Any], bonus: Fraction) -> str:
    """The row's `armor_divisor` (none is 1) plus the features' `bonus`, as GCS writes it after the
    dice: 2 -> "(2)", 0.5 -> "(0.5)"; 1 -> ""."""
    try:
        divisor = Fraction(str(dmg.get("armor_divisor", 1) or 1)) + bonus
    except (ValueError, ZeroDivisionError):
        return ""
    return divisor_text(divisor) if divisor > 0 else ""


def damage_or_effect(text: str, row: dict[str, Any]) -> tuple[str, str]:
    """(damage, effect): the damage when it is dice the table can roll, else ("", the file's own text):
    an affliction "R-HT-2 or KO", "Special", "see B405", a grapple's "2d-1 ctrl" are shown as GCS
    writes them and never turned into invented dice (GURPS-DMG-03 rolls dice + adds of one type)."""
    try:
        parse_damage(text, st=10)
        return text, ""
    except UsageError:
        written = (row.get("calc") or {}).get("damage") or (row.get("damage") or {}).get("type") or text
        return "", str(written).strip() or "—"


def follow_up_of(row: dict[str, Any]) -> str:
    """The row's bracketed second damage as GCS writes it, "[1d burn]" (its `fragmentation` and
    `fragmentation_type`, or the bracket of its `calc.damage`); "" for none. Files use it for
    fragments and for follow-ups alike, which the Basic Set rolls differently: shown, not rolled."""
    dmg = row.get("damage") or {}
    if dmg.get("fragmentation"):
        kind = str(dmg.get("fragmentation_type", "") or "cut")
        return f"[{str(dmg['fragmentation']).strip()} {kind}]"
    found = re.search(r"\[[^\]]*\]", str((row.get("calc") or {}).get("damage", "")))
    return found.group(0) if found else ""


def _rollable(text: str) -> str:
    """The file's damage text without a follow-up "[1d burn]" (GURPS-DMG-03 rolls dice + adds of one
    type); its armor divisor "(2)" stays."""
    return re.sub(r"\s+", " ", re.sub(r"\[[^\]]*\]", " ", text)).strip()


def per_die_of(row: dict[str, Any]) -> float:
    """The weapon row's own `modifier_per_die` (a Sling's -1 per die, a Maul's 0.75)."""
    try:
        value = float((row.get("damage") or {}).get("modifier_per_die", 0) or 0)
    except (TypeError, ValueError):
        return 0
    return int(value) if value.is_integer() else value
