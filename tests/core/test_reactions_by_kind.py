"""A reaction is called only for the event kinds it registered for (gamekernel/events.py): a roll
calls no reveal reaction, and Gamma World's alpha flux (GW-ALPHA-10) still follows a roll."""

from __future__ import annotations

import pytest

from gamekernel import events
from gamekernel.table_session import Session


@pytest.fixture
def registry(monkeypatch):
    """The reaction registry as it is, put back after the test."""
    monkeypatch.setattr(events, "REACTIONS", list(events.REACTIONS))
    monkeypatch.setattr(events, "_KINDS", dict(events._KINDS))
    monkeypatch.setattr(events, "_FOR_KIND", {})


def test_a_reaction_registered_for_some_kinds_sees_only_those(registry):
    seen: list[str] = []
    everything: list[str] = []
    events.register_reaction(lambda session, event: seen.append(event.kind), kinds=("note",))
    events.register_reaction(lambda session, event: everything.append(event.kind))
    session = Session(seed=1)
    session.roll("1d6")
    session.note("hello")
    assert seen == ["note"]
    assert everything[-2:] == ["roll", "note"]  # after the seed event the session starts with


def test_registering_again_changes_the_kinds(registry):
    seen: list[str] = []

    def reaction(session, event):
        seen.append(event.kind)

    events.register_reaction(reaction, kinds=("note",))
    assert reaction in events.reactions_for("note") and reaction not in events.reactions_for("roll")
    events.register_reaction(reaction, kinds=("roll",))  # the answers of before are dropped
    assert reaction in events.reactions_for("roll") and reaction not in events.reactions_for("note")
    assert events.REACTIONS.count(reaction) == 1


def test_the_shipped_reactions_react_to_their_own_kinds_only():
    from gamekernel.gammaworld.actions import _alpha_flux_reaction, _flux_reveal_reaction

    assert _alpha_flux_reaction in events.reactions_for("roll")  # GW-ALPHA-10: a natural 1 on a d20
    assert _flux_reveal_reaction not in events.reactions_for("roll")
    assert _flux_reveal_reaction in events.reactions_for("table.reveal")  # GW-ALPHA-10: a secret flux revealed
    assert not events.reactions_for("note")


def test_a_reaction_registered_after_a_kind_was_seen_still_runs_for_it(registry):
    session = Session(seed=3)
    session.roll("1d")  # the kind's reactions are worked out here
    seen: list[str] = []
    events.register_reaction(lambda s, e: seen.append(e.kind), kinds=("roll",))
    session.roll("1d")
    assert seen == ["roll"]
