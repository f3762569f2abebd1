"""A roll's text that UTF-8 cannot hold (a lone surrogate in its label, or in its actor) is refused in
one line with nothing changed, though the session writes no log file; text UTF-8 holds is kept."""

from __future__ import annotations

import pytest

from gamekernel import Session, events
from gamekernel.errors import UsageError


def _picture(session):
    return session.rng.getstate(), [e.to_json() for e in session.log]


@pytest.mark.parametrize(("expression", "options"), [
    ("1d6 bad\ud800", {}),
    ("1d6 \udfff", {"secret": True}),
    ("3d+2 ok", {"actor": "R\udc00"}),  # the data is ASCII: the actor is checked still
    ("1d20+5>=15 \ud83d", {}),
])
def test_a_roll_with_text_that_cannot_be_stored_is_refused(expression, options):
    session = Session(seed=4)
    with session.command():
        session.roll("1d6")
    before = _picture(session)
    with pytest.raises(UsageError, match=r"U\+D[89A-F]"), session.command():
        session.roll(expression, **options)
    assert _picture(session) == before


def test_a_roll_with_a_non_ascii_label_is_looked_into_and_kept(monkeypatch):
    session = Session(seed=4)
    looked: list[object] = []
    real = events._SURROGATE_BYTES
    monkeypatch.setattr(events, "_SURROGATE_BYTES", lambda data: looked.append(data) or real(data))
    session.roll("3d6 斬撃")
    assert looked and session.log[-1].data["result"]["label"] == "斬撃"
