"""Every roll a combat step makes inside itself is a line of `%log`, `%explain`, the players' story and
the exports, in English and Japanese: the HT roll to stay conscious before a maneuver (GURPS-INJ-02),
the knockdown roll after a major wound (GURPS-INJ-07), death checks (GURPS-INJ-03), the Will-3 roll to
keep concentrating (GURPS-CMB-23), the Will roll to act at FP <= 0 (GURPS-FAT-02)."""

from __future__ import annotations

import pytest

from gamekernel import i18n
from gamekernel.magics import current_session


@pytest.fixture
def hurt(ip):
    """Aiko takes 13 on HP 11: a major wound (knockdown roll); at her turn, the roll to stay conscious."""
    ip.run_line_magic("seed", "7")
    ip.run_line_magic("combat", "start Aiko{ST=11,DX=13,HT=12,weapon=Sword:14:sw cut} Orc{ST=12,DX=11,HT=11}")
    s = current_session()
    s.combat.damage("Aiko", "13 cr")
    while s.combat.state.current.name != "Aiko":
        s.combat.next()
    ip.run_line_magic("maneuver", "Aiko attack")
    return s


def _seq(s, op: str) -> int:
    return next(e.seq for e in s.log if e.kind == f"combat.{op}")


def test_gurps_inj_02_07_the_log_holds_the_inner_rolls(ip, hurt) -> None:
    log = str(ip.run_line_magic("log", ""))
    damage_line = next(line for line in log.splitlines() if "13 cr" in line)
    maneuver_line = next(line for line in log.splitlines() if "Attack" in line)
    assert "knockdown 12 · rolled 9 [3,2,4]" in damage_line  # GURPS-INJ-07
    assert "stay conscious 12 · rolled 8 [6,1,1]" in maneuver_line  # GURPS-INJ-02
    i18n.set_language("ja")
    log_ja = str(ip.run_line_magic("log", ""))
    assert "転倒判定 12 · 出目9 [3,2,4]" in log_ja and "意識を保つ 12 · 出目8 [6,1,1]" in log_ja


def test_explain_works_the_inner_rolls(ip, hurt) -> None:
    damage = str(ip.run_line_magic("explain", str(_seq(hurt, "damage"))))
    assert "knockdown, rolled inside this step (GURPS-INJ-07" in damage and "3d6 = 9 [3,2,4] ≤ 12" in damage
    maneuver = str(ip.run_line_magic("explain", str(_seq(hurt, "maneuver"))))
    assert "Aiko: stay conscious, rolled inside this step (GURPS-INJ-02" in maneuver
    assert "3d6 = 8 [6,1,1] ≤ 12" in maneuver
    i18n.set_language("ja")
    ja = str(ip.run_line_magic("explain", str(_seq(hurt, "maneuver"))))
    assert "この手順の中での判定" in ja and "［6,1,1］" in ja


def test_the_story_and_the_exports_hold_the_inner_rolls(ip, hurt, tmp_path) -> None:
    ip.run_line_magic("log", f"export {tmp_path / 'gm.md'}")
    ip.run_line_magic("log", f"export {tmp_path / 'story.md'} --players")
    gm, story = (tmp_path / "gm.md").read_text(encoding="utf-8"), (tmp_path / "story.md").read_text(encoding="utf-8")
    for text in (gm, story):
        assert "knockdown 12" in text and "stay conscious 12" in text
    assert "stay conscious 12 · rolled 8" in story and "odds" not in story  # the players see no odds


def test_a_refused_step_records_no_rolls(ip, hurt) -> None:
    events = len(hurt.log)
    ip.run_line_magic("maneuver", "Aiko attack")  # one maneuver a turn: refused
    assert len(hurt.log) == events
