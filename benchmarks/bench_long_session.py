"""A long session's per-command cost stays flat (no leaks over a long session).

`%roll 3d6` before any widget and after 300 `%sheet` calls (the widgets used to keep observing: 43 ms
a roll instead of 0.41 ms) - two pyperf benchmarks, each worker making its own shell (and, for the
second, its 300 sheets) untimed before timing the rolls - and the size of `%next` in a 10- vs
200-combatant fight (326 KB before).
"""

from __future__ import annotations

import gc
from collections.abc import Callable


def _rolls(sheets: int) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        from IPython.core.interactiveshell import InteractiveShell

        ip = InteractiveShell.instance()
        ip.run_line_magic("load_ext", "gamekernel")
        ip.run_line_magic("char", "new Aiko st=10")
        ip.run_line_magic("char", "new Bren st=12")
        for i in range(sheets):
            ip.run_line_magic("sheet", "Aiko" if i % 2 else "Bren")
        gc.collect()
        return lambda: ip.run_line_magic("roll", "3d6")

    return setup


def _observers_after_sheets() -> int:
    from IPython.core.interactiveshell import InteractiveShell

    from gamekernel import magic_base

    _rolls(300)()
    count = magic_base.current_session().observer_count
    InteractiveShell.instance().run_line_magic("unload_ext", "gamekernel")
    return count


def _next_size(size: int) -> int:
    from gamekernel import Session

    session = Session(seed=3)
    session.combat.npc("Goblin", "ST=9 DX=11")
    session.combat.start(f"Goblin*{size}")
    return len(session.combat.next()._repr_html_())


def main() -> None:
    from benchmarks import harness
    from benchmarks.report import Target, ms, targets

    before = harness.bench("%roll 3d6 before any widget", _rolls(0))
    after = harness.bench("%roll 3d6 after 300 %sheet calls", _rolls(300))
    if harness.is_worker():
        return
    assert before is not None and after is not None
    observers = _observers_after_sheets()
    sizes = {size: _next_size(size) for size in (10, 200)}
    print(f"observers left registered after 300 %sheet calls: {observers} (was 300)")
    for size, length in sizes.items():
        print(f"%next HTML, {size:3d} combatants        {length / 1000:7.1f} KB")
    print()
    targets("a long session stays flat (same run; pyperf medians, CPU time)", [
        Target("%roll 3d6 after 300 %sheet calls", ms(harness.median(after)),
               f"before any widget {ms(harness.median(before))}", harness.ratio_text(after, before), "<= 1.5x",
               harness.ratio(after, before)[0] <= 1.5),
        Target("%next HTML, 200 combatants", f"{sizes[200] / 1000:.1f} KB", f"10 combatants {sizes[10] / 1000:.1f} KB",
               f"{sizes[200] / sizes[10]:.2f}x", "<= 2x (the turn, not the whole table)", sizes[200] / sizes[10] <= 2),
    ])


if __name__ == "__main__":
    main()
