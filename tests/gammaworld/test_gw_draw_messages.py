"""What a draw says it did (GW-ALPHA-04, -09 and the empty-deck options): an own deck smaller than the
level's draw names both decks the cards came from; a reshuffle that had to take back the cards just
discarded says so; a deck with cards left but too few is not called empty."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.errors import RuleError
from gamekernel.gammaworld.rules.state import GM_DECK


def small_own_deck() -> Session:
    session = Session(seed=3)
    session.gw.deck_new("Rin")
    session.gw.deck_add("Rin", "Sap Bloom", 1)
    session.gw.character("Rin", level=8)  # three readied cards, one in the own deck
    return session


def test_gw_alpha_04_a_short_own_deck_names_both_sources():
    session = small_own_deck()
    shown = str(session.gw.draw("Rin"))
    assert "from the own deck (1) and, once it ran out, the GM deck (2)" in shown
    detail = session.log[-1].data["detail"]
    assert detail["source"] == "own" and detail["from_gm"] == 2
    homes = [session.gw.state.table.card(u).home for u in session.gw.state.readied("Rin")]
    assert homes.count(GM_DECK) == 2


def test_gw_alpha_04_a_full_own_deck_draw_says_own_deck_only():
    session = Session(seed=3)
    session.gw.deck_new("Rin")
    for card in ("Sap Bloom", "Bristle Hide", "Sticky Pads", "Gravity Knot"):
        session.gw.deck_add("Rin", card, 2)
    session.gw.character("Rin", level=8)
    shown = str(session.gw.draw("Rin"))
    assert "from the own deck (level 8" in shown and "from_gm" not in session.log[-1].data["detail"]


def test_gw_alpha_09_reshuffle_message_matches_what_came_back():
    session = small_own_deck()
    session.gw.draw("Rin")
    session.gw.encounter_start()
    shown = str(session.gw.encounter_end())
    # the own deck's only card was just discarded: nothing else could come back, so it did
    assert "only the cards just discarded could come back, so they were shuffled back in" in shown
    assert "(the cards just discarded stay out)" not in shown


def test_gw_alpha_09_reshuffle_that_kept_the_discarded_out_says_so():
    session = Session(seed=5)
    session.gw.deck_new("Rin")
    session.gw.deck_add("Rin", "Sap Bloom", 2)
    session.gw.character("Rin", level=1)
    session.gw.draw("Rin")  # 1 readied, 1 in the deck
    session.gw.encounter_start()
    session.gw.encounter_end()  # discards the first, draws the second: deck empty, 1 discard
    session.gw.encounter_start()
    shown = str(session.gw.encounter_end())  # the older discard comes back, the one just discarded stays out
    assert "(the cards just discarded stay out)" in shown


def test_a_deck_with_cards_left_is_not_called_empty():
    session = Session(seed=2)
    session.gw.config(empty_gm_deck="error")
    session.gw.character("Ash", level=8, new=True)  # draws 3 at a time from the GM deck
    session.gw.draw("Ash")
    left = len(session.gw.state.table.order(GM_DECK))
    while left >= 3:
        session.gw.encounter_end(force=True)
        left = len(session.gw.state.table.order(GM_DECK))
    if left == 0:
        pytest.skip("the GM deck divides by three")
    with pytest.raises(RuleError) as refused:
        session.gw.encounter_end(force=True)
    assert str(refused.value).startswith(f"cannot draw 3 cards: the GM deck holds only {left} and")
    assert "is empty" not in str(refused.value)
