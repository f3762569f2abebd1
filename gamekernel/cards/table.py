"""The card table: every zone and card instance of a game, with read-only views of them.

Why a module of its own: the table is the state that records change; it is read by plans and
renderers and changed only by `cards_apply.apply`. Split from cards.py, which re-exports every name.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, Literal

from gamekernel.cards.facts import CardInstance, ZoneInfo
from gamekernel.display import Displayable
from gamekernel.errors import DataError, NotFoundError
from gamekernel.i18n import t

# --------------------------------------------------------------------------- the table


class CardTable(Displayable):
    """Every zone and card instance of a game. Change it only through `apply(table, batch)`."""

    def __init__(self) -> None:
        self.zones: dict[str, ZoneInfo] = {}
        self.orders: dict[str, list[str]] = {}
        self.cards: dict[str, CardInstance] = {}
        self.serial = 0  # last number used for a generated uid
        self.version = 0  # batches applied so far: a plan made from this table can tell it is unchanged

    # ---- reading
    def zone(self, name: str) -> ZoneInfo:
        """The zone called `name`, or NotFoundError with close matches."""
        info = self.zones.get(name)
        if info is None:
            close = difflib.get_close_matches(name, list(self.zones), n=3)
            hint = t("cards.err.did_you_mean", names=", ".join(close)) if close else ""
            raise NotFoundError(t("cards.err.no_zone", name=name, hint=hint))
        return info

    def order(self, name: str) -> tuple[str, ...]:
        """The uids in zone `name`, top first."""
        self.zone(name)
        return tuple(self.orders[name])

    def count(self, name: str) -> int:
        self.zone(name)
        return len(self.orders[name])

    def card(self, uid: str) -> CardInstance:
        try:
            return self.cards[uid]
        except KeyError:
            raise NotFoundError(t("cards.err.no_card", uid=uid)) from None

    def in_zone(self, name: str) -> list[CardInstance]:
        """The instances in zone `name`, top first."""
        return [self.cards[uid] for uid in self.order(name)]

    def peek(self, name: str, n: int = 1, *, from_: Literal["top", "bottom"] = "top") -> list[CardInstance]:
        """Look at up to `n` cards from the top (or bottom) without moving or revealing anything."""
        order = self.order(name)
        picked = order[:n] if from_ == "top" else order[::-1][:n]
        return [self.cards[uid] for uid in picked]

    def known_top(self, name: str, viewer: str) -> list[CardInstance]:
        """The unbroken run of cards on top of `name` whose identity `viewer` knows."""
        run = []
        for uid in self.orders[self.zone(name).name]:
            card = self.cards[uid]
            if not card.known_by(viewer):
                break
            run.append(card)
        return run

    def home_of(self, zone: str) -> list[CardInstance]:
        """Every instance whose home deck is `zone`, wherever it is now (zone order, then top first)."""
        return [self.cards[uid] for name in self.orders for uid in self.orders[name] if self.cards[uid].home == zone]

    def copy(self) -> CardTable:
        other = CardTable()
        other.zones = dict(self.zones)
        other.orders = {name: list(order) for name, order in self.orders.items()}
        other.cards = dict(self.cards)
        other.serial = self.serial
        return other

    def check(self) -> None:
        """Raise AssertionError if the invariant is broken: each instance in exactly one zone."""
        seen: dict[str, str] = {}
        for name, order in self.orders.items():
            for uid in order:
                assert uid not in seen, f"{uid} in both {seen[uid]} and {name}"
                seen[uid] = name
                assert self.cards[uid].zone == name, f"{uid} says {self.cards[uid].zone}, lies in {name}"
        assert set(seen) == set(self.cards), "instances outside every zone"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardTable):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        counts = ", ".join(f"{name}:{len(order)}" for name, order in self.orders.items())
        return f"CardTable({counts})"

    # ---- snapshots
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot of every zone (in order) and every instance's state."""
        return {
            "serial": self.serial,
            "zones": [{**info.to_dict(), "order": list(self.orders[name])} for name, info in self.zones.items()],
            "cards": {uid: self.cards[uid].to_dict() for uid in sorted(self.cards)},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardTable:
        """Rebuild a table from `to_dict`; raises DataError if the snapshot breaks the invariant."""
        table = cls()
        try:
            table.serial = int(data.get("serial", 0))
            for zone in data["zones"]:
                info = ZoneInfo.from_dict(zone)
                table.zones[info.name] = info
                table.orders[info.name] = [str(uid) for uid in zone.get("order", ())]
            for uid, card in data["cards"].items():
                table.cards[uid] = CardInstance.from_dict(card)
            table.check()
        except (KeyError, TypeError, ValueError, AssertionError) as error:
            raise DataError(t("cards.err.snapshot", error=error)) from error
        return table
