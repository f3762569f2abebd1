"""MTG-CHK-02, -03, -07, -08: check kinds, their aliases, the colour pentagon and the modifier."""

import pytest

from gamekernel.errors import UsageError
from gamekernel.mtg.rules.kinds import (
    ALLIES,
    COLOURLESS,
    KINDS,
    MtgOptions,
    colour_modifier,
    parse_check_spec,
    parse_kind,
    relation,
)


def test_mtg_chk_02_six_kinds():
    assert KINDS == ("white", "blue", "black", "red", "green", "colourless")


@pytest.mark.parametrize(("text", "kind"), [
    ("white", "white"), ("W", "white"), ("白", "white"), ("u", "blue"), ("青", "blue"), ("Black", "black"),
    ("黒", "black"), ("R", "red"), ("赤", "red"), ("GREEN", "green"), ("緑", "green"), ("C", COLOURLESS),
    ("colorless", COLOURLESS), ("colourless", COLOURLESS), ("無色", COLOURLESS), ("緑判定", "green"),
    ("ｇｒｅｅｎ", "green"),
])
def test_mtg_chk_02_kind_aliases(text, kind):
    assert parse_kind(text) == kind


def test_mtg_chk_02_unknown_kind_is_a_usage_error_naming_the_choices():
    with pytest.raises(UsageError, match=r"purple.*white, blue, black, red, green, colourless"):
        parse_kind("purple")


@pytest.mark.parametrize(("spec", "expected"), [
    ("green 2", ("green", 2)), ("G2", ("green", 2)), ("緑2", ("green", 2)), ("colorless 3", ("colourless", 3)),
    ("Green [2]", ("green", 2)), ("緑判定［２］", ("green", 2)), ("W0", ("white", 0)), ("red 9", ("red", 9)),
    ("blue -1", ("blue", -1)), ("C 12", ("colourless", 12)),
])
def test_mtg_chk_01_check_spec_forms(spec, expected):
    assert parse_check_spec(spec) == expected


@pytest.mark.parametrize("spec", ["green", "2", "", "G two", "green 2 3"])
def test_mtg_chk_01_bad_spec_is_a_usage_error(spec):
    with pytest.raises(UsageError):
        parse_check_spec(spec)


def test_mtg_chk_08_allied_pairs_are_pentagon_neighbours():
    assert ALLIES == {"white": ("green", "blue"), "blue": ("white", "black"), "black": ("blue", "red"),
                      "red": ("black", "green"), "green": ("red", "white")}
    for colour, allies in ALLIES.items():  # symmetric
        for ally in allies:
            assert colour in ALLIES[ally]


@pytest.mark.parametrize(("kind", "colour", "value", "rel"), [
    ("green", "green", 5, "same"), ("green", "white", 3, "allied"), ("green", "red", 3, "allied"),
    ("green", "blue", 0, "other"), ("green", "black", 0, "other"), ("green", None, 0, "colourless"),
    ("white", "blue", 3, "allied"), ("white", "black", 0, "other"), ("white", "red", 0, "other"),
    ("blue", "red", 0, "other"), ("black", "green", 0, "other"),
    (COLOURLESS, "green", 0, "other"), (COLOURLESS, None, 0, "colourless"),
])
def test_mtg_chk_07_colour_modifier(kind, colour, value, rel):
    assert colour_modifier(kind, colour) == value
    assert relation(kind, colour) == rel


def test_mtg_chk_07_open_flag_colourless_check_rewarding_colourless_cards():
    options = MtgOptions(colourless_check_rewards_colourless=True)
    assert colour_modifier(COLOURLESS, None, options) == 5
    assert colour_modifier(COLOURLESS, "red", options) == 0
    assert colour_modifier("red", None, options) == 0


@pytest.mark.parametrize(("typed", "close"),
                         [("grene", "green"), ("gren", "green"), ("bleu", "blue"), ("whte", "white")])
def test_mtg_chk_02_a_misspelt_colour_is_named_with_the_likely_one(typed, close):
    """Did-you-mean for words: a near miss names the colour it looks like, and is never read as it."""
    with pytest.raises(UsageError) as caught:
        parse_check_spec(f"{typed} 2")
    assert f"unknown check colour '{typed}': did you mean {close}?" in str(caught.value)
    with pytest.raises(UsageError) as caught:
        parse_kind("Lockpicking")  # nothing close: the list only
    assert "did you mean" not in str(caught.value) and "green" in str(caught.value)
