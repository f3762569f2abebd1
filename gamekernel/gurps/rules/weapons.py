"""Weapons on a character sheet: name, the skill it is used with, damage, reach, parry and the flags
the combat rules read (GURPS-CMB-14, 30..32, 45..49).

    CharacterWeapon(name, damage, skill="", modifier=0, level=None, reach="", parry=0, flags=(), usage="")
    parse_character_weapon("Broadsword:14:sw+1 cut")          # a fixed level
    parse_character_weapon("Shortsword:Broadsword-2:sw cut")  # a skill (or attribute) and a modifier
    parse_character_weapon("Broadsword::sw+1 cut:reach=1")    # the skill named like the weapon
    parse_character_weapon("Greatsword::sw+3 cut:st=14")      # minimum ST 14: -1 per point short

The level follows the sheet (`Character.weapon_level`), so buying the skill up raises the weapon too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from difflib import get_close_matches
from typing import Any, Protocol, TypeVar

from gamekernel.errors import DataError, NotFoundError, UsageError
from gamekernel.gurps.rules.damage import parse_damage
from gamekernel.i18n import t
from gamekernel.text import match_key


class _Named(Protocol):
    @property
    def name(self) -> str: ...


W = TypeVar("W", bound=_Named)  # a sheet's CharacterWeapon or a fighter's Weapon

# Flags the combat Weapon understands (gurps/rules/combat/fighters.parse_weapon), kept as written.
COMBAT_FLAGS = ("ranged", "thrown", "missile", "firearm", "beam", "flail", "dagger", "quarterstaff", "bare_hands",
                "noparry", "no_roll", "fencing")
VALUED_FLAGS = ("acc", "kg")


@dataclass(frozen=True)
class CharacterWeapon:
    """One weapon (or attack mode) on the sheet."""

    name: str
    damage: str
    skill: str = ""  # skill or attribute used; "" = the skill named like the weapon
    modifier: int = 0  # to that skill (defaults such as Shortsword-2)
    level: int | None = None  # a fixed level instead of the sheet's
    reach: str = ""
    parry: int | None = 0  # parry bonus; None = cannot parry ("No")
    flags: tuple[str, ...] = ()
    usage: str = ""
    min_st: int = 0  # the weapon's minimum ST: -1 to skill per point the wielder is short (GURPS-CMB-33)
    effect: str = ""  # a GCS file's damage that is not rolled dice ("R-HT-2 or KO", "see B405"): shown, not rolled
    follow_up: str = ""  # a GCS file's bracketed second damage ("[1d burn]"): shown after the damage, not rolled
    per_die: float = 0  # damage adds per die (GCS `modifier_per_die`, Brawling +1/die); x dice, then whole
    rated_st: int = 0  # the weapon's own ST its thr/sw is read at instead of the wielder's (a bow's pull)
    st_bonus: int = 0  # to the ST its thr/sw is read at (GCS `weapon_effective_st_bonus`: One Attack Only)
    max_st: int = 0  # the most ST its thr/sw is read at (3 x the minimum ST, as GCS applies it) [std]

    @property
    def skill_name(self) -> str:
        return self.skill or self.name

    @property
    def ranged(self) -> bool:
        return any(f in ("ranged", "thrown", "missile", "firearm", "beam") for f in self.flags)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "damage": self.damage}
        for key in ("skill", "modifier", "level", "reach", "usage", "min_st", "per_die", "effect", "follow_up",
                    "rated_st", "st_bonus", "max_st"):
            value = getattr(self, key)
            if value not in ("", 0, None):
                data[key] = value
        data["parry"] = "No" if self.parry is None else self.parry
        if self.flags:
            data["flags"] = list(self.flags)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, where: str = "weapon") -> CharacterWeapon:
        try:
            parry = data.get("parry", 0)
            weapon = cls(
                name=str(data["name"]), damage=str(data["damage"]), skill=str(data.get("skill", "")),
                modifier=int(data.get("modifier", 0)),
                level=None if data.get("level") is None else int(data["level"]),
                reach=str(data.get("reach", "")), parry=None if str(parry).lower() == "no" else int(parry),
                flags=tuple(str(f) for f in data.get("flags", ())), usage=str(data.get("usage", "")),
                per_die=_number(data.get("per_die", 0)), min_st=int(data.get("min_st", 0)),
                effect=str(data.get("effect", "")), follow_up=str(data.get("follow_up", "")),
                rated_st=int(data.get("rated_st", 0)), st_bonus=int(data.get("st_bonus", 0)),
                max_st=int(data.get("max_st", 0)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DataError(t("gurps.err.weapon.entry", where=where, error=error)) from error
        validate_weapon(weapon, where=where)
        return weapon


def _number(value: Any) -> float:
    """A saved number as it was written: 2 stays 2, 0.75 stays 0.75 (a Maul's adds per die)."""
    number = float(value)
    return int(number) if number.is_integer() else number


def validate_weapon(weapon: CharacterWeapon, *, where: str = "weapon") -> None:
    """Damage must parse (thr/sw with any ST) unless the weapon only has an `effect` text, and every
    flag must be one the combat rules know."""
    if not weapon.name.strip():
        raise UsageError(t("gurps.err.weapon.name", where=where))
    if not (weapon.effect and not weapon.damage):
        parse_damage(weapon.damage, st=10)
    for flag in weapon.flags:
        key, _, value = flag.partition("=")
        if key in VALUED_FLAGS:
            try:
                float(value)
            except ValueError:
                raise UsageError(t("gurps.err.weapon.number", where=where, key=key, value=value)) from None
        elif key not in COMBAT_FLAGS or value:
            known = ", ".join([*COMBAT_FLAGS, "acc=N", "kg=N", "reach=R", "parry=N|no"])
            raise UsageError(t("gurps.err.weapon.flag", where=where, flag=flag, known=known))


_SKILL = re.compile(r"^(?P<name>.*?)\s*(?P<mod>[+-]\s*\d+)?$")


def parse_character_weapon(text: str) -> CharacterWeapon:
    """"Name:level-or-skill:damage[:flag...]" (see the module docstring); flags as in %combat arm,
    plus reach=R, parry=N|no and st=N (the weapon's minimum ST, GURPS-CMB-33)."""
    parts = [p.strip() for p in text.replace("−", "-").split(":")]
    if len(parts) < 3 or not parts[0] or not parts[2]:
        raise UsageError(t("gurps.err.weapon.format", text=text))
    name, skill_text, damage, *flag_words = parts
    weapon = CharacterWeapon(name=name, damage=damage)
    if re.fullmatch(r"\d+", skill_text):
        weapon = replace(weapon, level=int(skill_text))
    elif skill_text:
        match = _SKILL.match(skill_text)
        if match is None:  # a line break inside the skill: no skill name can hold one
            raise UsageError(t("gurps.err.weapon.format", text=text))
        skill = match.group("name").strip()
        mod = int(match.group("mod").replace(" ", "")) if match.group("mod") else 0
        weapon = replace(weapon, skill="" if skill.casefold() == name.casefold() else skill, modifier=mod)
    flags = []
    for word in flag_words:
        key, eq, value = word.partition("=")
        if key == "reach" and eq:
            weapon = replace(weapon, reach=value)
        elif key == "parry" and eq:
            if value.lower() == "no":
                weapon = replace(weapon, parry=None)
            else:
                try:
                    weapon = replace(weapon, parry=int(value))
                except ValueError:
                    raise UsageError(t("gurps.err.weapon.parry", text=text, value=value)) from None
        elif key == "noparry":
            weapon = replace(weapon, parry=None)
        elif key == "st" and eq:
            try:
                weapon = replace(weapon, min_st=int(value))
            except ValueError:
                raise UsageError(t("gurps.err.weapon.number", where=f"weapon {text!r}", key=key, value=value)) from None
        elif word:
            flags.append(word)
    weapon = replace(weapon, flags=tuple(flags))
    if weapon.ranged:
        weapon = replace(weapon, parry=None)
    validate_weapon(weapon, where=f"weapon {text!r}")
    return weapon


__all__ = ["COMBAT_FLAGS", "CharacterWeapon", "parse_character_weapon", "validate_weapon"]


def weapon_key(name: str) -> str:
    """A weapon name for matching: case, width, spaces and punctuation ignored."""
    return "".join(ch for ch in match_key(name) if ch.isalnum())


def find_weapon(owner: str, weapons: Sequence[W], name: str) -> W:
    """The weapon of `owner` called `name` (a sheet's or a combatant's); NotFoundError with hints."""
    key = weapon_key(name)
    for weapon in weapons:
        if weapon_key(weapon.name) == key:
            return weapon
    names = [weapon.name for weapon in weapons]
    close = get_close_matches(name, names, n=3)
    hint = (t("gurps.err.did_you_mean", names=", ".join(close)) if close
            else t("gurps.err.has", name=owner, things=", ".join(names) or t("gurps.err.none")))
    raise NotFoundError(t("gurps.err.no_weapon", name=owner, weapon=name, hint=hint))
