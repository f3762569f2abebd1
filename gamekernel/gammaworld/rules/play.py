"""Gamma World alpha-deck rules as plan functions: state + choices (+ rng) -> a recorded `Step`.

Each function checks the rules and raises a GameKernelError (state untouched) or returns a Step
whose outcome is fully determined (cards drawn, dice faces). Nothing here mutates the state;
`apply_step` does. Rule ids: RULES.md GW-ALPHA-xx.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from gamekernel import cards
from gamekernel.cards import Batch, CardTable, EmptyPolicy, Op
from gamekernel.errors import NotFoundError, RuleError, UsageError
from gamekernel.gammaworld.rules.allowed import overcharge_refusal
from gamekernel.gammaworld.rules.catalog import Catalog, fold
from gamekernel.gammaworld.rules.decks import readied_count, validate_deck
from gamekernel.gammaworld.rules.state import (
    DISCARD,
    GM_DECK,
    AlphaState,
    GWCharacter,
    GWConfig,
    Step,
    deck_zone,
    public_flux,
    readied_zone,
)
from gamekernel.i18n import t
from gamekernel.text import find_name, resolve_name


class _Builder:
    """Chains card plans so one Step can hold several moves: each plan sees the table the earlier
    ones leave. Plans never change the table they read, so the first reads the state's own table;
    a scratch copy is made, and a batch applied to it, only when a later plan needs to see it, or
    when a draw moves its cards on it as it plans them (`add_in_place`)."""

    def __init__(self, table: CardTable) -> None:
        self._base, self._version = table, table.version
        self._scratch: CardTable | None = None
        self._pending: Batch | None = None
        self.ops: list[Op] = []

    @property
    def table(self) -> CardTable:
        """The table after every move planned so far."""
        if self._pending is not None:
            if self._scratch is None:
                self._scratch = self._base.copy()
            cards.apply(self._scratch, self._pending)
            self._pending = None
        return self._base if self._scratch is None else self._scratch

    def add(self, plan: Callable[..., Batch], *args, **kwargs) -> Batch:
        batch = plan(self.table, *args, **kwargs)
        self._pending = batch if batch.ops else None
        self.ops.extend(batch.ops)
        return batch

    def add_in_place(self, plan: Callable[..., Batch], *args, **kwargs) -> Batch:
        """`add` for a plan that can move the cards on a scratch table as it plans (`in_place`): the
        chain's own scratch copy takes the moves, so neither a later plan nor the live reducer
        applies them again. A refused plan leaves the copy part-way: the chain is then thrown away."""
        table = self.table  # what earlier plans left pending, applied
        if self._scratch is None:
            self._scratch = table = self._base.copy()
        batch = plan(table, *args, in_place=True, **kwargs)
        self.ops.extend(batch.ops)
        return batch

    def def_ids(self, uids: Iterable[str]) -> list[str]:
        """The definitions of cards planned to move (fixed for a card's life: read where they are)."""
        known = self._base.cards
        return [known[uid].def_id if uid in known else self.table.cards[uid].def_id for uid in uids]

    def batch(self, label: str, uids: Iterable[str] = ()) -> Batch | None:
        return Batch(label, tuple(self.ops), tuple(uids)) if self.ops else None

    def handover(self) -> list[_Builder] | tuple[()]:
        """For `Step.planned`: this chain, when it made a scratch copy (a later plan read an earlier
        one's moves, or a draw moved its cards on it), so the live reducer can finish that copy
        instead of applying every move again."""
        return [self] if self._scratch is not None else ()

    def finish(self, table: CardTable) -> CardTable | None:
        """The table after every planned move, when the chain started from `table` itself, which
        nothing changed since (its version), and holds a scratch copy of it; else None (apply the
        batch)."""
        if self._base is not table or table.version != self._version or self._scratch is None:
            return None
        result = self.table  # applies the last batch, which no later plan needed
        self._scratch = None  # used once
        return result


def _policy_for_own_deck(config: GWConfig) -> EmptyPolicy:
    mode = config.empty_own_deck
    if mode == "reshuffle_then_gm":
        return EmptyPolicy("reshuffle", DISCARD, then=GM_DECK)
    if mode == "reshuffle":
        return EmptyPolicy("reshuffle", DISCARD)
    if mode == "gm":
        return EmptyPolicy("fallback", GM_DECK)
    return EmptyPolicy()


# ----------------------------------------------------------------------------- setup


def plan_setup(state: AlphaState, catalog: Catalog, rng: random.Random, card_ids: Sequence[str] = ()) -> Step:
    """GW-ALPHA-03/05: the GM deck (the starter cards, or `card_ids`) and the discard pile, shuffled."""
    if state.ready:
        raise RuleError(t("gammaworld.err.setup_done"))
    ids = list(card_ids) or list(catalog.starter_ids)
    for card_id in ids:
        catalog.card(card_id, "en")
    build = _Builder(state.table)
    build.add(cards.plan_add_zone, DISCARD, "discard", face_up=True)
    build.add(cards.plan_add_zone, GM_DECK, "deck", owner="GM", on_empty=_policy_for_gm_deck(state.config))
    build.add(cards.plan_create, GM_DECK, ids)
    build.add(cards.plan_shuffle, GM_DECK, rng)
    return Step("setup", "GM", build.batch("gw setup"), detail={"size": len(ids)}, planned=build.handover())


def plan_config(state: AlphaState, **options) -> Step:
    """Change OPEN-choice flags (logged like every other change)."""
    config = GWConfig.from_dict({**state.config.to_dict(), **options})
    build = _Builder(state.table)  # the empty-deck options apply to the decks already on the table
    if GM_DECK in state.table.zones:
        build.add(cards.plan_set_policy, GM_DECK, _policy_for_gm_deck(config))
    for zone, info in state.table.zones.items():
        if info.kind == "deck" and zone != GM_DECK:
            build.add(cards.plan_set_policy, zone, _policy_for_own_deck(config))
    return Step("config", "GM", build.batch("gw config"), config=config,
                detail={"options": dict(sorted(options.items()))}, planned=build.handover())


def _policy_for_gm_deck(config: GWConfig) -> EmptyPolicy:
    return EmptyPolicy("reshuffle", DISCARD) if config.empty_gm_deck == "reshuffle" else EmptyPolicy()


def plan_character(
    state: AlphaState, name: str, *, level: int | None = None, origin_bonus: int | None = None, new: bool = False
) -> Step:
    """Change a character's level / origin bonus, or (only with `new`) register one and create their
    readied zone: a name that matches nobody is an error, never a new character."""
    name = name.strip()
    if not name:
        raise UsageError(t("gammaworld.err.character_name"))
    found = find_name(name, state.characters)  # a new one may start an old one's name (`Ri` beside Rin)
    if new and found is not None:
        raise RuleError(t("gammaworld.err.character_exists", name=found))
    if not new:
        name = character(state, name).name
    old = state.characters.get(name, GWCharacter(name))
    new_level = old.level if level is None else level
    readied_count(new_level)  # validates
    record = GWCharacter(name, new_level, old.origin_bonus if origin_bonus is None else origin_bonus)
    build = _Builder(state.table)
    if readied_zone(name) not in state.table.zones:
        build.add(cards.plan_add_zone, readied_zone(name), "readied", owner=name, face_up=True)
    return Step(
        "character",
        name,
        build.batch(f"gw character {name}"),
        character=record,
        detail={"level": record.level, "origin_bonus": record.origin_bonus},
        planned=build.handover(),
    )


def character(state: AlphaState, name: str) -> GWCharacter:
    """A registered character, or NotFoundError with close matches."""
    known = state.characters.get(name)
    if known is not None:  # the name as registered (a plan's usual case): nothing to normalise
        return known
    found, close = resolve_name(name.strip(), state.characters)
    if found is None:
        hint = t("gammaworld.err.did_you_mean", names=", ".join(close)) if close else (
            t("gammaworld.err.create_character", name=name.strip()))
        raise NotFoundError(t("gammaworld.err.no_character", name=name, hint=hint))
    return state.characters[found]


def _ensure_character(state: AlphaState, name: str, build: _Builder) -> GWCharacter | None:
    """`%deck new NAME alpha` names its owner explicitly: a new level-1 record when nobody matches."""
    if find_name(name, state.characters) is not None:
        return None
    if readied_zone(name) not in build.table.zones:
        build.add(cards.plan_add_zone, readied_zone(name), "readied", owner=name, face_up=True)
    return GWCharacter(name)


def require_setup(state: AlphaState) -> None:
    if not state.ready:
        raise RuleError(t("gammaworld.err.not_set_up"))


# ----------------------------------------------------------------------------- decks (GW-ALPHA-02)


def plan_deck_new(state: AlphaState, owner: str) -> Step:
    """A new, empty player deck for `owner` (GW-ALPHA-02); its draws follow the empty-deck option."""
    require_setup(state)
    owner = find_name(owner.strip(), state.characters) or owner.strip()  # creates: no prefix
    if state.has_own_deck(owner):
        raise RuleError(t("gammaworld.err.deck_exists", owner=owner))
    build = _Builder(state.table)
    new_character = _ensure_character(state, owner, build)
    build.add(cards.plan_add_zone, deck_zone(owner), "deck", owner=owner, on_empty=_policy_for_own_deck(state.config))
    return Step("deck_new", owner, build.batch(f"gw deck {owner}"), character=new_character, planned=build.handover())


def require_deck(state: AlphaState, owner: str) -> str:
    if owner.upper() == "GM":
        return GM_DECK
    owner = resolve_name(owner.strip(), state.characters)[0] or owner
    if not state.has_own_deck(owner):
        raise NotFoundError(t("gammaworld.err.no_deck", owner=owner))
    return deck_zone(owner)


def _refuse_unless_rebuilt(state: AlphaState, owner: str, zone: str) -> None:
    """GW-ALPHA-11 (seed 000:40): a deck changes only once every alpha card is back in its deck (after
    an extended rest, `%rest --no-draw`, or at a new game session), never while an encounter runs nor
    between encounters: every card of the deck lies in it, and its owner holds no readied card."""
    if state.encounter:
        raise RuleError(t("gammaworld.err.deck_mid_encounter", owner=owner))
    out = {c.uid for c in state.table.home_of(zone) if c.zone != zone}
    if zone != GM_DECK:
        out.update(state.table.orders.get(readied_zone(owner), []))
    if out:
        raise RuleError(t("gammaworld.err.deck_not_rebuilt", owner=owner, out=len(out)))


def _copy_problems(state: AlphaState, owner: str, zone: str, card_ids: Sequence[str]) -> list[list]:
    """GW-ALPHA-02's copy limit for the names just added to a player's deck, as [key, fields] rows
    (reported with the add; the deck's size is only checked when it is drawn from)."""
    if zone == GM_DECK:
        return []
    owned = [catalog_name(state, c.def_id) for c in state.table.home_of(zone)]
    added = {catalog_name(state, card_id) for card_id in card_ids}
    names = owned + [catalog_name(state, card_id) for card_id in card_ids]
    check = validate_deck(owner, names)
    return [[p.key, dict(p.fields)] for p in check.problems
            if p.key == "gammaworld.deck.too_many" and dict(p.fields)["name"] in added]


def plan_deck_add(state: AlphaState, owner: str, card_ids: Sequence[str], rng: random.Random, catalog: Catalog) -> Step:
    """Add cards to a deck (then reshuffle it: a card put in must not sit in a known place). Refused
    during an encounter (GW-ALPHA-11); a name past the copy limit is reported now (GW-ALPHA-02)."""
    require_setup(state)
    zone = require_deck(state, owner)
    _refuse_unless_rebuilt(state, owner, zone)
    if not card_ids:
        raise UsageError(t("gammaworld.err.add_none"))
    for card_id in card_ids:
        catalog.card(card_id, "en")
    problems = _copy_problems(state, owner, zone, card_ids)
    build = _Builder(state.table)
    created = build.add(cards.plan_create, zone, list(card_ids))
    build.add(cards.plan_shuffle, zone, rng)
    return Step(
        "deck_add", owner, build.batch(f"gw deck add {owner}", created.uids),
        detail={"card_ids": list(card_ids), **({"deck_problems": problems} if problems else {})},
        planned=build.handover(),
    )


def plan_deck_remove(state: AlphaState, owner: str, card_id: str, count: int = 1) -> Step:
    """Remove copies of a card from a deck; only copies lying in the deck, never during an encounter
    (GW-ALPHA-11: edit at a rest)."""
    require_setup(state)
    zone = require_deck(state, owner)
    _refuse_unless_rebuilt(state, owner, zone)
    if count < 1:
        raise UsageError(t("gammaworld.err.remove_count", count=count))
    owned = [c for c in state.table.home_of(zone) if c.def_id == card_id]
    in_deck = [c.uid for c in owned if c.zone == zone]
    if not owned:
        raise NotFoundError(t("gammaworld.err.deck_lacks", owner=owner, card=card_id))
    if len(in_deck) < count:  # a rebuilt deck holds every copy it owns: more were asked than it has
        raise UsageError(t("gammaworld.err.remove_too_many", owned=len(in_deck), card=catalog_name(state, card_id),
                           owner=owner,
                           count=count))
    build = _Builder(state.table)
    build.add(cards.plan_destroy, in_deck[-count:])
    return Step(
        "deck_remove", owner, build.batch(f"gw deck remove {owner}"), detail={"card_id": card_id, "count": count},
        planned=build.handover(),
    )


def catalog_name(state: AlphaState, card_id: str) -> str:
    """A card's English name (deck-building counts copies by name)."""
    return state.catalog.card(card_id, "en").name


def deck_card_ids(state: AlphaState, owner: str) -> list[str]:
    """Every card that belongs to a deck (wherever it is now), in a stable order."""
    zone = require_deck(state, owner)
    return [c.def_id for c in sorted(state.table.home_of(zone), key=lambda c: _serial(c.uid))]


def _serial(uid: str) -> int:
    tail = uid.rsplit("#", 1)[-1]
    return int(tail) if tail.isdigit() else 0


# ----------------------------------------------------------------------------- play


def _source(state: AlphaState, name: str, from_gm: bool) -> str:
    """GW-ALPHA-04: own deck by default when there is one, else (or by choice) the GM deck."""
    if not from_gm and state.config.own_deck_first and state.has_own_deck(name):
        return deck_zone(name)
    return GM_DECK


def _deck_label(zone: str) -> str:
    """A deck as players call it: "the GM deck" or "Rin's deck" (never the zone's id)."""
    owner = zone.split(":")[1] if zone.count(":") == 2 else None
    return t("gammaworld.deck.label_own", owner=owner) if owner else t("gammaworld.deck.label_gm")


def _draw(build: _Builder, source: str, to: str, n: int, rng: random.Random,
          keep_out: Sequence[str] = ()) -> tuple[Batch, list[str], list[str]]:
    """Plan drawing `n` cards into `to`, and name the decks that ran out and were reshuffled from the
    discard pile on the way, and those of them whose reshuffle had to take back the cards just
    discarded too. The cards in `keep_out` (just discarded by the same step) stay in the discard pile
    through that reshuffle, so a card is never its own replacement, unless nothing else could come
    back. A deck that cannot give the cards is refused in players' words (which deck, how many, the
    option that decides)."""
    left = len(build.table.orders[source])  # before the draw: a refused one leaves the scratch part-way
    try:
        drawn = build.add_in_place(cards.plan_draw, source, to, n, rng=rng, keep_out=frozenset(keep_out))
    except cards.EmptyZoneError:
        option = "empty_gm_deck" if source == GM_DECK else "empty_own_deck"
        key = "gammaworld.err.deck_ran_out_short" if left else "gammaworld.err.deck_ran_out"
        raise RuleError(t(key, deck=_deck_label(source), n=n, left=left, option=option)) from None
    refills = [op for op in drawn.ops if isinstance(op, cards.Move) and DISCARD in op.sources and op.to != to]
    refilled = dict.fromkeys(op.to for op in refills)
    all_back = dict.fromkeys(op.to for op in refills if set(op.uids) & set(keep_out))
    return drawn, [_deck_label(zone) for zone in refilled], [_deck_label(zone) for zone in all_back]


def _sources(build: _Builder, drawn: Batch, source: str) -> dict[str, Any]:
    """The draw's source as its event says it: "own" or "gm", and how many cards came from the GM
    deck when an own deck ran out on the way (GW-ALPHA-04, the empty-own-deck option)."""
    from_gm = sum(build.table.cards[uid].home == GM_DECK for uid in drawn.uids) if source != GM_DECK else 0
    return {"source": "gm" if source == GM_DECK else "own", **({"from_gm": from_gm} if from_gm else {})}


def _reshuffle_detail(reshuffled: Sequence[str], all_back: Sequence[str]) -> dict[str, Any]:
    return {**({"reshuffled": list(reshuffled)} if reshuffled else {}),
            **({"reshuffled_all": list(all_back)} if all_back else {})}


def readied_missing(state: AlphaState, name: str) -> int:
    """How many readied cards a known character lacks for his level (GW-ALPHA-06): what a draw fills."""
    who = state.characters[name]
    return max(0, readied_count(who.level) - len(state.readied(who.name)))


def plan_draw(state: AlphaState, name: str, rng: random.Random, *, from_gm: bool = False) -> Step:
    """GW-ALPHA-06/07: draw until `name` has their level's readied count (1-3: 1, 4-7: 2, 8+: 3)."""
    require_setup(state)
    build = _Builder(state.table)
    who = character(state, name)
    wanted = readied_count(who.level)
    have = len(build.table.orders[readied_zone(who.name)])
    if have >= wanted:
        key = "gammaworld.err.readied_full_one" if have == 1 else "gammaworld.err.readied_full"
        raise RuleError(t(key, name=who.name, have=have, level=who.level, wanted=wanted))
    source = _source(state, who.name, from_gm)
    check = None
    if source != GM_DECK:  # GW-ALPHA-02: a player deck is checked when it is drawn from
        ids = deck_card_ids(state, who.name)
        check = validate_deck(who.name, [catalog_name(state, i) for i in ids])
    drawn, reshuffled, all_back = _draw(build, source, readied_zone(who.name), wanted - have, rng)
    return Step(
        "draw",
        who.name,
        build.batch(f"gw draw {who.name}", drawn.uids),
        detail={
            **_sources(build, drawn, source),
            "level": who.level,
            "wanted": wanted,
            "drawn": build.def_ids(drawn.uids),
            **_reshuffle_detail(reshuffled, all_back),
            **({"deck_problems": [[p.key, dict(p.fields)] for p in check.problems]} if check and not check.ok else {}),
        },
        planned=build.handover(),
    )


def readied_card(state: AlphaState, name: str, card: str, catalog: Catalog, *, tapped: bool = False) -> str:
    """The uid of `name`'s readied card called `card` (name in any language, or uid); else an error
    listing what is readied. Of several copies, an untapped one (to use it) or, with `tapped`, a
    tapped one (to untap it, or to discard the used copy to a flux)."""
    return _readied_uid(state, character(state, name), card, catalog, tapped=tapped)


def _readied_uid(state: AlphaState, who: GWCharacter, card: str, catalog: Catalog, *, tapped: bool = False) -> str:
    """`readied_card` for a character already found (a plan looks the name up once)."""
    uids = state.readied(who.name)
    if card in uids:
        return card
    wanted = fold(card)
    matches = []
    for uid in uids:
        def_id = state.table.cards[uid].def_id
        names = {fold(def_id)} | {fold(catalog.card(def_id, lang).name) for lang in catalog.by_language}
        if wanted in names:
            matches.append(uid)
    if matches:
        preferred = [uid for uid in matches if state.table.cards[uid].tapped == tapped]
        return (preferred or matches)[0]
    readied = [catalog.card(state.table.cards[uid].def_id).name for uid in uids]
    close = difflib.get_close_matches(card, readied, n=2, cutoff=0.5)
    hint = t("gammaworld.err.did_you_mean", names=", ".join(close)) if close else ""
    listing = ", ".join(readied) if readied else t("gammaworld.err.nothing")
    raise NotFoundError(t("gammaworld.err.not_readied", name=who.name, card=card, listing=listing, hint=hint))


def plan_tap(state: AlphaState, name: str, card: str, catalog: Catalog, *, tapped: bool = True) -> Step:
    """GW-ALPHA-08: using a readied card's power taps it; once per encounter."""
    found = character(state, name)
    who = found.name
    uid = _readied_uid(state, found, card, catalog, tapped=not tapped)
    instance = state.table.cards[uid]
    if instance.tapped == tapped:
        card_name = catalog.card(instance.def_id).name
        if tapped:
            raise RuleError(t("gammaworld.err.already_tapped", card=card_name))
        raise RuleError(t("gammaworld.err.not_tapped", card=card_name))
    batch = cards.plan_set(state.table, [uid], tapped=tapped, label="tap" if tapped else "untap")
    return Step("tap" if tapped else "untap", who, batch,
                detail={"card_id": instance.def_id, **_which_copy(state, who, uid)})


def _which_copy(state: AlphaState, name: str, uid: str) -> dict:
    """With several readied copies of one card, which copy a command moved (its uid and whether it
    was tapped), for the result to say; nothing to add with a single copy."""
    def_id = state.table.cards[uid].def_id
    copies = [u for u in state.readied(name) if state.table.cards[u].def_id == def_id]
    if len(copies) < 2:
        return {}
    return {"copy": uid, "copy_tapped": state.table.cards[uid].tapped}


def plan_overcharge(state: AlphaState, name: str, card: str, rng: random.Random, catalog: Catalog) -> Step:
    """GW-ALPHA-12..14: once per power, d20 + origin bonus vs the card's 10+; a natural 1 is a flux."""
    who = character(state, name)
    uid = _readied_uid(state, who, card, catalog)
    instance = state.table.cards[uid]
    facts = catalog.card(instance.def_id)
    refusal = overcharge_refusal(facts, tapped=instance.tapped, overcharged=uid in state.overcharged)
    if refusal is not None:
        raise RuleError(refusal)
    overcharge = facts.overcharge
    assert overcharge is not None  # overcharge_refusal refused a card without one
    face = rng.randint(1, 20)
    bonus = state.origin_bonus(who.name)
    total = face + bonus
    success = total >= overcharge.success_min
    flux = (
        face == 1
        and state.config.overcharge_natural_1_flux
        and (state.encounter or state.config.flux_outside_encounter)
    )
    batch = None
    if state.config.overcharge_taps and not instance.tapped:
        batch = cards.plan_set(state.table, [uid], tapped=True, label="tap (overcharge)")
    detail = {
        "card_id": instance.def_id,
        "face": face,
        "bonus": bonus,
        "total": total,
        "success_min": overcharge.success_min,
        "success": success,
        "attack": bool(facts.power and facts.power.is_attack),
        "flux": flux,
        "tapped_now": batch is not None,
    }
    return Step("overcharge", who.name, batch, flux=((who.name, 1),) if flux else (), overcharged=(uid,), detail=detail)


def plan_d20(state: AlphaState, actor: str | None, faces: Sequence[int], *, label: str = "",
             secret: bool = False) -> Step | None:
    """GW-ALPHA-10: natural 1s on d20s rolled by a character during an encounter -> pending flux.

    Without an actor the roll is the only character's; with several, or with an actor whose name is
    only close to Gamma World characters' (a typo such as `@Rni`), a `flux_ask` step naming them (the
    GM resolves it with `%flux NAME --force`). Returns None when nothing happens (a roller who is not
    a Gamma World character at all, no 1, no encounter). A `secret` roll's flux stays the GM's
    (`secret_flux`) until revealed or resolved."""
    if not state.ready:
        return None
    ones = sum(1 for face in faces if face == 1)
    if not ones or not (state.encounter or state.config.flux_outside_encounter):
        return None
    if not actor:
        if not state.characters:
            return None
        if len(state.characters) > 1:
            return Step("flux_ask", "", detail={"names": list(state.characters), "faces": list(faces), "label": label})
        actor = next(iter(state.characters))
    found, close = resolve_name(actor.strip(), state.characters)
    if found is None:  # a typo (`@Rni` for Rin) must not skip the flux silently: ask whose roll it was
        return Step("flux_ask", "", detail={"names": close, "faces": list(faces), "label": label,
                                            "unknown": actor}) if close else None
    who = state.characters[found]
    count = ones if state.config.flux_per_natural_1 else 1
    return Step(
        "flux_pending",
        who.name,
        flux=((who.name, count),),
        secret_flux=((who.name, count),) if secret else (),
        detail={"faces": list(faces), "count": count, "label": label},
    )


def plan_flux_reveal(state: AlphaState, name: str, count: int) -> Step | None:
    """GW-ALPHA-10: a revealed secret flux becomes public (None: it was resolved or lapsed already)."""
    still = min(count, state.secret_flux.get(name, 0))
    if still < 1:
        return None
    return Step("flux_reveal", name, secret_flux=((name, -still),), detail={"count": still})


def plan_flux(
    state: AlphaState, name: str, card: str | None, rng: random.Random, catalog: Catalog, *, force: bool = False
) -> Step:
    """GW-ALPHA-10: after the action, discard one readied card (tapped or not; the player's
    choice) and draw its replacement from the GM deck, untapped and usable at once. A public flux
    goes first; with only secret ones pending, the step takes one of those (`secret_flux`) and is
    recorded secret, like the roll that caused it."""
    require_setup(state)
    who = character(state, name)
    pending = state.flux.get(who.name, 0)
    if pending < 1 and not force:
        raise RuleError(t("gammaworld.err.no_flux", name=who.name))
    readied = state.readied(who.name)
    if card is None:
        if len(readied) > 1:
            names = ", ".join(catalog.card(state.table.cards[u].def_id).name for u in readied)
            raise UsageError(t("gammaworld.err.flux_choose", name=who.name, cards=names))
        uid = readied[0] if readied else None
    else:
        uid = _readied_uid(state, who, card, catalog, tapped=True)
    build = _Builder(state.table)
    copy = _which_copy(state, who.name, uid) if uid is not None else {}
    secret = pending > 0 and public_flux(state, who.name) < 1  # only secret flux left: resolved in secret
    if uid is not None:
        build.add(cards.plan_move, [uid], DISCARD, label="flux discard")
    source = GM_DECK if state.config.flux_from_gm_deck else _source(state, who.name, False)
    drawn, reshuffled, all_back = _draw(build, source, readied_zone(who.name), 1, rng, keep_out=[uid] if uid else [])
    discarded = state.table.cards[uid].def_id if uid else None
    return Step(
        "flux",
        who.name,
        build.batch(f"gw flux {who.name}", drawn.uids),
        flux=((who.name, -1),) if pending else (),
        secret_flux=((who.name, -1),) if secret else (),
        detail={
            "discarded": discarded,
            "drawn": build.def_ids(drawn.uids),
            **_sources(build, drawn, source),
            "forced": pending < 1,
            **copy,
            **_reshuffle_detail(reshuffled, all_back),
        },
        planned=build.handover(),
    )


def plan_encounter_start(state: AlphaState) -> Step:
    """Mark an encounter as running (natural 1s now trigger Alpha Flux)."""
    if state.encounter:
        raise RuleError(t("gammaworld.err.encounter_running"))
    return Step("encounter_start", "GM", encounter=True)


def plan_encounter_end(state: AlphaState, rng: random.Random, *, force: bool = False) -> Step:
    """GW-ALPHA-09: every character discards all readied cards (tapped or not) and draws the
    replacements (own deck if they have one, else the GM deck): as many as their level readies now
    (GW-ALPHA-06), so a level changed during the encounter refreshes to the new count. Unresolved flux
    lapses. Only at the end of a running encounter: a second `end` would discard fresh hands (`force`
    to refresh anyway)."""
    require_setup(state)
    if not state.encounter and not force:
        raise RuleError(t("gammaworld.err.no_encounter"))
    build = _Builder(state.table)
    refreshed: dict[str, list[str]] = {}
    drawn_all: list[str] = []
    reshuffled: list[str] = []
    all_back: list[str] = []
    for name, who in state.characters.items():
        readied = list(build.table.orders.get(readied_zone(name), ()))
        if not readied:
            continue
        build.add(cards.plan_move, readied, DISCARD, label=f"refresh discard {name}")
        drawn, refilled, took_back = _draw(build, _source(state, name, False), readied_zone(name),
                                           readied_count(who.level), rng, keep_out=readied)
        refreshed[name] = build.def_ids(drawn.uids)
        drawn_all.extend(drawn.uids)
        reshuffled += [deck for deck in refilled if deck not in reshuffled]
        all_back += [deck for deck in took_back if deck not in all_back]
    return Step(
        "encounter_end",
        "GM",
        build.batch("gw encounter end", drawn_all),
        encounter=False,
        clear_flux=True,
        detail={"refreshed": refreshed,  # a secret flux lapses unnamed: the players never knew of it
                "lapsed_flux": {n: c for n in sorted(state.flux) if (c := public_flux(state, n)) > 0},
                **_reshuffle_detail(reshuffled, all_back)},
        planned=build.handover(),
    )


def plan_rest(state: AlphaState, rng: random.Random, names: Sequence[str] = (), *, draw: bool = True) -> Step:
    """GW-ALPHA-11 (+05): extended rest or session end. The characters' readied cards and every
    discarded card go back to their own decks (yours or the GM's), the decks are shuffled, and
    (unless `draw` is False, to edit decks first) each character draws fresh readied cards."""
    require_setup(state)
    who = [character(state, n).name for n in names] if names else list(state.characters)
    build = _Builder(state.table)
    homes = {GM_DECK} | {deck_zone(n) for n in who if state.has_own_deck(n)}
    back: list[str] = []
    for name in who:
        readied = list(build.table.orders[readied_zone(name)])
        by_home: dict[str, list[str]] = {}
        for uid in readied:
            by_home.setdefault(build.table.cards[uid].home, []).append(uid)
        for home, uids in by_home.items():
            build.add(cards.plan_move, uids, home, face_up=False, forget=True, label=f"rest return {name}")
            homes.add(home)
        back.extend(readied)
    for home in sorted(homes):
        build.add(cards.plan_recall, home, rng=rng, zones=[DISCARD])
    drawn_by: dict[str, list[str]] = {}
    drawn_all: list[str] = []
    if draw:
        for name in who:
            level = state.characters[name].level
            drawn, _, _ = _draw(build, _source(state, name, False), readied_zone(name), readied_count(level), rng)
            drawn_by[name] = build.def_ids(drawn.uids)
            drawn_all.extend(drawn.uids)
    return Step(
        "rest",
        ", ".join(who),
        build.batch("gw rest", drawn_all),
        encounter=False if state.encounter else None,  # an extended rest is never inside an encounter
        flux=tuple((n, -state.flux[n]) for n in who if state.flux.get(n)),
        detail={"characters": who, "returned": len(back), "drawn": drawn_by, "shuffled": sorted(homes)},
        planned=build.handover(),
    )


def plan_add_cards(state: AlphaState, document: dict, source: str) -> Step:
    """User-written cards join the catalog (validated now; the records travel in the event)."""
    from gamekernel.gammaworld.rules.schema import parse_cards

    cards_found = parse_cards(document, source)
    language = document.get("language", "en")
    clash = [card.id for card in cards_found if card.id in state.catalog.by_language.get(language, {})]
    if clash:
        raise RuleError(t("gammaworld.err.card_known", source=source, card_id=clash[0]))
    records = tuple({**record, "language": language} for record in document["cards"])
    return Step("cards", "GM", new_cards=records,
                detail={"count": len(records), "source": source, "names": [c.name for c in cards_found]})
