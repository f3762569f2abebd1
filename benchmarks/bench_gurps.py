"""GURPS benchmarks (GURPS-CH, GURPS-SR): characters' derived stats, and a check through the session vs the
foundation's `%roll` (both as Python calls and as notebook cells); prints the ratios, the cells'
against a target. Times are this process's CPU time (other work on a shared machine does not count); a
check and the roll it is compared with are timed in alternating rounds, so that a slow spell of the
machine (they last seconds) hits both alike rather than the one measured during it."""

from __future__ import annotations

import io
import time
import timeit
from contextlib import redirect_stdout

REPEATS = 7
NUMBER = 500
ROUNDS = 25  # alternated rounds of a check and its roll; each one's fastest counts


def _best(func, number: int = NUMBER) -> float:
    return min(timeit.repeat(func, number=number, repeat=REPEATS, timer=time.process_time)) / number


def _alternated(first, second, number: int) -> tuple[float, float]:
    """CPU seconds per call of `first` and of `second`, each its fastest of `ROUNDS` rounds taken in turn."""
    from benchmarks.report import alternated

    best = alternated([first, second], number, ROUNDS, timer=time.process_time)
    return best[0], best[1]


def _derived() -> dict[str, float]:
    from gamekernel.gurps.rules.characters import Character, make_skill
    from gamekernel.gurps.rules.traits import make_trait

    aiko = Character("Aiko", dx=12, iq=12, ht=11,
                     traits=(make_trait("Combat Reflexes"), make_trait("Acute Vision", level=2)),
                     skills=(make_skill("Lockpicking", 8), make_skill("Stealth", 4), make_skill("Climbing", 2)))

    def stats():
        return (aiko.hp, aiko.will, aiko.per, aiko.fp, aiko.basic_speed, aiko.basic_move, aiko.dodge,
                aiko.basic_lift, aiko.damage)

    return {
        "derived stats (9 values)": _best(stats),
        "point total + validation": _best(lambda: (aiko.points(), aiko.validate())),
        "skill level (points)": _best(lambda: aiko.skill_level("Lockpicking")),
        "skill level (default)": _best(lambda: aiko.skill_level("Hiking")),
    }


def _session() -> tuple[float, float]:
    from gamekernel import Session

    session = Session(seed=1)
    session.gurps.char_new("Aiko", dx=12, iq=12, ht=11, skills=[("Lockpicking", 8)])
    other = Session(seed=1)
    return _alternated(lambda: session.gurps.check("Lockpicking-5 dark"), lambda: other.roll("3d+2"), 200)


def _cells() -> tuple[float, float]:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    if "gamekernel" not in shell.extension_manager.loaded:  # another benchmark of this run may have loaded it
        shell.run_line_magic("load_ext", "gamekernel")
    shell.run_line_magic("seed", "1")
    shell.run_line_magic("char", "new Aiko dx=12 iq=12 ht=11")
    shell.run_line_magic("char", "skill Lockpicking 8")

    cells = ("%check Lockpicking-5 dark", "%roll 3d+2")
    with redirect_stdout(io.StringIO()):
        for cell in cells:
            for _ in range(20):
                shell.run_cell(cell, store_history=False)
        return _alternated(*(lambda cell=cell: shell.run_cell(cell, store_history=False) for cell in cells), 50)


def main() -> None:
    print("GURPS: characters' derived stats (best of 7)")
    for name, seconds in _derived().items():
        print(f"    {name:28s} {seconds * 1e6:8.2f} µs")
    check, roll = _session()
    print(f"GURPS: session calls (best of {ROUNDS} alternated rounds x 200)")
    print(f"    session.gurps.check('Lockpicking-5 dark') {check * 1e6:8.1f} µs")
    print(f"    session.roll('3d+2')                {roll * 1e6:8.1f} µs")
    print(f"    ratio check / roll                  {check / roll:8.2f}x")
    cell_check, cell_roll = _cells()
    print(f"GURPS: notebook cells through run_cell (best of {ROUNDS} alternated rounds x 50)")
    print(f"    %check Lockpicking-5 dark           {cell_check * 1e6:8.1f} µs")
    print(f"    %roll 3d+2                          {cell_roll * 1e6:8.1f} µs")
    print(f"    ratio                               {cell_check / cell_roll:8.2f}x")
    print()
    from benchmarks.report import Target, ms, targets

    targets("GURPS check vs the foundation's roll (same run)", [
        Target("%check Lockpicking-5 dark cell", ms(cell_check), f"%roll 3d+2 cell {ms(cell_roll)}",
               f"{cell_check / cell_roll:.2f}x", "<= 1.5x (a roll plus a skill look-up)",
               cell_check / cell_roll <= 1.5),
        Target("session.gurps.check('Lockpicking-5 dark')", ms(check), f"session.roll('3d+2') {ms(roll)}",
               f"{check / roll:.2f}x", "<= 8x", check / roll <= 8),
    ])


if __name__ == "__main__":
    main()
