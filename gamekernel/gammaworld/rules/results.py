"""Immutable results of alpha-deck commands: the recorded step plus what the hands look like after it.

Text and HTML come from the renderers gamekernel.gammaworld.render registers with gamekernel.display
(this rules package imports no display code). The session operations' other results (a deck's list,
the odds tables) live here too, so operations -> results <- renderers."""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from gamekernel.display import Displayable
from gamekernel.display.results import SecretNotice
from gamekernel.gammaworld.rules.allowed import overcharge_refusal
from gamekernel.gammaworld.rules.catalog import Catalog
from gamekernel.gammaworld.rules.decks import readied_count
from gamekernel.gammaworld.rules.odds import DeckOdds
from gamekernel.gammaworld.rules.state import (
    DISCARD,
    GM_DECK,
    AlphaState,
    Step,
    deck_zone,
    public_flux,
    readied_zone,
)

_new_object, _set_attribute = object.__new__, object.__setattr__


@dataclass(frozen=True)
class CardView:
    """A readied card as shown in a hand."""

    uid: str
    card_id: str
    tapped: bool
    overcharged: bool
    catalog: Catalog | None = field(compare=False, repr=False, default=None)

    @property
    def overcharge_refused(self) -> str | None:
        """Why the rules refuse an overcharge now; None: offered. Worded when asked (a widget asks;
        a command's result is built after every command and rarely shows it)."""
        if self.catalog is None:
            return None
        return overcharge_refusal(self.catalog.card(self.card_id), tapped=self.tapped, overcharged=self.overcharged)


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class HandView(Displayable):
    """One character's readied cards and the deck counts (what the hand widget shows)."""

    name: str
    level: int
    readied_target: int
    cards: tuple[CardView, ...]
    deck_count: int | None  # None: no own deck
    gm_count: int | None  # None: the GM deck is not set up yet (nothing to count, not an empty deck)
    discard_count: int
    flux_pending: int  # the pending flux everyone may know of (GW-ALPHA-10)
    encounter: bool
    catalog: Catalog = field(compare=False, repr=False, default=None)  # type: ignore[assignment]
    flux_secret: int = 0  # pending flux of secret rolls: the GM's only
    show_secret: bool = False  # the GM's view (`%hand NAME --gm`): `flux_secret` shown, marked secret
    secret_cards: frozenset[str] = frozenset()  # the GM's view: uids of the cards the players do not see
    players: HandView | None = None  # the GM's view: the hand as the players see it

    @property
    def secret_differs(self) -> bool:
        """GW-ALPHA-10: the GM's view of a hand (cards or counts) a secret flux resolution changed."""
        seen = self.players
        return self.show_secret and seen is not None and (
            seen.cards != self.cards or (seen.deck_count, seen.gm_count, seen.discard_count)
            != (self.deck_count, self.gm_count, self.discard_count))


# What a hand looks like at one moment, as plain values: (name, level, cards, own deck count or None,
# GM deck count, discard count, public pending flux, encounter, secret pending flux), a card being
# (uid, card id, tapped, overcharged). Every command's result keeps these and builds its HandViews
# only when shown.
HandSnapshot = tuple[str, int, tuple[tuple[str, str, bool, bool], ...], "int | None", "int | None", int, int, bool, int]


def hand_snapshot(state: AlphaState, name: str) -> HandSnapshot:
    """`name`'s hand in `state` now (the state changes; the snapshot does not)."""
    table = state.table
    orders, instances, overcharged = table.orders, table.cards, state.overcharged
    cards = tuple([(uid, (card := instances[uid]).def_id, card.tapped, uid in overcharged)
                   for uid in orders.get(readied_zone(name), ())])
    own, gm = orders.get(deck_zone(name)), orders.get(GM_DECK)
    return (name, state.characters[name].level, cards, None if own is None else len(own),
            None if gm is None else len(gm), len(orders.get(DISCARD, ())), public_flux(state, name), state.encounter,
            state.secret_flux.get(name, 0))


def snapshot_view(snapshot: HandSnapshot, catalog: Catalog) -> HandView:
    name, level, cards, deck_count, gm_count, discard_count, flux_pending, encounter, flux_secret = snapshot
    return HandView(
        name=name,
        level=level,
        readied_target=readied_count(level),
        cards=tuple(CardView(*card, catalog) for card in cards),
        deck_count=deck_count,
        gm_count=gm_count,
        discard_count=discard_count,
        flux_pending=flux_pending,
        encounter=encounter,
        catalog=catalog,
        flux_secret=flux_secret,
    )


def secret_cards(true: HandView, seen: HandView) -> frozenset[str]:
    """GW-ALPHA-10: the readied cards of `true` that the players' `seen` hand does not hold (a secret
    flux's replacement, until revealed)."""
    return frozenset(c.uid for c in true.cards) - {c.uid for c in seen.cards}


def hand_view(state: AlphaState, name: str, catalog: Catalog) -> HandView:
    """Snapshot of `name`'s hand in `state`."""
    return snapshot_view(hand_snapshot(state, name), catalog)


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class AlphaResult(Displayable):
    """What a Gamma World command did (`step`) and the affected hands afterwards (`hands`, built
    from `snapshots` when first read: most results are shown once, many never).

    A command's result takes its `snapshots` from the state when first asked, or just before the
    state next changes, whichever comes first (`reading`): a result nobody keeps never takes them."""

    step: Step
    snapshots: tuple[HandSnapshot, ...]  # no class default: `__getattr__` takes a reading result's
    catalog: Catalog = field(compare=False, repr=False, default=None)  # type: ignore[assignment]

    @classmethod
    def new(cls, step: Step, snapshots: tuple[HandSnapshot, ...], catalog: Catalog) -> AlphaResult:
        """A result without the frozen dataclass's `__init__` (one `object.__setattr__` a field);
        equal to `AlphaResult(...)`."""
        result = _new_object(cls)
        _set_attribute(result, "__dict__", {"step": step, "snapshots": snapshots, "catalog": catalog})
        return result

    @classmethod
    def reading(cls, step: Step, state: AlphaState, names: Sequence[str], catalog: Catalog) -> AlphaResult:
        """The result of a command just recorded on `state`, whose snapshots of the `names`' hands are
        taken from `state` when first read, or by `take_hands` before `state` next changes (`apply_step`
        settles every result still reading it): either way they are the hands right after the command."""
        result = _new_object(cls)
        _set_attribute(result, "__dict__", {"step": step, "catalog": catalog, "_reading": (state, names)})
        state.unread.append(weakref.ref(result))
        return result

    def take_hands(self) -> None:
        """Take the snapshots from the state now, if not yet taken (then the state is let go)."""
        reading = self.__dict__.pop("_reading", None)
        if reading is not None:
            state, names = reading
            self.__dict__["snapshots"] = tuple([hand_snapshot(state, name) for name in names])

    def __getattr__(self, name: str) -> Any:
        if name == "snapshots" and "_reading" in self.__dict__:
            self.take_hands()
            return self.__dict__["snapshots"]
        raise AttributeError(name)

    @cached_property
    def hands(self) -> tuple[HandView, ...]:
        return tuple(snapshot_view(snapshot, self.catalog) for snapshot in self.snapshots)

    @property
    def kind(self) -> str:
        return self.step.kind

    @property
    def revealed(self) -> tuple[int, ...]:
        """GW-ALPHA-10: the secret flux events this public step revealed first (its card was used)."""
        return self.__dict__.get("_revealed", ())

    def revealing(self, seqs: Sequence[int]) -> AlphaResult:
        """This result, telling that the secret fluxes `seqs` were revealed on the way."""
        self.__dict__["_revealed"] = tuple(seqs)
        return self

    @property
    def detail(self) -> dict:
        return dict(self.step.detail)

    @property
    def readied(self) -> int | None:
        """GW-ALPHA-06: the readied alpha cards at the level a `character` step sets (for its line)."""
        level = self.step.detail.get("level")
        return None if level is None else readied_count(level)


def as_the_table_sees(result: AlphaResult) -> AlphaResult | SecretNotice:
    """GW-ALPHA-10: a flux resolved out of a secret one shows as a secret notice in whatever the
    players may see (a widget's line and saved record), as its roll did."""
    return SecretNotice("flux") if result.step.resolves_secret else result


def describe(state: AlphaState, step: Step, catalog: Catalog) -> AlphaResult:
    """The result of `step`, with hands read from `state` (after the step was applied)."""
    kind = step.kind
    if kind == "encounter_end" or kind == "rest":
        names = [n for n in state.characters if kind == "encounter_end" or n in step.detail.get("characters", ())]
    elif step.actor in state.characters:
        names = [step.actor]
    else:
        return AlphaResult.new(step, (), catalog)
    return AlphaResult.reading(step, state, names, catalog)


class AlphaResults(Displayable, tuple):
    """Several results of one command (e.g. `%draw alpha` for every character), drawn one after the
    other by the render registry (Displayable first, so its repr wins over the tuple's)."""

    __slots__ = ()

    def __new__(cls, results: tuple[AlphaResult, ...]) -> AlphaResults:
        return super().__new__(cls, results)


class DeckView(Displayable):
    """A deck's card list (every card that belongs to it) and how many lie in it now."""

    def __init__(self, owner: str, card_ids: tuple[str, ...], in_deck: int, catalog: Catalog, *,
                 gm: bool = False) -> None:
        self.owner, self.card_ids, self.in_deck, self.catalog = owner, card_ids, in_deck, catalog
        self.gm = gm  # the true count (`%deck show NAME --gm`), marked GM-only

    def rows(self) -> list[tuple[str, str, str, int]]:
        counts: dict[str, int] = {}
        for card_id in self.card_ids:
            counts[card_id] = counts.get(card_id, 0) + 1
        rows = []
        for card_id, count in counts.items():
            card = self.catalog.card(card_id)
            rows.append((card.name, card.energy, card.rarity, count))
        return rows


class AlphaOdds(Displayable):
    """Exact teaching odds: flux by number of d20 rolls, overcharge by origin bonus."""

    def __init__(self, flux_rows, overcharge_rows) -> None:
        self.flux_rows, self.overcharge_rows = flux_rows, overcharge_rows


class DeckOddsView(Displayable):
    """`%deck odds`: the chance that a named card comes up in so many draws from a deck (exact)."""

    def __init__(self, owner: str, card_name: str, result: DeckOdds, *, gm: bool = False) -> None:
        self.owner, self.card_name, self.result = owner, card_name, result
        self.gm = gm  # from the true deck (`--gm`), marked GM-only

    @property
    def probability(self) -> Fraction:
        return self.result.at_least_one
