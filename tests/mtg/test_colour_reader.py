"""One reader of the MtG check colour (MTG-CHK-02): `read_check` decides whether `%check`/`%odds check`
is MtG's and `parse_check_spec` reads kind and difficulty from what it read, the same for every form
(`green 2`, `2 green`, `赤：2`, `グリーン2`), and the table dashboard's check reaches the same state."""

from __future__ import annotations

import pytest

from gamekernel.magics import current_session
from gamekernel.mtg.rules.kinds import parse_check_spec, read_check
from gamekernel.table.widget import TableDashboard

DECK = "4 Elvish Mystic\n4 Runeclaw Bear\n12 Forest\n4 Steam Vents\n4 Ornithopter\n"


@pytest.mark.parametrize(("line", "kind", "difficulty"), [
    ("green 2", "green", 2), ("G2", "green", 2), ("2 green", "green", 2), ("3 G", "green", 3),
    ("赤：2", "red", 2), ("赤:2", "red", 2), ("グリーン2", "green", 2), ("ｸﾞﾘｰﾝ 4", "green", 4),
    ("緑判定[2]", "green", 2), ("Green [2]", "green", 2), ("カラーレス 3", "colourless", 3), ("無色0", "colourless", 0),
])
def test_mtg_chk_02_every_form_of_a_check_is_read_by_the_one_reader(line: str, kind: str, difficulty: int) -> None:
    # MTG-CHK-02: a check names its kind (a colour or colourless) and a difficulty
    assert read_check(line) is not None
    assert parse_check_spec(line) == (kind, difficulty)


@pytest.mark.parametrize("line", ["Black Market", "Lockpicking-5", "12", "ST", "Per+2", "12 Lockpicking", ""])
def test_gurps_lines_are_not_read_as_mtg_checks(line: str) -> None:
    assert read_check(line) is None


@pytest.fixture
def mira(ip, tmp_path):
    path = tmp_path / "mira.txt"
    path.write_text(DECK, encoding="utf-8")
    ip.run_line_magic("library", f"load Mira {path}")
    return current_session()


@pytest.mark.parametrize(("line", "kind", "difficulty"), [
    ("2 green @Mira", "green", 2), ("グリーン2", "green", 2), ("赤：2 @Mira", "red", 2), ("ブルー 3", "blue", 3),
])
def test_check_understands_the_difficulty_first_katakana_and_a_full_width_colon(mira, ip, line, kind,
                                                                                 difficulty) -> None:
    result = ip.run_line_magic("check", line)
    assert "target" in str(result), str(result)
    event = mira.log[-1]
    result = event.data["result"]
    assert event.kind == "mtg.check" and (result["kind"], result["difficulty"]) == (kind, difficulty)
    odds = ip.run_line_magic("odds", f"check {line}")
    assert "success" in str(odds), str(odds)


def test_a_number_word_after_a_colour_gets_mtgs_error_not_gurps(mira, ip) -> None:
    before = len(mira.log)
    message = repr(ip.run_line_magic("check", "green two"))
    assert message.startswith("error: cannot read the check 'green two'") and "active character" not in message
    assert len(mira.log) == before


def test_the_dashboards_check_and_the_magic_give_the_same_state(mira, ip, tmp_path) -> None:
    from gamekernel import Session

    # MTG-CHK-02: `%check 2 green` and the dashboard's green check at 2 are the same check
    ip.run_line_magic("check", "2 green @Mira")
    other = Session(seed=1)
    other.reseed(1)
    other.mtg.library_load("Mira", tmp_path / "mira.txt")
    TableDashboard(other).handle_action("check", {"name": "Mira", "kind": "グリーン", "difficulty": "2"})
    assert [e.kind for e in other.log[-2:]] == [e.kind for e in mira.log[-2:]] == ["mtg.library", "mtg.check"]
    assert other.log[-1].data == mira.log[-1].data and other.log[-1].actor == mira.log[-1].actor
