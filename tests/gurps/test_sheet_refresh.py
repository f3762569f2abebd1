"""An open character sheet recomputes only when what it shows can have changed: its
character, that character's last check, or the language - not on every event of the session (a
long session with sheets open stayed 7x slower per roll)."""

from __future__ import annotations

import contextlib
import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from gamekernel import Session
from gamekernel.errors import GameKernelError
from gamekernel.gurps.rules.characters import Character
from gamekernel.gurps.widgets.sheet import SheetWidget
from gamekernel.i18n import set_language
from gamekernel.widgets.base import SessionWidget

TRAITS = ("character", "attributes", "derived", "traits_rows", "skills", "weapons", "total", "over_budget",
          "issues", "last", "pools", "conditions", "labels")


def _session() -> Session:
    s = Session(seed=3)
    s.gurps.char_new("Aiko", st=11, dx=13, iq=12, ht=11, skills=[("Lockpicking", 1, 9), ("Stealth", 4)])
    s.gurps.char_new("Bren", st=13, activate=False)
    return s


def _picture(widget: SheetWidget) -> dict:
    return {name: getattr(widget, name) for name in TRAITS}


def test_an_event_that_leaves_the_character_alone_recomputes_nothing(monkeypatch) -> None:
    s = _session()
    sheet = SheetWidget(s, name="Aiko")
    counted: list[str] = []
    original = Character.points
    monkeypatch.setattr(Character, "points", lambda self: (counted.append(self.name), original(self))[1])
    s.roll("3d6")
    s.gurps.check("Stealth", actor="Bren")
    s.note("the party waits")
    assert counted == []
    s.gurps.char_set("Aiko", dx=14)  # GURPS-ATT: her DX moves her Basic Speed and Dodge
    assert counted and sheet.attributes[1]["value"] == 14
    counted.clear()
    s.gurps.check("Stealth", actor="Aiko")  # her own check: the sheet's last roll
    assert counted and "Stealth" in sheet.last


OPS = ("roll", "check_aiko", "check_bren", "set_dx", "hurt", "undo", "redo", "language", "note")


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 20)), max_size=25))
def test_the_sheet_equals_a_new_one_after_every_event(steps) -> None:
    """After any mix of events, the open sheet shows what a full recompute shows (a second sheet of
    Aiko would replace this one, so the full recompute is asked of the same sheet)."""
    s = _session()
    sheet = SheetWidget(s, name="Aiko")
    try:
        for op, n in steps:
            with contextlib.suppress(GameKernelError):
                if op == "roll":
                    s.roll(f"{1 + n % 3}d6")
                elif op == "check_aiko":
                    s.gurps.check("Lockpicking" if n % 2 else "DX", actor="Aiko", secret=n % 5 == 0)
                elif op == "check_bren":
                    s.gurps.check("ST", actor="Bren")
                elif op == "set_dx":
                    s.gurps.char_set("Aiko", dx=9 + n % 8)
                elif op == "hurt":
                    s.gurps.char_set("Aiko", hp_lost=n % 14)
                elif op == "undo":
                    s.undo()
                elif op == "redo":
                    s.redo()
                elif op == "note":
                    s.note(f"note {n}")
                elif op == "language":
                    set_language("ja" if n % 2 else "en")
                    sheet._refresh_synced()  # what %config GameKernel.language does for every open widget
            if "Aiko" not in s.gurps.state.characters:  # her creation undone: the sheet keeps its last picture
                continue
            shown = copy.deepcopy(_picture(sheet))
            SessionWidget._refresh_synced(sheet)  # the full recompute, whatever the sheet's inputs
            assert shown == _picture(sheet)
    finally:
        set_language("en")
        sheet.close()
