"""The library view counts the cards known at the bottom (MTG-CHK-12): `%library` text, its HTML, the
library widget and the players' page say "2 known at the bottom" in both languages, as a count only; a
shuffle forgets them. Which revealed card lies where is never shown (its order came from the secret
stream)."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.i18n import set_language
from gamekernel.mtg.widgets.library import LibraryWidget
from gamekernel.table.view import players_facts

DECK = "4 Elvish Mystic\n4 Runeclaw Bear\n2 Serra Angel"


@pytest.fixture
def session():
    session = Session(seed=1)
    session.mtg.library_load("P", "small.txt", text=DECK)
    session.mtg.library_stack("P", ["Serra Angel", "Serra Angel"])
    yield session
    set_language("en")


def test_mtg_chk_12_no_line_before_any_check(session):
    view = session.mtg.library_view("P")
    assert view.known_bottom == 0
    assert "at the bottom" not in str(view) and "at the bottom" not in view._repr_html_()


def test_mtg_chk_12_library_text_html_and_widget_count_the_pair(session):
    session.mtg.check("green", 2, actor="P")
    view = session.mtg.library_view("P")
    assert view.known_bottom == 2
    assert "2 known at the bottom (order unknown, MTG-CHK-12)" in str(view)
    assert "gk-mtg-known-bottom" in view._repr_html_() and "2 known at the bottom" in view._repr_html_()
    widget = LibraryWidget(session, "P")
    try:
        assert widget.known_bottom == 2
        assert widget.labels["known_bottom_label"] == "Known bottom"
        assert widget.labels["known_bottom_note"] == "order unknown (MTG-CHK-12)"
        session.mtg.check("white", 0, actor="P")  # a second pair: the first one is still at the bottom
        assert widget.known_bottom == 4
    finally:
        widget.close()


def test_mtg_chk_12_japanese(session):
    session.mtg.check("green", 2, actor="P")
    set_language("ja")
    assert "一番下に2枚が分かっている（順番は不明、MTG-CHK-12）" in str(session.mtg.library_view("P"))
    widget = LibraryWidget(session, "P")
    try:
        assert widget.labels["known_bottom_note"] == "順番は不明（MTG-CHK-12）"
    finally:
        widget.close()


def test_mtg_chk_12_a_shuffle_forgets_the_bottom(session):
    session.mtg.check("green", 2, actor="P")
    session.mtg.library_reset("P")
    assert session.mtg.library_view("P").known_bottom == 0


def test_mtg_chk_12_players_see_the_count_never_the_order(session):
    session.mtg.check("green", 2, actor="P")
    row = players_facts(session)["mtg"][0]
    assert row["known_bottom"] == 2
    assert set(row) == {"name", "library", "known_top", "known_bottom", "boost_used"}  # no card order
