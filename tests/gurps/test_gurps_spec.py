"""Check specs (the text after %check): parse_check_spec."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekernel.errors import UsageError
from gamekernel.gurps.rules.checks import CheckTarget, Modifier, parse_check_spec


def test_spec_skill_with_modifier_and_label():
    spec = parse_check_spec("Lockpicking-5 dark")
    assert spec.alternatives == (CheckTarget("Lockpicking", None, (Modifier(-5, "dark"),)),)


@pytest.mark.parametrize("text,name,number,mods", [
    ("Per+2", "Per", None, ((2, ""),)),
    ("IQ-5", "IQ", None, ((-5, ""),)),
    ("12", None, 12, ()),
    ("Vision", "Vision", None, ()),
    ("Will-3", "Will", None, ((-3, ""),)),
    ("鍵開け-5", "鍵開け", None, ((-5, ""),)),
    ("〈鍵開け〉－５ 暗闇", "鍵開け", None, ((-5, "暗闇"),)),
    ("Fast-Talk-2", "Fast-Talk", None, ((-2, ""),)),
    ("Lockpicking -5 (dark) +2 good tools", "Lockpicking", None, ((-5, "dark"), (2, "good tools"))),
    ("S:Stealth +3", "Stealth", None, ((3, ""),)),
    ("１２−２", None, 12, ((-2, ""),)),
])
def test_spec_forms(text, name, number, mods):
    (alt,) = parse_check_spec(text).alternatives
    assert alt.name == name and alt.number == number
    assert alt.modifiers == tuple(Modifier(v, label) for v, label in mods)


def test_spec_fallback_chain_and_options():
    spec = parse_check_spec("Lockpicking | IQ-5 @Aiko --secret")
    assert [a.name for a in spec.alternatives] == ["Lockpicking", "IQ"]
    assert spec.alternatives[1].modifiers == (Modifier(-5, ""),)
    assert spec.actor == "Aiko" and spec.secret


@pytest.mark.parametrize("text,column", [("Lockpicking | ", 15), ("+5", 1), ("Lockpicking-", 12), ("", None)])
def test_spec_errors_name_the_column(text, column):
    with pytest.raises(UsageError) as error:
        parse_check_spec(text)
    if column is not None:
        assert f"column {column}" in str(error.value)


def test_spec_unknown_option():
    with pytest.raises(UsageError, match="unknown option '--loud'"):
        parse_check_spec("IQ --loud")


@given(st.text(max_size=30))
def test_spec_never_crashes_other_than_usage_error(text):
    with contextlib.suppress(UsageError):
        parse_check_spec(text)
