"""Names never fork: a name typed with a typo or another case never creates a character, in any rule set.

Every lookup goes through gamekernel.text.resolve_name: one normalisation (case, width), then an
exact match or an unambiguous start of one name (`Ri` for Rin), else an error with close matches.
Creating someone is always an explicit command."""

from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from gamekernel.errors import GameKernelError, NotFoundError
from gamekernel.table_session import Session
from gamekernel.text import match_key

NAMES = ("Rin", "Bren", "Mira")
DECK = "4 Elvish Mystic\n4 Runeclaw Bear\n12 Forest\n"


@lru_cache(maxsize=1)
def table() -> Session:
    session = Session(seed=8)
    session.gw.character("Rin", new=True, level=4)
    session.gw.deck_new("Rin")
    session.gw.deck_add("Rin", "Sap Bloom", 2)  # GW-ALPHA-11: decks are built before anyone draws
    session.gw.draw("Rin")
    session.gurps.char_new("Bren", st=12, skills=[("Broadsword", 12)])
    session.mtg.library_load("Mira", "mira.txt", text=DECK)
    return session


def population(session: Session) -> tuple:
    return (tuple(session.gw.state.characters), tuple(session.gurps.state.characters), tuple(session.mtg.state.decks),
            tuple(session.state["gurps_combat"].roster))


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@st.composite
def variants(draw) -> str:
    """A name as people mistype it: another case, full width, a letter dropped, doubled, swapped or replaced."""
    name = list(draw(st.sampled_from(NAMES)))
    for _ in range(draw(st.integers(0, 2))):
        i = draw(st.integers(0, len(name) - 1))
        edit = draw(st.sampled_from(("case", "drop", "double", "swap", "replace", "width")))
        if edit == "case":
            name[i] = name[i].swapcase()
        elif edit == "drop" and len(name) > 1:
            del name[i]
        elif edit == "double":
            name.insert(i, name[i])
        elif edit == "swap" and i + 1 < len(name):
            name[i], name[i + 1] = name[i + 1], name[i]
        elif edit == "replace":
            name[i] = draw(st.sampled_from("aeiouxyzRBM"))
        elif edit == "width":
            name[i] = _full_width(name[i])
    return "".join(name)


COMMANDS = {  # command: (the one name it knows, the call)
    "gw level": ("Rin", lambda s, n: s.gw.character(n, level=4)),
    "gw draw": ("Rin", lambda s, n: s.gw.draw(n)),
    "gw hand": ("Rin", lambda s, n: s.gw.hand(n)),
    "gw deck": ("Rin", lambda s, n: s.gw.deck_odds(n, "Sap Bloom", 1)),
    "gw rest": ("Rin", lambda s, n: s.gw.rest([n], draw=False) and s.undo()),
    "gurps char": ("Bren", lambda s, n: s.gurps.character(n)),
    "gurps check": ("Bren", lambda s, n: s.gurps.check_odds("Broadsword", n)),
    "mtg check": ("Mira", lambda s, n: s.mtg.odds("green", 2, actor=n)),
    "mtg view": ("Mira", lambda s, n: s.mtg.library_view(n)),
    "combat start": ("Bren", lambda s, n: s.combat.start(n) and s.undo()),
}


@settings(max_examples=200, deadline=None)
@given(variants(), st.sampled_from(sorted(COMMANDS)))
def test_typos_and_case_variants_never_create_a_character(name: str, command: str) -> None:
    session = table()
    before = population(session)
    known, call = COMMANDS[command]
    same = match_key(known).startswith(match_key(name))  # the name itself, or its start (the only one here)
    try:
        call(session, name)
    except NotFoundError as error:
        assert not same, (command, name, str(error))  # a case/width variant is the same character
    except GameKernelError:
        assert same, (command, name)  # another refusal (e.g. readied cards full) only for the known name
    else:
        assert same, (command, name)  # an unknown name is never accepted
    assert population(session) == before, (command, name)
