"""Recovery as session operations and magics: natural healing (GURPS-INJ-16), waking up
(GURPS-INJ-13..15), the mortal wound roll (GURPS-INJ-10, INJ-11). Exact dice through the operation
layer (a Tape of recorded faces), then events, replay and undo through the session."""

from __future__ import annotations

import random

import pytest

from gamekernel import Session
from gamekernel.display.results import ErrorResult
from gamekernel.errors import RuleError
from gamekernel.gurps.combat_ops import OPS
from gamekernel.gurps.combat_part import CombatPart
from gamekernel.gurps.combat_render import combat_lines
from gamekernel.gurps.results import CombatResult
from gamekernel.gurps.rules.combat import Combatant, Tape
from gamekernel.magics import current_session
from gamekernel.session import replay


def _run(op, person, faces, **args):
    part = CombatPart(roster={person.name: person})
    changes, (_kind, report) = OPS[op](part, {"name": person.name, **args}, Tape(faces=faces))
    return changes["roster"][person.name], report.lines  # the rolls it made for its log: `report.told`


def _bren(**state):
    return Combatant("Bren", ht=12, hp_max=12, fp_max=12, **state)


def test_gurps_inj_16_one_hp_per_successful_day_capped_at_max():
    after, lines = _run("natural_healing", _bren(hp=9), [4, 4, 4, 6, 6, 1, 1, 1, 1], days=3)
    assert after.hp == 11 and len(lines) == 4  # 12 ok, 13 fails, 3 ok
    full, lines = _run("natural_healing", _bren(hp=11), [1, 1, 1], days=5)
    assert full.hp == 12 and len(lines) == 2  # full after day 1: no more rolls


def test_gurps_inj_16_condition_modifier_counts():
    after, _ = _run("natural_healing", _bren(hp=5), [4, 4, 4], days=1, modifier=-1)
    assert after.hp == 5  # 12 vs HT 12 - 1


def test_gurps_inj_13_hp_1_wakes_after_15_minutes_without_a_roll():
    after, lines = _run("wake", _bren(hp=1, unconscious=True), [])
    assert not after.unconscious and "wakes" in lines[-1]


def test_gurps_inj_14_hp_0_hourly_ht_roll():
    awake, _ = _run("wake", _bren(hp=0, unconscious=True), [4, 4, 4])
    asleep, lines = _run("wake", _bren(hp=-11, unconscious=True), [5, 4, 4])
    assert not awake.unconscious and asleep.unconscious and "60 min" in lines[-1]


def test_gurps_inj_15_below_minus_hp_needs_care_then_rolls_against_death():
    failed, lines = _run("wake", _bren(hp=-12, unconscious=True), [6, 6, 1])
    assert failed.unconscious and failed.needs_care and "medical care" in lines[-1]
    survived, _ = _run("wake", failed, [4, 4, 4])
    assert survived.unconscious and not survived.dead
    dead, _ = _run("wake", failed, [6, 6, 1])
    assert dead.dead
    cared, _ = _run("wake", failed, [4, 4, 4], care=True)
    assert not cared.unconscious and not cared.needs_care
    woke, _ = _run("wake", _bren(hp=-12, unconscious=True), [4, 4, 4])
    assert not woke.unconscious


def test_gurps_inj_10_mortal_wound_rolls():
    crit, _ = _run("mortal", _bren(hp=-13, mortal=True), [1, 1, 1, 3, 3, 3])
    assert not crit.mortal and not crit.dead and crit.ht == 12  # recovered, then HT kept (9 <= 12)
    alive, _ = _run("mortal", _bren(hp=-13, mortal=True), [4, 4, 4])
    assert alive.mortal and not alive.dead
    dead, _ = _run("mortal", _bren(hp=-13, mortal=True), [6, 6, 1])
    assert dead.dead
    healed, _ = _run("mortal", _bren(hp=-13, mortal=True), [4, 4, 4, 3, 3, 3], healed=True)
    assert not healed.mortal


def test_gurps_inj_10_hard_to_kill_helps_the_30_minute_roll():
    saved, _ = _run("mortal", _bren(hp=-13, mortal=True, hard_to_kill=2), [6, 4, 4])
    assert saved.mortal and not saved.dead  # 14 vs 12 + 2


def test_gurps_inj_11_recovery_costs_ht_on_failure():
    after, lines = _run("mortal", _bren(hp=-13, mortal=True), [1, 1, 1, 6, 6, 1])
    assert after.ht == 11 and after.fp_max == 11 and any("HT 11" in line for line in lines)
    worse, lines = _run("mortal", _bren(hp=-13, mortal=True), [1, 1, 1, 6, 6, 6])
    assert worse.ht == 11 and "disadvantage" in lines[-1]


def test_gurps_inj_refusals():
    for op, person in (("wake", _bren(hp=5)), ("mortal", _bren(hp=-13)), ("wake", _bren(dead=True)),
                       ("wake", _bren(unconscious=True, fp=-12))):
        with pytest.raises(RuleError):
            _run(op, person, [])


def _session_with(person: Combatant) -> Session:
    s = Session(seed=5)
    s.combat._combat("add", {"combatant": person.to_dict()})
    return s


def test_gurps_inj_recovery_events_replay_and_undo():
    s = _session_with(_bren(hp=-13, mortal=True, unconscious=True))
    s.combat._combat("add", {"combatant": Combatant("Cara", ht=11, hp_max=11, hp=5).to_dict()})
    before = s.state.to_dict()
    result = s.combat.mortal_check("Bren")
    assert isinstance(result, CombatResult) and s.log[-1].kind == "combat.mortal"
    s.combat.natural_healing("Cara", 2)
    assert s.log[-1].kind == "combat.natural_healing"
    assert replay(s.active).to_dict() == s.state.to_dict()
    s.undo(2)
    assert s.state.to_dict() == before


def test_gurps_inj_16_healing_a_session_character_updates_the_sheet():
    s = Session(seed=5)
    s.gurps.char_new("Bren", ht=12)
    s.gurps.char_set("Bren", hp_lost=4)
    s.combat.natural_healing("Bren", 7)
    gained = 4 - s.gurps.character("Bren").hp_lost
    assert 0 <= gained <= 4 and s.log[-1].actor == "Bren"


def test_gurps_inj_recovery_refused_inside_a_fight():
    s = Session(seed=5)
    s.combat.start("Bren{ST=12,DX=12,HT=12,pc=1} Orc{ST=12,DX=12,HT=12}")
    with pytest.raises(RuleError, match="after it"):
        s.combat.natural_healing("Bren", 1)


def test_gurps_inj_recovery_magics(ip):
    s = current_session()
    s.combat._combat("add", {"combatant": _bren(hp=-2, unconscious=True).to_dict()})
    woke = ip.run_line_magic("wake", "Bren")
    assert isinstance(woke, CombatResult) and s.log[-1].kind == "combat.wake"
    assert isinstance(ip.run_line_magic("heal", "@Bren 3days +1 good food"), CombatResult)
    assert s.log[-1].data["args"] == {"name": "Bren", "days": 3, "modifier": 1}
    assert isinstance(ip.run_line_magic("mortal", "Bren"), ErrorResult)  # not mortally wounded
    assert isinstance(ip.run_line_magic("heal", "Bren 3weeks"), ErrorResult)
    assert isinstance(ip.run_line_magic("wake", ""), ErrorResult)


class _Faces(random.Random):
    """An RNG that hands out the given d6 faces (the session draws every die with randint)."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def test_gurps_inj_11_lost_ht_goes_back_to_the_character_sheet():
    s = Session(seed=1)
    s.gurps.char_new("Bren", ht=12)
    s.combat._combat("add", {"combatant": _bren(hp=-13, mortal=True, pc=True).to_dict()})
    s.rng = _Faces([1, 1, 2, 6, 6, 1])  # critical success (4), then 13 vs HT 12: fails
    result = s.combat.mortal_check("Bren")
    assert any("loses 1 HT" in line for line in combat_lines(result))
    assert s.gurps.character("Bren").ht == 11 and s.gurps.character("Bren").fp == 11
    assert replay(s.active).to_dict() == s.state.to_dict()
