"""What a GM picks from in a fight: a sheet's weapons as a menu (main weapons first, a shield bash and
natural attacks below, near-duplicates once, a trait's attacks named by what they are), the weapon
a fighter most likely means (the best ready one, or the one he used last: GURPS-CMB-30, CMB-31), the
weapons he can parry with (GURPS-CMB-46: a Parry names its weapon and he may choose it), and the
defenses he has but may not roll now with the rule that says why (one parry per turn, CMB-46)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamekernel import Session
from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules.combat import PLAIN_MELEE, Combatant, Weapon
from gamekernel.gurps.rules.combat.attacks import parry_offers, refused_defenses
from gamekernel.gurps.rules.combat.parries import parry_options
from gamekernel.gurps.rules.combat.picks import NATURAL, SHIELD, WEAPON, best_weapon, weapon_menu
from gamekernel.testing import run

DATA = Path(__file__).parent / "data"
TROLL = DATA / "gcs" / "troll.gcs"
BRANNOC = Path(__file__).parents[2] / "example_notebooks" / "brannoc.gcs"


def _shield_first(tmp_path: Path) -> Path:
    """Brannoc's file with his Medium Shield listed before his Broadsword (as Svend Trygg's file lists
    his shield before his axe)."""
    doc = json.loads(BRANNOC.read_text())
    doc["equipment"] = [doc["equipment"][1], doc["equipment"][0], *doc["equipment"][2:]]
    path = tmp_path / "shield_first.gcs"
    path.write_text(json.dumps(doc))
    return path


def _fighters(tmp_path: Path, seed: int = 5) -> Session:
    s = Session(seed=seed)
    s.gurps.char_import(TROLL, side="foes")
    s.gurps.char_import(_shield_first(tmp_path))
    s.combat.start("Troll Brannoc")
    return s


def test_gurps_cmb_31_the_menu_puts_main_weapons_first_and_names_natural_attacks(tmp_path):
    s = _fighters(tmp_path)
    troll = s.combat.state.get("Troll")
    menu = [(p.name, p.label, p.group) for p in weapon_menu(troll)]
    assert menu == [("Small Knife", "Small Knife (Swung)", WEAPON), ("Axe", "Axe", WEAPON),
                    ("Natural Attacks", "Bite", NATURAL), ("Natural Attacks (Punch)", "Punch", NATURAL),
                    ("Natural Attacks (Kick)", "Kick", NATURAL)]  # the second Small Knife once
    assert len(troll.weapons) == 6
    brannoc = s.combat.state.get("Brannoc")
    assert [(p.label, p.group) for p in weapon_menu(brannoc)] == [
        ("Broadsword (Swung)", WEAPON), ("Broadsword (Thrust)", WEAPON), ("Medium Shield (Shield Bash)", SHIELD),
        ("Claws (Scratch)", NATURAL)]
    assert brannoc.weapons[0].name == "Medium Shield"  # the file's first entry


def test_gurps_cmb_30_the_first_pick_is_the_best_ready_weapon_not_the_files_first(tmp_path):
    s = _fighters(tmp_path)
    assert best_weapon(s.combat.state.get("Brannoc")) == "Broadsword"  # not the shield bash
    assert best_weapon(s.combat.state.get("Troll")) == "Axe"  # not a Small Knife at 7, not the Bite at 13


def test_the_first_pick_is_the_weapon_used_last_and_fits_the_maneuver():
    c = Combatant("Bo", weapons=(Weapon("Sword", 13, "sw cut", reach="1"), Weapon("Bow", 12, "1d imp", ranged=True,
                                                                                    kind="missile"),
                                 Weapon("Punch", 14, "thr-1 cr", parry_weapon="bare_hands", reach="C")))
    assert best_weapon(c) == "Sword"
    assert best_weapon(c, "aim") == "Bow"  # Aim is for a ranged weapon (GURPS-CMB-15)
    assert best_weapon(c, "feint", distance=0) == "Punch"  # the Sword does not reach 0 m (CMB-14)
    used = Combatant("Bo", weapons=c.weapons, last_weapon="Bow")
    assert best_weapon(used) == "Bow"
    assert best_weapon(used, "feint") == "Sword"  # a Feint is melee (CMB-21): the Bow is passed over
    assert best_weapon(Combatant("Nobody")) == ""


def test_an_attack_remembers_its_weapon():
    s = Session(seed=1)
    s.combat.start("Aiko{DX=12,pc=1,weapon=Sword:13:sw cut,weapon=Knife:12:thr imp} Orc{DX=9}")
    s.combat.maneuver("Aiko", "attack")
    s.combat.attack("Aiko", "Orc", "Knife")
    assert s.combat.state.get("Aiko").last_weapon == "Knife"
    assert best_weapon(s.combat.state.get("Aiko")) == "Knife"


def test_gurps_cmb_46_parry_options_best_first_each_weapon_once(tmp_path):
    s = _fighters(tmp_path)
    troll = s.combat.state.get("Troll")
    offered = tuple((o.weapon, o.label, o.parry) for o in parry_options(troll))
    assert offered == (("Axe", "Axe", 10), ("Natural Attacks (Punch)", "Punch", 9),
                       ("Small Knife", "Small Knife (Swung)", 5))  # Bite and Kick cannot parry


def _troll_attacked(tmp_path) -> Session:
    """A fight where Brannoc's hit waits for the Troll's defense (the first seed that gives one)."""
    for seed in range(1, 50):
        s = _fighters(tmp_path, seed)
        while s.combat.state.current.name != "Brannoc":
            s.combat.next()
        s.combat.attack("Brannoc", "Troll", "Broadsword")
        if s.combat.state.pending is not None:
            return s
    raise AssertionError("no hit waited for a defense")


def test_gurps_cmb_46_a_parry_with_a_chosen_weapon_names_it_in_the_roll(tmp_path):
    s = _troll_attacked(tmp_path)
    p = s.combat.state.pending
    assert [w for w, _, _ in parry_offers(s.combat.state, "Troll", p.incoming, attacker="Brannoc")] == [
        "Axe", "Natural Attacks (Punch)", "Small Knife"]
    with pytest.raises(RuleError, match="cannot parry with Natural Attacks"):
        s.combat.defend("Troll", "parry", weapon="Natural Attacks")  # the Bite: no Parry in the file
    with pytest.raises(UsageError, match="only a Parry"):
        s.combat.defend("Troll", "dodge", weapon="Axe")
    r = s.combat.defend("Troll", "parry", weapon="Natural Attacks (Punch)")
    roll = r.report.roll
    assert roll.label == "Parry (Natural Attacks (Punch))" and roll.base == 9
    assert s.log[-1].data["args"] == {"name": "Troll", "kind": "parry", "weapon": "Natural Attacks (Punch)"}
    assert "Troll defends: parry (Natural Attacks (Punch))" in str(s.log_view()).splitlines()[-1].replace(
        "Parry", "parry")


def test_gurps_cmb_46_a_used_parry_is_listed_with_its_rule(tmp_path):
    s = _troll_attacked(tmp_path)
    assert refused_defenses(s.combat.state, "Troll", s.combat.state.pending.incoming) == ()
    s.combat.defend("Troll", "parry")
    fight = s.combat.state
    refused = refused_defenses(fight, "Troll", PLAIN_MELEE)
    assert ("parry", "combat.err.why.parried", ()) in refused


def test_defend_magic_takes_the_weapon(ip, tmp_path):
    run(ip, "char", f"load {TROLL} --npc")
    run(ip, "combat", "start Troll Aiko{DX=12,pc=1,weapon=Sword:18:sw cut}")
    from gamekernel.magics import current_session

    s = current_session()
    while s.combat.state.current.name != "Aiko":
        run(ip, "next")
    for seed in range(1, 40):
        run(ip, "seed", str(seed))
        out = run(ip, "attack", "Aiko -> Troll Sword")
        if s.combat.state.pending is not None:
            break
        run(ip, "undo")
    out = run(ip, "defend", 'Troll parry "Natural Attacks (Punch)"')
    assert "Parry (Natural Attacks (Punch))" in repr(out)


def test_a_parrys_weapon_is_named_in_either_language():
    from gamekernel.gurps.render import rule_label
    from gamekernel.i18n import set_language

    set_language("ja")
    try:
        assert rule_label("Parry (Broadsword)") == "受け（〈剣〉）"  # the skill's Japanese name
        assert rule_label("Parry (Natural Attacks (Punch))") == "受け（Natural Attacks (Punch)）"
    finally:
        set_language("en")
    assert rule_label("Parry (Axe)") == "Parry (Axe)"


def test_attack_magic_without_target_or_weapon_picks_as_the_tracker_does(ip, tmp_path):
    """`%attack Brannoc` attacks the first foe with his best ready weapon (GURPS-CMB-30), not the
    shield listed first; `%attack Brannoc -> Troll` the same weapon; `Brannoc Troll` is still a usage
    error (the arrow forgotten)."""
    run(ip, "char", f"load {TROLL} --npc")
    run(ip, "char", f"load {_shield_first(tmp_path)}")
    run(ip, "combat", "start Troll Brannoc")
    from gamekernel.magics import current_session

    s = current_session()
    while s.combat.state.current.name != "Brannoc":
        run(ip, "next")
    assert "usage" in repr(run(ip, "attack", "Brannoc Troll"))
    run(ip, "attack", "Brannoc")
    assert s.log[-1].kind == "combat.attack"
    assert (s.log[-1].data["args"]["target"], s.log[-1].data["args"]["weapon"]) == ("Troll", "Broadsword")
    run(ip, "undo")
    run(ip, "attack", "Brannoc -> Troll")
    assert s.log[-1].data["args"]["weapon"] == "Broadsword"
    run(ip, "undo")
    run(ip, "combat", "side Troll party")
    assert "nobody of another side" in repr(run(ip, "attack", "Brannoc"))


@pytest.mark.parametrize("weapon, group", [
    (Weapon("Hornbow", 12, "1d+2 imp", ranged=True, kind="missile"), WEAPON),
    (Weapon("Butterfly Sword", 12, "sw cut"), WEAPON),
    (Weapon("Horns", 12, "thr+1 imp"), NATURAL),
    (Weapon("Natural Attacks (Kick)", 12, "thr cr", usage="Kick"), NATURAL),
    (Weapon("Fist", 12, "thr-1 cr", uses="Boxing"), NATURAL),
    (Weapon("Spiked Shield", 12, "thr+1 imp", uses="Shield"), SHIELD),
    (Weapon("Medium Shield", 12, "thr cr", usage="Shield Bash"), SHIELD)])
def test_gurps_cmb_31_weapon_groups(weapon, group):
    """Natural attacks (always ready, GURPS-CMB-31) by their own words, shields by their skill or bash."""
    from gamekernel.gurps.rules.combat.picks import weapon_group

    assert weapon_group(weapon) == group
