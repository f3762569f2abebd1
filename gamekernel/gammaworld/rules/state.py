"""The Gamma World alpha-deck part of a session's state, and the recorded steps that change it.

`AlphaState` = a card `CardTable` (GM deck, shared discard pile, each character's readied cards and
optional own deck) + characters' levels and origin bonuses + encounter flag + pending Alpha Flux
+ which readied cards were overcharged. It changes only through `apply_step(state, step)`; a
`Step` holds fully determined outcomes (a card `Batch`, dice faces in `detail`), so a log of steps
replays without an RNG and undo is a replay without the last one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gamekernel.cards import Batch, CardTable, apply
from gamekernel.errors import DataError
from gamekernel.gammaworld.rules.catalog import Catalog, starter_catalog
from gamekernel.gammaworld.rules.decks import readied_count
from gamekernel.gammaworld.rules.schema import CardReader, parse_card
from gamekernel.i18n import t

GM_DECK = "gw:gm"
DISCARD = "gw:discard"


def readied_zone(name: str) -> str:
    return f"gw:{name}:readied"


def deck_zone(name: str) -> str:
    return f"gw:{name}:deck"


@dataclass(frozen=True)
class GWConfig:
    """The seed's OPEN points as flags (RULES.md GW-ALPHA); defaults are the recommended readings."""

    own_deck_first: bool = True  # GW-ALPHA-04 OPEN: draw from your own deck unless you choose the GM deck
    flux_from_gm_deck: bool = True  # GW-ALPHA-10: the flux replacement always comes from the GM deck
    benefits_while_tapped: bool = True  # GW-ALPHA-07 OPEN: static benefits persist while tapped
    overcharge_natural_1_flux: bool = True  # GW-ALPHA-14 OPEN: a natural 1 on the overcharge d20 is a flux
    flux_per_natural_1: bool = True  # OPEN: one flux per natural 1 (False: at most one per roll)
    flux_outside_encounter: bool = False  # GW-ALPHA-10: "during an encounter" only
    empty_own_deck: str = "reshuffle_then_gm"  # OPEN: reshuffle_then_gm | reshuffle | gm | error
    empty_gm_deck: str = "reshuffle"  # reshuffle the GM's discards | error
    overcharge_taps: bool = True  # overcharging an untapped card uses (taps) its power
    default_origin_bonus: int = 0  # GW-ALPHA-14: origin bonus when a character has none set

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> GWConfig:
        data = dict(data or {})
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise DataError(t("gammaworld.err.config_option", option=sorted(unknown)[0]))
        config = cls(**data)
        if config.empty_own_deck not in ("reshuffle_then_gm", "reshuffle", "gm", "error"):
            raise DataError(t("gammaworld.err.config_value", option="empty_own_deck", value=config.empty_own_deck))
        if config.empty_gm_deck not in ("reshuffle", "error"):
            raise DataError(t("gammaworld.err.config_value", option="empty_gm_deck", value=config.empty_gm_deck))
        return config


@dataclass(frozen=True)
class GWCharacter:
    """A character as far as alpha decks care: level (GW-ALPHA-06) and origin bonus (GW-ALPHA-14)."""

    name: str
    level: int = 1
    origin_bonus: int | None = None

    @property
    def readied(self) -> int:
        """How many alpha cards this character keeps readied (GW-ALPHA-06)."""
        return readied_count(self.level)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "level": self.level, "origin_bonus": self.origin_bonus}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GWCharacter:
        return cls(str(data["name"]), int(data.get("level", 1)), data.get("origin_bonus"))


_set_attribute = object.__setattr__


@dataclass(frozen=True)
class Step:
    """One recorded change of the alpha state (one session event)."""

    kind: str
    actor: str = ""
    cards: Batch | None = None
    character: GWCharacter | None = None
    encounter: bool | None = None
    flux: tuple[tuple[str, int], ...] = ()  # (character, change of pending flux count)
    clear_flux: bool = False
    # (character, change of how many of the pending flux are secret): GW-ALPHA-10 flux of a secret
    # natural 1 is the GM's until revealed or resolved, so the players' views leave it out
    secret_flux: tuple[tuple[str, int], ...] = ()
    overcharged: tuple[str, ...] = ()  # card uids overcharged by this step
    config: GWConfig | None = None
    new_cards: tuple[Mapping[str, Any], ...] = ()  # user card records (JSON objects) joining the catalog
    detail: Mapping[str, Any] = field(default_factory=dict)  # JSON-safe outcome for display
    # Not part of the record (never stored or compared): the chain of card plans that made `cards`
    # when it holds a scratch table with all but the last move applied; the live reducer finishes
    # that table and takes it instead of applying `cards` again (`apply_recorded`). Emptied once used.
    planned: list[Any] | tuple[()] = field(default=(), compare=False, repr=False)

    def __init__(self, kind: str, actor: str = "", cards: Batch | None = None, character: GWCharacter | None = None,
                 encounter: bool | None = None, flux: tuple[tuple[str, int], ...] = (), clear_flux: bool = False,
                 secret_flux: tuple[tuple[str, int], ...] = (), overcharged: tuple[str, ...] = (),
                 config: GWConfig | None = None, new_cards: tuple[Mapping[str, Any], ...] = (),
                 detail: Mapping[str, Any] | None = None, planned: list[Any] | tuple[()] = ()) -> None:
        """The fields above, set in one `__dict__`: every command builds a step, and the generated
        frozen `__init__` sets its thirteen fields one `object.__setattr__` at a time (twice as slow).
        A test keeps this signature equal to the fields; `detail` None is a fresh empty dict."""
        _set_attribute(self, "__dict__", {
            "kind": kind, "actor": actor, "cards": cards, "character": character, "encounter": encounter,
            "flux": flux, "clear_flux": clear_flux, "secret_flux": secret_flux, "overcharged": overcharged,
            "config": config, "new_cards": new_cards, "detail": {} if detail is None else detail, "planned": planned,
        })

    @property
    def resolves_secret(self) -> bool:
        """GW-ALPHA-10: a flux resolved out of a secret one is recorded secret, as its roll was."""
        return self.kind == "flux" and bool(self.secret_flux) and any(change < 0 for _, change in self.secret_flux)

    def to_dict(self) -> dict[str, Any]:
        """The event's data: the kind, the actor and only the fields this step sets (`from_dict`
        reads a missing field as its default), so a tap stores a tap and not ten empty fields."""
        data: dict[str, Any] = {"kind": self.kind, "actor": self.actor}
        if self.cards is not None:
            data["cards"] = self.cards.to_dict()
        if self.character is not None:
            data["character"] = self.character.to_dict()
        if self.encounter is not None:
            data["encounter"] = self.encounter
        if self.flux:
            data["flux"] = [list(pair) for pair in self.flux]
        if self.clear_flux:
            data["clear_flux"] = True
        if self.secret_flux:
            data["secret_flux"] = [list(pair) for pair in self.secret_flux]
        if self.overcharged:
            data["overcharged"] = list(self.overcharged)
        if self.config is not None:
            data["config"] = self.config.to_dict()
        if self.new_cards:
            data["new_cards"] = [dict(card) for card in self.new_cards]
        data["detail"] = dict(self.detail)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Step:
        try:
            return cls(
                kind=str(data["kind"]),
                actor=str(data.get("actor", "")),
                cards=Batch.from_dict(data["cards"]) if data.get("cards") else None,
                character=GWCharacter.from_dict(data["character"]) if data.get("character") else None,
                encounter=data.get("encounter"),
                flux=tuple((str(name), int(change)) for name, change in data.get("flux", ())),
                clear_flux=bool(data.get("clear_flux", False)),
                secret_flux=tuple((str(name), int(change)) for name, change in data.get("secret_flux", ())),
                overcharged=tuple(data.get("overcharged", ())),
                config=GWConfig.from_dict(data["config"]) if data.get("config") else None,
                new_cards=tuple(data.get("new_cards", ())),
                detail=dict(data.get("detail", {})),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DataError(t("gammaworld.err.step", error=error)) from error


class AlphaState:
    """Mutable state; change it only with `apply_step`."""

    def __init__(self, config: GWConfig | None = None) -> None:
        self.table = CardTable()
        self.characters: dict[str, GWCharacter] = {}
        self.encounter = False
        self.flux: dict[str, int] = {}
        self.secret_flux: dict[str, int] = {}  # how many of `flux` are secret (never more than `flux`)
        self.overcharged: set[str] = set()
        self.config = config or GWConfig()
        self.custom_cards: list[dict[str, Any]] = []
        self._catalog: Catalog | None = None
        # (the data's `detail` dict, the Step it was made from) while that step's event is recorded:
        # the live reducer applies the Step instead of parsing the data back (see `apply_recorded`)
        self.recording: tuple[Mapping[str, Any], Step] | None = None
        # weak references to command results that read their hands from this state when first asked
        # (results.AlphaResult.reading): `apply_step` has them take the hands before anything changes
        self.unread: list[Any] = []

    @property
    def catalog(self) -> Catalog:
        """The starter cards plus every card the table added (rebuilt after a change)."""
        if self._catalog is None:
            if not self.custom_cards:
                self._catalog = starter_catalog()
            else:
                catalog = Catalog()
                base = starter_catalog()
                catalog.add(card for cards in base.by_language.values() for card in cards.values())
                catalog.starter_ids = base.starter_ids
                for index, record in enumerate(self.custom_cards):
                    language = str(record.get("language", "en"))
                    reader = CardReader(t("gammaworld.err.custom_cards"))
                    catalog.add([parse_card(record, f"cards[{index}]", reader, language)])
                self._catalog = catalog
        return self._catalog

    @property
    def ready(self) -> bool:
        """Whether the GM deck has been set up."""
        return GM_DECK in self.table.zones

    def has_own_deck(self, name: str) -> bool:
        return deck_zone(name) in self.table.zones

    def readied(self, name: str) -> list[str]:
        zone = readied_zone(name)
        return list(self.table.orders.get(zone, ()))

    def origin_bonus(self, name: str) -> int:
        character = self.characters.get(name)
        if character is None or character.origin_bonus is None:
            return self.config.default_origin_bonus
        return character.origin_bonus

    def copy(self) -> AlphaState:
        other = AlphaState(self.config)
        other.table = self.table.copy()
        other.characters = dict(self.characters)
        other.encounter = self.encounter
        other.flux = dict(self.flux)
        other.secret_flux = dict(self.secret_flux)
        other.overcharged = set(self.overcharged)
        other.custom_cards = list(self.custom_cards)
        other._catalog = self._catalog
        return other

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table.to_dict(),
            "characters": [c.to_dict() for c in self.characters.values()],
            "encounter": self.encounter,
            "flux": dict(sorted(self.flux.items())),
            "secret_flux": dict(sorted(self.secret_flux.items())),
            "overcharged": sorted(self.overcharged),
            "config": self.config.to_dict(),
            "custom_cards": list(self.custom_cards),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AlphaState:
        state = cls(GWConfig.from_dict(data.get("config")))
        try:
            state.table = CardTable.from_dict(data["table"])
            for record in data.get("characters", ()):
                character = GWCharacter.from_dict(record)
                state.characters[character.name] = character
            state.encounter = bool(data.get("encounter", False))
            state.flux = {str(k): int(v) for k, v in data.get("flux", {}).items()}
            state.secret_flux = {str(k): int(v) for k, v in data.get("secret_flux", {}).items()}
            state.overcharged = set(data.get("overcharged", ()))
            state.custom_cards = [dict(card) for card in data.get("custom_cards", ())]
        except (KeyError, TypeError, ValueError) as error:
            raise DataError(t("gammaworld.err.snapshot", error=error)) from error
        return state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AlphaState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"AlphaState({len(self.characters)} characters, encounter={self.encounter}, {self.table!r})"


def public_flux(state: AlphaState, name: str) -> int:
    """GW-ALPHA-10: the pending flux of `name` everyone may know of (those of secret rolls left out)."""
    return state.flux.get(name, 0) - state.secret_flux.get(name, 0)


def _add_counts(counts: dict[str, int], changes: Any) -> None:
    for name, change in changes:
        count = counts.get(name, 0) + int(change)
        if count > 0:
            counts[name] = count
        else:
            counts.pop(name, None)


def move_flux(state: AlphaState, flux: Any, secret_flux: Any, *, clear: bool = False) -> None:
    """Pending flux (GW-ALPHA-10) and how much of it is secret: a secret count never exceeds the
    pending one, so a flux that ends (resolved, lapsed) takes its secrecy with it."""
    if not (clear or flux or secret_flux or state.secret_flux):  # most steps: no flux moves, none secret
        return
    if clear:
        state.flux.clear()
        state.secret_flux.clear()
    _add_counts(state.flux, flux)
    _add_counts(state.secret_flux, secret_flux)
    for name, count in list(state.secret_flux.items()):
        if count > state.flux.get(name, 0):
            _add_counts(state.secret_flux, ((name, state.flux.get(name, 0) - count),))


def settle_results(state: AlphaState) -> None:
    """Before `state` changes: the results still to read their hands from it take them now (those
    nobody keeps any more are gone, and take nothing)."""
    pending, state.unread = state.unread, []
    for reference in pending:
        result = reference()
        if result is not None:
            result.take_hands()


def apply_step(state: AlphaState, step: Step, *, table: CardTable | None = None) -> None:
    """Apply a recorded step in place, without an RNG; all or nothing (the card batch may refuse).
    `table`: the state's table with `step.cards` already applied (see `apply_recorded`)."""
    if state.unread:
        settle_results(state)
    if table is not None:
        state.table = table
    elif step.cards is not None:
        apply(state.table, step.cards)  # raises ReplayError before anything else changes
    if step.config is not None:
        state.config = step.config
    if step.new_cards:
        state.custom_cards.extend(dict(card) for card in step.new_cards)
        state._catalog = None
    if step.character is not None:
        state.characters[step.character.name] = step.character
    if step.encounter is not None:
        state.encounter = step.encounter
    move_flux(state, step.flux, step.secret_flux, clear=step.clear_flux)
    state.overcharged.update(step.overcharged)
    # Overcharge is once per power while the card stays readied; a card that leaves is a new chance.
    if state.overcharged:
        state.overcharged = {
            uid
            for uid in state.overcharged
            if uid in state.table.cards and state.table.cards[uid].zone.endswith(":readied")
        }


def apply_recorded(state: AlphaState, data: Mapping[str, Any]) -> None:
    """The reducer of every `gw.*` event: the step being recorded live when `data` is made from it
    (its `detail` is the very dict `Step.to_dict` made), else `data` parsed, as on replay.

    Live, a step planned by a chain of card plans on this very table comes with the scratch copy
    they moved cards on; finished, it is the table after the step, so it is taken as it is rather
    than every move being applied a second time (replay applies the moves: the bench and the
    tests check both agree)."""
    recording = state.recording
    if recording is not None and recording[0] is data.get("detail"):
        step = recording[1]
        chain = step.planned.pop() if step.planned else None
        apply_step(state, step, table=chain.finish(state.table) if chain is not None else None)
    else:
        apply_step_data(state, data)


def apply_step_data(state: AlphaState, data: Mapping[str, Any]) -> None:
    """`apply_step(state, Step.from_dict(data))` without building the Step: the replay hot path."""
    if state.unread:
        settle_results(state)
    if data.get("config") or data.get("character") or data.get("new_cards"):
        apply_step(state, Step.from_dict(data))
        return
    cards = data.get("cards")
    if cards:
        apply(state.table, Batch.from_dict(cards))
    if data.get("encounter") is not None:
        state.encounter = bool(data["encounter"])
    move_flux(state, data.get("flux", ()), data.get("secret_flux", ()), clear=bool(data.get("clear_flux")))
    state.overcharged.update(data.get("overcharged", ()))
    if state.overcharged:
        state.overcharged = {
            uid
            for uid in state.overcharged
            if uid in state.table.cards and state.table.cards[uid].zone.endswith(":readied")
        }
