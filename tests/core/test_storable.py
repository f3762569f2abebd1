"""Text that UTF-8 cannot hold (a lone surrogate) is refused wherever it sits in an event, before
anything changes (`events.check_storable`, the path of a session that writes no log file)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekernel import events
from gamekernel.errors import UsageError
from gamekernel.events import Event, check_storable

_TEXT = st.text(alphabet=st.sampled_from(["a", "é", "語", "\ud800", "\udfff", " "]), max_size=4)
_LEAF = st.one_of(_TEXT, st.integers(), st.none(), st.booleans(), st.floats(allow_nan=False))
_DATA = st.recursive(_LEAF, lambda inner: st.one_of(st.lists(inner, max_size=3), st.tuples(inner, inner),
                                                      st.dictionaries(_TEXT, inner, max_size=3)), max_leaves=12)


def _has_surrogate(value) -> bool:
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_has_surrogate(v) for v in value)
    return False


@given(st.dictionaries(_TEXT, _DATA, max_size=4), st.one_of(st.none(), _TEXT))
def test_a_lone_surrogate_anywhere_is_refused_and_nothing_else_is(data, actor):
    event = Event(1, "note", data, actor, False, "2026-11-30T00:00:00.000+00:00")
    if _has_surrogate(data) or _has_surrogate(actor):
        with pytest.raises(UsageError, match=r"U\+D[89A-F][0-9A-F]{2}"):
            check_storable(event)
    else:
        check_storable(event)


def _event(data) -> Event:
    return Event(1, "note", data, None, False, "2026-11-30T00:00:00.000+00:00")


def _walks(monkeypatch, data) -> bool:
    """Whether `check_storable` walks `data` string by string (its quick look found it suspect)."""
    walked = []
    monkeypatch.setattr(events, "_check_text", walked.append)
    check_storable(_event(data))
    monkeypatch.undo()
    return bool(walked)


def test_a_number_whose_bytes_look_like_a_surrogates_is_not_refused(monkeypatch):
    # 41197 = 0xA0ED: marshal writes it as ED A0 00 00, the bytes of a surrogate; the walk decides
    assert _walks(monkeypatch, {"n": 41197})
    check_storable(_event({"n": 41197, "list": [41197, 2.5], "text": "é語"}))


def test_a_value_marshal_cannot_write_is_walked_and_its_surrogate_refused(monkeypatch):
    odd = Fraction(1, 3)  # not a JSON value, but it must not hide the surrogate beside it
    assert _walks(monkeypatch, {"x": odd})
    check_storable(_event({"x": odd, "name": "Rin"}))
    with pytest.raises(UsageError, match=r"U\+DC80"):
        check_storable(_event({"x": odd, "deep": [{"name": "R\udc80n"}]}))


def test_text_without_surrogates_is_told_apart_without_the_walk(monkeypatch):
    walked = []
    monkeypatch.setattr(events, "_check_text", walked.append)
    check_storable(_event({"kind": "flux", "cards": {"ops": [{"uids": ["c#1"], "to": "gw:語"}]}, "n": 3}))
    assert walked == []
    check_storable(_event({"bad": ["\ud800"]}))
    assert walked == [{"bad": ["\ud800"]}]
