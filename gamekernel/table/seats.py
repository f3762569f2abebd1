"""Seats, asks and reveals: the GM's side of a remote table, each an event like every other change.

A seat gives a Jupyter user a character (`%table seat alice Aiko`); an ask requests a roll from a
player whose result only the GM sees (`%table ask alice Per`); a reveal makes one secret event public
(`%reveal 12`); `disclose` chooses whether players see a check's target and margin or only its outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamekernel.errors import GameKernelError, NotFoundError, UsageError
from gamekernel.events import ENTROPY_KIND, register_event
from gamekernel.i18n import t
from gamekernel.remote.hub.names import normalize_user, valid_user
from gamekernel.rulesets import RuleSetHandle
from gamekernel.state import register_part
from gamekernel.text import visible

if TYPE_CHECKING:  # the public Session it acts on (`table`): for the type checker only
    pass

PART = "seats"
DISCLOSURES = ("full", "outcome")


@dataclass
class SeatsState:
    """Who sits where, what the GM asked and revealed, how much of a check players see."""

    seats: dict[str, list[str]] = field(default_factory=dict)  # user -> characters
    asks: dict[int, dict[str, Any]] = field(default_factory=dict)  # open asks by the seq that made them
    asked: dict[str, int] = field(default_factory=dict)  # user -> asks made of them: their ask's number
    revealed: list[int] = field(default_factory=list)
    disclose: str = "full"
    approval: bool = False  # players' actions wait for the GM's approval
    hidden: list[str] = field(default_factory=list)  # fighters the players do not see (an ambush)

    def to_dict(self) -> dict[str, Any]:
        return {"seats": {u: list(c) for u, c in sorted(self.seats.items())},
                "asks": {str(k): dict(v) for k, v in sorted(self.asks.items())},
                "revealed": list(self.revealed), "disclose": self.disclose, "approval": self.approval,
                "hidden": list(self.hidden), "asked": dict(sorted(self.asked.items()))}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatsState:
        asks = {int(k): dict(v) for k, v in sorted(data.get("asks", {}).items(), key=lambda kv: int(kv[0]))}
        asked = {str(u): int(n) for u, n in data.get("asked", {}).items()}
        for ask in asks.values():  # a state saved before asks had their player's own number
            if "n" not in ask:
                asked[ask["user"]] = ask["n"] = asked.get(ask["user"], 0) + 1
        return cls({u: list(c) for u, c in data.get("seats", {}).items()}, asks, asked,
                   list(data.get("revealed", [])), str(data.get("disclose", "full")), bool(data.get("approval", False)),
                   list(data.get("hidden", [])))

    def seat_of(self, user: str) -> list[str]:
        return list(self.seats.get(user, []))

    def owner_of(self, character: str) -> str | None:
        return next((u for u, chars in self.seats.items() if character in chars), None)

    def ask_of(self, user: str, number: Any) -> int | None:
        """The key of `user`'s open ask their page calls `number` (their own count, never an event
        number: a player learns nothing of how many events the GM logged), or None."""
        if type(number) is not int:
            return None
        return next((k for k, a in self.asks.items() if a["user"] == user and a["n"] == number), None)

    def is_hidden(self, name: str) -> bool:
        """Whether `name` is a hidden fighter (`%table hide`), compared as every name is (`match_key`)."""
        from gamekernel.text import match_key

        key = match_key(name)
        return any(match_key(h) == key for h in self.hidden)


def _apply_seat(state: Any, data: Mapping[str, Any]) -> None:
    part: SeatsState = state[PART]
    for chars in part.seats.values():
        if data["character"] in chars:
            chars.remove(data["character"])
    part.seats.setdefault(data["user"], []).append(data["character"])
    part.seats = {u: c for u, c in part.seats.items() if c}


def _apply_unseat(state: Any, data: Mapping[str, Any]) -> None:
    state[PART].seats.pop(data["user"], None)


def _apply_ask(state: Any, data: Mapping[str, Any]) -> None:
    part: SeatsState = state[PART]
    number = part.asked[data["user"]] = part.asked.get(data["user"], 0) + 1  # counted per player
    part.asks[int(data["id"])] = {"user": data["user"], "character": data["character"], "spec": data["spec"],
                                  "n": number}


def _apply_answer(state: Any, data: Mapping[str, Any]) -> None:
    state[PART].asks.pop(int(data["ask"]), None)


def _apply_reveal(state: Any, data: Mapping[str, Any]) -> None:
    if data["seq"] not in state[PART].revealed:
        state[PART].revealed.append(data["seq"])


def _apply_disclose(state: Any, data: Mapping[str, Any]) -> None:
    state[PART].disclose = data["disclose"]


def _apply_approval(state: Any, data: Mapping[str, Any]) -> None:
    state[PART].approval = bool(data["on"])


def _apply_hide(state: Any, data: Mapping[str, Any]) -> None:
    hidden = state[PART].hidden
    if data["hidden"] and data["name"] not in hidden:
        hidden.append(data["name"])
    elif not data["hidden"] and data["name"] in hidden:
        hidden.remove(data["name"])


HANDOUT_TEXT = 20_000  # characters of a text handout
HANDOUT_BYTES = 768 * 1024  # bytes of an image handout: it travels in the player's view
IMAGES = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg", b"GIF87a": "image/gif",
          b"GIF89a": "image/gif"}


def read_handout(path: str, folder: Path) -> dict[str, str]:
    """A handout's facts from a file inside `folder` (the table folder): a PNG, JPEG or GIF image (by
    its first bytes) as base64, else UTF-8 text; bounded, and never a file outside the folder."""
    import base64

    root = folder.resolve()
    file = (root / path).resolve()
    if not file.is_relative_to(root) or not file.is_file():
        raise NotFoundError(t("remote.err.handout_file", path=repr(path)))
    size = file.stat().st_size
    if size > HANDOUT_BYTES:
        raise UsageError(t("remote.err.handout_size", path=file.name, size=size, limit=HANDOUT_BYTES))
    raw = file.read_bytes()
    mime = next((m for head, m in IMAGES.items() if raw.startswith(head)), "")
    if mime:
        return {"name": file.name, "kind": "image", "mime": mime, "data": base64.b64encode(raw).decode("ascii")}
    try:
        text = visible(raw.decode("utf-8")).strip()
    except UnicodeDecodeError:
        raise UsageError(t("remote.err.handout_kind", path=file.name)) from None
    if not text or len(text) > HANDOUT_TEXT:
        raise UsageError(t("remote.err.handout_text", path=file.name, limit=HANDOUT_TEXT))
    return {"name": file.name, "kind": "text", "text": text}


def handouts_for(session: Any, user: str | None) -> list[dict[str, str]]:
    """The handouts `user` holds (shown to them, or revealed to everyone), oldest first, numbered
    in their own count: no event number reaches a player."""
    from gamekernel.hiding import visible as shown

    revealed = session.state[PART].revealed
    out: list[dict[str, Any]] = []
    for event in session.active:
        if event.kind == "table.handout" and ((user is not None and user in event.data["to"])
                                              or shown(event, revealed)):
            out.append({"n": len(out) + 1, **{k: event.data[k] for k in ("name", "kind", "mime", "data", "text")
                                              if k in event.data}})
    return out


register_part(PART, SeatsState)
register_event("table.handout", changes=())
register_event("table.hide", apply=_apply_hide, changes=(PART,))
register_event("table.approval", apply=_apply_approval, changes=(PART,))
register_event("table.seat", apply=_apply_seat, changes=(PART,))
register_event("table.unseat", apply=_apply_unseat, changes=(PART,))
register_event("table.ask", apply=_apply_ask, changes=(PART,))
register_event("table.answer", apply=_apply_answer, changes=(PART,))
register_event("table.reveal", apply=_apply_reveal, changes=(PART,))
register_event("table.disclose", apply=_apply_disclose, changes=(PART,))


def check_user(user: str) -> str:
    """The hub's name for `user`: `Alice` seats the hub user `alice` (the table hub's one naming rule)."""
    name = normalize_user(user)
    if not valid_user(name):
        raise UsageError(t("remote.err.user", user=repr(str(user).strip())))
    return name




class Seats(RuleSetHandle):
    """The remote table's seats on one table (`session.seats`): `seat("alice", "Aiko")`, `unseat`,
    `ask`, `reveal`, `disclose`, `hide`, `approval`, `pending`; `state` is who plays whom."""

    name = "seats"

    @property
    def state(self) -> SeatsState:
        return self.table.state[PART]

    def seat(self, user: str, character: str) -> SeatsState:
        """Give `user` the character `character` (a character of any rule set at this table)."""
        user = check_user(user)
        name = self.character(character)
        self.table.record("table.seat", {"user": user, "character": name})
        return self.state

    def unseat(self, user: str) -> SeatsState:
        user = check_user(user)
        if user not in self.state.seats:
            raise NotFoundError(t("remote.err.not_seated", user=user))
        self.table.record("table.unseat", {"user": user})
        return self.state

    def ask(self, user: str, spec: str) -> int:
        """Ask a seated player for a check whose result only the GM sees (`Per`, `Stealth-2`): the check
        of the first of their characters whose rule set can roll it, answered as `%check SPEC
        @character --secret`. The spec is tried now as the answer will read it (the rule set's odds of
        it, when it has some: GURPS-SR-02): a spec that cannot be rolled is the GM's error at once,
        never the player's when they roll."""
        from gamekernel.rulesets import check_line, handler_for, holders_of
        from gamekernel.text import visible

        user = check_user(user)
        chars = self.state.seat_of(user)
        if not chars:
            raise NotFoundError(t("remote.err.not_seated", user=user))
        text = visible(str(spec)).strip()
        if not text:
            raise UsageError(t("remote.err.ask_what"))
        held = [c for c in chars if holders_of(c, self.table.state)] or chars
        if any(word.startswith("@") for word in text.split()):  # the character is the seat's
            raise UsageError(t("remote.err.ask_actor", spec=repr(text), user=user, character=held[0]))
        who, refused = None, None
        for character in held:
            odds = handler_for("check", text, holders_of(character, self.table.state)).odds
            try:
                if odds is not None:
                    odds(self.table, check_line(text, character, secret=True))
            except GameKernelError as error:
                refused = refused or error
                continue
            who = character
            break
        if who is None:
            assert refused is not None
            raise refused
        seq = self.table.log[-1].seq + 1 if self.table.log else 1
        self.table.record("table.ask", {"id": seq, "user": user, "character": who, "spec": text}, secret=True)
        return seq

    def show(self, users: list[str], path: str, *, folder: Path | None = None) -> int:
        """Hand `users` (seated players) the text or image file `path` of the table folder (`folder`,
        else the kernel's working folder): a secret event only they read, kept on their page;
        `%reveal N` (its number, returned) hands it to everyone."""
        names = []
        for user in users:
            name = check_user(user)
            if not self.state.seat_of(name):
                raise NotFoundError(t("remote.err.not_seated", user=name))
            if name not in names:
                names.append(name)
        if not names:
            raise UsageError(t("remote.err.handout_who"))
        facts = read_handout(path, folder if folder is not None else Path.cwd())
        return self.table.record("table.handout", {"to": names, **facts}, secret=True).seq

    def reveal(self, seq: int) -> int:
        """Make the secret event `seq` public: every view shows it (and its consequences) from now on."""
        event = next((e for e in self.table.log if e.seq == seq), None)
        if event is None:
            raise NotFoundError(t("remote.err.no_event", seq=seq))
        if not event.secret:
            raise UsageError(t("remote.err.not_secret", seq=seq))
        if event.kind == ENTROPY_KIND:
            raise UsageError(t("remote.err.reveal_entropy", seq=seq))
        if seq in self.state.revealed:
            raise UsageError(t("remote.err.revealed", seq=seq))
        self.table.record("table.reveal", {"seq": seq})
        return seq

    def disclose(self, how: str) -> str:
        """`full`: players see a check's target, roll and margin; `outcome`: only succeeded or failed."""
        if how not in DISCLOSURES:
            raise UsageError(t("remote.err.disclose", how=repr(how), choices=", ".join(DISCLOSURES)))
        self.table.record("table.disclose", {"disclose": how})
        return how

    def hide(self, name: str, *, hidden: bool = True) -> str:
        """Hide a fighter from the players (`%table hide Assassin`) or show it again (`show`): hidden,
        it is left out of every player's fight, rows and story lines that name it."""
        from gamekernel.text import resolve_name, visible

        typed = visible(str(name)).strip()
        if not typed:
            raise UsageError(t("remote.err.hide_who"))
        if not hidden:
            found, _ = resolve_name(typed, self.state.hidden)
            if found is None:
                raise UsageError(t("remote.err.not_hidden", name=repr(typed)))
        else:  # one name, matched as every name is (`assassin` is Assassin); a name of nobody is refused
            found, close = resolve_name(typed, sorted(fighter_names(self.table.state)))
            if found is None:
                hint = t("remote.hint.close", names=", ".join(close)) if close else ""
                raise NotFoundError(t("remote.err.no_fighter", name=repr(typed), hint=hint))
            if self.state.is_hidden(found):
                raise UsageError(t("remote.err.hidden_already", name=found))
        self.table.record("table.hide", {"name": found, "hidden": bool(hidden)})
        return found

    def approval(self, on: bool) -> bool:
        """With approval on, a player's action waits in `table_pending` until the GM approves it."""
        self.table.record("table.approval", {"on": bool(on)})
        return bool(on)

    @property
    def pending(self) -> list[dict[str, Any]]:
        """The players' actions waiting for approval (not facts yet: they become events when approved)."""
        try:
            return self._table_pending
        except AttributeError:
            self._table_pending: list[dict[str, Any]] = []
            return self._table_pending

    def character(self, name: str) -> str:
        """The character `name` names, in any rule set (exact, or the one unambiguous prefix)."""
        from gamekernel.text import resolve_name

        known = sorted(character_names(self.table.state))
        found, close = resolve_name(str(name).strip(), known)
        if found is None:
            hint = t("remote.hint.close", names=", ".join(close)) if close else t("remote.hint.none")
            raise NotFoundError(t("remote.err.no_character", name=repr(str(name).strip()), hint=hint))
        return found

    def view(self, *, gm: bool = False) -> dict[str, Any]:
        """Every character of the session as plain facts, for the table dashboard: GURPS HP/FP and
        condition, Gamma World readied alpha cards and pending flux, MtG library, known top cards
        and boost; plus whose turn it is in a running fight. As the table sees it (`players_facts`),
        or with `gm` the truth, marked `gm` (the dashboard says it is the GM's view)."""
        from gamekernel.table.view import players_facts, table_facts

        if gm:
            return {**table_facts(self.table, gm=True), "gm": True}
        return players_facts(self.table)


def fighter_names(state: Any) -> set[str]:
    """Everyone the GM may hide: the characters, the fighters of the fight, the roster and the NPC
    templates (`%combat npc Assassin ...` before the fight starts)."""
    combat = state["gurps_combat"]
    fight = combat.fight
    fighters = {c.name for c in fight.combatants} if fight is not None else set()
    return {*character_names(state), *fighters, *combat.roster, *combat.templates}


def character_names(state: Any) -> set[str]:
    """Every character at the table, in any rule set: each holds its own (`RuleSet.characters`: GURPS
    sheets, Gamma World mutants, MtG libraries, a plug-in's characters)."""
    from gamekernel.rulesets import rule_sets

    return {name for r in rule_sets() if r.characters is not None for name in r.characters(state)}
