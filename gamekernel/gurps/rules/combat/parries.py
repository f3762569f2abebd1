"""Which weapon a fighter parries with: every ready melee weapon that can parry, with its Parry and the
rule adjustments that make it (GURPS-CMB-46, CMB-49). The tracker's parry picker and the fight's
default both read `parry_options`, so the Parry shown always names its weapon."""

from __future__ import annotations

from dataclasses import dataclass

from gamekernel.gurps.rules.combat.state import Combatant

PARRY_CLASS = {  # the weapon's class adjusts its Parry against an armed attack (GURPS-CMB-49)
    "dagger": (-1, "dagger/knife"),
    "quarterstaff": (2, "quarterstaff"),
    "bare_hands": (-3, "bare hands vs weapon"),
}


@dataclass(frozen=True)
class ParryOption:
    """One weapon a fighter can parry with: its label, the Parry it gives (as `Combatant.parry_with`),
    and the adjustments as (value, label): in the number already (fencing encumbrance) or applied at the
    defence roll (the weapon's class, GURPS-CMB-49)."""

    weapon: str
    parry: int
    notes: tuple[tuple[int, str], ...] = ()


def parry_options(c: Combatant) -> tuple[ParryOption, ...]:
    """Every weapon `c` can parry with, best Parry first (the sheet's order among equals). A weapon the
    file gives no parry ("No", or none at all: a bite, a kick, a lance) is not offered; a ranged one
    neither (GURPS-CMB-46). A fencing ("F") weapon's encumbrance level is in its Parry [std]."""
    out = []
    for weapon in c.weapons:
        parry = c.parry_with(weapon)
        if parry is None:
            continue
        notes: list[tuple[int, str]] = []
        if weapon.fencing and c.encumbrance:
            notes.append((-c.encumbrance, "fencing weapon, encumbrance"))
        if weapon.parry_weapon in PARRY_CLASS:
            notes.append(PARRY_CLASS[weapon.parry_weapon])
        out.append(ParryOption(weapon.name, parry, tuple(notes)))
    return tuple(sorted(out, key=lambda option: -option.parry))
