"""GURPS magic: casting rolls, energy paid in FP (then HP), and the Critical Spell Failure Table.
[GURPS-MAG]"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules.fatigue import FatigueLoss, lose_fp
from gamekernel.gurps.rules.injury import Check, is_crit_failure, is_crit_success, roll_vs
from gamekernel.gurps.rules.injury import shock_penalty as _shock
from gamekernel.i18n import t


@dataclass(frozen=True)
class MagicConfig:
    """GURPS-MAG-04: the magic section of the seed [004:1755] (and RULES.md) make a 17 a critical
    failure of a spell at skill <= 16, one more than the general rule (<= 15, GURPS-SR-08). The seed is
    the authority, so that is the default; `crit17_at_most=15` gives the general rule."""

    crit17_at_most: int = 16


DEFAULT = MagicConfig()


@dataclass(frozen=True)
class CastResult:
    """A casting roll and what it cost (GURPS-MAG-01..04, MAG-19)."""

    spell: str
    skill: int
    modifiers: tuple[tuple[int, str], ...]
    check: Check
    cost: int
    energy_spent: int
    fatigue: FatigueLoss
    failure_roll: tuple[int, ...] = ()

    @property
    def outcome(self) -> str:
        if is_crit_success(self.check):
            return "critical_success"
        if is_crit_failure(self.check):
            return "critical_failure"
        return "success" if self.check.success else "failure"

    @property
    def failure_result(self) -> int | None:
        """The Critical Spell Failure Table row (3..18), when one was rolled."""
        return sum(self.failure_roll) if self.failure_roll else None


def spell_modifiers(
    *, distance_hexes: int = 0, touching: bool = False, unseen: bool = False, injured_while_concentrating: int = 0,
    kind: str = "regular",
) -> tuple[tuple[int, str], ...]:
    """Regular/area spells: -1 per hex unless touching, -5 more when unseen (GURPS-MAG-10, MAG-17);
    missile spells have no distance modifier (MAG-11); injured while concentrating: -injury, capped
    at 4 like shock (GURPS-MAG-07, OPEN reading)."""
    mods: list[tuple[int, str]] = []
    if kind not in ("regular", "area", "missile", "information"):
        raise UsageError(t("gurps.err.spell_kind", kind=kind))
    if not touching and kind in ("regular", "area", "information") and distance_hexes > 0:
        mods.append((-distance_hexes, f"{distance_hexes} hex away"))
    if unseen and not touching and kind != "missile":
        mods.append((-5, "unseen"))
    if injured_while_concentrating:
        mods.append((-_shock(injured_while_concentrating), "injured while concentrating"))
    return tuple(mods)


def energy_cost(base: int, *, hexes: int = 1, area_diameter: int = 0) -> int:
    """A subject larger than 1 hex costs base x hexes (GURPS-MAG-09); an area of diameter d costs base x
    (d + 1) / 2 (1 hex x1, 3 hexes x2, 5 hexes x3; GURPS-MAG-16 and its OPEN pattern)."""
    if area_diameter:
        if area_diameter < 1 or area_diameter % 2 == 0:
            raise UsageError(t("gurps.err.area_diameter", diameter=area_diameter))
        return base * (area_diameter + 1) // 2
    return base * max(1, hexes)


def castable(spell: str, skill: int, cost: int, modifiers: Sequence[tuple[int, str]] = ()
             ) -> tuple[tuple[int, str], ...]:
    """The modifiers of a spell that may be cast: a cost of 0 or more, an effective skill of 3 or
    more (GURPS-MAG-01); refused otherwise, before any die is rolled."""
    if cost < 0:
        raise UsageError(t("gurps.err.spell_cost", cost=cost))
    mods = tuple((int(v), str(label)) for v, label in modifiers)
    target = skill + sum(v for v, _ in mods)
    if target < 3:
        raise RuleError(t("gurps.err.spell_below_3", spell=spell, target=target))
    return mods


def casting_roll(
    spell: str, skill: int, cost: int, faces: Sequence[int], *, modifiers: Sequence[tuple[int, str]] = (),
    config: MagicConfig = DEFAULT,
) -> Check:
    """The casting roll alone: no spell below an effective skill of 3, and a 17 is a critical failure
    up to `config.crit17_at_most` (GURPS-MAG-01, MAG-04)."""
    mods = castable(spell, skill, cost, modifiers)
    check = roll_vs(spell, skill, faces, mods)
    if check.total == 17 and 15 < check.target <= config.crit17_at_most:
        check = replace(check, critical="failure")
    return check


def cast(
    spell: str,
    skill: int,
    cost: int,
    faces: Sequence[int],
    *,
    fp: int,
    fp_max: int,
    modifiers: Sequence[tuple[int, str]] = (),
    failure_faces: Sequence[int] = (),
    config: MagicConfig = DEFAULT,
) -> CastResult:
    """Roll 3d vs skill + modifiers. Success: pay the cost; critical success: pay nothing; failure:
    1 energy if the spell costs any; critical failure: the full cost plus a Critical Spell Failure
    Table roll (`failure_faces`, three more dice). Energy comes from FP, then HP (GURPS-FAT-02)."""
    mods = tuple((int(v), str(label)) for v, label in modifiers)
    check = casting_roll(spell, skill, cost, faces, modifiers=mods, config=config)
    table_faces: tuple[int, ...] = ()
    if is_crit_success(check):
        spent = 0
    elif is_crit_failure(check):
        spent = cost
        table_faces = tuple(int(f) for f in failure_faces)
        if len(table_faces) != 3 or any(not 1 <= f <= 6 for f in table_faces):
            raise UsageError(t("gurps.err.spell_table_faces"))
    elif check.success:
        spent = cost
    else:
        spent = 1 if cost > 0 else 0
    return CastResult(spell, skill, mods, check, cost, spent, lose_fp(fp, fp_max, spent), table_faces)


def cast_rolling(
    spell: str,
    skill: int,
    cost: int,
    roll3: Callable[[], Sequence[int]],
    *,
    fp: int,
    fp_max: int,
    modifiers: Sequence[tuple[int, str]] = (),
    config: MagicConfig = DEFAULT,
) -> CastResult:
    """`cast` with its dice drawn from `roll3()` as the rule needs them: the casting roll, and the
    Critical Spell Failure Table roll only after a critical failure (GURPS-MAG-04, MAG-19)."""
    castable(spell, skill, cost, modifiers)  # refused before any die is drawn
    faces = tuple(roll3())
    check = casting_roll(spell, skill, cost, faces, modifiers=modifiers, config=config)
    table = tuple(roll3()) if is_crit_failure(check) else ()
    return cast(spell, skill, cost, faces, fp=fp, fp_max=fp_max, modifiers=modifiers, failure_faces=table,
                config=config)


SPELL_FAILURE_EFFECTS = {  # GURPS-MAG-19 machine-readable consequences (text in i18n)
    3: ("damage", "1d"), 9: ("damage", "1"), 10: ("stunned", "IQ"), 17: ("crippled_arm", "1 week"),
}
