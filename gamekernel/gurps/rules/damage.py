"""GURPS damage: the thrust/swing table by ST, dice+adds, minimum damage, DR, wounding, injury.

    damage_for_st(st, *, extended=True) -> (thrust: DiceAdds, swing: DiceAdds)   # GURPS-DMG-02
    parse_damage(text, *, st=None) -> DamageSpec        # "2d+1 cut", "sw+2 cut", "thr imp", "1d-3", "1d+2(2) pi"
    armor_dr(dr, divisor) -> DR left against an armor divisor: (2) halves it, (0.5) doubles it
    basic_roll(faces, spec) -> dice + adds, times a multiplier ("3dx5")
    roll_damage(spec, *, dr=0, rng=None, dice=None, target="", half=False) -> DamageRoll
    injury_from(basic, dr, damage_type) -> (penetrating, injury)                  # DMG-05..08

Rules: GURPS-DMG-01..08 [004:321-356,1574-1591]. OPEN (RULES.md): ST above 20 is not in the seed;
with `extended=True` (the default, the recommended reading) ST 21-26 follow the Basic Set
continuation; types other than pi-, cut, pi+, imp are x1 except huge piercing (pi++, x2).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from math import floor

from gamekernel.display import Displayable
from gamekernel.errors import RuleError, UsageError
from gamekernel.i18n import t
from gamekernel.text import half_width, match_key


@dataclass(frozen=True)
class DiceAdds:
    """GURPS "dice+adds" (GURPS-SR-01): 2d-1 = two d6 minus 1."""

    dice: int
    adds: int = 0

    def __str__(self) -> str:
        if self.dice == 0:  # flat damage ("8 cr")
            return str(self.adds)
        if self.adds == 0:
            return f"{self.dice}d"
        return f"{self.dice}d{self.adds:+d}"


def _da(text: str) -> DiceAdds:
    n, _, adds = text.partition("d")
    return DiceAdds(int(n), int(adds) if adds else 0)


# GURPS-DMG-02 [004:331-352]: ST -> (thrust, swing).
_SEED_TABLE = {
    1: ("1d-6", "1d-5"), 2: ("1d-6", "1d-5"), 3: ("1d-5", "1d-4"), 4: ("1d-5", "1d-4"),
    5: ("1d-4", "1d-3"), 6: ("1d-4", "1d-3"), 7: ("1d-3", "1d-2"), 8: ("1d-3", "1d-2"),
    9: ("1d-2", "1d-1"), 10: ("1d-2", "1d"), 11: ("1d-1", "1d+1"), 12: ("1d-1", "1d+2"),
    13: ("1d", "2d-1"), 14: ("1d", "2d"), 15: ("1d+1", "2d+1"), 16: ("1d+1", "2d+2"),
    17: ("1d+2", "3d-1"), 18: ("1d+2", "3d"), 19: ("2d-1", "3d+1"), 20: ("2d-1", "3d+2"),
}
# OPEN (RULES.md after DMG-02): Basic Set continuation, used only with extended=True. [std]
_EXTENDED_TABLE = {
    21: ("2d", "4d-1"), 22: ("2d", "4d"), 23: ("2d+1", "4d+1"), 24: ("2d+1", "4d+2"),
    25: ("2d+2", "5d-1"), 26: ("2d+2", "5d"),
}
DAMAGE_TABLE: dict[int, tuple[DiceAdds, DiceAdds]] = {
    st: (_da(t), _da(s)) for st, (t, s) in {**_SEED_TABLE, **_EXTENDED_TABLE}.items()
}
SEED_MAX_ST = 20


def damage_for_st(st: int, *, extended: bool = True) -> tuple[DiceAdds, DiceAdds]:
    """(thrust, swing) for ST (GURPS-DMG-02); ST above 20 only with `extended` (OPEN flag): 21-26 from
    the Basic Set table, above that its standard continuation."""
    if st < 1:
        raise RuleError(t("gurps.err.st_no_damage", st=st))
    if st > SEED_MAX_ST and not extended:
        raise RuleError(t("gurps.err.st_above_seed", st=st))
    if st not in DAMAGE_TABLE:
        return _beyond_table(st)
    return DAMAGE_TABLE[st]


def _steps(index: int, first_dice: int) -> DiceAdds:
    """The -1, +0, +1, +2 cycle of dice+adds: index 0 is (first_dice)d-1."""
    return DiceAdds(index // 4 + first_dice, index % 4 - 1)


def progression_damage(st: int, progression: str = "basic_set") -> tuple[DiceAdds, DiceAdds]:
    """Thrust and swing under GCS's damage progressions: "basic_set" (GURPS-DMG-02 and its
    continuation; below ST 1, where the seed's table has no row, GCS keeps subtracting, so an ST 0
    slime still has a line), "no_school_grognard_damage" (+1 add per 2 ST)
    and "knowing_your_own_strength" (Pyramid 3/83: +1 add per ST)."""
    if progression == "no_school_grognard_damage":
        thrust_i, swing_i = (st - 11) // 2, (st - 8) // 2
        return (_steps(thrust_i, 1) if thrust_i >= 0 else DiceAdds(1, thrust_i - 1),
                _steps(swing_i, 1) if swing_i >= 0 else DiceAdds(1, swing_i - 1))
    if progression == "knowing_your_own_strength":
        return (_steps(st - 15, 2) if st >= 15 else DiceAdds(1, st - 12),
                _steps(st - 13, 2) if st >= 13 else DiceAdds(1, st - 10))
    if st >= 1:
        return damage_for_st(st)
    return DiceAdds(1, -(6 - int((st - 1) / 2))), DiceAdds(1, -(5 - int((st - 1) / 2)))


def _beyond_table(st: int) -> tuple[DiceAdds, DiceAdds]:
    """ST above 26: the Basic Set's continuation (27-28 3d-1/5d+1, ... 100 11d/13d, then +1d per 10 ST),
    written as GCS's "basic set" progression computes it (OPEN after GURPS-DMG-02). [std]"""
    value = st - 11
    if st > 50:
        value -= 1
        if st > 79:
            value -= 1 + (st - 80) // 5
    thrust = DiceAdds(value // 8 + 1, value % 8 // 2 - 1)
    value = st
    if st > 40:
        value -= (st - 40) // 5
    if st > 59:
        value += 1
    value += 9
    swing = DiceAdds(value // 8 + 1, value % 8 // 2 - 1)
    return thrust, swing


def damage_notation(st: int, *, extended: bool = True) -> str:
    """GURPS-DMG-03: the sheet line, e.g. ST 13 -> "1d/2d-1"."""
    thrust, swing = damage_for_st(st, extended=extended)
    return f"{thrust}/{swing}"


# GURPS-DMG-07 + OPEN: wounding multipliers by damage type.
WOUNDING: dict[str, Fraction] = {
    "pi-": Fraction(1, 2),
    "pi": Fraction(1),
    "pi+": Fraction(3, 2),
    "pi++": Fraction(2),
    "cut": Fraction(3, 2),
    "imp": Fraction(2),
    "cr": Fraction(1),
    "burn": Fraction(1),
    "tox": Fraction(1),
    "cor": Fraction(1),
    "fat": Fraction(1),
    "none": Fraction(1),  # a GCS weapon whose file gives no damage type (an Elephant's trunk): shown without one
}
TYPE_ALIASES = {
    "crushing": "cr", "cutting": "cut", "impaling": "imp", "piercing": "pi",
    "small piercing": "pi-", "large piercing": "pi+", "huge piercing": "pi++",
    "burning": "burn", "toxic": "tox", "corrosion": "cor", "fatigue": "fat",
    "叩き": "cr", "切り": "cut", "刺し": "imp", "貫通": "pi", "小貫通": "pi-", "大貫通": "pi+",
    "特大貫通": "pi++", "焼き": "burn", "毒": "tox",
}


def damage_type(name: str) -> str:
    """Canonical damage type ("cut", "pi+", ...) from an abbreviation, English or Japanese name."""
    key = match_key(name)
    key = TYPE_ALIASES.get(key, key)
    if key not in WOUNDING:
        from difflib import get_close_matches

        close = get_close_matches(key, list(WOUNDING) + list(TYPE_ALIASES), n=3)
        hint = (t("gurps.err.did_you_mean", names=", ".join(close)) if close
                else t("gurps.err.known", known=", ".join(WOUNDING)))
        raise UsageError(t("gurps.err.damage_type", name=name, hint=hint))
    return key


def minimum_damage(kind: str) -> int:
    """GURPS-DMG-04: 0 for crushing, 1 for every other type."""
    return 0 if kind == "cr" else 1


def armor_dr(dr: int, divisor: Fraction) -> int:
    """The DR an attack with an armor divisor meets (Basic Set, carried as a GCS file writes it; not a
    rule of the seed): DR divided by the divisor, rounded down, never below 0; a divisor under 1, such
    as (0.5), multiplies DR instead (DR 3 against (0.5) is 6)."""
    if divisor == 1:
        return dr
    return max(0, floor(Fraction(dr) / divisor))


def divisor_text(divisor: Fraction) -> str:
    """"(2)", "(0.5)", "(100)" as GCS writes an armor divisor after the dice; "" for none."""
    if divisor == 1:
        return ""
    return f"({divisor.numerator})" if divisor.denominator == 1 else f"({float(divisor):g})"


def injury_from(basic: int, dr: int, kind: str) -> tuple[int, int]:
    """(penetrating, injury): DMG-05 penetration, DMG-07 multiplier, DMG-08 floor and minimum 1."""
    penetrating = max(0, basic - max(0, dr))
    if penetrating == 0:
        return 0, 0
    injury = floor(penetrating * WOUNDING[kind])
    return penetrating, max(1, injury)


@dataclass(frozen=True)
class DamageSpec:
    """A damage expression: dice+adds, an armor divisor and a type; `source` is "thr"/"sw" when
    derived from ST."""

    dice: int
    adds: int
    kind: str = "cr"
    source: str = ""
    text: str = ""
    divisor: Fraction = Fraction(1)  # armor divisor: "(2)" halves the DR it meets (`armor_dr`)
    times: int = 1  # a damage multiplier, "3dx5": the dice + adds rolled, then multiplied (`basic_roll`)

    def __str__(self) -> str:
        """"2d+1 cut", "1d+2(2) pi", "3dx5 cr"; an untyped one ("none") without its type, as GCS
        shows it ("1d+1")."""
        if self.kind == "none":
            return self.notation.removesuffix(" none")
        return self.notation

    @property
    def notation(self) -> str:
        """Dice, multiplier, divisor and type, the type always written ("1d+1 none"), so that parsing
        it back keeps all of them."""
        times = f"x{self.times}" if self.times != 1 else ""
        return f"{DiceAdds(self.dice, self.adds)}{times}{self.divisor_shown} {self.kind}"

    @property
    def divisor_shown(self) -> str:
        """The armor divisor as GCS writes it, "(2)"; "" for none (`divisor_text`)."""
        return divisor_text(self.divisor)


_DAMAGE_RE = re.compile(
    r"^\s*(?:(?P<n>\d+)\s*d(?:6)?|(?P<src>thr|sw|thrust|swing)|(?P<flat>\d+)(?=\s|$|[+(-]))\s*"
    r"(?P<adds>(?:[+-]\s*\d+\s*)*)"
    r"(?:[x×*]\s*(?P<times>\d+)\s*)?"
    r"(?:\(\s*(?P<div>\d+(?:\.\d+)?)\s*\)\s*)?"
    r"(?P<kind>\S.*?)?\s*$",
    re.IGNORECASE,
)


def parse_damage(text: str, *, st: int | None = None, extended: bool = True,
                 table: tuple[DiceAdds, DiceAdds] | None = None) -> DamageSpec:
    """Parse "2d+1 cut", "3d", "1d-3 pi-", "sw+2 cut", "thr imp" (thr/sw need `st`, or a sheet's own
    (thrust, swing) `table`), an armor divisor "1d+2(2) pi", a multiplier "3dx5 cr", or flat damage
    "8 cr" (no dice: the GM already knows the basic damage)."""
    raw = half_width(text or "").replace("−", "-")
    match = _DAMAGE_RE.match(raw)
    if not match:
        raise UsageError(t("gurps.err.damage_spec", text=text))
    adds = sum(int(a.replace(" ", "")) for a in re.findall(r"[+-]\s*\d+", match.group("adds") or ""))
    kind = damage_type(match.group("kind")) if match.group("kind") else "cr"
    divisor = _divisor(match.group("div"), text)
    times = int(match.group("times") or 1)
    if times < 1:
        raise UsageError(t("gurps.err.damage_times", text=text))
    spec = _parsed(match, adds, kind, text, st=st, extended=extended, table=table)
    return replace(spec, divisor=divisor, times=times) if (divisor != 1 or times != 1) else spec


def _divisor(written: str | None, text: str) -> Fraction:
    """The armor divisor in "(2)" or "(0.5)"; one that is not above 0 is a mistake named in one line."""
    if written is None:
        return Fraction(1)
    divisor = Fraction(written)
    if divisor <= 0:
        raise UsageError(t("gurps.err.damage_divisor", divisor=written, text=text))
    return divisor


def _parsed(match: re.Match[str], adds: int, kind: str, text: str, *, st: int | None, extended: bool,
            table: tuple[DiceAdds, DiceAdds] | None) -> DamageSpec:
    """The dice, thr/sw or flat part of a matched damage expression."""
    if match.group("src"):
        if table is None:
            if st is None:
                raise UsageError(t("gurps.err.damage_needs_st", source=match.group("src")))
            table = damage_for_st(st, extended=extended)
        thrust, swing = table
        base = thrust if match.group("src").lower().startswith("thr") else swing
        source = "thr" if base is thrust else "sw"
        return DamageSpec(base.dice, base.adds + adds, kind, source, text)
    if match.group("flat"):
        return DamageSpec(0, int(match.group("flat")) + adds, kind, "", text)
    dice = int(match.group("n"))
    if dice < 1 or dice > 100:
        raise UsageError(t("gurps.err.damage_dice", dice=dice))
    return DamageSpec(dice, adds, kind, "", text)


def resolve_damage(text: str, table: tuple[DiceAdds, DiceAdds], *, per_die: float = 0,
                   dice_for_adds: bool = False) -> DamageSpec:
    """A sheet weapon's basic damage: thr/sw read from the wielder's (thrust, swing) `table`, then
    `per_die` adds for each die (GCS: the weapon's `modifier_per_die`, Brawling's +1 per die; a Maul's
    3/4 per die on 3d adds 2: the product, its fraction dropped as GCS does), and with `dice_for_adds`
    large adds turned into dice (`dice_from_adds`)."""
    spec = parse_damage(text, table=table)
    if per_die and spec.dice:
        spec = replace(spec, adds=spec.adds + int(Fraction(str(per_die)) * spec.dice))
    if dice_for_adds and spec.dice:
        dice, adds = dice_from_adds(spec.dice, spec.adds)
        spec = replace(spec, dice=dice, adds=adds)
    return spec


def dice_from_adds(dice: int, adds: int) -> tuple[int, int]:
    """The Basic Set's optional "modifying dice + adds", as GCS applies it when a file asks for it
    (`use_modifying_dice_plus_adds`): +4 becomes +1d, +7 becomes +2d (1d+4 -> 2d, 1d+5 -> 2d+1);
    not a rule of the seed, so only a GCS file's own setting turns it on. [std]"""
    while adds > 3:
        if adds > 6:
            adds, dice = adds - 7, dice + 2
        else:
            adds, dice = adds - 4, dice + 1
    return dice, adds


@dataclass(frozen=True)
class DamageRoll(Displayable):
    """A damage roll and its whole working (GURPS-DMG-04..08)."""

    spec: DamageSpec
    faces: tuple[int, ...]
    raw: int  # dice + adds before the minimum
    basic: int  # after the minimum (and halving beyond 1/2D)
    dr: int
    penetrating: int
    multiplier: Fraction
    injury: int
    target: str = ""
    attacker: str = ""
    halved: bool = False
    secret: bool = False

    def to_dict(self) -> dict:
        return {
            "dice": self.spec.dice, "adds": self.spec.adds, "kind": self.spec.kind,
            "source": self.spec.source, "text": self.spec.text, "faces": list(self.faces),
            "dr": self.dr, "target": self.target, "attacker": self.attacker, "halved": self.halved,
            "secret": self.secret, **({"divisor": str(self.spec.divisor)} if self.spec.divisor != 1 else {}),
            **({"times": self.spec.times} if self.spec.times != 1 else {}),
        }

    @classmethod
    def from_dict(cls, data: dict) -> DamageRoll:
        spec = DamageSpec(data["dice"], data["adds"], data["kind"], data.get("source", ""),
                          data.get("text", ""), Fraction(data.get("divisor", "1")), int(data.get("times", 1)))
        result = roll_damage(spec, dr=data.get("dr", 0), dice=data["faces"], target=data.get("target", ""),
                             attacker=data.get("attacker", ""), half=data.get("halved", False))
        if data.get("secret"):
            from dataclasses import replace

            result = replace(result, secret=True)
        return result

    def __repr__(self) -> str:
        return f"<DamageRoll {self}>"

    @property
    def armor_dr(self) -> int:
        """The DR the damage met after its armor divisor (`armor_dr`)."""
        return armor_dr(self.dr, self.spec.divisor)


def basic_roll(faces: tuple[int, ...], spec: DamageSpec) -> int:
    """The dice + adds (GURPS-SR-01), times the spec's multiplier: "3dx5" is the 3d total x 5 (the
    Basic Set's damage multiplier, as a GCS file writes it; not in the seed)."""
    return (sum(faces) + spec.adds) * spec.times


def roll_damage(
    spec: DamageSpec | str,
    *,
    dr: int = 0,
    rng: random.Random | None = None,
    dice: tuple[int, ...] | list[int] | None = None,
    target: str = "",
    attacker: str = "",
    half: bool = False,
    st: int | None = None,
) -> DamageRoll:
    """Roll damage, apply the type's minimum (DMG-04), optional halving beyond 1/2D, DR (DMG-05,06)
    after the spec's armor divisor (`armor_dr`), the wounding multiplier and the injury floor/minimum (DMG-07,08)."""
    if isinstance(spec, str):
        spec = parse_damage(spec, st=st)
    if dice is not None:
        faces = tuple(int(d) for d in dice)
        if len(faces) != spec.dice or any(not 1 <= d <= 6 for d in faces):
            raise UsageError(t("gurps.err.damage_faces", damage=DiceAdds(spec.dice, spec.adds), count=spec.dice,
                                 faces=list(faces)))
    elif rng is not None:
        faces = tuple(rng.randint(1, 6) for _ in range(spec.dice))
    else:
        raise UsageError(t("gurps.err.damage_rng"))
    if dr < 0:
        raise UsageError(t("gurps.err.dr_negative", dr=dr))
    raw = basic_roll(faces, spec)
    basic = max(minimum_damage(spec.kind), raw)
    if half:
        basic = basic // 2
    penetrating, injury = injury_from(basic, armor_dr(dr, spec.divisor), spec.kind)
    return DamageRoll(
        spec=spec, faces=faces, raw=raw, basic=basic, dr=dr, penetrating=penetrating,
        multiplier=WOUNDING[spec.kind], injury=injury, target=target, attacker=attacker, halved=half,
    )
