"""`text.visible`: the one guard against text that reads differently from what it holds (bidi
overrides and isolates, zero-width characters), applied where labels, notes and names enter."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from gamekernel import Session
from gamekernel.text import match_key, visible


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text())
def test_visible_takes_out_every_format_character_and_nothing_else(text):
    out = visible(text)
    assert not any(unicodedata.category(c) in ("Cf", "Zl", "Zp") for c in out)
    assert [c for c in out if c != " "] == [c for c in text if unicodedata.category(c) not in ("Cf", "Zl", "Zp")
                                            and c != " "]
    assert visible(out) == out  # idempotent


def test_names_that_differ_only_by_invisible_characters_are_one_name():
    assert match_key("Ai\u200bko") == match_key("AIKO") == match_key("\u202eAiko\u202c")
    s = Session(seed=1)
    s.gurps.char_new("Ai\u200bk\u2066o\u2069")
    assert list(s.gurps.state.characters) == ["Aiko"]
    s.combat.npc("\u202eGob\u200dlin", "ST=9")
    assert "Goblin" in s.state["gurps_combat"].templates


def test_a_gm_note_and_a_label_are_recorded_as_read():
    s = Session(seed=1)
    s.note("the \u202edoor\u202c creaks")
    s.roll("1d6 \u2067left\u2069 door\u200b")
    s.mtg.library_load("Mi\u200bra", "m.txt", text="4 Forest\n")
    # the library is shuffled from the secret dice (GW-ALPHA-10): their key is logged just before it
    assert [e.kind for e in s.log][-3:] == ["roll", "secret.entropy", "mtg.library"]
    assert s.log[-4].data["text"] == "the door creaks"
    assert s.log[-3].data["result"]["label"] == "left door"
    assert "Mira" in s.state["mtg"].decks
