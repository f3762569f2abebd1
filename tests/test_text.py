"""One text normalisation for matching (gamekernel.text): NFKC + casefold + full width -> half width,
spaces collapsed; the user's own text is kept for display (DESIGN: Internationalisation)."""

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from gamekernel.text import find_name, half_width, match_key, same_name

NAME = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)


def to_full_width(text: str) -> str:
    """ASCII letters, digits and signs as their full-width forms (what a Japanese IME types)."""
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else "\u3000" if ch == " " else ch for ch in text)


@given(NAME)
def test_match_key_is_idempotent(text):
    assert match_key(match_key(text)) == match_key(text)


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30))
def test_names_match_whatever_the_case_and_width(name):
    for variant in (name.upper(), name.lower(), name.swapcase(), to_full_width(name), to_full_width(name.upper())):
        assert same_name(variant, name)


@given(NAME, NAME)
def test_same_name_is_symmetric(a, b):
    assert same_name(a, b) == same_name(b, a)


def test_full_width_digits_and_signs_become_ascii_but_case_is_kept():
    assert half_width("３ｄ＋２") == "3d+2"
    assert half_width("Ｌｏｃｋｐｉｃｋｉｎｇ－５") == "Lockpicking-5"
    assert match_key("  Ｌｏｃｋ　ＰＩＣＫＩＮＧ ") == "lock picking"
    assert match_key("Straße") == match_key("STRASSE")  # casefold, not lower()
    assert unicodedata.is_normalized("NFKC", match_key("ｶﾞﾝﾏ"))  # half-width katakana to full


def test_lookup_prefers_the_exact_spelling_and_keeps_the_stored_name():
    table = {"Aiko": 1, "AIKO ": 2}
    assert find_name("AIKO ", table) == "AIKO "
    assert find_name("ａｉｋｏ", table) == "Aiko"
    assert find_name("ｂｒｅｎ", ["Aiko", "Bren"]) == "Bren"
    assert find_name("Orc", table) is None


def test_sessions_find_characters_typed_in_full_width():
    from gamekernel import Session

    s = Session(seed=1)
    s.gurps.char_new("Aiko", dx=12)
    assert s.gurps.character("ＡＩＫＯ").name == "Aiko"
