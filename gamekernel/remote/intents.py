"""A player's action, sent as an intent (data, never code) and carried out by the GM's kernel.

The table server stamps the authenticated Jupyter user on every intent (a user the page names is
ignored); the kernel checks that the user is seated, that the character is theirs and, in a fight,
that it is their turn or their defence, then calls the same Session method as the magic would,
inside `acting_as(user)` so the events record who acted. A refused intent changes nothing and
answers that player alone with one line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gamekernel.errors import GameKernelError, UsageError
from gamekernel.i18n import t

MAX_TEXT = 200  # the longest text field an intent may carry (a spec, a card name, dice)


@dataclass(frozen=True)
class Reply:
    """What the player who sent the intent is told: done (with the public text of the result, or
    nothing for a secret one) or one line saying why not."""

    ok: bool
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "text": self.text}


def _text(intent: Mapping[str, Any], key: str, *, optional: bool = False) -> str:
    value = intent.get(key)
    if value is None and optional:
        return ""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT or "\n" in value:
        raise UsageError(t("remote.err.field", field=key))
    return value.strip()


def _character(session: Any, user: str, intent: Mapping[str, Any]) -> str:
    mine = session.state["seats"].seat_of(user)
    if not mine:
        raise UsageError(t("remote.err.no_seat"))
    named = intent.get("character")
    if named is None:
        if len(mine) > 1:
            raise UsageError(t("remote.err.which", characters=", ".join(mine)))
        return mine[0]
    if named not in mine:
        raise UsageError(t("remote.err.not_yours", name=repr(str(named)[:MAX_TEXT])))
    return str(named)


def _roll(session: Any, who: str, intent: Mapping[str, Any]) -> Any:
    return session.roll(_text(intent, "dice"), actor=who)


def _check(session: Any, who: str, intent: Mapping[str, Any]) -> Any:
    from gamekernel.gurps.rules.checks import parse_check_spec
    from gamekernel.mtg.rules.kinds import names_a_kind
    from gamekernel.mtg.rules.kinds import parse_check_spec as parse_mtg_check

    spec = _text(intent, "spec")
    if names_a_kind(spec):
        kind, difficulty = parse_mtg_check(spec)
        return session.mtg_check(kind, difficulty, actor=who)
    return session.gurps_check(parse_check_spec(spec), actor=who)


def _my_fight(session: Any) -> Any:
    fight = session.combat_state
    if fight is None or fight.over:
        raise UsageError(t("remote.err.no_fight"))
    return fight


def _attack(session: Any, who: str, intent: Mapping[str, Any]) -> Any:
    fight = _my_fight(session)
    if fight.current.name != who:
        raise UsageError(t("remote.err.not_your_turn", name=fight.current.name))
    return session.combat_attack(who, _text(intent, "target"), _text(intent, "weapon"))


def _defend(session: Any, who: str, intent: Mapping[str, Any]) -> Any:
    fight = _my_fight(session)
    if fight.pending is None or fight.pending.target != who:
        raise UsageError(t("remote.err.no_attack_on_you"))
    return session.combat_defend(who, _text(intent, "defense", optional=True))


def _draw(session: Any, who: str, intent: Mapping[str, Any]) -> Any:
    return session.gw_draw(who)


def _tap(session: Any, who: str, intent: Mapping[str, Any]) -> Any:
    return session.gw_tap(who, _text(intent, "card"))


def _overcharge(session: Any, who: str, intent: Mapping[str, Any]) -> Any:
    return session.gw_overcharge(who, _text(intent, "card"))


def _boost(session: Any, who: str, intent: Mapping[str, Any]) -> Any:
    return session.mtg_boost(who)


def _answer(session: Any, intent: Mapping[str, Any], user: str) -> None:
    from gamekernel.gurps.rules.checks import parse_check_spec

    number = intent.get("ask")
    asks = session.state["seats"].asks
    if type(number) is not int or number not in asks or asks[number]["user"] != user:
        raise UsageError(t("remote.err.no_ask"))
    ask = asks[number]
    session.gurps_check(parse_check_spec(ask["spec"]), actor=ask["character"], secret=True)
    session.record("table.answer", {"ask": number, "user": user}, secret=True)  # the GM alone sees the result


ACTIONS: dict[str, Callable[..., Any]] = {
    "roll": _roll, "check": _check, "attack": _attack, "defend": _defend,
    "draw": _draw, "tap": _tap, "overcharge": _overcharge, "boost": _boost,
}


def handle(session: Any, user: str, intent: Mapping[str, Any]) -> Reply:
    """Carry out one intent of `user` (already authenticated and stamped by the server); with the
    GM's approval on, queue it instead (an answer to the GM's own ask never waits)."""
    if not isinstance(intent, Mapping):
        return Reply(False, t("remote.err.intent"))
    if session.table_seats.approval and intent.get("action") != "answer":
        if not session.table_seats.seat_of(user):
            return Reply(False, t("remote.err.no_seat"))
        number = max((p["id"] for p in session.table_pending), default=0) + 1
        session.table_pending.append({"id": number, "user": user, "intent": dict(intent)})
        return Reply(True, t("remote.queued"))
    return carry_out(session, user, intent)


def approve(session: Any, number: int, *, refuse: bool = False) -> Reply:
    """The GM approves (or refuses) the waiting action `number`: approved, it is carried out as if
    the player had just sent it; the reply goes to the GM, the player sees its result in their view."""
    found = next((p for p in session.table_pending if p["id"] == number), None)
    if found is None:
        raise UsageError(t("remote.err.no_pending", number=number))
    session.table_pending.remove(found)
    if refuse:
        return Reply(True, t("remote.refused", user=found["user"]))
    return carry_out(session, found["user"], found["intent"])


def carry_out(session: Any, user: str, intent: Mapping[str, Any]) -> Reply:
    action = intent.get("action")
    try:
        with session.acting_as(user), session.transaction():
            if action == "answer":
                _answer(session, intent, user)
                return Reply(True, t("remote.answered"))
            run = ACTIONS.get(action) if isinstance(action, str) else None
            if run is None:
                raise UsageError(t("remote.err.action", action=repr(str(action)[:40]),
                                   known=", ".join([*ACTIONS, "answer"])))
            result = run(session, _character(session, user, intent), intent)
    except GameKernelError as error:
        return Reply(False, str(error))
    return Reply(True, _public_text(session, result))


def _public_text(session: Any, result: Any) -> str:
    """The result as the player may read it: a check by its outcome alone when the GM discloses
    only outcomes."""
    from gamekernel.gurps.rules.checks import SuccessRoll

    if isinstance(result, SuccessRoll) and session.state["seats"].disclose == "outcome":
        return t("story.outcome.success" if result.success else "story.outcome.failure")
    return "" if result is None else str(result)
