"""MTG-CHK-13 guards decided from seed 002 (the house rule's own text), and MtG options as events.

Seed 002, line 64: 「達成値が決まった後、1シーンに1回だけ、達成値の数字を上げることが出来る。
ライブラリーの一番上から6枚のカードを追放。追放したカードの中にある無色のカードの数だけ、達成値がプラスされる。」
Line 61: 「PLが、ライブラリーの一番上のカードを知っている場合、そのカードは判定中は追放して、判定後に同じ順番で
戻す。（つまり《師範の占い独楽》等のライブラリー操作で、判定を成功させることは不可。）」
Lines 35-36: success iff 達成値 >= 目標値 (nothing but the comparison decides the outcome).

- A peek between the check and its boost: refused. The boost belongs to the check ("after the achievement
  is decided", before step 5), and line 61 rules out turning library knowledge into a success; after a
  peek the player would boost only when the exiled cards are known to help.
- Nothing to exile (only known and revealed cards left): refused; a boost of +0 would only burn the
  scene's use (line 64 raises the achievement by the colourless cards exiled: none).
- A check that already succeeded: refused; raising the achievement cannot change a success (35-36).
"""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.errors import RuleError, UsageError
from gamekernel.session import replay

DECK = "4 Elvish Mystic\n4 Runeclaw Bear\n10 Forest\n4 Ornithopter\n4 Serra Angel\n"


def _session(tmp_path, *names: str, log=None) -> Session:
    session = Session(seed=11, log_path=log)
    for name in names:
        path = tmp_path / f"{name}.txt"
        path.write_text(DECK, encoding="utf-8")
        session.mtg.library_load(name, path)
    return session


def _failed_check(session: Session, actor: str):
    """The seed's pair against difficulty 8: target 1 + 8 = 9, achievement 2 + 5 = 7: a failure."""
    session.mtg.library_stack(actor, ["Elvish Mystic", "Runeclaw Bear"])
    result = session.mtg.check("green 8", actor=actor)
    assert not result.success
    return result


def _unchanged(session: Session):
    return session.state.to_dict(), len(session.log)


def test_mtg_chk_13_seed_002_61_64_boost_refused_after_a_peek(tmp_path):
    session = _session(tmp_path, "Mira")
    _failed_check(session, "Mira")
    session.mtg.library_peek(2, "Mira")
    before = _unchanged(session)
    with pytest.raises(RuleError, match="Mira looked at the library after the check"):
        session.mtg.boost("Mira")
    assert _unchanged(session) == before


def test_mtg_chk_13_peek_before_the_check_does_not_block_its_boost(tmp_path):
    session = _session(tmp_path, "Mira")
    session.mtg.library_stack("Mira", ["Elvish Mystic", "Runeclaw Bear"])
    session.mtg.library_peek(1, "Mira")  # known top card: exiled during the check (MTG-CHK-04)
    session.mtg.library_stack("Mira", ["Serra Angel", "Elvish Mystic", "Runeclaw Bear"])
    session.mtg.library_peek(1, "Mira")
    assert not session.mtg.check("green 8", actor="Mira").success
    assert session.mtg.boost("Mira").exiled


def test_mtg_chk_13_seed_002_64_boost_refused_with_nothing_to_exile(tmp_path):
    session = Session(seed=3)
    session.mtg.library_load("Mira", "tiny.txt", text="1 Serra Angel\n1 Elvish Mystic\n1 Runeclaw Bear\n")
    session.mtg.library_stack("Mira", ["Serra Angel", "Elvish Mystic", "Runeclaw Bear"])
    session.mtg.library_peek(1, "Mira")  # Serra Angel known: exiled; the pair is the whole rest
    result = session.mtg.check("green 8")
    assert not result.success and len(result.known_cards) == 1
    before = _unchanged(session)
    with pytest.raises(RuleError, match="no card to exile for a boost"):
        session.mtg.boost("Mira")
    assert _unchanged(session) == before
    assert not session.mtg.library_view().boost_used  # the scene's boost is still there


def test_mtg_chk_13_seed_002_35_boost_refused_on_a_success(tmp_path):
    session = _session(tmp_path, "Mira")
    session.mtg.library_stack("Mira", ["Elvish Mystic", "Runeclaw Bear"])
    assert session.mtg.check("green 2").success  # the seed's own example: 7 >= 3
    before = _unchanged(session)
    with pytest.raises(RuleError, match="Mira's check already succeeded"):
        session.mtg.boost("Mira")
    assert _unchanged(session) == before


def test_mtg_chk_13_once_per_table_names_who_used_it(tmp_path):
    session = _session(tmp_path, "Mira", "Bren")
    session.mtg.config(boost_per_character=False)
    _failed_check(session, "Mira")
    session.mtg.boost("Mira")
    _failed_check(session, "Bren")
    with pytest.raises(RuleError, match="already used by Mira"):
        session.mtg.boost("Bren")
    assert session.mtg.library_view("Bren").boost_used


def test_mtg_chk_13_per_character_default_lets_another_character_boost(tmp_path):
    session = _session(tmp_path, "Mira", "Bren")
    _failed_check(session, "Mira")
    session.mtg.boost("Mira")
    _failed_check(session, "Bren")
    session.mtg.boost("Bren")
    with pytest.raises(RuleError, match="Mira has already boosted this scene"):
        _failed_check(session, "Mira")
        session.mtg.boost("Mira")


def test_mtg_config_is_an_event_applied_to_existing_libraries_and_replayed(tmp_path):
    log = tmp_path / "log.jsonl"
    session = _session(tmp_path, "Mira", "Bren", log=log)
    _failed_check(session, "Mira")
    session.mtg.boost("Mira")
    assert not session.mtg.library_view("Bren").boost_used
    shown = session.mtg.config(boost_per_character=False, boost_cards="4")
    assert shown.changes == {"boost_per_character": False, "boost_cards": 4}
    assert "boost_per_character=False" in str(shown)
    assert session.log[-1].kind == "mtg.config"
    assert session.mtg.library_view("Bren").boost_used  # the existing library follows the new option
    assert session.mtg.options.boost_cards == 4
    assert replay(session.active).to_dict() == session.state.to_dict()
    session.close()
    resumed = Session()
    resumed.attach_log(log)
    assert resumed.mtg.options.boost_per_character is False and resumed.mtg.options.boost_cards == 4
    resumed.undo()
    assert resumed.mtg.options.boost_per_character is True


def test_mtg_config_boost_cards_option_is_used_by_the_boost(tmp_path):
    session = _session(tmp_path, "Mira")
    session.mtg.config(boost_cards=2)
    _failed_check(session, "Mira")
    assert len(session.mtg.boost("Mira").exiled) == 2


@pytest.mark.parametrize(("changes", "message"), [
    ({"boost_per_table": True}, "unknown MtG option 'boost_per_table'"),
    ({"boost_per_character": "maybe"}, "boost_per_character: 'maybe' is not allowed; use true, false"),
    ({"boost_cards": 0}, "boost_cards: 0 is not allowed"),
    ({"boost_colourless_lands": "some"}, "'some' is not allowed; use any, basic"),
])
def test_mtg_config_refuses_bad_options_and_records_nothing(tmp_path, changes, message):
    session = _session(tmp_path, "Mira")
    before = _unchanged(session)
    with pytest.raises(UsageError, match=message):
        session.mtg.config(**changes)
    assert _unchanged(session) == before


def test_mtg_config_without_changes_records_nothing(tmp_path):
    session = _session(tmp_path, "Mira")
    before = _unchanged(session)
    assert "boost_cards=6" in str(session.mtg.config())
    session.mtg.config(boost_cards=6)  # already so
    assert _unchanged(session) == before
