"""GURPS attack rolls: the seed's melee and ranged modifier lists, the size and speed/range table,
postures, Move and Attack's cap, criticals. [GURPS-CMB-25..39]

`melee_modifiers` / `ranged_modifiers` build the labelled modifier list (so the result shows every
one); `attack_roll` rolls it with the core success roll. A critical hit allows no defense
(GURPS-CMB-27); 17-18 always miss (CMB-28).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules import vocabulary
from gamekernel.gurps.rules.checks import SuccessRoll, refused_text, success_roll
from gamekernel.i18n import t

Mod = tuple[int, str]

MOVE_AND_ATTACK_MELEE_CAP = 9  # GURPS-CMB-19


@cache
def combat_tables() -> dict:
    text = resources.files("gamekernel.gurps").joinpath("data/combat_tables.json").read_text("utf-8")
    return json.loads(text)


# ---------------------------------------------------------------- size and speed/range (CMB-37..39)


def _rows(full: bool) -> list[dict]:
    table = combat_tables()["size_speed_range"]
    rows = list(table["rows"]) + (list(table["full_rows"]) if full else [])
    return sorted(rows, key=lambda row: row["value_m"])


def _row_for(value_m: float, full: bool) -> dict | None:
    value = Fraction(str(value_m))
    for row in _rows(full):
        if value <= Fraction(str(row["value_m"])):
            return row
    return None


def size_modifier(longest_m: float, *, full_table: bool = False) -> int:
    """SM from the longest dimension; between rows use the larger row (GURPS-CMB-38). Human 2 m -> 0."""
    if longest_m <= 0:
        raise UsageError(t("combat.err.size", size=longest_m))
    row = _row_for(longest_m, full_table)
    if row is None:
        raise RuleError(t("combat.err.size_table", size=longest_m))
    return row["size"]


def speed_range_modifier(range_m: float, speed_mps: float = 0, *, full_table: bool = False) -> int:
    """Speed (m/s) + range (m), next larger row (8 m -> 10 m row -> -4); on foot speed 0
    (GURPS-CMB-39; T-17: a motorcycle 40 m away at 30 m/s -> 70 -> -9)."""
    total = range_m + speed_mps
    if total < 0:
        raise UsageError(t("combat.err.range_speed", range=range_m, speed=speed_mps))
    row = _row_for(total, full_table)
    if row is None:
        raise RuleError(t("combat.err.range_table", total=total))
    return row["speed_range"]


def vehicle_speed_mps(kmh: float) -> float:
    """Vehicle speed for the table: km/h / 3 (GURPS-CMB-39)."""
    return kmh / 3


# ---------------------------------------------------------------- postures (CMB-09..11)

POSTURES = vocabulary.keys("postures")


def posture_row(posture: str) -> dict:
    table = combat_tables()["postures"]
    if posture not in POSTURES:
        from difflib import get_close_matches

        close = get_close_matches(posture, POSTURES, n=2)
        hint = (t("gurps.err.did_you_mean", names=t("gurps.err.or").join(close)) if close
                else t("gurps.err.choose", choices=", ".join(POSTURES)))
        raise UsageError(t("combat.err.posture", posture=posture, hint=hint))
    return table[posture]


def posture_move(posture: str, move: int) -> int:
    """Move in a posture: crouching 2/3, kneeling and crawling 1/3 (floored, OPEN), sitting none,
    lying 1 m/s (GURPS-CMB-11)."""
    row = posture_row(posture)
    if "move_fixed" in row:
        return min(move, row["move_fixed"])
    return move * row["move_num"] // row["move_den"]


def is_lying(posture: str) -> bool:
    return posture.startswith("lying")


def posture_change_allowed(old: str, new: str) -> bool:
    """Lying -> standing needs a stop at crawling or kneeling first (two Change Posture maneuvers);
    everything else takes one (GURPS-CMB-10)."""
    posture_row(old), posture_row(new)
    return not (is_lying(old) and new == "standing")


# ---------------------------------------------------------------- modifier lists (CMB-33..36)


@dataclass(frozen=True)
class Situation:
    """The attacker's situation, shared by melee and ranged (GURPS-CMB-33, CMB-34)."""

    maneuver: str = "attack"  # attack | all_out_attack | move_and_attack
    aoa_option: str = ""  # determined | double | feint | strong
    posture: str = "standing"
    shock: int = 0
    off_hand: bool = False
    ambidextrous: bool = False
    bad_footing: int = 0  # -2 or worse (GM)
    clothing_fire: str = ""  # "" | "part" (-2) | "all" (-3)
    weapon_st_short: int = 0
    vision: str = ""  # "" | "blind" (-10) | "unseen" (-6) | "unseen_near" (-4)
    poor_light: int = 0  # -1..-9 (GM)
    extra: tuple[Mod, ...] = ()


def _common(s: Situation) -> list[Mod]:
    mods: list[Mod] = []
    if s.maneuver == "move_and_attack":
        mods.append((-4, "Move and Attack"))
    if s.shock:
        mods.append((-min(4, s.shock), "shock"))
    row = posture_row(s.posture)
    if row["attack"]:
        mods.append((row["attack"], s.posture.replace("_", " ")))
    if s.bad_footing:
        mods.append((-abs(s.bad_footing), "bad footing"))
    if s.clothing_fire == "part":
        mods.append((-2, "clothing on fire"))
    elif s.clothing_fire == "all":
        mods.append((-3, "all clothing on fire"))
    if s.weapon_st_short > 0:
        mods.append((-s.weapon_st_short, "weapon ST"))
    vision = {"blind": (-10, "blind / total darkness"), "unseen": (-6, "foe unseen"),
              "unseen_near": (-4, "foe unseen, within 1 m")}
    if s.vision:
        if s.vision not in vision:
            raise UsageError(t("combat.err.vision", vision=s.vision))
        mods.append(vision[s.vision])
    if s.poor_light:
        mods.append((-abs(s.poor_light), "poor light"))
    if s.off_hand and not s.ambidextrous:
        mods.append((-4, "off hand"))
    mods.extend(s.extra)
    return mods


def melee_modifiers(s: Situation, *, large_shield: bool = False) -> tuple[Mod, ...]:
    """Any-attack modifiers plus melee only: All-Out Attack (Determined) +4, a large shield -2
    (GURPS-CMB-33..35)."""
    mods = _common(s)
    if s.maneuver == "all_out_attack" and s.aoa_option == "determined":
        mods.insert(0, (4, "All-Out Attack (Determined)"))
    if large_shield:
        mods.append((-2, "large shield"))
    return tuple(mods)


def ranged_modifiers(
    s: Situation,
    *,
    range_m: float = 0,
    speed_mps: float = 0,
    target_size_m: float | None = None,
    target_posture: str = "standing",
    acc: int = 0,
    aim_turns: int = 0,
    braced: bool = False,
    scope: int = 0,
    full_table: bool = False,
) -> tuple[Mod, ...]:
    """Any-attack modifiers plus ranged only: All-Out Attack +1; Aim +Acc, braced +1, more aim +1/+2,
    scope +1/s up to its bonus; Move and Attack loses Aim; size and speed/range; a target not
    standing -2 (GURPS-CMB-11, CMB-36..39)."""
    mods = _common(s)
    if s.maneuver == "all_out_attack":
        mods.insert(0, (1, "All-Out Attack"))
    if aim_turns > 0 and s.maneuver != "move_and_attack":
        if acc:
            mods.append((acc, "Aim (Acc)"))
        if braced:
            mods.append((1, "braced"))
        if aim_turns >= 3:
            mods.append((2, "aimed 3+ s"))
        elif aim_turns == 2:
            mods.append((1, "aimed 2 s"))
        if scope:
            mods.append((min(scope, aim_turns), "scope"))
    if target_size_m is not None:
        sm = size_modifier(target_size_m, full_table=full_table)
        if sm:
            mods.append((sm, f"size {target_size_m} m"))
    sr = speed_range_modifier(range_m, speed_mps, full_table=full_table)
    if sr:
        mods.append((sr, f"speed+range {range_m + speed_mps:g} m"))
    target_row = posture_row(target_posture)
    if target_row["target"]:
        mods.append((target_row["target"], f"target {target_posture.replace('_', ' ')}"))
    return tuple(mods)


# ---------------------------------------------------------------- the roll (CMB-25..28)


@dataclass(frozen=True)
class AttackRoll:
    """An attack roll: the core success roll (every modifier shown) and its combat meaning."""

    attacker: str
    target: str
    weapon: str
    ranged: bool
    roll: SuccessRoll

    @property
    def hit(self) -> bool:
        return self.roll.success

    @property
    def critical_hit(self) -> bool:
        """3-4 always; 5 at 15+; 6 at 16+: no defense allowed (GURPS-CMB-27)."""
        return self.roll.critical == "success"

    @property
    def critical_miss(self) -> bool:
        return self.roll.critical == "failure"


def attack_modifiers_with_cap(skill: int, mods: Sequence[Mod], *, capped_at: int | None) -> tuple[Mod, ...]:
    """Move and Attack melee: effective skill at most 9 after modifiers (GURPS-CMB-19); the cap shows
    as one more labelled modifier so the working stays visible."""
    mods = tuple(mods)
    if capped_at is not None:
        effective = skill + sum(v for v, _ in mods)
        if effective > capped_at:
            mods = (*mods, (capped_at - effective, f"Move and Attack cap {capped_at}"))
    return mods


def attack_roll(
    attacker: str,
    target: str,
    weapon: str,
    skill: int,
    mods: Sequence[Mod],
    faces: Sequence[int],
    *,
    ranged: bool = False,
    move_and_attack: bool = False,
) -> AttackRoll:
    """3d vs effective weapon skill; refuses below 3 (GURPS-SR-05, CMB-26)."""
    cap = MOVE_AND_ATTACK_MELEE_CAP if move_and_attack and not ranged else None
    mods = attack_modifiers_with_cap(skill, mods, capped_at=cap)
    roll = success_roll(skill, mods, label=weapon, actor=attacker, dice=tuple(faces), kind="attack")
    if roll.refused:
        raise RuleError(t("combat.err.attack_refused", attacker=attacker, weapon=weapon, reason=refused_text(roll)))
    return AttackRoll(attacker, target, weapon, ranged, roll)
