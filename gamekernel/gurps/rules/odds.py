"""Exact odds for GURPS rolls: success rolls and quick contests, as Fractions over 3d outcomes.

Counts come from the 216 equally likely 3d totals, judged by the same predicates as checks.py, so
the odds shown with a result can never disagree with the verdict (GURPS-SR-02..08, SR-10).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from gamekernel.display import Displayable

# the odds of one success roll are the checks' own (checks.py gives them with each roll); re-exported
# here beside the contests' odds
from gamekernel.gurps.rules.checks import (  # noqa: F401
    OUTCOMES_3D6,
    CheckOdds,
    check_odds,
    classify,
    three_d6_counts,
)


@cache
def _margin_distribution(target: int) -> dict[tuple[bool, int], int]:
    """Ways to get each (success, margin) where margin = MoS on success and MoF on failure (>= 0)."""
    dist: dict[tuple[bool, int], int] = {}
    for total, ways in three_d6_counts().items():
        ok, _ = classify(total, target)
        margin = max(0, target - total) if ok else max(0, total - target)
        key = (ok, margin)
        dist[key] = dist.get(key, 0) + ways
    return dist


def quick_contest_rank(success: bool, margin: int) -> int:
    """Orders quick-contest outcomes (GURPS-SR-10): any success beats any failure; larger MoS
    wins; smaller MoF wins. Higher rank wins; equal rank ties."""
    return 1000 + margin if success else -margin


@dataclass(frozen=True)
class ContestOdds(Displayable):
    """Exact odds of a quick contest between two effective skills."""

    a: int
    b: int
    a_wins: Fraction
    b_wins: Fraction
    tie: Fraction

    def __repr__(self) -> str:
        return f"<ContestOdds {self}>"


@cache
def quick_contest_odds(a: int, b: int) -> ContestOdds:
    """P(A wins), P(B wins), P(tie) for a Quick Contest of effective A vs effective B (SR-10)."""
    da, db = _margin_distribution(a), _margin_distribution(b)
    wins = losses = ties = 0
    for (ok_a, m_a), ways_a in da.items():
        rank_a = quick_contest_rank(ok_a, m_a)
        for (ok_b, m_b), ways_b in db.items():
            rank_b = quick_contest_rank(ok_b, m_b)
            n = ways_a * ways_b
            if rank_a > rank_b:
                wins += n
            elif rank_a < rank_b:
                losses += n
            else:
                ties += n
    whole = OUTCOMES_3D6 * OUTCOMES_3D6
    return ContestOdds(a, b, Fraction(wins, whole), Fraction(losses, whole), Fraction(ties, whole))


def regular_contest_odds(a: int, b: int) -> ContestOdds:
    """P(A eventually wins) of a Regular Contest without a round cap (SR-12): a round decides only
    when exactly one side succeeds, so P(A) = pA(1-pB) / (pA(1-pB) + pB(1-pA)). `tie` = P(a round
    is undecided)."""
    pa = check_odds(a).success
    pb = check_odds(b).success
    a_only = pa * (1 - pb)
    b_only = pb * (1 - pa)
    decided = a_only + b_only
    undecided = 1 - decided
    if decided == 0:
        return ContestOdds(a, b, Fraction(0), Fraction(0), Fraction(1))
    return ContestOdds(a, b, a_only / decided, b_only / decided, undecided)


