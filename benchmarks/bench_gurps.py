"""GURPS benchmarks (GURPS-CH, GURPS-SR): a check through the session against the foundation's `%roll`,
as notebook cells (what a GM waits for) and as Python calls; and characters' derived stats. Each
figure is a pyperf benchmark (fresh worker processes, calibrated loops, CPU time of the process);
a row is the ratio of the medians of a check and its roll measured in the same run."""

from __future__ import annotations

import io
from collections.abc import Callable
from contextlib import redirect_stdout


def _aiko():
    from gamekernel.gurps.rules.characters import Character, make_skill
    from gamekernel.gurps.rules.traits import make_trait

    return Character("Aiko", dx=12, iq=12, ht=11,
                     traits=(make_trait("Combat Reflexes"), make_trait("Acute Vision", level=2)),
                     skills=(make_skill("Lockpicking", 8), make_skill("Stealth", 4), make_skill("Climbing", 2)))


def _stats() -> Callable[[], object]:
    aiko = _aiko()
    return lambda: (aiko.hp, aiko.will, aiko.per, aiko.fp, aiko.basic_speed, aiko.basic_move, aiko.dodge,
                    aiko.basic_lift, aiko.damage)


def _points() -> Callable[[], object]:
    aiko = _aiko()
    return lambda: (aiko.points(), aiko.validate())


def _session_check() -> Callable[[], object]:
    from gamekernel import Session

    session = Session(seed=1)
    session.gurps.char_new("Aiko", dx=12, iq=12, ht=11, skills=[("Lockpicking", 8)])
    return lambda: session.gurps.check("Lockpicking-5 dark")


def _session_roll() -> Callable[[], object]:
    from gamekernel import Session

    session = Session(seed=1)
    return lambda: session.roll("3d+2")


def _cell(cell: str) -> Callable[[], Callable[[], object]]:
    """A notebook cell through IPython's run_cell, after the setup a GM does (its output discarded)."""

    def setup() -> Callable[[], object]:
        from IPython.core.interactiveshell import InteractiveShell

        shell = InteractiveShell.instance()
        for line in ("load_ext gamekernel", "seed 1", "char new Aiko dx=12 iq=12 ht=11", "char skill Lockpicking 8"):
            shell.run_line_magic(*line.split(" ", 1))
        sink = io.StringIO()

        def run() -> None:
            with redirect_stdout(sink):
                shell.run_cell(cell, store_history=False)
            sink.seek(0)
            sink.truncate()

        return run

    return setup


def main() -> None:
    from benchmarks import harness
    from benchmarks.report import Target, ms, table, targets

    cell_check = harness.bench("%check Lockpicking-5 dark cell", _cell("%check Lockpicking-5 dark"))
    cell_roll = harness.bench("%roll 3d+2 cell", _cell("%roll 3d+2"))
    check = harness.bench("session.gurps.check", _session_check)
    roll = harness.bench("session.roll", _session_roll)
    stats = harness.bench("derived stats (9 values)", _stats)
    points = harness.bench("point total + validation", _points)
    if harness.is_worker():
        return
    assert cell_check and cell_roll and check and roll and stats and points
    table("GURPS characters (pyperf medians, for reference)", ["figure", "time"],
          [[b.get_name(), ms(harness.median(b))] for b in (stats, points)])
    targets("GURPS check vs the foundation's roll (same run, pyperf medians, CPU time)", [
        Target("%check Lockpicking-5 dark cell", ms(harness.median(cell_check)),
               f"%roll 3d+2 cell {ms(harness.median(cell_roll))}", harness.ratio_text(cell_check, cell_roll),
               "<= 1.5x (a roll plus a skill look-up)", harness.ratio(cell_check, cell_roll)[0] <= 1.5),
        Target("session.gurps.check('Lockpicking-5 dark')", ms(harness.median(check)),
               f"session.roll('3d+2') {ms(harness.median(roll))}", harness.ratio_text(check, roll), "<= 8x",
               harness.ratio(check, roll)[0] <= 8),
    ])


if __name__ == "__main__":
    main()
