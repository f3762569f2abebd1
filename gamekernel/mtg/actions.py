"""Session operations of the MtG TRPG (the `session.mtg` handle): libraries, action checks, boosts, scenes.

Each character's library and exile are zones of a gamekernel.cards CardTable kept in the "mtg" state
part. Every step is planned here (the rules in mtg/rules decide, the session RNG supplies the
randomness) and recorded as one event carrying the full outcome and the card moves, so a replay
or an undo needs neither the RNG nor any card data file.
"""

from __future__ import annotations

import copy
import os
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from gamekernel import cards, limits
from gamekernel.errors import NotFoundError, RuleError, UsageError
from gamekernel.events import register_event
from gamekernel.i18n import t
from gamekernel.mtg.results import LibraryLoaded, LibraryView, MtgConfigShown, OddsResult, SceneStarted
from gamekernel.mtg.rules.check import (
    EVERYONE,
    BoostResult,
    CheckResult,
    action_check,
    boost,
    boost_refusal,
    boost_taken,
    require_boost,
)
from gamekernel.mtg.rules.decklists import build_library, composition, is_url, parse_decklist, read_decklist
from gamekernel.mtg.rules.facts import CardFacts, FactsIndex, bundled_facts
from gamekernel.mtg.rules.kinds import MtgOptions, parse_check_spec, parse_kind
from gamekernel.mtg.rules.knowledge import LibraryKnowledge
from gamekernel.mtg.rules.odds import OddsTable, check_odds, known_in_groups, known_prefix, odds_table
from gamekernel.mtg.rules.options import changed_options, options_from
from gamekernel.rng import LazyDice
from gamekernel.rulesets import RuleSetHandle
from gamekernel.state import register_part
from gamekernel.text import find_name, resolve_name, visible
from gamekernel.util import plain_copy

PART = "mtg"


def library_zone(actor: str) -> str:
    return f"{actor}:library"


def exile_zone(actor: str) -> str:
    return f"{actor}:exile"


@dataclass
class MtgState:
    """The MtG part of the table: card zones, the facts of every card in play, scene bookkeeping."""

    table: cards.CardTable = field(default_factory=cards.CardTable)
    facts: dict[str, list] = field(default_factory=dict)  # card name -> CardFacts row
    decks: dict[str, dict] = field(default_factory=dict)  # actor -> {source, name, main, sideboard}
    scene: int = 1
    boosted: list[str] = field(default_factory=list)  # who boosted this scene ("*" = the table)
    last_check: dict[str, dict] = field(default_factory=dict)  # actor -> check outcome of this scene
    last_boost: dict[str, dict] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)  # MtG options changed by mtg.config events
    boosters: list[str] = field(default_factory=list)  # who boosted this scene, in order
    # actor -> groups of library cards the table has seen put back together in random order (a check's
    # pair at the bottom, MTG-CHK-12): known cards, unknown order, until drawn, peeked or shuffled
    unordered: dict[str, list[list[str]]] = field(default_factory=dict)

    @property
    def mtg_options(self) -> MtgOptions:
        return options_from(self.options)

    def boost_user(self, actor: str) -> str | None:
        """Who already used the boost `actor` would use now: per character, `actor`; per table, anyone."""
        if self.mtg_options.boost_per_character:
            return actor if actor in self.boosters else None
        return self.boosters[0] if self.boosters else None

    def card_facts(self, name: str) -> CardFacts:
        return CardFacts.from_row(self.facts[name])

    def library(self, actor: str) -> list[CardFacts]:
        return [self.card_facts(self.table.card(uid).def_id) for uid in self.table.order(library_zone(actor))]

    def known_positions(self, actor: str) -> set[int]:
        order = self.table.order(library_zone(actor))
        return {i for i, uid in enumerate(order) if self.table.card(uid).known_by(actor)}

    def unordered_positions(self, actor: str) -> list[tuple[int, ...]]:
        """The library positions of each unordered group (the odds model's `unordered`)."""
        where = {uid: i for i, uid in enumerate(self.table.order(library_zone(actor)))}
        groups = (tuple(sorted(where[u] for u in group if u in where)) for group in self.unordered.get(actor, []))
        return [g for g in groups if g]

    def regroup(self, actor: str, seen: Sequence[str] = (), new: Sequence[Sequence[str]] = ()) -> None:
        """The cards `seen` leave their groups; each of `new` becomes a group (reducers only)."""
        gone = set(seen)
        groups = [[u for u in group if u not in gone] for group in self.unordered.get(actor, [])]
        groups += [list(group) for group in new if group]
        self.unordered[actor] = [g for g in groups if g]

    def to_dict(self) -> dict[str, Any]:
        """A fresh picture: later steps never change a picture taken now (nested records copied)."""
        return {"table": self.table.to_dict(), "facts": {k: list(v) for k, v in sorted(self.facts.items())},
                "decks": _copied(self.decks), "scene": self.scene, "boosted": list(self.boosted),
                "last_check": _copied(self.last_check), "last_boost": _copied(self.last_boost),
                "options": dict(sorted(self.options.items())), "boosters": list(self.boosters),
                "unordered": {k: [list(g) for g in v] for k, v in sorted(self.unordered.items())}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MtgState:
        boosted = list(data.get("boosted", []))
        return cls(cards.CardTable.from_dict(data["table"]), {k: list(v) for k, v in data.get("facts", {}).items()},
                   _copied(data.get("decks", {})), int(data.get("scene", 1)), boosted,
                   _copied(data.get("last_check", {})), _copied(data.get("last_boost", {})),
                   dict(data.get("options", {})),
                   list(data.get("boosters", [b for b in boosted if b != EVERYONE])),
                   {k: [list(g) for g in v] for k, v in data.get("unordered", {}).items()})


def _copied(records: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Sorted copies of JSON records (deep: a check record holds lists)."""
    return {k: plain_copy(dict(v)) for k, v in sorted(records.items())}


register_part(PART, MtgState)


# --- reducers (deterministic: only the event data) --------------------------------------------------

def _apply_batch(state, data: Mapping[str, Any]) -> MtgState:
    part: MtgState = state[PART]
    cards.apply(part.table, cards.Batch.from_dict(data["batch"]))
    return part


def _reduce_library(state, data) -> None:
    part = _apply_batch(state, data)
    part.facts.update(data["facts"])
    part.decks[data["actor"]] = dict(data["deck"])
    part.unordered[data["actor"]] = []
    part.last_check.pop(data["actor"], None)
    part.last_boost.pop(data["actor"], None)


def _reduce_check(state, data) -> None:
    actor = data["actor"]
    lib = library_zone(actor)
    before = state[PART].table.order(lib)
    part = _apply_batch(state, data)
    after = list(part.table.order(lib))
    part.regroup(actor, after[-2:], [after[-2:]])  # MTG-CHK-12: the pair at the bottom, order unknown
    part.last_check[actor] = {**outcome_record(data["result"], actor, before, after), "after": after,
                              "boosted": False}
    part.last_boost.pop(actor, None)


def _reduce_boost(state, data) -> None:
    actor = data["actor"]
    lib = library_zone(actor)
    before = state[PART].table.order(lib)
    part = _apply_batch(state, data)
    after = part.table.order(lib)
    returned = [before[i] for i in data["result"].get("to_bottom", [])]  # put back in random order
    part.regroup(actor, [*(set(before) - set(after)), *returned], [returned])
    part.boosted.append(data["scope"])
    part.boosters.append(actor)
    part.last_check[actor] = {**part.last_check[actor], "boosted": True}
    part.last_boost[actor] = outcome_record(data["result"], actor, before, part.table.order(lib))


# Facts an mtg.check or mtg.boost event no longer stores in its result (each is already in the event
# once): the move plan is what the batch does to the library, the actor is the event's.
DERIVED = ("new_order", "actor")


def outcome_fact(result: CheckResult | BoostResult) -> dict[str, Any]:
    """The outcome of a check or a boost as its event stores it: each fact once (see DERIVED)."""
    return {k: v for k, v in result.to_dict().items() if k not in DERIVED}


def check_ja_names(result: CheckResult) -> dict[str, str]:
    """The Japanese printed names of the two cards a check turned, by English name: the event keeps
    them so that `%log` names the cards in Japanese (the log is drawn from the event alone)."""
    return {card.name: card.ja_name for card in (result.first, result.second) if card.ja_name}


def outcome_record(fact: Mapping[str, Any], actor: str, before: Sequence[str], after: Sequence[str]
                   ) -> dict[str, Any]:
    """The full outcome (`to_dict` of the result) of a check or boost event, given the library order
    before and after its batch; an event of an earlier version already carries it all."""
    if "new_order" in fact:
        return dict(fact)
    position = {uid: i for i, uid in enumerate(before)}
    return {**fact, "new_order": [position[uid] for uid in after], "actor": actor}


def _reduce_scene(state, data) -> None:
    part: MtgState = state[PART]
    part.scene = data["scene"]
    part.boosted.clear()
    part.boosters.clear()
    part.last_check.clear()
    part.last_boost.clear()


def _reduce_cards(state, data) -> None:
    part = _apply_batch(state, data)  # a boost afterwards is refused: the order no longer matches the check
    part.unordered[data["actor"]] = []  # shuffled or set up by the GM: nothing known of the order


def _reduce_peek(state, data) -> None:
    part = _apply_batch(state, data)
    actor = data["actor"]
    part.regroup(actor, [u for u in part.table.order(library_zone(actor)) if part.table.card(u).known_by(actor)])
    record = part.last_check.get(data["actor"])
    if record is not None:  # seed 002:61,64: a boost is refused once the player knows new top cards
        part.last_check[data["actor"]] = {**record, "peeked": True}


def _reduce_config(state, data) -> None:
    part: MtgState = state[PART]
    part.options = {**part.options, **data["changes"]}


register_event("mtg.library", apply=_reduce_library, changes=(PART,))
register_event("mtg.check", apply=_reduce_check, changes=(PART,))
register_event("mtg.boost", apply=_reduce_boost, changes=(PART,))
register_event("mtg.scene", apply=_reduce_scene, changes=(PART,))
register_event("mtg.peek", apply=_reduce_peek, changes=(PART,))
register_event("mtg.reset", apply=_reduce_cards, changes=(PART,))
register_event("mtg.config", apply=_reduce_config, changes=(PART,))


def _plan_steps(table: cards.CardTable, steps) -> tuple[list, cards.CardTable]:
    """Plan each step on the table the previous steps left; all ops make one event."""
    ops: list = []
    scratch = table
    for step in steps:
        planned = step(scratch)
        ops.extend(planned.ops)
        scratch = cards.applied(scratch, planned)
    return ops, scratch


# --- results shown to the user ----------------------------------------------------------------------


class Mtg(RuleSetHandle):
    """The MtG-card house rule on one table (`session.mtg`): libraries from decklists, action checks,
    boosts, scenes and odds."""

    name = "mtg"

    _mtg_index: FactsIndex | None = None

    # -- options (OPEN choices of MTG-CHK) -------------------------------------------------------
    @property
    def options(self) -> MtgOptions:
        """The options in force: the defaults plus every logged mtg.config change (saved with the log)."""
        return self.state.mtg_options

    @options.setter
    def options(self, options: MtgOptions) -> None:
        from dataclasses import asdict

        self.config(**asdict(options))

    def config(self, **changes: Any) -> MtgConfigShown:
        """Change MtG options as one logged event (`mtg_config(boost_per_character=False)`); they apply
        to every library at once, existing ones included. Without arguments: show them."""
        changed = changed_options(self.options, changes)
        if changed:
            self.table.record("mtg.config", {"changes": changed})
        return MtgConfigShown(self.options, changed)

    # -- card data -----------------------------------------------------------------------------
    @property
    def facts(self) -> FactsIndex:
        """Names resolve against loaded card data first, then the bundled facts."""
        return self._mtg_index if self._mtg_index is not None else bundled_facts()

    def card_data(self, path: str | os.PathLike[str], *, cache: str | None = None,
                      progress=None) -> FactsIndex:
        """Load a full card data file (AtomicCards.json or Scryfall oracle bulk) for name lookups."""
        from gamekernel.mtg.rules.loaders import load_card_data

        loaded = load_card_data(path, cache=cache, progress=progress)
        self._mtg_index = loaded.merged(bundled_facts())
        self._mtg_index.neighbours()
        return self._mtg_index

    # -- helpers -------------------------------------------------------------------------------
    @property
    def state(self) -> MtgState:
        return self.table.state[PART]

    def actor(self, actor: str | None) -> str:
        """The named character, or the only one with a library."""
        part = self.state
        if actor is None:
            if len(part.decks) == 1:
                return next(iter(part.decks))
            if not part.decks:
                raise UsageError(t("mtg.err.no_library"))
            raise UsageError(t("mtg.err.which", names=", ".join(sorted(part.decks))))
        found, close = resolve_name(actor.strip(), part.decks)
        if found is None:
            hint = t("mtg.err.did_you_mean", names=", ".join(close)) if close else ""
            raise NotFoundError(t("mtg.err.unknown_actor", actor=limits.quoted_line(actor), hint=hint))
        return found

    # -- libraries -----------------------------------------------------------------------------
    def library_load(self, actor: str, source: str | os.PathLike[str], *, fmt: str | None = None,
                     text: str | None = None) -> LibraryLoaded:
        """Build `actor`'s library from a decklist file (or `text`), shuffled from the secret stream
        (`_mtg_library_dice`)."""
        actor = visible(actor).strip()  # a name as read: no bidi or zero-width controls
        if not actor or ":" in actor:
            raise UsageError(t("mtg.err.actor_name", actor=limits.quoted_line(actor)))
        actor = find_name(actor, self.state.decks) or actor  # `load mira` reloads Mira's; `load Mi` is Mi's own
        if text is None and is_url(str(source)):  # never fetched: the list is pasted or saved as text
            raise UsageError(t("mtg.err.deck_url", url=limits.quoted_line(str(source))))
        decklist = parse_decklist(text, str(source), fmt) if text is not None else read_decklist(source, fmt)
        limits.at_most(decklist.main_count + decklist.sideboard_count, "max_cards", t("limits.what.cards"))
        library = build_library(decklist, self.facts)
        table = self.state.table
        lib, exile = library_zone(actor), exile_zone(actor)
        if lib in table.zones:  # a reload replaces the old cards
            steps = [lambda s: cards.plan_destroy(s, [*s.order(lib), *s.order(exile)])]
        else:
            steps = [lambda s: cards.plan_add_zone(s, lib, "library", owner=actor),
                     lambda s: cards.plan_add_zone(s, exile, "exile", owner=actor, face_up=True)]
        steps += [lambda s: cards.plan_create(s, lib, [c.name for c in library]),
                  lambda s: cards.plan_shuffle(s, lib, self._mtg_library_dice())]
        made = composition(library, decklist.sideboard_count)
        source_name = Path(str(source)).name
        deck = {"source": source_name, "name": decklist.name, "fmt": decklist.fmt,
                "main": decklist.main_count, "sideboard": decklist.sideboard_count,
                "composition": made.to_dict()}
        facts = {c.name: c.to_row() for c in library}
        with self.table.command():  # refused, the shuffle's secret dice (and a key it drew) are put back
            ops = _plan_steps(table, steps)[0]
            self.table.record("mtg.library", {"actor": actor, "deck": deck, "facts": facts,
                                        "batch": cards.Batch("library", tuple(ops)).to_dict()}, actor=actor)
        commander = tuple(entry.name for entry in decklist.commander for _ in range(entry.count))
        return LibraryLoaded(actor, source_name, decklist.fmt, decklist.main_count, decklist.sideboard_count,
                             decklist.name, made, decklist.detected, commander, decklist.warnings)

    def _mtg_library_dice(self) -> random.Random:
        """The stream a library's hidden order is drawn from (a shuffle, the pair put on the bottom,
        MTG-CHK-12, a boost's exiled cards put back): the secret one, opened at its first draw, as a
        Gamma World deck's (GW-ALPHA-10). The card a check reveals next (MTG-CHK-05, -06) must not
        follow from the public seed and the public steps; each event records the order it made."""
        return LazyDice(lambda: self.table.dice_for(True))

    def library_stack(self, actor: str | None, names: list[str], *, where: str = "top") -> LibraryView:
        """Put named cards of the library on top in the given order (a GM set-up, e.g. to replay the
        seed's example); logged as a reset of the order."""
        actor = self.actor(actor)
        part = self.state
        order = list(part.table.order(library_zone(actor)))
        chosen = []
        for name in names:
            wanted = self.facts.lookup(name).name
            uid = next((u for u in order if part.table.card(u).def_id == wanted and u not in chosen), None)
            if uid is None:
                raise NotFoundError(t("mtg.err.not_in_library", card=wanted, actor=actor))
            chosen.append(uid)
        rest = [u for u in order if u not in chosen]
        new = chosen + rest if where == "top" else rest + chosen
        batch = cards.Batch("stack", (cards.Shuffle(library_zone(actor), tuple(new), forget=True),))
        self.table.record("mtg.reset", {"actor": actor, "batch": batch.to_dict(), "stacked": names}, actor=actor)
        return self.library_view(actor)

    def library_reset(self, actor: str | None = None) -> LibraryView:
        """Return exiled cards to the library and shuffle it (e.g. before the battle part)."""
        actor = self.actor(actor)
        with self.table.command():  # refused, the shuffle's secret dice are put back
            batch = cards.plan_recall(self.state.table, library_zone(actor), rng=self._mtg_library_dice())
            self.table.record("mtg.reset", {"actor": actor, "batch": batch.to_dict()}, actor=actor)
        return self.library_view(actor)

    def library_peek(self, count: int, actor: str | None = None) -> LibraryView:
        """The player looks at the top `count` cards (now known: exiled during checks, MTG-CHK-04)."""
        actor = self.actor(actor)
        if not isinstance(count, int) or count < 1:
            raise UsageError(t("mtg.err.peek_count", count=count))
        batch = cards.plan_peek(self.state.table, library_zone(actor), count, actor)
        self.table.record("mtg.peek", {"actor": actor, "count": count, "batch": batch.to_dict()}, actor=actor)
        return self.library_view(actor)

    def library_view(self, actor: str | None = None) -> LibraryView:
        from gamekernel.mtg.rules.odds import colour_distribution

        actor = self.actor(actor)
        part = self.state
        table = part.table
        known = [part.table.card(u).def_id for u in (c.uid for c in table.known_top(library_zone(actor), actor))]
        library = part.library(actor)
        return LibraryView(
            actor=actor, count=len(library), known_top=tuple(known),
            exile=tuple(table.card(u).def_id for u in table.order(exile_zone(actor))), scene=part.scene,
            boost_used=part.boost_user(actor) is not None, last_check=copy.deepcopy(part.last_check.get(actor)),
            last_boost=copy.deepcopy(part.last_boost.get(actor)), distribution=colour_distribution(library),
            deck=dict(part.decks[actor]),
            ja_names={name: row[6] for name, row in part.facts.items() if len(row) > 6 and row[6]},
            known_bottom=known_in_groups(part.unordered_positions(actor), len(library), part.known_positions(actor)))

    # -- checks --------------------------------------------------------------------------------
    def check(self, kind: str, difficulty: int | None = None, *, actor: str | None = None,
                  boost_if_needed: bool = False) -> CheckResult:
        """An action check (MTG-CHK): `mtg_check("green", 2, actor="Mira")` or `mtg_check("G2")`.

        With `boost_if_needed=True` the scene's boost follows at once, but only when the check failed
        and the boost can turn it into a success (its chance, `result.boost_odds`, is above 0)."""
        if difficulty is None:
            kind, difficulty = parse_check_spec(kind)
        kind = parse_kind(kind)
        actor = self.actor(actor)
        part = self.state
        lib, exile = library_zone(actor), exile_zone(actor)
        order = part.table.order(lib)
        result = action_check(part.library(actor), kind, difficulty, self.table.rng, hidden=self._mtg_library_dice(),
                              known=part.known_positions(actor), unordered=part.unordered_positions(actor),
                              options=self.options, actor=actor)
        known = list(order[: len(result.known_cards)])
        bottom = [order[i] for i in result.new_order[-2:]]
        steps = []
        if known:
            steps.append(lambda s: cards.plan_move(s, known, exile, at="bottom", tapped=None))
        steps.append(lambda s: cards.plan_move(s, bottom, lib, at="bottom", face_up=False, forget=True))
        if known:
            steps.append(lambda s: cards.plan_move(s, known, lib, at="top", face_up=False, tapped=None))
        ops, scratch = _plan_steps(part.table, steps)
        after = list(scratch.order(lib))
        assert after == [order[i] for i in result.new_order], "card moves disagree with the rules' plan"
        batch = cards.Batch("check", tuple(ops), tuple(order[len(known): len(known) + 2]))
        self.table.record("mtg.check", {"actor": actor, "result": outcome_fact(result), "batch": batch.to_dict(),
                                  "ja_names": check_ja_names(result)}, actor=actor)
        if boost_if_needed and not result.success:
            return self._boost_if_it_helps(result, actor)
        return result

    def _boost_if_it_helps(self, result: CheckResult, actor: str) -> CheckResult:
        from dataclasses import replace

        if not result.boost_odds:
            return replace(result, auto_boost_note=t("mtg.check.auto_boost_none"))
        try:
            return replace(result, auto_boost=self.boost(actor))
        except RuleError as refusal:  # e.g. the scene's boost is used: the check stands, and says why
            return replace(result, auto_boost_note=str(refusal))

    def boost(self, actor: str | None = None) -> BoostResult:
        """Once per scene, after a check: exile the top six, +1 per colourless card (MTG-CHK-13)."""
        actor = self.actor(actor)
        part = self.state
        options = self.options
        scope, check = self._boostable(actor)
        lib = library_zone(actor)
        order = list(part.table.order(lib))
        result = boost(part.library(actor), check, self._mtg_library_dice(), options=options)  # hidden order
        exiled_uids = [order[i] for i in range(len(order)) if i not in set(result.new_order)]
        if options.boost_exile_stays:
            batch = cards.plan_move(part.table, exiled_uids, exile_zone(actor), at="bottom", face_up=True)
        else:
            batch = cards.Batch("boost", (cards.Shuffle(lib, tuple(order[i] for i in result.new_order),
                                                        forget=False),))
        self.table.record("mtg.boost", {"actor": actor, "scope": scope, "result": outcome_fact(result),
                                  "batch": batch.to_dict()}, actor=actor)
        return result

    def _boostable(self, actor: str) -> tuple[str, CheckResult]:
        """The scope and check a boost would use now; RuleError when the rules refuse it (MTG-CHK-13)."""
        part = self.state
        record = part.last_check.get(actor)
        scope = require_boost(actor, self.options, part.boost_user(actor), record)
        assert record is not None  # require_boost refused when there is no check to boost
        if list(part.table.order(library_zone(actor))) != record["after"]:
            raise RuleError(t("mtg.err.boost_stale"))
        return scope, self._check_from_record(record)

    def boost_refusal(self, actor: str | None = None) -> str | None:
        """Why `mtg_boost` would be refused now, or None; nothing is rolled or recorded (the library
        widget disables its Boost button with this reason)."""
        actor = self.actor(actor)
        try:
            _, check = self._boostable(actor)
            taken = boost_taken(len(self.state.library(actor)), check, self.options)
        except RuleError as refusal:
            return str(refusal)
        return boost_refusal(check, len(taken))

    def _check_from_record(self, record: Mapping[str, Any]) -> CheckResult:
        """Rebuild the CheckResult of the last check from its event data (no RNG)."""
        part = self.state
        odds, boost_odds = record.get("odds"), record.get("boost_odds")
        return CheckResult(
            kind=record["kind"], difficulty=record["difficulty"], library_size=record["library_size"],
            known_cards=tuple(part.card_facts(n) for n in record["known"]),
            first=part.card_facts(record["first"]), second=part.card_facts(record["second"]),
            target=record["target"], colours=tuple(record["colours"]), chosen_colour=record["chosen_colour"],
            relation=record["relation"], modifier=record["modifier"], achievement=record["achievement"],
            success=record["success"], bottom=tuple(record["bottom"]), new_order=tuple(record["new_order"]),
            odds=None if odds is None else Fraction(*odds), actor=record.get("actor"),
            options=self.options, boost_odds=None if boost_odds is None else Fraction(*boost_odds))

    def scene(self) -> SceneStarted:
        """A new scene: every boost is available again."""
        scene = self.state.scene + 1
        self.table.record("mtg.scene", {"scene": scene})
        return SceneStarted(scene)

    # -- odds ----------------------------------------------------------------------------------
    def odds(self, kind: str, difficulty: int | None = None, *, actor: str | None = None) -> OddsResult:
        if difficulty is None:
            kind, difficulty = parse_check_spec(kind)
        kind = parse_kind(kind)
        actor = self.actor(actor)
        part = self.state
        library, known, groups = part.library(actor), part.known_positions(actor), part.unordered_positions(actor)
        odds = check_odds(library, kind, difficulty, known=known, unordered=groups, options=self.options)
        return OddsResult(actor, kind, difficulty, odds, len(library), known_prefix(known),
                          known_in_groups(groups, len(library), known))

    def knowledge(self, actor: str | None = None) -> LibraryKnowledge:
        """The library with what the table knows of its order: the one model every odds figure uses."""
        actor = self.actor(actor)
        part = self.state
        return LibraryKnowledge.of(part.library(actor), part.known_positions(actor), part.unordered_positions(actor))

    def odds_table(self, actor: str | None = None) -> OddsTable:
        actor = self.actor(actor)
        part = self.state
        return odds_table(part.library(actor), known=part.known_positions(actor),
                          unordered=part.unordered_positions(actor), options=self.options)
