"""A GCS weapon's damage as GCS works it out: the row's base and thr/sw, its `modifier_per_die`, and
the `weapon_bonus` features that aim at it (Brawling/Karate +1 per die, Weapon Master, a weapon's own
bonus), so a sheet weapon rolls what the file shows.

    damage_bonus(features, skills, attributes, item, row, name) -> (flat adds, adds per die)
    damage_text(row, flat) -> ("sw+2 cut", True) or ("1d+1 cut", False)   # True: the bonuses are in it

Which features count follows GCS's selections: `this_weapon` (the owner's own features, usage by
`specialization`), `weapons_with_name` (the owner's name, usage, tags) and
`weapons_with_required_skill` (the skill the weapon attacks with, its best skill default, at the
relative level `level` asks). Armor divisors are not part of the seed's damage (GURPS-DMG-03); they
are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

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
                 label: str, attack: tuple[str, str] | None = None) -> tuple[int, int]:
    """(flat adds, adds per die) of every `weapon_bonus` aimed at this weapon usage, each feature once;
    `attack` is the (skill, specialization) the weapon attacks with."""
    own = own_features(item)
    flat = per_die = 0.0
    seen: set[int] = set()
    candidates = [(f.row, f.amount) for f in features]
    candidates += [(f, float(f.get("amount", 0) or 0)) for f in skill_features]
    candidates += [(f, float(f.get("amount", 0) or 0)) for f in own]
    for feature, amount in candidates:
        if feature.get("type") != "weapon_bonus" or id(feature) in seen:
            continue
        seen.add(id(feature))
        if not _applies(feature, any(feature is f for f in own), item, row, label, skills, attack):
            continue
        if feature.get("per_die"):
            per_die += amount
        else:
            flat += amount
    return int(flat), int(per_die)


def damage_text(row: dict[str, Any], flat: int) -> tuple[str, bool]:
    """{"type": "cut", "st": "sw", "base": "1"} -> ("sw+1 cut", True); {"base": "2d+1", "type": "pi"}
    -> ("2d+1 pi", True), `flat` adds included; any other form is the file's own result (its bonuses
    already in it: False)."""
    dmg = row.get("damage") or {}
    kind = str(dmg.get("type", "") or "cr")
    st = str(dmg.get("st", "") or "")
    base = str(dmg.get("base", "") or "").replace(" ", "")
    if st in ("thr", "sw") and (not base or base.lstrip("+-").isdigit()):
        adds = int(base or 0) + flat
        return (f"{st}{adds:+d} {kind}" if adds else f"{st} {kind}"), True
    if not st and re.fullmatch(r"\d+d([+-]\d+)*", base):  # "2d+1"; "1dx5" and the like: the file's result
        dice, _, rest = base.partition("d")
        adds = sum(int(part) for part in rest.replace("-", "+-").split("+") if part.strip()) + flat
        return f"{dice}d{adds:+d} {kind}" if adds else f"{dice}d {kind}", True
    return _rollable(str((row.get("calc") or {}).get("damage", ""))), False


def _rollable(text: str) -> str:
    """The file's damage text without what the seed's damage has no place for: an armor divisor
    "(2)" and a follow-up "[1d burn]" (GURPS-DMG-03 rolls dice + adds of one type)."""
    return re.sub(r"\s+", " ", re.sub(r"\(\s*[\d.]+\s*\)|\[[^\]]*\]", " ", text)).strip()


def per_die_of(row: dict[str, Any]) -> int:
    """The weapon row's own `modifier_per_die` (a Sling's -1 per die...)."""
    try:
        return int(float((row.get("damage") or {}).get("modifier_per_die", 0) or 0))
    except (TypeError, ValueError):
        return 0
