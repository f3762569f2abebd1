"""What a seated player may send for an MtG character from the players' page: a boost (MTG-CHK-13),
the magic's session call. Declared in `RULESET.player_actions`; gamekernel/remote/intents.py carries
it out and names no rule set."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamekernel.mtg.actions import Mtg

if TYPE_CHECKING:
    from gamekernel.rulesets import Core, FieldOf


def boost(session: Core, who: str, field: FieldOf) -> object:
    return Mtg.of(session).boost(who)
