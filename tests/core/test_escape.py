"""Every user string is HTML-escaped (`render.html.esc`); its fast path for text with nothing to
escape (a speed-up) must give exactly what `html.escape(..., quote=True)` gives."""

from __future__ import annotations

import html

from hypothesis import given
from hypothesis import strategies as st

from gamekernel.display.html import esc


@given(st.one_of(st.text(), st.text(alphabet="<>&\"'ab "), st.integers(), st.floats(allow_nan=False)))
def test_esc_is_html_escape_with_quotes(value):
    assert esc(value) == html.escape(str(value), quote=True)


def test_each_special_character_is_escaped_even_alone():
    assert [esc(c) for c in "&<>\"'"] == ["&amp;", "&lt;", "&gt;", "&quot;", "&#x27;"]
