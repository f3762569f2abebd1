"""`Event.new` (the constructor `Session.record` uses, for speed) makes exactly the event the
dataclass constructor makes: equal, same repr and dict form, still frozen."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekernel.events import Event


@given(st.integers(1, 10**9), st.sampled_from(["roll", "note", "gw.tap"]),
       st.dictionaries(st.text(max_size=3), st.integers(), max_size=3), st.one_of(st.none(), st.text(max_size=5)),
       st.booleans(), st.text(max_size=5))
def test_new_is_the_dataclass_event(seq, kind, data, actor, secret, time):
    made, built = Event.new(seq, kind, data, actor, secret, time), Event(seq, kind, data, actor, secret, time)
    assert made == built and repr(made) == repr(built) and made.to_dict() == built.to_dict()
    assert dataclasses.asdict(made) == dataclasses.asdict(built)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.seq = seq + 1  # type: ignore[misc]
