"""GURPS physical feats: jumping, lifting, throwing (distance and damage), running, swimming,
hiking, climbing. [GURPS-PHY]

Units follow each seed table: jumps in cm, lifts in kg, distances in metres (1 yd -> 1 m).
Fractions keep every multiplier exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules.damage import DiceAdds
from gamekernel.gurps.rules.hazards import tables
from gamekernel.i18n import t


def _frac(value: float | int | Fraction) -> Fraction:
    return value if isinstance(value, Fraction) else Fraction(str(value))


# ---------------------------------------------------------------- jumping (PHY-08, PHY-09)


def high_jump_cm(basic_move: int, run_up_m: int = 0) -> int:
    """Basic Move x 15 - 25 cm (Move 6 -> 65); running: add the run-up to Basic Move, at most twice
    the standing jump (GURPS-PHY-08)."""
    standing = basic_move * 15 - 25
    if run_up_m <= 0:
        return max(0, standing)
    return max(0, min(2 * standing, (basic_move + run_up_m) * 15 - 25))


def broad_jump_cm(basic_move: int, run_up_m: int = 0) -> int:
    """60 x Basic Move - 90 cm (Move 6 -> 270); running adds the run-up, at most twice (GURPS-PHY-09)."""
    standing = 60 * basic_move - 90
    if run_up_m <= 0:
        return max(0, standing)
    return max(0, min(2 * standing, 60 * (basic_move + run_up_m) - 90))


# ---------------------------------------------------------------- lifting (PHY-10)

LIFTS = {  # name -> (BL multiple, seconds)
    "one_hand": (2, 2),
    "two_hands": (8, 4),
    "shove": (12, None),
    "shove_running": (24, None),
    "carry_on_back": (15, None),
    "shift_slightly": (50, None),
}


@dataclass(frozen=True)
class Lift:
    kind: str
    max_kg: Fraction
    seconds: int | None


def lift(basic_lift_kg: float | Fraction, kind: str) -> Lift:
    """The most a BL can move one way (GURPS-PHY-10, T-13)."""
    if kind not in LIFTS:
        raise UsageError(t("gurps.err.lift", kind=kind, choices=", ".join(LIFTS)))
    multiple, seconds = LIFTS[kind]
    return Lift(kind, _frac(basic_lift_kg) * multiple, seconds)


def lift_table(basic_lift_kg: float | Fraction) -> tuple[Lift, ...]:
    return tuple(lift(basic_lift_kg, kind) for kind in LIFTS)


# ---------------------------------------------------------------- throwing (PHY-17..21)


@dataclass(frozen=True)
class Throw:
    """How far an object flies: ratio = weight / BL, the next higher row, ST x modifier (GURPS-PHY-19)."""

    weight_kg: Fraction
    ratio: Fraction
    row_ratio: Fraction
    modifier: Fraction
    distance_m: Fraction
    hands: int


def throw_distance(st: int, basic_lift_kg: float | Fraction, weight_kg: float | Fraction) -> Throw:
    """T-20: ST 10 (BL 10 kg) throws 1 kg 25 m; 3.2 kg (ratio 0.32 -> 0.40 row) 10 m."""
    weight, bl = _frac(weight_kg), _frac(basic_lift_kg)
    if weight <= 0 or bl <= 0:
        raise UsageError(t("gurps.err.weight_bl", weight=weight_kg, bl=basic_lift_kg))
    ratio = weight / bl
    if ratio > 8:
        raise RuleError(t("gurps.err.throw_ratio", weight=weight_kg, ratio=float(ratio)))
    for row_ratio, modifier in tables()["throw_distance"]["rows"]:
        if ratio <= _frac(row_ratio):
            row, mod = _frac(row_ratio), _frac(modifier)
            break
    hands = 1 if ratio <= 2 else 2
    return Throw(weight, ratio, row, mod, st * mod, hands)


def thrown_damage(thrust: DiceAdds, basic_lift_kg: float | Fraction, weight_kg: float | Fraction) -> DiceAdds:
    """Thrust damage adjusted by weight, usually crushing (GURPS-PHY-20, PHY-21)."""
    weight, bl = _frac(weight_kg), _frac(basic_lift_kg)
    for row in tables()["thrown_damage"]["rows"]:
        if weight <= bl * row["bl_num"] / row["bl_den"]:
            if row.get("half_die"):
                return DiceAdds(thrust.dice, thrust.adds - thrust.dice // 2)
            return DiceAdds(thrust.dice, thrust.adds + row["per_die"] * thrust.dice)
    raise RuleError(t("gurps.err.throw_heavy", weight=weight_kg))


# ---------------------------------------------------------------- running, swimming, hiking


def sprint_speed(move: int, second: int) -> Fraction:
    """Sprinting: Move in the 1st second, Move x 1.2 from the 2nd (no rounding) (GURPS-PHY-12, T-12)."""
    if second < 1:
        raise UsageError(t("gurps.err.second", second=second))
    return Fraction(move) if second == 1 else Fraction(move) * Fraction(6, 5)


def paced_speed(move: int) -> Fraction:
    """Paced running: half of the unboosted Move (GURPS-PHY-12, OPEN reading)."""
    return Fraction(move, 2)


def water_move(basic_move: int) -> int:
    """floor(Basic Move / 5), at least 1 m/s (GURPS-PHY-16)."""
    return max(1, basic_move // 5)


def swimming_modifier(encumbrance: int, *, on_purpose: bool = False) -> int:
    """-2 x encumbrance level, +3 when entering on purpose (GURPS-PHY-14)."""
    return -2 * encumbrance + (3 if on_purpose else 0)


TERRAIN = {"very_bad": Fraction(1, 5), "bad": Fraction(1, 2), "average": Fraction(1), "good": Fraction(5, 4)}


def hiking_km(move: int, terrain: str = "average", *, hiking_success: bool = False) -> Fraction:
    """Move x 15 km a day x terrain; a Hiking success +20% (GURPS-PHY-05..07)."""
    if terrain not in TERRAIN:
        raise UsageError(t("gurps.err.terrain", terrain=terrain, choices=", ".join(TERRAIN)))
    km = Fraction(move * 15) * TERRAIN[terrain]
    return km * Fraction(6, 5) if hiking_success else km


CLIMBS = {  # GURPS-PHY-04: modifier (None = no roll)
    "ladder_up": None, "ladder_down": None, "tree": 5, "mountain": 0, "cliff": -3,
    "wall": -3, "rope_up": -2, "rope_down": -1, "rope_down_gear": -1,
}


def climbing_modifier(climb: str, encumbrance: int = 0) -> int | None:
    """Table modifier minus encumbrance; None for ladders (no roll) (GURPS-PHY-02, PHY-04)."""
    if climb not in CLIMBS:
        raise UsageError(t("gurps.err.climb", climb=climb, choices=", ".join(CLIMBS)))
    base = CLIMBS[climb]
    return None if base is None else base - encumbrance
