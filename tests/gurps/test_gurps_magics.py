"""GURPS magics through a real IPython shell."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamekernel import i18n
from gamekernel.display.results import ErrorResult
from gamekernel.errors import GameKernelError
from gamekernel.gurps.rules.checks import CheckOdds, SuccessRoll
from gamekernel.gurps.rules.odds import ContestOdds
from gamekernel.magics import current_session


def _aiko(ip):
    ip.run_line_magic("char", "new Aiko dx=12 iq=12 ht=11")
    ip.run_line_magic("char", "skill Lockpicking 1")
    ip.run_line_magic("char", "trait Acute Vision 2")
    ip.run_line_magic("char", "new Guard iq=11")
    ip.run_line_magic("char", "use Aiko")


def test_magic_check_and_japanese(ip):
    _aiko(ip)
    result = ip.run_line_magic("check", "Lockpicking-5 dark")
    assert isinstance(result, SuccessRoll) and result.label == "Lockpicking" and result.target == 11 - 5
    jp = ip.run_line_magic("check", "鍵開け-5")
    assert jp.label == "Lockpicking"
    i18n.set_language("ja")
    assert "〈鍵開け〉" in str(jp)


def test_magic_check_secret_and_actor(ip):
    _aiko(ip)
    shown = ip.run_line_magic("check", "Per+2 @Guard --secret")
    assert "Secret" in repr(shown) or "secret" in repr(shown).lower()
    event = current_session().log[-1]
    assert event.secret and event.actor == "Guard"


def test_magic_errors_are_one_line(ip):
    _aiko(ip)
    count = len(current_session().log)
    for magic, line in [("check", "Lockpickin"), ("check", "Lockpicking-"), ("damage", "2d slash @Guard"),
                        ("contest", "Aiko:Stealth"), ("char", "frobnicate"), ("char", "set dx=lots"),
                        ("cr", "Greed"), ("odds", "contest 14")]:
        result = ip.run_line_magic(magic, line)
        assert isinstance(result, ErrorResult), (magic, line)
        assert "\n" not in repr(result)
    assert len(current_session().log) == count


def test_magic_contest_react_damage_fright_cr(ip):
    _aiko(ip)
    assert ip.run_line_magic("contest", "Aiko:DX vs Guard:DX").winner in ("a", "b", None)
    assert len(ip.run_line_magic("contest", "14 vs 12 --regular --rounds=3").rounds) <= 3
    assert ip.run_line_magic("react", "+2 --npc=Guard").npc == "Guard"
    damage = ip.run_line_magic("damage", "2d+1 cut @Guard --dr=1")
    roll = damage.report.damage  # a character: the combat result of the one injury path
    assert roll.dr == 1 and current_session().gurps.character("Guard").hp_lost == roll.injury
    assert ip.run_line_magic("fright", "-2").roll.label == "Fright Check"
    ip.run_line_magic("char", "trait Bad Temper")
    assert ip.run_line_magic("cr", "Bad Temper +1").roll.target == 13


def test_magic_odds_check_and_contest(ip):
    odds = ip.run_line_magic("odds", "check 12")
    assert isinstance(odds, CheckOdds) and str(odds).startswith("3d vs 12: success 74.1%")
    contest = ip.run_line_magic("odds", "contest 14 vs 12")
    assert isinstance(contest, ContestOdds) and contest.a_wins > contest.b_wins


def test_magic_char_list_save_load(ip, tmp_path):
    _aiko(ip)
    roster = ip.run_line_magic("char", "list")
    assert [c.name for c in roster.characters] == ["Aiko", "Guard"] and roster.active == "Aiko"
    saved = ip.run_line_magic("char", f"save Aiko {tmp_path / 'aiko.json'}")
    assert Path(saved.path).exists()
    loaded = ip.run_line_magic("char", f"load {Path(__file__).parent / 'data' / 'aiko.gcs'}").character
    assert loaded.name == "Aiko Tanaka"


def test_magic_sheet_widget_snapshot(ip):
    _aiko(ip)
    widget = ip.run_line_magic("sheet", "Aiko")
    data, _ = widget._repr_mimebundle_()
    assert data["text/plain"].startswith("<SheetWidget Aiko: ST 10 DX 12")
    picture = widget._record_bundle()["text/html"]  # the saved picture, in the record below the view
    assert "gk-gurps-character" in picture and "Lockpicking" in picture
    widget.handle_action("set", {"key": "dx", "value": 13})
    assert [d["value"] for d in widget.derived if d["key"] == "dodge"] == ["9"]
    widget.handle_action("roll", {"skill": "Lockpicking"})
    assert current_session().log[-1].kind == "gurps.check" and widget.last.startswith("Aiko · Lockpicking")
    widget.close()


def test_check_and_odds_choose_the_same_best_alternative(ip):
    """GURPS-SR regression: `%check 12 | 14` rolled against 14 while `%odds check 12 | 14` gave the odds of 12.
    One function (gurps.rules.checks.best_alternative) now chooses for checks, odds and contests."""
    assert ip.run_line_magic("check", "12 | 14").target == 14
    assert ip.run_line_magic("odds", "check 12 | 14").target == 14
    assert ip.run_line_magic("odds", "check 14-3 | 12").target == 12
    assert current_session().gurps.check_target("12 | 14") == 14
    contest = current_session().gurps.contest_odds("12 | 14", "10")
    assert contest == current_session().gurps.contest_odds("14", "10")
    _aiko(ip)  # with a character: the same choice among its skills and numbers
    assert ip.run_line_magic("odds", "check Lockpicking | 13").target == 13
    assert ip.run_line_magic("check", "Lockpicking | 13").target == 13


def test_check_spec_errors_name_the_column_of_the_line(ip):
    _aiko(ip)
    assert repr(ip.run_line_magic("check", "@Aiko Lockpicking+")) == (
        repr(ip.run_line_magic("check", "Lockpicking+ @Aiko")).replace("column 12", "column 18"))


def test_sheet_rolls_a_skill_whose_name_reads_like_a_modifier(ip):
    """Regression: the sheet sent the skill's display name through the check parser, so clicking
    "Area Knowledge (Route-66)" failed with "no skill 'Area Knowledge (Route'". It now sends the
    row's key, rolled without parsing."""
    from gamekernel.gurps.rules.characters import Character, Skill
    from gamekernel.gurps.widgets.sheet import SheetWidget

    session = current_session()
    session.gurps.add_character(Character(name="Aiko", iq=12, skills=(
        Skill("Area Knowledge", "IQ", "E", 2, specialization="Route-66"),)))
    widget = SheetWidget(session, name="Aiko")
    assert [row["name"] for row in widget.skills] == ["Area Knowledge (Route-66)"]
    count = len(session.log)
    widget.handle_action("roll", {"skill": "Area Knowledge (Route-66)"})
    event = session.log[-1]
    assert len(session.log) == count + 1 and event.kind == "gurps.check" and event.actor == "Aiko"
    assert event.data["result"]["label"] == "Area Knowledge (Route-66)" and event.data["result"]["target"] == 13
    widget.handle_action("roll", {"attribute": "Per"})
    assert session.log[-1].data["result"]["label"] == "Per" and session.log[-1].data["result"]["target"] == 12
    widget.handle_action("roll", {"attribute": "Dodge"})
    assert session.log[-1].data["result"]["defense"] is True
    count = len(session.log)
    for payload in ({}, {"skill": ""}, {"skill": "Lockpicking-5"}):  # nothing to roll / no such row
        with pytest.raises(GameKernelError) as error:
            widget.handle_action("roll", payload)
        assert "\n" not in str(error.value)
    assert len(session.log) == count
    widget.close()
