"""GURPS hazards: collision and falling, fire, cold, heat, poison, suffocation, disease. [GURPS-HAZ]

Tables come from data/hazards_tables.json; damage rolls go through the core damage module
(DR, minimum damage, wounding) so a fall or a fire is injury like any other.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules.damage import DamageRoll, DamageSpec, DiceAdds, roll_damage
from gamekernel.gurps.rules.injury import Check, is_crit_failure, roll_vs
from gamekernel.i18n import t


@cache
def tables() -> dict:
    text = resources.files("gamekernel.gurps").joinpath("data/hazards_tables.json").read_text("utf-8")
    return json.loads(text)


# ---------------------------------------------------------------- collision and falling (HAZ-04..06)


def fall_velocity(distance_m: float, *, catfall: bool = False) -> int:
    """Velocity (m/s) from the falling table, next higher row between rows; Catfall takes 5 m off
    first (GURPS-HAZ-06, GURPS-ADV-04). 0 m -> 0."""
    if distance_m < 0:
        raise UsageError(t("gurps.err.fall_distance", distance=distance_m))
    distance = distance_m - 5 if catfall else distance_m
    if distance <= 0:
        return 0
    rows = tables()["falling"]["rows"]
    for row_m, velocity in rows:
        if distance <= row_m:
            return velocity
    return rows[-1][1]


def collision_dice(hp: int, velocity: float) -> tuple[Fraction, DiceAdds]:
    """(exact dice HP x speed / 100, the dice rolled): 1d or less -> 1d-2; otherwise rounded to the
    nearest die, halves up (GURPS-HAZ-04 and its OPEN reading). T-19: HP 10 at 8 m/s -> 0.8 -> 1d-2."""
    if hp <= 0 or velocity < 0:
        raise UsageError(t("gurps.err.collision", hp=hp, speed=velocity))
    exact = Fraction(hp) * Fraction(velocity).limit_denominator(1000) / 100
    if exact <= 1:
        return exact, DiceAdds(1, -2)
    return exact, DiceAdds(int(exact + Fraction(1, 2)), 0)


@dataclass(frozen=True)
class FallResult:
    """A fall: velocity, the crushing damage (through DR), Catfall's DX roll halving it (GURPS-HAZ-06)."""

    distance_m: float
    velocity: int
    exact_dice: Fraction
    damage: DamageRoll | None
    catfall_check: Check | None
    injury: int
    dice: DiceAdds | None = None  # the crushing dice rolled (None: no damage)


def fall(
    hp_max: int,
    distance_m: float,
    damage_faces: Sequence[int],
    *,
    dr: int = 0,
    catfall: bool = False,
    dx: int = 10,
    dx_faces: Sequence[int] | None = None,
) -> FallResult:
    """Falling damage = a collision with the ground at the table velocity (GURPS-HAZ-05/06)."""
    velocity = fall_velocity(distance_m, catfall=catfall)
    if velocity == 0:
        return FallResult(distance_m, 0, Fraction(0), None, None, 0)
    exact, dice = collision_dice(hp_max, velocity)
    damage = roll_damage(DamageSpec(dice.dice, dice.adds, "cr", "", f"{dice} cr"), dr=dr, dice=tuple(damage_faces))
    check = None
    injury = damage.injury
    if catfall:
        if dx_faces is None:
            raise UsageError(t("gurps.err.catfall_faces"))
        check = roll_vs("Catfall DX", dx, dx_faces)
        if check.success:
            injury = injury // 2
    return FallResult(distance_m, velocity, exact, damage, check, injury, dice)


# ---------------------------------------------------------------- fire (HAZ-10..12)

FIRE_KINDS = ("pass_through", "in_fire", "furnace", "clothing_part", "clothing_all")


def fire_dice(kind: str) -> DiceAdds:
    """Burning damage per second: pass_through 1d-3, in_fire 1d-1, furnace 3d, part of the clothing
    1d-4, all the clothing 1d-1 (GURPS-HAZ-10..12)."""
    table = tables()["fire"]
    if kind not in FIRE_KINDS:
        raise UsageError(t("gurps.err.fire", kind=kind, choices=", ".join(FIRE_KINDS)))
    dice, adds = table[kind]
    return DiceAdds(dice, adds)


def clothing_ignited(basic_damage: int) -> str:
    """Fire attack of 3+ basic damage in one hit lights part of the clothing, 10+ all of it
    (GURPS-HAZ-11, HAZ-12): "" | "part" | "all"."""
    if basic_damage >= 10:
        return "all"
    return "part" if basic_damage >= 3 else ""


def burning_dx_penalty(clothing: str) -> int:
    """Distraction while burning: part -2, all -3 (GURPS-HAZ-11/12, GURPS-CMB-33); RULES.md's OPEN
    reading: it applies as long as the clothes burn."""
    return {"part": -2, "all": -3}.get(clothing, 0)


CLOTHING_FIRE = {"part": "clothing_part", "all": "clothing_all"}  # burning clothes -> its fire kind


def clothes_lit(kind: str, burning: str) -> str:
    """What burns after a fire hazard: `clothing_part` lights part of the clothes, `clothing_all` all of
    them; the worse fire stays (GURPS-HAZ-11, HAZ-12)."""
    lit = {"clothing_part": "part", "clothing_all": "all"}.get(kind, "")
    return "all" if "all" in (lit, burning) else (lit or burning)


PUT_OUT = ("put_out", "water")


def put_out(burning: str, dx: int, faces: Sequence[int]) -> tuple[Check | None, bool]:
    """Putting out burning clothes: part by beating them with both hands (Ready + a DX roll), all by
    rolling on the ground (a DX roll and 3 s of Ready, the GM counts them); the DX penalty of the fire
    does not apply to this roll (GURPS-HAZ-11, HAZ-12). (check, out)."""
    if not burning:
        raise RuleError(t("gurps.err.not_burning"))
    check = roll_vs("DX (put out the fire)", dx, faces)
    return check, check.success


def fire(kind: str, faces: Sequence[int], *, dr: int = 0) -> DamageRoll:
    dice = fire_dice(kind)
    return roll_damage(DamageSpec(dice.dice, dice.adds, "burn", "", f"{dice} burn"), dr=dr, dice=tuple(faces))


# ---------------------------------------------------------------- cold (HAZ-01..03)


def cold_interval(wind: str = "calm") -> int:
    """Minutes between HT rolls: calm 30, light wind (15 km/h) 15, strong wind (30 km/h) 10 (GURPS-HAZ-01)."""
    table = tables()["cold"]["interval_minutes"]
    if wind not in table:
        raise UsageError(t("gurps.err.wind", wind=wind, choices=", ".join(table)))
    return table[wind]


def cold_modifier(clothing: str = "winter", *, wet: bool = False, wind_chill_c: float | None = None) -> int:
    """HT modifier: light -5, winter 0, arctic +5, heated +10; wet -5 more; -1 per full 5 deg C of wind
    chill below -25 deg C (GURPS-HAZ-02, OPEN reading)."""
    table = tables()["cold"]
    if clothing not in table["clothing"]:
        raise UsageError(t("gurps.err.clothing", clothing=clothing, choices=", ".join(table["clothing"])))
    value = table["clothing"][clothing] + (table["wet"] if wet else 0)
    if wind_chill_c is not None and wind_chill_c < -25:
        value -= int((-25 - wind_chill_c) // 5)
    return value


def cold_check(ht: int, faces: Sequence[int], modifier: int = 0) -> tuple[Check, int]:
    """Failure = -1 FP (HP too once FP <= 0, via fatigue.lose_fp) (GURPS-HAZ-03)."""
    check = roll_vs("cold", ht, faces, [(modifier, "cold")] if modifier else [])
    return check, (0 if check.success else 1)


# ---------------------------------------------------------------- heat (HAZ-13, HAZ-14)

HEAT_COMFORT_C = 27


def heat_check_needed(temperature_c: float, *, active: bool = True) -> bool:
    """Being active within 5 deg C of 27 deg C, or above it, calls for an HT roll every 30 minutes."""
    return active and temperature_c >= HEAT_COMFORT_C - 5


def heat_extra_fp(temperature_c: float) -> int:
    """Extra FP per FP lost to exertion: 1 at 33-48 deg C, 2 at 49-63 deg C (GURPS-HAZ-14 as printed)."""
    if 49 <= temperature_c <= 63:
        return 2
    if 33 <= temperature_c <= 48:
        return 1
    return 0


def heat_check(ht: int, faces: Sequence[int], stroke_faces: Sequence[int] = (1,)) -> tuple[Check, int]:
    """Failure = -1 FP; critical failure = heatstroke, -1d FP (GURPS-HAZ-13)."""
    check = roll_vs("heat", ht, faces)
    return check, heat_fp_loss(check, stroke_faces)


def heat_fp_loss(check: Check, stroke_faces: Sequence[int] = ()) -> int:
    """FP lost to a heat roll: 0, 1, or on a critical failure the heatstroke die (GURPS-HAZ-13)."""
    if is_crit_failure(check):
        return int(stroke_faces[0])
    return 0 if check.success else 1


# ---------------------------------------------------------------- poison, disease, suffocation


def poison_modifier(strength: str | int) -> int:
    """HT modifier to resist: weak +2, typical -4, irresistible -8, or a number (GURPS-HAZ-15)."""
    if isinstance(strength, int):
        return strength
    table = tables()["poison_resistance"]
    if strength not in table or strength.startswith("_"):
        raise UsageError(t("gurps.err.poison", strength=strength))
    return table[strength]


def poison_check(ht: int, faces: Sequence[int], strength: str | int = "typical") -> Check:
    """HT + modifier; DR is useless; failure = the poison's effect (GURPS-HAZ-15, HAZ-16)."""
    mod = poison_modifier(strength)
    return roll_vs("resist poison", ht, faces, [(mod, f"{strength} poison")] if mod else [])


def disease_modifier(modifier: int) -> int:
    """The disease's HT modifier, from +3 to -6 (GURPS-HAZ-07..09); anything else is refused."""
    if not -6 <= modifier <= 3:
        raise UsageError(t("gurps.err.disease", modifier=modifier))
    return modifier


def disease_check(ht: int, faces: Sequence[int], modifier: int = 0) -> Check:
    """Resistance (HT to HT-6) or the per-cycle roll to shake it off (GURPS-HAZ-07..09)."""
    disease_modifier(modifier)
    return roll_vs("resist disease", ht, faces, [(modifier, "disease")] if modifier else [])


@dataclass(frozen=True)
class Suffocation:
    """Seconds without oxygen: -1 FP a second; Will rolls at 0 FP; an HT roll after 2 minutes
    (brain damage, -1 IQ); death after 4 minutes (GURPS-HAZ-17..20)."""

    seconds: int
    fp_loss: int
    will_rolls_from_second: int | None
    brain_damage_roll: bool
    dead: bool


def suffocation(fp: int, seconds: int) -> Suffocation:
    if seconds < 0:
        raise UsageError(t("gurps.err.seconds", seconds=seconds))
    will_from = fp + 1 if seconds > fp else None
    return Suffocation(seconds, seconds, will_from, seconds > 120, seconds >= 240)


# ---------------------------------------------------------------- one hazard on one person


@dataclass(frozen=True)
class HazardOutcome:
    """What a hazard did: the HT roll (cold, heat, poison, disease), the damage roll (fire) or the fall,
    the injury (HP) and the FP lost."""

    kind: str
    check: Check | None = None
    damage: DamageRoll | None = None
    fall: FallResult | None = None
    injury: int = 0
    fp_loss: int = 0


def expose(
    kind: str,
    d6: Callable[[int], Sequence[int]],
    *,
    ht: int,
    hp_max: int,
    dr: int = 0,
    dx: int = 10,
    metres: float = 0,
    catfall: bool = False,
    clothing: str = "winter",
    wet: bool = False,
    strength: str | int = "typical",
    injury: int = 1,
    modifier: int = 0,
    seconds: int = 1,
) -> HazardOutcome:
    """One hazard on one person, dice drawn from `d6(n)` only as the rule needs them: a fall
    (GURPS-HAZ-04..06, Catfall's DX roll), fire (HAZ-10..12), cold (HAZ-01..03: -1 FP on a failure),
    heat (HAZ-13: -1 FP, heatstroke -1d FP on a critical failure), poison (HAZ-15, HAZ-16) and disease
    (HAZ-07..09): `injury` HP on a failed HT roll; suffocation: -1 FP a second (HAZ-17)."""
    if kind == "fall":
        velocity = fall_velocity(metres, catfall=catfall)
        faces = d6(collision_dice(hp_max, velocity)[1].dice) if velocity else ()
        dx_faces = d6(3) if velocity and catfall else None
        result = fall(hp_max, metres, faces, dr=dr, catfall=catfall, dx=dx, dx_faces=dx_faces)
        return HazardOutcome(kind, result.catfall_check, result.damage, result, result.injury)
    if kind in FIRE_KINDS:
        roll = fire(kind, d6(fire_dice(kind).dice), dr=dr)
        return HazardOutcome(kind, damage=roll, injury=roll.injury)
    if kind == "cold":
        modifier = cold_modifier(clothing, wet=wet)  # refused before any die is drawn
        check, fp_loss = cold_check(ht, d6(3), modifier)
        return HazardOutcome(kind, check, fp_loss=fp_loss)
    if kind == "heat":
        check = heat_check(ht, d6(3))[0]
        return HazardOutcome(kind, check, fp_loss=heat_fp_loss(check, d6(1) if is_crit_failure(check) else ()))
    if kind == "poison":
        poison_modifier(strength)  # refused before any die is drawn
        check = poison_check(ht, d6(3), strength)
        return HazardOutcome(kind, check, injury=0 if check.success else int(injury))
    if kind == "disease":
        modifier = disease_modifier(int(modifier))  # refused before any die is drawn
        check = disease_check(ht, d6(3), modifier)
        return HazardOutcome(kind, check, injury=0 if check.success else int(injury))
    if kind == "suffocation":
        return HazardOutcome(kind, fp_loss=int(seconds))
    raise UsageError(t("combat.err.hazard", kind=kind, fires=", ".join(FIRE_KINDS)))
