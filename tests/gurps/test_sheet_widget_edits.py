"""The sheet widget's edits go through `%char set`'s path: the same one-line refusal for an attribute
outside 1-20 (GURPS-CH-04), no record for an edit that changes nothing, current HP/FP editable with the
conditions they bring (GURPS-INJ-01, FAT-01), and a secret roll never on the sheet."""

import pytest

from gamekernel import Session
from gamekernel.errors import RuleError
from gamekernel.gurps.widgets.sheet import SheetWidget


def _sheet(**fields):
    s = Session(seed=3)
    s.gurps.char_new("Aiko", dx=12, iq=12, ht=11, **fields)
    return s, SheetWidget(s, "Aiko")


def _send(widget, **content):
    widget._on_custom_message(widget, content, [])


@pytest.mark.parametrize(("key", "value"), [("ht", 0), ("ht", 21), ("ht", 25), ("st", 0), ("dx", -3)])
def test_gurps_ch_04_out_of_range_edit_gives_the_magics_error_and_changes_nothing(key, value):
    s, widget = _sheet()
    with pytest.raises(RuleError) as magic:
        s.gurps.char_set("Aiko", **{key: value})
    before = (len(s.log), s.gurps.character("Aiko").to_dict())
    _send(widget, action="set", key=key, value=str(value))
    assert widget.error == str(magic.value)
    assert "outside the human range 1 to 20" in widget.error
    assert (len(s.log), s.gurps.character("Aiko").to_dict()) == before
    assert widget._record.bundle("", 0)["text/plain"].count("→") == 0


@pytest.mark.parametrize(("key", "value"), [("ht", 1), ("ht", 20)])
def test_gurps_ch_04_range_bounds_are_accepted(key, value):
    s, widget = _sheet()
    _send(widget, action="set", key=key, value=str(value))
    assert widget.error == "" and getattr(s.gurps.character("Aiko"), key) == value


def test_noop_edit_records_nothing_and_a_real_edit_records_one_line():
    s, widget = _sheet()
    mark = len(s.log)
    assert widget.handle_action("set", {"key": "dx", "value": "12"}) is None
    assert len(s.log) == mark
    lines = widget.handle_action("set", {"key": "dx", "value": "13"})
    assert len(s.log) == mark + 1 and "13" in str(lines)
    assert [a["value"] for a in widget.attributes if a["key"] == "dx"] == [13]


def test_magic_noop_set_records_nothing():
    s, _ = _sheet()
    mark = len(s.log)
    s.gurps.char_set("Aiko", dx=12)
    assert len(s.log) == mark


def test_gurps_inj_01_current_hp_fp_editable_with_conditions():
    s, widget = _sheet()
    assert [(p["key"], p["value"], p["max"]) for p in widget.pools] == [("hp", 10, 10), ("fp", 11, 11)]
    assert widget.conditions == []
    widget.handle_action("set", {"key": "hp", "value": "3"})  # 3 < 10/3: reeling
    assert s.gurps.character("Aiko").hp_lost == 7 and widget.pools[0]["value"] == 3
    assert any("reeling" in text for text in widget.conditions)
    widget.handle_action("set", {"key": "fp", "value": "0"})
    assert any("Will roll" in text for text in widget.conditions)
    s.undo()
    assert s.gurps.character("Aiko").fp_lost == 0


def test_current_hp_above_maximum_refused():
    s, widget = _sheet()
    mark = len(s.log)
    _send(widget, action="set", key="hp", value="11")
    assert "above its maximum of 10" in widget.error and len(s.log) == mark
    _send(widget, action="set", key="hp", value="x")
    assert "whole number" in widget.error and len(s.log) == mark


def test_repeated_refusal_reaches_the_front_end_again():
    _, widget = _sheet()
    seen = []
    widget.observe(lambda change: seen.append(change["new"]), names="error")
    _send(widget, action="set", key="ht", value="0")
    _send(widget, action="set", key="ht", value="0")
    assert len([text for text in seen if text]) == 2


def test_secret_roll_never_shown_on_the_sheet():
    s, widget = _sheet()
    result = s.gurps.check("DX", actor="Aiko", secret=True)
    assert widget.last.startswith("Secret roll for the GM") and str(result.total) not in widget.last.split(")")[0]
    s.gurps.check("DX", actor="Aiko")
    assert widget.last != ""
