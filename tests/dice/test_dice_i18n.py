"""Dice messages in both languages (DESIGN.md i18n): en and ja catalogs have the same keys and {fields},
no Japanese entry is an English copy (probability notation such as P(=) is the same in both), every
error key the code names exists, and real notation/limit errors come out in Japanese with
set_language("ja") - message and `expected` - and in exact English with "en"."""

from __future__ import annotations

import json
import random
import re
from importlib import resources
from pathlib import Path

import pytest

import gamekernel
from gamekernel.dice import DiceError, parse, roll
from gamekernel.dice.odds import distribution
from gamekernel.i18n import set_language

DOMAIN = "dice"
FIELD = re.compile(r"\{([^{}:!]*)[^{}]*\}")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ERROR_KEY = re.compile(r'"(dice\.(?:err|exp|size)\.[a-z0-9_.]+)"')
NOTATION = {"dice.odds.p_eq", "dice.odds.p_le", "dice.odds.p_ge"}  # P(=), P(≤), P(≥): math, not English


def _load(lang: str) -> dict[str, str]:
    return json.loads((resources.files("gamekernel") / "i18n" / lang / f"{DOMAIN}.json").read_text(encoding="utf-8"))


def _has_letters(text: str) -> bool:
    return bool(re.search(r"[A-Za-z]", FIELD.sub("", text)))


def test_dice_ja_has_exactly_the_en_keys_and_fields():
    en, ja = _load("en"), _load("ja")
    assert set(ja) == set(en)
    assert sorted(k for k in en if set(FIELD.findall(en[k])) != set(FIELD.findall(ja[k]))) == []


def test_dice_ja_is_not_an_english_copy():
    en, ja = _load("en"), _load("ja")
    copies = sorted(k for k in en if ja[k] == en[k] and _has_letters(en[k]))
    assert copies == sorted(NOTATION)
    assert _has_letters("{count:,} outcomes") and not _has_letters("{left:,} × {right:,}")


def test_dice_every_error_key_in_the_code_is_in_the_catalog():
    root = Path(gamekernel.__file__).parent
    used = {key for path in root.rglob("*.py") for key in ERROR_KEY.findall(path.read_text(encoding="utf-8"))}
    en = _load("en")
    assert used and sorted(used - set(en)) == []
    assert sorted(k for k in en if k.startswith(("dice.err.", "dice.exp.", "dice.size.")) and k not in used) == []


SAMPLES = [
    (lambda: roll("3d+", random.Random(1)), "expected a number after '+' at column 4"),
    (lambda: parse(""), "expected a dice expression at column 1"),
    (lambda: parse("3d+2cut"), "expected an operator or the end (put a space before a label) at column 5, found 'c'"),
    (lambda: parse("1d0"), "a die needs at least 1 side at column 3"),
    (lambda: parse("1d2000000"), "die size 2000000 at column 3 is too large: the limit is 1000000"),
    (lambda: parse("1000000d6"), "too many dice at column 1: 1000000 dice, the limit is 10000"),
    (lambda: parse("4d6kh3kl1"),
     "modifier 'kl' repeated at column 7: each kind of modifier may appear once per dice group"),
    (lambda: parse("1d6r<7"), "'r' at column 4 matches every face of a d6 and would never stop"),
    (lambda: parse("1d6r7"), "the condition of 'r' at column 4 never matches a d6"),
    (lambda: parse("(" * 60 + "1" + ")" * 60), "nesting too deep at column 51: the limit is 50 levels"),
    (lambda: parse("1" * 1001), "input too long at column 1001: 1001 characters, the limit is 1000"),
    (lambda: roll("1/0", random.Random(1)), "division by zero at column 2"),
    (lambda: distribution("10000d1000"),
     "the exact distribution at column 1 is too large to compute (9,990,001 outcomes × 99,658 bits); "
     "try fewer or smaller dice"),
    (lambda: distribution("1d1000*1d1000*1d1000*1d1000"),
     "the exact distribution at column 14 is too large to compute (248,083 × 1,000 outcome pairs); "
     "try fewer or smaller dice"),
]


@pytest.mark.parametrize(("make", "english"), SAMPLES, ids=[s[1][:40] for s in SAMPLES])
def test_dice_errors_in_japanese_and_exact_english(make, english):
    try:
        set_language("ja")
        with pytest.raises(DiceError) as japanese:
            make()
        assert JAPANESE.search(str(japanese.value)), str(japanese.value)
        assert "\n" not in str(japanese.value)
        expected_ja = japanese.value.expected
        set_language("en")
        with pytest.raises(DiceError) as error:
            make()
        assert str(error.value) == english
        assert japanese.value.column == error.value.column
        if _has_letters(error.value.expected):
            assert JAPANESE.search(expected_ja) and expected_ja != error.value.expected
    finally:
        set_language("en")


def test_dice_too_large_names_the_size_in_japanese():
    """The size inside the message is translated too (it was an English fragment in a Japanese line)."""
    try:
        set_language("ja")
        with pytest.raises(DiceError) as error:
            distribution("10000d1000")
        assert "9,990,001通りの出目 × 99,658ビット" in str(error.value) and "outcomes" not in str(error.value)
    finally:
        set_language("en")


def test_dice_roll_magic_error_in_japanese_and_english(ip):
    try:
        set_language("ja")
        assert ip.run_line_magic("roll", "3d+").message == "4文字目: '+' の後には数が必要です"
        set_language("en")
        assert ip.run_line_magic("roll", "3d+").message == "expected a number after '+' at column 4"
    finally:
        set_language("en")
