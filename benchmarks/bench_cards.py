"""Card benchmarks (issue 5): 10,000 draw / tap / discard operations through the session.

Each operation is a full session call: rules check, plan with the session RNG, a recorded event
(the reducer applies the card records), observers. Also measured: the bare card core
(plan + apply without a session) and a replay of the whole log (what undo costs). The first
overhead row compares different operation mixes (the session's flux and encounter end move more
cards than the core loop's ops); the second times the card core inside the session's own
operations, which is what the session layer adds.
"""

from __future__ import annotations

import random
import time

OPERATIONS = 10_000


def _table_of_five():
    from gamekernel import Session

    session = Session(seed=5)
    session.gw_deck_new("Rin")
    for card in ("Sap Bloom", "Bristle Hide", "Sticky Pads", "Gravity Knot", "Thought Needle"):
        session.gw_deck_add("Rin", card, 2)
    for name, level in (("Rin", 4), ("Bren", 1), ("Ash", 8), ("Kit", 5), ("Mo", 2)):
        session.gw_character(name, level=level, new=name not in session.gw.characters)
    session.gw_draw()
    session.gw_encounter_start()
    return session


def _session_ops(replay_log: bool = True) -> dict[str, tuple[int, float]]:
    """Round-robin over the five characters: tap a ready card, else discard one and draw (a forced
    flux), and end the encounter (discard and redraw everything) every 50 operations."""
    session = _table_of_five()
    names = list(session.gw.characters)
    timings: dict[str, list[float]] = {"tap": [], "discard+draw": [], "encounter end": []}
    done = 0
    clock = time.perf_counter
    while done < OPERATIONS:
        name = names[done % len(names)]
        if done % 50 == 49:
            start = clock()
            session.gw_encounter_end()
            session.gw_encounter_start()
            timings["encounter end"].append(clock() - start)
        else:
            cards = session.gw.readied(name)
            ready = [uid for uid in cards if not session.gw.table.cards[uid].tapped]
            start = clock()
            if ready:
                session.gw_tap(name, ready[0])
                timings["tap"].append(clock() - start)
            else:
                session.gw_flux(name, cards[0], force=True)
                timings["discard+draw"].append(clock() - start)
        done += 1
    result = {kind: (len(values), sum(values)) for kind, values in timings.items()}
    if not replay_log:
        return result
    start = clock()
    from gamekernel.session import replay

    rebuilt = replay(session.active)
    replay_time = clock() - start
    assert rebuilt.to_dict() == session.state.to_dict()
    result[f"replay of {len(session.active)} events"] = (1, replay_time)
    return result


def _core_inside_session() -> tuple[float, float]:
    """The same session operations again, with the card core's functions (every `plan_*` and
    `apply`) timed where the session calls them: (session seconds, card-core seconds inside)."""
    import gamekernel.cards as core
    import gamekernel.systems.gammaworld.state as gw_state

    spent = [0.0]
    depth = [0]
    clock = time.perf_counter

    def timed(function):
        def wrapper(*args, **kwargs):
            if depth[0]:  # a core function called by another: counted once, by the outer one
                return function(*args, **kwargs)
            depth[0] += 1
            start = clock()
            try:
                return function(*args, **kwargs)
            finally:
                spent[0] += clock() - start
                depth[0] -= 1

        return wrapper

    patched = [(core, name) for name in dir(core) if name.startswith("plan_") or name == "apply"]
    patched.append((gw_state, "apply"))
    originals = [(module, name, getattr(module, name)) for module, name in patched]
    for module, name, function in originals:
        setattr(module, name, timed(function))
    try:
        timings = _session_ops(replay_log=False)
    finally:
        for module, name, function in originals:
            setattr(module, name, function)
    return sum(seconds for _count, seconds in timings.values()), spent[0]


def _core_ops() -> tuple[int, float]:
    """The bare card core: draw 2, tap, discard both, repeatedly (plan + apply, no session)."""
    from gamekernel import cards

    rng = random.Random(1)
    table = cards.Table()
    for batch in (
        cards.plan_add_zone(table, "deck", "deck"),
        cards.plan_add_zone(table, "hand", "hand", face_up=True),
        cards.plan_add_zone(table, "discard", "discard", face_up=True),
    ):
        cards.apply(table, batch)
    cards.apply(table, cards.plan_create(table, "deck", [f"card{i}" for i in range(60)]))
    cards.apply(table, cards.plan_set_policy(table, "deck", cards.EmptyPolicy("reshuffle", "discard")))
    count = 0
    start = time.perf_counter()
    while count < OPERATIONS:
        drawn = cards.plan_draw(table, "deck", "hand", 2, rng=rng)
        cards.apply(table, drawn)
        cards.apply(table, cards.plan_tap(table, drawn.uids[0]))
        cards.apply(table, cards.plan_move(table, list(drawn.uids), "discard"))
        count += 3
    return count, time.perf_counter() - start


def main() -> None:
    from benchmarks.report import Target, targets

    print(f"Cards: {OPERATIONS:,} operations through the session (Gamma World, table of five)")
    print(f"{'operation':<28}{'count':>8}{'total s':>10}{'per op µs':>12}")
    total_ops = total_time = 0.0
    for kind, (count, seconds) in _session_ops().items():
        print(f"{kind:<28}{count:>8}{seconds:>10.3f}{seconds / count * 1e6:>12.1f}")
        if not kind.startswith("replay"):
            total_ops += count
            total_time += seconds
    print(f"{'all session operations':<28}{int(total_ops):>8}{total_time:>10.3f}{total_time / total_ops * 1e6:>12.1f}")
    count, seconds = _core_ops()
    print(f"{'card core plan+apply only':<28}{count:>8}{seconds:>10.3f}{seconds / count * 1e6:>12.1f}")
    print()
    session_op, core_op = total_time / total_ops, seconds / count
    ratio = session_op / core_op
    with_core, inside = _core_inside_session()
    targets("card session overhead (issue 16)", [
        Target("session operation (mean; flux, tap, encounter end)", f"{session_op * 1e6:.0f} µs",
               f"card core op (draw 2 / tap / discard mix) {core_op * 1e6:.1f} µs", f"x{ratio:.1f}", "<= x3",
               ratio <= 3),
        Target("same operations: session total vs its card core work", f"{with_core:.2f} s",
               f"card core plan_* + apply timed inside them {inside:.2f} s", f"x{with_core / inside:.1f}",
               "<= x3 (floor ~x2: the reducer applies each planned batch again)", with_core / inside <= 3),
    ])


if __name__ == "__main__":
    main()
