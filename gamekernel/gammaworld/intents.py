"""What a seated player may send for a Gamma World character from the players' page: draw, tap and
overcharge an alpha card (GW-ALPHA-04, GW-ALPHA-08, GW-ALPHA-13), each the magic's session call. Declared in
`RULESET.player_actions`; gamekernel/remote/intents.py carries them out and names no rule set.
And the GM's `%table` dashboard clicks (tap, untap, flux, an encounter's start and end),
`RULESET.dashboard_actions`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gamekernel.gammaworld.actions import GammaWorld

if TYPE_CHECKING:
    from gamekernel.rulesets import Core, FieldOf


def draw(session: Core, who: str, field: FieldOf) -> object:
    return GammaWorld.of(session).draw(who)


def tap(session: Core, who: str, field: FieldOf) -> object:
    return GammaWorld.of(session).tap(who, field("card"))


def overcharge(session: Core, who: str, field: FieldOf) -> object:
    return GammaWorld.of(session).overcharge(who, field("card"))


def tap_card(session: Core, payload: Mapping[str, Any]) -> object:
    """The dashboard's tap on a readied card (GW-ALPHA-08)."""
    return GammaWorld.of(session).tap(str(payload.get("name", "")), str(payload["uid"]))


def untap_card(session: Core, payload: Mapping[str, Any]) -> object:
    return GammaWorld.of(session).untap(str(payload.get("name", "")), str(payload["uid"]))


def resolve_flux(session: Core, payload: Mapping[str, Any]) -> object:
    """GW-ALPHA-10: a secret flux's resolution stays out of the dashboard's record."""
    from gamekernel.gammaworld.rules.results import as_the_table_sees

    uid = str(payload["uid"]) if payload.get("uid") else None
    return as_the_table_sees(GammaWorld.of(session).flux(str(payload.get("name", "")), uid))


def encounter_start(session: Core, payload: Mapping[str, Any]) -> object:
    return GammaWorld.of(session).encounter_start()


def encounter_end(session: Core, payload: Mapping[str, Any]) -> object:
    """GW-ALPHA-09."""
    return GammaWorld.of(session).encounter_end()
