"""Card facts: a card instance, a zone and its empty-zone policy, and the errors of the card core.

Why a module of its own: these are the values every other part of the card core (records, the
table, apply, plan) is made of, with their `to_dict`/`from_dict` forms. Split from cards.py, which
re-exports every name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from gamekernel.errors import DataError, RuleError
from gamekernel.i18n import t

Position = Literal["top", "bottom"] | int
DrawFrom = Literal["top", "bottom", "random"]
EVERYONE = "*"


class EmptyZoneError(RuleError):
    """A draw asked for more cards than a zone (and its empty-zone policy) can give."""


class ReplayError(DataError):
    """A recorded move does not fit the table it is applied to (a corrupt or reordered log)."""


# --------------------------------------------------------------------------- facts and state


@dataclass(frozen=True)
class CardInstance:
    """One physical copy of a card on the table: where it is and how it lies."""

    uid: str
    def_id: str
    home: str  # the deck it returns to on recall
    zone: str
    face_up: bool = False
    tapped: bool = False
    known_to: frozenset[str] = frozenset()

    def known_by(self, viewer: str) -> bool:
        """Whether `viewer` may see this card's face (face up, or revealed to them/everyone)."""
        return self.face_up or viewer in self.known_to or EVERYONE in self.known_to

    def to_dict(self) -> dict[str, Any]:
        return {
            "uid": self.uid,
            "def_id": self.def_id,
            "home": self.home,
            "zone": self.zone,
            "face_up": self.face_up,
            "tapped": self.tapped,
            "known_to": sorted(self.known_to),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardInstance:
        return cls(
            uid=str(data["uid"]),
            def_id=str(data["def_id"]),
            home=str(data["home"]),
            zone=str(data["zone"]),
            face_up=bool(data.get("face_up", False)),
            tapped=bool(data.get("tapped", False)),
            known_to=frozenset(data.get("known_to", ())),
        )


@dataclass(frozen=True)
class EmptyPolicy:
    """What a draw does when the zone runs out.

    mode "error" (default): refuse, nothing moves. "reshuffle": move this deck's own cards from
    `zone` (e.g. its discard pile) back in, shuffle, continue. "fallback": draw the rest from
    `zone` (another deck). "partial": draw only what is there. `then`: a deck to draw the rest
    from when a reshuffle finds nothing to bring back.
    """

    mode: Literal["error", "reshuffle", "fallback", "partial"] = "error"
    zone: str | None = None
    then: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "zone": self.zone, "then": self.then}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> EmptyPolicy:
        data = data or {}
        mode = data.get("mode", "error")
        if mode not in ("error", "reshuffle", "fallback", "partial"):
            raise DataError(t("cards.err.policy_mode", mode=mode))
        if mode in ("reshuffle", "fallback") and not data.get("zone"):
            raise DataError(t("cards.err.policy_zone", mode=mode))
        return cls(mode=mode, zone=data.get("zone"), then=data.get("then"))


ERROR_WHEN_EMPTY = EmptyPolicy()


@dataclass(frozen=True)
class ZoneInfo:
    """A zone's fixed description: kind (deck, hand, readied, discard, exile, pile ...), owner,
    whether cards entering it lie face up by default, and its empty-zone policy."""

    name: str
    kind: str = "pile"
    owner: str | None = None
    face_up: bool = False
    on_empty: EmptyPolicy = ERROR_WHEN_EMPTY

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "owner": self.owner,
            "face_up": self.face_up,
            "on_empty": self.on_empty.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ZoneInfo:
        return cls(
            name=str(data["name"]),
            kind=str(data.get("kind", "pile")),
            owner=data.get("owner"),
            face_up=bool(data.get("face_up", False)),
            on_empty=EmptyPolicy.from_dict(data.get("on_empty")),
        )
