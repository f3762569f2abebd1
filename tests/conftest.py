"""Shared fixtures: a real in-process IPython shell with gamekernel loaded fresh for each test."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, settings

# the shell fixture (`ip`) and the English, fixed-entropy environment every test runs in: the same
# fixtures a rule set's own tests load (gamekernel/testing.py)
from gamekernel.testing import _english_and_no_env_seed, ip  # noqa: F401

# Hypothesis's default 200 ms deadline per example is a timed assert: on a loaded CI machine it fails
# correct code (a property test here once did). Properties check results, never time; speed is `make bench`.
settings.register_profile("gamekernel", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gamekernel")

_STRAYS: list[str] = []  # events whose reducer changed a state part its kind does not declare


def _keeping_to_its_parts(kind):
    """`kind`'s reducer, checking that it leaves every part outside `kind.changes` as it was: the
    players' table pictures only the declared parts after an event (remote/projection.py)."""
    from gamekernel.state import part_picture

    reducer, declared = kind.apply, set(kind.changes)

    def apply(state, data):
        others = {name: part_picture(part) for name, part in state.parts.items() if name not in declared}
        reducer(state, data)
        strays = sorted(name for name in others if part_picture(state.parts[name]) != others[name])
        if strays:
            _STRAYS.append(f"{kind.name} changed {', '.join(strays)} (declares {sorted(declared)})")

    return apply


@pytest.fixture(scope="session", autouse=True)
def _reducers_keep_to_their_parts():
    """Every event of the whole suite checks its kind's declared parts (EventKind.changes)."""
    import gamekernel.session  # noqa: F401  (registers every built-in event kind)
    from gamekernel.events import EVENT_KINDS

    original = dict(EVENT_KINDS)
    for name, kind in original.items():
        if kind.apply is not None and kind.changes is not None:
            EVENT_KINDS[name] = dataclasses.replace(kind, apply=_keeping_to_its_parts(kind))
    yield
    EVENT_KINDS.update(original)


@pytest.fixture(autouse=True)
def _no_stray_changes():
    yield
    strays, _STRAYS[:] = list(_STRAYS), []
    assert not strays, "reducers changed parts their kinds do not declare: " + "; ".join(strays[:5])


@pytest.fixture
def secret_entropy_from_the_system(monkeypatch):
    """The secret stream keyed from the system's entropy, as at a real table."""
    monkeypatch.delenv("GAMEKERNEL_SECRET_ENTROPY", raising=False)
