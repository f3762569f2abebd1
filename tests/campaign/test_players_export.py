"""The players' export leaks no GM secret in any form; the GM export has them all.

One session plays a little of every rule set through the magics a GM types (`%check ... --secret`,
`%roll ... --secret`, `%note --gm`), with secrets of every kind: a GURPS check, a dice roll, a GM
note, secret damage, secret d20 rolls whose natural 1s raise (secret) alpha flux, and an undo of
secret events only. The players' Markdown and HTML must be exactly the export of the log with the
secrets never having happened, and hold none of their faces, totals, labels or words.
"""

from __future__ import annotations

import re

import pytest

from gamekernel.display.html import esc
from gamekernel.events import Event, kind_word
from gamekernel.render.log import md_escape
from gamekernel.render.story import story_html, story_markdown, tell

DECKLIST = "4 Forest\n3 Elvish Mystic\n2 Ornithopter\n2 Serra Angel\n2 Plains\n"
SCRIPT = "<script>alert('gk')</script> & \"friends\""


def _session(ip):
    from gamekernel.magic_base import current_session

    return current_session()


@pytest.fixture
def played(ip, tmp_path):
    """A session with public and secret events of every rule set, played through the magics."""
    s = _session(ip)
    s.gurps.char_new("Aiko", dx=12, iq=12, skills=[("Lockpicking", 1, 9), ("Stealth", 4)])
    s.gurps.char_new("Guard", st=11, iq=10, dr=1, activate=False)
    ip.run_line_magic("check", "Stealth")
    secret_check = ip.run_line_magic("check", "Lockpicking-5 moonless-vault --secret")
    assert "secret" in repr(secret_check).lower() and "Lockpicking" not in repr(secret_check)
    ip.run_line_magic("roll", "3d6+2 lich-ambush --secret")
    ip.run_line_magic("note", "--gm The innkeeper is the lich")
    ip.run_line_magic("note", SCRIPT)
    s.gurps.damage("2d cut", target="Guard", secret=True)
    ip.run_line_magic("roll", "1d6 public-torch")
    # a short fight, in the open
    s.combat.npc("Orc", "ST=12 DX=11 HT=11 weapon=Axe:12:sw+2 cut")
    s.combat.start("Aiko Orc")
    s.combat.attack(s.combat.state.current.name, "Orc" if s.combat.state.current.name == "Aiko" else "Aiko",
                    s.combat.state.current.weapons[0].name)
    # Gamma World: secret d20 rolls for Rin in an encounter until a natural 1 raises a (secret) flux
    s.gw.character("Rin", new=True, level=2)
    s.gw.draw("Rin")
    s.gw.encounter_start()
    for _ in range(40):
        ip.run_line_magic("roll", "4d20 hidden-sense @Rin --secret")
        if s.gw.state.flux:
            break
    assert s.gw.state.flux, "no natural 1 in 40 secret rolls (change the seed)"
    # MtG, in the open
    s.mtg.library_load("Mira", "friends.txt", text=DECKLIST)
    s.mtg.check("green", 2, actor="Mira")
    # a mistaken secret roll, taken back (the undo concerns only secret events)
    ip.run_line_magic("roll", "1d100 wrong-table --secret")
    ip.run_line_magic("undo", "")
    files = {}
    for name, players in (("players.md", True), ("players.html", True), ("gm.md", False), ("gm.html", False)):
        result = ip.run_line_magic("log", f"export {tmp_path / name}" + (" --players" if players else ""))
        assert "error" not in repr(result).lower(), repr(result)
        files[name] = (tmp_path / name).read_text(encoding="utf-8")
    return s, files


def _secret_events(log: list[Event]) -> list[Event]:
    return [e for e in log if e.secret]


def _fingerprints(event: Event) -> set[str]:
    """Every string by which a secret event could be recognised in an export."""
    marks = {event.summary()}
    data = event.data
    result = data.get("result", {})
    if isinstance(result, dict):
        for key in ("label", "breakdown", "text"):
            if result.get(key):
                marks.add(str(result[key]))
        dice = result.get("dice")
        face_lists = [result.get("faces")]  # GURPS damage
        if isinstance(dice, list) and all(isinstance(d, int) for d in dice):
            face_lists.append(dice)  # GURPS success roll
        elif isinstance(dice, list):  # dice notation: one group per die kind
            face_lists += [[r if isinstance(r, int) else r[0] for r in g.get("rolls", ())] for g in dice]
        for faces in face_lists:
            if faces and len(faces) >= 2:  # a single face like [3] may well show up in a public roll too
                marks.add(str(list(faces)))
                marks.add("[" + ",".join(map(str, faces)) + "]")
        for modifier in result.get("modifiers", ()):
            marks.add(str(modifier[1]))
    if event.kind == "note":
        marks.add(data["text"])
    if data.get("spec"):
        marks.add(str(data["spec"]))
    return {m for m in marks if m.strip()}


def _public_log(log: list[Event]) -> list[Event]:
    """The log as if the secrets had never happened (an undo of secrets only goes with them)."""
    secret = {e.seq for e in log if e.secret}
    return [e for e in log if not e.secret and not (e.kind in ("undo", "redo") and set(e.data["seqs"]) <= secret)]


def test_players_export_is_the_log_without_the_secrets(played):
    """The players' story == the story of the public events only (no trace at all)."""
    session, files = played
    kinds = {e.kind for e in _secret_events(session.log)}
    assert {"gurps.check", "roll", "note", "combat.damage", "gw.flux_pending"} <= kinds
    public = _public_log(session.log)
    assert files["players.md"] == story_markdown(tell(public))
    assert files["players.html"] == story_html(tell(public))


def test_no_face_total_label_or_word_of_a_secret_reaches_the_players(played):
    """No summary, label, faces, breakdown, modifier or note text of a secret event."""
    session, files = played
    checked = 0
    for event in _secret_events(session.log):
        for mark in _fingerprints(event):
            checked += 1
            for name in ("players.md", "players.html"):
                text = files[name]
                for form in {mark, md_escape(mark), esc(mark)}:
                    assert form not in text, f"{name} leaks {form!r} of secret event {event.seq} ({event.kind})"
        line = event.data["text"] if event.kind == "note" else event.summary()
        assert md_escape(line) in files["gm.md"], f"gm.md lacks secret event {event.seq}"
        assert esc(line) in files["gm.html"], f"gm.html lacks secret event {event.seq}"
    assert checked > 20
    for word in ("moonless-vault", "lich-ambush", "innkeeper", "hidden-sense", "wrong-table", "ALPHA FLUX"):
        assert word not in files["players.md"] and word not in files["players.html"]
        assert word in files["gm.md"] and word in files["gm.html"]
    for name in ("players.md", "players.html"):
        assert "secret" not in files[name].lower(), f"{name} marks where a secret was"


def test_gm_export_has_every_event_and_marks_the_secrets(played):
    session, files = played
    for event in session.log:
        if event.kind != "note":
            assert f"{event.seq}. **{md_escape(kind_word(event.kind))}**" in files["gm.md"]  # a word, not an id
            assert f'<li value="{event.seq}"><b>{esc(kind_word(event.kind))}</b>' in files["gm.html"]
    assert files["gm.md"].count("*(secret)*") == sum(1 for e in session.log if e.secret and e.kind != "note")
    assert "**GM note:** The innkeeper is the lich" in files["gm.md"]


@pytest.mark.parametrize("name", ["players.html", "gm.html"])
def test_html_export_is_self_contained_and_escapes_user_strings(played, name):
    """No external assets, no scripts; a user's <script> arrives as text."""
    html = played[1][name]
    lowered = html.lower()
    for forbidden in ("http:", "https:", "//", "src=", "href=", "<script", "<link", "@import", "url(", "<iframe",
                      "<img", "<object", "<embed", "on" + "error=", "onclick="):
        if forbidden == "//":
            assert not re.search(r"(?<![:\w])//", html), f"{name} has a protocol-relative address"
            continue
        assert forbidden not in lowered, f"{name} contains {forbidden!r}"
    assert esc(SCRIPT) in html and "&lt;script&gt;alert(&#x27;gk&#x27;)&lt;/script&gt;" in html
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")


def test_markdown_export_keeps_a_users_html_literal(played):
    md = played[1]["players.md"]
    assert not re.search(r"(?<!\\)<", md), "raw HTML in the Markdown"
    assert "\\<script>alert" in md


def test_a_mixed_undo_leaves_no_trace_for_the_players(ip, tmp_path):
    """Undone events are not in the story, whether public or secret."""
    s = _session(ip)
    ip.run_line_magic("roll", "1d6 kept-door")
    ip.run_line_magic("roll", "1d6 open-door")
    ip.run_line_magic("roll", "3d6 lich-ambush --secret")
    ip.run_line_magic("undo", "2")
    players = s.log_write(tmp_path / "p.md", players=True).path.read_text(encoding="utf-8")
    assert "kept-door" in players
    assert "open-door" not in players and "lich-ambush" not in players and "undo" not in players.lower()


def test_the_story_has_no_gap_where_a_secret_was(ip, tmp_path):
    s = _session(ip)
    ip.run_line_magic("roll", "1d6 first")
    ip.run_line_magic("roll", "1d6 hidden --secret")
    ip.run_line_magic("roll", "1d6 third")
    players = s.log_write(tmp_path / "p.md", players=True).path.read_text(encoding="utf-8")
    lines = [line for line in players.splitlines() if line.startswith("- ")]
    assert len(lines) == 2 and "first" in lines[0] and "third" in lines[1]
    gm = s.log_write(tmp_path / "gm.md").path.read_text(encoding="utf-8")
    assert "hidden" in gm and "hidden" not in players
