"""The tone of an HP or FP bar (GURPS-INJ-01..04, GURPS-FAT-01..03) has one source: the saved bar and the
live tracker's rows both take it from `bar_tone`, over the states the rules name; the tracker's script
holds no colours of its own (the theme's variables colour it, tests/browser/test_tracker_theme.py)."""

from __future__ import annotations

import re
from pathlib import Path

from gamekernel import Session
from gamekernel.display.html import ACCENTS
from gamekernel.gurps.combat_render import FP_TONES, HP_TONES, bar_tone, hp_bar
from gamekernel.gurps.rules.fatigue import FP_STATES
from gamekernel.gurps.rules.injury import HP_STATES
from gamekernel.gurps.widgets.tracker import _rows

SCRIPT = Path(__file__).resolve().parents[2] / "widgets" / "gurps" / "tracker.js"
THEME = Path(__file__).resolve().parents[2] / "widgets" / "theme.css"


def test_every_state_the_rules_name_has_a_tone_of_the_palette():
    assert tuple(HP_TONES) == HP_STATES and tuple(FP_TONES) == FP_STATES
    assert set(HP_TONES.values()) | set(FP_TONES.values()) <= set(ACCENTS)
    theme = THEME.read_text(encoding="utf-8")
    for tone in {*HP_TONES.values(), *FP_TONES.values(), "neutral"}:
        assert f"--gk-{tone}:" in theme, tone  # the live bar's `var(--gk-<tone>)` exists in every widget


def test_tones_by_state():
    assert [bar_tone("hp", s) for s in ("healthy", "reeling", "collapse", "dying4", "dead")] == [
        "good", "warn", "bad", "awful", "muted"]
    assert [bar_tone("fp", s) for s in ("rested", "tired", "collapse", "unconscious")] == [
        "great", "warn", "bad", "awful"]
    assert bar_tone("hp", "unknown") == "neutral"


def test_the_live_rows_carry_the_saved_bars_tone():
    s = Session(seed=4)
    s.combat.start("Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Goblin{ST=9,DX=12,HT=11,HP=9}")
    s.combat.damage("Goblin", "7 cr")  # 2 HP of 9 left: reeling (GURPS-INJ-01)
    rows = _rows(s.combat.state)
    goblin, aiko = rows["Goblin"], rows["Aiko"]
    assert (goblin["hp_state"], goblin["hp_tone"]) == ("reeling", "warn")
    assert (aiko["hp_tone"], aiko["fp_tone"]) == ("good", "great")
    saved = hp_bar(goblin["hp"], goblin["hp_max"], goblin["hp_state"], "hp")
    assert f"solid {ACCENTS['warn']}" in saved


def test_the_tracker_script_has_no_palette_of_its_own():
    script = SCRIPT.read_text(encoding="utf-8")
    assert not re.search(r"#[0-9a-fA-F]{3,8}\b", script)
    assert "TONES" not in script and "var(--gk-${tone" in script
