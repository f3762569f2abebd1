"""GURPS-CMB (and INJ in combat): initiative, maneuvers, posture, attacks, defenses, feint, turns."""

import pytest

from gamekernel.errors import NotFoundError, RuleError, UsageError
from gamekernel.gurps.rules import attacks as atk
from gamekernel.gurps.rules import defenses as dfn
from gamekernel.gurps.rules.checks import success_roll
from gamekernel.gurps.rules.combat import (
    AttackOptions,
    Tape,
    apply_injury,
    attack,
    choose_maneuver,
    defend,
    defenses_allowed,
    end_combat,
    feint_penalty,
    free_posture,
    move_allowed,
    next_turn,
    parse_weapon,
    quick_combatant,
    start_combat,
)


def f(total: int) -> list[int]:
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    return [a, b, total - a - b]


def tape(*totals: int, extra: tuple[int, ...] = ()) -> Tape:
    faces: list[int] = []
    for t in totals:
        faces += f(t)
    return Tape(faces=[*faces, *extra])


def aiko(**kw):
    stats = {"st": 11, "dx": 13, "ht": 11, "weapon": "Broadsword:14:sw+1 cut", "shield": 12, "db": 2, **kw}
    return quick_combatant("Aiko", stats, pc=True)


def goblin(name="Goblin", **kw):
    return quick_combatant(name, {"st": 9, "dx": 12, "ht": 11, "weapon": "Spear:11:thr+2 imp", **kw})


def fight(*combatants):
    return start_combat(combatants, Tape(faces=[]))


# ---------------------------------------------------------------- initiative (CMB-02, CMB-03)

def test_gurps_cmb_02_highest_basic_speed_first():
    slow = quick_combatant("Slow", {"dx": 10, "ht": 10}, pc=True)  # 5.0
    fast = quick_combatant("Fast", {"dx": 12, "ht": 11}, pc=True)  # 5.75
    state = fight(slow, fast)
    assert [c.name for c in state.combatants] == ["Fast", "Slow"]


def test_gurps_cmb_03_pc_tie_higher_dx_first():
    a = quick_combatant("A", {"dx": 11, "ht": 13}, pc=True)
    b = quick_combatant("B", {"dx": 12, "ht": 12}, pc=True)
    assert [c.name for c in fight(a, b).combatants] == ["B", "A"]


def test_gurps_cmb_03_same_side_npcs_keep_gm_order_no_roll():
    g = [goblin(f"G{i}") for i in (1, 2, 3)]
    t = Tape(faces=[])
    state = start_combat(g, t)
    assert [c.name for c in state.combatants] == ["G1", "G2", "G3"] and t.used == []


def test_gurps_cmb_03_full_tie_with_pc_rolls_and_keeps_order():
    a = quick_combatant("A", {"dx": 12, "ht": 12}, pc=True)
    g = goblin("G", ht=12)
    t = tape(8, 15)
    state = start_combat([a, g], t)
    assert [c.name for c in state.combatants] == ["G", "A"]
    assert state.initiative[0].tie_roll == tuple(f(15))
    state, _ = next_turn(state, Tape(faces=[]))
    state, _ = next_turn(state, Tape(faces=[]))
    assert [c.name for c in state.combatants] == ["G", "A"] and state.round == 2


def test_gurps_cmb_03_duplicate_names_refused():
    with pytest.raises(UsageError):
        fight(goblin(), goblin())


# ---------------------------------------------------------------- maneuvers and posture (CMB-04..24)

def test_gurps_cmb_05_everyone_do_nothing_before_first_turn():
    state = fight(aiko(), goblin())
    assert all(c.maneuver == "do_nothing" for c in state.combatants)


def test_gurps_cmb_04_only_the_active_fighter_chooses_and_once():
    state = fight(aiko(), goblin())
    with pytest.raises(RuleError):
        choose_maneuver(state, "Goblin", "attack", Tape())
    state, _ = choose_maneuver(state, "Aiko", "all_out_defense", Tape(), option="dodge")
    with pytest.raises(RuleError):
        choose_maneuver(state, "Aiko", "attack", Tape())


def test_gurps_cmb_04_unknown_maneuver_suggests():
    with pytest.raises(UsageError, match="all_out_attack"):
        choose_maneuver(fight(aiko()), "Aiko", "all_out_atack", Tape())


def test_gurps_cmb_17_20_options_required():
    state = fight(aiko(), goblin())
    with pytest.raises(UsageError):
        choose_maneuver(state, "Aiko", "all_out_attack", Tape())


def test_gurps_cmb_08_18_19_20_move_limits():
    a = aiko()  # Basic Speed 6, Move 6
    state = fight(a, goblin())
    for maneuver, option, metres in [("move", "", 6), ("all_out_attack", "determined", 3), ("attack", "", 1),
                                     ("move_and_attack", "", 6), ("all_out_defense", "dodge", 3),
                                     ("all_out_defense", "parry", 1), ("do_nothing", "", 0)]:
        s, _ = choose_maneuver(state, "Aiko", maneuver, Tape(), option=option)
        assert move_allowed(s.get("Aiko")) == metres, maneuver


def test_gurps_cmb_18_19_defense_limits():
    state = fight(aiko(), goblin())
    s, _ = choose_maneuver(state, "Aiko", "all_out_attack", Tape(), option="determined")
    assert defenses_allowed(s.get("Aiko")) == ()
    s, _ = choose_maneuver(state, "Aiko", "move_and_attack", Tape())
    assert defenses_allowed(s.get("Aiko")) == ("dodge", "block")


def test_gurps_cmb_10_lying_to_standing_takes_two_changes():
    state = fight(aiko(), goblin())
    from dataclasses import replace

    state = state.put(replace(state.get("Aiko"), posture="lying_down"))
    with pytest.raises(RuleError):
        choose_maneuver(state, "Aiko", "change_posture", Tape(), posture="standing")
    s, _ = choose_maneuver(state, "Aiko", "change_posture", Tape(), posture="kneeling")
    assert s.get("Aiko").posture == "kneeling"
    s = free_posture(s, "Aiko", "standing")  # kneeling -> standing as a step (CMB-10)
    assert s.get("Aiko").posture == "standing"


def test_gurps_cmb_06_crouch_free_but_not_lie_down():
    state = fight(aiko())
    assert free_posture(state, "Aiko", "crouching").get("Aiko").posture == "crouching"
    with pytest.raises(RuleError):
        free_posture(state, "Aiko", "lying_down")


@pytest.mark.parametrize(
    ("posture", "attack_mod", "defense_mod", "target_mod", "move"),
    [("standing", 0, 0, 0, 6), ("crouching", -2, 0, -2, 4), ("kneeling", -2, -2, -2, 2),
     ("crawling", -4, -3, -2, 2), ("sitting", -2, -2, -2, 0), ("lying_down", -4, -3, -2, 1)],
)
def test_gurps_cmb_11_posture_table(posture, attack_mod, defense_mod, target_mod, move):
    row = atk.posture_row(posture)
    assert (row["attack"], row["defense"], row["target"]) == (attack_mod, defense_mod, target_mod)
    assert atk.posture_move(posture, 6) == move


# ---------------------------------------------------------------- to-hit modifiers (CMB-33..39)

@pytest.mark.parametrize(
    ("metres", "mod"),
    [(0.3, 0), (1, 0), (2, 0), (2.5, -1), (3, -1), (5, -2), (8, -4), (10, -4), (15, -5), (20, -6), (30, -7),
     (50, -8), (70, -9), (100, -10)],
)
def test_t17_gurps_cmb_37_39_speed_range_rows(metres, mod):
    assert atk.speed_range_modifier(metres) == mod


def test_t17_motorcycle_40m_at_30mps():
    assert atk.speed_range_modifier(40, 30) == -9
    assert atk.vehicle_speed_mps(90) == 30


@pytest.mark.parametrize(("size", "sm"), [(0.3, -5), (0.5, -2), (1, -2), (1.8, 0), (2, 0), (3, 1), (5, 2),
                                          (10, 4), (100, 10)])
def test_gurps_cmb_38_size_modifier(size, sm):
    assert atk.size_modifier(size) == sm


def test_gurps_cmb_39_open_full_table_flag():
    assert atk.speed_range_modifier(7) == -4
    assert atk.speed_range_modifier(7, full_table=True) == -3
    with pytest.raises(RuleError):
        atk.speed_range_modifier(150)
    assert atk.speed_range_modifier(150, full_table=True) == -11


def test_gurps_cmb_33_35_melee_modifier_list():
    s = atk.Situation(maneuver="all_out_attack", aoa_option="determined", posture="kneeling", shock=6,
                      off_hand=True, weapon_st_short=2, vision="unseen_near", clothing_fire="part")
    mods = atk.melee_modifiers(s, large_shield=True)
    assert dict((label, v) for v, label in mods) == {
        "All-Out Attack (Determined)": 4, "shock": -4, "kneeling": -2, "clothing on fire": -2, "weapon ST": -2,
        "foe unseen, within 1 m": -4, "off hand": -4, "large shield": -2}


def test_gurps_cmb_36_ranged_aim_brace_and_move_and_attack_loses_aim():
    s = atk.Situation()
    mods = dict((label, v) for v, label in atk.ranged_modifiers(s, range_m=8, acc=2, aim_turns=3, braced=True))
    assert mods == {"Aim (Acc)": 2, "braced": 1, "aimed 3+ s": 2, "speed+range 8 m": -4}
    mam = atk.ranged_modifiers(atk.Situation(maneuver="move_and_attack"), range_m=2, acc=2, aim_turns=1)
    assert mam == ((-4, "Move and Attack"),)
    aoa = atk.ranged_modifiers(atk.Situation(maneuver="all_out_attack"), range_m=2, target_posture="lying_down")
    assert aoa == ((1, "All-Out Attack"), (-2, "target lying down"))


def test_gurps_cmb_19_move_and_attack_melee_cap_9():
    roll = atk.attack_roll("A", "B", "Sword", 16, [(-4, "Move and Attack")], f(9), move_and_attack=True)
    assert roll.roll.target == 9 and roll.hit
    roll = atk.attack_roll("A", "B", "Sword", 12, [(-4, "Move and Attack")], f(9), move_and_attack=True)
    assert roll.roll.target == 8 and not roll.hit


def test_gurps_cmb_27_28_critical_hit_and_miss():
    assert atk.attack_roll("A", "B", "Sword", 15, (), f(5)).critical_hit
    assert not atk.attack_roll("A", "B", "Sword", 14, (), f(5)).critical_hit
    assert atk.attack_roll("A", "B", "Sword", 16, (), f(6)).critical_hit
    assert not atk.attack_roll("A", "B", "Sword", 20, (), f(17)).hit
    assert atk.attack_roll("A", "B", "Sword", 15, (), f(17)).critical_miss
    assert not atk.attack_roll("A", "B", "Sword", 16, (), f(17)).critical_miss


def test_gurps_sr_05_attack_below_3_refused():
    with pytest.raises(RuleError):
        atk.attack_roll("A", "B", "Sword", 8, [(-6, "blind")], f(3))


# ---------------------------------------------------------------- defenses (CMB-40..52)

def test_t15_block_and_parry_scores():
    assert dfn.block_score(11) == 8
    assert dfn.parry_score(13) == 9
    assert dfn.dodge_score(5.25) == 8
    assert dfn.dodge_score(5.75, 2) == 6


def test_gurps_inj_01_fat_01_dodge_halved_round_up_each():
    assert dfn.dodge_score(6, reeling=True) == 5
    assert dfn.dodge_score(6, reeling=True, tired=True) == 3


def test_gurps_cmb_42_defense_always_rolled_3_4_succeed():
    r = dfn.defense_roll("B", "dodge", 1, dfn.DefenderState(), dfn.Incoming(), f(4))
    assert r.success and r.roll.critical == "success"
    r = dfn.defense_roll("B", "dodge", 20, dfn.DefenderState(), dfn.Incoming(), f(17))
    assert not r.success


def test_gurps_cmb_43_50_51_52_defense_modifiers():
    who = dfn.DefenderState(maneuver="all_out_defense", aod_option="parry", posture="kneeling", stunned=True,
                            shield_db=2, distracted=True, feint_penalty=3, parry_weapon="dagger")
    mods = dict((label, v) for v, label in dfn.defense_modifiers("parry", who, dfn.Incoming(kind="thrown",
                                                                                                thrown_weight_kg=0.4)))
    assert mods == {"All-Out Defense": 2, "kneeling": -2, "shield DB": 2, "stunned": -4, "distracted": -1,
                    "feint": -3, "dagger/knife": -1, "small thrown weapon": -2}
    flail = dfn.Incoming(flail=True)
    assert dfn.defense_modifiers("parry", dfn.DefenderState(), flail) == ((-4, "flail"),)
    assert dfn.defense_modifiers("block", dfn.DefenderState(), flail) == ((-2, "flail"),)
    assert dfn.defense_modifiers("dodge", dfn.DefenderState(), dfn.Incoming(unseen=True)) == ((-4, "attacker unseen"),)


def test_gurps_cmb_49_bare_hands_vs_weapon():
    who = dfn.DefenderState(parry_weapon="bare_hands")
    assert dfn.defense_modifiers("parry", who, dfn.Incoming()) == ((-3, "bare hands vs weapon"),)
    assert dfn.defense_modifiers("parry", who, dfn.Incoming(unarmed=True)) == ()


@pytest.mark.parametrize(
    ("kind", "who", "incoming", "words"),
    [("dodge", dfn.DefenderState(), dfn.Incoming(critical=True), "critical"),
     ("dodge", dfn.DefenderState(), dfn.Incoming(from_behind=True), "behind"),
     ("dodge", dfn.DefenderState(maneuver="all_out_attack"), dfn.Incoming(), "All-Out Attack"),
     ("parry", dfn.DefenderState(maneuver="move_and_attack"), dfn.Incoming(), "Move and Attack"),
     ("parry", dfn.DefenderState(), dfn.Incoming(kind="firearm"), "cannot stop"),
     ("block", dfn.DefenderState(can_block=True), dfn.Incoming(kind="firearm"), "cannot stop"),
     ("parry", dfn.DefenderState(parry_used=True), dfn.Incoming(), "one parry per turn"),
     ("block", dfn.DefenderState(can_block=True, block_used=True), dfn.Incoming(), "one block per turn"),
     ("parry", dfn.DefenderState(), dfn.Incoming(kind="missile_spell"), "cannot stop")],
)
def test_gurps_cmb_41_45_47_50_52_defense_refusals(kind, who, incoming, words):
    assert words in dfn.why_not(kind, who, incoming)


def test_gurps_cmb_47_parry_missile_user_within_reach():
    assert dfn.why_not("parry", dfn.DefenderState(), dfn.Incoming(kind="firearm", attacker_within_reach=True)) is None


# ---------------------------------------------------------------- the flow in a fight

def test_gurps_cmb_25_attack_waits_for_defense_then_damage_on_failure():
    state = fight(aiko(), goblin())
    state, rep = attack(state, "Aiko", "Goblin", "Broadsword", tape(10))
    assert rep.attack.hit and state.pending is not None
    assert rep.offered[0][0] in ("dodge", "parry")
    # Goblin dodges (Dodge 8) and fails with 12; Aiko's sw+1 cut with ST 11 = 1d+2 -> face 4 = 6 -> 9 injury
    state, d = defend(state, "Goblin", "dodge", Tape(faces=[*f(12), 4, *f(10)]))  # + knockdown roll
    assert not d.roll.success and d.damage.damage.injury == 9
    assert state.pending is None and state.get("Goblin").hp == 0


def test_gurps_cmb_27_critical_hit_no_defense_damage_at_once():
    state = fight(aiko(), goblin())
    state, rep = attack(state, "Aiko", "Goblin", "Broadsword", tape(3, extra=(1,)))
    assert rep.attack.critical_hit and rep.offered == () and "critical" in rep.no_defense_reason
    assert rep.damage is not None and state.pending is None


def test_gurps_cmb_46_one_parry_per_turn_in_fight():
    state = fight(goblin("G1", dx=14), goblin("G2", dx=14), aiko())
    state, _ = attack(state, "G1", "Aiko", "Spear", tape(5))
    state, d = defend(state, "Aiko", "parry", tape(5))
    assert d.roll.success
    state, _ = next_turn(state, Tape())
    state, rep = attack(state, "G2", "Aiko", "Spear", tape(5))
    assert "parry" not in dict(rep.offered)
    with pytest.raises(RuleError, match="one parry per turn"):
        defend(state, "Aiko", "parry", tape(5))
    state, d = defend(state, "Aiko", "block", tape(5))
    assert d.roll.success
    state, _ = next_turn(state, Tape())  # Aiko's turn: the parry and block come back
    assert not state.get("Aiko").parry_used and not state.get("Aiko").block_used


def test_gurps_cmb_18_all_out_attack_target_gets_no_defense():
    state = fight(aiko(), goblin())
    state, _ = choose_maneuver(state, "Aiko", "all_out_attack", Tape(), option="determined")
    state, _ = next_turn(state, Tape())
    state, rep = attack(state, "Goblin", "Aiko", "Spear", Tape(faces=[*f(10), 3, *f(10)]))
    assert rep.offered == () and "All-Out Attack" in rep.no_defense_reason and rep.damage is not None


def test_gurps_cmb_17_determined_plus_4_and_double_two_attacks():
    state = fight(aiko(), goblin())
    s, _ = choose_maneuver(state, "Aiko", "all_out_attack", Tape(), option="determined")
    s, rep = attack(s, "Aiko", "Goblin", "Broadsword", tape(18))
    assert rep.attack.roll.target == 18
    with pytest.raises(RuleError):
        attack(s, "Aiko", "Goblin", "Broadsword", tape(18))
    double, _ = choose_maneuver(state, "Aiko", "all_out_attack", Tape(), option="double")
    s, _ = attack(double, "Aiko", "Goblin", "Broadsword", tape(18))
    s, rep = attack(s, "Aiko", "Goblin", "Broadsword", tape(18))
    assert rep.attack.roll.target == 14  # one weapon that stays ready: no off-hand penalty
    s, _ = attack(double, "Aiko", "Goblin", "Broadsword", tape(18))
    s, rep = attack(s, "Aiko", "Goblin", "Broadsword", tape(18), AttackOptions(off_hand=True))
    assert rep.attack.roll.target == 10  # the off-hand weapon's attack: -4 (GURPS-CMB-17, CMB-35)
    three = fight(aiko(), goblin(), goblin("Goblin2"))
    s, _ = choose_maneuver(three, "Aiko", "all_out_attack", Tape(), option="double")
    s, _ = attack(s, "Aiko", "Goblin", "Broadsword", tape(18))
    with pytest.raises(RuleError, match="same foe"):  # Double: both attacks on the same foe
        attack(s, "Aiko", "Goblin2", "Broadsword", tape(18))


def test_gurps_cmb_17_strong_adds_damage():
    state = fight(aiko(), goblin())
    s, _ = choose_maneuver(state, "Aiko", "all_out_attack", Tape(), option="strong")
    s, _ = attack(s, "Aiko", "Goblin", "Broadsword", tape(10))
    s, d = defend(s, "Goblin", "none", Tape(faces=[1, *f(10)]))
    assert d.damage.damage.basic == 1 + 2 + 2  # 1d+2 with face 1, +2 strong


def test_gurps_cmb_22_feint_penalty_rules():
    win = success_roll(14, dice=f(10))  # by 4
    lose = success_roll(10, dice=f(12))
    both = success_roll(12, dice=f(11))  # by 1
    fail = success_roll(10, dice=f(14))
    assert feint_penalty(win, lose) == 4
    assert feint_penalty(win, both) == 3
    assert feint_penalty(both, win) == 0
    assert feint_penalty(fail, lose) == 0


def test_gurps_cmb_22_feint_lowers_defense_next_turn_only():
    state = fight(aiko(), goblin())
    state, rep = choose_maneuver(state, "Aiko", "feint", tape(8, 14), target="Goblin")
    assert rep.feint.penalty == 6 and state.get("Aiko").feint_amount == 6
    state, _ = next_turn(state, Tape())
    state, _ = next_turn(state, Tape())  # Aiko's next turn: the feint applies now
    state, a = attack(state, "Aiko", "Goblin", "Broadsword", tape(10))
    dodge = dict(a.offered)["dodge"]
    assert dodge == state.get("Goblin").dodge - 6
    state, _ = defend(state, "Goblin", "dodge", tape(3))
    state, t = next_turn(state, Tape())
    assert "feint" in t.expired and state.get("Aiko").feint_amount == 0


def test_gurps_inj_05_shock_on_next_turn_then_expires():
    state = fight(aiko(), goblin())  # Aiko acts first
    state, rep = apply_injury(state, "Aiko", 3, Tape())  # during Aiko's own turn -> next turn (round 2)
    assert rep.shock == 3 and state.get("Aiko").shock_round == 2
    state, _ = next_turn(state, Tape())
    state, _ = next_turn(state, Tape())  # round 2, Aiko
    state, a = attack(state, "Aiko", "Goblin", "Broadsword", tape(3, extra=(1,)))
    assert (-3, "shock") in [tuple(m) for m in a.attack.roll.modifiers]
    state, t = next_turn(state, Tape())
    assert "shock" in t.expired and state.get("Aiko").shock == 0


def test_gurps_inj_05_shock_accumulates_capped_before_turn():
    state = fight(aiko(), goblin())
    state, _ = apply_injury(state, "Goblin", 2, Tape())
    state, _ = apply_injury(state, "Goblin", 3, Tape())
    assert state.get("Goblin").shock == 4 and state.get("Goblin").shock_round == 1
    assert "shock −4" in state.get("Goblin").badges()


def test_gurps_inj_06_07_major_wound_knockdown_stun_and_recovery():
    state = fight(aiko(), goblin())  # Goblin HP 9: 5 is a major wound (> 4.5)
    state, rep = apply_injury(state, "Goblin", 5, tape(14))
    assert rep.major_wound and rep.knockdown.outcome == "stunned"
    g = state.get("Goblin")
    assert g.stunned and g.posture == "lying_down"
    state, _ = next_turn(state, Tape())
    with pytest.raises(RuleError, match="stunned"):
        choose_maneuver(state, "Goblin", "attack", Tape())
    state, t = next_turn(state, tape(10))  # HT roll at the end of his turn
    assert t.stun_recovery.success and not state.get("Goblin").stunned


def test_gurps_inj_06_exactly_half_no_knockdown_roll():
    state = fight(aiko(), goblin(hp=10))
    state, rep = apply_injury(state, "Goblin", 5, Tape())
    assert not rep.major_wound and rep.knockdown is None


def test_gurps_inj_02_consciousness_roll_before_acting_at_0_hp():
    state = fight(goblin(dx=14), aiko())
    from dataclasses import replace

    state = state.put(replace(state.get("Goblin"), hp=0))
    state, rep = choose_maneuver(state, "Goblin", "attack", tape(12))
    assert rep.outcome == "unconscious" and state.get("Goblin").unconscious


def test_gurps_inj_02_do_nothing_needs_no_roll():
    state = fight(goblin(hp=10, dx=14), aiko())
    from dataclasses import replace

    state = state.put(replace(state.get("Goblin"), hp=-3))
    state, rep = choose_maneuver(state, "Goblin", "do_nothing", Tape())
    assert rep.checks == () and rep.outcome == "ok"


def test_t18_death_checks_in_fight_and_auto_death_destroyed():
    state = fight(aiko(hp=11), goblin())
    state, rep = apply_injury(state, "Aiko", 22, tape(10, 10))  # knockdown then death check at -11
    assert [d.line for d in rep.death_checks] == [1]
    state, rep = apply_injury(state, "Aiko", 11, tape(10, 10))  # knockdown, then the -22 line
    assert [d.line for d in rep.death_checks] == [2]
    state, rep = apply_injury(state, "Aiko", 10, tape(10))  # -32: knockdown only, no new line
    assert rep.death_checks == ()
    state, rep = apply_injury(state, "Aiko", 23, tape(10))  # -55: automatic death
    assert "dead" in rep.became and state.get("Aiko").dead
    state, rep = apply_injury(state, "Aiko", 55, tape(10))  # -110
    assert "destroyed" in rep.became and "destroyed" in state.get("Aiko").badges()


def test_gurps_inj_09_mortal_wound_then_failure_is_death():
    state = fight(aiko(hp=10), goblin())
    state, rep = apply_injury(state, "Aiko", 20, tape(15, 12))  # knockdown fails by 4; death check fails by 1
    assert rep.death_checks[0].outcome == "mortal" and state.get("Aiko").mortal
    state, rep = apply_injury(state, "Aiko", 10, tape(10, 13))
    assert rep.death_checks[0].outcome == "dead" and state.get("Aiko").dead


def test_gurps_cmb_01_incapacitated_turns_are_skipped():
    state = fight(aiko(), goblin("G1"), goblin("G2"))
    from dataclasses import replace

    state = state.put(replace(state.get("G1"), unconscious=True))
    state, t = next_turn(state, Tape())
    assert t.started == "G2" and t.skipped == ("G1",)


def test_gurps_cmb_23_concentrate_will_minus_3_when_injured():
    state = fight(aiko(), goblin())
    state, _ = choose_maneuver(state, "Aiko", "concentrate", Tape(), concentrate_on="Fireball")
    state, rep = apply_injury(state, "Aiko", 1, tape(12))  # Will 10 - 3 = 7; 12 fails
    assert rep.concentration.target == 7 and not state.get("Aiko").concentrating


def test_gurps_fat_04_end_of_fight_fatigue():
    state = fight(aiko(), goblin())
    state, _ = attack(state, "Aiko", "Goblin", "Broadsword", tape(17))
    for _ in range(20):
        state, _ = next_turn(state, Tape())
    state, end = end_combat(state)
    assert end.seconds == 11 and end.fatigue == (("Aiko", 1),)
    assert state.get("Aiko").fp == 10 and state.get("Goblin").fp == 11


def test_quick_combatant_and_weapon_errors():
    with pytest.raises(UsageError, match="did you mean"):
        quick_combatant("X", {"weapn": "Axe:10:sw cut"})
    with pytest.raises(UsageError):
        parse_weapon("Sword:x:sw cut")
    with pytest.raises(NotFoundError, match="Broadsword"):
        aiko().weapon("Brodsword")
    assert parse_weapon("Bow:12:1d+1 imp:ranged:acc=2").acc == 2


def test_gurps_cmb_36_aim_then_ranged_attack_gets_acc():
    archer = quick_combatant("Bren", {"dx": 12, "ht": 12, "weapon": "Bow:12:1d+1 imp:ranged:acc=2"}, pc=True)
    state = fight(archer, goblin())
    state, _ = choose_maneuver(state, "Bren", "aim", Tape(), target="Goblin")
    state, _ = next_turn(state, Tape())
    state, _ = next_turn(state, Tape())
    state, rep = attack(state, "Bren", "Goblin", "Bow", tape(10), AttackOptions(range_m=8))
    mods = {label: v for v, label in rep.attack.roll.modifiers}
    assert mods == {"Aim (Acc)": 2, "speed+range 8 m": -4}
