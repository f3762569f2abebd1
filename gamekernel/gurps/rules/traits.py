"""GURPS advantages and disadvantages as data (data/traits.json) and their point costs.

    find_trait(name) -> TraitDef       # id, English or Japanese name ("Bad Temper", "短気", "bad_temper")
    trait_cost(defn, level=1, option="", points=None) -> int     # GURPS-CH-27, ADV-*, DIS-*
    Trait(id, name, level, option, points, cr, note)             # a trait a character has
    make_trait(name, level=1, option="", points=None, note="") -> Trait
    japanese_trait_label("Acute Vision 2") -> ("鋭敏視覚", "2")     # the sheet's name in Japanese
    shown_trait_name("Acute Vision 2") -> "「鋭敏視覚」2" in ja, None in en

Effects that change rolls live in the data (`effects`: roll key, bonus or per_level, auto); the
character applies the automatic ones (`Character.trait_modifiers`). Traits marked self_control
use the self-control roll (GURPS-CH-28, selfcontrol.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import cache
from importlib import resources
from typing import Any

from gamekernel.errors import DataError, NotFoundError, RuleError
from gamekernel.i18n import get_language, t
from gamekernel.text import half_width, match_key


@dataclass(frozen=True)
class TraitDef:
    """One advantage or disadvantage of the data file (the raw JSON row is kept in `data`)."""

    id: str
    name: str
    ja: str
    kind: str  # "advantage" | "disadvantage"
    cost: dict[str, Any]
    rule: str
    ref: str
    effects: tuple[dict[str, Any], ...] = ()
    self_control: bool = False
    data: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def leveled(self) -> bool:
        return "per_level" in self.cost

    @property
    def options(self) -> dict[str, dict[str, Any]]:
        return {o["id"]: o for o in self.cost.get("options", [])}

    def level_range(self) -> tuple[int, int | None]:
        return int(self.cost.get("min_level", 1 if "base" not in self.cost else 0)), self.cost.get("max_level")


@cache
def load_traits() -> dict[str, TraitDef]:
    """All traits keyed by id."""
    path = resources.files("gamekernel.gurps") / "data" / "traits.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise DataError(t("gurps.err.data_read", file="traits.json", error=error)) from error
    out: dict[str, TraitDef] = {}
    for index, row in enumerate(raw.get("traits", [])):
        try:
            out[row["id"]] = TraitDef(
                id=row["id"], name=row["name"], ja=row.get("ja", ""), kind=row["kind"],
                cost=dict(row["cost"]), rule=row.get("rule", ""), ref=row.get("ref", ""),
                effects=tuple(row.get("effects", ())), self_control=bool(row.get("self_control")),
                data=row,
            )
        except (KeyError, TypeError) as error:
            raise DataError(t("gurps.err.data_missing", file="traits.json", list="traits", index=index,
                              error=error)) from error
    return out


def _key(text: str) -> str:
    return match_key(half_width(text).strip().strip("〈〉").replace("*", ""))


@cache
def _index() -> dict[str, str]:
    index: dict[str, str] = {}
    for trait in load_traits().values():
        for alias in (trait.id, trait.id.replace("_", " "), trait.name, trait.ja):
            if alias:
                index[_key(alias)] = trait.id
    # Common spellings and option-named forms ("Phobia (Spiders)" is parsed by make_trait).
    extra = {
        "acute taste/smell": "acute_taste_smell", "acute smell": "acute_taste_smell",
        "oph": "odious_personal_habit", "odious personal habits": "odious_personal_habit",
        "enhanced defenses (dodge)": "enhanced_dodge", "delusions": "delusion", "phobias": "phobia",
        "hpt": "high_pain_threshold", "cr": "combat_reflexes", "artificer": "talent_artificer",
        "outdoorsman": "talent_outdoorsman", "smooth operator": "talent_smooth_operator",
        "reluctant killer": "pacifism_reluctant_killer", "cannot harm innocents": "pacifism_cannot_harm_innocents",
        "resistant to disease (+3)": "resistant_disease", "resistant to poison (+3)": "resistant_poison",
        "jumper": "jumper_world", "handsome": "appearance", "beautiful": "appearance",
    }
    for alias, ident in extra.items():
        index.setdefault(_key(alias), ident)
    return index


def maybe_trait(name: str) -> TraitDef | None:
    ident = _index().get(_key(name))
    return load_traits()[ident] if ident else None


_LEVELLED = re.compile(r"(.+?) ([+-]?\d+)")


def japanese_trait_label(label: str) -> tuple[str, str] | None:
    """(Japanese name, rest) of a sheet label that names a catalog trait, or None.

    The labels are the ones `make_trait`, the GCS import and `Character.feature_points` write:
    "Combat Reflexes", "Acute Vision 2", "Code of Honor (Pirate's)", "High TL +1", "Language: Elvish".
    A level stays a number, a catalog option gets its Japanese name, anything else (a GCS modifier, a
    language's name) stays as the user or their file wrote it; an unknown trait is None (its name is
    the file's own)."""
    defn = maybe_trait(label)
    if defn is not None:
        return (defn.ja, "") if defn.ja else None
    head, colon, named = label.partition(": ")
    if colon and named:
        found = japanese_trait_label(head)
        return (found[0], found[1] + "：" + named) if found else None
    levelled = _LEVELLED.fullmatch(label.strip())
    if levelled:
        found = japanese_trait_label(levelled.group(1))
        return (found[0], found[1] + levelled.group(2)) if found else None
    head, inner = _split_option(label)
    defn = maybe_trait(head) if inner else None
    if defn is None or not defn.ja:
        return None
    return defn.ja, f"（{_option_ja(defn, inner)}）"


def shown_trait_name(label: str) -> str | None:
    """A catalog trait's sheet label as the current language writes it (「鋭敏視覚」2 in Japanese), or
    None (English, or a name the catalog does not know): every surface that names a trait uses this."""
    if get_language() != "ja":
        return None
    found = japanese_trait_label(label)
    return f"「{found[0]}」{found[1]}" if found else None


def _option_ja(defn: TraitDef, text: str) -> str:
    """A catalog option's Japanese name ("Pirate's" -> 海賊の掟), else the text as written."""
    key = _key(text)
    for ident, row in defn.options.items():
        if key in (_key(ident), _key(row["name"])) and row.get("ja"):
            return str(row["ja"])
    return text


def find_trait(name: str) -> TraitDef:
    """The trait called `name` (id, English or Japanese); NotFoundError with close matches."""
    trait = maybe_trait(name)
    if trait is None:
        close = get_close_matches(_key(name), list(_index()), n=3, cutoff=0.6)
        hint = t("gurps.err.did_you_mean", names=", ".join(close)) if close else ""
        raise NotFoundError(t("gurps.err.unknown_trait", name=name, hint=hint))
    return trait


def trait_cost(defn: TraitDef, level: int = 1, option: str = "", points: int | None = None) -> int:
    """Point cost of a trait at `level` / `option` (GURPS-CH-27): fixed, per level x level,
    per option, or (variable ranges such as one-group Intolerance) the given `points`."""
    cost = defn.cost
    if "fixed" in cost:
        return int(cost["fixed"])
    if "per_level" in cost:
        low, high = defn.level_range()
        if level < low or (high is not None and level > high):
            top = "" if high is None else f"-{high}"
            raise RuleError(t("gurps.err.trait_level", trait=defn.name, level=level, low=low, top=top))
        return int(cost.get("base", 0)) * (1 if level >= 0 else 0) + int(cost["per_level"]) * level
    if "options" in cost:
        options = defn.options
        if not option:
            raise RuleError(t("gurps.err.trait_choose", trait=defn.name, options=", ".join(options)))
        if option not in options:
            close = get_close_matches(option, list(options), n=3)
            hint = (t("gurps.err.did_you_mean", names=", ".join(close)) if close
                    else t("gurps.err.choose", choices=", ".join(options)))
            raise NotFoundError(t("gurps.err.trait_option", trait=defn.name, option=option, hint=hint))
        row = options[option]
        if "cost_min" in row and points is not None:
            if not row["cost_min"] <= points <= row["cost_max"]:
                raise RuleError(t("gurps.err.trait_cost", trait=defn.name, option=row["name"], low=row["cost_min"],
                                   high=row["cost_max"]))
            return int(points)
        return int(row["cost"])
    raise DataError(t("gurps.err.trait_no_cost", trait=defn.id))


@dataclass(frozen=True)
class Trait:
    """A trait a character has. `id` is "" for a custom trait (GCS import); `points` is its cost.

    `cr` is the self-control number (12 in the seed, GURPS-CH-28)."""

    id: str
    name: str
    points: int
    level: int = 1
    option: str = ""
    cr: int | None = None
    note: str = ""

    @property
    def definition(self) -> TraitDef | None:
        return load_traits().get(self.id) if self.id else None


    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "name": self.name, "points": self.points}
        if self.level != 1:
            data["level"] = self.level
        if self.option:
            data["option"] = self.option
        if self.cr is not None:
            data["cr"] = self.cr
        if self.note:
            data["note"] = self.note
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Trait:
        return cls(
            id=data.get("id", ""), name=data["name"], points=int(data["points"]),
            level=int(data.get("level", 1)), option=data.get("option", ""), cr=data.get("cr"),
            note=data.get("note", ""),
        )


def _split_option(name: str) -> tuple[str, str]:
    """"Phobia (Spiders)" -> ("Phobia", "Spiders"); "Acute Vision 6" is handled by the caller."""
    text = half_width(name).strip()
    if text.endswith(")") and "(" in text:
        head, _, rest = text.partition("(")
        return head.strip(), rest[:-1].strip()
    return text, ""


def _match_option(defn: TraitDef, text: str) -> str:
    key = _key(text)
    for ident, row in defn.options.items():
        if key in (_key(ident), _key(ident.replace("_", " ")), _key(row["name"]), _key(row.get("ja", ""))):
            return ident
        if key and _key(row["name"]).startswith(key):
            return ident
    return text


def make_trait(
    name: str, level: int = 1, option: str = "", points: int | None = None, note: str = "",
    cr: int | None = None,
) -> Trait:
    """A Trait from a name: "Combat Reflexes", "Acute Vision" with level=6, "Phobia (Spiders)",
    "Bad Sight" with option="correctable", "短気". Costs come from the data (GURPS-CH-27)."""
    defn = maybe_trait(name)
    if defn is None:
        head, inner = _split_option(name)
        defn = maybe_trait(head)
        if defn is not None and inner and not option:
            if defn.options:
                option = _match_option(defn, inner)
            else:
                note = note or inner
    if defn is None:
        find_trait(name)  # raises with suggestions
        raise AssertionError
    if defn.options and option:
        option = _match_option(defn, option)
    cost = trait_cost(defn, level, option, points)
    display = defn.name
    if option:
        display = f"{defn.name} ({defn.options[option]['name']})"
    elif defn.leveled and defn.cost.get("max_level") != 1:
        display = f"{defn.name} {level}"
    return Trait(id=defn.id, name=display, points=cost, level=level, option=option, cr=cr, note=note)
