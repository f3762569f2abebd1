"""GURPS fatigue: FP thresholds, losing FP (and HP once FP run out), what costs FP, and rest.
[GURPS-FAT]"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gamekernel.errors import UsageError
from gamekernel.gurps.rules.injury import Check, roll_vs
from gamekernel.i18n import t

FP_STATES = ("rested", "tired", "collapse", "unconscious")


def fp_applies(fp_max: int) -> bool:
    """Whether the FP rows apply at all: a maximum FP of 0 is how GCS writes the Basic Set's "N/A"
    (a zombie, a golem). The seed's FP table (GURPS-FAT-01..03, "all effects are cumulative") is read
    as one track: where it does not apply, no row of it does (tired, Will to act, unconscious) and
    nothing is lost from it."""
    return fp_max > 0


def is_tired(fp: int, fp_max: int) -> bool:
    """FP below a third of max: Move, Dodge and ST halved, round up (GURPS-FAT-01)."""
    return fp_applies(fp_max) and 3 * fp < fp_max


def fp_state(fp: int, fp_max: int) -> str:
    """rested, tired (< FP/3), collapse (<= 0), unconscious (<= -FP) (GURPS-FAT-01..03); always
    rested where FP do not apply (`fp_applies`)."""
    if not fp_applies(fp_max):
        return "rested"
    if fp <= -fp_max:
        return "unconscious"
    if fp <= 0:
        return "collapse"
    return "tired" if is_tired(fp, fp_max) else "rested"


@dataclass(frozen=True)
class FatigueLoss:
    """FP lost, with the HP it costs once FP are at 0 or below (GURPS-FAT-02, FAT-03)."""

    fp_before: int
    fp_after: int
    hp_loss: int

    @property
    def fp_loss(self) -> int:
        return self.fp_before - self.fp_after


def lose_fp(fp: int, fp_max: int, amount: int) -> FatigueLoss:
    """Each FP lost at FP <= 0 also costs 1 HP; FP never drop below -FP, further loss is HP only.
    Nothing is lost where FP do not apply (`fp_applies`)."""
    if amount < 0:
        raise UsageError(t("gurps.err.fp_loss", amount=amount))
    if not fp_applies(fp_max):
        return FatigueLoss(fp, fp, 0)
    now, hp_loss = fp, 0
    for _ in range(amount):
        if now > 0:
            now -= 1
        elif now > -fp_max:
            now -= 1
            hp_loss += 1
        else:
            hp_loss += 1
    return FatigueLoss(fp, now, hp_loss)


def will_to_act(will: int, faces: Sequence[int]) -> Check:
    """At FP <= 0, a Will roll to do anything but Do Nothing; failure = collapse (GURPS-FAT-02)."""
    return roll_vs("Will to act (FP ≤ 0)", will, faces)


def combat_fatigue(seconds: int, encumbrance: int = 0, *, made_attack_or_defense: bool = True) -> int:
    """FP a fight costs when it ends: 1 + encumbrance level if it lasted 11+ s and you attacked or
    defended at least once (GURPS-FAT-04)."""
    if seconds <= 10 or not made_attack_or_defense:
        return 0
    return 1 + encumbrance


def march_fatigue(hours: int, encumbrance: int) -> int:
    """Each hour of road march costs as a fight: Light (1) = 2 FP/hour (GURPS-FAT-05, T-14)."""
    return hours * (1 + encumbrance)




def endurance_interval(sprint: bool) -> int:
    """Seconds between HT rolls when running or swimming: 15 sprinting, 60 paced (GURPS-FAT-06)."""
    return 15 if sprint else 60


def endurance_check(ht: int, faces: Sequence[int]) -> tuple[Check, int]:
    """Running/swimming HT roll: failure = -1 FP (GURPS-FAT-06, GURPS-PHY-13)."""
    check = roll_vs("endurance", ht, faces)
    return check, (0 if check.success else 1)


def hunger_fatigue(meals_missed: int) -> int:
    """-1 FP per missed meal (GURPS-FAT-07)."""
    return meals_missed


def thirst_loss(hours_short: int, days_under_one_litre: int = 0) -> tuple[int, int]:
    """(FP, HP) lost to thirst: 1 FP per 8 h short; under 1 L a day, a further 1 FP and 1 HP a day
    (GURPS-FAT-07)."""
    return hours_short // 8 + days_under_one_litre, days_under_one_litre


def missed_sleep_fatigue(hours_awake: int, waking_period: int = 16) -> int:
    """1 FP past the waking period, then 1 FP per further quarter of it (GURPS-FAT-08)."""
    if hours_awake <= waking_period:
        return 0
    return 1 + (hours_awake - waking_period) // (waking_period // 4)


def rest_recovery(minutes: int, *, good_meal: bool = False) -> int:
    """FP regained by quiet rest: 1 per 10 minutes, +1 for a good meal (GM) (GURPS-FAT-10)."""
    if minutes < 0:
        raise UsageError(t("gurps.err.rest_minutes", minutes=minutes))
    return minutes // 10 + (1 if good_meal else 0)


def rest(fp: int, fp_max: int, minutes: int, *, good_meal: bool = False) -> int:
    """FP after resting, never above max (GURPS-FAT-10)."""
    return min(fp_max, fp + rest_recovery(minutes, good_meal=good_meal)) if fp < fp_max else fp


def sleep_recovery(hours: int) -> int:
    """Missed-sleep FP: 8 h of sleep restore 1, then 1 per further hour (GURPS-FAT-11, literal)."""
    return 0 if hours < 8 else 1 + (hours - 8)
