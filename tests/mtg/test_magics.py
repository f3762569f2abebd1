"""MtG magics through a real IPython shell: %library, %check (dispatched), %boost, %scene, %odds check."""

import pytest

DECK = "4 Elvish Mystic\n4 Runeclaw Bear\n12 Forest\n4 Steam Vents\n4 Ornithopter\n"


@pytest.fixture
def deck(tmp_path):
    path = tmp_path / "mira.txt"
    path.write_text(DECK, encoding="utf-8")
    return path


def test_mtg_check_forms_dispatch(ip, deck):
    loaded = ip.run_line_magic("library", f"load Mira {deck}")
    assert "28 cards" in str(loaded)
    for line in ("green 2 @Mira", "G2", "緑2", "colorless 3", "Green [2] @Mira"):
        result = ip.run_line_magic("check", line)
        assert "target" in str(result), (line, str(result))


def test_mtg_magics_boost_scene_odds_peek_view(ip, deck):
    ip.run_line_magic("library", f"load Mira {deck}")
    # a check that fails, so the boost may follow: target 2 + 3, achievement 0 (the order used to be
    # the public dice's luck; it comes from the secret stream now, GW-ALPHA-10)
    ip.run_line_magic("library", "stack Runeclaw Bear, Ornithopter @Mira")
    assert "failure" in str(ip.run_line_magic("check", "W3 @Mira"))
    boosted = ip.run_line_magic("boost", "@Mira")
    assert "boost" in str(boosted)
    again = ip.run_line_magic("boost", "@Mira")
    assert "already boosted" in str(again)
    assert "Scene 2" in repr(ip.run_line_magic("scene", ""))
    assert "success" in str(ip.run_line_magic("odds", "check green 2 @Mira"))
    assert "known top: " in str(ip.run_line_magic("library", "peek 2 @Mira"))
    assert "Success chance" in str(ip.run_line_magic("library", "odds @Mira"))
    assert "Mira's library" in str(ip.run_line_magic("library", "view"))
    widget = ip.run_line_magic("library", "show @Mira")
    assert "Mira's library" in repr(widget) and "gk-mtg-library" in widget.snapshot_html()
    widget.close()


def test_mtg_magic_errors_are_one_line(ip, deck):
    assert "no character has a library" in str(ip.run_line_magic("check", "green 2"))
    assert "usage: %library" in str(ip.run_line_magic("library", "frobnicate"))
    assert "cannot read the decklist" in str(ip.run_line_magic("library", "load Mira missing.txt"))


def test_gurps_checks_are_not_taken_for_mtg():
    from gamekernel.mtg.magics import looks_like_mtg_check

    assert looks_like_mtg_check("green 2") and looks_like_mtg_check("緑2") and looks_like_mtg_check("C 0")
    assert not looks_like_mtg_check("Lockpicking-5") and not looks_like_mtg_check("12")
    assert not looks_like_mtg_check("ST") and not looks_like_mtg_check("Black Market")
    # a colour alone or with a bad difficulty is still MtG's line (and gets MtG's error)
    assert looks_like_mtg_check("green") and looks_like_mtg_check("green 2.5") and looks_like_mtg_check("赤：2")


@pytest.mark.parametrize("line", ["green 2.5 @Mira", "green", "green two", "G2.5"])
def test_a_malformed_mtg_check_gets_mtgs_error_not_gurps(ip, line):
    """Regression: %check picks the rule set by the words (a colour first), not by a failed parse, so a
    bad MtG line gets MtG's error (it used to be GURPS's "no active character")."""
    from gamekernel.magics import current_session

    before = len(current_session().log)
    message = repr(ip.run_line_magic("check", line))
    assert message.startswith("error: ") and "active character" not in message, message
    assert "colour" in message, message  # MtG's messages name the colours
    odds = repr(ip.run_line_magic("odds", f"check {line}"))
    assert "colour" in odds and "active character" not in odds, odds
    assert len(current_session().log) == before


def test_mtg_check_refuses_the_gurps_secret_flag(ip, deck):
    ip.run_line_magic("library", f"load Mira {deck}")
    assert repr(ip.run_line_magic("check", "green 2 --secret")) == (
        "error: unknown option --secret at column 9 (known: --boost-if-needed)")


def _top(count: int) -> list[str]:
    from gamekernel.magics import current_session
    from gamekernel.mtg.actions import library_zone

    table = current_session().mtg.state.table
    return [table.card(uid).def_id for uid in table.order(library_zone("Mira"))[:count]]


@pytest.mark.parametrize(("line", "top"), [
    ("Urborg, Tomb of Yawgmoth, Forest", ["Urborg, Tomb of Yawgmoth", "Forest"]),
    ("ヨーグモスの墳墓、アーボーグ、森", ["Urborg, Tomb of Yawgmoth", "Forest"]),
    ('"Urborg, Tomb of Yawgmoth", Elvish Mystic', ["Urborg, Tomb of Yawgmoth", "Elvish Mystic"]),
    ("《ヨーグモスの墳墓、アーボーグ》、Elvish Mystic", ["Urborg, Tomb of Yawgmoth", "Elvish Mystic"]),
    ("Forest, Elvish Mystic, Urborg, Tomb of Yawgmoth", ["Forest", "Elvish Mystic", "Urborg, Tomb of Yawgmoth"]),
])
def test_library_stack_names_a_card_with_a_comma(ip, tmp_path, line, top):
    """`%library stack` split every comma, so 'Urborg, Tomb of Yawgmoth' was two unknown cards."""
    path = tmp_path / "u.txt"
    path.write_text("4 Urborg, Tomb of Yawgmoth\n4 Forest\n4 Elvish Mystic\n", encoding="utf-8")
    ip.run_line_magic("library", f"load Mira {path}")
    ip.run_line_magic("library", "stack " + line)
    assert _top(len(top)) == top


def test_library_stack_still_names_an_unknown_part(ip, tmp_path):
    path = tmp_path / "u.txt"
    path.write_text("4 Urborg, Tomb of Yawgmoth\n4 Forest\n", encoding="utf-8")
    ip.run_line_magic("library", f"load Mira {path}")
    shown = str(ip.run_line_magic("library", "stack Forest, Urborg"))
    assert "unknown card 'Urborg'" in shown


def test_odds_check_on_a_library_that_cannot_be_checked_says_why(ip, tmp_path):
    """MTG-CHK-04: 3 cards, 2 of them known on top -> 1 left, no check; it printed `— (—)`."""
    path = tmp_path / "small.txt"
    path.write_text("3 Forest\n", encoding="utf-8")
    ip.run_line_magic("library", f"load Mira {path}")
    ip.run_line_magic("library", "peek 2 @Mira")
    shown = str(ip.run_line_magic("odds", "check green 2 @Mira"))
    assert "(—)" not in shown
    assert shown == ("Mira: green check [2]: no chance to give — the library has 1 card left after exiling "
                     "2 known top cards of 3, and a check needs 2 (MTG-CHK-04)")
