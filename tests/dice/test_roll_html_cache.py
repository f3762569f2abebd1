"""A plain roll's whole markup is kept by what decides it (gamekernel/dice/render.py `roll_html`, for the
`%roll 3d+2` cell of benchmarks/bench_core.py): a repeated roll is not drawn again, and what comes from
the cache is the markup drawing it gives, in the language in force; other rolls are drawn each time."""

from __future__ import annotations

import random

import pytest

from gamekernel import i18n
from gamekernel.dice import render
from gamekernel.dice.result import roll


@pytest.fixture
def drawn(monkeypatch):
    """The rolls whose dice were drawn (`_faces_html` run), with an empty markup cache."""
    calls: list[tuple] = []
    real = render._faces_html

    def counting(fates, language):
        calls.append(fates)
        return real(fates, language)

    monkeypatch.setattr(render, "_faces_html", counting)
    monkeypatch.setattr(render, "_PLAIN", {})
    return calls


def _same_faces(expression: str, seed: int = 3):
    return roll(expression, random.Random(seed)), roll(expression, random.Random(seed))


@pytest.mark.parametrize("expression", ["3d+2", "1d20+5 sword", "2d6", "3d6-1 a&b's", "12d6"])
def test_a_repeated_plain_roll_is_not_drawn_again_and_reads_the_same(drawn, expression):
    first, second = _same_faces(expression)
    html = render.roll_html(first)
    assert render.roll_html(second) == html == render._roll_html(second)
    assert len(drawn) == 2  # the first roll_html and the direct drawing, not the cached one


def test_the_cached_markup_follows_the_language(drawn):
    first, second = _same_faces("3d+2")
    english = render.roll_html(first)
    try:
        i18n.set_language("ja")
        japanese = render.roll_html(second)
        assert japanese == render._roll_html(second) != english
    finally:
        i18n.set_language("en")
    assert render.roll_html(second) == english


@pytest.mark.parametrize("expression", ["13d6", "1d20+5>=15", "4d6kh3", "2d6!", "2d6+1d4"])
def test_other_rolls_are_drawn_each_time(drawn, expression):
    # boundary: 12 dice are cached (above), 13 are not; a comparison, a kept/exploded die, two groups neither
    first, second = _same_faces(expression)
    assert render.roll_html(first) == render.roll_html(second)
    assert len(drawn) == 2
    assert render._PLAIN == {}


def test_a_full_cache_is_emptied_not_grown(drawn, monkeypatch):
    monkeypatch.setattr(render, "_PLAIN_KEPT", 2)
    rng = random.Random(5)
    for text in ("1d6", "2d6", "3d6", "4d6"):
        render.roll_html(roll(text, rng))
        assert len(render._PLAIN) <= 2
