"""A step on a readied card (tap, untap, overcharge, flux: GW-ALPHA-08, -10, -12) is recorded
without `record` looking into its data again, because every string in it comes from the state or the
code. These tests hold that reason true: whatever text a user types for the character or the card,
the step is refused or every event it records can be stored; and text that cannot be stored never
reaches the state (a character's name is refused at the door)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekernel import Session
from gamekernel.errors import GameKernelError, UsageError
from gamekernel.events import check_storable, encode_event

LONE = "\ud800"  # a lone surrogate: UTF-8 cannot encode it, so no log line can hold it


def table() -> Session:
    s = Session(seed=2)
    s.gw.character("Rin", level=4, new=True)
    s.gw.character("Ösa", level=8, new=True)  # not ASCII, and storable
    s.gw.draw()
    s.gw.encounter_start()
    return s


TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["Rin", "rin", "Ösa", "ös", "Sap Bloom", f"Rin{LONE}", f"{LONE}", "c#1", "c#3", "GK-A01"]),
)
CARDS = st.one_of(TEXT, st.sampled_from(["@0", "@1", "@2", "#0", "#1"]))  # a readied card's uid, its name
STEPS = st.sampled_from(["tap", "untap", "overcharge", "flux"])


def typed(s: Session, name: str, card: str) -> str:
    """`card` as a user would type a readied card of `name`: "@i" its uid, "#i" its name in lower case."""
    readied = s.gw.state.readied(name) if name in s.gw.state.characters else []
    if card[:1] in "@#" and card[1:].isdigit() and int(card[1:]) < len(readied):
        uid = readied[int(card[1:])]
        return uid if card[0] == "@" else s.gw.state.catalog.card(s.gw.state.table.card(uid).def_id).name.lower()
    return card


def step(s: Session, kind: str, name: str, card: str) -> None:
    card = typed(s, name, card)
    if kind == "tap":
        s.gw.tap(name, card)
    elif kind == "untap":
        s.gw.untap(name, card)
    elif kind == "overcharge":
        s.gw.overcharge(name, card)
    else:
        s.gw.flux(name, card, force=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(STEPS, TEXT, CARDS), min_size=1, max_size=8))
def test_every_card_step_records_only_storable_text(steps):
    s = table()
    for kind, name, card in steps:
        recorded = len(s.log)
        try:
            step(s, kind, name, card)
        except GameKernelError:
            assert len(s.log) == recorded  # a refusal records nothing
        for event in s.log[recorded:]:
            check_storable(event)
            encode_event(event)


def test_readied_cards_by_uid_and_name_record_storable_events():
    s = table()
    for who in ("Rin", "Ösa"):
        card = lambda uid: s.gw.state.catalog.card(s.gw.state.table.card(uid).def_id)  # noqa: E731
        uid = next(u for u in s.gw.state.readied(who) if card(u).overcharge is not None)  # one that can be overcharged
        name = card(uid).name
        s.gw.tap(who, name)
        s.gw.untap(who, uid)
        s.gw.overcharge(who, name.upper())
        s.gw.flux(who, uid, force=True)
    assert [e.kind for e in s.log[-8:]] == ["gw.tap", "gw.untap", "gw.overcharge", "gw.flux"] * 2
    for event in s.log:
        check_storable(event)
        encode_event(event)


def test_a_name_that_cannot_be_stored_never_reaches_the_state():
    s = table()
    with pytest.raises(UsageError):
        s.gw.character(f"Kit{LONE}", level=2, new=True)
    assert f"Kit{LONE}" not in s.gw.state.characters
