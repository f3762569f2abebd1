"""Did-you-mean for numbers in a roll (DICE notation): `%roll 3d6 to hit -2` and `%roll 3 d6` are refused
with the roll they most likely meant, in one line, and record nothing; quoted, the label is kept."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(("line", "meant"), [
    ("3d6 to hit -2", "3d6-2 to hit"),
    ("3 d6", "3d6"),
    ("1d20+5 >= 15 to hit +1", "1d20+5+1 >= 15 to hit"),
])
def test_a_roll_with_numbers_in_its_label_names_the_likely_roll(ip, line, meant):
    from gamekernel.magics import current_session

    before = len(current_session().log)
    text = repr(ip.run_line_magic("roll", line))
    assert text.startswith("error: ") and f"did you mean {meant}?" in text and "\n" not in text, text
    assert len(current_session().log) == before  # refused: no dice, no event
    assert "error" in repr(ip.run_line_magic("odds", line))  # the same notation, the same refusal


def test_a_quoted_label_keeps_its_numbers(ip):
    result = ip.run_line_magic("roll", '3d6 "to hit -2"')
    assert result.label == "to hit -2" and result.text == "3d6", repr(result)
