"""Immutable results of alpha-deck commands: the recorded step plus what the hands look like after it.

Text and HTML come from the renderers gamekernel.render.gammaworld registers with gamekernel.display
(this rules package imports no display code)."""

from __future__ import annotations

from dataclasses import dataclass, field

from gamekernel.display import Displayable
from gamekernel.systems.gammaworld.allowed import overcharge_refusal
from gamekernel.systems.gammaworld.catalog import Catalog
from gamekernel.systems.gammaworld.decks import readied_count
from gamekernel.systems.gammaworld.state import DISCARD, GM_DECK, AlphaState, Step, deck_zone


@dataclass(frozen=True)
class CardView:
    """A readied card as shown in a hand."""

    uid: str
    card_id: str
    tapped: bool
    overcharged: bool
    overcharge_refused: str | None = None  # why the rules refuse an overcharge now; None: offered


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class HandView(Displayable):
    """One character's readied cards and the deck counts (what the hand widget shows)."""

    name: str
    level: int
    readied_target: int
    cards: tuple[CardView, ...]
    deck_count: int | None  # None: no own deck
    gm_count: int
    discard_count: int
    flux_pending: int
    encounter: bool
    catalog: Catalog = field(compare=False, repr=False, default=None)  # type: ignore[assignment]


def hand_view(state: AlphaState, name: str, catalog: Catalog) -> HandView:
    """Snapshot of `name`'s hand in `state`."""
    character = state.characters[name]
    table = state.table
    zone = f"gw:{name}:readied"
    views = tuple(
        CardView(uid, table.cards[uid].def_id, table.cards[uid].tapped, uid in state.overcharged,
                 overcharge_refusal(catalog.card(table.cards[uid].def_id), tapped=table.cards[uid].tapped,
                                    overcharged=uid in state.overcharged))
        for uid in table.orders.get(zone, ())
    )
    own = deck_zone(name)
    return HandView(
        name=name,
        level=character.level,
        readied_target=readied_count(character.level),
        cards=views,
        deck_count=len(table.orders[own]) if own in table.orders else None,
        gm_count=len(table.orders.get(GM_DECK, ())),
        discard_count=len(table.orders.get(DISCARD, ())),
        flux_pending=state.flux.get(name, 0),
        encounter=state.encounter,
        catalog=catalog,
    )


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class AlphaResult(Displayable):
    """What a Gamma World command did (`step`) and the affected hands afterwards."""

    step: Step
    hands: tuple[HandView, ...]
    catalog: Catalog = field(compare=False, repr=False, default=None)  # type: ignore[assignment]

    @property
    def kind(self) -> str:
        return self.step.kind

    @property
    def detail(self) -> dict:
        return dict(self.step.detail)

    @property
    def readied(self) -> int | None:
        """GW-ALPHA-06: the readied alpha cards at the level a `character` step sets (for its line)."""
        level = self.step.detail.get("level")
        return None if level is None else readied_count(level)


def describe(state: AlphaState, step: Step, catalog: Catalog) -> AlphaResult:
    """The result of `step`, with hands read from `state` (after the step was applied)."""
    if step.kind in ("encounter_end", "rest"):
        names = [n for n in state.characters if step.kind == "encounter_end" or n in step.detail.get("characters", ())]
    elif step.actor in state.characters:
        names = [step.actor]
    else:
        names = []
    hands = tuple(hand_view(state, n, catalog) for n in names)
    return AlphaResult(step, hands, catalog)
