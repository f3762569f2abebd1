"""Events are stamped with UTC milliseconds in `datetime.isoformat` form; the seconds part is
formatted once per second (for speed), which must not change a single stamp."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gamekernel import events


@pytest.mark.parametrize("nanoseconds", [
    0,  # the epoch
    1_796_060_977_357_000_000,  # 2026-12-01T17:49:37.357
    1_796_060_977_999_999_999,  # the last millisecond of a second (never rounded up)
    1_796_060_978_000_000_000,  # the next second: a new prefix
    1_796_060_977_001_000_000,  # back to the earlier second (a clock step): formatted again
    4_102_444_799_999_000_000,  # 2099-12-31T23:59:59.999
])
def test_the_stamp_is_datetimes_isoformat(monkeypatch, nanoseconds):
    monkeypatch.setattr(events.time, "time_ns", lambda: nanoseconds)
    expected = datetime.fromtimestamp(nanoseconds // 1_000_000 / 1000, UTC).isoformat(timespec="milliseconds")
    assert events.now_iso() == expected


def test_the_stamps_follow_the_clock_across_seconds(monkeypatch):
    clock = iter([5_000_999_000_000, 5_001_000_000_000, 5_001_500_000_000])
    monkeypatch.setattr(events.time, "time_ns", lambda: next(clock))
    assert [events.now_iso()[17:23] for _ in range(3)] == ["20.999", "21.000", "21.500"]


def test_a_millisecond_stamped_again_gives_the_same_text_and_a_new_one_its_own(monkeypatch):
    # the text is kept for the last millisecond: within it the same stamp, after it never a stale one
    clock = iter([7_000_123_100_000, 7_000_123_900_000, 7_000_124_000_000, 7_000_123_000_000, 7_001_123_000_000])
    monkeypatch.setattr(events.time, "time_ns", lambda: next(clock))
    stamps = [events.now_iso()[17:23] for _ in range(5)]
    assert stamps == ["40.123", "40.123", "40.124", "40.123", "41.123"]
