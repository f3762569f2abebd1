"""Spell concentration in a fight (GURPS-MAG-05..07, seed 004 lines 1756-1763): a caster who loses
concentration starts over (no %cast that turn), a caster hurt while concentrating who keeps it takes
-injury on the spell roll (capped at 4 like shock, RULES.md's OPEN reading of MAG-07), and the roll
ends the concentration (the caster's next turn starts right after it)."""

from __future__ import annotations

import pytest

from gamekernel.errors import RuleError
from gamekernel.table_session import Session


def _concentrating(seed: int) -> Session:
    s = Session(seed=seed)
    s.combat.npc("Goblin", "ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp")
    s.combat.start("Mage{IQ=14,DX=10,HT=10,Will=10} Goblin")
    while s.combat.state.current.name != "Mage":
        s.combat.next()
    s.combat.maneuver("Mage", "concentrate")
    return s


def _spell_roll(s: Session) -> str:
    return str(s.combat.cast("Mage", "Light", 1, 14))


def test_gurps_mag_05_the_roll_ends_the_concentration() -> None:
    s = _concentrating(1)
    _spell_roll(s)
    assert s.combat.state.get("Mage").concentrating == ""
    with pytest.raises(RuleError, match="starts over"):
        s.combat.cast("Mage", "Light", 1, 14)


@pytest.mark.parametrize("injury", [2, 5])  # 5: capped at 4; not a major wound of HP 10
def test_gurps_mag_06_07_hurt_while_concentrating(injury) -> None:
    kept = lost = 0
    for seed in range(40):
        s = _concentrating(seed)
        s.combat.damage("Mage", f"{injury} cr")
        mage = s.combat.state.get("Mage")
        if mage.concentrating:  # the Will-3 roll succeeded (GURPS-MAG-06): -injury on the spell, at most 4
            kept += 1
            assert mage.concentration_injury == injury
            text = str(s.combat.cast("Mage", "Light", 1, 14))
            assert f"-{min(4, injury)}" in text.replace("−", "-") and "injured while concentrating" in text
        else:  # failed: lost, start over (seed 004 lines 1760-1761)
            lost += 1
            events = len(s.log)
            with pytest.raises(RuleError, match="starts over"):
                s.combat.cast("Mage", "Light", 1, 14)
            assert len(s.log) == events  # a refusal records nothing
    assert kept and lost  # both readings were seen


def test_a_new_concentration_starts_without_the_old_injury() -> None:
    for seed in range(40):
        s = _concentrating(seed)
        s.combat.damage("Mage", "2 cr")
        if s.combat.state.get("Mage").concentrating:
            _spell_roll(s)
            s.combat.next()
            while s.combat.state.current.name != "Mage":
                s.combat.next()
            s.combat.maneuver("Mage", "concentrate")
            assert s.combat.state.get("Mage").concentration_injury == 0
            return
    raise AssertionError("no seed kept concentration")


def test_gurps_mag_06_stunned_while_concentrating_loses_it_at_once() -> None:
    from gamekernel.gurps.rules.combat import Combatant, Tape
    from gamekernel.gurps.rules.harm import harm

    mage = Combatant(name="Mage", ht=10, hp_max=10, concentrating="Fireball", concentration_injury=2)
    c, report = harm(mage, Tape(faces=[4, 4, 3]), injury=6, in_fight=True)  # major wound; HT roll 11 vs 10
    assert report.knockdown.outcome == "stunned" and (c.concentrating, c.concentration_injury) == ("", 0)
