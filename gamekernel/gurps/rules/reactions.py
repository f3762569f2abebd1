"""GURPS reaction rolls: 3d plus every reaction modifier, read on the reaction table.

    reaction_band(total) -> ReactionBand                    # GURPS-RR-04, every row
    reaction_roll(modifiers=(), *, rng=None, dice=None, npc="", actor="") -> ReactionRoll
    reaction_odds(total_modifier) -> {band key: Fraction}   # exact, for teaching

No target number; modifiers add to the dice and higher is better (GURPS-RR-02). The character's
own modifiers (Appearance, Charisma, Voice, Reputation, OPH, ...) come from
Character.reaction_modifiers().
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from gamekernel.display import Displayable
from gamekernel.errors import UsageError
from gamekernel.gurps.rules.checks import Modifier, normalize_modifiers, roll_3d6
from gamekernel.gurps.rules.odds import OUTCOMES_3D6, three_d6_counts
from gamekernel.i18n import t


@dataclass(frozen=True)
class ReactionBand:
    """One row of the reaction table: totals low..high (None = open end)."""

    key: str
    low: int | None
    high: int | None
    name: str
    ja: str
    behaviour: str


# GURPS-RR-04 [004:110-119]
REACTION_TABLE: tuple[ReactionBand, ...] = (
    ReactionBand("disastrous", None, 0, "Disastrous", "最悪",
                 "hates the PCs; will attack, betray, insult or abandon them"),
    ReactionBand("very_bad", 1, 3, "Very Bad", "とても悪い",
                 "dislikes them; acts against them if convenient (attack, outrageous prices)"),
    ReactionBand("bad", 4, 6, "Bad", "悪い", "does not care; acts against them if there is profit in it"),
    ReactionBand("poor", 7, 9, "Poor", "良くない", "unimpressed; may threaten or demand a large price for help"),
    ReactionBand("neutral", 10, 12, "Neutral", "中立",
                 "ignores them where possible; routine dealings go by the book"),
    ReactionBand("good", 13, 15, "Good", "良い",
                 "likes them; helpful within normal limits; reasonable requests granted"),
    ReactionBand("very_good", 16, 18, "Very Good", "とても良い",
                 "thinks highly of them; very helpful and friendly; grants aid; gives bargains"),
    ReactionBand("excellent", 19, None, "Excellent", "最高",
                 "extremely impressed; helps to the limit of ability, even at risk of life, wealth or reputation"),
)
BAND_ORDER = {band.key: index for index, band in enumerate(REACTION_TABLE)}


def reaction_band(total: int) -> ReactionBand:
    """The table row for a modified reaction total (GURPS-RR-04)."""
    for band in REACTION_TABLE:
        if (band.low is None or total >= band.low) and (band.high is None or total <= band.high):
            return band
    raise AssertionError(total)


def band_by_key(key: str) -> ReactionBand:
    for band in REACTION_TABLE:
        if band.key == key:
            return band
    raise UsageError(t("gurps.err.reaction_level", key=key))


@dataclass(frozen=True)
class ReactionRoll(Displayable):
    """A reaction roll: dice, labelled modifiers, total and the table row."""

    dice: tuple[int, ...]
    modifiers: tuple[Modifier, ...]
    total: int
    band: ReactionBand
    npc: str = ""
    actor: str = ""
    secret: bool = False


    def to_dict(self) -> dict:
        return {"dice": list(self.dice), "modifiers": [[m.value, m.label] for m in self.modifiers],
                "npc": self.npc, "actor": self.actor, "secret": self.secret}

    @classmethod
    def from_dict(cls, data: dict) -> ReactionRoll:
        result = reaction_roll([tuple(m) for m in data.get("modifiers", [])], dice=data["dice"],
                               npc=data.get("npc", ""), actor=data.get("actor", ""))
        if data.get("secret"):
            from dataclasses import replace

            result = replace(result, secret=True)
        return result

    def __repr__(self) -> str:
        return f"<ReactionRoll {self}>"


def reaction_roll(
    modifiers: Iterable = (),
    *,
    rng: random.Random | None = None,
    dice: Iterable[int] | None = None,
    npc: str = "",
    actor: str = "",
) -> ReactionRoll:
    """Roll 3d + modifiers and read the table (GURPS-RR-01..04)."""
    mods = normalize_modifiers(modifiers)
    if dice is not None:
        faces = tuple(int(d) for d in dice)
        if len(faces) != 3 or any(not 1 <= d <= 6 for d in faces):
            raise UsageError(t("gurps.err.reaction_faces", faces=list(faces)))
    elif rng is not None:
        faces = roll_3d6(rng)
    else:
        raise UsageError(t("gurps.err.reaction_dice"))
    total = sum(faces) + sum(m.value for m in mods)
    return ReactionRoll(faces, mods, total, reaction_band(total), npc, actor)


def reaction_odds(total_modifier: int = 0) -> dict[str, Fraction]:
    """Exact chance of each reaction level for 3d + total_modifier."""
    out = {band.key: Fraction(0) for band in REACTION_TABLE}
    for total, ways in three_d6_counts().items():
        out[reaction_band(total + total_modifier).key] += Fraction(ways, OUTCOMES_3D6)
    return out
