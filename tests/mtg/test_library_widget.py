"""The library widget (usable as a form): labelled figures, Boost disabled with the rules' reason (MTG-CHK-13),
the difficulty checked by `%check`'s rule (MTG-CHK-03), every label translated."""

import pytest

from gamekernel import Session
from gamekernel.errors import UsageError
from gamekernel.i18n import set_language
from gamekernel.mtg.widgets.library import LibraryWidget

DECK = "Deck\n4 Elvish Mystic\n4 Runeclaw Bear\n12 Forest\n4 Steam Vents\n4 Ornithopter\n"


@pytest.fixture
def widget(tmp_path):
    path = tmp_path / "mira.txt"
    path.write_text(DECK, encoding="utf-8")
    session = Session(seed=7)
    session.mtg.library_load("Mira", path)
    session.mtg.library_stack("Mira", ["Elvish Mystic", "Runeclaw Bear"])
    view = LibraryWidget(session, "Mira")
    yield view
    view.close()
    set_language("en")


def _send(widget, **content):
    widget._on_custom_message(widget, content, [])


@pytest.mark.parametrize("difficulty", ["-4", "-1"])
def test_mtg_chk_03_negative_difficulty_refused_as_the_magic_refuses_it(widget, difficulty):
    session = widget.session
    with pytest.raises(UsageError) as magic:
        session.mtg.check("green", int(difficulty), actor="Mira")
    mark = len(session.log)
    _send(widget, action="check", kind="green", difficulty=difficulty)
    assert widget.error == str(magic.value) and f"difficulty {difficulty} is below 0" in widget.error
    assert len(session.log) == mark


def test_mtg_chk_03_difficulty_zero_accepted(widget):
    _send(widget, action="check", kind="green", difficulty="0")
    assert widget.error == "" and widget.last_check["difficulty"] == 0


def test_mtg_chk_13_boost_refused_with_the_rules_reason_until_a_failed_check(widget):
    session = widget.session
    assert "no check to boost" in widget.boost_refused  # nothing to boost yet
    widget.handle_action("check", {"kind": "green", "difficulty": "2"})  # the seed's example: a success
    assert "already succeeded" in widget.boost_refused
    widget.handle_action("check", {"kind": "green", "difficulty": "8"})  # target >= 8: a failure
    assert not widget.last_check["success"] and widget.boost_refused == ""
    assert session.mtg.boost_refusal("Mira") is None
    mark = len(session.log)
    assert session.mtg.boost_refusal("Mira") is None and len(session.log) == mark  # asking records nothing
    widget.handle_action("boost", {})
    assert "already boosted this scene" in widget.boost_refused
    widget.handle_action("scene", {})
    assert "already boosted" not in widget.boost_refused


def test_figures_are_labelled_with_their_formula(widget):
    widget.handle_action("check", {"kind": "green", "difficulty": "2"})
    last = widget.last_check
    assert last["target_formula"] == "first card Elvish Mystic (1) + difficulty 2" and last["target"] == 3
    assert last["achievement_formula"].startswith("second card Runeclaw Bear (2) +5")
    labels = widget.labels
    assert (labels["target"], labels["achievement"], labels["cards_left"], labels["known_top"]) == (
        "Target", "Achievement", "Cards left", "Known top")
    assert (labels["button_check"], labels["button_boost"], labels["button_scene"]) == ("Check", "Boost", "New scene")


def test_every_label_translated_in_japanese(widget):
    set_language("ja")
    widget._refresh_synced()
    labels = widget.labels
    assert (labels["button_check"], labels["button_boost"], labels["button_scene"]) == (
        "判定", "達成値の上昇", "新しい場面")
    assert (labels["target"], labels["achievement"], labels["cards_left"], labels["difficulty"]) == (
        "目標値", "達成値", "残り枚数", "難易度")
