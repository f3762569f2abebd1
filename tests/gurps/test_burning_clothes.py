"""Burning clothes (GURPS-HAZ-11, HAZ-12; seed 004 lines 1726-1728): the clothes burn on after the hit
that lit them, a second (1d-4 part, 1d-1 all) at each of the victim's turns, and distract (DX-2 part,
DX-3 all, on the attack roll) until put out: a DX roll (%hazard put_out) or at once in water."""

from __future__ import annotations

import pytest

from gamekernel.errors import RuleError
from gamekernel.gurps.rules import hazards as hz
from gamekernel.session import replay
from gamekernel.table_session import Session


def _fight(seed: int = 3) -> Session:
    s = Session(seed=seed)
    s.combat.start("Aiko{ST=11,DX=13,HT=12,HP=40,weapon=Sword:14:sw cut} Orc{ST=12,DX=11,HT=11,HP=40}")
    return s


@pytest.mark.parametrize(("kind", "burning"), [("clothing_part", "part"), ("clothing_all", "all"),
                                               ("in_fire", "")])
def test_gurps_haz_11_12_the_clothes_burn_on(kind, burning) -> None:
    s = _fight()
    s.combat.hazard(kind, "Aiko")
    assert s.combat.state.get("Aiko").burning == burning


def test_haz_12_the_worse_fire_stays() -> None:
    assert hz.clothes_lit("clothing_part", "all") == "all"
    assert hz.clothes_lit("clothing_all", "part") == "all"
    assert hz.clothes_lit("in_fire", "part") == "part"


def test_gurps_haz_11_a_second_burns_at_each_of_the_victims_turns_and_dx_minus_2() -> None:
    s = _fight()
    s.combat.hazard("clothing_part", "Aiko")
    while s.combat.state.current.name == "Aiko":
        s.combat.next()
    hp = s.combat.state.get("Aiko").hp
    result = None
    while s.combat.state.current.name != "Aiko":
        result = s.combat.next()
    assert "clothes burn (a second)" in str(result) and "1d-4 burn" in str(result)  # the second's roll, shown
    burn = result.report.burn
    assert hp - s.combat.state.get("Aiko").hp == burn.damage.injury >= 1  # minimum 1 through DR 0
    s.combat.maneuver("Aiko", "attack")
    attack = str(s.combat.attack("Aiko", "Orc", "Sword"))
    assert "Sword 14 −2 (clothing on fire)" in attack  # DX-2 on the attack roll
    assert replay(s.active).to_dict() == s.state.to_dict()


def test_gurps_haz_11_12_put_out_by_a_dx_roll_or_water() -> None:
    outs = set()
    for seed in range(60):
        s = _fight(seed)
        s.combat.hazard("clothing_part", "Aiko")
        s.combat.hazard("put_out", "Aiko")
        outs.add(s.combat.state.get("Aiko").burning)
    assert outs == {"", "part"}  # a DX 13 roll: both results seen
    s = _fight()
    s.combat.hazard("clothing_all", "Aiko")
    s.combat.hazard("water", "Aiko")
    assert s.combat.state.get("Aiko").burning == ""
    events = len(s.log)
    with pytest.raises(RuleError):
        s.combat.hazard("put_out", "Aiko")  # nothing burns: refused, nothing recorded
    assert len(s.log) == events


def test_gurps_cmb_51_burning_clothes_cost_1_on_defence() -> None:
    from gamekernel.gurps.rules import combat as cb
    from gamekernel.gurps.rules import defenses as dfn

    s = _fight()
    s.combat.hazard("clothing_part", "Aiko")
    fight = s.combat.state
    who = cb.state.defender_state(fight, fight.get("Aiko"), dfn.Incoming(), "Orc")
    assert dict((label, v) for v, label in dfn.defense_modifiers("dodge", who, dfn.Incoming()))["distracted"] == -1
