"""Every weapon and attack a GCS file lists reaches the sheet and the fight: a damage that is no dice
(an affliction, "Special", a grapple's control) is shown as the file writes it and a hit names it;
an attack the file gives no skill keeps its damage and says it has no attack roll.

Each document here is a small .gcs v5 written for the test (never a file of a public library)."""

from __future__ import annotations

from typing import Any

import pytest

from gamekernel.errors import RuleError
from gamekernel.gurps.combat_render import item_text, report_items
from gamekernel.gurps.gcs_play import play_comparisons
from gamekernel.gurps.render import character_html, weapon_rows
from gamekernel.gurps.rules.combat import Tape, attack, defend, quick_combatant, start_combat
from gamekernel.gurps.rules.combat.sheets import combatant_from_character
from gamekernel.gurps.rules.gcs import import_gcs


def report_lines(kind: str, report: object) -> list[str]:
    """The working of one combat step as text lines, as the HTML shows its items."""
    return [item_text(item) for item in report_items(kind, report)]


def doc(*items: dict[str, Any], traits: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    """A GCS v5 character with DX 12, Beam Weapons (Pistol) at 13 and the given equipped `items`."""
    return {
        "version": 5, "profile": {"name": "Probe"}, "total_points": 100,
        "attributes": [{"attr_id": "st", "adj": 0}, {"attr_id": "dx", "adj": 2}],
        "traits": list(traits), "equipment": list(items),
        "skills": [{"id": "s1", "name": "Beam Weapons", "specialization": "Pistol", "difficulty": "dx/e",
                    "points": 2, "calc": {"level": 13}}],
    }


def phaser(level: int = 13) -> dict[str, Any]:
    """A pistol whose first mode is an affliction (no dice) and whose second rolls 2d burn."""
    modes = [({"type": "R-HT-2 or KO"}, "Stun", "R-HT-2 or KO"), ({"type": "burn", "base": "2d"}, "Kill", "2d burn")]
    return {"id": "e1", "description": "Phaser", "equipped": True, "weapons": [{
        "id": f"W{n}", "damage": damage, "usage": usage, "accuracy": "5",
        "defaults": [{"type": "skill", "name": "Beam Weapons", "specialization": "Pistol"},
                     {"type": "dx", "modifier": -4}],
        "calc": {"level": level, "damage": shown}} for n, (damage, usage, shown) in enumerate(modes)]}


def trait(name: str, **row: Any) -> dict[str, Any]:
    """A trait carrying one weapon usage (a natural attack, an aura)."""
    return {"id": f"t-{name}", "name": name, "weapons": [{"id": f"w-{name}", **row}]}


def test_an_affliction_mode_is_on_the_sheet_with_the_files_text_and_its_level_cmb_25():
    # GURPS-CMB-25: the attack roll is against the weapon's skill; the file's "R-HT-2 or KO" is no dice
    ch = import_gcs(doc(phaser())).character
    rows = {row["name"]: row for row in weapon_rows(ch)}
    assert rows["Phaser"]["damage"] == "R-HT-2 or KO" and rows["Phaser"]["level"] == "13"
    assert rows["Phaser (Kill)"]["damage"] == "2d burn"
    c = combatant_from_character(ch)
    assert c.weapon("Phaser").skill == 13 and c.weapon("Phaser").effect == "R-HT-2 or KO"


def test_a_hit_with_an_affliction_is_defended_as_usual_then_named_and_rolls_no_damage_cmb_25():
    # GURPS-CMB-25: 3d vs 13 to hit, CMB-40: the target defends; the effect is no dice: nothing invented
    c = combatant_from_character(import_gcs(doc(phaser())).character)
    state = start_combat([c, quick_combatant("Dummy", {"dx": 8})], Tape(faces=[]))
    dice = Tape(faces=[3, 3, 4])
    state, report = attack(state, "Probe", "Dummy", "Phaser", dice)
    assert report.attack.hit and report.offered and report.damage is None and state.pending is not None
    assert not any("not rolled dice" in str(line) for line in report_lines("attack", report))
    state, answer = defend(state, "Dummy", "none", Tape(faces=[]))
    assert dice.used == [3, 3, 4] and answer.damage is None and state.pending is None  # the attack roll only
    lines = [str(line) for line in report_lines("defend", answer)]
    assert lines[-1] == "Dummy is hit: “R-HT-2 or KO” is not rolled dice; play it as the file says"
    assert state.get("Dummy").hp == state.get("Dummy").hp_max


def test_a_dodged_affliction_says_nothing_of_the_effect_cmb_40():
    c = combatant_from_character(import_gcs(doc(phaser())).character)
    state = start_combat([c, quick_combatant("Dummy", {"dx": 8})], Tape(faces=[]))
    state, _ = attack(state, "Probe", "Dummy", "Phaser", Tape(faces=[3, 3, 4]))
    state, answer = defend(state, "Dummy", "dodge", Tape(faces=[1, 1, 2]))  # 4: a critical success
    assert answer.roll.success and not answer.effect and state.pending is None
    assert not any("not rolled dice" in str(line) for line in report_lines("defend", answer))


def test_a_critical_hit_with_an_affliction_lands_at_once_and_names_it_cmb_40():
    # GURPS-CMB-40: no defense against a critical hit: the effect is named with the attack itself
    c = combatant_from_character(import_gcs(doc(phaser())).character)
    state = start_combat([c, quick_combatant("Dummy", {"dx": 8})], Tape(faces=[]))
    state, report = attack(state, "Probe", "Dummy", "Phaser", Tape(faces=[1, 1, 1, 3, 3, 3]))
    assert report.attack.hit and not report.offered and report.damage is None and state.pending is None
    lines = [str(line) for line in report_lines("attack", report)]
    assert lines[-1] == "Phaser hits: its damage “R-HT-2 or KO” is not rolled dice; play it as the file says"


def test_a_miss_with_an_affliction_says_nothing_of_the_effect_cmb_25():
    c = combatant_from_character(import_gcs(doc(phaser())).character)
    state = start_combat([c, quick_combatant("Dummy", {"dx": 8})], Tape(faces=[]))
    _, report = attack(state, "Probe", "Dummy", "Phaser", Tape(faces=[6, 6, 2]))  # 14 > 13: a miss
    assert not report.attack.hit
    assert not any("not rolled dice" in str(line) for line in report_lines("attack", report))


@pytest.mark.parametrize("written", ["2d-1 ctrl", "Special", "see B405", "-", "5d+1 lp"])
def test_a_damage_that_is_no_dice_is_kept_as_the_file_writes_it(written: str):
    grab = trait("Grab", usage="Grapple", damage={"type": written.split()[-1], "st": "thr"},
                 defaults=[{"type": "dx"}], calc={"level": 12, "damage": written})
    data = doc(traits=(grab,))
    ch = import_gcs(data).character
    assert ch.damage_shown(ch.weapon("Grab")) == written
    compared = {(kind, what): (gcs, ours) for kind, what, gcs, ours in play_comparisons(data, ch)}
    gcs, ours = compared[("damage", "Grab")]
    assert gcs == ours and compared[("weapon level", "Grab")] == (12, 12)


def test_an_attack_without_a_usable_default_keeps_the_files_level():
    # the file's only default is a Parry one (no skill to roll): its level 13 is the one the table uses
    lash = trait("Lash", usage="Lash", damage={"type": "cr", "base": "3d"}, parry="0",
                 defaults=[{"type": "parry", "name": "Innate Attack", "specialization": "Gaze"}],
                 calc={"level": 13, "damage": "3d cr", "parry": "9"})
    ch = import_gcs(doc(traits=(lash,))).character
    assert ch.weapon_level("Lash") == 13 and ch.weapon_parry(ch.weapon("Lash")) == 9
    assert combatant_from_character(ch).weapon("Lash").skill == 13


def test_an_aura_with_no_skill_is_shown_with_its_damage_and_attack_refuses_in_one_line():
    # no default and no level in the file: no attack roll exists; nothing is invented
    aura = trait("Whirlwind", usage="Whirlwind", damage={"type": "cr", "base": "1d"}, reach="1",
                 calc={"damage": "1d cr"})
    ch = import_gcs(doc(traits=(aura,))).character
    (row,) = [r for r in weapon_rows(ch) if r["name"] == "Whirlwind"]
    assert (row["level"], row["damage"], row["parry"]) == ("—", "1d cr", "—")
    c = combatant_from_character(ch)
    state = start_combat([c, quick_combatant("Dummy", {"dx": 8})], Tape(faces=[]))
    with pytest.raises(RuleError) as refused:
        attack(state, "Probe", "Dummy", "Whirlwind", Tape(faces=[3, 3, 3]))
    message = str(refused.value)
    assert "\n" not in message and "Whirlwind has no attack roll" in message and "1d cr" in message
    assert state.pending is None and state.get("Probe").attacks_left == c.attacks_left


def test_the_files_text_is_escaped_on_the_sheet():
    odd = trait("Odd", usage="Odd", damage={"type": "<b>see notes</b>"}, defaults=[{"type": "dx"}],
                calc={"level": 12, "damage": "<b>see notes</b>"})
    html = character_html(import_gcs(doc(traits=(odd,))).character)
    assert "<b>see notes</b>" not in html and "&lt;b&gt;see notes&lt;/b&gt;" in html


def test_a_bracketed_follow_up_is_shown_and_named_on_a_hit_but_only_the_first_damage_is_rolled_dmg_03():
    # GURPS-DMG-03 rolls dice + adds of one type: "1d-3 cut" is rolled, "[1d burn]" (GCS's fragmentation
    # field, used by files for follow-ups too, which the Basic Set rolls otherwise) is shown and named
    jaws = trait("Mandibles", usage="Bite", reach="C",
                 damage={"type": "cut", "st": "thr", "base": "-1", "fragmentation": "1d", "fragmentation_type": "burn"},
                 defaults=[{"type": "dx"}], calc={"level": 12, "damage": "1d-3 cut [1d burn]"})
    data = doc(traits=(jaws,))
    ch = import_gcs(data).character
    (row,) = [r for r in weapon_rows(ch) if r["name"] == "Mandibles"]
    assert row["damage"] == "thr-1 cut [1d burn]"
    compared = {(kind, what): (gcs, ours) for kind, what, gcs, ours in play_comparisons(data, ch)}
    assert compared[("damage", "Mandibles")] == ("1d-3cut[1dburn]", "1d-3cut[1dburn]")
    c = combatant_from_character(ch)
    state = start_combat([c, quick_combatant("Dummy", {"dx": 8})], Tape(faces=[]))
    dice = Tape(faces=[1, 1, 1, 6, 6, 6])  # a critical hit: damage at once, one die for 1d-3
    state, report = attack(state, "Probe", "Dummy", "Mandibles", dice)
    assert report.damage is not None and report.damage.damage.faces == (6,)
    lines = [str(line) for line in report_lines("attack", report)]
    assert any("Mandibles also carries [1d burn]: not rolled" in line for line in lines)


def test_a_saved_sheet_keeps_the_effect_the_follow_up_and_the_missing_attack_roll():
    from gamekernel.gurps.rules.characters import Character

    aura = trait("Whirlwind", usage="Whirlwind", damage={"type": "cr", "base": "1d"}, calc={"damage": "1d cr"})
    jaws = trait("Mandibles", usage="Bite", defaults=[{"type": "dx"}],
                 calc={"level": 12, "damage": "1d-3 cut [1d burn]"},
                 damage={"type": "cut", "st": "thr", "base": "-1", "fragmentation": "1d", "fragmentation_type": "burn"})
    ch = import_gcs(doc(phaser(), traits=(aura, jaws))).character
    back = Character.from_dict(ch.to_dict())
    assert back.weapons == ch.weapons
    assert [back.damage_shown(w) for w in back.weapons] == ["R-HT-2 or KO", "2d burn", "1d cr", "thr-1 cut [1d burn]"]
    assert "no_roll" in back.weapon("Whirlwind").flags


def test_a_sense_with_no_skill_and_no_dice_names_its_text_when_attacked_with():
    sense = trait("Vibration Sense", usage="Ooze Senses", damage={"type": "cr"}, calc={"damage": "cr"})
    c = combatant_from_character(import_gcs(doc(traits=(sense,))).character)
    state = start_combat([c, quick_combatant("Dummy", {"dx": 8})], Tape(faces=[]))
    with pytest.raises(RuleError) as refused:
        attack(state, "Probe", "Dummy", "Vibration Sense", Tape(faces=[3, 3, 3]))
    assert str(refused.value) == ("Probe: Vibration Sense has no attack roll (the file gives it no skill or "
                                  "default); it works as its notes say: “cr”")
