"""GURPS through the session: characters as events, replay, undo, secrets, GURPS-SR/RR/DMG in play."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.errors import NotFoundError, UsageError
from gamekernel.gurps.actions import GurpsState
from gamekernel.gurps.rules.checks import SuccessRoll
from gamekernel.session import replay


def _table(seed=3):
    s = Session(seed=seed)
    s.gurps.char_new("Aiko", dx=12, iq=12, ht=11, skills=[("Lockpicking", 1, 9), ("Stealth", 4)],
               traits=["Combat Reflexes", ("Acute Vision", 2), "Bad Temper", "Voice"])
    s.gurps.char_new("Guard", iq=11, activate=False)
    return s


def test_session_check_is_logged_with_dice_and_replays():
    s = _table()
    result = s.gurps.check("Lockpicking-5 dark")
    event = s.log[-1]
    assert event.kind == "gurps.check" and event.actor == "Aiko"
    assert SuccessRoll.from_dict(event.data["result"]) == result
    assert result.target == 4 and len(result.dice) == 3
    assert replay(s.active).to_dict() == s.state.to_dict()


def test_session_check_same_seed_same_dice():
    assert _table(9).gurps.check("Stealth").dice == _table(9).gurps.check("Stealth").dice


def test_session_secret_check_is_flagged():
    s = _table()
    result = s.gurps.check("Per+2 --secret")
    assert result.secret and s.log[-1].secret


def test_session_raw_number_without_characters():
    s = Session(seed=1)
    assert s.gurps.check("12").target == 12
    with pytest.raises(UsageError, match="no active character"):
        s.gurps.check("Stealth")


def test_session_char_set_recomputes_and_undo_restores():
    s = _table()
    before = s.state.to_dict()
    assert s.gurps.char_set("Aiko", dx=14).dodge == 10
    s.undo()
    assert s.state.to_dict() == before and s.gurps.character("Aiko").dx == 12


def test_session_bad_edit_changes_nothing():
    s = _table()
    count = len(s.log)
    with pytest.raises(UsageError):
        s.gurps.char_set("Aiko", dx="many")
    with pytest.raises(UsageError, match="did you mean"):
        s.gurps.char_set("Aiko", dxx=3)
    with pytest.raises(NotFoundError, match="did you mean Aiko"):
        s.gurps.character("Aiok")  # a typo (a start, "Aik", names Aiko)
    assert len(s.log) == count


def test_session_damage_applies_injury_to_a_known_target():
    s = _table()
    s.gurps.char_set("Guard", dr=2)
    result = s.gurps.damage("2d+1 cut", target="Guard")  # a character: through the one injury path
    roll = result.report.damage
    assert roll.dr == 2
    assert s.gurps.character("Guard").hp_lost == roll.injury
    assert s.gurps.character("Guard").current_hp == 10 - roll.injury
    s.undo()
    assert s.gurps.character("Guard").hp_lost == 0


def test_session_damage_sw_uses_attacker_st():
    s = _table()
    s.gurps.char_set("Aiko", st=13)
    result = s.gurps.damage("sw+2 cut", target="Goblin")
    assert (result.spec.dice, result.spec.adds) == (2, 1) and result.target == "Goblin"


def test_session_contest_react_fright_cr_influence_roundtrip():
    s = _table()
    contest = s.gurps.contest("Aiko:Stealth vs Guard:Per")
    assert contest.a.target == 13 and contest.b.target == 11
    regular = s.gurps.contest("Aiko:ST vs Guard:ST", regular=True, max_rounds=5)
    assert 1 <= len(regular.rounds) <= 5
    reaction = s.gurps.react("+2 good approach", npc="Guard")
    assert {m.label for m in reaction.modifiers} >= {"Voice", "good approach"}
    fright = s.gurps.fright("-2")
    assert fright.roll.target == 12 + 2 - 2
    control = s.gurps.self_control("Bad Temper")
    assert control.roll.target == 12
    with pytest.raises(NotFoundError):
        s.gurps.self_control("Greed")
    influence = s.gurps.influence("Fast-Talk", "Guard")
    assert influence.contest.b.label == "Will"
    assert replay(s.active).to_dict() == s.state.to_dict()
    for event in s.log:
        assert isinstance(event.to_json(), str)


def test_session_char_save_load_and_gcs(tmp_path):
    s = _table()
    saved = s.gurps.char_save("Aiko", tmp_path / "aiko.json")
    other = Session(seed=1)
    loaded = other.gurps.char_import(saved.path).character
    assert loaded == s.gurps.character("Aiko")
    from pathlib import Path

    gcs = other.gurps.char_import(Path(__file__).parent / "data" / "aiko.gcs").character
    assert gcs.name == "Aiko Tanaka" and other.gurps.state.active == "Aiko Tanaka"


def test_session_char_add_skill_and_trait():
    s = _table()
    s.gurps.char_add_skill("鍵開け", 8, name="Guard")
    s.gurps.char_add_trait("Combat Reflexes", name="Guard")
    guard = s.gurps.character("Guard")
    assert guard.skill_level("Lockpicking").level == 13 and guard.dodge == 9
    assert s.gurps.state.active == "Aiko"


def test_gurps_state_part_roundtrip():
    s = _table()
    s.gurps.check("Stealth")
    part = s.state["gurps"]
    assert GurpsState.from_dict(part.to_dict()).to_dict() == part.to_dict()


def test_gurps_ch_28_situation_for_a_custom_trait_is_refused_not_a_crash():
    """A custom trait (from GCS, no catalog entry) has no self-control situations: naming one is the
    same one-line refusal as rolling it without one, and nothing is logged."""
    from gamekernel.errors import RuleError
    from gamekernel.gurps.rules.characters import Character
    from gamekernel.gurps.rules.traits import Trait

    s = Session(seed=1)
    s.gurps.add_character(Character(name="Aiko", traits=(Trait(id="", name="Odd Habit", points=-5),)))
    logged = len(s.log)
    for situation in ("", "mere threat"):
        with pytest.raises(RuleError, match="Odd Habit is not a known disadvantage with a self-control roll"):
            s.gurps.self_control("Odd Habit", situation=situation)
    assert len(s.log) == logged
