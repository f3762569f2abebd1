"""No output depends on the day, the zone or the locale it is produced in.

A players' story is headed by the session's own date (`%campaign date`, or `--date` on export, or the
UTC day of the session's first stamp), never by the day it is exported; a repair's plan names its
set-aside folder by number, not by the clock. CI also runs every example notebook under a moved clock
and other zones (Makefile `test-any-day`); these tests pin the parts one by one.
"""

from __future__ import annotations

import time

import pytest

from gamekernel import Session
from gamekernel.errors import UsageError
from gamekernel.render.story import tell

DAY_2031 = 1_930_000_000  # 2031-02-27 in UTC
LATE_UTC = 1_764_547_199  # 2025-11-30T23:59:59Z: already 1 December in Kiritimati (UTC+14)


@pytest.fixture
def clock(monkeypatch):
    """Move the session's clock: `clock(seconds)` sets the wall clock every later stamp reads."""
    now = [0]

    def set_to(seconds: int) -> None:
        now[0] = seconds * 1_000_000_000

    monkeypatch.setattr(time, "time_ns", lambda: now[0])
    return set_to


def _story(s: Session, tmp_path, **kwargs) -> str:
    path = tmp_path / "story.md"
    s.log_write(path, players=True, **kwargs)
    return path.read_text(encoding="utf-8")


def test_a_dated_session_tells_the_same_story_on_any_day(clock, tmp_path):
    texts = []
    for seconds in (LATE_UTC, DAY_2031):
        clock(seconds)
        s = Session(seed=3)
        s.campaign_open(tmp_path / f"c{seconds}" / "crypt")
        s.session_date("2026-11-30")
        s.roll("3d6 stairs")
        clock(seconds + 86_400 * 400)  # exported long after
        texts.append(_story(s, tmp_path))
        s.campaign_close()
    assert texts[0] == texts[1]
    assert "*2026-11-30*" in texts[0]


def test_without_a_date_the_story_shows_the_utc_day_of_the_sessions_first_stamp(clock, tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")
    time.tzset()
    try:
        clock(LATE_UTC)
        s = Session(seed=3)
        s.roll("3d6")
        clock(LATE_UTC + 86_400 * 3)
        assert tell(s.log).date == "2025-11-30"
        assert "*2025-11-30*" in _story(s, tmp_path)
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_the_export_date_wins_and_the_last_session_date_counts(tmp_path):
    s = Session(seed=3)
    s.session_date("2026-11-30")
    s.session_date("2026-12-01")
    s.roll("3d6")
    assert tell(s.log).date == "2026-12-01"
    assert "*1999-01-02*" in _story(s, tmp_path, date="1999-01-02")
    s.undo(2)  # the second date, then the roll: the first date is in effect again
    assert tell(s.log).date == "2026-11-30"


def test_a_second_session_has_its_own_date(tmp_path):
    s = Session(seed=3)
    s.campaign_open(tmp_path / "crypt")
    s.session_date("2026-11-30")
    s.campaign_close()
    s = Session(seed=3)
    s.campaign_open(tmp_path / "crypt")
    s.session_date("2026-12-07")
    assert tell(s.log).date == "2026-12-07"
    s.campaign_close()


BAD_DATES = ["30/11/2026", "2026-13-01", "2026-02-30", "tomorrow", "", "2026-1-1", "１９９９-01-01"]


@pytest.mark.parametrize("bad", BAD_DATES)
def test_a_bad_date_is_one_line_and_records_nothing(bad, tmp_path):
    s = Session(seed=3)
    before = len(s.log)
    with pytest.raises(UsageError) as error:
        s.session_date(bad)
    assert "YYYY-MM-DD" in str(error.value) and "\n" not in str(error.value)
    with pytest.raises(UsageError):
        s.log_write(tmp_path / "story.md", players=True, date=bad)
    assert len(s.log) == before and not (tmp_path / "story.md").exists()


def test_the_magics_date_a_session_and_an_export(ip, tmp_path):
    ip.run_line_magic("seed", "5")
    shown = ip.run_line_magic("campaign", "date 2026-11-30")
    assert repr(shown) == "this session is dated 2026-11-30"
    ip.run_line_magic("roll", "3d6")
    ip.run_line_magic("log", f"export {tmp_path / 'a.md'} --players")
    ip.run_line_magic("log", f"export {tmp_path / 'b.md'} --players --date=2030-01-02")
    assert "*2026-11-30*" in (tmp_path / "a.md").read_text(encoding="utf-8")
    assert "*2030-01-02*" in (tmp_path / "b.md").read_text(encoding="utf-8")
    assert "session dated 2026-11-30" in repr(ip.run_line_magic("log", ""))


def test_a_repair_plan_names_numbered_folders_not_the_clock(tmp_path, clock):
    from gamekernel.campaign_repair import aside_folder

    clock(DAY_2031)
    assert aside_folder(tmp_path) == "damaged-1"
    (tmp_path / "damaged-1").mkdir()
    (tmp_path / "damaged-2").mkdir()
    assert aside_folder(tmp_path) == "damaged-3"
