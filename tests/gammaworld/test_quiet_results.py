"""A Gamma World command that changes one card or none (a tap, a deck edit) shows one status line and
how to see the hand, not the whole hand; a draw, which deals cards, still shows them."""

from __future__ import annotations

from gamekernel import Session, i18n


def _table() -> Session:
    s = Session(seed=7)
    s.gw.character("Rin", level=4, new=True)
    s.gw.encounter_start()
    s.gw.draw("Rin")
    return s


def test_a_tap_shows_a_status_line_and_the_hand_command_not_the_cards():  # GW-ALPHA-08
    s = _table()
    card = s.gw.hand("Rin").cards[0].card_id
    html = s.gw.tap("Rin", card)._repr_html_()
    assert "gk-hand-cards" not in html
    assert "%hand Rin shows the cards" in html
    assert "readied" in html  # the one-line status


def test_a_deck_edit_shows_no_hand():
    s = Session(seed=7)
    s.gw.character("Rin", level=4, new=True)
    html = s.gw.deck_new("Rin")._repr_html_()
    assert "gk-hand-cards" not in html and "%hand Rin" in html


def test_a_draw_still_shows_the_cards_dealt():
    s = Session(seed=7)
    s.gw.character("Rin", level=4, new=True)
    assert "gk-hand-cards" in s.gw.draw("Rin")._repr_html_()


def test_the_hand_hint_is_japanese_in_japanese():
    s = Session(seed=7)
    s.gw.character("Rin", level=4, new=True)
    i18n.set_language("ja")
    assert "カードは %hand Rin で表示します" in s.gw.deck_new("Rin")._repr_html_()
