"""Block needs a ready shield and a shield's DB (GURPS-CMB-43, CMB-45); a character's load and its
encumbrance level in combat and on skills (GURPS-STD-04, STD-05, CMB-44)."""

from __future__ import annotations

import pytest

from gamekernel.errors import UsageError
from gamekernel.gurps.combat_render import combat_lines
from gamekernel.gurps.rules.characters import Character
from gamekernel.gurps.rules.combat import effective_defenses
from gamekernel.gurps.rules.combat.sheets import combatant_from_character
from gamekernel.gurps.rules.traits import Trait
from gamekernel.table_session import Session


def test_gurps_cmb_45_no_block_without_a_ready_shield():
    """Seed [004:1540-1544]: Block needs a ready shield; the Shield skill's default alone gives none."""
    bren = combatant_from_character(Character("Bren", dx=12))
    assert bren.block is None
    shielded = combatant_from_character(Character("Bren", dx=12, shield_db=2))
    assert shielded.block == (12 - 4) // 2 + 3 and shielded.shield_db == 2  # Shield default DX-4


def test_gurps_cmb_43_db_set_on_the_sheet_adds_to_every_defense_in_a_fight():
    s = Session(seed=1)
    s.gurps.char_new("Bren", dx=12, ht=12)
    s.gurps.char_set("Bren", db=2)  # `%char set db=2`
    assert s.gurps.character("Bren").shield_db == 2
    s.combat.start("Bren Goblin{ST=9,DX=12,HT=11,weapon=Spear:11:thr+2 imp}")
    usual = {kind: usual for kind, (usual, _now, _mods) in effective_defenses(s.combat.state, "Bren").items()}
    bren = s.combat.state.get("Bren")
    assert usual["dodge"] == bren.dodge + 2 and usual["block"] == bren.block + 2
    with pytest.raises(UsageError):
        s.gurps.char_set("Bren", db="big")


def test_gurps_std_04_encumbrance_levels_at_their_boundaries_reach_move_dodge_and_skills():
    """ST 10: Basic Lift 10 kg. 10 kg = None, 10.5 kg = Light, 20 = Light, 20.5 = Medium, 100 = X-Heavy."""
    levels = {kg: Character("A", carried_kg=kg).encumbrance for kg in (10, 10.5, 20, 20.5, 30, 60, 100, 100.5)}
    assert levels == {10: 0, 10.5: 1, 20: 1, 20.5: 2, 30: 2, 60: 3, 100: 4, 100.5: 5}
    light = combatant_from_character(Character("A", carried_kg=15))  # Light: Move x0.8, Dodge -1
    free = combatant_from_character(Character("A"))
    assert (free.move, light.move) == (5, 4) and light.dodge == free.dodge - 1
    heavy = Character("A", carried_kg=60)  # Heavy (3): Climbing -3, Swimming -6 (GURPS-STD-05)
    assert heavy.skill_level("Climbing").level == Character("A").skill_level("Climbing").level - 3
    assert heavy.skill_level("Swimming").level == Character("A").skill_level("Swimming").level - 6
    assert heavy.skill_level("Stealth").level == Character("A").skill_level("Stealth").level


def test_gurps_cmb_44_std_05_the_sheet_dodge_and_move_carry_the_load_as_combat_does():
    """GURPS-CMB-44 (Dodge - encumbrance level) and GURPS-STD-05 (Move x 1, 0.8, 0.6, 0.4, 0.2, at
    least 1) on the sheet (`%char`), equal to combat's at every level; past X-Heavy counts as X-Heavy.
    Combat Reflexes (+1) stays on top of the load."""
    expected = {0: (8, 5), 15: (7, 4), 30: (6, 3), 60: (5, 2), 100: (4, 1), 100.5: (4, 1)}
    for kg, (dodge, move) in expected.items():
        sheet = Character("A", carried_kg=kg)
        fighter = combatant_from_character(sheet)
        assert (sheet.dodge, sheet.move, sheet.basic_move) == (dodge, move, 5)
        assert (fighter.dodge, fighter.move) == (dodge, move)
    light = Character("A", carried_kg=15, traits=(Trait("combat_reflexes", "Combat Reflexes", 15),))
    assert light.dodge == 8 == combatant_from_character(light).dodge
    check = light.resolve("Dodge")  # a Dodge roll off the sheet shows the load as a modifier
    assert check.base == 8 and [(m.value, m.label) for m in check.modifiers] == [(1, "Combat Reflexes"),
                                                                                  (-1, "encumbrance")]
    assert "Move 4 Dodge 8" in str(light) and "Move 5 Dodge 9" in str(Character("A", traits=light.traits))


def test_gurps_cmb_02_03_a_fighter_added_mid_fight_joins_the_order_and_the_current_turn_stays():
    """Seed [004:1360-1361]: order by Basic Speed; same-side NPCs tied on it in the GM's order (a newcomer,
    added last, after them), higher DX first once a PC is among them; `%combat add` during a fight joins it."""
    s = Session(seed=4)
    s.combat.npc("Slow", "ST=10 DX=10 HT=10")
    s.combat.start("Fast{DX=14,HT=14} Slow")
    s.combat.next()
    assert s.combat.state.current.name == "Slow"
    result = s.combat.add("Mid", "DX=12 HT=12")  # speed 6: between Fast (7) and Slow (5)
    names = [c.name for c in s.combat.state.combatants]
    assert names == ["Fast", "Mid", "Slow"] and s.combat.state.current.name == "Slow"
    assert "joins the fight" in "\n".join(combat_lines(result))
    s.combat.add("Tie", "DX=12 HT=12")  # same speed and DX: after those already there
    s.combat.add("Quick", "DX=13 HT=11")  # GURPS-CMB-03: speed 6, a same-side NPC: the GM's order, after them
    assert [c.name for c in s.combat.state.combatants] == ["Fast", "Mid", "Tie", "Quick", "Slow"]
    s.combat.add("Hero", "DX=13 HT=11 pc=1")  # GURPS-CMB-03: a PC among them: DX 13 goes before DX 12
    assert [c.name for c in s.combat.state.combatants] == ["Fast", "Hero", "Mid", "Tie", "Quick", "Slow"]
    assert s.combat.state.current.name == "Slow" and s.combat.state.get("Tie").maneuver == "do_nothing"
    s.combat.next()
    assert s.combat.state.current.name == "Fast"
    s.combat.next()
    assert s.combat.state.current.name == "Hero"
    with pytest.raises(UsageError):
        s.combat.add("mid", "DX=12")
