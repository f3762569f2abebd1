"""Gamma World magics through a real IPython shell (fixture `ip`): the issue's command surface."""

from __future__ import annotations

import importlib.util


def run(ip, magic: str, line: str = ""):
    return ip.run_line_magic(magic, line)


def test_gw_alpha_02_deck_magics_build_and_validate(ip) -> None:
    run(ip, "deck", "new Rin alpha")
    run(ip, "deck", 'add Rin "Sap Bloom" x2')
    assert repr(run(ip, "deck", "validate Rin")) == "Rin: too few cards: 2 < 7"
    run(ip, "deck", "add Rin 剛毛の皮膚 x2")
    run(ip, "deck", 'add Rin "Sticky Pads" x3')
    assert repr(run(ip, "deck", "validate Rin")) == "Rin: 3 copies of Sticky Pads > 2"
    run(ip, "deck", 'remove Rin "Sticky Pads"')
    run(ip, "deck", "add Rin Ivory Barbs")
    assert repr(run(ip, "deck", "validate Rin")) == "Rin: ok: 7 cards"
    assert "2 × Sap Bloom" in repr(run(ip, "deck", "show Rin"))


def test_draw_tap_overcharge_encounter_and_rest_magics(ip) -> None:
    run(ip, "deck", "new Rin alpha")
    for card in ("Gravity Knot", "Thought Needle", "Heavy Knuckle", "Ember Thought"):
        run(ip, "deck", f'add Rin "{card}" x2')
    run(ip, "gw", "Rin level 4 bonus +2")
    drawn = run(ip, "draw", "alpha @Rin")
    assert "Rin draws" in repr(drawn) and "own deck" in repr(drawn)
    hand = run(ip, "hand", "Rin --static")
    first = hand.cards[0]
    assert "tapped" in repr(run(ip, "tap", f"Rin {first.uid}"))
    assert "already tapped" in repr(run(ip, "tap", f"@Rin {first.uid}"))
    second = hand.cards[1]
    result = run(ip, "overcharge", f"Rin {second.uid}")
    assert "overcharges" in repr(result) and "vs 10+" in repr(result)
    run(ip, "encounter", "start")
    ended = run(ip, "encounter", "end")
    assert "every readied card discarded and replaced" in repr(ended)
    rested = run(ip, "rest", "@Rin")
    assert "Extended rest for Rin" in repr(rested)


def test_gw_alpha_10_roll_magic_shows_the_flux_visibly(ip) -> None:
    run(ip, "gw", "new Rin")
    run(ip, "draw", "alpha @Rin")
    run(ip, "encounter", "start")
    for _ in range(400):
        result = run(ip, "roll", "1d20+4 @Rin")
        if "ALPHA FLUX" in repr(result):
            break
    text = repr(result)
    assert "ALPHA FLUX! Rin rolled a natural 1" in text
    assert result.notices[-1].kind == "gw.flux_pending"
    if importlib.util.find_spec("gamekernel.dice.render"):  # the dice renderer belongs to the core
        assert "ALPHA FLUX" in result._repr_html_()
    resolved = run(ip, "flux", "Rin")  # one readied card: no choice needed
    assert "Alpha Flux: Rin discards" in repr(resolved)


def test_errors_are_one_line(ip) -> None:
    for magic, line in (
        ("tap", "Rin"),
        ("encounter", "middle"),
        ("deck", "new"),
        ("draw", "omega"),
        ("gw", "Rin level four"),
        ("flux", "Nobody"),
    ):
        text = repr(run(ip, magic, line))
        assert text.startswith("error:") and "\n" not in text, (magic, line, text)


def test_odds_magics(ip) -> None:
    assert "= 1 − (19/20)^5 = 723901/3200000 ≈ 22.6%" in repr(run(ip, "flux", "odds 5"))
    assert "13/20 = 65.0%" in repr(run(ip, "overcharge", "odds +2"))


def test_japanese_output(ip) -> None:
    ip.run_line_magic("config", "GameKernel.language = 'ja'")
    run(ip, "deck", "new Rin alpha")
    assert "カードが足りない：0枚 < 7枚" in repr(run(ip, "deck", "validate Rin"))
    assert "樹液の花" in repr(run(ip, "deck", "add Rin Sap Bloom"))


def test_help_exists_for_every_gw_magic(ip) -> None:
    for magic in ("deck", "draw", "hand", "tap", "untap", "overcharge", "flux", "encounter", "gw"):
        assert ip.find_line_magic(magic).__doc__


def test_draw_with_no_character_says_how_to_create_one(ip) -> None:
    """GW-ALPHA-06 with nobody to draw for: not "everyone already has cards"."""
    from gamekernel.magics import current_session

    before = len(current_session().log)
    text = repr(ip.run_line_magic("draw", "alpha"))
    assert text.startswith("error:") and "%gw new Rin level 1" in text and "already" not in text
    assert len(current_session().log) == before  # nothing recorded, not even the GM deck's setup
    ip.run_line_magic("gw", "new Rin level 1")
    assert not repr(ip.run_line_magic("draw", "alpha")).startswith("error:")
