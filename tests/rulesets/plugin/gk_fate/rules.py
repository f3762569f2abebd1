"""Fate Core's check, pure: four Fudge dice (FATE-DICE) added to a skill's rating, the result read on
the ladder (FATE-LADDER) and compared with the opposition in shifts (FATE-OUTCOME)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

# FATE-LADDER: the adjectives of the ladder, Terrible (-2) to Legendary (+8)
LADDER = {-2: "terrible", -1: "poor", 0: "mediocre", 1: "average", 2: "fair", 3: "good", 4: "great",
          5: "superb", 6: "fantastic", 7: "epic", 8: "legendary"}
BY_WORD = {word: value for value, word in LADDER.items()}
FAIR = 2  # the opposition of a check that names none: Fair, the usual passive opposition
SKILL_RANGE = (-2, 8)  # a rating on the ladder


def ladder_word(value: int) -> str:
    """The ladder's word for `value` (beyond the ladder: its nearest end)."""
    return LADDER[max(-2, min(8, value))]


def rating(text: str) -> int:
    """A rating as typed: a ladder word (`Good`) or a signed whole number (`+3`); ValueError else."""
    word = text.strip().casefold()
    if word in BY_WORD:
        return BY_WORD[word]
    number = int(word)  # ValueError for anything else
    if not SKILL_RANGE[0] <= number <= SKILL_RANGE[1]:
        raise ValueError(text)
    return number


def roll_fudge(rng: random.Random) -> tuple[int, ...]:
    """FATE-DICE: four Fudge dice, each -1, 0 or +1 with equal chance."""
    return tuple(rng.choice((-1, 0, 1)) for _ in range(4))


def outcome(shifts: int) -> str:
    """FATE-OUTCOME: fail below the opposition, tie at it, succeed by 1-2, succeed with style by 3+."""
    if shifts < 0:
        return "fail"
    if shifts == 0:
        return "tie"
    return "succeed" if shifts < 3 else "style"


def chance_at_least(shifts_needed: int) -> Fraction:
    """The exact chance that four Fudge dice total at least `shifts_needed` (out of 81 outcomes)."""
    ways = sum(1 for faces in product((-1, 0, 1), repeat=4) if sum(faces) >= shifts_needed)
    return Fraction(ways, 81)


@dataclass(frozen=True)
class FateCheck:
    """One check's facts: who, with which skill at which rating, the dice, the opposition."""

    actor: str
    skill: str
    rating: int
    faces: tuple[int, ...]
    opposition: int

    @property
    def result(self) -> int:
        return self.rating + sum(self.faces)

    @property
    def shifts(self) -> int:
        return self.result - self.opposition

    @property
    def outcome(self) -> str:
        return outcome(self.shifts)

    def to_dict(self) -> dict[str, object]:
        return {"actor": self.actor, "skill": self.skill, "rating": self.rating, "faces": list(self.faces),
                "opposition": self.opposition}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> FateCheck:
        faces = data["faces"]
        assert isinstance(faces, list)
        return cls(str(data["actor"]), str(data["skill"]), int(str(data["rating"])), tuple(faces),
                   int(str(data["opposition"])))
