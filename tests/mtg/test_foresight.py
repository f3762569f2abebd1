"""Boost foresight: each failed check shows the exact chance that the scene's boost (MTG-CHK-13)
turns it into a success, checked against brute-force enumeration of every order of the unknown cards;
`boost_if_needed=True` boosts only a failure that the boost can still turn."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from gamekernel import Session
from gamekernel.errors import RuleError
from gamekernel.mtg.rules.check import action_check, boost
from gamekernel.mtg.rules.foresight import bonus_needed, boost_chance, hypergeometric_at_least
from gamekernel.mtg.rules.kinds import KINDS, MtgOptions

from .conftest import (
    DRYAD_ARBOR,
    ELVISH_MYSTIC,
    EVOLVING_WILDS,
    FIRE_ICE,
    FOREST,
    KITCHEN_FINKS,
    LIGHTNING_BOLT,
    ORNITHOPTER,
    RUNECLAW_BEAR,
    SERRA_ANGEL,
    SOL_RING,
    STEAM_VENTS,
)

PALETTE = [ELVISH_MYSTIC, RUNECLAW_BEAR, FOREST, STEAM_VENTS, ORNITHOPTER, SOL_RING, SERRA_ANGEL,
           LIGHTNING_BOLT, FIRE_ICE, KITCHEN_FINKS, DRYAD_ARBOR, EVOLVING_WILDS]


def brute_force(library, result, known: set[int], options: MtgOptions) -> Fraction:
    """Every order of the cards the player does not know, in the slots they may fill; a boost each."""
    after = [library[i] for i in result.new_order]
    exiled = len(result.known_cards)
    known_after = {p for p, i in enumerate(result.new_order) if i in known}
    slots = [p for p in range(exiled, len(after) - 2) if p not in known_after]
    wins = total = 0
    for order in itertools.permutations([after[p] for p in slots]):
        variant = list(after)
        for slot, card in zip(slots, order, strict=True):
            variant[slot] = card
        total += 1
        wins += boost(variant, result, random.Random(0), options=options).success
    return Fraction(wins, total)


def random_case(seed: int):
    """A small random library, known cards (a top run, sometimes one further down), options, a check."""
    rng = random.Random(seed)
    size = rng.randint(4, 9)
    library = [rng.choice(PALETTE) for _ in range(size)]
    known = set(range(rng.randint(0, 2)))
    if size > 5 and rng.random() < 0.4:
        known.add(rng.randrange(len(known) + 2, size))  # a known card further down stays fixed
    options = MtgOptions(boost_cards=rng.choice([6, 2, 3]), boost_colourless_lands=rng.choice(["any", "basic"]))
    kind, difficulty = rng.choice(KINDS), rng.randint(0, 10)
    result = action_check(library, kind, difficulty, random.Random(seed), known=known, options=options)
    return library, known, options, result


def _cases() -> list[int]:
    """Seeds of 40 failures whose boost chance is strictly between 0 and 1, and 30 others (the edges)."""
    between, edges = [], []
    for seed in itertools.count():
        chance = random_case(seed)[3].boost_odds
        (between if chance is not None and 0 < chance < 1 else edges).append(seed)
        if len(between) >= 40 and len(edges) >= 30:
            return between[:40] + edges[:30]
    return []


@pytest.mark.parametrize("seed", _cases())
def test_boost_foresight_equals_brute_force(seed):
    library, known, options, result = random_case(seed)
    if result.success:
        assert result.boost_odds is None
        return
    if len(library) - len(result.known_cards) - 2 == 0:
        assert result.boost_odds == 0
        with pytest.raises(RuleError):
            boost([library[i] for i in result.new_order], result, options=options)
        return
    assert result.boost_odds == brute_force(library, result, known, options)


def test_boost_foresight_known_values():
    """Target 9, achievement 7: two of the six below must count. With 4 counting cards of 6 below, all
    taken: certain; with boost_cards=2 both must count: C(4,2)/C(6,2) = 6/15."""
    library = [ELVISH_MYSTIC, RUNECLAW_BEAR, FOREST, FOREST, SOL_RING, ORNITHOPTER, SERRA_ANGEL, SERRA_ANGEL]
    result = action_check(library, "green", 8, random.Random(1))
    assert (result.target, result.achievement, result.success) == (9, 7, False)
    assert result.boost_odds == 1
    two = action_check(library, "green", 8, random.Random(1), options=MtgOptions(boost_cards=2))
    assert two.boost_odds == Fraction(6, 15)
    assert "a boost would make it a success with chance 40.0% (2/5)" in str(two)


@pytest.mark.parametrize(("args", "expected"), [
    ((10, 4, 3, 0), Fraction(1)), ((10, 4, 3, 4), Fraction(0)), ((10, 4, 3, 3), Fraction(4, 120)),
    ((5, 5, 2, 2), Fraction(1)), ((0, 0, 0, 1), Fraction(0)),
])
def test_hypergeometric_boundaries(args, expected):
    assert hypergeometric_at_least(*args) == expected


def test_bonus_needed_rounds_half_points_up():
    assert (bonus_needed(7, 9), bonus_needed(7.5, 9), bonus_needed(9, 9), bonus_needed(10, 9)) == (2, 2, 0, 0)
    assert boost_chance(7, 7, [], []) == 1


DECK = "4 Elvish Mystic\n4 Runeclaw Bear\n10 Forest\n4 Ornithopter\n4 Serra Angel\n"


@pytest.fixture
def session(tmp_path):
    session = Session(seed=4)
    session.mtg.library_load("Mira", "mira.txt", text=DECK)
    return session


def test_boost_if_needed_boosts_a_failure_the_boost_can_turn(session):
    session.mtg.library_stack("Mira", ["Elvish Mystic", "Runeclaw Bear"])
    result = session.mtg.check("green 8", boost_if_needed=True)
    assert not result.success and result.boost_odds > 0
    assert result.auto_boost is not None and session.log[-1].kind == "mtg.boost"
    assert result.auto_boost.achievement == 7 + result.auto_boost.bonus
    assert "boost" in str(result).splitlines()[5]


def test_boost_if_needed_leaves_a_success_alone(session):
    session.mtg.library_stack("Mira", ["Elvish Mystic", "Runeclaw Bear"])
    result = session.mtg.check("green 2", boost_if_needed=True)
    assert result.success and result.auto_boost is None and session.log[-1].kind == "mtg.check"
    assert not session.mtg.library_view().boost_used


def test_boost_if_needed_skips_a_boost_that_cannot_help(session):
    session.mtg.library_load("Mira", "angels.txt", text="2 Elvish Mystic\n2 Runeclaw Bear\n8 Serra Angel\n")
    session.mtg.library_stack("Mira", ["Elvish Mystic", "Runeclaw Bear"])
    result = session.mtg.check("green 8", boost_if_needed=True)
    assert result.boost_odds == 0 and result.auto_boost is None
    assert session.log[-1].kind == "mtg.check" and not session.mtg.library_view().boost_used
    assert "no boost: it cannot turn this check into a success" in str(result)


def test_boost_if_needed_says_why_when_the_boost_is_used(session):
    session.mtg.library_stack("Mira", ["Elvish Mystic", "Runeclaw Bear"])
    session.mtg.check("green 8", boost_if_needed=True)
    session.mtg.library_stack("Mira", ["Elvish Mystic", "Runeclaw Bear"])
    result = session.mtg.check("green 8", boost_if_needed=True)
    assert result.auto_boost is None and "already boosted this scene" in str(result)


def test_boost_odds_survive_the_event_log(session):
    session.mtg.library_stack("Mira", ["Elvish Mystic", "Runeclaw Bear"])
    result = session.mtg.check("green 8")
    assert session.mtg._check_from_record(session.state["mtg"].last_check["Mira"]).boost_odds == result.boost_odds
