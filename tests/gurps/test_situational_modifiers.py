"""The GM's modifier field on the sheet and the tracker, and `%attack`'s typed modifiers: typed
(`-2 dark`) or picked from the rules' named modifiers, read by the one modifier parser, applied to the
next roll only, named in its result and its log line, then cleared; a bad entry is one line and
changes nothing (GURPS-SR-04, GURPS-CMB-33..39, GURPS-PHY-04, GURPS-PHY-14)."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.errors import UsageError
from gamekernel.gurps.combat_magics import parse_attack
from gamekernel.gurps.rules import attacks as atk
from gamekernel.gurps.rules.checks import Modifier, parse_modifiers
from gamekernel.gurps.rules.situations import (
    MOST_PENDING,
    MOST_VALUE,
    added,
    situational,
    situationals,
    typed_modifiers,
)
from gamekernel.gurps.widgets.sheet import SheetWidget
from gamekernel.gurps.widgets.tracker import Tracker
from gamekernel.i18n import set_language


def _send(widget, **content) -> None:
    widget._on_custom_message(widget, content, [])


# ---------------------------------------------------------------- the rules' named modifiers


@pytest.mark.parametrize(("key", "value", "rule"), [
    ("dark", -5, "GURPS-SR-04"), ("footing", -2, "GURPS-CMB-33"), ("minor_distraction", -2, "GURPS-CMB-33"),
    ("major_distraction", -3, "GURPS-CMB-33"), ("blind", -10, "GURPS-CMB-34"), ("unseen", -6, "GURPS-CMB-34"),
    ("unseen_near", -4, "GURPS-CMB-34"), ("poor_light_1", -1, "GURPS-CMB-34"), ("poor_light_9", -9, "GURPS-CMB-34"),
    ("off_hand", -4, "GURPS-CMB-35"), ("large_shield", -2, "GURPS-CMB-35"), ("climb_tree", 5, "GURPS-PHY-04"),
    ("climb_cliff", -3, "GURPS-PHY-04"), ("climb_rope_down", -1, "GURPS-PHY-04"),
    ("swim_on_purpose", 3, "GURPS-PHY-14"),
])
def test_gurps_cmb_33_34_35_sr_04_phy_04_named_modifiers_carry_the_rules_values(key, value, rule):
    found = situational(key)
    assert (found.value, found.rule) == (value, rule)


def test_gurps_cmb_37_38_39_size_and_range_rows_are_the_tables():
    """Each size and range entry is the size and speed/range table's own value (no second copy); a row
    worth 0 is not offered (2 m: SM 0, range 0), and range rows are not offered on attacks (the
    tracker's distance sets the range: named twice it would count twice)."""
    rows = {s.key: s for s in situationals()}
    assert rows["size_1m"].value == atk.size_modifier(1) == -2
    assert rows["size_0.3m"].value == -5 and rows["size_3m"].value == 1 and rows["size_100m"].value == 10
    assert rows["range_3m"].value == atk.speed_range_modifier(3) == -1
    assert rows["range_10m"].value == -4 and rows["range_100m"].value == -10
    assert "size_2m" not in rows and "range_2m" not in rows and "range_1m" not in rows
    assert not any(s.attack for s in situationals() if s.group == "range")
    assert not rows["dark"].attack and rows["footing"].attack


def test_an_unknown_name_is_one_line_with_the_close_ones():
    with pytest.raises(UsageError) as err:
        situational("footng")
    assert str(err.value) == "no modifier named 'footng'; did you mean footing?"


def test_gurps_sr_04_typed_modifiers_are_the_one_parser_and_bounded():
    assert typed_modifiers("-2 dark +1 steady") == parse_modifiers("-2 dark +1 steady") == (
        Modifier(-2, "dark"), Modifier(1, "steady"))
    assert typed_modifiers(f"-{MOST_VALUE}") == (Modifier(-MOST_VALUE, ""),)  # the bound itself is taken
    for bad, message in ((f"-{MOST_VALUE + 1}", "modifier -21 is too large: at most ±20"),
                         ("dark", "expected a modifier like +2 or -1 at column 1, got 'dark'"),
                         ("", "type a modifier like -2 dark or +1"),
                         ("-1 " + "x" * 130, "a modifier entry holds at most 120 characters")):
        with pytest.raises(UsageError) as err:
            typed_modifiers(bad)
        assert str(err.value) == message
    full = added((), [Modifier(-1, "")] * MOST_PENDING)
    with pytest.raises(UsageError):
        added(full, [Modifier(-1, "")])


# ---------------------------------------------------------------- the sheet


def _two_sheets() -> tuple[Session, SheetWidget, SheetWidget]:
    s = Session(seed=3)
    s.gurps.char_new("Aiko", dx=12, iq=12)
    s.gurps.char_add_skill("Lockpicking", 4, name="Aiko")
    s.gurps.char_new("Bren", dx=11, iq=10)
    s.gurps.char_add_skill("Lockpicking", 4, name="Bren")
    return s, SheetWidget(s, "Aiko"), SheetWidget(s, "Bren")


def test_gurps_sr_04_the_sheet_field_applies_to_the_next_roll_only_and_names_it():
    s, aiko, bren = _two_sheets()
    _send(aiko, action="modifier", text="-2 dark")
    _send(aiko, action="situation", key="footing")
    assert aiko.modifiers == [[-2, "−2 (dark)"], [-2, "−2 (bad footing)"]] and bren.modifiers == []
    _send(bren, action="roll", skill="Lockpicking")  # Bren's sheet: its own field, empty
    assert s.log[-1].data["result"]["modifiers"] == [] and aiko.modifiers != []
    _send(aiko, action="roll", skill="Lockpicking")
    event = s.log[-1]
    assert event.actor == "Aiko" and event.data["result"]["modifiers"] == [[-2, "dark"], [-2, "bad footing"]]
    level = s.gurps.character("Aiko").skill_level("Lockpicking").level
    assert event.data["result"]["target"] == level - 4
    assert f"Lockpicking {level} −2 (dark) −2 (bad footing) = {level - 4}" in event.summary()
    assert aiko._record.texts[-1] == event.summary()  # the record's line names them too
    assert aiko.modifiers == []  # cleared: the next roll is plain
    _send(aiko, action="roll", skill="Lockpicking")
    assert s.log[-1].data["result"]["modifiers"] == []


def test_the_sheet_roll_with_modifiers_is_the_magics_check():
    """The sheet's roll with `-5 dark` records what `%check Lockpicking -5 dark @Aiko` records."""
    s, aiko, _ = _two_sheets()
    _send(aiko, action="modifier", text="-5 dark")
    _send(aiko, action="roll", skill="Lockpicking")
    t, _, _ = _two_sheets()
    t.gurps.check("Lockpicking -5 dark", actor="Aiko")
    assert s.log[-1].data == t.log[-1].data and s.log[-1].summary() == t.log[-1].summary()


def test_a_bad_entry_is_one_line_and_changes_nothing():
    s, aiko, _ = _two_sheets()
    _send(aiko, action="modifier", text="-1 tired")
    mark = len(s.log)
    for content in ({"action": "modifier", "text": "-25 fog"}, {"action": "modifier", "text": "fog"},
                    {"action": "situation", "key": "nope"}, {"action": "unmodify", "index": 4},
                    {"action": "unmodify", "index": True}):
        _send(aiko, **content)
        assert aiko.error and "\n" not in aiko.error
        assert aiko.modifiers == [[-1, "−1 (tired)"]] and len(s.log) == mark
    _send(aiko, action="unmodify", index=0)
    assert aiko.modifiers == [] and not aiko.error and len(s.log) == mark


def test_a_refused_roll_keeps_the_modifiers_for_the_next_one():
    """The skill is unknown: the roll is refused with nothing recorded, the field keeps its modifiers."""
    s, aiko, _ = _two_sheets()
    _send(aiko, action="modifier", text="-2 dark")
    mark = len(s.log)
    _send(aiko, action="roll", skill="Nonexistent Skill")
    assert aiko.error and len(s.log) == mark and aiko.modifiers == [[-2, "−2 (dark)"]]


def test_the_field_speaks_japanese():
    _s, aiko, _ = _two_sheets()
    try:
        set_language("ja")
        aiko._refresh_synced()
        _send(aiko, action="situation", key="size_1m")
        assert aiko.modifiers == [[-2, "−2（大きさ 1 m）"]]
        assert aiko.labels["field"]["title"] == "次の判定"
        assert any("視界" in group for group, _ in aiko.situations)
    finally:
        set_language("en")


# ---------------------------------------------------------------- the tracker and %attack


def _fight() -> tuple[Session, Tracker]:
    s = Session(seed=5)
    s.combat.npc("Goblin", "ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp")
    s.combat.npc("Knight", "ST=12 DX=10 weapon=Broadsword:13:sw+1 cut")
    s.combat.start("Knight Goblin")
    return s, Tracker(s)


def test_gurps_cmb_33_the_tracker_field_applies_to_the_next_attack_only():
    s, tracker = _fight()
    attacker = s.combat.state.current.name
    target = "Goblin" if attacker == "Knight" else "Knight"
    weapon = s.combat.state.current.weapons[0].name
    _send(tracker, action="situation", key="footing")
    _send(tracker, action="modifier", text="-1 smoke")
    assert [text for _, text in tracker.modifiers] == ["−2 (bad footing)", "−1 (smoke)"]
    assert "range" not in {s.group for s in situationals() if s.key in
                           {k for _, entries in tracker.situations for k, _ in entries}}
    _send(tracker, action="attack", attacker=attacker, target=target, weapon=weapon)
    assert not tracker.error
    attack = next(e for e in reversed(s.log) if e.kind == "combat.attack")
    assert attack.data["args"]["options"] == {"extra": [[-2, "bad footing"], [-1, "smoke"]]}
    skill = s.combat.state.get(attacker).weapon(weapon).skill
    assert f"({weapon} {skill} −2 (bad footing) −1 (smoke) = {skill - 3})" in attack.summary()
    assert tracker.modifiers == []  # cleared after the attack


def test_the_tracker_attack_with_modifiers_is_the_magics():
    """The tracker's attack with `-2 dark` records what `%attack A -> B Weapon -2 dark` records (same
    args, dice and facts), and the same log line."""
    s, tracker = _fight()
    a = s.combat.state.current
    target = "Goblin" if a.name == "Knight" else "Knight"
    _send(tracker, action="modifier", text="-2 dark")
    _send(tracker, action="attack", attacker=a.name, target=target, weapon=a.weapons[0].name)
    t, _ = _fight()
    attacker, victim, weapon, options = parse_attack(f"{a.name} -> {target} {a.weapons[0].name} -2 dark")
    t.combat.attack(attacker, victim, weapon, **options)
    mine = [e for e in s.log if e.kind == "combat.attack"][-1]
    theirs = [e for e in t.log if e.kind == "combat.attack"][-1]
    assert mine.data == theirs.data and mine.summary() == theirs.summary()
    assert s.rng.getstate() == t.rng.getstate()


def test_attack_magic_reads_modifiers_last_and_refuses_an_option_among_them(ip):
    from gamekernel.magics import current_session

    for line in ("npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp", "start Goblin Goblin*1"):
        ip.run_line_magic("combat", line)
    s = current_session()
    mark = len(s.log)
    refused = ip.run_line_magic("attack", "Goblin -> Goblin1 Spear -2 dark braced")
    assert repr(refused).startswith("error: 'braced' comes after the modifiers") and len(s.log) == mark
    assert repr(ip.run_line_magic("attack", "Goblin -> Goblin1 Spear -30")).startswith("error: modifier -30")
    assert len(s.log) == mark
    ip.run_line_magic("attack", "Goblin -> Goblin1 Spear footing=-1 -2 dark")
    event = s.log[-1]
    assert event.data["args"]["options"] == {"bad_footing": -1, "extra": [[-2, "dark"]]}
    assert "Spear 11 −1 (bad footing) −2 (dark) = 8" in event.summary()
