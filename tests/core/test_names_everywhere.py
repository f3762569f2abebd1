"""A character's name, whatever it holds (spaces, commas, quotes, Japanese), works the same way in
every magic that names a character: quoted (`"Sir Henryk"`), as the actor (`@"Sir Henryk"`), or by an
unambiguous start (`Sir`). One lookup (gamekernel.text.resolve_name) and one tokenizer (syntax.py)."""

from __future__ import annotations

import pytest

from gamekernel.magics import current_session
from gamekernel.text import resolve_name

NAMES = ["Sir Henryk", "Smith, John", "ブレン・ノイ", 'Ann "Ace" Lee']
DECK = "4 Elvish Mystic\n4 Runeclaw Bear\n12 Forest\n"


def _quoted(name: str) -> str:
    return f"'{name}'" if '"' in name else f'"{name}"'


def _ok(result) -> None:
    text = str(result)
    assert not text.startswith("error") and "error:" not in text[:20], text


def test_resolve_name_takes_an_unambiguous_start_and_lists_an_ambiguous_one() -> None:
    names = ["Sir Henryk", "Sir Bors", "Bren"]
    assert resolve_name("sir h", names) == ("Sir Henryk", [])
    assert resolve_name("Br", names) == ("Bren", [])
    assert resolve_name("Sir", names) == (None, ["Sir Henryk", "Sir Bors"])
    assert resolve_name("Bren", [*names, "Brenda"]) == ("Bren", [])  # the whole name wins over a start
    assert resolve_name("Zed", names)[0] is None


@pytest.mark.parametrize("name", NAMES)
def test_a_name_with_spaces_commas_quotes_or_japanese_works_in_every_gurps_magic(ip, name: str) -> None:
    q = _quoted(name)
    s = current_session()
    _ok(ip.run_line_magic("char", f"new {q} st=12 dx=12 ht=12"))
    _ok(ip.run_line_magic("char", "new Other"))
    _ok(ip.run_line_magic("char", f"use {q}"))
    assert s.gurps.state.active == name
    _ok(ip.run_line_magic("char", "use Other"))
    _ok(ip.run_line_magic("check", f"DX @{q}"))
    assert s.log[-1].actor == name
    assert ip.run_line_magic("sheet", q).character == name
    _ok(ip.run_line_magic("combat", "npc Orc ST=10 DX=10 HT=10 weapon=Axe:10:sw cut"))
    _ok(ip.run_line_magic("combat", f"start {q} Orc"))  # Speed 6 before 5: his turn first
    assert [c.name for c in s.combat.state.combatants] == [name, "Orc"]
    _ok(ip.run_line_magic("maneuver", f"{q} attack"))
    _ok(ip.run_line_magic("attack", f"{q} -> Orc Punch"))
    assert s.log[-1].data["args"]["attacker"] == name
    if s.combat.state.pending is not None:
        _ok(ip.run_line_magic("defend", "Orc none"))
    _ok(ip.run_line_magic("next", ""))
    _ok(ip.run_line_magic("maneuver", "Orc attack"))
    _ok(ip.run_line_magic("attack", f"Orc -> {q} Axe"))
    assert s.log[-1].data["args"]["target"] == name
    if s.combat.state.pending is not None:
        _ok(ip.run_line_magic("defend", f"{q} none"))
    hp = s.combat.state.get(name).hp
    _ok(ip.run_line_magic("hit", f"{q} 3 cr"))
    assert s.combat.state.get(name).hp == hp - 3
    _ok(ip.run_line_magic("combat", "end"))
    _ok(ip.run_line_magic("rest", f"{q} 30min"))
    assert s.log[-1].data["args"]["name"] == name
    _ok(ip.run_line_magic("combat", "start Orc"))
    _ok(ip.run_line_magic("combat", f"add {q}"))
    assert s.combat.state.get(name).st == 12  # himself, from his sheet


@pytest.mark.parametrize("name", NAMES)
def test_an_unambiguous_start_names_the_character_in_every_gurps_magic(ip, name: str) -> None:
    start = name[:3]
    s = current_session()
    s.gurps.char_new(name, st=12, dx=12, ht=12)
    s.gurps.char_new("Other", activate=True)
    _ok(ip.run_line_magic("char", f"use {_quoted(start)}"))
    assert s.gurps.state.active == name
    _ok(ip.run_line_magic("check", f"DX @{_quoted(start)}"))
    assert s.log[-1].actor == name
    _ok(ip.run_line_magic("combat", "npc Orc ST=10 DX=10 HT=10"))
    _ok(ip.run_line_magic("combat", f"start {_quoted(start)} Orc"))
    assert s.combat.state.combatants[0].name == name
    _ok(ip.run_line_magic("hit", f"{_quoted(start)} 2 cr"))
    assert s.combat.state.get(name).hp == 10


@pytest.mark.parametrize("name", NAMES)
def test_a_name_with_spaces_works_in_gamma_world_and_mtg_magics(ip, name: str, tmp_path) -> None:
    q = _quoted(name)
    s = current_session()
    s.gw.character(name, new=True, level=4)
    _ok(ip.run_line_magic("draw", f"alpha @{q}"))
    assert s.log[-1].actor == name or name in str(s.log[-1].data)
    deck = tmp_path / "deck.txt"
    deck.write_text(DECK, encoding="utf-8")
    _ok(ip.run_line_magic("library", f"load {q} {deck}"))
    assert list(s.mtg.state.decks) == [name]
    _ok(ip.run_line_magic("check", f"green 2 @{q}"))
    assert s.log[-1].actor == name


def test_what_creates_by_name_takes_no_start(ip, tmp_path) -> None:
    # a start names someone only to look him up: a new library or character may start an old one's name
    s = current_session()
    deck = tmp_path / "deck.txt"
    deck.write_text(DECK, encoding="utf-8")
    _ok(ip.run_line_magic("library", f'load "Sir Henryk" {deck}'))
    _ok(ip.run_line_magic("library", f"load Sir {deck}"))
    assert sorted(s.mtg.state.decks) == ["Sir", "Sir Henryk"]
    s.gw.character("Rinoa", new=True, level=2)
    s.gw.character("Rin", new=True, level=4)
    assert sorted(s.gw.state.characters) == ["Rin", "Rinoa"]
    _ok(ip.run_line_magic("char", "new Bo"))
    _ok(ip.run_line_magic("char", "new Bob st=14"))
    assert sorted(s.gurps.state.characters) == ["Bo", "Bob"] and s.gurps.character("Bob").st == 14


def test_an_ambiguous_start_is_an_error_naming_each_candidate_and_changes_nothing(ip) -> None:
    s = current_session()
    s.gurps.char_new("Sir Henryk", st=12)
    s.gurps.char_new("Sir Bors", st=12)
    for magic, line in (("char", "use Sir"), ("check", "DX @Sir"), ("combat", "start Sir Orc{ST=10}")):
        events = len(s.log)
        message = str(ip.run_line_magic(magic, line))
        assert message.startswith("error") and "Sir Henryk" in message and "Sir Bors" in message, message
        assert len(s.log) == events
    ip.run_line_magic("combat", 'start "Sir Henryk" "Sir Bors" Orc{ST=10}')
    events = len(s.log)
    message = str(ip.run_line_magic("hit", "Sir 3 cr"))
    assert "Sir Henryk" in message and "Sir Bors" in message and len(s.log) == events
