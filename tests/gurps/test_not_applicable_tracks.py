"""Maximum FP 0 or HP 0: GCS writes 0 for the Basic Set's "N/A" (a zombie has no FP, a specter no HP).

Reading settled here: "does not apply" means the whole track, every row of the seed's tables, since
the seed says the rows are cumulative (seed 004 line 1657 for FP, GURPS-FAT-01..03; line 1598 for HP,
GURPS-INJ-01..04): such a creature is never tired, never rolls Will to act or HT to stay conscious,
never collapses, dies or falls unconscious from that track, and nothing is lost from it.
Each document is a small .gcs v5 written for the test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gamekernel.gurps.rules import fatigue as fat
from gamekernel.gurps.rules import injury as inj
from gamekernel.gurps.rules.combat import Combatant, Tape, parse_weapon
from gamekernel.gurps.rules.harm import harm, stay_conscious
from gamekernel.magics import current_session

BAD = [6, 6, 6]


def creature(name: str, *, hp_adj: int = 0, fp_adj: int = 0) -> dict[str, Any]:
    return {"version": 5, "profile": {"name": name}, "total_points": 50,
            "attributes": [{"attr_id": "st", "adj": 2}, {"attr_id": "hp", "adj": hp_adj},
                           {"attr_id": "fp", "adj": fp_adj}],
            "traits": [], "skills": [], "equipment": []}


def _load(ip, tmp_path: Path, doc: dict[str, Any]) -> Any:
    path = tmp_path / f"{doc['profile']['name'].replace(' ', '_')}.gcs"
    path.write_text(json.dumps(doc), encoding="utf-8")
    ip.run_line_magic("char", f"load {path}")
    return current_session().gurps.character(doc["profile"]["name"])


@pytest.mark.parametrize(("fp", "fp_max", "state", "tired"), [
    (0, 0, "rested", False),     # GCS's N/A: no row applies (GURPS-FAT-01..03)
    (-5, 0, "rested", False),
    (0, 1, "collapse", True),    # boundary: FP 1 applies; rows are cumulative, so tired too
    (-1, 1, "unconscious", True),
    (1, 4, "tired", True),       # GURPS-FAT-01: below a third
])
def test_gurps_fat_01_03_fp_rows_apply_only_with_a_maximum(fp, fp_max, state, tired) -> None:
    assert fat.fp_state(fp, fp_max) == state
    assert fat.is_tired(fp, fp_max) is tired


def test_gurps_fat_02_nothing_is_lost_from_fp_that_do_not_apply() -> None:
    assert fat.lose_fp(0, 0, 3) == fat.FatigueLoss(0, 0, 0)  # no HP for FP either (seed 004 line 1660)
    assert fat.lose_fp(0, 1, 2) == fat.FatigueLoss(0, -1, 2)  # FP 1 applies: both below 0 cost HP


@pytest.mark.parametrize(("hp", "hp_max", "state"), [
    (0, 0, "healthy"), (-30, 0, "healthy"),  # GCS's N/A (GURPS-INJ-01..04)
    (0, 1, "collapse"), (-5, 1, "dead"),     # HP 1 applies
])
def test_gurps_inj_01_04_hp_rows_apply_only_with_a_maximum(hp, hp_max, state) -> None:
    assert inj.hp_state(hp, hp_max) == state
    assert inj.death_checks_due(0, -40, 0) == ()
    assert inj.consciousness_penalty(-3, 0) == 0
    assert inj.is_major_wound(5, 0) is False


def test_char_load_of_a_creature_with_fp_and_hp_0_is_well_at_full_health(ip, tmp_path) -> None:
    zombie = _load(ip, tmp_path, creature("Horde Zombie", fp_adj=-10))
    specter = _load(ip, tmp_path, creature("Specter", hp_adj=-12))
    assert (zombie.fp, zombie.conditions) == (0, ())
    assert (specter.hp, specter.conditions) == (0, ())
    shown = str(ip.run_line_magic("char", "show Horde Zombie"))
    assert "unconscious" not in shown and "dead" not in str(ip.run_line_magic("char", "show Specter"))


def _zombie(**kw: Any) -> Combatant:
    return Combatant(**{"name": "Zombie", "ht": 12, "hp_max": 20, "fp_max": 0, "will": 8,
                        "weapons": (parse_weapon("Claw:12:thr cut"),), **kw})


def test_gurps_fat_02_no_will_roll_to_act_and_no_collapse_without_fp(ip) -> None:
    ip.run_line_magic("combat", "npc Zombie ST=12 HT=12 FP=0 weapon=Claw:12:thr cut")
    ip.run_line_magic("combat", "start Zombie Orc{ST=12,DX=11,HT=11}")
    fight = current_session().combat.state
    zombie = fight.get("Zombie")
    assert (zombie.fp_max, zombie.fp_state, zombie.badges()) == (0, "rested", ())
    while current_session().combat.state.current.name != "Zombie":
        ip.run_line_magic("next", "")
    events = len(current_session().log)
    ip.run_line_magic("maneuver", "Zombie attack")
    zombie = current_session().combat.state.get("Zombie")
    assert (zombie.maneuver, zombie.collapsed, zombie.posture) == ("attack", False, "standing")
    assert "Will" not in repr(current_session().log[events:])  # no Will roll to act (GURPS-FAT-02)

def test_gurps_fat_03_losing_fp_leaves_a_creature_without_fp_up_and_unhurt() -> None:
    c, report = harm(_zombie(), Tape(faces=BAD * 4), fp=5, in_fight=True)
    assert (c.fp, c.hp, c.unconscious, report.fatigue_hp) == (0, 20, False, 0)


def test_gurps_inj_02_04_no_injury_rolls_or_death_without_hp() -> None:
    specter = Combatant(name="Specter", ht=11, hp_max=0, fp_max=11)
    assert stay_conscious(specter, Tape(faces=BAD)) == (specter, None)
    c, report = harm(specter, Tape(faces=BAD * 4), injury=30, in_fight=True)
    assert (c.hp, c.dead, c.destroyed, c.unconscious, report.became, report.knockdown) == (
        0, False, False, False, (), None)
