"""Combat benchmark (GURPS combat, GURPS-CMB): a 200-combatant GURPS fight.

Measured: kernel time per damage update through the session (rules, event, reducer, observers),
the pure rules alone (apply_injury on the frozen state) - CPU times of this process - and the tracker
widget's sync traffic per
damage update: number of comm messages and their JSON size (changed fields only), against what a
full `rows` resend of the whole tracker would weigh.
"""

from __future__ import annotations

import json
import random
import time

COMBATANTS = 200
UPDATES = 200


def _fight():
    from gamekernel import Session

    session = Session(seed=9)
    session.combat.npc("Orc", "ST=13 DX=11 HT=12 HP=15 weapon=Axe:12:sw+2 cut")
    session.combat.npc("Elf", "ST=10 DX=14 HT=11 weapon=Bow:14:1d+2 imp:ranged:acc=2 weapon=Sword:13:sw cut")
    session.combat.start(f"Orc*{COMBATANTS // 2} Elf*{COMBATANTS // 2}")
    return session


def main() -> None:
    from gamekernel.gurps.rules.combat import Tape, apply_injury
    from gamekernel.gurps.widgets.tracker import Tracker

    session = _fight()
    names = [c.name for c in session.combat.state.combatants]
    rng = random.Random(1)
    targets = [rng.choice(names) for _ in range(UPDATES)]

    start = time.process_time()
    for name in targets[: UPDATES // 2]:
        session.combat.damage(name, "1d cut")
    kernel = (time.process_time() - start) / (UPDATES // 2)

    widget = Tracker(session)
    messages: list[dict] = []
    original = widget._send

    def spy(msg, buffers=None):
        messages.append(msg)
        return original(msg, buffers)

    widget._send = spy
    per_update: list[tuple[int, int]] = []
    start = time.process_time()
    for name in targets[UPDATES // 2:]:
        mark = len(messages)
        session.combat.damage(name, "1d cut")
        sent = messages[mark:]
        per_update.append((len(sent), sum(len(json.dumps(m["state"], ensure_ascii=False)) for m in sent)))
    with_widget = (time.process_time() - start) / (UPDATES - UPDATES // 2)
    full = len(json.dumps(widget.rows, ensure_ascii=False))

    state = session.combat.state
    start = time.process_time()
    for name in targets:
        state, _ = apply_injury(state, name, 1, Tape(random.Random(2)))
    rules = (time.process_time() - start) / UPDATES

    counts = sorted({c for c, _ in per_update})
    sizes = [s for _, s in per_update]
    print(f"Combat: {COMBATANTS} combatants, {UPDATES} damage updates")
    print(f"{'measure':<44}{'value':>14}")
    print(f"{'kernel time per damage update (session)':<44}{kernel * 1e3:>11.2f} ms")
    print(f"{'  ... with the tracker widget open':<44}{with_widget * 1e3:>11.2f} ms")
    print(f"{'pure rules apply_injury per update':<44}{rules * 1e6:>11.1f} µs")
    print(f"{'widget messages per damage update':<44}{'/'.join(map(str, counts)):>14}")
    print(f"{'message size per update: mean / max':<44}{sum(sizes) / len(sizes):>8.0f} / {max(sizes):<5}B")
    print(f"{'full rows resend (for comparison)':<44}{full:>12} B")
    print(f"{'patch vs full resend':<44}{full / (sum(sizes) / len(sizes)):>12.0f} x smaller")
    print()
    from benchmarks.report import Target, ms, targets

    mean = sum(sizes) / len(sizes)
    targets(f"combat, {COMBATANTS} combatants (same run; the update with the widget: bench_curves)", [
        Target("pure rules apply_injury per update", f"{rules * 1e6:.1f} µs", f"the update through the session "
               f"{ms(kernel)}", f"{kernel / rules:.1f}x", "<= 20x (event, reducer, facts)", kernel / rules <= 20),
        Target("widget message per damage update", f"{mean:.0f} B", f"a full rows resend {full:,} B",
               f"{full / mean:.0f}x smaller", ">= 100x smaller, one message", full / mean >= 100 and counts == [1]),
    ])


if __name__ == "__main__":
    main()
