"""A player's action, sent as an intent (data, never code) and carried out by the GM's kernel.

The table server stamps the authenticated Jupyter user on every intent (a user the page names is
ignored); the kernel checks that the user is seated, that the character is theirs and, in a fight,
that it is their turn or their defence, then calls the same Session method as the magic would,
inside `session.command(user)` so the events record who acted. A refused intent changes nothing and
answers that player alone with one line.

Every byte a player is told comes from what they may see: a done intent is answered with the lines
it added to that player's story (the projection's, so a hidden fighter is "someone", outcomes alone
when the GM discloses outcomes, no secret), a refusal with its one line with every hidden fighter's
name taken out. A player's roll is public: it never draws from the GM's secret dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamekernel.errors import GameKernelError, UsageError
from gamekernel.i18n import t
from gamekernel.remote.limits import MAX_PENDING_PER_PLAYER, MAX_PENDING_TOTAL
from gamekernel.rulesets import check_line, handler_for, holders_of, player_actions
from gamekernel.table.seats import Seats
from gamekernel.text import visible

if TYPE_CHECKING:  # the session it reads and calls: for the type checker only
    from gamekernel.rulesets import Core
    from gamekernel.table_session import Session

MAX_TEXT = 200  # the longest text field an intent may carry (a spec, a card name, dice)
FIELDS = ("character", "dice", "spec", "target", "weapon", "defense", "card")  # what an action may name


@dataclass(frozen=True)
class Reply:
    """What the player who sent the intent is told: done (with the lines it added to their story)
    or one line saying why not."""

    ok: bool
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "text": self.text}


def _text(intent: Mapping[str, Any], key: str, *, optional: bool = False) -> str:
    value = intent.get(key)
    if value is None and optional:
        return ""
    if not isinstance(value, str) or len(value) > MAX_TEXT or "\n" in value or not visible(value).strip():
        raise UsageError(t("remote.err.field", field=key))
    return visible(value).strip()  # what everyone will read: no bidi or zero-width controls


def _character(session: Core, user: str, intent: Mapping[str, Any]) -> str:
    mine = session.state["seats"].seat_of(user)
    if not mine:
        raise UsageError(t("remote.err.no_seat"))
    named = intent.get("character")
    if named is None:
        if len(mine) > 1:
            raise UsageError(t("remote.err.which", characters=", ".join(mine)))
        return mine[0]
    if named not in mine:
        raise UsageError(t("remote.err.not_yours", name=repr(visible(str(named))[:MAX_TEXT])))
    return str(named)


def _roll(session: Session, who: str, intent: Mapping[str, Any]) -> Any:
    return session.roll(_text(intent, "dice"), actor=who)  # public: the session's public stream


def _check(session: Core, who: str, intent: Mapping[str, Any]) -> Any:
    """A check of the player's character, carried out by that character's rule set (`RuleSet.check`,
    the actor first), as `%check SPEC @character` would be: a Fate character's as a GURPS one's. It is
    public (GURPS-SR-09): `--secret` is refused at once, and a secret check a rule set's own words
    would make (GURPS's `-s`) before it is recorded; the character is the seat's (no `@`)."""
    spec = _text(intent, "spec")
    words = spec.split()
    if "--secret" in words:  # the secret dice are the GM's: a secret roll of a player is the GM's ask
        raise UsageError(t("remote.err.player_secret"))
    if any(word.startswith("@") for word in words):
        raise UsageError(t("remote.err.player_actor"))
    with session.public_only():
        return handler_for("check", spec, holders_of(who, session.state)).run(session, check_line(spec, who))


def _answer(session: Core, intent: Mapping[str, Any], user: str) -> None:
    """Roll the GM's ask `intent["ask"]` (the player's own count of their asks) in secret: the asked
    line as `%check SPEC @character --secret`, by the character's rule set (`check_line`)."""
    seats = session.state["seats"]
    number = seats.ask_of(user, intent.get("ask"))
    if number is None:
        raise UsageError(t("remote.err.no_ask"))
    ask = seats.asks[number]
    try:
        spec = ask["spec"]
        handler_for("check", spec, holders_of(ask["character"], session.state)).run(
            session, check_line(spec, ask["character"], secret=True))
    except GameKernelError:  # why is the GM's to know (read when asked): the player learns nothing of it
        raise UsageError(t("remote.err.answer_failed")) from None
    session.record("table.answer", {"ask": number, "user": user}, secret=True)  # the GM alone sees the result


CORE_ACTIONS: dict[str, Callable[[Any, str, Mapping[str, Any]], Any]] = {"roll": _roll, "check": _check}


def actions() -> list[str]:
    """What a player may send, in order: a roll and a check, then every rule set's own actions
    (`RuleSet.player_actions`: GURPS's attack and defend, Gamma World's draw, tap and overcharge ...)."""
    return [*CORE_ACTIONS, *player_actions()]


def _act(session: Core, action: str, who: str, intent: Mapping[str, Any]) -> Any:
    if action in CORE_ACTIONS:
        return CORE_ACTIONS[action](session, who, intent)
    return player_actions()[action](session, who, lambda name, *, optional=False: _text(intent, name,
                                                                                       optional=optional))


ANSWER = "answer"  # the one intent that is no action of a character: the answer to the GM's ask


def handle(session: Core, user: str, intent: Mapping[str, Any]) -> Reply:
    """Carry out one intent of `user` (already authenticated and stamped by the server); with the
    GM's approval on, queue it instead (an answer to the GM's own ask never waits; a player keeps at
    most `MAX_PENDING_PER_PLAYER` waiting, the table `MAX_PENDING_TOTAL`). The reply is the
    player's: drawn from what they may see."""
    if not isinstance(intent, Mapping):
        return Reply(False, t("remote.err.intent"))
    if session.feature(Seats).state.approval and intent.get("action") != ANSWER:
        if not session.feature(Seats).state.seat_of(user):
            return Reply(False, t("remote.err.no_seat"))
        waiting = session.feature(Seats).pending
        if (len(waiting) >= MAX_PENDING_TOTAL
                or sum(1 for p in waiting if p["user"] == user) >= MAX_PENDING_PER_PLAYER):
            return Reply(False, t("remote.err.pending_full", count=MAX_PENDING_PER_PLAYER))
        try:
            kept = queued(intent)
        except GameKernelError as error:
            return Reply(False, for_player(session, str(error)) or t("remote.err.refused"))
        number = max((p["id"] for p in session.feature(Seats).pending), default=0) + 1
        session.feature(Seats).pending.append({"id": number, "user": user, "intent": kept})
        return Reply(True, t("remote.queued"))
    return carry_out(session, user, intent)


def queued(intent: Mapping[str, Any]) -> dict[str, Any]:
    """What of an intent waits for the GM's approval: its action and the fields an action reads,
    each checked as it will be read (a short line of text), nothing else kept."""
    action = intent.get("action")
    if not isinstance(action, str) or action not in actions():
        raise UsageError(t("remote.err.action", action=repr(str(action)[:40]), known=", ".join([*actions(), ANSWER])))
    kept: dict[str, Any] = {"action": action}
    for key in FIELDS:
        if key in intent:
            kept[key] = _text(intent, key)
    return kept


def describe(intent: Mapping[str, Any]) -> str:
    """A waiting action as the GM's approval list shows it: what will be rolled (`roll · 3d6+2`,
    `attack · Bren · Broadsword`), its texts as the player typed them (drawn escaped by the panel)."""
    parts = [str(intent.get("action", ""))]
    parts += [visible(str(intent[key]))[:MAX_TEXT] for key in FIELDS if key != "character" and intent.get(key)]
    if intent.get("character"):
        parts.append(f"({visible(str(intent['character']))[:MAX_TEXT]})")
    return " · ".join(parts)


def approve(session: Core, number: int, *, refuse: bool = False) -> Reply:
    """The GM approves (or refuses) the waiting action `number`: approved, it is carried out as if
    the player had just sent it; the reply goes to the GM (the truth: only the GM reads it), the
    player sees its result in their view."""
    found = next((p for p in session.feature(Seats).pending if p["id"] == number), None)
    if found is None:
        raise UsageError(t("remote.err.no_pending", number=number))
    session.feature(Seats).pending.remove(found)
    if refuse:
        return Reply(True, t("remote.refused", user=found["user"]))
    try:
        result = _run(session, found["user"], found["intent"])
    except GameKernelError as error:
        return Reply(False, str(error))
    return Reply(True, t("remote.answered") if result is _ANSWERED else "" if result is None else str(result))


_ANSWERED = object()  # what `_run` gives back for an answer: its result is the GM's alone


def _run(session: Core, user: str, intent: Mapping[str, Any]) -> Any:
    """Carry out `intent` as `user` (one transaction: refused, it changes nothing); its result."""
    action = intent.get("action")
    with session.command(user):
        if action == ANSWER:
            _answer(session, intent, user)
            return _ANSWERED
        if not isinstance(action, str) or action not in actions():
            raise UsageError(t("remote.err.action", action=repr(visible(str(action))[:40]),
                               known=", ".join([*actions(), ANSWER])))
        return _act(session, action, _character(session, user, intent), intent)


def carry_out(session: Core, user: str, intent: Mapping[str, Any]) -> Reply:
    """Carry out `intent` now and answer the player from their own view of the table."""
    from gamekernel.remote.views import shared_facts

    table = session.public_table().current()
    before = shared_facts(session, table)["story"]
    try:
        result = _run(session, user, intent)
    except GameKernelError as error:
        return Reply(False, for_player(session, str(error)) or t("remote.err.refused"))
    if result is _ANSWERED:
        return Reply(True, t("remote.answered"))
    return Reply(True, _told(session, user, before))


def _told(session: Core, user: str, before: list[dict[str, str]]) -> str:
    """The lines the intent added to the players' story (what every player now reads), hidden
    fighters as "someone"; else what waits (an attack waits for its defence), else "done"."""
    from gamekernel.remote.views import shared_facts

    table = session.public_table().current()
    common = shared_facts(session, table)
    after = common["story"]
    same = len(before) if after[: len(before)] == before else 0  # the story grew: compared by identity first
    while same < min(len(before), len(after)) and before[same] == after[same]:
        same += 1
    lines = [for_player(session, b["text"]) for b in after[same:] if b["kind"] != "heading"]
    lines = [line for line in lines if line]
    if lines:
        return "\n".join(lines)
    fight = common["shadow"].combat.state
    if fight is not None and not fight.over and fight.pending is not None:
        return for_player(session, t("remote.reply.attack_waits", target=fight.pending.target)) or t("remote.done")
    return t("remote.done")


def for_player(session: Core, text: str) -> str:
    """`text` as a player may read it (`views.scrub`): a hidden fighter is "someone", "" when the
    text would still name one."""
    from gamekernel.hiding import scrub

    return scrub(session, text)
