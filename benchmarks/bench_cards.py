"""Card benchmarks (the Gamma World card decks): 10,000 draw / tap / discard operations through the session.

Each operation is a full session call: rules check, plan with the session RNG, a recorded event
(the reducer applies the card records), observers. Also measured: the Gamma World rules and the card
core without the session (the same `play.plan_*` calls, each step applied as the live reducer
applies it), the card core alone doing the same moves on the same table (plan + apply through
gamekernel.cards: no character or card looked up, no refusal checked, no step built), and a replay
of the whole log (what undo costs). The first row compares the session with the bare card core, the
rules' own work included (the issue's figure, a speed target); the second compares it with the rules
and the card core, so its ratio is what the session layer alone adds. The "encounter end" of the
session and of the rules also starts the next encounter (a flag: the card core has nothing to do for it).

Each run of 10,000 operations is one value of a pyperf benchmark (`benchmarks.harness.measured`:
fresh worker processes, a warm-up run dropped), timing the operations alone, with the cyclic
collector paused: it walks the session's growing log at every full collection and lands on
whichever operation allocates then (a third of the session's time in one run here).
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable

OPERATIONS = 10_000
KINDS = ("tap", "discard+draw", "encounter end")
TARGET = 2.5  # the session's operations at most this many times the bare card core's (the figure),
# and at most this many times the same rules and card core's without the session


def _table_of_five():
    from gamekernel import Session

    session = Session(seed=5)
    session.gw.deck_new("Rin")
    for card in ("Sap Bloom", "Bristle Hide", "Sticky Pads", "Gravity Knot", "Thought Needle"):
        session.gw.deck_add("Rin", card, 2)
    for name, level in (("Rin", 4), ("Bren", 1), ("Ash", 8), ("Kit", 5), ("Mo", 2)):
        session.gw.character(name, level=level, new=name not in session.gw.state.characters)
    session.gw.draw()
    session.gw.encounter_start()
    return session


Ops = list[tuple[str, float]]  # (kind, seconds) of every operation, in order


def _session_run():
    """Round-robin over the five characters: tap a ready card, else discard one and draw (a forced
    flux), and end the encounter (discard and redraw everything) every 50 operations. Returns
    every operation's time and the session."""
    session = _table_of_five()
    names = list(session.gw.state.characters)
    ops: Ops = []
    done = 0
    clock = time.process_time  # CPU time: other work on a shared machine does not count
    while done < OPERATIONS:
        name = names[done % len(names)]
        if done % 50 == 49:
            start = clock()
            session.gw.encounter_end()
            session.gw.encounter_start()
            ops.append(("encounter end", clock() - start))
        else:
            cards = session.gw.state.readied(name)
            ready = [uid for uid in cards if not session.gw.state.table.cards[uid].tapped]
            start = clock()
            if ready:
                session.gw.tap(name, ready[0])
                ops.append(("tap", clock() - start))
            else:
                session.gw.flux(name, cards[0], force=True)
                ops.append(("discard+draw", clock() - start))
        done += 1
    return ops, session


def _core_ops() -> Ops:
    """The card core alone, doing what `_session_ops` does on the same table (a copy of the
    session's, after the same setup): the same characters in the same order, the same decks and
    empty-deck policies, the same choice of card. A flux is a discard to the shared pile and a
    draw from the GM deck; an encounter end discards every readied card and draws as many from
    each character's own deck (the GM deck without one). Every move is `plan_*` then `apply`."""
    from gamekernel import cards
    from gamekernel.gammaworld.rules.state import DISCARD, GM_DECK, deck_zone, readied_zone

    session = _table_of_five()
    table = cards.CardTable.from_dict(session.gw.state.table.to_dict())
    names = list(session.gw.state.characters)
    readied = {name: readied_zone(name) for name in names}
    source = {name: deck_zone(name) if deck_zone(name) in table.zones else GM_DECK for name in names}
    rng = random.Random(5)
    ops: Ops = []
    done = 0
    clock = time.process_time  # CPU time: other work on a shared machine does not count
    while done < OPERATIONS:
        name = names[done % len(names)]
        if done % 50 == 49:
            start = clock()
            for who in names:
                uids = list(table.orders[readied[who]])
                if uids:
                    cards.apply(table, cards.plan_move(table, uids, DISCARD))
                    cards.apply(table, cards.plan_draw(table, source[who], readied[who], len(uids), rng=rng))
            ops.append(("encounter end", clock() - start))
        else:
            uids = table.orders[readied[name]]
            ready = [uid for uid in uids if not table.cards[uid].tapped]
            start = clock()
            if ready:
                cards.apply(table, cards.plan_tap(table, ready[0]))
                ops.append(("tap", clock() - start))
            else:
                cards.apply(table, cards.plan_move(table, [uids[0]], DISCARD))
                cards.apply(table, cards.plan_draw(table, GM_DECK, readied[name], 1, rng=rng))
                ops.append(("discard+draw", clock() - start))
        done += 1
    return ops


def _rules_ops() -> Ops:
    """The Gamma World rules and the card core without the session, doing what `_session_ops` does
    on the same table: the same `play.plan_*` the session calls (the character and the card found,
    the refusals checked, the Step built), each step applied to the state as the live reducer applies
    it (a chain's finished scratch table taken as it is, else the moves applied). What the session
    adds to this is its own layer: the RNG transaction, the event (logged, checked, reduced), the
    observers and reactions, the result and its hand snapshots."""
    from gamekernel.gammaworld.rules import play
    from gamekernel.gammaworld.rules.state import apply_step

    session = _table_of_five()
    state = session.gw.state.copy()
    catalog = state.catalog
    names = list(state.characters)
    rng = random.Random(5)

    def run(step) -> None:
        chain = step.planned.pop() if step.planned else None
        apply_step(state, step, table=chain.finish(state.table) if chain is not None else None)

    ops: Ops = []
    done = 0
    clock = time.process_time  # CPU time: other work on a shared machine does not count
    while done < OPERATIONS:
        name = names[done % len(names)]
        if done % 50 == 49:
            start = clock()
            run(play.plan_encounter_end(state, rng))
            run(play.plan_encounter_start(state))
            ops.append(("encounter end", clock() - start))
        else:
            cards = state.readied(name)
            ready = [uid for uid in cards if not state.table.cards[uid].tapped]
            start = clock()
            if ready:
                run(play.plan_tap(state, name, ready[0], catalog))
                ops.append(("tap", clock() - start))
            else:
                run(play.plan_flux(state, name, cards[0], rng, catalog, force=True))
                ops.append(("discard+draw", clock() - start))
        done += 1
    return ops


def _total(run: Callable[[], Ops]) -> Callable[[], float]:
    """Seconds of one run's operations (their set-up between them not counted), collector paused."""

    def measure() -> float:
        gc.collect()
        gc.disable()
        try:
            return sum(seconds for _kind, seconds in run())
        finally:
            gc.enable()

    return measure


def _replay() -> Callable[[], object]:
    """A replay of a finished run's whole log (what undo costs)."""
    from gamekernel.session import replay

    _ops, session = _session_run()
    return lambda: replay(session.active)


def main() -> None:
    from benchmarks import harness
    from benchmarks.report import Target, ms, targets

    # a run is a value (a second or two): five processes of two values each keep the module in minutes
    session = harness.measured("session operations", _total(lambda: _session_run()[0]), processes=5, values=2)
    rules = harness.measured("rules + card core, no session", _total(_rules_ops), processes=5, values=2)
    core = harness.measured("card core alone", _total(_core_ops), processes=5, values=2)
    replayed = harness.bench("replay of the whole log", _replay, collector=False)
    if harness.is_worker():
        return
    assert session and rules and core and replayed
    bare, layer = harness.ratio(session, core)[0], harness.ratio(session, rules)[0]
    per_op = harness.median(session) / OPERATIONS
    print(f"Cards: {OPERATIONS:,} operations (Gamma World, table of five: {', '.join(KINDS)}), "
          f"{ms(per_op)} per operation through the session; a replay of its log {ms(harness.median(replayed))}")
    print()
    targets("card session overhead (speed targets; pyperf medians, CPU time, collector paused)", [
        Target("session operations (flux, tap, encounter end)", f"{harness.median(session):.2f} s",
               f"card core alone, same moves and table {harness.median(core):.2f} s",
               harness.ratio_text(session, core, "x{:.2f}"), f"<= x{TARGET:g} (the rules' work included)",
               bare <= TARGET),
        Target("  the same against the rules and card core", f"{harness.median(session):.2f} s",
               f"the same rules and card core without the session {harness.median(rules):.2f} s",
               harness.ratio_text(session, rules, "x{:.2f}"), f"<= x{TARGET:g} (the session layer alone)",
               layer <= TARGET),
    ])


if __name__ == "__main__":
    main()
