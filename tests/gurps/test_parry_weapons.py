"""Which weapons parry and with what (GURPS-CMB-46, CMB-49): a usage the file gives no parry cannot
parry (GCS shows none; a bite, a kick, a garrote), the best Parry is the number the fight would offer
(a fencing "F" weapon's encumbrance included [std]), and `parry_options` names each weapon's Parry.
Each document is a small .gcs v5 written for the test."""

from __future__ import annotations

import json
from typing import Any

from gamekernel.gurps.rules.combat import Combatant, parry_options, parse_weapon
from gamekernel.gurps.rules.combat.sheets import combatant_from_character
from gamekernel.gurps.rules.gcs import import_gcs
from gamekernel.magics import current_session


def usage(wid: str, name: str, modifier: int, parry: str | None) -> dict[str, Any]:
    row: dict[str, Any] = {"id": wid, "usage": name, "damage": {"type": "cut", "base": "1d"}, "reach": "C",
                           "defaults": [{"type": "dx", "modifier": modifier}]}
    if parry is not None:
        row["parry"] = parry
    return row


def bugbear() -> dict[str, Any]:
    """DX 12: claws at 16 (parry "0": 11), kick and bite with no parry, a garrote at 18 with none."""
    return {"version": 5, "profile": {"name": "Bugbear"}, "total_points": 100,
            "attributes": [{"attr_id": "dx", "adj": 2}],
            "traits": [{"id": "t1", "name": "Sharp Claws", "weapons": [
                           usage("w1", "Slash", 4, "0"), usage("w2", "Kick", 2, None)]},
                       {"id": "t2", "name": "Teeth", "weapons": [usage("w3", "Bite", 4, "")]}],
            "skills": [],
            "equipment": [{"id": "e1", "description": "Garrote", "quantity": 1, "equipped": True,
                           "weapons": [usage("w4", "", 6, None)]}]}


def test_gurps_cmb_46_a_usage_without_parry_in_the_file_cannot_parry() -> None:
    ch = import_gcs(bugbear()).character
    parries = {w.name: w.parry for w in ch.weapons}
    assert parries == {"Sharp Claws": 0, "Sharp Claws (Kick)": None, "Teeth": None, "Garrote": None}
    c = combatant_from_character(ch)
    assert c.parry == 11 and c.best_parry_weapon().name == "Sharp Claws"  # 16 // 2 + 3, not the garrote's 12
    assert [(o.weapon, o.parry) for o in parry_options(c)] == [("Sharp Claws", 11)]


def test_the_fight_offers_the_files_parry(ip, tmp_path) -> None:
    path = tmp_path / "bugbear.gcs"
    path.write_text(json.dumps(bugbear()), encoding="utf-8")
    ip.run_line_magic("char", f"load {path}")
    ip.run_line_magic("combat", "start Bugbear Orc{ST=12,DX=11,HT=11}")
    assert current_session().combat.state.get("Bugbear").parry == 11


def fencer(encumbrance: int, *extra: str) -> Combatant:
    return Combatant(name="Tiefling", dx=12, encumbrance=encumbrance, weapons=(
        parse_weapon("Rapier:14:thr+1 imp:fencing"), parse_weapon("Axe:13:sw+2 cut"),
        parse_weapon("Bow:14:1d+1 imp:ranged"), *map(parse_weapon, extra)))


def test_gurps_cmb_46_the_best_parry_counts_the_fencing_encumbrance() -> None:
    # Heavy (3): Rapier (14 + 3) // 2 + 3 - 3 = 8, Axe 13 // 2 + 3 = 9; skill/2 + bonus alone picked the Rapier
    heavy = fencer(3)
    assert (heavy.best_parry_weapon().name, heavy.parry) == ("Axe", 9)
    assert [(o.weapon, o.parry, o.notes) for o in parry_options(heavy)] == [
        ("Axe", 9, ()), ("Rapier", 8, ((-3, "fencing weapon, encumbrance"),))]  # the bow cannot parry
    light = fencer(0)  # unencumbered: Rapier 14 // 2 + 3 = 10
    assert (light.best_parry_weapon().name, light.parry) == ("Rapier", 10)
    assert [o.parry for o in parry_options(light)] == [10, 9]


def test_gurps_cmb_49_parry_options_name_the_weapon_class_adjustment_and_keep_sheet_order_on_ties() -> None:
    options = parry_options(fencer(0, "Knife:14:thr imp:dagger", "Staff:14:sw+2 cr:quarterstaff"))
    assert [(o.weapon, o.parry, o.notes) for o in options] == [
        ("Rapier", 10, ()), ("Knife", 10, ((-1, "dagger/knife"),)), ("Staff", 10, ((2, "quarterstaff"),)),
        ("Axe", 9, ())]
