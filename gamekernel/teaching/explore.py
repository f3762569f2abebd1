"""Exact figures for the odds explorers (a teaching feature): every number an explorer shows is computed here,
as Fractions, from the rule sets' own odds (gurps.odds, mtg.odds/foresight, gammaworld.odds); the
widgets only display them and send the control values back.

- `check_curve`: success, critical success, critical failure over effective skill (GURPS-SR-02..08).
- `contest_grid`: Quick Contest win/lose/tie over both skills (SR-10) and the expected rounds of a
  Regular Contest (SR-12: a round decides only when exactly one side succeeds; rounds are geometric).
- `library_grid`: MtG success by colour x difficulty for a library, without and with a boost
  (MTG-CHK-05..13), given what the table knows of its order (the cards at the bottom, MTG-CHK-12).
- `alpha_figures`: at least one Alpha Flux over N d20 rolls (GW-ALPHA-10), overcharge success by
  origin bonus (GW-ALPHA-13/14).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction

from gamekernel.gammaworld.rules.odds import p_flux, p_overcharge
from gamekernel.gurps.rules.odds import check_odds, quick_contest_odds
from gamekernel.mtg.rules.facts import CardFacts
from gamekernel.mtg.rules.foresight import boosted_check_odds
from gamekernel.mtg.rules.kinds import DEFAULT_OPTIONS, KINDS, USUAL_DIFFICULTIES, MtgOptions
from gamekernel.mtg.rules.odds import Groups
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
                 options: MtgOptions = DEFAULT_OPTIONS, *, known: Collection[int] = (),
                 unordered: Groups = ()) -> Fraction | None:
    """P(success) of a check when a failure is always boosted (MTG-CHK-13), given what the table knows
    of the order (mtg/rules/foresight.py `boosted_check_odds`)."""
    return boosted_check_odds(library, kind, difficulty, known=known, unordered=unordered, options=options)


def library_grid(library: Sequence[CardFacts], difficulties: Sequence[int] = USUAL_DIFFICULTIES,
                 options: MtgOptions = DEFAULT_OPTIONS, *, known: Collection[int] = (),
                 unordered: Groups = ()) -> tuple[tuple[LibraryCell, ...], ...]:
    """Rows: the check kinds; columns: the difficulties; each cell without and with a boost, exact
    given the known positions and groups (the odds model of `%odds check`, MTG-CHK-04, -12)."""
    return tuple(tuple(LibraryCell(kind, d, mtg_check_odds(library, kind, d, known=known, unordered=unordered,
                                                           options=options),
                                   boosted_odds(library, kind, d, options, known=known, unordered=unordered))
                       for d in difficulties)
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
