"""Luck (GURPS-ADV-19..21): reroll twice, keep the best of three, once per period of play."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.display.results import ErrorResult
from gamekernel.errors import RuleError
from gamekernel.gurps.rules.characters import Character
from gamekernel.gurps.rules.checks import success_roll
from gamekernel.gurps.rules.luck import LuckResult, luck_level, luck_reroll, recovered_after
from gamekernel.gurps.rules.traits import make_trait
from gamekernel.magics import current_session
from gamekernel.session import replay


def _table(trait="Luck", seed=4):
    s = Session(seed=seed)
    s.gurps.char_new("Aiko", dx=12, iq=12, skills=[("Lockpicking", 1, 9)], traits=[trait])
    s.gurps.char_new("Bren", activate=False)
    return s


def test_gurps_adv_19_keeps_best_of_three():
    original = success_roll(9, [(-5, "dark")], label="Lockpicking", actor="Aiko", dice=(6, 5, 4))
    level = luck_level(Character("Aiko", traits=(make_trait("Luck"),)))
    result = luck_reroll(original, level, [(6, 6, 5), (2, 1, 1)])
    assert [r.total for r in result.rolls] == [15, 17, 4]
    assert result.kept.total == 4 and result.kept.critical == "success" and result.kept_index == 2
    assert result.kept.target == original.target and result.kept.modifiers == original.modifiers


def test_gurps_adv_19_original_kept_when_rerolls_are_worse():
    original = success_roll(12, label="Stealth", dice=(3, 3, 3))
    level = luck_level(Character("Aiko", traits=(make_trait("Luck"),)))
    result = luck_reroll(original, level, [(4, 4, 4), (6, 6, 6)])
    assert result.kept_index == 0 and result.kept.success
    assert LuckResult.from_dict(result.to_dict()) == result


def test_gurps_adv_19_20_21_intervals_and_best_level():
    levels = {name: luck_level(Character("X", traits=(make_trait(name),))) for name in
              ("Luck", "Extraordinary Luck", "Ridiculous Luck")}
    assert {n: lv.every_minutes for n, lv in levels.items()} == {
        "Luck": 60, "Extraordinary Luck": 30, "Ridiculous Luck": 10}
    both = Character("X", traits=(make_trait("Luck"), make_trait("Ridiculous Luck")))
    assert luck_level(both).every_minutes == 10
    assert luck_level(Character("X")) is None
    assert recovered_after(levels["Extraordinary Luck"], 30) and not recovered_after(levels["Luck"], 59)
    assert recovered_after(levels["Luck"], None)


def test_gurps_adv_19_session_reroll_logged_replayed_undone():
    s = _table()
    s.gurps.check("Lockpicking-5 dark")
    before = s.state.to_dict()
    result = s.gurps.luck()
    event = s.log[-1]
    assert event.kind == "gurps.luck" and event.actor == "Aiko"
    assert len(result.rerolls) == 2 and result.kept.total == min(r.total for r in result.rolls)
    assert s.gurps.state.last_check["Aiko"]["dice"] == list(result.kept.dice)
    assert replay(s.active).to_dict() == s.state.to_dict()
    s.undo()
    assert s.state.to_dict() == before


def test_gurps_adv_19_once_per_period_then_reset():
    s = _table()
    s.gurps.check("Lockpicking")
    s.gurps.luck()
    s.gurps.check("Lockpicking")
    count = len(s.log)
    with pytest.raises(RuleError, match="already used Luck"):
        s.gurps.luck()
    assert len(s.log) == count
    s.gurps.luck_reset(minutes=30)  # not enough for plain Luck (60 min)
    with pytest.raises(RuleError, match="already used"):
        s.gurps.luck()
    s.gurps.luck_reset(minutes=60)
    assert s.gurps.luck().actor == "Aiko"


def test_gurps_adv_20_extraordinary_luck_back_after_30_minutes():
    s = _table("Extraordinary Luck")
    s.gurps.check("Lockpicking")
    s.gurps.luck()
    s.gurps.luck_reset(minutes=30)
    assert not s.gurps.luck_status().rows[0][3]


def test_gurps_adv_19_refusals_change_nothing():
    s = _table()
    with pytest.raises(RuleError, match="no success roll"):
        s.gurps.luck()
    with pytest.raises(RuleError, match="has no Luck"):
        s.gurps.luck("Bren")
    s.gurps.check("Lockpicking")
    s.gurps.react("+1", actor="Aiko")  # something else happened: too late to declare Luck
    count, state = len(s.log), s.state.to_dict()
    with pytest.raises(RuleError, match="right after the roll"):
        s.gurps.luck()
    s.gurps.check("Lockpicking-9")  # effective 0: not rolled, nothing to reroll
    with pytest.raises(RuleError, match="not rolled"):
        s.gurps.luck()
    assert s.state.to_dict()["gurps"]["luck_used"] == state["gurps"]["luck_used"] == {}
    assert len(s.log) == count + 1


def test_gurps_adv_19_cannot_reroll_a_lucky_roll_twice():
    s = _table("Ridiculous Luck")
    s.gurps.check("Lockpicking")
    s.gurps.luck()
    s.gurps.luck_reset()
    with pytest.raises(RuleError, match="already rerolled"):
        s.gurps.luck()


def test_gurps_adv_19_secret_roll_stays_secret():
    s = _table()
    s.gurps.check("Lockpicking", secret=True)
    assert s.gurps.luck().secret and s.log[-1].secret


def test_gurps_adv_19_magic_luck_reset_status(ip):
    ip.run_line_magic("char", "new Aiko dx=12")
    ip.run_line_magic("char", "trait Luck")
    ip.run_line_magic("check", "DX")
    result = ip.run_line_magic("luck", "@Aiko")
    assert isinstance(result, LuckResult) and "best of 3" in str(result)
    again = ip.run_line_magic("luck", "")
    assert isinstance(again, ErrorResult) and "already" in str(again)
    assert "spent" in str(ip.run_line_magic("luck", "status"))
    assert "ready" in str(ip.run_line_magic("luck", "reset 1h"))
    assert current_session().log[-1].kind == "gurps.luck.reset"
    assert isinstance(ip.run_line_magic("luck", "sideways"), ErrorResult)


def test_gurps_adv_19_luck_uses_survive_a_snapshot():
    from gamekernel.gurps.actions import GurpsState

    s = _table()
    s.gurps.check("Lockpicking")
    s.gurps.luck()
    part = s.state["gurps"]
    assert GurpsState.from_dict(part.to_dict()).to_dict() == part.to_dict()
    assert part.to_dict()["luck_used"] == {"Aiko": 1}
