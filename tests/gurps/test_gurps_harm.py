"""The one injury path (gurps/rules/harm.py) and the commands that reach it outside a fight
(%damage, %hit, %hazard, %cast): seed 004 [1595-1663, 1739-1743], RULES GURPS-INJ-02..04, GURPS-FAT-02/03,
GURPS-HAZ-17..20, GURPS-DMG-04 (flat damage)."""

from __future__ import annotations

import random

import pytest

from gamekernel.errors import RuleError
from gamekernel.gurps.combat_render import combat_lines
from gamekernel.gurps.rules.combat import Combatant, Tape
from gamekernel.gurps.rules.damage import parse_damage, roll_damage
from gamekernel.gurps.rules.harm import harm
from gamekernel.session import replay
from gamekernel.table_session import Session

OK = [1, 1, 2]  # 4: a critical success on any roll
BAD = [6, 6, 6]  # 18: a critical failure on any roll


def bren(**state) -> Combatant:
    return Combatant(**{"name": "Bren", "ht": 12, "hp_max": 10, "fp_max": 10, "will": 11, **state})


def test_gurps_inj_03_a_death_check_at_each_minus_hp_line_exact_multiples_included():
    """GURPS-INJ-03: HP 10 -> -9 crosses no line (no roll); -> -10 (exactly -1 x HP) one roll;
    -> -20 (exactly -2 x HP) two rolls, one per line."""
    c, rep = harm(bren(hp=10), Tape(faces=OK * 2), injury=19)  # -9: knockdown and consciousness rolls only
    assert rep.death_checks == () and rep.consciousness is not None and rep.knockdown is not None
    c, rep = harm(bren(hp=10), Tape(faces=OK * 3), injury=20)
    assert [d.line for d in rep.death_checks] == [1] and not c.dead
    c, rep = harm(bren(hp=10), Tape(faces=OK * 4), injury=30)
    assert [d.line for d in rep.death_checks] == [1, 2] and not c.dead
    c, rep = harm(c, Tape(faces=OK * 2), injury=1)  # -21: no new line, only the consciousness roll
    assert rep.death_checks == () and c.death_line == 2


def test_gurps_inj_03_09_failing_by_one_or_two_is_a_mortal_wound_more_is_death():
    c, rep = harm(bren(hp=1), Tape(faces=[*OK, 6, 6, 2]), injury=11)  # knockdown roll first
    assert rep.death_checks[0].outcome == "mortal" and c.mortal and not c.dead  # 14 vs 12: by 2
    c, rep = harm(bren(hp=1), Tape(faces=[*OK, 6, 6, 3]), injury=11)
    assert rep.death_checks[0].outcome == "dead" and c.dead  # 15 vs 12: by 3


def test_gurps_inj_04_minus_5_hp_is_death_and_minus_10_hp_destruction_without_a_roll():
    c, rep = harm(bren(hp=10), Tape(faces=OK * 6), injury=59)  # -49: four death checks, alive
    assert len(rep.death_checks) == 4 and not c.dead
    c, rep = harm(bren(hp=10), Tape(faces=OK), injury=60)  # exactly -5 x HP: only the knockdown roll
    assert c.dead and not c.destroyed and rep.death_checks == () and "dead" in rep.became
    c, rep = harm(bren(hp=10), Tape(faces=OK), injury=109)  # -99
    assert c.dead and not c.destroyed
    c, rep = harm(bren(hp=10), Tape(faces=OK), injury=110)  # exactly -10 x HP
    assert c.destroyed and "destroyed" in rep.became


def test_gurps_inj_02_outside_a_fight_hp_0_asks_the_consciousness_roll_at_once_in_a_fight_per_turn():
    """GURPS-INJ-02: at HP <= 0 an HT roll to stay conscious, -1 per full -HP (OPEN reading). Outside a
    fight it comes at once; in a fight at the start of the victim's turns (checks_due), not here."""
    c, rep = harm(bren(hp=2), Tape(faces=()), injury=1)  # HP 1: no roll
    assert rep.consciousness is None
    c, rep = harm(bren(hp=1), Tape(faces=[6, 6, 1]), injury=1)  # HP 0: 13 vs HT 12 fails
    assert rep.consciousness.target == 12 and c.unconscious and "unconscious" in rep.became
    c, rep = harm(bren(hp=1), Tape(faces=[*OK, 4, 4, 3, *OK]), injury=12)  # HP -11: knockdown, death check
    assert rep.consciousness.target == 11 and not c.unconscious  # HT 12 -1 per full -HP
    c, rep = harm(bren(hp=1), Tape(faces=()), injury=1, in_fight=True)
    assert rep.consciousness is None and not c.unconscious and not c.consciousness_checked


def test_gurps_fat_02_03_fp_below_zero_costs_hp_and_minus_fp_is_unconscious():
    c, rep = harm(bren(fp=1), Tape(faces=()), fp=10)  # 1 -> -9: 9 HP lost, still conscious
    assert (c.fp, c.hp, rep.fatigue_hp, c.unconscious) == (-9, 1, 9, False)
    c, rep = harm(bren(fp=1), Tape(faces=OK), fp=11)  # 1 -> -10 = -FP: unconscious; HP 0 -> roll
    assert c.fp == -10 and c.unconscious and c.hp == 0
    c, rep = harm(bren(fp=-10), Tape(faces=()), fp=3)  # never below -FP: HP instead
    assert (c.fp, c.hp) == (-10, 7)


def test_gurps_haz_18_20_suffocation_will_rolls_brain_damage_and_death_at_four_minutes():
    c, rep = harm(bren(fp=2), Tape(faces=OK * 3 + BAD), fp=5, airless_seconds=5)  # 0 FP at 2 s: 4 Will rolls
    assert len(rep.will_rolls) == 4 and c.unconscious and rep.will_rolls[-1].target == 11
    c, rep = harm(bren(fp=10, hp_max=200, hp=200), Tape(faces=BAD), fp=120, airless_seconds=120)
    assert rep.brain_damage is None and c.iq == 10  # exactly 2 minutes: no roll yet
    c, rep = harm(bren(fp=10, hp_max=200, hp=200), Tape(faces=BAD * 2), fp=121, airless_seconds=121)
    assert rep.brain_damage is not None and c.iq == 9 and not c.dead
    c, _ = harm(bren(fp=10, hp_max=400, hp=400), Tape(faces=BAD * 2 + OK * 2), fp=239, airless_seconds=239)
    assert not c.dead
    c, rep = harm(bren(fp=10, hp_max=400, hp=400), Tape(faces=BAD * 2 + OK * 2), fp=240, airless_seconds=240)
    assert c.dead and "dead" in rep.became


class _Faces(random.Random):
    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0) if self.faces else 3


def test_gurps_inj_hazard_outside_a_fight_rolls_and_keeps_the_states_on_the_sheet():
    """The issue's case: a 1000 m fall used to leave Gil at HP -33 and conscious. Now every roll is
    shown and the character sheet keeps the state it reached (and the replay rebuilds it)."""
    s = Session(seed=5)
    s.gurps.char_new("Gil", st=11, ht=11)
    result = s.combat.hazard("fall", "Gil", metres=1000)
    text = "\n".join(combat_lines(result))
    assert "death check −1×HP" in text and "stay conscious" in text
    gil = s.gurps.character("Gil")
    assert gil.current_hp <= -44
    assert {"state_unconscious", "state_dead", "state_destroyed"} & set(gil.conditions)
    assert replay(s.active).to_dict() == s.state.to_dict()
    s.gurps.char_new("Eve", st=10, ht=10)
    s.combat.hazard("suffocation", "Eve", seconds=300)
    conditions = s.gurps.character("Eve").conditions
    assert "state_dead" in conditions or "state_destroyed" in conditions


def test_gurps_inj_damage_and_hit_outside_a_fight_take_the_same_path():
    s = Session(seed=1)
    s.gurps.char_new("Bren", st=10, ht=12)
    s.rng = _Faces([6, 6])  # %damage 8 cr flat: no dice; then HT roll 12 vs 12 at HP 0... see below
    result = s.gurps.damage("10 cr", target="Bren")  # flat damage: HP 10 -> 0, a major wound
    lines = "\n".join(combat_lines(result))
    assert "knockdown" in lines and "stay conscious" in lines
    assert s.gurps.character("Bren").current_hp == 0
    hit = s.combat.damage("Bren", "10 cr")  # %hit outside a fight: -10 = -1 x HP, a death check
    assert any("death check −1×HP" in line for line in combat_lines(hit))
    assert replay(s.active).to_dict() == s.state.to_dict()


def test_gurps_inj_spell_energy_from_hp_at_fp_0_reaches_the_death_checks():
    s = Session(seed=1)
    s.gurps.char_new("Aiko", st=10, ht=10)
    s.gurps.char_set("Aiko", fp_lost=19, hp_lost=9)  # FP -9, HP 1
    s.rng = _Faces([1, 1, 2, 3, 3, 3])  # casting: critical success costs nothing
    s.combat.cast("Aiko", "Light", 3, 12)
    assert s.gurps.character("Aiko").current_hp == 1
    s.rng = _Faces([3, 3, 3] + OK * 3)  # success: 3 FP at FP <= 0, each also 1 HP: HP 1 -> -2, FP -10
    result = s.combat.cast("Aiko", "Light", 3, 12)
    assert s.gurps.character("Aiko").current_hp == -2 and any("stay conscious" in line for line in combat_lines(result))
    assert "state_unconscious" in s.gurps.character("Aiko").conditions  # FP -10 = -FP (GURPS-FAT-03)


@pytest.mark.parametrize(("text", "dice", "adds"), [("8 cr", 0, 8), ("8", 0, 8), ("12 cut", 0, 12), ("8+2 imp", 0, 10),
                                                     ("2d+1 cut", 2, 1)])
def test_gurps_dmg_04_flat_damage_is_accepted(text, dice, adds):
    spec = parse_damage(text)
    assert (spec.dice, spec.adds) == (dice, adds)
    if dice == 0:
        assert roll_damage(spec, dice=()).basic == adds


def test_gurps_fat_03_an_unconscious_character_casts_nothing_and_a_resisted_hazard_says_no_injury():
    s = Session(seed=3)
    s.gurps.char_new("Eve", st=10, ht=10)
    s.gurps.char_set("Eve", fp_lost=20)  # FP -10 = -FP: unconscious once anything is lost
    s.combat.hazard("suffocation", "Eve", seconds=1)
    assert "state_unconscious" in s.gurps.character("Eve").conditions
    count = len(s.log)
    with pytest.raises(RuleError, match="Eve"):
        s.combat.cast("Eve", "Light", 1, 14)
    assert len(s.log) == count
    s.gurps.char_new("Gil", st=10, ht=10)
    s.rng = _Faces([1, 1, 2])  # the HT roll resists the poison: no injury line
    result = s.combat.hazard("poison", "Gil", strength="weak")
    assert not any("injury" in line for line in combat_lines(result)) and s.gurps.character("Gil").current_hp == 10
