"""Handouts (`%table show alice,bob FILE`, gamekernel/table/seats.py): a text or image file of the table
folder handed to chosen seated players as a secret event; only they hold it on their page until the GM
reveals it (`%reveal N`); bad files are refused with one line and change nothing; a line that names a
hidden fighter still shows the fighter."""

from __future__ import annotations

import base64
import json

import pytest

from gamekernel import Session
from gamekernel.errors import GameKernelError
from gamekernel.remote.projection import SPECTATOR, Audience
from gamekernel.remote.views import view
from gamekernel.table.seats import HANDOUT_BYTES, HANDOUT_TEXT

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40


def table() -> Session:
    s = Session(seed=2)
    for name in ("Aiko", "Bren", "Cora"):
        s.gurps.char_new(name)
    s.seats.seat("alice", "Aiko")
    s.seats.seat("bob", "Bren")
    s.seats.seat("carol", "Cora")
    return s


def seen(s: Session, user: str | None) -> dict:
    return view(s, Audience.player(user) if user else Audience(SPECTATOR), s.public_table())


def test_a_handout_reaches_its_players_alone_until_revealed(tmp_path):
    s = table()
    (tmp_path / "letter.txt").write_text("Meet me at the mill. Kq4", encoding="utf-8")
    (tmp_path / "map.png").write_bytes(PNG)
    letter = s.seats.show(["alice", "Bob"], "letter.txt", folder=tmp_path)  # names as the hub spells them
    s.seats.show(["alice"], "map.png", folder=tmp_path)
    alice, bob = seen(s, "alice")["handouts"], seen(s, "bob")["handouts"]
    assert [(h["n"], h["name"], h["kind"]) for h in alice] == [(1, "letter.txt", "text"), (2, "map.png", "image")]
    assert alice[0]["text"] == "Meet me at the mill. Kq4"
    assert alice[1]["mime"] == "image/png" and base64.b64decode(alice[1]["data"]) == PNG
    assert [h["name"] for h in bob] == ["letter.txt"]
    for other in ("carol", None):
        text = json.dumps(seen(s, other))
        assert "Kq4" not in text and "letter.txt" not in text and "map.png" not in text
    s.seats.reveal(letter)
    assert [h["name"] for h in seen(s, "carol")["handouts"]] == ["letter.txt"]
    assert any("Handout: letter.txt" in b["text"] for b in seen(s, None)["story"])
    assert [h["name"] for h in seen(s, "carol")["handouts"]] == ["letter.txt"]  # the map is still alice's
    s.undo()  # the reveal taken back: carol holds nothing again
    assert seen(s, "carol")["handouts"] == []


@pytest.mark.parametrize(("path", "content", "match"), [
    ("../outside.txt", None, "no file"),
    ("missing.txt", None, "no file"),
    ("big.png", PNG + b"\x00" * HANDOUT_BYTES, "at most"),
    ("long.txt", "x" * (HANDOUT_TEXT + 1), "1 to 20000 characters"),
    ("empty.txt", "  \n", "1 to 20000 characters"),
    ("binary.bin", b"\xff\xfe\x00\x01", "neither UTF-8 text nor"),
])
def test_bad_files_are_refused_and_change_nothing(tmp_path, path, content, match):
    s = table()
    folder = tmp_path / "table"
    folder.mkdir()
    (tmp_path / "outside.txt").write_text("not the table's")
    if content is not None:
        target = folder / path
        target.write_bytes(content) if isinstance(content, bytes) else target.write_text(content)
    before = len(s.log)
    with pytest.raises(GameKernelError, match=match):
        s.seats.show(["alice"], path, folder=folder)
    assert len(s.log) == before


def test_only_seated_players_receive_handouts(tmp_path):
    s = table()
    (tmp_path / "note.txt").write_text("hi")
    with pytest.raises(GameKernelError, match="dave has no seat"):
        s.seats.show(["alice", "dave"], "note.txt", folder=tmp_path)
    with pytest.raises(GameKernelError, match="name the seated players"):
        s.seats.show([], "note.txt", folder=tmp_path)


def test_magic_show_hands_out_or_shows_a_hidden_fighter(ip, tmp_path, monkeypatch):
    from gamekernel.magics import current_session
    from gamekernel.testing import run

    monkeypatch.chdir(tmp_path)
    (tmp_path / "letter.txt").write_text("Kq4 letter", encoding="utf-8")
    for line in ("char new Aiko", "char new Bren", "table seat alice Aiko", "table seat bob Bren"):
        name, _, rest = line.partition(" ")
        run(ip, name, rest)
    shown = str(run(ip, "table", "show alice letter.txt"))
    assert "shown to alice alone" in shown and "%reveal" in shown
    s = current_session()
    assert [h["name"] for h in seen(s, "alice")["handouts"]] == ["letter.txt"] and not seen(s, "bob")["handouts"]
    run(ip, "combat", "npc Goblin King ST=10 DX=10 HT=10 HP=10 weapon=Knife:10:thr-1 imp")
    run(ip, "table", "hide Goblin King")
    assert "Goblin King" in str(run(ip, "table", "show Goblin King"))  # two words, still the fighter
    assert s.seats.state.hidden == []
