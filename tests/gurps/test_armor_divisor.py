"""Armor divisors: parsed from the damage ("1d+2(2) pi"), kept on the weapon, shown as GCS writes them
and applied where the damage meets DR — one function (`armor_dr`) for `%damage`, `%attack` and the
tracker. Not a rule of the seed (its DR is GURPS-DMG-05); the Basic Set's, carried as a GCS file does.
Damage multipliers ("3dx5 cr") likewise: the dice + adds, times the multiplier.

Each GCS document here is a small .gcs v5 written for the test (never a file of a public library)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from gamekernel.errors import UsageError
from gamekernel.gurps.gcs_play import play_comparisons
from gamekernel.gurps.render import damage_text, weapon_rows
from gamekernel.gurps.rules.combat import Tape, attack, damage, parse_weapon, quick_combatant, start_combat
from gamekernel.gurps.rules.combat.sheets import combatant_from_character
from gamekernel.gurps.rules.damage import DamageRoll, armor_dr, parse_damage, roll_damage
from gamekernel.gurps.rules.gcs import import_gcs
from gamekernel.table_session import Session


@pytest.mark.parametrize(("text", "shown", "divisor"), [
    ("1d+2(2) pi", "1d+2(2) pi", Fraction(2)), ("3d(0.5) cr", "3d(0.5) cr", Fraction(1, 2)),
    ("4(100) cr", "4(100) cr", Fraction(100)), ("1d+2 (5) burn", "1d+2(5) burn", Fraction(5)),
    ("2d cut", "2d cut", Fraction(1)),
])
def test_a_divisor_is_parsed_and_shown_as_gcs_writes_it(text: str, shown: str, divisor: Fraction):
    spec = parse_damage(text)
    assert str(spec) == shown and spec.divisor == divisor


def test_thr_and_sw_keep_their_divisor():
    spec = parse_damage("sw+1(2) cut", st=10)
    assert str(spec) == "1d+1(2) cut" and spec.source == "sw"


@pytest.mark.parametrize("text", ["1d(0) cr", "2d(0.0) pi"])
def test_a_zero_divisor_is_refused_in_one_line_naming_it(text: str):
    with pytest.raises(UsageError) as refused:
        parse_damage(text)
    assert "\n" not in str(refused.value) and text in str(refused.value) and "above 0" in str(refused.value)


@pytest.mark.parametrize(("dr", "divisor", "met"), [
    (6, Fraction(2), 3), (7, Fraction(2), 3),  # exactly divisible and not: rounded down
    (5, Fraction(3), 1), (2, Fraction(3), 0), (0, Fraction(2), 0), (1, Fraction(100), 0),
    (3, Fraction(1, 2), 6), (0, Fraction(1, 2), 0), (4, Fraction(1), 4),
])
def test_armor_dr_divides_rounds_down_never_below_0_and_a_fraction_multiplies(dr: int, divisor: Fraction, met: int):
    assert armor_dr(dr, divisor) == met


def test_the_roll_meets_the_divided_dr_dmg_05():
    # GURPS-DMG-05: penetrating = basic - DR; with (2) the DR met is 7 // 2 = 3, so 7 - 3 = 4 pi
    roll = roll_damage("1d+2(2) pi", dr=7, dice=[5])
    assert (roll.basic, roll.armor_dr, roll.penetrating, roll.injury) == (7, 3, 4, 4)
    assert roll_damage("1d+2 pi", dr=7, dice=[5]).penetrating == 0  # without it: stopped
    assert roll_damage("3d(0.5) cr", dr=3, dice=[2, 2, 2]).penetrating == 0  # DR 3 doubled to 6 stops 6
    text = damage_text(roll)
    assert "1d+2(2) pi" in text and "DR 7 against armor divisor (2) = 3 → 4 penetrating" in text


@pytest.mark.parametrize(("text", "shown"), [("4(100) cr", "4(100) cr rolled at the table"),
                                             ("7 cut", "7 cut rolled at the table")])
def test_flat_damage_is_named_with_its_divisor_dmg_05(text: str, shown: str):
    # GURPS-DMG-05 against DR 0: nothing is divided, so only the damage itself can say the (100) a GCS
    # Telekinetic Crush carries; it once read "4 cr rolled at the table"
    assert damage_text(roll_damage(text, dr=0, dice=[])).startswith(shown + " · DR 0 → ")


def test_a_replayed_roll_keeps_its_divisor():
    roll = roll_damage("2d(3) burn", dr=9, dice=[4, 4])
    again = DamageRoll.from_dict(roll.to_dict())
    assert again.spec.divisor == 3 and again.penetrating == roll.penetrating == 8 - 3


def test_percent_damage_applies_the_divisor():
    session = Session(seed=1)
    result = session.gurps.damage("1d+2(2) pi", dr=6)
    assert result.armor_dr == 3 and result.penetrating == max(0, result.basic - 3)


def test_a_fight_hit_and_the_trackers_damage_meet_the_divided_dr_dmg_05():
    # GURPS-DMG-05 through the fight: DR 5 against (2) is 2 for %attack and %combat damage alike
    archer = quick_combatant("Archer", {"dx": 12, "weapon": "Bow:13:1d+2(2) pi:ranged:acc=2"})
    knight = quick_combatant("Knight", {"dx": 8, "ht": 10, "dr": 5})
    assert parse_weapon("Bow:13:1d+2(2) pi:ranged").damage == "1d+2(2) pi"
    state = start_combat([archer, knight], Tape(faces=[]))
    state, report = attack(state, "Archer", "Knight", "Bow", Tape(faces=[1, 1, 1, 4, 6, 6, 6]))  # a critical hit
    assert report.damage is not None and report.damage.damage.armor_dr == 2
    assert report.damage.damage.penetrating == 4 + 2 - 2
    after, direct = damage(start_combat([archer, knight], Tape(faces=[])), "Knight", "1d+2(2) pi",
                           Tape(faces=[4, 6, 6, 6]))
    assert direct.damage.penetrating == 4 and after.get("Knight").hp == knight.hp_max - 4


def gcs(*items: dict[str, Any], traits: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    return {"version": 5, "profile": {"name": "Probe"}, "total_points": 100,
            "attributes": [{"attr_id": "st", "adj": 0}, {"attr_id": "dx", "adj": 2}],
            "traits": list(traits), "skills": [], "equipment": list(items)}


def test_a_gcs_weapons_divisor_is_kept_shown_and_rolled():
    beam = {"id": "e1", "description": "Disruptor", "equipped": True, "weapons": [{
        "id": "W1", "damage": {"type": "burn", "base": "3d", "armor_divisor": 5}, "accuracy": "3",
        "defaults": [{"type": "dx"}], "calc": {"level": 12, "damage": "3d(5) burn"}}]}
    bow = {"id": "e2", "description": "Short Bow", "equipped": True, "weapons": [{
        "id": "W2", "damage": {"type": "pi", "st": "thr", "base": "1", "armor_divisor": 0.5}, "accuracy": "1",
        "defaults": [{"type": "dx"}], "calc": {"level": 12, "damage": "1d-1(0.5) pi"}}]}
    data = gcs(beam, bow)
    ch = import_gcs(data).character
    assert {r["name"]: r["damage"] for r in weapon_rows(ch)} == {"Disruptor": "3d(5) burn",
                                                                 "Short Bow": "thr+1(0.5) pi"}
    c = combatant_from_character(ch)
    assert parse_damage(c.weapon("Disruptor").damage, st=c.st).divisor == 5
    assert str(parse_damage(c.weapon("Short Bow").damage, st=c.st)) == "1d-1(0.5) pi"
    damages = [(gcs_, ours) for kind, _, gcs_, ours in play_comparisons(data, ch) if kind == "damage"]
    assert damages and all(gcs_ == ours for gcs_, ours in damages)


def test_a_traits_armor_divisor_modifier_adds_to_the_divisor():
    # GCS's weapon_dr_divisor_bonus on a trait's enabled modifier: divisor 1 + 1 = (2)
    claws = {"id": "t1", "name": "Sharp Claws", "modifiers": [{
        "id": "m1", "name": "Armor Divisor (2)", "features": [{
            "type": "weapon_dr_divisor_bonus", "selection_type": "this_weapon", "amount": 1}]}],
        "weapons": [{"id": "w1", "usage": "Slash", "damage": {"type": "cut", "st": "thr", "base": "-1"},
                     "parry": "0", "defaults": [{"type": "dx"}], "calc": {"level": 12, "damage": "1d-3(2) cut"}}]}
    ch = import_gcs(gcs(traits=(claws,))).character
    assert ch.weapon("Sharp Claws").damage == "thr-1(2) cut"
    disabled = {**claws, "modifiers": [{**claws["modifiers"][0], "disabled": True}]}
    assert import_gcs(gcs(traits=(disabled,))).character.weapon("Sharp Claws").damage == "thr-1 cut"


@pytest.mark.parametrize(("text", "faces", "raw"), [
    ("3dx5 cr", [1, 2, 3], 30), ("3d×5 cr", [6, 6, 6], 90), ("2d+1x3(2) pi", [1, 1], 9), ("1d cr", [4], 4),
])
def test_a_damage_multiplier_multiplies_the_dice_and_adds(text: str, faces: list[int], raw: int):
    # the Basic Set's "3dx5" as a GCS file writes it: the 3d total (GURPS-SR-01 dice + adds) times 5
    roll = roll_damage(text, dice=faces)
    assert roll.raw == raw and DamageRoll.from_dict(roll.to_dict()).raw == raw
    assert str(parse_damage(text)) == text.replace("×", "x")


def test_a_zero_multiplier_is_refused_in_one_line():
    with pytest.raises(UsageError) as refused:
        parse_damage("3dx0 cr")
    assert "\n" not in str(refused.value) and "3dx0 cr" in str(refused.value)


def test_a_gcs_lash_of_3dx5_is_rolled_in_the_fight():
    lash = {"id": "t1", "name": "Lash", "weapons": [{
        "id": "W1", "damage": {"type": "cr", "base": "3dx5"}, "accuracy": "3", "range": "10",
        "defaults": [{"type": "dx"}], "calc": {"level": 12, "damage": "3dx5 cr"}}]}
    c = combatant_from_character(import_gcs(gcs(traits=(lash,))).character)
    assert c.weapon("Lash").damage == "3dx5 cr" and not c.weapon("Lash").effect
    state = start_combat([c, quick_combatant("Dummy", {"dx": 8, "hp": 40})], Tape(faces=[]))
    state, report = attack(state, "Probe", "Dummy", "Lash", Tape(faces=[1, 1, 1, 2, 2, 2, 6, 6, 6]))
    assert report.damage is not None and report.damage.damage.raw == 6 * 5
