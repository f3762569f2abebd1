"""Which weapon a fighter parries with: every ready melee weapon that can parry, with its Parry and the
rule adjustments that make it (GURPS-CMB-46, CMB-49). A defense's parry offers (the tracker's picker,
the fight's default Parry) read `parry_options`, so the Parry shown always names its weapon."""

from __future__ import annotations

from dataclasses import dataclass

from gamekernel.gurps.rules.combat.picks import weapon_menu
from gamekernel.gurps.rules.combat.state import Combatant

PARRY_CLASS = {  # the weapon's class adjusts its Parry against an armed attack (GURPS-CMB-49)
    "dagger": (-1, "dagger/knife"),
    "quarterstaff": (2, "quarterstaff"),
    "bare_hands": (-3, "bare hands vs weapon"),
}


@dataclass(frozen=True)
class ParryOption:
    """One weapon a fighter can parry with: its name, the Parry it gives (as `Combatant.parry_with`),
    the adjustments as (value, label): in the number already (fencing encumbrance) or applied at the
    defence roll (the weapon's class, GURPS-CMB-49), and how the weapon menu shows it ("Small Knife
    (Swung)", `picks.weapon_menu`)."""

    weapon: str
    parry: int
    notes: tuple[tuple[int, str], ...] = ()
    label: str = ""


def parry_options(c: Combatant) -> tuple[ParryOption, ...]:
    """Every weapon `c` can parry with, best Parry first (the weapon menu's order among equals: main
    weapons, shields, natural attacks, each in the sheet's order), each near-duplicate once. A weapon
    the file gives no parry ("No", or none at all: a bite, a kick, a lance) is not offered; a ranged
    one neither (GURPS-CMB-46). A fencing ("F") weapon's encumbrance level is in its Parry [std]."""
    out = []
    for pick in weapon_menu(c):
        weapon = c.weapon(pick.name)
        parry = c.parry_with(weapon)
        if parry is None:
            continue
        notes: list[tuple[int, str]] = []
        if weapon.fencing and c.encumbrance:
            notes.append((-c.encumbrance, "fencing weapon, encumbrance"))
        if weapon.parry_weapon in PARRY_CLASS:
            notes.append(PARRY_CLASS[weapon.parry_weapon])
        out.append(ParryOption(weapon.name, parry, tuple(notes), pick.label))
    return tuple(sorted(out, key=lambda option: -option.parry))
