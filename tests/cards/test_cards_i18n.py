"""Card table messages in both languages (DESIGN.md i18n): en and ja catalogs have the same keys and
{fields}, no Japanese entry is an English copy, every error key the code names exists, and real
errors come out in Japanese with set_language("ja") and with their exact English text with "en"."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

import gamekernel
from gamekernel.cards import (
    Batch,
    CardTable,
    EmptyZoneError,
    ReplayError,
    apply,
    plan_add_zone,
    plan_create,
    plan_draw,
    plan_move,
    plan_tap,
)
from gamekernel.errors import DataError, GameKernelError, NotFoundError, RuleError, UsageError
from gamekernel.i18n import set_language

DOMAIN = "cards"
FIELD = re.compile(r"\{([^{}:!]*)[^{}]*\}")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ERROR_KEY = re.compile(r'"(cards\.err\.[a-z0-9_.]+)"')


def _load(lang: str) -> dict[str, str]:
    return json.loads((resources.files("gamekernel") / "i18n" / lang / f"{DOMAIN}.json").read_text(encoding="utf-8"))


def _has_letters(text: str) -> bool:
    return bool(re.search(r"[A-Za-z]", FIELD.sub("", text)))


def test_cards_ja_has_exactly_the_en_keys_and_fields():
    en, ja = _load("en"), _load("ja")
    assert set(ja) == set(en)
    assert sorted(k for k in en if set(FIELD.findall(en[k])) != set(FIELD.findall(ja[k]))) == []


def test_cards_ja_is_not_an_english_copy():
    en, ja = _load("en"), _load("ja")
    assert sorted(k for k in en if ja[k] == en[k] and _has_letters(en[k])) == []
    assert _has_letters("card {uid!r} is already tapped") and not _has_letters("{a}: {b!r} ({c})")


def test_cards_every_error_key_in_the_code_is_in_the_catalog():
    root = Path(gamekernel.__file__).parent
    used = {key for path in root.rglob("*.py") for key in ERROR_KEY.findall(path.read_text(encoding="utf-8"))}
    en = _load("en")
    assert used and sorted(used - set(en)) == []
    assert sorted(k for k in en if k.startswith("cards.err.") and k not in used) == []


@pytest.fixture
def table() -> CardTable:
    table = CardTable()
    for batch in (plan_add_zone(table, "deck", "deck"), plan_add_zone(table, "hand", "hand", face_up=True)):
        apply(table, batch)
    apply(table, plan_create(table, "deck", ["a", "b", "c"]))
    return table


def _first_uid(table: CardTable) -> str:
    return table.order("deck")[0]


SAMPLES = [
    (EmptyZoneError, lambda t: plan_draw(t, "deck", "hand", 5),
     "cannot draw 5 from 'deck': only 3 available (empty-zone policy: error)"),
    (NotFoundError, lambda t: t.zone("dekc"), "no card zone 'dekc'; did you mean deck?"),
    (NotFoundError, lambda t: t.card("nope"), "no card instance 'nope'"),
    (UsageError, lambda t: plan_add_zone(t, "deck"), "card zone 'deck' exists already"),
    (UsageError, lambda t: plan_draw(t, "deck", "hand", 1, how="random"), "a random draw needs the session rng"),
    (UsageError, lambda t: plan_move(t, [_first_uid(t)], "hand", at=4), "position 4 is outside 'hand' (0..0)"),
    (UsageError, lambda t: plan_move(t, [_first_uid(t)], "hand", at="middle"),
     "unknown position 'middle': top, bottom, random_bottom, random_top or an index"),
    (RuleError, lambda t: plan_tap(t, _first_uid(t), tapped=False), "card 'c#1' is already untapped"),
    (DataError, lambda t: Batch.from_dict({"label": "x"}), "card record: missing or bad field 'ops'"),
    (ReplayError, lambda t: apply(t, Batch.from_dict({"ops": [{"op": "shuffle", "zone": "gone", "order": []}]})),
     "card record: unknown zone 'gone'"),
]


@pytest.mark.parametrize(("kind", "make", "english"), SAMPLES, ids=[s[2][:40] for s in SAMPLES])
def test_cards_errors_in_japanese_and_exact_english(table, kind, make, english):
    try:
        set_language("ja")
        with pytest.raises(kind) as japanese:
            make(table)
        assert JAPANESE.search(str(japanese.value)), str(japanese.value)
        assert "\n" not in str(japanese.value)
        set_language("en")
        with pytest.raises(kind) as error:
            make(table)
        assert str(error.value) == english
    finally:
        set_language("en")


def test_cards_a_failed_plan_leaves_the_table_unchanged_in_either_language(table):
    before = table.to_dict()
    for language in ("ja", "en"):
        set_language(language)
        with pytest.raises(GameKernelError):
            plan_draw(table, "deck", "hand", 9)
    set_language("en")
    assert table.to_dict() == before
