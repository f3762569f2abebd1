"""Words a user reads that said something stale or twice: each fixed line, as the log and results show it."""

from __future__ import annotations

import re


def _log_lines(ip) -> list[str]:
    return str(ip.run_line_magic("log", "")).splitlines()


def test_the_log_says_a_kind_once(ip):
    """`%log`: "seed 7", not "seed seed 7"; "note The party...", not "note note: The party..."."""
    ip.run_line_magic("seed", "7")
    ip.run_line_magic("note", "The party enters")
    lines = _log_lines(ip)
    assert re.search(r"\bseed\s+7$", lines[-2]) and "seed seed" not in lines[-2], lines
    assert re.search(r"\bnote\s+The party enters$", lines[-1]) and "note: " not in lines[-1], lines
    from gamekernel.magics import current_session
    from gamekernel.render.log import export_markdown

    exported = export_markdown(current_session().log)
    assert "**seed** — 7" in exported and "seed 7" not in exported.replace("**seed** — 7", "")


def test_beside_kind_keeps_a_line_that_does_not_repeat_it():
    from gamekernel.render.log import beside_kind

    assert beside_kind("seed", "seed 7") == "7"
    assert beside_kind("combat: next turn", "next turn: Al (after Bob)") == "Al (after Bob)"
    assert beside_kind("GURPS sheet", "Bob: shield DB 0 → 2") == "Bob: shield DB 0 → 2"
    assert beside_kind("note", "notebook found") == "notebook found"  # a word that only starts alike
    assert beside_kind("note", "note") == "note"  # nothing left: the line as it was


def test_a_shield_edit_is_named_in_words(ip):
    """GURPS-DEF (Block): `%char set db=2` is logged as "shield DB 0 → 2", never the field's key."""
    ip.run_line_magic("char", "new Bob")
    ip.run_line_magic("char", "set db=2")
    line = _log_lines(ip)[-1]
    assert "shield DB 0 → 2" in line and "shield_db" not in line, line


def test_a_lone_fighters_next_turn_is_not_after_himself(ip):
    """GURPS-CMB turn order: with one fighter left the turn passes to him again: no "(after Bob)"."""
    ip.run_line_magic("char", "new Bob")
    ip.run_line_magic("combat", "start Bob")
    ip.run_line_magic("next", "")
    line = _log_lines(ip)[-1]
    assert line.endswith("Bob") and "after" not in line, line


def test_a_fresh_hand_shows_no_gm_deck_count_before_there_is_one(ip):
    """GW-ALPHA: before the GM deck is set up it is "–", not an empty deck of 0."""
    ip.run_line_magic("gw", "new Rin")
    text = str(ip.run_line_magic("hand", "Rin"))
    assert "GM deck –" in text and "GM deck 0" not in text, text


def test_a_comparison_is_stated_once(ip):
    """`%roll 1d20+5 >= 15`: the roll's text, its log line and its picture each state the comparison once."""
    result = ip.run_line_magic("roll", "1d20+5 >= 15")
    assert str(result).count(">= 15") == 1, str(result)
    assert result.breakdown.count(">= 15") == 1, result.breakdown
    html = re.sub(r"<[^>]+>", " ", result._repr_html_()).replace("&gt;", ">")
    assert html.count(">= 15") + html.count(">  15") <= 1 and html.count(">") == 1, html
    assert _log_lines(ip)[-1].count(">= 15") == 1


def test_the_repair_plan_counts_sessions_in_words():
    from gamekernel.i18n import t

    assert t("campaign.repair.index", index="campaign.json", sessions=1) == "write campaign.json: 1 session"
    assert t("campaign.repair.index", index="campaign.json", sessions=2) == "write campaign.json: 2 sessions"


def test_example_04_names_the_hands_buttons():
    """The Gamma World example tells a reader the hand's controls as the widget draws them (GW-ALPHA)."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    notebook = json.loads((root / "example_notebooks" / "04-gamma-world-alpha-mutations.ipynb").read_text("utf-8"))
    prose = " ".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    front = (root / "widgets" / "gammaworld" / "hand.js").read_text("utf-8")
    assert "click a card to tap it" not in prose
    assert "Tap button" in prose and "Overcharge button" in prose
    assert '"gk-tap"' in front and '"gk-overcharge"' in front  # the buttons the prose names


def test_a_widget_whose_subject_is_undone_says_so(ip, tmp_path):
    """MTG-CHK (a library), GW-ALPHA (a hand): `%undo` of what a live widget shows makes it say what took it
    away and that it shows the past, instead of a count that is no longer true without a word."""
    deck = tmp_path / "mira.txt"
    deck.write_text("20 Forest\n4 Llanowar Elves\n", encoding="utf-8")
    ip.run_line_magic("library", f"load Mira {deck}")
    library = ip.run_line_magic("library", "show @Mira")
    assert library.error == ""
    undo = ip.run_line_magic("undo", "")
    assert "Mira" in str(undo)  # %undo names what it takes back
    assert library.error.startswith("gone since event ") and "(undo " in library.error, library.error
    assert "'Mira' has no library" in library.error and "as it was" in library.error
    ip.run_line_magic("gw", "new Rin")
    hand = ip.run_line_magic("hand", "Rin")
    ip.run_line_magic("undo", "")
    assert hand.error.startswith("gone since event ") and "Rin" in hand.error, hand.error


def test_an_undo_line_stays_a_sentence():
    from gamekernel.render.log import beside_kind

    assert beside_kind("undo", "undo of 2 (note: oops)") == "undo of 2 (note: oops)"
    assert beside_kind("seed", "seed seven") == "seed seven"  # not a number: left as written
