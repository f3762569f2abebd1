"""Over a whole GCS library (its path in the GCS_LIBRARY environment variable; skipped without it):
every weapon and attack a file lists reaches the table, and every armor divisor equals the file's.

The library is never part of the project; this reads it where the GM keeps it."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from gamekernel.gurps.gcs_play import play_comparisons
from gamekernel.session import Session

LIBRARY = os.environ.get("GCS_LIBRARY", "")
pytestmark = pytest.mark.skipif(not LIBRARY or not Path(LIBRARY).is_dir(), reason="set GCS_LIBRARY to a GCS library")
WEAPON_KINDS = ("damage", "weapon level", "parry", "block")


def _weapon_rows() -> list[tuple[str, str, str, object, object]]:
    rows = []
    for path in sorted(Path(LIBRARY).rglob("*.gcs")):
        data = json.loads(path.read_text(encoding="utf-8"))
        ch = Session().gurps_char_import(path).character
        rows += [(path.name, kind, what, gcs, ours) for kind, what, gcs, ours in play_comparisons(data, ch)
                 if kind in WEAPON_KINDS]
    return rows


def test_no_weapon_the_file_lists_is_missing_at_the_table_and_every_divisor_is_the_files():
    rows = _weapon_rows()
    missing = [row for row in rows if row[4] is None]
    assert not missing, missing[:5]
    divisors = [row for row in rows if row[1] == "damage" and _divisor(row[3])]
    assert divisors and [row for row in divisors if _divisor(row[4]) != _divisor(row[3])] == []


def _divisor(damage: object) -> str:
    """The "(2)" of a damage text ("" for none), whatever the dice around it."""
    found = re.search(r"\(([\d.]+)\)", str(damage))
    return found.group(1) if found else ""
