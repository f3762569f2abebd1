"""Gamma World alpha decks as session operations (the `session.gw.state` handle).

Each method validates, plans a `Step` with the session RNG (gammaworld/rules/play.py), records
it as a `gw.<kind>` event whose data is the step (outcome included, so the log replays without
the RNG), and returns an `AlphaResult` describing it with the hands afterwards. A reaction turns
a natural 1 on any d20 a character rolls during an encounter into a pending Alpha Flux event.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from gamekernel import limits
from gamekernel.errors import DataError, NotFoundError, RuleError, UsageError
from gamekernel.events import Event, check_storable, register_event, register_reaction
from gamekernel.gammaworld.rules import odds, play
from gamekernel.gammaworld.rules.decks import DeckCheck, validate_deck
from gamekernel.gammaworld.rules.results import (
    AlphaOdds,
    AlphaResult,
    AlphaResults,
    DeckOddsView,
    DeckView,
    HandView,
    describe,
    hand_view,
    secret_cards,
)
from gamekernel.gammaworld.rules.state import AlphaState, Step, apply_recorded, apply_step
from gamekernel.i18n import t
from gamekernel.rulesets import RuleSetHandle
from gamekernel.state import register_part

PART = "gammaworld"
KINDS = (
    "setup",
    "config",
    "character",
    "cards",
    "deck_new",
    "deck_add",
    "deck_remove",
    "draw",
    "tap",
    "untap",
    "overcharge",
    "flux_pending",
    "flux_ask",
    "flux",
    "flux_reveal",
    "encounter_start",
    "encounter_end",
    "rest",
)


def _reduce(state: Any, data: Mapping[str, Any]) -> None:
    apply_recorded(state.parts[PART], data)  # the parts themselves: this runs for every Gamma World event


register_part(PART, AlphaState)
for _kind in KINDS:
    register_event(f"gw.{_kind}", apply=_reduce, changes=(PART,))


def d20_faces(result: Mapping[str, Any]) -> list[int]:
    """Every face rolled on a d20 in a RollResult.to_dict() (kept, dropped or rerolled alike)."""
    faces = []
    for group in result.get("dice", ()):
        if group.get("sides") != 20:
            continue
        for entry in group.get("rolls", ()):
            if isinstance(entry, int):
                faces.append(entry)
            elif len(entry) >= 3:
                faces.append(int(entry[2]))
            else:
                faces.append(int(entry[0]))
    return faces


def _alpha_flux_reaction(session, event) -> None:
    """GW-ALPHA-10 (seed 000: "any d20 roll during an encounter"): a natural 1 on a d20 -> pending
    flux for the roller; without `@Name`, for the only Gamma World character, or with several a
    one-line prompt naming them. The event carries its `cause`, so one `%undo` takes back both."""
    state: AlphaState = session.state.parts[PART]  # the parts themselves, as `gw` reads them: every roll comes here
    if not state.ready:  # no deck set up: plan_d20 plans nothing, so the faces are not even read
        return
    result = event.data.get("result", {})
    faces = d20_faces(result)
    step = play.plan_d20(state, event.actor, faces, label=result.get("text", ""), secret=event.secret)
    if step is not None:
        kind = "gw.flux_ask" if step.kind == "flux_ask" else "gw.flux_pending"
        session.record(kind, {**step.to_dict(), "cause": event.seq}, actor=step.actor or None, secret=event.secret)


register_reaction(_alpha_flux_reaction, kinds=("roll",))


def _flux_reveal_reaction(session, event) -> None:
    """GW-ALPHA-10: `%reveal N` of a secret natural 1's flux (or of the roll that caused it) makes
    that pending flux public: a `gw.flux_reveal` event caused by the reveal (one `%undo` takes both)."""
    seq = event.data.get("seq")
    flux = next((e for e in session.active if e.kind == "gw.flux_pending" and e.secret
                 and seq in (e.seq, e.data.get("cause"))), None)
    if flux is None:
        return
    step = play.plan_flux_reveal(session.state[PART], flux.actor or "", int(flux.data["detail"].get("count", 1)))
    if step is not None:
        session.record("gw.flux_reveal", {**step.to_dict(), "cause": event.seq}, actor=step.actor or None)


register_reaction(_flux_reveal_reaction, kinds=("table.reveal",))


def step_uids(data: Mapping[str, Any]) -> set[str]:
    """Every card uid a recorded step uses: those its card operations touch and those it overcharges
    (an overcharge that does not tap, GW-ALPHA-12, moves no card)."""
    ops = {uid for op in (data.get("cards") or {}).get("ops", ()) for uid in op.get("uids", ())}
    return ops | set(data.get("overcharged", ()))


class GammaWorld(RuleSetHandle):
    """Alpha Mutation decks on one table (`session.gw`): `session.gw.draw("Rin")`,
    `session.gw.tap("Rin", "Sap Bloom")` ..."""

    name = "gw"

    # -- plumbing ----------------------------------------------------------------------------
    @property
    def state(self) -> AlphaState:
        """The Gamma World part of the state (read it; change it only through these methods)."""
        return self.table.state.parts[PART]  # the parts themselves: every command reads this several times

    def _gw_commit(self, step: Step, data: dict[str, Any]) -> None:
        """Record `step` (its `data`), the reducer applying `step` itself: no parse of what was just made."""
        part = self.state
        part.recording = (data["detail"], step)
        try:
            self.table.record(f"gw.{step.kind}", data, actor=step.actor or None, secret=step.resolves_secret)
        finally:
            part.recording = None

    def _gw_record(self, step: Step, data: dict[str, Any]) -> AlphaResult:
        """Record `step` (its `data`) and describe it."""
        self._gw_commit(step, data)
        part = self.state  # the same part unless something recorded meanwhile replaced the state
        # GW-ALPHA-10: a public step's result shows the hands as the players know them (a secret
        # flux's replacement, or the counts it changed, not in them); a secret one is the GM's
        shown = part if step.resolves_secret else self.table.public_state()[PART]
        result = describe(shown, step, part.catalog)
        if shown is not part:  # the players' table is kept apart from the GM's part: read its hands now
            result.take_hands()
        return result

    def _gw_run(self, *planners: Callable[[AlphaState], Step | None], setup: bool = True) -> list[AlphaResult]:
        """Plan every step first, then record them: a refused step leaves no trace.

        With `setup`, a GM deck not yet set up is planned first from the bundled starter cards
        (its own event). Several steps are planned on a scratch copy, each on the state the
        previous ones leave. The RNG is put back when the command records nothing (a refused
        step, or text that cannot be stored); `rng.begin` copies no state, the RNG counts its draws.
        """
        state = self.state
        needs_setup = setup and not state.ready
        if len(planners) == 1 and not needs_setup:
            return [self._gw_single(state, planners[0])]
        steps: list[Step] = []
        with self.table.command():  # refused, the draws of both streams are put back
            if needs_setup or len(planners) > 1:
                state = state.copy()
            if needs_setup:
                steps.append(play.plan_setup(state, state.catalog, self._gw_deck_rng()))
                apply_step(state, steps[-1])
            for index, planner in enumerate(planners):
                step = planner(state)
                if step is not None:
                    steps.append(step)
                    if index < len(planners) - 1:
                        apply_step(state, step)
            if len(steps) == int(needs_setup):
                raise UsageError(t("gammaworld.err.all_readied"))
            records = [(step, step.to_dict()) for step in steps]
            if len(records) > 1:  # every step storable before the first is recorded (a lone surrogate);
                for step, data in records:  # a single one is checked by `record` before it changes anything
                    check_storable(Event(0, f"gw.{step.kind}", data, step.actor or None, False, ""))
            results = [self._gw_record(step, data) for step, data in records]
        return results[int(needs_setup):]

    def _gw_single(self, state: AlphaState, planner: Callable[[AlphaState], Step | None], *,
                   shows: str | None = None) -> AlphaResult:
        """`_gw_run` of one step on a set-up table (nearly every command): planned on the state itself
        (nothing to copy), recorded, and the RNG put back when nothing was recorded. A public step
        that `shows` one of that character's readied cards a secret flux drew first reveals that
        flux (`table.reveal`, the `%reveal N` event), the step recorded as caused by it so one
        `%undo` takes both (GW-ALPHA-10)."""
        with self.table.command():  # refused, the draws of both streams are put back
            step = planner(state)
            if step is None:
                raise UsageError(t("gammaworld.err.all_readied"))
            data = step.to_dict()
            fluxes = self._gw_secret_draws(shows, step) if shows is not None and not step.resolves_secret else []
            if not fluxes:  # `record` checks the data before it changes anything
                return self._gw_record(step, data)
            check_storable(Event(0, f"gw.{step.kind}", data, step.actor or None, False, ""))
            cause = None
            for flux in fluxes:
                reveal = {"seq": flux, **({} if cause is None else {"cause": cause})}
                cause = self.table.record("table.reveal", reveal).seq
            return self._gw_record(step, {**data, "cause": cause}).revealing(fluxes)

    def _gw_deck_rng(self) -> Any:
        """The stream every deck order is drawn from: the secret one (GW-ALPHA-10). What lies hidden
        in a deck (the GM deck's order, the card a secret flux takes) must not follow from the public
        seed and the public events; a public draw records what it took, so replay needs no stream."""
        return self.table.dice_for(True)

    def _gw_one(self, planner: Callable[[AlphaState], Step], *, setup: bool = True) -> AlphaResult:
        state = self.state
        if not setup or state.ready:
            return self._gw_single(state, planner)
        return self._gw_run(planner, setup=setup)[0]

    def _gw_query(self, owner: str) -> None:
        """Queries record nothing, so they never set up the GM deck: name what is missing instead."""
        if owner.upper() == "GM":
            play.require_setup(self.state)
        play.require_deck(self.state, owner)

    def _card_id(self, name: str) -> str:
        return self.state.catalog.find(name).id

    # -- setup -------------------------------------------------------------------------------
    def setup(self, card_names: Sequence[str] = ()) -> AlphaResult:
        """GW-ALPHA-03: the GM deck: the bundled starter cards, or the named cards."""
        ids = [self._card_id(name) for name in card_names]
        return self._gw_one(lambda gw: play.plan_setup(gw, gw.catalog, self._gw_deck_rng(), ids), setup=False)

    def config(self, **options: Any) -> AlphaResult:
        """Set OPEN-choice flags (see GWConfig), logged: `session.gw.config(flux_outside_encounter=True)`."""
        try:
            step = play.plan_config(self.state, **options)
        except TypeError as error:
            raise UsageError(t("gammaworld.err.option", error=error)) from None
        return self._gw_one(lambda gw: step, setup=False)

    def character(self, name: str, *, level: int | None = None, origin_bonus: int | None = None,
                     new: bool = False) -> AlphaResult:
        """Set a character's level (GW-ALPHA-06) / origin bonus (GW-ALPHA-14); `new=True` registers
        one (`%gw new Rin`): a name that matches nobody is otherwise an error, never a new character."""
        from gamekernel.text import visible

        name = visible(name)  # a name as read: no bidi or zero-width controls
        return self._gw_one(
            lambda gw: play.plan_character(gw, name, level=level, origin_bonus=origin_bonus, new=new), setup=False)

    def load_cards(self, path: str | Path) -> AlphaResult:
        """Add your own alpha cards from a JSON card file (same format as the bundled deck)."""
        path = Path(path)
        try:
            document = limits.load_json(limits.read_text(path), path.name)
        except OSError as error:
            raise DataError(t("gammaworld.err.read", file=path.name, reason=error.strerror)) from error
        except json.JSONDecodeError as error:
            raise DataError(t("gammaworld.err.json", file=path.name, line=error.lineno, column=error.colno,
                              reason=error.msg)) from error
        return self._gw_one(lambda gw: play.plan_add_cards(gw, document, path.name), setup=False)

    # -- decks (GW-ALPHA-02) -------------------------------------------------------------------
    def deck_new(self, owner: str) -> AlphaResult:
        return self._gw_one(lambda gw: play.plan_deck_new(gw, owner))

    def deck_add(self, owner: str, card: str, count: int = 1) -> AlphaResult:
        limits.at_most(count, "max_count", t("limits.what.copies"))
        if count < 1:
            raise UsageError(t("gammaworld.err.add_count", count=count))
        card_id = self._card_id(card)
        return self._gw_one(
            lambda gw: play.plan_deck_add(gw, owner, [card_id] * count, self._gw_deck_rng(), gw.catalog))

    def deck_remove(self, owner: str, card: str, count: int = 1) -> AlphaResult:
        card_id = self._card_id(card)
        return self._gw_one(lambda gw: play.plan_deck_remove(gw, owner, card_id, count))

    def deck_validate(self, owner: str) -> DeckCheck:
        """GW-ALPHA-02: at least 7 cards, at most 2 copies of a name (a query: records nothing)."""
        self._gw_query(owner)
        ids = play.deck_card_ids(self.state, owner)
        return validate_deck(owner, [self.state.catalog.card(i).name for i in ids], player=owner.upper() != "GM")

    def deck_show(self, owner: str, *, gm: bool = False) -> DeckView:
        """The deck's cards and how many lie in it as the players know it; with `gm`, the true count,
        marked GM-only (GW-ALPHA-10: a secret flux's draw is not counted in public)."""
        self._gw_query(owner)
        ids = play.deck_card_ids(self.state, owner)
        zone = play.require_deck(self.state, owner)
        return DeckView(owner, tuple(ids), self._gw_deck_table(zone, gm).count(zone), self.state.catalog, gm=gm)

    def _gw_deck_table(self, zone: str, gm: bool) -> Any:
        """The card table a deck statistic reads: the truth for the GM (`gm`), else the players' one."""
        if gm:
            return self.state.table
        public: AlphaState = self.table.public_state()[PART]
        return public.table if zone in public.table.zones else self.state.table

    # -- play ----------------------------------------------------------------------------------
    def draw(self, name: str | None = None, *, from_gm: bool = False) -> AlphaResult | AlphaResults:
        """GW-ALPHA-06: fill `name`'s readied cards up to their level's count (everyone when None)."""
        if name is not None:
            return self._gw_one(lambda gw: play.plan_draw(gw, name, self._gw_deck_rng(), from_gm=from_gm))
        if not self.state.characters:  # "everyone already has cards" would be wrong: there is no one
            raise UsageError(t("gammaworld.err.no_characters"))

        def draw_for(who: str) -> Callable[[AlphaState], Step | None]:
            def plan(gw: AlphaState) -> Step | None:
                if play.readied_missing(gw, who):
                    return play.plan_draw(gw, who, self._gw_deck_rng(), from_gm=from_gm)
                return None

            return plan

        return AlphaResults(tuple(self._gw_run(*(draw_for(who) for who in list(self.state.characters)))))

    def hand(self, name: str, *, gm: bool = False) -> HandView:
        """`name`'s readied cards, deck counts and pending flux as the players know them: drawn from
        the public table, so a secret flux, pending or resolved, is in none of it (GW-ALPHA-10). The
        GM's view (`gm=True`) is the true hand, the secret flux and each card only it holds marked."""
        who = play.character(self.state, name).name
        public: AlphaState = self.table.public_state()[PART]
        seen = hand_view(public if who in public.characters else self.state, who, self.state.catalog)
        if not gm:
            return seen
        true = hand_view(self.state, who, self.state.catalog)
        return replace(true, show_secret=True, secret_cards=secret_cards(true, seen), players=seen)

    def card_in_place(self, name: str, card: str) -> str:
        """GW-ALPHA-10: the card a click on (or a name typed from) the players' view of `name`'s hand
        means. A card they still see where a secret flux put another (its uid or name) stands for the
        card now in its place, so the hand widget, the dashboard and the magics act on the true hand;
        a card in neither hand is refused listing the players' hand; any other name or uid is itself."""
        players = self.table.public_state()
        if players is self.table.state:  # no secret changed the table: the players see the true hands
            return card
        who = play.character(self.state, name).name
        true = self.state.readied(who)
        public: AlphaState = players[PART]
        seen = public.readied(who) if who in public.characters else true
        if seen == true or card in true or self._gw_holds(who, card):
            return card
        uid = play.readied_card(public, who, card, self.state.catalog)  # neither: the players' hand is listed
        stale, fresh = [u for u in seen if u not in true], [u for u in true if u not in seen]
        place = stale.index(uid) if uid in stale else len(fresh)
        return fresh[place] if place < len(fresh) else card

    def _gw_holds(self, who: str, card: str) -> bool:
        """Whether `who` truly has a readied card called `card` (a name or uid)."""
        try:
            play.readied_card(self.state, who, card, self.state.catalog)
        except NotFoundError:
            return False
        return True

    def _gw_on_card(self, name: str, card: str, planner: Callable[[AlphaState, str], Step]) -> AlphaResult:
        """One step on one readied card, `card` read as the players see it (`gw_card_in_place`). When
        it stood for a secret flux's replacement and the rules refuse the step, the refusal names the
        card the players see, not the secret one (GW-ALPHA-10)."""
        meant = self.card_in_place(name, card) if self.table.ever_secret() else card
        if meant == card:
            return self._gw_used(name, lambda gw: planner(gw, card))
        try:
            return self._gw_used(name, lambda gw: planner(gw, meant))
        except (UsageError, RuleError, NotFoundError) as error:  # a refusal (a disk's failure stays itself)
            public: AlphaState = self.table.public_state()[PART]
            shown = public.table.cards.get(card)
            label = self.state.catalog.card(shown.def_id).name if shown is not None else card
            raise type(error)(t("gammaworld.err.card_in_place", name=play.character(self.state, name).name,
                                card=label)) from None

    def _gw_used(self, name: str, planner: Callable[[AlphaState], Step]) -> AlphaResult:
        """A step that uses one of `name`'s readied cards: at the table a card is shown when it is
        used (`_gw_single`'s `shows`)."""
        state = self.state
        if not state.ready:
            return self._gw_one(planner, setup=False)
        return self._gw_single(state, planner, shows=name)

    def _gw_secret_draws(self, name: str, step: Step) -> list[int]:
        """The unrevealed secret flux events (oldest first) that drew the readied cards of `name` the
        players do not see and `step` acts on, with those that drew the cards each replaced."""
        secrets = self.table.active_secrets("gw") if self.table.ever_secret() else ()
        fluxes = [e for e in secrets if e.kind == "gw.flux"] if secrets else []
        if not fluxes:  # the common case, told without building the players' table
            return []
        who = play.character(self.state, name).name
        revealed = set(self.table.state["seats"].revealed)
        fluxes = [e for e in fluxes if e.actor == who and e.seq not in revealed]
        if not fluxes:
            return []
        public: AlphaState = self.table.public_state()[PART]
        if public is self.state or who not in public.characters:
            return []
        hidden = set(self.state.readied(who)) - set(public.readied(who))
        wanted = hidden & step_uids(step.to_dict())
        found: list[int] = []
        for event in reversed(fluxes):
            if not wanted:
                break
            drawn = set(event.data["cards"].get("uids", ()))
            if drawn & wanted:
                found.append(event.seq)
                wanted = (wanted - drawn) | step_uids({"cards": {"ops": event.data["cards"]["ops"][:1]}})
        return sorted(found)

    def tap(self, name: str, card: str) -> AlphaResult:
        """GW-ALPHA-08: use a readied card's power (once per encounter)."""
        return self._gw_on_card(name, card, lambda gw, uid: play.plan_tap(gw, name, uid, gw.catalog))

    def untap(self, name: str, card: str) -> AlphaResult:
        return self._gw_on_card(name, card, lambda gw, uid: play.plan_tap(gw, name, uid, gw.catalog, tapped=False))

    def overcharge(self, name: str, card: str) -> AlphaResult:
        """GW-ALPHA-12..14: d20 + origin bonus, 10+ succeeds; once per power."""
        rng = self.table.rng
        return self._gw_on_card(name, card, lambda gw, uid: play.plan_overcharge(gw, name, uid, rng, gw.catalog))

    def flux(self, name: str, card: str | None = None, *, force: bool = False) -> AlphaResult:
        """GW-ALPHA-10: resolve a pending Alpha Flux by discarding `card` (any readied card)."""
        if card is None:
            return self._gw_used(
                name, lambda gw: play.plan_flux(gw, name, None, self._gw_deck_rng(), gw.catalog, force=force))
        return self._gw_on_card(
            name, card, lambda gw, uid: play.plan_flux(gw, name, uid, self._gw_deck_rng(), gw.catalog, force=force))

    def encounter_start(self) -> AlphaResult:
        return self._gw_one(play.plan_encounter_start)

    def encounter_end(self, *, force: bool = False) -> AlphaResult:
        """GW-ALPHA-09: discard and replace every readied card (refused with no encounter running,
        unless `force`)."""
        return self._gw_one(lambda gw: play.plan_encounter_end(gw, self._gw_deck_rng(), force=force))

    def rest(self, names: Sequence[str] = (), *, draw: bool = True) -> AlphaResult:
        """GW-ALPHA-11: extended rest / session end: everything back, shuffle, draw again."""
        return self._gw_one(lambda gw: play.plan_rest(gw, self._gw_deck_rng(), names, draw=draw))

    def new_session(self) -> None:
        """A new game session (seed 000:33, 40; GW-ALPHA-11): every readied and discarded alpha card goes
        back to its deck and every deck is shuffled, as one `gw.rest` event marked `session` (the log
        and `%undo` show it); nobody draws yet, so decks may change first. Nothing without a GM deck.

        Recorded, not described: its words are its log line (`%campaign session new`, the open). A
        description would show the hands as the players know them, which for a campaign holding a
        secret replays the players' projection over the whole log: at the open of a long campaign
        that was most of the open's time (100,000 events: 9.3 s against 1.0 s for reading them)."""
        if not self.state.ready:
            return
        with self.table.command():  # refused, the draws of both streams are put back
            step = play.plan_rest(self.state, self._gw_deck_rng(), draw=False)
            step = replace(step, detail={**step.detail, "session": True})
            self._gw_commit(step, step.to_dict())

    # -- odds (teaching) ---------------------------------------------------------------------
    def odds(self, *, rolls: int | None = None, bonus: int | None = None) -> AlphaOdds:
        """Exact flux odds by number of d20 rolls and overcharge odds by bonus (tables, or one value)."""
        both = rolls is None and bonus is None
        roll_range = [rolls] if rolls is not None else list(range(1, 11)) if both else []
        bonus_range = [bonus] if bonus is not None else list(range(0, 6)) if both else []
        return AlphaOdds(
            tuple((n, odds.p_flux(n)) for n in roll_range), tuple((b, odds.p_overcharge(b)) for b in bonus_range)
        )

    def deck_odds(self, owner: str, card: str, draws: int, *, gm: bool = False) -> DeckOddsView:
        """Chance that the next `draws` cards of `owner`'s deck (order unknown) include `card`, from the
        deck the players know; with `gm`, from the true deck, marked GM-only (GW-ALPHA-10)."""
        self._gw_query(owner)
        zone = play.require_deck(self.state, owner)
        card_id = self._card_id(card)
        in_deck = [c.def_id for c in self._gw_deck_table(zone, gm).in_zone(zone)]
        if draws > len(in_deck):
            raise UsageError(t("gammaworld.err.odds_draws", owner=owner, size=len(in_deck), draws=draws))
        result = odds.p_card_in_draws(len(in_deck), in_deck.count(card_id), draws)
        return DeckOddsView(owner, self.state.catalog.card(card_id).name, result, gm=gm)


__all__ = [
    "AlphaOdds",
    "AlphaResults",
    "DeckOddsView",
    "DeckView",
    "GammaWorld",
    "HandView",
    "NotFoundError",
    "d20_faces",
]
