"""The independent GCS oracle (`tools/gcs_compare.py`) can fail: a character file whose own numbers the
table agrees with shows no difference, and the same file with GCS's numbers changed shows exactly
those, read back from the magics' printed output in a shell of its own (a subprocess: the tool loads
and unloads the extension). A weapon's Parry (GURPS-CMB-46) and the Dodge (GURPS-CH-10) are
differences; a skill level (GURPS-SR-04) the importer computes otherwise is taken from the file at
load, so the table agrees and the tool counts it apart as adopted (`%char diff` names it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
AIKO = PROJECT / "tests" / "gurps" / "data" / "aiko.gcs"


def _differences(path: Path, tmp_path: Path) -> dict:
    out = tmp_path / "differences.json"
    done = subprocess.run([sys.executable, str(PROJECT / "tools" / "gcs_compare.py"), str(path), "--json", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "1 played, 0 refused" in done.stdout
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_oracle_agrees_with_a_file_and_finds_the_numbers_changed_in_it(tmp_path: Path) -> None:
    assert _differences(AIKO, tmp_path) == {"differences": [], "adopted": []}
    data = json.loads(AIKO.read_text(encoding="utf-8"))
    skill = next(row for row in data["skills"] if (row.get("calc") or {}).get("level") is not None)
    skill["calc"]["level"] += 1
    usage = next(w for row in data["equipment"] for w in row.get("weapons") or []
                 if str((w.get("calc") or {}).get("parry", "")).strip()[:1].isdigit())
    usage["calc"]["parry"] = str(int(usage["calc"]["parry"].rstrip("FU")) + 2)
    data["calc"]["dodge"] = [value - 1 for value in data["calc"]["dodge"]]
    changed = tmp_path / "aiko_changed.gcs"
    changed.write_text(json.dumps(data), encoding="utf-8")
    result = _differences(changed, tmp_path)
    found = result["differences"]
    assert sorted(row["what"] for row in found) == sorted(
        ["Dodge (%check)", "Dodge (fight)", "Dodge (sheet)", "dodge (%char)", usage_name(found), usage_name(found)])
    assert sorted(row["kind"] for row in found if "odge" not in row["what"]) == ["fight parry", "sheet parry"]
    assert all(row["class"] == "unexplained" and row["table"] == row["gcs"] + (1 if "odge" in row["what"] else -2)
               for row in found)
    assert result["adopted"] == [f"aiko_changed.gcs: {skill['name']}: GCS {skill['calc']['level']}, "
                                 f"ours {skill['calc']['level'] - 1} — using GCS"]


def usage_name(found: list[dict]) -> str:
    """The one weapon named among the differences (the tool's name for the usage changed)."""
    names = {row["what"] for row in found if "parry" in row["kind"]}
    assert len(names) == 1, names
    return names.pop()
