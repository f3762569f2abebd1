"""`%char new NAME key=value ...`: every key=value is a field of the sheet. The keywords of the
session call that are not fields (`traits`, `skills`, `activate`) are refused by name, as any other
unknown field is, instead of reaching the call (where `traits=Combat` was read letter by letter)."""

from __future__ import annotations

import pytest

from gamekernel.display.results import ErrorResult
from gamekernel.magics import current_session


@pytest.mark.parametrize("field", ["traits=Combat", "skills=Brawling", "activate=0"])
def test_char_new_refuses_a_keyword_that_is_no_field(ip, field: str) -> None:
    result = ip.run_line_magic("char", f"new Aiko dx=12 {field}")
    assert isinstance(result, ErrorResult)
    assert str(result) == f"error: unknown character field {field.partition('=')[0]!r}"
    assert "\n" not in str(result)
    assert current_session().gurps.state.characters == {}  # nothing made


def test_char_new_fields_still_reach_the_sheet(ip) -> None:
    character = ip.run_line_magic("char", "new Aiko dx=12 iq=13")
    assert (character.dx, character.iq) == (12, 13)
    assert current_session().gurps.state.active == "Aiko"
