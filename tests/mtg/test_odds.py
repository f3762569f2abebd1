"""Exact odds of MTG-CHK checks against brute-force enumeration of small libraries."""

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamekernel.mtg.rules.kinds import colour_modifier
from gamekernel.mtg.rules.odds import check_odds, colour_distribution, odds_table

from .conftest import (
    DRYAD_ARBOR,
    ELVISH_MYSTIC,
    FIRE_ICE,
    FOREST,
    ISLAND,
    KITCHEN_FINKS,
    LIGHTNING_BOLT,
    ORNITHOPTER,
    RUNECLAW_BEAR,
    SERRA_ANGEL,
    SOL_RING,
    STEAM_VENTS,
    card,
)

POOL = [ELVISH_MYSTIC, RUNECLAW_BEAR, FOREST, ISLAND, STEAM_VENTS, FIRE_ICE, SOL_RING, ORNITHOPTER,
        LIGHTNING_BOLT, SERRA_ANGEL, KITCHEN_FINKS, DRYAD_ARBOR, card("Big", 6, "B")]


def brute_force(library, kind, difficulty, known=frozenset()):
    """Every arrangement of the unknown cards into the unknown positions, every colour choice."""
    exiled = 0
    while exiled in known:
        exiled += 1
    unknown_positions = [i for i in range(exiled, len(library)) if i not in known]
    unknown_cards = [library[i] for i in unknown_positions]
    total = Fraction(0)
    count = 0
    for perm in itertools.permutations(range(len(unknown_cards))):
        arranged = list(library)
        for pos, index in zip(unknown_positions, perm, strict=True):
            arranged[pos] = unknown_cards[index]
        first, second = arranged[exiled], arranged[exiled + 1]
        colours = second.achievement_colours or (None,)
        wins = sum(second.mana_value + colour_modifier(kind, c) >= first.mana_value + difficulty for c in colours)
        total += Fraction(wins, len(colours))
        count += 1
    return total / count


@pytest.mark.parametrize("kind", ["white", "blue", "black", "red", "green", "colourless"])
@pytest.mark.parametrize("difficulty", [0, 2, 5])
def test_mtg_chk_odds_match_brute_force_on_a_small_library(kind, difficulty):
    library = [ELVISH_MYSTIC, RUNECLAW_BEAR, STEAM_VENTS, FIRE_ICE, SOL_RING, FOREST]
    assert check_odds(library, kind, difficulty) == brute_force(library, kind, difficulty)


def test_mtg_chk_odds_with_known_prefix_and_known_second_card():
    library = [SOL_RING, ELVISH_MYSTIC, RUNECLAW_BEAR, STEAM_VENTS, FIRE_ICE, FOREST]
    for known in ({0}, {0, 2}, {1}, {0, 1}, {3}):
        for kind in ("green", "white"):
            assert check_odds(library, kind, 2, known=known) == brute_force(library, kind, 2, known), known


def test_mtg_chk_odds_none_when_no_check_possible():
    assert check_odds([ELVISH_MYSTIC, RUNECLAW_BEAR], "green", 2, known={0}) is None


def test_t22_odds_of_the_two_card_library():
    """T-22's two cards alone: Mystic then Bear 7 >= 3, Bear then Mystic 6 >= 4; a blue check fails both."""
    assert check_odds([ELVISH_MYSTIC, RUNECLAW_BEAR], "green", 2) == 1
    assert check_odds([ELVISH_MYSTIC, RUNECLAW_BEAR], "green", 5) == Fraction(1, 2)  # 7 >= 6, 6 < 7
    assert check_odds([ELVISH_MYSTIC, RUNECLAW_BEAR], "blue", 2) == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(POOL), min_size=2, max_size=6),
       st.sampled_from(["white", "blue", "black", "red", "green", "colourless"]), st.integers(-1, 9),
       st.sets(st.integers(0, 5), max_size=3))
def test_mtg_chk_odds_property_equal_to_enumeration(library, kind, difficulty, known):
    known = {k for k in known if k < len(library)}
    expected = None
    exiled = 0
    while exiled in known:
        exiled += 1
    if len(library) - exiled > 1:
        expected = brute_force(library, kind, difficulty, frozenset(known))
    assert check_odds(library, kind, difficulty, known=known) == expected


def test_mtg_chk_odds_agree_with_many_seeded_checks():
    """A sanity check of the meaning: the frequency over all orders of a 4-card library equals the odds."""
    from gamekernel.mtg.rules.check import action_check

    library = [ELVISH_MYSTIC, STEAM_VENTS, FIRE_ICE, SERRA_ANGEL]
    wins = Fraction(0)
    perms = list(itertools.permutations(library))
    for perm in perms:
        for seed in range(8):
            wins += action_check(list(perm), "white", 1, random.Random(seed), with_odds=False).success
    exact = check_odds(library, "white", 1)
    assert abs(float(wins / (len(perms) * 8)) - float(exact)) < 0.1


def test_mtg_chk_odds_table_shape_and_values():
    library = [ELVISH_MYSTIC, RUNECLAW_BEAR, STEAM_VENTS, FIRE_ICE, SOL_RING, FOREST]
    table = odds_table(library)
    assert table.kinds[-1] == "colourless" and table.difficulties == tuple(range(9))
    assert table.chance("G", 2) == check_odds(library, "green", 2)
    for row in table.cells:  # harder never helps
        assert all(a >= b for a, b in itertools.pairwise(row))
    assert "Success chance by check colour" in str(table)
    assert "gk-mtg-odds" in table._repr_html_()


def test_mtg_chk_colour_distribution_counts_land_types_and_multicolour():
    counts = colour_distribution([STEAM_VENTS, FOREST, FIRE_ICE, SOL_RING, KITCHEN_FINKS])
    assert counts["blue"] == 2 and counts["red"] == 2 and counts["green"] == 2 and counts["white"] == 1
    assert counts["colourless"] == 1 and counts["multicolour"] == 3 and counts["land"] == 2


def pair_sum_odds(library, kind, difficulty, known):
    """An independent reference for large libraries: the sum over ordered pairs of unknown cards,
    grouped only by identical cards (MTG-CHK-04, -10, -11), with a Fraction per pair group."""
    exiled = 0
    while exiled in known:
        exiled += 1
    if len(library) - exiled <= 1:
        return None
    unknown = [library[i] for i in range(exiled, len(library)) if i not in known]
    if exiled + 1 in known:
        pairs = [(first, library[exiled + 1], 1) for first in unknown]
        total = len(unknown)
    else:
        counts = {}
        for facts in unknown:
            counts[facts] = counts.get(facts, 0) + 1
        pairs = [(first, second, n1 * (n2 - (first == second))) for first, n1 in counts.items()
                 for second, n2 in counts.items()]
        total = len(unknown) * (len(unknown) - 1)
    favourable = Fraction(0)
    for first, second, ways in pairs:
        colours = second.achievement_colours or (None,)
        wins = sum(second.mana_value + colour_modifier(kind, c) >= first.mana_value + difficulty for c in colours)
        favourable += ways * Fraction(wins, len(colours))
    return favourable / total


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([*POOL, card("Half", 0.5, "U"), card("Guild", 2, "WUB")]), min_size=0,
                max_size=60),
       st.sets(st.integers(0, 8), max_size=4))
def test_mtg_chk_odds_table_equals_cell_by_cell_exact_odds(library, known):
    """The 54-cell table shares one count of the library; every cell is still the exact chance."""
    known = {k for k in known if k < len(library)}
    table = odds_table(library, known=known)
    for row, kind in zip(table.cells, table.kinds, strict=True):
        for cell, difficulty in zip(row, table.difficulties, strict=True):
            expected = pair_sum_odds(library, kind, difficulty, known)
            assert cell == expected, (kind, difficulty)
            assert cell is None or isinstance(cell, Fraction)
