"""Free text takes apostrophes: an apostrophe after a letter is part of the word (Aiko's, the
players'), never a quote left open; quoted words ("Big Bob", 'x y') still group."""

from __future__ import annotations

import pytest

from gamekernel.errors import UsageError
from gamekernel.syntax import tokenize


def test_a_note_with_an_apostrophe_is_recorded_as_typed(ip):
    ip.run_line_magic("note", "Aiko's turn")
    assert "Aiko's turn" in repr(ip.run_line_magic("log", ""))


def test_a_roll_label_with_an_apostrophe(ip):
    shown = repr(ip.run_line_magic("roll", "3d6 the dragon's breath"))
    assert "unclosed quote" not in shown and "dragon's breath" in shown


@pytest.mark.parametrize(("line", "words"), [
    ("Aiko's turn", ["Aiko's", "turn"]),
    ("the players' table", ["the", "players'", "table"]),
    ("rock'n'roll", ["rock'n'roll"]),
    ("'Big Bob' hits", ["Big Bob", "hits"]),
    ('"Old Guard" and Aiko\'s', ["Old Guard", "and", "Aiko's"]),
])
def test_words_with_apostrophes_and_quotes(line, words):
    assert [token.value for token in tokenize(line)] == words


def test_a_quote_that_opens_and_never_closes_is_still_refused():
    with pytest.raises(UsageError, match="unclosed quote at column 7"):
        tokenize("hello 'world")
