"""GURPS and combat error messages in both languages (DESIGN.md i18n): the en and ja catalogs agree
on keys and {fields} (placeholders, conversions and format specs), every "gurps.err.*" /
"combat.err.*" key the code names exists and every catalog error key is used, the Japanese uses the
seed's words, and real errors (check specs, unknown skills, refusal below 3 (GURPS-SR-05), character
files, %attack lines, maneuvers, defenses, hazards ...) come out in Japanese with set_language("ja")
and in exact English with "en"; a refused action changes nothing in either language."""

from __future__ import annotations

import json
import re
import string
from importlib import resources
from pathlib import Path

import pytest

import gamekernel
from gamekernel import Session
from gamekernel.errors import DataError, GameKernelError, NotFoundError, RuleError, UsageError
from gamekernel.gurps.combat_magics import parse_attack
from gamekernel.gurps.rules import defenses as dfn
from gamekernel.gurps.rules.character_files import load_character
from gamekernel.gurps.rules.checks import CheckSpecError, parse_check_spec
from gamekernel.gurps.rules.damage import damage_for_st, parse_damage
from gamekernel.gurps.rules.traits import find_trait
from gamekernel.gurps.widgets.tracker import Tracker
from gamekernel.i18n import set_language

DOMAINS = ("gurps", "combat")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ERROR_KEY = re.compile(r'"((?:gurps|combat)\.err\.[a-z0-9_.]+)"')

AIKO = "Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,shield=12,db=2,pc=1}"
BREN = "Bren{ST=13,DX=12,HT=12,weapon=Axe:13:sw+2 cut,pc=1}"


def _load(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for domain in DOMAINS:
        path = resources.files("gamekernel.gurps") / "i18n" / lang / f"{domain}.json"
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def _placeholders(template: str) -> set[tuple[str, str | None, str]]:
    """Every {field!conversion:spec} of a template, as str.format reads it; a `plural:` spec is a
    language's grammar (English picks "card" or "cards"), not a format of the value: it reads as no spec."""
    return {(field, conversion, "" if (spec or "").startswith("plural:") else spec)
            for _, field, spec, conversion in string.Formatter().parse(template) if field is not None}


def _error_keys(catalog: dict[str, str]) -> set[str]:
    return {k for k in catalog if k.startswith(("gurps.err.", "combat.err."))}


# ---------------------------------------------------------------- (1) the catalogs agree


def test_gurps_errors_ja_has_exactly_the_en_error_keys():
    en, ja = _load("en"), _load("ja")
    assert _error_keys(en) and _error_keys(ja) == _error_keys(en)


def test_gurps_errors_same_placeholders_conversions_and_specs():
    """{modifier:+d} stays {modifier:+d}, {name!r} stays {name!r}: both languages format the same values."""
    en, ja = _load("en"), _load("ja")
    differ = sorted(k for k in _error_keys(en) if _placeholders(en[k]) != _placeholders(ja[k]))
    assert differ == []


def test_gurps_errors_are_one_line_and_never_an_english_copy():
    en, ja = _load("en"), _load("ja")
    assert [k for k in _error_keys(en) if "\n" in en[k] or "\n" in ja[k]] == []
    letters = re.compile(r"[A-Za-z]")
    copies = sorted(k for k in _error_keys(en) if ja[k] == en[k] and letters.search(re.sub(r"\{[^{}]*\}", "", en[k])))
    assert copies == []


def test_gurps_placeholder_check_can_fail():
    assert _placeholders("{a!r} {b:+d}") != _placeholders("{a} {b:+d}")
    assert _placeholders("{a!r} {b:+d}") == _placeholders("{b:+d}と{a!r}")


# ---------------------------------------------------------------- (2) the code and the catalog agree


def _keys_in_code() -> set[str]:
    root = Path(gamekernel.__file__).parent
    return {key for path in root.rglob("*.py") for key in ERROR_KEY.findall(path.read_text(encoding="utf-8"))}


def test_gurps_every_error_key_in_the_code_is_in_the_catalog():
    used = _keys_in_code()
    assert len(used) > 150 and sorted(used - set(_load("en"))) == []


def test_gurps_no_catalog_error_key_is_unused():
    assert sorted(_error_keys(_load("en")) - _keys_in_code()) == []


def test_gurps_seed_terms_in_japanese_errors():
    """The seed's words [004]: 技能, 能力値, 目標値, 戦闘行動, 朦朧, 気絶, 致命傷, 不利な特徴, よけ/受け/止め."""
    ja = _load("ja")
    assert "技能" in ja["gurps.err.unknown_skill"] and "能力値" in ja["gurps.err.no_skill"]
    assert "目標値" in ja["gurps.err.spell_below_3"] and "目標値" in ja["gurps.err.refused.below"]
    assert "戦闘行動" in ja["combat.err.maneuver"] and "朦朧" in ja["combat.err.stunned"]
    assert "気絶" in ja["combat.err.not_unconscious"] and "致命傷" in ja["combat.err.not_mortal"]
    assert "不利な特徴" in ja["gurps.err.not_cr_trait"] and "修正" in ja["gurps.err.spec.modifier"]
    assert all(word in ja["combat.err.defense"] for word in ("よけ", "受け", "止め"))
    assert "能動防御" in ja["combat.err.already_tried"]


# ---------------------------------------------------------------- (3) real errors in both languages


def _fight(seed: int = 5) -> Session:
    session = Session(seed=seed)
    session.combat.npc("Goblin", "ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp")
    session.combat.start(f"{AIKO} {BREN} Goblin*2")
    return session


def _pending() -> Session:
    """Aiko has hit Goblin1, who has not defended yet (seed 1)."""
    session = _fight(1)
    session.combat.attack("Aiko", "Goblin1", "Broadsword")
    assert session.combat.state.pending is not None
    return session


def _all_out_defense() -> Session:
    session = _fight()
    session.combat.maneuver("Aiko", "all_out_defense", option="dodge")
    return session


def _weak() -> Session:
    """Tam (Club at 2) waits for his turn after the Goblin's."""
    session = Session(seed=5)
    session.combat.start("Tam{ST=9,DX=9,HT=10,weapon=Club:2:sw cr} Goblin{ST=9,DX=12,HT=11,weapon=Spear:11:thr+2 imp}")
    session.combat.next()
    assert session.combat.state.current.name == "Tam"
    return session


def _character() -> Session:
    session = Session(seed=3)
    session.gurps.char_new("Aiko", dx=12, iq=11)
    session.gurps.char_add_skill("Lockpicking", 4)
    return session


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "aiko.json"
    path.write_text(text, encoding="utf-8")
    return path


# (error class, fixture, call, exact English as a regular expression)
SAMPLES = [
    (CheckSpecError, None, lambda s, p: parse_check_spec("Lockpicking-"),
     r"expected a number after '-' at column 12"),
    (CheckSpecError, None, lambda s, p: parse_check_spec("Lockpicking --loud"),
     r"unknown option '--loud' at column 13 \(known: --secret, --defense\)"),
    (CheckSpecError, _character, lambda s, p: s.gurps.check(""),
     r"empty check: give a skill, attribute or number, e.g. 'Lockpicking-5'"),
    (NotFoundError, _character, lambda s, p: s.gurps.check("Lockpickng-2"),
     r"Aiko has no skill or attribute 'Lockpickng'; did you mean lockpicking\?"),
    (NotFoundError, None, lambda s, p: find_trait("Combat Reflex"),
     r"unknown trait 'Combat Reflex'; did you mean combat reflexes, combat_reflexes\?"),
    (RuleError, _weak, lambda s, p: s.combat.attack("Tam", "Goblin", "Club"),
     r"Tam cannot attack with Club: effective skill 2 is below 3 \(GURPS-SR-05\)"),
    (RuleError, _fight, lambda s, p: s.combat.cast("Aiko", "Fireball", 3, 2),
     r"Fireball: effective skill 2 is below 3, the spell cannot be tried"),
    (DataError, None, lambda s, p: load_character(_file(p, '{"name": "Aiko", "st": "ten"}')),
     r".*aiko\.json: field 'st' must be an integer, got 'ten'"),
    (DataError, None, lambda s, p: load_character(_file(p, "{")), r".*aiko\.json: not valid JSON \(.+\)"),
    (NotFoundError, None, lambda s, p: load_character(p / "nobody.json"), r".*nobody\.json: no such character file"),
    (UsageError, None, lambda s, p: parse_attack("Aiko Goblin1"),
     r"usage: %attack Aiko -> Goblin1 Broadsword \[damage\] \[range=8 braced \.\.\.\] \[-2 dark \.\.\.\]"),
    (UsageError, None, lambda s, p: parse_attack("Aiko -> Goblin1 Broadsword range=far"),
     r"range='far' is not a number"),
    (UsageError, _fight, lambda s, p: s.combat.maneuver("Aiko", "all_out_attakc"),
     r"unknown maneuver 'all_out_attakc'; did you mean all_out_attack\?"),
    (RuleError, _fight, lambda s, p: s.combat.maneuver("Bren", "attack"),
     r"it is Aiko's turn, not Bren's \(%next to move on\)"),
    (RuleError, _all_out_defense, lambda s, p: s.combat.attack("Aiko", "Goblin1", "Broadsword"),
     r"Aiko chose all out defense, which allows no attack this turn"),
    (RuleError, _all_out_defense, lambda s, p: s.combat.maneuver("Aiko", "attack"),
     r"Aiko already chose all_out_defense this turn \(one maneuver per turn, GURPS-CMB-04\)"),
    (UsageError, _fight, lambda s, p: s.combat.posture("Aiko", "flying"),
     r"unknown posture 'flying'; did you mean lying_up or lying_down\?"),
    (RuleError, _pending, lambda s, p: s.combat.defend("Goblin1", "block"),
     r"Goblin1 has no block \(no ready weapon or shield\)"),
    (RuleError, _pending, lambda s, p: s.combat.defend("Aiko", "dodge"),
     r"the pending attack is on Goblin1, not Aiko"),
    (UsageError, _pending, lambda s, p: s.combat.defend("Goblin1", "duck"),
     r"unknown defense 'duck'; choose dodge, parry, block or none"),
    (RuleError, _pending, lambda s, p: s.combat.next(),
     r"Goblin1 has not answered Aiko's attack yet \(%defend \.\.\. or %defend \.\.\. none\)"),
    (RuleError, _fight, lambda s, p: s.combat.defend("Goblin1", "parry"), r"no attack is waiting for a defense"),
    (RuleError, None, lambda s, p: dfn.defense_roll("Aiko", "parry", 10, dfn.DefenderState(maneuver="all_out_attack"),
                                                    dfn.Incoming(), (3, 3, 3)),
     r"Aiko cannot parry: All-Out Attack allows no defense until the next turn \(GURPS-CMB-18\)"),
    (UsageError, _fight, lambda s, p: s.combat.hazard("lava", "Bren"),
     r"unknown hazard 'lava'; choose fall, pass_through, in_fire, furnace, clothing_part, clothing_all, cold, heat, "
     r"poison, disease or suffocation"),
    (RuleError, _fight, lambda s, p: s.combat.wake("Bren"),
     r"Bren is in the running fight; waking up happens after it \(%combat end\)"),
    (NotFoundError, _fight, lambda s, p: s.combat.attack("Aiko", "Gobln1", "Broadsword"),
     r"no combatant 'Gobln1'; did you mean Goblin1, Goblin2\?"),
    (UsageError, None, lambda s, p: parse_damage("3x cut"),
     r"expected damage like '2d\+1 cut' or 'sw\+2 cut', got '3x cut' \(column 1\)"),
    (RuleError, None, lambda s, p: damage_for_st(21, extended=False),
     r"ST 21 is above the seed's damage table \(1-20\); enable the extended table"),
    (UsageError, _fight, lambda s, p: Tracker(s).handle_action("juggle", {}), r"unknown tracker action 'juggle'"),
]


@pytest.mark.parametrize(("kind", "setup", "make", "english"), SAMPLES, ids=[s[3][:48] for s in SAMPLES])
def test_gurps_errors_in_japanese_and_exact_english(tmp_path, kind, setup, make, english):
    try:
        set_language("ja")
        session = setup() if setup else None
        with pytest.raises(kind) as japanese:
            make(session, tmp_path)
        message = str(japanese.value)
        assert JAPANESE.search(message) and "\n" not in message, message
        assert not re.fullmatch(english, message)
        set_language("en")
        session = setup() if setup else None
        with pytest.raises(kind) as error:
            make(session, tmp_path)
        assert re.fullmatch(english, str(error.value)), str(error.value)
    finally:
        set_language("en")


REFUSED = [(setup, make) for _, setup, make, _ in SAMPLES if setup is not None]


@pytest.mark.parametrize(("setup", "make"), REFUSED, ids=[str(i) for i in range(len(REFUSED))])
def test_gurps_refused_actions_change_nothing_in_either_language(tmp_path, setup, make):
    """Bad input never changes state (DESIGN.md), whatever language the message is in."""
    session = setup()
    before, events = session.state.to_dict(), len(session.log)
    try:
        for language in ("ja", "en"):
            set_language(language)
            with pytest.raises(GameKernelError):
                make(session, tmp_path)
            assert session.state.to_dict() == before and len(session.log) == events
    finally:
        set_language("en")


MAGIC_SAMPLES = [
    ("check", "", "%check needs a skill, attribute or number, e.g. %check Lockpicking-5 dark"),
    ("check", "Lockpicking-", "expected a number after '-' at column 12"),
    ("char", "dance", "unknown %char action or character 'dance': new, load, save, list, use, set, skill, trait, "
                     "weapon, or a character's name"),
    ("char", "load", "usage: %char load FILE (.json or GCS .gcs)"),
    ("attack", "Aiko Goblin1", "usage: %attack Aiko -> Goblin1 Broadsword [damage] [range=8 braced ...] [-2 dark ...]"),
    ("combat", "dance", "unknown %combat command 'dance': start, end, status, npc, add, arm, range, side, tracker"),
    ("hazard", "fall tall @Bren", "expected a height like 6m, got 'tall'"),
    ("firstaid", "Bren TLx", "expected TL0..TL12, got 'TLx'"),
    ("luck", "dance", "unknown %luck action 'dance': %luck [@Name], %luck reset [@Name] [30min], %luck status"),
    ("defend", "Goblin1 parry", "no fight is running: start one with %combat start Aiko Goblin*2"),
]


@pytest.mark.parametrize(("magic", "line", "english"), MAGIC_SAMPLES)
def test_gurps_magic_errors_in_japanese_and_english(ip, magic, line, english):
    try:
        set_language("ja")
        japanese = ip.run_line_magic(magic, line)
        assert JAPANESE.search(japanese.message) and "\n" not in japanese.message, japanese.message
        set_language("en")
        result = ip.run_line_magic(magic, line)
        assert result.message == english
    finally:
        set_language("en")
