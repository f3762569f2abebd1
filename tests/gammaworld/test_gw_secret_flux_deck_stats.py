"""GW-ALPHA-10: a public deck statistic (`%deck odds`, `%deck show`) reads the deck the players know;
`--gm` reads the true deck, marked GM-only."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gamekernel.errors import UsageError
from gamekernel.gammaworld.rules.state import GM_DECK
from gamekernel.i18n import set_language, t
from tests.gammaworld.test_gw_secret_flux_resolved import resolve_secretly, table

GM_ONLY = t("gammaworld.deck.gm_only", text="").strip()


def test_gw_alpha_10_public_deck_odds_count_the_secret_draw_still_in_the_deck() -> None:
    s = table()
    before = s.gw.state.table.count(GM_DECK)
    _, replacement, _ = resolve_secretly(s)
    seen = s.gw.deck_odds("GM", replacement, 3)
    assert (seen.result.deck_size, seen.result.copies) == (before, 1)  # what the players know
    assert seen.probability == Fraction(3, before) and GM_ONLY not in repr(seen)
    true = s.gw.deck_odds("GM", replacement, 3, gm=True)
    assert (true.result.deck_size, true.result.copies, true.probability) == (before - 1, 0, 0)
    assert GM_ONLY in repr(true) and GM_ONLY in true._repr_html_()


def test_gw_alpha_10_draws_beyond_the_public_deck_are_refused_by_its_size() -> None:
    s = table()
    _, replacement, _ = resolve_secretly(s)
    size = s.gw.deck_show("GM").in_deck
    assert s.gw.deck_odds("GM", replacement, size).probability == 1  # the whole deck the players know
    with pytest.raises(UsageError) as error:  # the true deck holds one card less
        s.gw.deck_odds("GM", replacement, size, gm=True)
    assert str(error.value) == t("gammaworld.err.odds_draws", owner="GM", size=size - 1, draws=size)


def test_gw_alpha_10_deck_show_gm_counts_the_true_deck_marked(ip) -> None:
    from gamekernel.magics import current_session

    ip.run_line_magic("seed", "5")
    s = current_session()
    for who, level in (("Rin", 4), ("Bob", 1)):
        s.gw.character(who, level=level, new=True)
        s.gw.draw(who)
    s.gw.encounter_start()
    size = s.gw.state.table.count(GM_DECK)
    _, replacement, _ = resolve_secretly(s)
    public = ip.run_line_magic("deck", "show GM")
    gm = ip.run_line_magic("deck", "show GM --gm")
    assert (public.in_deck, gm.in_deck) == (size, size - 1)
    assert GM_ONLY not in repr(public) and GM_ONLY in repr(gm) and GM_ONLY in gm._repr_html_()
    odds = ip.run_line_magic("deck", f"odds GM {replacement} 3 --gm")
    assert odds.result.copies == 0 and GM_ONLY in repr(odds)
    assert ip.run_line_magic("deck", f"odds GM {replacement} 3").result.copies == 1


def test_gw_alpha_10_the_gm_mark_is_japanese_too() -> None:
    s = table()
    _, replacement, _ = resolve_secretly(s)
    set_language("ja")
    try:
        assert "GMのみ" in repr(s.gw.deck_show("GM", gm=True)) and "GMのみ" not in repr(s.gw.deck_show("GM"))
        assert "GMのみ" in repr(s.gw.deck_odds("GM", replacement, 3, gm=True))
    finally:
        set_language("en")
