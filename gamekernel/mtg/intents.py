"""What a seated player may send for an MtG character from the players' page: a boost (MTG-CHK-13),
the magic's session call. Declared in `RULESET.player_actions`; gamekernel/remote/intents.py carries
it out and names no rule set.
And the GM's `%table` dashboard clicks (a check, a new scene) and its colour names,
`RULESET.dashboard_actions` and `.dashboard_labels`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.mtg.actions import Mtg

if TYPE_CHECKING:
    from gamekernel.rulesets import Core, FieldOf


def boost(session: Core, who: str, field: FieldOf) -> object:
    return Mtg.of(session).boost(who)


def dashboard_check(session: Core, payload: Mapping[str, Any]) -> object:
    """The dashboard's action check of a row's character (MTG-CHK-01): its colour and difficulty."""
    try:
        difficulty = int(payload.get("difficulty", ""))
    except (TypeError, ValueError):
        raise UsageError(t("mtg.err.difficulty", difficulty=payload.get("difficulty"))) from None
    return Mtg.of(session).check(str(payload.get("kind", "")), difficulty, actor=str(payload.get("name", "")))


def new_scene(session: Core, payload: Mapping[str, Any]) -> object:
    return Mtg.of(session).scene()


def dashboard_labels() -> dict[str, Any]:
    """The colour picker's choices on the dashboard, in the current language."""
    from gamekernel.mtg.render import colour_name
    from gamekernel.mtg.rules.kinds import KINDS

    return {"colours": [[k, colour_name(k)] for k in KINDS]}
