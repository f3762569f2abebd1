"""Generic card operations on the session (a mixin of Session): a free card table for any game.

Every operation is planned with the session's secret stream (gamekernel.cards.plan_*: what lies
hidden in a deck must not follow from the public seed) and recorded as one `cards.batch` event
holding the fully determined move record, so replay needs no RNG and undo is a replay without the
last event. Rule sets with their own decks (Gamma World, MtG) keep
their own tables in their own state parts; this one is for house games and quick piles.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from gamekernel import cards
from gamekernel.events import register_event
from gamekernel.rng import LazyDice
from gamekernel.rulesets import RuleSetHandle
from gamekernel.state import register_part

PART = "cards"


class CardTableState:
    """The `cards` state part: one `CardTable` plus the card definitions' names by id."""

    def __init__(self) -> None:
        self.table = cards.CardTable()

    def to_dict(self) -> dict[str, Any]:
        return self.table.to_dict()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardTableState:
        state = cls()
        state.table = cards.CardTable.from_dict(data)
        return state


def _reduce(state: Any, data: Mapping[str, Any]) -> None:
    cards.apply(state[PART].table, cards.Batch.from_dict(data))


register_part(PART, CardTableState)
register_event("cards.batch", apply=_reduce, changes=(PART,))


class Cards(RuleSetHandle):
    """A free card table on one table (`session.cards`): `zone("deck", "deck")`, `create("deck", ["A", "B"])`,
    `draw("deck", "hand", 2)` ... each call is one logged, undoable event."""

    name = "cards"

    @property
    def state(self) -> cards.CardTable:
        return self.table.state[PART].table

    def record(self, batch: cards.Batch) -> cards.Batch:
        """Record a planned batch as an event (it is applied by the reducer)."""
        self.table.record("cards.batch", batch.to_dict())
        return batch

    def zone(
        self,
        name: str,
        kind: str = "pile",
        *,
        owner: str | None = None,
        face_up: bool = False,
        on_empty: cards.EmptyPolicy = cards.ERROR_WHEN_EMPTY,
    ) -> cards.Batch:
        return self.record(
            cards.plan_add_zone(self.state, name, kind, owner=owner, face_up=face_up, on_empty=on_empty)
        )

    def create(self, zone: str, def_ids: Sequence[str]) -> cards.Batch:
        return self.record(cards.plan_create(self.state, zone, def_ids))

    def shuffle(self, zone: str) -> cards.Batch:
        return self.record(cards.plan_shuffle(self.state, zone, self._card_rng))

    def draw(self, source: str, to: str, n: int = 1, *, how: cards.DrawFrom = "top") -> cards.Batch:
        return self.record(cards.plan_draw(self.state, source, to, n, how=how, rng=self._card_rng))

    @property
    def _card_rng(self) -> random.Random:
        """The dice of a card step: the secret stream, opened only if the step draws. As a Gamma
        World deck's (GW-ALPHA-10), a deck's order and a random draw must not follow from the public
        seed and the public steps; the batch records every card moved, so the log replays it."""
        return LazyDice(lambda: self.table.dice_for(True))
