"""The session RNG puts back a refused command's draws, copying its state only when a command draws
(a refused command consumes no dice; for speed, the copy is not paid by every command)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekernel import rng as rng_module
from gamekernel.errors import GameKernelError
from gamekernel.rng import TransactionalRandom
from gamekernel.table_session import Session


@given(st.integers(0, 2**32), st.lists(st.sampled_from(["randint", "random", "shuffle", "choice"]), max_size=30))
def test_the_stream_is_random_randoms(seed, calls):
    """Seeded notebooks replay byte for byte: the same seed gives the same draws as random.Random."""
    plain, ours = random.Random(seed), TransactionalRandom(seed)
    ours.begin()
    for call in calls:
        args = {"randint": (1, 6), "random": (), "shuffle": (list(range(10)),), "choice": ("abcdef",)}[call]
        a = getattr(plain, call)(*[list(x) if isinstance(x, list) else x for x in args])
        b = getattr(ours, call)(*[list(x) if isinstance(x, list) else x for x in args])
        assert a == b
    assert plain.getstate() == ours.getstate()


def test_rollback_puts_back_only_the_commands_draws():
    rng = TransactionalRandom(7)
    rng.randint(1, 6)  # before the command: kept
    expected = rng.getstate()
    mark = rng.begin()
    rng.randint(1, 6)
    rng.random()
    rng.getrandbits(100)  # four words
    rng.rollback(mark)
    rng.end(mark)
    assert rng.getstate() == expected


def test_nested_commands_put_back_to_the_outer_commands_start():
    rng = TransactionalRandom(7)
    start = rng.getstate()
    outer = rng.begin()
    inner = rng.begin()
    rng.randint(1, 6)  # the first draw happens inside the inner command
    rng.end(inner)
    rng.randint(1, 6)
    rng.rollback(outer)  # the outer command is refused: both draws go back
    rng.end(outer)
    assert rng.getstate() == start


def test_commands_copy_no_state(monkeypatch):
    """The 625-word state is copied once per seed, then once per million words, not per command."""
    rng = TransactionalRandom(7)
    copies = []
    real = random.Random.getstate
    monkeypatch.setattr(random.Random, "getstate", lambda self: copies.append(1) or real(self))
    for _ in range(1000):
        mark = rng.begin()
        rng.randint(1, 6)
        rng.end(mark)
    assert copies == []


def test_a_refused_command_after_the_checkpoint_is_renewed():
    """Past a million words the checkpoint moves forward (between commands); a refusal after that
    skips forward from the new checkpoint, and one right before it from the old one."""
    rng = TransactionalRandom(3)
    for words in (rng_module._REFRESH_WORDS - 1, rng_module._REFRESH_WORDS, rng_module._REFRESH_WORDS + 1, 5):
        rng.getrandbits(32 * words)
        expected = rng.getstate()
        mark = rng.begin()
        rng.getrandbits(32 * 3 + 1)
        rng.random()
        rng.rollback(mark)
        rng.end(mark)
        assert rng.getstate() == expected


def test_a_reseed_inside_a_refused_command_is_put_back():
    rng = TransactionalRandom(11)
    rng.random()
    expected = rng.getstate()
    mark = rng.begin()
    rng.random()
    rng.seed(99)
    rng.randint(1, 6)
    rng.rollback(mark)
    rng.end(mark)
    assert rng.getstate() == expected
    reference = random.Random(11)  # the stream goes on from before the seed
    reference.random()
    rng2 = TransactionalRandom(11)
    rng2.random()
    mark = rng2.begin()
    rng2.seed(99)
    rng2.rollback(mark)
    rng2.end(mark)
    assert rng2.random() == reference.random()


def test_the_cached_gaussian_is_put_back():
    rng = TransactionalRandom(5)
    rng.gauss(0, 1)  # leaves the second value cached
    expected = rng.getstate()
    mark = rng.begin()
    rng.gauss(0, 1)
    rng.gauss(0, 1)
    rng.rollback(mark)
    rng.end(mark)
    assert rng.getstate() == expected


_DRAW = st.one_of(
    st.tuples(st.just("getrandbits"), st.integers(0, 200)),
    st.tuples(st.sampled_from(["random", "gauss", "shuffle"]), st.just(0)),
    st.tuples(st.just("randint"), st.integers(1, 10**12)),
)
_STEP = st.one_of(
    st.tuples(st.just("draw"), _DRAW),
    st.tuples(st.sampled_from(["begin", "refuse", "keep", "seed"]), st.integers(0, 5)),
)


def _draw(rng, how, n):
    if how == "getrandbits":
        return rng.getrandbits(n)
    if how == "randint":
        return rng.randint(1, n)
    if how == "shuffle":
        items = list(range(12))
        rng.shuffle(items)
        return items
    return getattr(rng, how)() if how == "random" else rng.gauss(0, 1)


@given(st.integers(0, 2**32), st.lists(_STEP, max_size=60))
def test_any_mix_of_commands_matches_full_state_snapshots(seed, steps):
    """The oracle: random.Random with a full getstate() at every begin and setstate() on refusal."""
    ours, plain = TransactionalRandom(seed), random.Random(seed)
    open_marks: list = []
    for step, arg in steps:
        if step == "draw":
            assert _draw(ours, *arg) == _draw(plain, *arg)
        elif step == "seed":
            ours.seed(arg)
            plain.seed(arg)
        elif step == "begin":
            open_marks.append((ours.begin(), plain.getstate()))
        elif open_marks:
            mark, snapshot = open_marks.pop()
            if step == "refuse":
                ours.rollback(mark)
                plain.setstate(snapshot)
            ours.end(mark)
        assert ours.getstate() == plain.getstate()


def test_a_refused_session_command_consumes_no_dice():
    table, fresh = Session(seed=42), Session(seed=42)
    with pytest.raises(GameKernelError), table.command():
        table.rng.randint(1, 6)
        raise GameKernelError("refused after rolling")
    assert table.roll("3d6").total == fresh.roll("3d6").total
    assert table.rng.getstate() == fresh.rng.getstate()
