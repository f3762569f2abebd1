"""MTG-CHK-13 and T-25: the scene boost after the achievement is known."""

import random

import pytest

from gamekernel.errors import UsageError
from gamekernel.mtg.rules.check import action_check, boost, counts_colourless_for_boost
from gamekernel.mtg.rules.kinds import MtgOptions

from .conftest import (
    DRYAD_ARBOR,
    EVOLVING_WILDS,
    FOREST,
    LIGHTNING_BOLT,
    ORNITHOPTER,
    SERRA_ANGEL,
    SOL_RING,
    STEAM_VENTS,
    WASTES,
    card,
)

SEVEN = card("Seven", 7, "B")
FIVE = card("Five", 5, "B")


def after_check(library, kind="green", difficulty=0, seed=0, known=()):
    result = action_check(library, kind, difficulty, random.Random(seed), known=known)
    return [library[i] for i in result.new_order], result


def test_t25_boost_turns_five_against_seven_into_success():
    """T-25: achievement 5 vs target 7; six exiled with 2 colourless (an artifact, a basic Forest) -> 7."""
    middle = [SOL_RING, FOREST, SERRA_ANGEL, LIGHTNING_BOLT, SERRA_ANGEL, LIGHTNING_BOLT]
    library, result = after_check([SEVEN, FIVE, *middle, SERRA_ANGEL])
    assert (result.target, result.achievement, result.success) == (7, 5, False)
    boosted = boost(library, result)
    assert [c.name for c in boosted.exiled] == [c.name for c in middle]
    assert boosted.colourless == (True, True, False, False, False, False)
    assert (boosted.bonus, boosted.achievement, boosted.success, boosted.turned) == (2, 7, True, True)
    assert next(library[i].name for i in boosted.new_order) == "Serra Angel"
    assert {library[i].name for i in boosted.new_order[1:]} == {"Seven", "Five"}
    assert "achievement 5 + 2 = 7" in str(boosted)


def test_mtg_chk_13_boost_skips_known_cards_and_the_revealed_pair():
    library = [SOL_RING, SEVEN, FIVE, *[FOREST] * 8]
    library, result = after_check(library, known={0})
    boosted = boost(library, result)
    assert len(boosted.exiled) == 6
    assert library[0].name == "Sol Ring" and 0 in boosted.new_order  # the known card stays on top
    assert boosted.new_order[0] == 0
    assert {library[i].name for i in boosted.new_order[-2:]} == {"Seven", "Five"}


@pytest.mark.parametrize(("extra", "exiled"), [(1, 1), (3, 3), (6, 6), (9, 6)])
def test_mtg_chk_13_fewer_than_six_cards_exiles_what_there_is(extra, exiled):
    library, result = after_check([SEVEN, FIVE, *[WASTES] * extra])
    boosted = boost(library, result)
    assert len(boosted.exiled) == exiled == boosted.bonus
    assert len(boosted.new_order) == len(library) - exiled


@pytest.mark.parametrize(("cards", "expected"), [
    ([ORNITHOPTER], True), ([SOL_RING], True), ([FOREST], True), ([WASTES], True), ([EVOLVING_WILDS], True),
    ([STEAM_VENTS], True), ([LIGHTNING_BOLT], False), ([DRYAD_ARBOR], False),
])
def test_mtg_chk_13_what_counts_colourless_for_the_boost(cards, expected):
    """MTG-CHK-13, seed 002 line 64: basic lands count as colourless here (not their land-type colour);
    a coloured non-basic land (Dryad Arbor, green by its indicator) does not, by default."""
    assert counts_colourless_for_boost(cards[0]) is expected


def test_mtg_chk_13_basic_is_the_default_and_any_land_stays_an_option():
    assert MtgOptions().boost_colourless_lands == "basic"
    options = MtgOptions(boost_colourless_lands="any")
    assert counts_colourless_for_boost(FOREST, options)
    assert counts_colourless_for_boost(STEAM_VENTS, options)  # colourless anyway
    assert counts_colourless_for_boost(DRYAD_ARBOR, options)  # any land counts


def test_mtg_chk_13_open_flag_boost_cards_go_to_the_bottom():
    library, result = after_check([SEVEN, FIVE, *[FOREST] * 6, SERRA_ANGEL])
    with pytest.raises(UsageError):
        boost(library, result, options=MtgOptions(boost_exile_stays=False))
    boosted = boost(library, result, random.Random(1), options=MtgOptions(boost_exile_stays=False))
    assert sorted(boosted.new_order) == list(range(len(library)))
    assert {library[i].name for i in boosted.new_order[-2:]} == {"Seven", "Five"}
    assert set(boosted.new_order[1:7]) == set(boosted.to_bottom)


def test_mtg_chk_13_boost_needs_the_library_the_check_left():
    library, result = after_check([SEVEN, FIVE, FOREST, FOREST])
    from gamekernel.errors import RuleError

    with pytest.raises(RuleError, match="changed since the check"):
        boost(library[:-1], result)


def test_mtg_chk_13_boost_once_per_scene_per_character_or_for_the_table():
    from gamekernel.errors import RuleError
    from gamekernel.mtg.rules.check import EVERYONE, require_boost
    from gamekernel.mtg.rules.kinds import MtgOptions

    own, shared = MtgOptions(), MtgOptions(boost_per_character=False)
    fresh = {"boosted": False}
    assert require_boost("Mira", own, None, fresh) == "Mira"
    assert require_boost("Mira", shared, None, fresh) == EVERYONE
    for options, user, last, why in [(own, "Mira", fresh, "already boosted this scene"),
                                     (shared, "Kai", fresh, "already used by Kai"),
                                     (own, None, None, "no check to boost"),
                                     (own, None, {"boosted": True}, "already boosted$"),
                                     (own, None, {"boosted": False, "peeked": True}, "looked at the library")]:
        with pytest.raises(RuleError, match=why):
            require_boost("Mira", options, user, last)
