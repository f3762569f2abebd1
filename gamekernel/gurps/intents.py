"""What a seated player may send for a GURPS character from the players' page: an attack on their
turn (GURPS-CMB-26), a defence against an attack on them (GURPS-CMB-40). Each is the magic's session
call; what the player may not do now is refused in one line, and a fighter the GM hides is nobody a
player can name (gamekernel/hiding.py). Declared in `RULESET.player_actions`; the remote table's
intents (gamekernel/remote/intents.py) carry them out and name no rule set.
And the GM's `%table` dashboard clicks on the fight (next turn, end it), `RULESET.dashboard_actions`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gamekernel.errors import NotFoundError, UsageError
from gamekernel.gurps.combat_actions import Combat
from gamekernel.hiding import hidden_keys, is_hidden
from gamekernel.i18n import t
from gamekernel.text import resolve_name

if TYPE_CHECKING:
    from gamekernel.rulesets import Core, FieldOf


def _my_fight(session: Core) -> Any:
    fight = Combat.of(session).state
    if fight is None or fight.over:
        raise UsageError(t("remote.err.no_fight"))
    return fight


def attack(session: Core, who: str, field: FieldOf) -> object:
    """`who` attacks a fighter the players can see, on `who`'s own turn."""
    fight = _my_fight(session)
    hidden = hidden_keys(session)
    if fight.current.name != who:
        if is_hidden(fight.current.name, hidden):
            raise UsageError(t("remote.err.not_your_turn_yet"))
        raise UsageError(t("remote.err.not_your_turn", name=fight.current.name))
    seen = [c.name for c in fight.combatants if not is_hidden(c.name, hidden)]
    target, _ = resolve_name(field("target"), seen)  # a hidden fighter is nobody the players can name
    if target is None:
        # the typed name is not echoed: a hidden name would come back as "someone", telling a
        # player who guesses it that he exists
        raise NotFoundError(t("remote.err.no_target", names=", ".join(seen)))
    return Combat.of(session).attack(who, target, field("weapon"))


def defend(session: Core, who: str, field: FieldOf) -> object:
    """`who` defends against the attack on them (the defence named, or the best)."""
    fight = _my_fight(session)
    if fight.pending is None or fight.pending.target != who:
        raise UsageError(t("remote.err.no_attack_on_you"))
    return Combat.of(session).defend(who, field("defense", optional=True))


def next_turn(session: Core, payload: Mapping[str, Any]) -> object:
    """The dashboard's "next turn" (GURPS-CMB-02)."""
    return Combat.of(session).next()


def end_fight(session: Core, payload: Mapping[str, Any]) -> object:
    return Combat.of(session).end()
