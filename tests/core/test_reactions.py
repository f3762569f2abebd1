"""Reactions run after live events in the order they were registered; one registered for some
kinds runs only after events of those kinds (the others never call it)."""

from __future__ import annotations

import pytest

from gamekernel import Session, events


@pytest.fixture
def fresh_reactions(monkeypatch):
    """The registry as it is, restored afterwards (the Gamma World reactions stay registered)."""
    monkeypatch.setattr(events, "REACTIONS", list(events.REACTIONS))
    monkeypatch.setattr(events, "_REACTION_KINDS", dict(events._REACTION_KINDS))
    monkeypatch.setattr(events, "_reactions_by_kind", {})


def test_a_reaction_for_some_kinds_runs_only_after_those(fresh_reactions):
    session = Session(seed=3)
    seen: list[tuple[str, str]] = []
    events.register_reaction(lambda s, e: seen.append(("every", e.kind)))
    events.register_reaction(lambda s, e: seen.append(("rolls", e.kind)), kinds=("roll",))
    session.roll("1d")
    session.gw_setup()
    session.roll("2d")
    assert seen == [("every", "roll"), ("rolls", "roll"), ("every", "gw.setup"), ("every", "roll"), ("rolls", "roll")]


def test_a_reaction_registered_after_a_kind_was_seen_still_runs_for_it(fresh_reactions):
    session = Session(seed=3)
    session.roll("1d")  # the kind's reactions are worked out here
    seen: list[str] = []
    events.register_reaction(lambda s, e: seen.append(e.kind), kinds=("roll",))
    session.roll("1d")
    assert seen == ["roll"]


def test_the_gamma_world_reactions_are_registered_for_their_kinds_only():
    """GW-ALPHA-10: the flux of a natural 1 reacts to rolls, the reveal of a secret one to reveals."""
    from gamekernel.gammaworld import actions

    assert actions._alpha_flux_reaction in events.reactions_for("roll")
    assert actions._flux_reveal_reaction in events.reactions_for("table.reveal")
    assert not {actions._alpha_flux_reaction, actions._flux_reveal_reaction} & set(events.reactions_for("gw.tap"))
