"""Exact figures for the odds explorers (a teaching feature): every number an explorer shows is computed here,
as Fractions, from the rule sets' own odds (gurps.odds, mtg.odds/foresight, gammaworld.odds); the
widgets only display them and send the control values back.

- `check_curve`: success, critical success, critical failure over effective skill (GURPS-SR-02..08).
- `contest_grid`: Quick Contest win/lose/tie over both skills (SR-10) and the expected rounds of a
  Regular Contest (SR-12: a round decides only when exactly one side succeeds; rounds are geometric).
- `library_grid`: MtG success by colour x difficulty for a library's composition, without and with
  a boost (MTG-CHK-05..13).
- `alpha_figures`: at least one Alpha Flux over N d20 rolls (GW-ALPHA-10), overcharge success by
  origin bonus (GW-ALPHA-13/14).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from gamekernel.gammaworld.rules.odds import p_flux, p_overcharge
from gamekernel.gurps.rules.odds import check_odds, quick_contest_odds
from gamekernel.mtg.rules.facts import CardFacts
from gamekernel.mtg.rules.foresight import bonus_needed, counts_colourless_for_boost, hypergeometric_at_least
from gamekernel.mtg.rules.kinds import DEFAULT_OPTIONS, KINDS, USUAL_DIFFICULTIES, MtgOptions, colour_modifier
from gamekernel.mtg.rules.odds import check_odds as mtg_check_odds

SKILLS = tuple(range(3, 19))  # effective skills where 3d6 outcomes still change


@dataclass(frozen=True)
class CurvePoint:
    skill: int
    success: Fraction
    critical_success: Fraction
    critical_failure: Fraction


def check_curve(skills: Sequence[int] = SKILLS) -> tuple[CurvePoint, ...]:
    """Success and criticals at each effective skill."""
    points = []
    for skill in skills:
        odds = check_odds(skill)
        points.append(CurvePoint(skill, odds.success, odds.critical_success, odds.critical_failure))
    return tuple(points)


@dataclass(frozen=True)
class ContestCell:
    a: int
    b: int
    a_wins: Fraction
    b_wins: Fraction
    tie: Fraction
    regular_rounds: Fraction | None  # expected rounds of a Regular Contest (None: it never ends)


def expected_regular_rounds(a: int, b: int) -> Fraction | None:
    """SR-12: each round ends the contest with p = pA(1-pB) + pB(1-pA); the mean of a geometric is 1/p."""
    pa, pb = check_odds(a).success, check_odds(b).success
    decided = pa * (1 - pb) + pb * (1 - pa)
    return None if decided == 0 else 1 / decided


def contest_grid(a: int, b: int, spread: int = 3) -> tuple[tuple[ContestCell, ...], ...]:
    """Rows: A's skill a-spread..a+spread; columns: B's skill likewise (skills kept within 3..18)."""
    rows = []
    for skill_a in _around(a, spread):
        row = []
        for skill_b in _around(b, spread):
            odds = quick_contest_odds(skill_a, skill_b)
            row.append(ContestCell(skill_a, skill_b, odds.a_wins, odds.b_wins, odds.tie,
                                   expected_regular_rounds(skill_a, skill_b)))
        rows.append(tuple(row))
    return tuple(rows)


def _around(centre: int, spread: int) -> range:
    low = min(max(3, centre - spread), 18 - 2 * spread)
    return range(low, low + 2 * spread + 1)


@dataclass(frozen=True)
class LibraryCell:
    kind: str
    difficulty: int
    success: Fraction | None
    with_boost: Fraction | None


def boosted_odds(library: Sequence[CardFacts], kind: str, difficulty: int,
                 options: MtgOptions = DEFAULT_OPTIONS) -> Fraction | None:
    """P(success) of a check from a shuffled library when a failure is always boosted (MTG-CHK-13):
    over every ordered pair (target card, achievement card) and the achievement card's colour, a
    failure short by k succeeds when at least k of the next `boost_cards` cards count as colourless."""
    total = len(library)
    if total <= 1:
        return None
    signature = Counter((c.mana_value, c.achievement_colours, counts_colourless_for_boost(c, options))
                        for c in library)
    colourless = sum(n for (_, _, boosts), n in signature.items() if boosts)
    favourable = Fraction(0)
    for first, n_first in signature.items():
        for second, n_second in signature.items():
            pairs = n_first * (n_second - (first == second))
            if not pairs:
                continue
            rest = total - 2
            rest_colourless = colourless - first[2] - second[2]
            colours = second[1] or (None,)
            chance = Fraction(0)
            for colour in colours:
                achievement = second[0] + colour_modifier(kind, colour, options)
                need = bonus_needed(achievement, first[0] + difficulty)
                chance += hypergeometric_at_least(rest, rest_colourless, min(options.boost_cards, rest), need)
            favourable += pairs * chance / len(colours)
    return favourable / (total * (total - 1))


def library_grid(library: Sequence[CardFacts], difficulties: Sequence[int] = USUAL_DIFFICULTIES,
                 options: MtgOptions = DEFAULT_OPTIONS) -> tuple[tuple[LibraryCell, ...], ...]:
    """Rows: the check kinds; columns: the difficulties; each cell without and with a boost."""
    return tuple(tuple(LibraryCell(kind, d, mtg_check_odds(library, kind, d, options=options),
                                   boosted_odds(library, kind, d, options)) for d in difficulties)
                 for kind in KINDS)


@dataclass(frozen=True)
class AlphaFigures:
    flux: tuple[tuple[int, Fraction], ...]  # (d20 rolls in the encounter, P(at least one flux))
    overcharge: tuple[tuple[int, Fraction], ...]  # (origin bonus, P(overcharge succeeds))


def alpha_figures(rolls: int, bonus: int, success_min: int = 10) -> AlphaFigures:
    """Flux chance for 1..rolls d20 rolls; overcharge success for bonuses around `bonus`."""
    flux = tuple((n, p_flux(n)) for n in range(1, max(1, rolls) + 1))
    low = max(-5, bonus - 4)
    overcharge = tuple((b, p_overcharge(b, success_min)) for b in range(low, low + 10))
    return AlphaFigures(flux, overcharge)
