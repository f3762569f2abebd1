"""The session RNG puts back a refused command's draws, copying its state only when a command draws
(issue 17: a refused command consumes no dice; issue 16: the copy is not paid by every command)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekernel.errors import GameKernelError
from gamekernel.rng import TransactionalRandom
from gamekernel.session import Session


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
    rng.rollback()
    rng.end(mark)
    assert rng.getstate() == expected


def test_nested_commands_keep_the_outer_commands_snapshot():
    rng = TransactionalRandom(7)
    start = rng.getstate()
    outer = rng.begin()
    inner = rng.begin()
    rng.randint(1, 6)  # the first draw happens inside the inner command
    rng.end(inner)
    rng.randint(1, 6)
    rng.rollback()  # the outer command is refused: both draws go back
    rng.end(outer)
    assert rng.getstate() == start


def test_a_command_without_draws_copies_no_state():
    rng = TransactionalRandom(7)
    mark = rng.begin()
    assert rng._saved is None
    rng.end(mark)
    assert rng._saved is None and not rng._armed


def test_a_refused_session_command_consumes_no_dice():
    table, fresh = Session(seed=42), Session(seed=42)
    with pytest.raises(GameKernelError), table.transaction():
        table.rng.randint(1, 6)
        raise GameKernelError("refused after rolling")
    assert table.roll("3d6").total == fresh.roll("3d6").total
    assert table.rng.getstate() == fresh.rng.getstate()
