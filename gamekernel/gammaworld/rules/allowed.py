"""Which actions the rules allow on a readied card now: one place for the refusal and the offer.

`plan_overcharge` raises the refusal; the hand view carries it, so a widget offers Overcharge
only where the rules would accept it and can say why not.
"""

from __future__ import annotations

from gamekernel.gammaworld.rules.schema import AlphaCard
from gamekernel.i18n import t


def overcharge_refusal(facts: AlphaCard, *, tapped: bool, overcharged: bool) -> str | None:
    """Why `facts` cannot be overcharged now, or None (GW-ALPHA-12..14: once per power; seed 000:
    overcharging uses the power, and a used (tapped) power is spent)."""
    if facts.overcharge is None:
        return t("gammaworld.err.no_overcharge", card=facts.name)
    if overcharged:
        return t("gammaworld.err.overcharged", card=facts.name)
    if tapped:
        return t("gammaworld.err.overcharge_tapped", card=facts.name)
    return None
