"""No leaks over a long session.

Widgets stop observing the session when closed, dropped (weak observers) or replaced (the same
widget for the same target shown again: the older one goes dormant, it is never closed), so 300
`%sheet` calls leave a bounded number of observers. `%next` in a large fight shows the turn change,
not the whole roster, so its output does not grow with the fight. (The per-command cost itself is
measured in benchmarks/.)
"""

from __future__ import annotations

import gc

from gamekernel import Session
from gamekernel import magic_base as _base
from gamekernel.gurps.widgets.sheet import SheetWidget
from gamekernel.widgets import base


def test_300_sheets_leave_a_bounded_number_of_observers(ip):
    ip.run_line_magic("char", "new Aiko st=10")
    ip.run_line_magic("char", "new Bren st=12")
    session = _base.current_session()
    for i in range(300):
        ip.run_line_magic("sheet", "Aiko" if i % 2 else "Bren")
    gc.collect()
    assert session.observer_count == 2  # the latest sheet of each character; the others were replaced
    ip.run_line_magic("roll", "3d6")


def test_a_replaced_widget_goes_dormant_but_stays_open_and_a_closed_one_stops_observing():
    session = Session(seed=1)
    session.gurps.char_new("Aiko")
    first = SheetWidget(session, "Aiko")
    second = SheetWidget(session, "Aiko")
    assert first.dormant and first.comm is not None  # its view stays: never closed by a later one
    assert not second.dormant
    assert session.observer_count == 1
    second.close()
    assert session.observer_count == 0 and second.comm is None and not second.dormant
    second.close()  # closing twice is harmless


def test_a_dormant_widget_answers_a_click_and_follows_the_session_again():
    session = Session(seed=1)
    session.gurps.char_new("Aiko", st=10)
    first = SheetWidget(session, "Aiko")
    second = SheetWidget(session, "Aiko")
    session.gurps.char_set("Aiko", st=12)  # happens while the first is dormant
    assert first.dormant and first.attributes[0]["value"] == 10  # asleep: not refreshed
    first._on_custom_message(first, {"action": "set", "key": "st", "value": 13}, [])
    assert session.gurps.character("Aiko").st == 13 and first.error == ""
    assert not first.dormant and second.dormant  # the one clicked follows; its replacement sleeps
    assert session.observer_count == 1
    session.gurps.char_set("Aiko", st=14)
    assert first.attributes[0]["value"] == 14 and second.attributes[0]["value"] == 12  # asleep since 12


def test_widgets_of_different_targets_stay_live_up_to_the_cap():
    session = Session(seed=1)
    names = [f"Hero{i}" for i in range(base.MAX_LIVE_WIDGETS + 5)]
    for name in names:
        session.gurps.char_new(name)
    widgets = [SheetWidget(session, name) for name in names]
    assert session.observer_count == base.MAX_LIVE_WIDGETS
    assert all(w.dormant and w.comm is not None for w in widgets[:5])  # the oldest sleep, still open
    assert not any(w.dormant for w in widgets[5:])


def test_a_weak_observer_goes_away_with_its_object():
    session = Session(seed=1)

    class Watcher:
        seen = 0

        def on_event(self, session, event):
            Watcher.seen += 1

    watcher = Watcher()
    session.observe(watcher.on_event, weak=True)
    session.roll("3d6")
    assert Watcher.seen == 1 and session.observer_count == 1
    del watcher
    gc.collect()
    session.roll("3d6")
    assert Watcher.seen == 1 and session.observer_count == 0
    assert session._observers == []  # pruned, not only skipped


def test_a_widget_whose_target_is_undone_does_not_turn_the_undo_into_an_error(ip):
    """Found by the fuzz test: the undo was recorded, then the sheet's refresh raised, and the shell
    showed an error for a command that had happened."""
    ip.run_line_magic("char", "new Bren st=12")
    widget = ip.run_line_magic("sheet", "Bren")
    result = ip.run_line_magic("undo", "5")
    assert not repr(result).startswith("error:")
    assert "Bren" in widget.error


def _next_html(size: int) -> str:
    session = Session(seed=3)
    session.combat.npc("Goblin", "ST=9 DX=11")
    session.combat.start(f"Goblin*{size}")
    session.combat.next()
    return session.combat.next()._repr_html_()


def test_next_output_does_not_grow_with_the_roster():
    small, large = len(_next_html(30)), len(_next_html(200))
    assert abs(large - small) < small * 0.1, (small, large)
    assert large < 10_000


def test_next_shows_the_changed_rows_in_any_fight_and_status_always_shows_the_whole_roster():
    session = Session(seed=3)
    session.combat.npc("Goblin", "ST=9 DX=11")
    session.combat.start("Goblin*5")
    assert session.combat.next()._repr_html_().count('class="gk-combatant') == 1  # whose turn it is
    session.combat.end()
    session.combat.start("Goblin*200")
    assert session.combat.status()._repr_html_().count('class="gk-combatant') == 200
    text = str(session.combat.next())
    assert "199 other combatants unchanged" in text
