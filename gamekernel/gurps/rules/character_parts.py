"""The small values a GURPS character sheet is made of (skills, languages, reputations, the working
of a skill level, validation messages, the point breakdown) and the sheet-wide tables they need
(encumbrance, language costs). Kept apart from `characters.py`, whose `Character` builds on them
and re-exports every name here, so callers keep importing from `characters`."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Any

from gamekernel.errors import DataError
from gamekernel.gurps.rules.attacks import combat_tables
from gamekernel.gurps.rules.checks import Modifier
from gamekernel.i18n import t


@dataclass(frozen=True)
class Skill:
    """A skill on the sheet: bought with `points`, or with a `level` given directly."""

    name: str
    attribute: str = ""
    difficulty: str = ""
    points: int = 0
    level: int | None = None
    specialization: str = ""
    bonus: int = 0  # from traits and equipment (GCS features), added to the bought level
    kind: str = ""  # "" skill, "technique", "spell"
    college: str = ""  # spells: their colleges, comma-separated

    @property
    def full_name(self) -> str:
        return f"{self.name} ({self.specialization})" if self.specialization else self.name

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "attribute": self.attribute,
                                "difficulty": self.difficulty, "points": self.points}
        if self.level is not None:
            data["level"] = self.level
        for name in ("specialization", "bonus", "kind", "college"):
            if getattr(self, name):
                data[name] = getattr(self, name)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Skill:
        return cls(name=data["name"], attribute=data.get("attribute", ""),
                   difficulty=data.get("difficulty", ""), points=int(data.get("points", 0)),
                   level=data.get("level"), specialization=data.get("specialization", ""),
                   bonus=int(data.get("bonus", 0)), kind=str(data.get("kind", "")),
                   college=str(data.get("college", "")))


@dataclass(frozen=True)
class Language:
    """A language with spoken and written comprehension (GURPS-CH-20..23)."""

    name: str
    spoken: str = "native"
    written: str = "native"
    native: bool = False


@dataclass(frozen=True)
class Reputation:
    """A reputation: reaction modifier from people who recognize you, -4..+4 (GURPS-CH-25)."""

    modifier: int
    description: str = ""


@dataclass(frozen=True)
class SkillLevel:
    """A resolved skill level and how it was reached (for "show the working")."""

    name: str
    level: int
    source: str  # "points", "direct", "default", "default from <X>"
    attribute: str = ""
    relative: int | None = None
    bonuses: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class Issue:
    """One validation message: severity "error" or "warning", the field (a key: "points", "ST", "skill
    Stealth"), a readable message and the whole line as worded when validated (`line`, see `issue`)."""

    severity: str
    field: str
    message: str
    line: str = ""

    def __str__(self) -> str:
        return self.line or f"{self.severity}: {self.field}: {self.message}"


def issue(severity: str, field: str, message: str, where: str) -> Issue:
    """An Issue worded in the current language: `where` is the field as the reader's language names it
    (体力, 技能〈忍び〉), the line "severity: where: message" built by the catalog."""
    line = t("gurps.issue.line", severity=t(f"gurps.issue.{severity}"), field=where, message=message)
    return Issue(severity, field, message, line)


@dataclass(frozen=True)
class PointBreakdown:
    """Where the points went (GURPS-CH-01, CH-03)."""

    attributes: int
    secondary: int
    advantages: int
    disadvantages: int
    skills: int
    total: int
    budget: int
    disadvantage_limit: int  # a negative number, e.g. -50 for 100 points at 50%

    @property
    def unspent(self) -> int:
        return self.budget - self.total


# Skills the load hampers, x encumbrance level: Climbing -level, Swimming -2 x level (GURPS-STD-05,
# GURPS-PHY-02, PHY-14).
ENCUMBRANCE_SKILLS = {"Climbing": 1, "Swimming": 2}
ENCUMBRANCE_LIMITS = (1, 2, 3, 6, 10)  # x Basic Lift: None, Light, Medium, Heavy, X-Heavy (GURPS-STD-04)


def basic_lift_lb(st: int, progression: str = "basic_set") -> Fraction:
    """ST x ST / 5 lb, rounded to the nearest whole lb once it is 10 lb or more (GURPS-CH-12): the
    seed states the threshold and the rounded result in lb ("if BL is 10 lbs. or more ... becomes
    8 lbs."), which is also how GCS rounds; ST below 0 lifts nothing. A GCS file set to "knowing your
    own strength" (Pyramid 3/83, not a seed rule: only the file's own setting turns it on) lifts
    2 x 10^(ST/10) lb instead, as GCS computes it (`_kyos_lift_lb`). [std]"""
    st = max(0, st)
    value = _kyos_lift_lb(st) if progression == "knowing_your_own_strength" else Fraction(st * st, 5)
    return Fraction(floor(value + Fraction(1, 2))) if value >= 10 else value


def _kyos_lift_lb(st: int) -> Fraction:
    """2 x 10^(ST/10) lb, rounded to 0.1 lb up to ST 6 and to 1 lb above, each 10 ST past 19 a x10
    (ST 13 -> 40 lb, ST 3 -> 4 lb, ST 25 -> 630 lb)."""
    if st < 1:
        return Fraction(0)
    tens = st // 10 - 1 if st > 19 else 0
    value = Fraction(2 * 10 ** ((st - 10 * tens) / 10))
    step = Fraction(1, 10) if st - 10 * tens <= 6 else Fraction(1)
    return floor(value / step + Fraction(1, 2)) * step * 10 ** tens


def basic_lift_kg(st: int, progression: str = "basic_set") -> Fraction:
    """Basic Lift in kg, (ST x ST) / 10 kg at the seed's 1 lb = 0.5 kg (ST 10 -> 10 kg, GURPS-CH-12),
    rounded in lb as the seed says: 14.4 kg (ST 12, 28.8 lb) -> 29 lb = 14.5 kg."""
    return basic_lift_lb(st, progression) / 2


def encumbrance_level(load: float, basic_lift: float) -> int:
    """0 None .. 4 X-Heavy for a load against Basic Lift (same unit); 5 means over 10 x BL."""
    for level, limit in enumerate(ENCUMBRANCE_LIMITS):
        if load <= basic_lift * limit:
            return level
    return 5


def encumbered_move(basic_move: int, level: int) -> int:
    """Move under a load: floor(Basic Move x 1, 0.8, 0.6, 0.4, 0.2) for None..X-Heavy, at least 1
    (GURPS-STD-05); a load past X-Heavy counts as X-Heavy. The one rule the sheet and combat share."""
    fifths = combat_tables()["encumbrance"]["move_fifths"][min(4, level)]
    return max(1, basic_move * fifths // 5)


def language_cost(language: Language) -> int:
    """GURPS-CH-20/21/23: 1/2/3 points per mode above None; the native language is free at
    Native, and a lower written level in it is worth -1/-2/-3."""
    levels = {"none": 0, "broken": 1, "accented": 2, "native": 3}
    try:
        spoken, written = levels[language.spoken], levels[language.written]
    except KeyError as error:
        raise DataError(t("gurps.err.language_level", language=language.name, levels=", ".join(levels))) from error
    if language.native:
        return (spoken - 3) + (written - 3)
    return spoken + written


ATTRIBUTE_RANGE = (1, 20)  # GURPS-CH-04: 1 is the human minimum; above 20 only for godlike beings
