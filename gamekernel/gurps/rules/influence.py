"""GURPS Influence rolls: a Quick Contest of an Influence skill against the target's Will.

    influence_outcome(contest, skill, reaction=None) -> InfluenceResult   # GURPS-MEN-06..08

Win -> Good reaction (Very Good with Sex Appeal); any other result -> Bad (Very Bad when an
Intimidation attempt does not win). Diplomacy: the GM also makes a normal reaction roll and the
better result is used. OPEN (MEN-08): a tie is not a win -> Bad.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamekernel.display import Displayable
from gamekernel.errors import UsageError
from gamekernel.gurps.rules.contests import QuickContest
from gamekernel.gurps.rules.reactions import BAND_ORDER, ReactionBand, ReactionRoll, band_by_key
from gamekernel.i18n import t

INFLUENCE_SKILLS = ("Diplomacy", "Fast-Talk", "Intimidation", "Savoir-Faire", "Sex Appeal", "Streetwise")


@dataclass(frozen=True)
class InfluenceResult(Displayable):
    """The contest, the skill used, the reaction it produced and (Diplomacy) the reaction roll."""

    contest: QuickContest
    skill: str
    band: ReactionBand
    reaction: ReactionRoll | None = None
    secret: bool = False

    @property
    def won(self) -> bool:
        return self.contest.winner == "a"

    def to_dict(self) -> dict:
        return {"contest": self.contest.to_dict(), "skill": self.skill,
                "reaction": self.reaction.to_dict() if self.reaction else None, "secret": self.secret}

    @classmethod
    def from_dict(cls, data: dict) -> InfluenceResult:
        reaction = ReactionRoll.from_dict(data["reaction"]) if data.get("reaction") else None
        result = influence_outcome(QuickContest.from_dict(data["contest"]), data["skill"], reaction)
        if data.get("secret"):
            from dataclasses import replace

            result = replace(result, secret=True)
        return result

    def __repr__(self) -> str:
        return f"<InfluenceResult {self}>"


def influence_outcome(contest: QuickContest, skill: str, reaction: ReactionRoll | None = None) -> InfluenceResult:
    """Read a finished contest (side "a" = the influencer, "b" = the target's Will)."""
    if skill not in INFLUENCE_SKILLS and not skill:
        raise UsageError(t("gurps.err.influence_skill", skills=", ".join(INFLUENCE_SKILLS)))
    won = contest.winner == "a"
    if won:
        band = band_by_key("very_good" if skill == "Sex Appeal" else "good")
    else:
        band = band_by_key("very_bad" if skill == "Intimidation" else "bad")
    if skill == "Diplomacy" and reaction is not None and BAND_ORDER[reaction.band.key] > BAND_ORDER[band.key]:
        band = reaction.band
    return InfluenceResult(contest, skill, band, reaction)
