"""A widget that draws only from some state parts (`SessionWidget.watches`) passes over the events
whose kinds change none of them, and is never stale for it: after every step of a mixed session
(rolls, secret rolls, notes, checks, damage, fights, Gamma World cards, MtG checks, reveals, undo
and redo) each open widget shows what it shows when drawn afresh from the session."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.events import EVENT_KINDS
from gamekernel.gammaworld.widgets.hand import HandWidget
from gamekernel.gurps.widgets.sheet import SheetWidget
from gamekernel.mtg.widgets.library import LibraryWidget

DECK = "4 Forest\n4 Llanowar Elves\n4 Serra Angel\n4 Plains\n4 Lightning Bolt\n"


def table() -> Session:
    s = Session(seed=8)
    s.gurps.char_new("Aiko", st=11, dx=13, skills=[("Stealth", 4)])
    s.mtg.library_load("Mira", "mira.txt", text=DECK)
    s.gw.character("Rin", level=4, new=True)
    s.gw.draw("Rin")
    s.gw.encounter_start()
    s.seats.seat("alice", "Rin")
    return s


def steps(s: Session):
    yield lambda: s.roll("3d6")
    yield lambda: s.roll("1d20", actor="Rin", secret=True)
    yield lambda: s.note("the door creaks")
    yield lambda: s.gurps.check("Stealth", actor="Aiko")
    yield lambda: s.gurps.damage("1d cr", target="Aiko")
    yield lambda: s.gurps.check("Per", actor="Aiko", secret=True)
    yield lambda: s.gw.tap("Rin", s.gw.state.readied("Rin")[0])
    yield lambda: s.mtg.check("green", 1, actor="Mira")
    yield lambda: s.undo()
    yield lambda: s.redo()
    for _ in range(30):  # until a natural 1: the roll's flux reaction changes the hand
        yield lambda: s.roll("1d20", actor="Rin")
    yield lambda: s.gurps.contest("14", "12")
    yield lambda: s.gurps.react(actor="Aiko")
    yield lambda: s.seats.reveal(next(e.seq for e in s.log if e.secret and e.kind == "roll"))
    yield lambda: s.undo(3)


WIDGETS = [(SheetWidget, "Aiko"), (HandWidget, "Rin"), (LibraryWidget, "Mira")]


def picture(widget) -> dict:
    state = widget.get_state()
    return {key: value for key, value in state.items() if not key.startswith("_") and key not in ("key", "layout")}


@pytest.mark.parametrize(("kind", "name"), WIDGETS)
def test_a_watching_widget_is_never_stale(kind, name):
    s = table()
    widget = kind(s, name)
    assert widget.watches is not None
    passed_over = 0
    for step in steps(s):
        before = len(s.log)
        try:
            step()
        except Exception as error:  # a refused step (nothing to redo) records nothing
            assert len(s.log) == before, error
        for event in s.log[before:]:
            changes = EVENT_KINDS[event.kind].changes
            passed_over += changes is not None and widget.watches.isdisjoint(changes)
        shown = picture(widget)
        with widget.hold_sync():
            widget.refresh()  # drawn afresh from the session (a second widget would replace this one)
        assert shown == picture(widget), [e.kind for e in s.log[before:]]
        assert not widget.dormant
    assert passed_over > 10  # the rolls and notes, at least, were passed over
    widget.close()
