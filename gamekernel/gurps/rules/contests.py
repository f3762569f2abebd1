"""GURPS contests: Quick Contests with margin of victory, Regular Contests round by round.

    quick_contest(a: SuccessRoll, b: SuccessRoll) -> QuickContest        # GURPS-SR-10, SR-11
    roll_quick_contest(a_base, b_base, *, a_mods=(), b_mods=(), rng=None, dice=None, ...) -> QuickContest
    regular_contest(a_base, b_base, *, rng=None, dice=None, max_rounds=20, ...) -> RegularContest  # SR-12

Contest rolls are always made (a side below effective 3 still rolls; only 3-4 can save it), so
`always_roll=True` is passed to success_roll.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gamekernel.display import Displayable
from gamekernel.errors import UsageError
from gamekernel.gurps.rules.checks import SuccessRoll, success_roll
from gamekernel.gurps.rules.odds import ContestOdds, quick_contest_odds, quick_contest_rank, regular_contest_odds
from gamekernel.i18n import t


def margin_of_victory(a: SuccessRoll, b: SuccessRoll) -> int:
    """GURPS-SR-11: both succeed -> difference of margins of success; one succeeds -> winner's MoS +
    loser's MoF; both fail -> difference of margins of failure."""
    if a.success and b.success:
        return abs(a.margin_of_success - b.margin_of_success)
    if not a.success and not b.success:
        return abs(a.margin_of_failure - b.margin_of_failure)
    winner, loser = (a, b) if a.success else (b, a)
    return winner.margin_of_success + loser.margin_of_failure


def quick_winner(a: SuccessRoll, b: SuccessRoll) -> str | None:
    """GURPS-SR-10: "a", "b" or None for a tie."""
    rank_a = quick_contest_rank(a.success, a.margin_of_success if a.success else a.margin_of_failure)
    rank_b = quick_contest_rank(b.success, b.margin_of_success if b.success else b.margin_of_failure)
    if rank_a == rank_b:
        return None
    return "a" if rank_a > rank_b else "b"


@dataclass(frozen=True)
class QuickContest(Displayable):
    """Both rolls, the winner ("a"/"b"/None = tie), the margin of victory and the exact odds."""

    a: SuccessRoll
    b: SuccessRoll
    winner: str | None
    margin: int
    odds: ContestOdds
    secret: bool = False


    def to_dict(self) -> dict:
        return {"a": self.a.to_dict(), "b": self.b.to_dict(), "secret": self.secret}

    @classmethod
    def from_dict(cls, data: dict) -> QuickContest:
        result = quick_contest(SuccessRoll.from_dict(data["a"]), SuccessRoll.from_dict(data["b"]))
        if data.get("secret"):
            from dataclasses import replace

            result = replace(result, secret=True)
        return result

    def __repr__(self) -> str:
        return f"<QuickContest {self}>"


def quick_contest(a: SuccessRoll, b: SuccessRoll) -> QuickContest:
    """Judge two already-made success rolls as a Quick Contest."""
    if a.total is None or b.total is None:
        raise UsageError(t("gurps.err.contest_unrolled"))
    return QuickContest(a, b, quick_winner(a, b), margin_of_victory(a, b), quick_contest_odds(a.target, b.target))


def _split_dice(dice: Sequence[int] | None, count: int) -> list[tuple[int, ...]] | None:
    if dice is None:
        return None
    faces = [int(d) for d in dice]
    if len(faces) != 3 * count:
        raise UsageError(t("gurps.err.contest_faces", faces=3 * count, count=count, got=len(faces)))
    return [tuple(faces[i:i + 3]) for i in range(0, len(faces), 3)]


def roll_quick_contest(
    a_base: int,
    b_base: int,
    *,
    a_mods: Iterable = (),
    b_mods: Iterable = (),
    a_label: str = "",
    b_label: str = "",
    a_actor: str = "",
    b_actor: str = "",
    rng: random.Random | None = None,
    dice: Sequence[int] | None = None,
) -> QuickContest:
    """Roll both sides (6 faces in `dice`: A's three, then B's) and judge the contest."""
    split = _split_dice(dice, 2)
    a = success_roll(a_base, a_mods, label=a_label, actor=a_actor, rng=rng,
                     dice=split[0] if split else None, always_roll=True, kind="contest")
    b = success_roll(b_base, b_mods, label=b_label, actor=b_actor, rng=rng,
                     dice=split[1] if split else None, always_roll=True, kind="contest")
    return quick_contest(a, b)


@dataclass(frozen=True)
class RegularContest(Displayable):
    """Every round of a Regular Contest; `winner` is None if the round cap ended it undecided."""

    rounds: tuple[tuple[SuccessRoll, SuccessRoll], ...]
    winner: str | None
    max_rounds: int
    odds: ContestOdds
    secret: bool = False

    @property
    def capped(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict:
        return {"rounds": [[a.to_dict(), b.to_dict()] for a, b in self.rounds],
                "max_rounds": self.max_rounds, "secret": self.secret}

    @classmethod
    def from_dict(cls, data: dict) -> RegularContest:
        rounds = tuple((SuccessRoll.from_dict(a), SuccessRoll.from_dict(b)) for a, b in data["rounds"])
        return _judge_regular(rounds, int(data["max_rounds"]), bool(data.get("secret")))

    def __repr__(self) -> str:
        return f"<RegularContest {self}>"


def _judge_regular(rounds: Sequence[tuple[SuccessRoll, SuccessRoll]], max_rounds: int, secret: bool = False,
                   ) -> RegularContest:
    winner = None
    if rounds:
        a, b = rounds[-1]
        if a.success != b.success:
            winner = "a" if a.success else "b"
    first_a, first_b = rounds[0]
    return RegularContest(tuple(rounds), winner, max_rounds,
                          regular_contest_odds(first_a.target, first_b.target), secret)


def regular_contest(
    a_base: int,
    b_base: int,
    *,
    a_mods: Iterable = (),
    b_mods: Iterable = (),
    a_label: str = "",
    b_label: str = "",
    a_actor: str = "",
    b_actor: str = "",
    rng: random.Random | None = None,
    dice: Sequence[int] | None = None,
    max_rounds: int = 20,
) -> RegularContest:
    """GURPS-SR-12: both roll each round until exactly one succeeds, at most `max_rounds` rounds.
    With `dice`, give 6 faces per round (A's three, then B's); the contest stops where it is decided."""
    if max_rounds < 1:
        raise UsageError(t("gurps.err.max_rounds", rounds=max_rounds))
    a_mods, b_mods = tuple(a_mods), tuple(b_mods)
    faces = list(dice) if dice is not None else None
    if faces is not None and (len(faces) % 6 or not faces):
        raise UsageError(t("gurps.err.regular_faces", got=len(faces)))
    rounds = []
    for index in range(max_rounds):
        da: list[int] | None
        db: list[int] | None
        if faces is not None:
            if index * 6 >= len(faces):
                break
            pair = faces[index * 6:index * 6 + 6]
            da, db = pair[:3], pair[3:]
        else:
            if rng is None:
                raise UsageError(t("gurps.err.regular_dice"))
            da = db = None
        a = success_roll(a_base, a_mods, label=a_label, actor=a_actor, rng=rng, dice=da,
                         always_roll=True, kind="contest")
        b = success_roll(b_base, b_mods, label=b_label, actor=b_actor, rng=rng, dice=db,
                         always_roll=True, kind="contest")
        rounds.append((a, b))
        if a.success != b.success:
            break
    if not rounds:
        raise UsageError(t("gurps.err.regular_no_rounds"))
    return _judge_regular(rounds, max_rounds)
