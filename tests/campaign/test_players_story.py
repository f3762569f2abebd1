"""A players' story: `%log export story.md|.html --players` is a page a GM would hand out.

Title (campaign, session, date), headings per session / fight / encounter, notes as prose, one
line in words per roll, fights as outcomes, no internal ids, setup, file names, odds (unless
`--odds`), undone events, seed or secret in any escaped form; true counts; the umask respected.
"""

from __future__ import annotations

import html
import os
import re
import stat

import pytest

from gamekernel import Session
from gamekernel.i18n import set_language, t
from gamekernel.render.log import md_escape

DECKLIST = "4 Forest\n3 Elvish Mystic\n2 Serra Angel\n"


@pytest.fixture
def table(tmp_path):
    """A campaign session: setup, notes, open and secret rolls, an undone roll, a fight to a fall."""
    s = Session(seed=42)
    s.campaign_open(tmp_path / "Sunken Gate")
    s.gurps.char_new("Kaito", dx=12, iq=11, st=13, skills=[("Stealth", 4)])
    s.gurps.char_new("Guard", iq=10, activate=False)
    s.note("The party reaches the sunken gate at dusk.")
    s.note("The guard captain is a doppelganger", gm_only=True)
    s.gurps.check("Stealth", actor="Kaito")
    s.gurps.check("Per", actor="Kaito", secret=True)
    s.roll("1d6 wrong-table")
    s.undo()
    s.roll("3d6 treasure", actor="Kaito")
    s.mtg.library_load("Mira", "secret-deck-file.txt", text=DECKLIST)
    s.combat.npc("Rat", "ST=4 DX=10 HT=6 HP=1 weapon=Bite:10:thr-1 cut")
    s.combat.start("Kaito Rat")
    for _ in range(30):
        fight = s.combat.state
        if fight is None or fight.over or any(c.unconscious or c.dead for c in fight.combatants):
            break
        current = fight.current.name
        other = "Rat" if current == "Kaito" else "Kaito"
        s.combat.attack(current, other, fight.current.weapons[0].name)
        if s.combat.state.pending is not None:
            s.combat.defend(other)
        s.combat.next()
    return s


def _files(s: Session, tmp_path, odds: bool = False) -> dict[str, str]:
    out = {}
    for name in ("story.md", "story.html"):
        written = s.log_write(tmp_path / name, players=True, odds=odds)
        out[name] = written.path.read_text(encoding="utf-8")
        out[name + ".count"] = written.count
    return out


def test_the_story_has_a_title_date_headings_prose_and_lines_in_words(table, tmp_path):
    md = _files(table, tmp_path)["story.md"]
    lines = md.splitlines()
    assert lines[0] == "# Sunken Gate — session 1"
    assert re.fullmatch(r"\*\d{4}-\d{2}-\d{2}\*", lines[2])
    assert "## Session 1" in lines and "## Fight: Kaito, Rat" in lines
    assert "The party reaches the sunken gate at dusk." in lines  # a note is prose, not a bullet
    check = next(line for line in lines if "Stealth" in line)
    assert re.fullmatch(r"- Kaito tries Stealth \(\d+\): \d+ — .+ by \d+", check), check
    assert any(re.fullmatch(r"- Kaito rolls treasure: \d+", line) for line in lines)


def test_a_fight_is_told_by_its_outcomes(table, tmp_path):
    md = _files(table, tmp_path)["story.md"]
    fight = md.split("## Fight: Kaito, Rat", 1)[1]
    assert "attacks" in fight
    assert re.search(r"Rat takes \d+ injury, (hurt|badly hurt|down)", fight), fight  # a word for an NPC's HP
    assert not re.search(r"Rat takes \d+ injury, HP", fight), fight
    assert "Rat falls" in fight or "Rat dies" in fight
    for noise in ("Do Nothing", "maneuver", "turn", "NPC template", "second "):
        assert noise not in fight


def test_no_internal_id_setup_file_name_seed_odds_or_undone_event(table, tmp_path):
    files = _files(table, tmp_path)
    for name in ("story.md", "story.html"):
        text = files[name]
        for word in ("gurps.", "combat.", "gw.", "mtg.", "campaign.open", "secret-deck-file", "NPC template",
                     "seed", "odds", "wrong-table", "undo", "character Kaito", "%", ".jsonl", "session-001"):
            assert word not in text, f"{name} has {word!r}"


def _dice_in(data) -> list[list[int]]:
    """Every list of dice faces an event's data holds (a check's, an attack's, a damage roll's)."""
    if isinstance(data, dict):
        return [d for k, v in data.items() for d in ([v] if k in ("dice", "faces") and isinstance(v, list)
                                                     else _dice_in(v))]
    if isinstance(data, list):
        return [d for v in data for d in _dice_in(v)]
    return []


def test_a_curious_player_finds_no_secret_in_any_escaped_form(table, tmp_path):
    files = _files(table, tmp_path)
    secrets = [e for e in table.log if e.secret]
    assert secrets
    marks = {"doppelganger", "guard captain"}
    public = {",".join(map(str, dice)) for e in table.log if not e.secret for dice in _dice_in(e.data)}
    for event in secrets:
        result = event.data.get("result", {})
        if "dice" in result and ",".join(map(str, result["dice"])) not in public:  # not a public roll's too
            marks.add(str(list(result["dice"])))
            marks.add(",".join(map(str, result["dice"])))
    for name in ("story.md", "story.html"):
        text = files[name]
        for mark in marks:
            for form in {mark, md_escape(mark), html.escape(mark), html.escape(mark, quote=False)}:
                assert form not in text, f"{name} leaks {form!r}"
        assert "secret" not in text.lower() and "GM" not in text


def test_odds_only_on_request(table, tmp_path):
    plain = _files(table, tmp_path)["story.md"]
    with_odds = _files(table, tmp_path, odds=True)["story.md"]
    assert "odds" not in plain
    assert re.search(r"Stealth \(\d+\): \d+ — .+ \(odds \d+(\.\d)?%\)", with_odds)


def test_the_gm_export_keeps_everything(table, tmp_path):
    gm = table.log_write(tmp_path / "gm.md").path.read_text(encoding="utf-8")
    for word in ("doppelganger", "wrong-table", "**seed** — 42", "**GURPS character**", "secret-deck-file",
                 "logging to session-"):
        assert word in gm


def test_markdown_has_no_inline_html_and_html_is_one_escaped_page(table, tmp_path):
    table.note("<b>bold</b> & <script>alert(1)</script>")
    files = _files(table, tmp_path)
    assert not re.search(r"(?<!\\)<", files["story.md"])
    page = files["story.html"]
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and "&lt;script&gt;" in page and "&lt;b&gt;bold" in page
    for forbidden in ("http:", "https:", "src=", "href=", "<link", "url("):
        assert forbidden not in page


def test_counts_are_true(table, tmp_path):
    files = _files(table, tmp_path)
    bullets = sum(1 for line in files["story.md"].splitlines() if line.startswith("- "))
    prose = 1  # the one public note
    assert files["story.md.count"] == bullets + prose
    page = files["story.html"]
    assert files["story.html.count"] == page.count("<li>") + page.count("<p>")  # the date is <p class=...>
    gm = table.log_write(tmp_path / "gm.md")
    assert gm.count == len(table.log)
    numbered = re.findall(r"^(\d+)\. ", gm.path.read_text(encoding="utf-8"), flags=re.M)
    assert len(numbered) + sum(1 for e in table.log if e.kind == "note") == gm.count


def test_the_magic_reports_the_real_count(ip, tmp_path):
    from gamekernel.magic_base import current_session

    ip.run_line_magic("note", "Into the woods")
    ip.run_line_magic("roll", "1d6 torch")
    ip.run_line_magic("roll", "1d6 hidden --secret")
    result = ip.run_line_magic("log", f"export {tmp_path / 'story.md'} --players")
    assert repr(result) == t("core.log.exported_story", count=2, path=tmp_path / "story.md")
    result = ip.run_line_magic("log", f"export {tmp_path / 'gm.md'}")
    assert repr(result) == t("core.log.exported", count=len(current_session().log), path=tmp_path / "gm.md")


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_written_files_respect_the_umask(table, tmp_path, mask):
    old = os.umask(mask)
    try:
        path = table.log_write(tmp_path / f"story-{mask:o}.md", players=True).path
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask


def test_the_story_speaks_japanese(table, tmp_path):
    set_language("ja")
    try:
        md = _files(table, tmp_path)["story.md"]
    finally:
        set_language("en")
    assert md.splitlines()[0] == "# Sunken Gate — 第1回セッション"
    assert "## 戦闘：Kaito, Rat" in md and "Kaitoの" in md
