"""The dice drawn from the session's TransactionalRandom with the Twister's C method (gamekernel/dice/
nodes.py `faces`, a Python call less a die on the `%roll 3d+2` cell) are the faces, the stream and the
word count of drawing through its counting `getrandbits`: a refused command still puts back exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekernel.dice import nodes
from gamekernel.rng import TransactionalRandom


class _Counting(TransactionalRandom):
    """Not the exact type: `faces` draws through its `getrandbits`, counted per call (the reference)."""


SIDES = st.sampled_from([1, 2, 3, 6, 8, 10, 12, 20, 100, 1000, 2**32, 2**32 + 1, 2**40 + 3, 2**64])


@given(st.integers(0, 2**32), st.integers(1, 40), SIDES)
def test_counted_faces_are_the_faces_and_words_of_the_counting_draw(seed, n, sides):
    fast, reference = TransactionalRandom(seed), _Counting(seed)
    assert nodes.faces(fast, n, sides) == nodes.faces(reference, n, sides)
    assert fast._words == reference._words
    assert fast.getstate() == reference.getstate()


@given(st.integers(0, 2**32), st.integers(1, 12), SIDES)
def test_a_rollback_after_counted_faces_restores_the_stream(seed, n, sides):
    rng = TransactionalRandom(seed)
    nodes.faces(rng, 3, 6)
    before = random.Random.getstate(rng)
    mark = rng.begin()
    nodes.faces(rng, n, sides)
    rng.rollback(mark)
    rng.end(mark)
    assert random.Random.getstate(rng) == before


def test_an_interrupt_between_two_draws_still_counts_the_draws_made(monkeypatch):
    rng = TransactionalRandom(4)
    real, calls = nodes._raw_bits, []

    def interrupted(generator, k):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(k)
        return real(generator, k)

    mark = rng.begin()
    before = random.Random.getstate(rng)
    monkeypatch.setattr(nodes, "_raw_bits", interrupted)
    with pytest.raises(KeyboardInterrupt):
        nodes.faces(rng, 5, 8)  # 8 sides: no rejection, two words drawn before the interrupt
    assert rng._words - mark[1] == 2
    rng.rollback(mark)
    rng.end(mark)
    assert random.Random.getstate(rng) == before
