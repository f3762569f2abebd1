"""What a seated player may send for a Gamma World character from the players' page: draw, tap and
overcharge an alpha card (GW-ALPHA-04, GW-ALPHA-08, GW-ALPHA-13), each the magic's session call. Declared in
`RULESET.player_actions`; gamekernel/remote/intents.py carries them out and names no rule set."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamekernel.gammaworld.actions import GammaWorld

if TYPE_CHECKING:
    from gamekernel.rulesets import Core, FieldOf


def draw(session: Core, who: str, field: FieldOf) -> object:
    return GammaWorld.of(session).draw(who)


def tap(session: Core, who: str, field: FieldOf) -> object:
    return GammaWorld.of(session).tap(who, field("card"))


def overcharge(session: Core, who: str, field: FieldOf) -> object:
    return GammaWorld.of(session).overcharge(who, field("card"))
