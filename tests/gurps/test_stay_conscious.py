"""The one HP <= 0 step (GURPS-INJ-02): the HT roll to stay conscious, -1 per full -HP, is one function
(`harm.stay_conscious`), used before a maneuver, before a defense roll and after a loss outside a fight."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import gamekernel
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules.combat import Combatant, Tape, copy_with
from gamekernel.gurps.rules.harm import harm, stay_conscious

BAD = [6, 6, 6]  # 18: a failure on any roll


def bren(**state) -> Combatant:
    return Combatant(**{"name": "Bren", "ht": 12, "hp_max": 10, "fp_max": 10, "dx": 12, "basic_speed": 6.0,
                        "weapons": (cb.parse_weapon("Axe:12:sw+2 cut"),), **state})


def test_the_roll_to_stay_conscious_is_rolled_in_one_place() -> None:
    root = Path(gamekernel.__file__).parent
    calls = [f"{path.relative_to(root)}" for path in root.rglob("*.py")
             for line in path.read_text(encoding="utf-8").splitlines()
             if re.search(r"\bconsciousness_check\(", line) and "def consciousness_check" not in line]
    assert calls == ["gurps/rules/harm.py"]


@pytest.mark.parametrize(("hp", "faces", "penalty", "up"), [
    (0, [3, 3, 3], 0, True),      # GURPS-INJ-02: HP 0 is "HP <= 0": the roll, 9 vs HT 12
    (-9, [4, 4, 4], 0, True),     # -9 of 10: no full -HP yet, 12 vs 12 succeeds
    (-10, [4, 4, 4], -1, False),  # -10: one full -HP, 12 vs 11 fails
    (-10, [4, 4, 3], -1, True),   # 11 vs 11 succeeds
])
def test_gurps_inj_02_the_roll_at_hp_0_and_below_with_minus_1_per_full_minus_hp(hp, faces, penalty, up) -> None:
    c, roll = stay_conscious(bren(hp=hp, concentrating="Fireball"), Tape(faces=faces))
    assert roll is not None and roll.success is up and roll.target == 12 + penalty
    assert c.consciousness_checked and c.unconscious is (not up)
    if not up:
        assert (c.posture, c.concentrating) == ("lying_down", "")


@pytest.mark.parametrize("state", [{"hp": 1}, {"hp": -3, "consciousness_checked": True},
                                   {"hp": -3, "unconscious": True}, {"hp": -3, "mortal": True},
                                   {"hp": -60, "dead": True}])
def test_gurps_inj_02_no_roll_above_0_hp_twice_a_turn_or_for_someone_already_down(state) -> None:
    c = bren(**state)
    assert stay_conscious(c, Tape(faces=BAD)) == (c, None)


def _fight_at(hp: int) -> cb.CombatState:
    orc = Combatant(name="Orc", dx=11, basic_speed=5.0, weapons=(cb.parse_weapon("Axe:12:sw+2 cut"),))
    fight = cb.start_combat([bren(), orc], Tape(faces=[]))
    return fight.put(copy_with(fight.get("Bren"), hp=hp))


def test_gurps_inj_02_the_maneuver_the_defense_and_a_loss_outside_a_fight_take_the_same_step() -> None:
    # the same fighter at HP -2 with the same dice: the same roll and the same state from each path
    expected, roll = stay_conscious(bren(hp=-2), Tape(faces=BAD))
    fight, report = cb.choose_maneuver(_fight_at(-2), "Bren", "attack", Tape(faces=BAD))
    assert report.checks == (roll,) and fight.get("Bren").unconscious and fight.get("Bren").posture == "lying_down"
    fight = cb.next_turn(_fight_at(-2), Tape(faces=[]))[0]
    fight, _ = cb.choose_maneuver(fight, "Orc", "attack", Tape(faces=[]))
    fight, _ = cb.attack(fight, "Orc", "Bren", "Axe", Tape(random.Random(1), faces=[3, 3, 3]))
    fight, defense = cb.defend(fight, "Bren", "dodge", Tape(random.Random(1), faces=BAD))
    assert defense.checks[:1] == (roll,) and fight.get("Bren").unconscious
    outside, hurt = harm(bren(hp=-1), Tape(faces=BAD), injury=1)
    assert hurt.consciousness == roll and (outside.unconscious, outside.posture) == (expected.unconscious,
                                                                                    expected.posture)
