"""A decklist pasted into a cell (`%%library load Mira`), a web address answered in one line (never
fetched), refusals that quote at most one bounded line of the input, and the card-data hint only when
card data is missing (MTG-CHK-05: the library is the main deck)."""

from __future__ import annotations

import json

import pytest

from gamekernel import Session
from gamekernel.errors import NotFoundError, UsageError
from gamekernel.limits import QUOTE_WIDTH, quoted_line

from .test_decklist_clients import COCKATRICE


def test_cell_body_is_the_decklist_in_any_format(ip):
    shown = str(ip.run_cell_magic("library", "load Mira", "Deck\n4 Elvish Mystic (M15) 173\n12 Forest (M15) 269\n"))
    assert "library of 16 cards from cell (MTG Arena, detected)" in shown
    shown = str(ip.run_cell_magic("library", "load Rin", COCKATRICE))
    assert "library of 22 cards from cell (Cockatrice .cod, detected)" in shown
    shown = str(ip.run_cell_magic("library", "load Ash --format forge", "4 Elvish Mystic|M15\n12 Forest|M15\n"))
    assert "(Forge .dck, as asked with --format)" in shown


def test_cell_magic_names_whose_library_with_at_name(ip):
    shown = str(ip.run_cell_magic("library", "load @Mira", "4 Elvish Mystic\n12 Forest\n"))
    assert shown.startswith("Mira: library of 16 cards")


@pytest.mark.parametrize("line", ["load", "load Mira mira.txt", "peek 2"])
def test_cell_magic_refuses_other_forms_in_one_line(ip, line):
    shown = str(ip.run_cell_magic("library", line, "4 Forest\n"))
    assert shown.startswith("error: ") and "\n" not in shown and "%%library load" in shown


@pytest.mark.parametrize("url", ["https://www.moxfield.com/decks/abc", "http://tappedout.net/x",
                                 "www.mtggoldfish.com/d"])
def test_url_answers_export_as_text_in_one_line(ip, url):
    shown = str(ip.run_line_magic("library", f"load Mira {url}"))
    assert shown.startswith(f"error: {url}: a decklist is read from text, never fetched")
    assert "\n" not in shown and "https:/www" not in shown
    with pytest.raises(UsageError):
        Session(seed=1).mtg.library_load("Mira", url)


def test_quoted_line_is_one_bounded_line():
    assert quoted_line("short") == "short"
    assert quoted_line("a\nb") == "a…"
    long = "x" * 1000
    assert len(quoted_line(long)) == QUOTE_WIDTH and quoted_line(long).endswith("…")
    assert quoted_line("x" * QUOTE_WIDTH) == "x" * QUOTE_WIDTH  # the boundary: exactly the width is kept


@pytest.mark.parametrize(("line", "body"), [
    ("load Mira", "4 " + "A" * 200_000 + "\n"),  # an unknown card name of 200 000 characters
    ("load Mira", "A" * 200_000 + "\n4 Forest\n"),  # a line that is no card line
    ("load Mira --format " + "C" * 5000, "4 Forest\n"),  # an unknown format
    ("load " + "D" * 5000 + ":x", "4 Forest\n"),  # a name the table refuses
])
def test_every_refusal_quotes_at_most_one_bounded_line(ip, line, body):
    shown = str(ip.run_cell_magic("library", line, body))
    assert shown.startswith("error: ")
    assert len(shown) < 800
    assert max(len(part) for part in shown.splitlines()) < 400


def test_stack_refusal_is_bounded(ip):
    ip.run_cell_magic("library", "load Mira", "4 Forest\n")
    shown = str(ip.run_line_magic("library", "stack " + "E" * 5000))
    assert shown.startswith("error: ") and len(shown) < 800


def test_card_data_hint_only_while_card_data_is_missing(tmp_path):
    session = Session(seed=1)
    with pytest.raises(NotFoundError, match="need full card data"):
        session.mtg.library_load("Mira", "x.txt", text="4 Gamekernel Test Elf\n12 Forest\n")
    data = {"meta": {"date": "2024-01-01", "version": "5.2.2"}, "data": {
        "Gamekernel Test Elf": [{"name": "Gamekernel Test Elf", "manaValue": 1.0, "colors": ["G"],
                                 "types": ["Creature"], "subtypes": ["Elf"], "supertypes": [], "layout": "normal"}]}}
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    session.mtg.card_data(path, cache=str(tmp_path / "cache"))
    assert session.mtg.library_load("Mira", "x.txt", text="4 Gamekernel Test Elf\n12 Forest\n").main == 16
    with pytest.raises(NotFoundError) as refused:
        session.mtg.library_load("Mira", "x.txt", text="4 Gamekernel Test Elph\n12 Forest\n")
    assert "need full card data" not in str(refused.value)
    assert "not in the card data loaded" in str(refused.value)
