"""GCS `features`: the bonuses traits, modifiers and equipped items grant, and what they apply to.

    active_features(data) -> [ActiveFeature]      # every enabled feature with its multiplied amount
    attribute_bonuses(features) -> {attr: total}  # "st", "st:striking_only", "dodge", "hp", ...
    skill_bonus(features, name, spec, tags) -> (total, labels)
    spell_bonus(features, name, colleges, tags) -> total
    matches(criterion, text) -> bool              # GCS string criteria ("is", "starts_with", ...)
    FeatureIndex(features).candidates(kind, *names) -> [ActiveFeature]  # those that may apply, in order

GCS (GURPS Character Sheet) files say what every trait does in `features`; reading them is what
makes an imported character carry GCS's numbers (Increased Strength raises ST, a Talent raises its
skills, a shield gives its DB as dodge/parry/block bonuses).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ActiveFeature:
    """One enabled feature: its raw JSON row, the amount after `per_level`, and who grants it."""

    row: dict[str, Any]
    amount: float
    source: str


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _levels(row: dict[str, Any]) -> float:
    value = row.get("levels")
    return _number(value) if value not in (None, "") else 1.0


def substitute(value: Any, replacements: dict[str, Any] | None) -> Any:
    """Fill GCS placeholders ("@skill01@" -> "Acting") from a row's `replacements`, in strings, lists
    and dicts (a Talent template names its skills this way)."""
    if not replacements:
        return value
    if isinstance(value, str):
        for key, text in replacements.items():
            value = value.replace(f"@{key}@", str(text))
        return value
    if isinstance(value, list):
        return [substitute(item, replacements) for item in value]
    if isinstance(value, dict):
        return {key: substitute(item, replacements) for key, item in value.items()}
    return value


def _features_of(row: dict[str, Any], levels: float, label: str) -> Iterator[ActiveFeature]:
    replacements = row.get("replacements")
    for feature in row.get("features") or []:
        if not isinstance(feature, dict):
            continue
        feature = substitute(feature, replacements)
        amount = _number(feature.get("amount", 0))
        # GCS names the flag `leveled` on weapon features (Striking ST's One Attack Only: +1 ST per level)
        if feature.get("per_level") or (str(feature.get("type", "")).startswith("weapon_") and feature.get("leveled")):
            amount *= levels
        yield ActiveFeature(feature, amount, label)
    for modifier in _tree(row.get("modifiers") or []):
        if modifier.get("disabled") or not modifier.get("features"):
            continue
        mod_levels = _levels(modifier) if modifier.get("levels") not in (None, "") else levels
        yield from _features_of({"features": modifier["features"],
                                 "replacements": modifier.get("replacements") or replacements}, mod_levels, label)


def _tree(rows: Iterable[Any]) -> Iterator[dict[str, Any]]:
    for row in rows or []:
        if isinstance(row, dict):
            yield row
            yield from _tree(row.get("children") or [])


def _traits(rows: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """Enabled trait rows (a disabled container disables what it holds)."""
    for row in rows or []:
        if not isinstance(row, dict) or row.get("disabled"):
            continue
        yield row
        yield from _traits(row.get("children") or [])


def equipped_items(rows: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """Equipped items (an unequipped container leaves its contents unequipped)."""
    for row in rows or []:
        if not isinstance(row, dict) or row.get("equipped") is False:
            continue
        yield row
        yield from equipped_items(row.get("children") or [])


def active_features(data: dict[str, Any]) -> list[ActiveFeature]:
    """Every feature in force: enabled traits and their enabled modifiers, equipped items, skills."""
    out: list[ActiveFeature] = []
    for row in _traits(data.get("traits") or data.get("advantages") or []):
        out.extend(_features_of(row, _levels(row), substitute(str(row.get("name", "?")), row.get("replacements"))))
    for row in equipped_items(data.get("equipment") or []):
        out.extend(_features_of(row, _levels(row), str(row.get("description", "?"))))
    return out


def plain_name(value: Any) -> str:
    """A name that newer files may give as a criterion ({"compare": "is", "qualifier": "Knife"})."""
    if isinstance(value, dict):
        return str(value.get("qualifier", ""))
    return str(value or "")


def matches(criterion: dict[str, Any] | None, text: str) -> bool:
    """GCS string criteria, case-insensitive; a missing criterion matches everything."""
    if not criterion:
        return True
    compare = str(criterion.get("compare", "any"))
    want = str(criterion.get("qualifier", "")).casefold()
    have = text.casefold()
    tests = {
        "any": True, "is": have == want, "is_not": have != want,
        "contains": want in have, "does_not_contain": want not in have,
        "starts_with": have.startswith(want), "does_not_start_with": not have.startswith(want),
        "ends_with": have.endswith(want), "does_not_end_with": not have.endswith(want),
    }
    return tests.get(compare, False)


def matches_list(criterion: dict[str, Any] | None, values: Iterable[str]) -> bool:
    """A criterion against a list (tags, colleges): positive tests need one match, negative all."""
    if not criterion or criterion.get("compare", "any") == "any":
        return True
    values = list(values)
    if str(criterion.get("compare", "")).startswith(("is_not", "does_not")):
        return all(matches(criterion, value) for value in values)
    return any(matches(criterion, value) for value in values)


# spell bonuses whose `name` criterion is tested against a name (the others ignore it)
_SPELL_NAME_MATCHES = ("college_name", "spell_name", "power_source_name")


class FeatureIndex:
    """The features of each type, those whose `name` criterion is "is" filed under that name: a
    skill, spell or weapon looks up its few candidates instead of testing every feature of the sheet
    (a large sheet has thousands of both, and testing each against each grew with the square)."""

    def __init__(self, features: Iterable[ActiveFeature]):
        self._named: dict[tuple[str, str], list[tuple[int, ActiveFeature]]] = {}
        self._other: dict[str, list[tuple[int, ActiveFeature]]] = {}
        for order, feature in enumerate(features):
            kind = str(feature.row.get("type", ""))
            criterion = feature.row.get("name")
            spell = kind.startswith("spell")
            if (isinstance(criterion, dict) and criterion.get("compare", "any") == "is"
                    and (not spell or feature.row.get("match", "all_colleges") in _SPELL_NAME_MATCHES)):
                key = (kind, str(criterion.get("qualifier", "")).casefold())
                self._named.setdefault(key, []).append((order, feature))
            else:
                self._other.setdefault(kind, []).append((order, feature))

    def candidates(self, kind: str, *names: str) -> list[ActiveFeature]:
        """The features of `kind` that may apply to something called by one of `names` (a spell: its
        name, colleges and power source), in their original order, so that totals add up the same;
        skill_bonus and spell_bonus still test each candidate in full."""
        found = dict(self._other.get(kind, ()))
        for name in names:
            found.update(self._named.get((kind, name.casefold()), ()))
        return [found[order] for order in sorted(found)]


def attribute_bonuses(features: Iterable[ActiveFeature]) -> dict[str, float]:
    """Totals of `attribute_bonus` by attribute; limited ST bonuses as "st:striking_only" etc."""
    totals: dict[str, float] = {}
    for feature in features:
        if feature.row.get("type") != "attribute_bonus":
            continue
        key = str(feature.row.get("attribute", ""))
        limitation = feature.row.get("limitation")
        if limitation and limitation != "none":
            key = f"{key}:{limitation}"
        totals[key] = totals.get(key, 0) + feature.amount
    return totals


def skill_bonus(features: Iterable[ActiveFeature], name: str, specialization: str,
                tags: Iterable[str], *, kind: str = "skill_bonus") -> tuple[int, tuple[str, ...]]:
    """Total `skill_bonus` (or `skill_point_bonus`) for a skill, and the names of who grants it."""
    total, labels = 0.0, []
    tags = list(tags)
    for feature in features:
        row = feature.row
        if row.get("type") != kind or row.get("selection_type", "skills_with_name") != "skills_with_name":
            continue
        if (matches(row.get("name"), name) and matches(row.get("specialization"), specialization)
                and matches_list(row.get("tags"), tags)):
            total += feature.amount
            labels.append(feature.source)
    return int(total), tuple(labels)


def spell_bonus(features: Iterable[ActiveFeature], name: str, colleges: Iterable[str],
                tags: Iterable[str], *, kind: str = "spell_bonus", power_source: str = "") -> int:
    """Total `spell_bonus` (Magery and the like) for a spell of these colleges."""
    total = 0.0
    colleges, tags = list(colleges), list(tags)
    for feature in features:
        row = feature.row
        if row.get("type") != kind or not matches_list(row.get("tags"), tags):
            continue
        match = str(row.get("match", "all_colleges"))
        if match == "all_colleges":
            hit = True
        elif match == "college_name":
            hit = matches_list(row.get("name"), colleges)
        elif match == "spell_name":
            hit = matches(row.get("name"), name)
        elif match == "power_source_name":
            hit = matches(row.get("name"), power_source)
        else:
            hit = False
        if hit:
            total += feature.amount
    return int(total)


def reaction_lines(features: Iterable[ActiveFeature]) -> tuple[tuple[int, str], ...]:
    """Reaction bonuses and conditional modifiers as (amount, situation) for the sheet."""
    out = []
    for feature in features:
        if feature.row.get("type") in ("reaction_bonus", "conditional_modifier"):
            situation = str(feature.row.get("situation", "") or feature.source)
            out.append((int(feature.amount), situation))
    return tuple(out)
