"""Build gamekernel/gurps/data/basic_skills.json: the Basic Set's skills as facts.

Reads `Library/Basic Set/Basic Set Skills.skl` of a GCS library folder (GCS's master library is
MPL-2.0) and writes, per skill, only facts: name, controlling attribute, difficulty, defaults,
specialties, tags (categories) and the page reference. No descriptive text, no notes. Techniques
(difficulty relative to another skill) are left out: they are not bought with an attribute.

Usage:
    python tools/build_gurps_skill_facts.py PATH_TO_GCS_LIBRARY [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "gamekernel" / "gurps" / "data" / "basic_skills.json"
SKILLS_FILE = Path("Library") / "Basic Set" / "Basic Set Skills.skl"
ATTRIBUTES = {"st": "ST", "dx": "DX", "iq": "IQ", "ht": "HT", "will": "Will", "per": "Per"}


def _plain(value: Any) -> str:
    """Names may be criteria objects in newer files: {"compare": "is", "qualifier": "Finance"}."""
    if isinstance(value, dict):
        return str(value.get("qualifier", ""))
    return str(value or "")


def _rows(rows: list[Any]):
    for row in rows or []:
        if isinstance(row, dict):
            if row.get("children") is not None:
                yield from _rows(row["children"])
            else:
                yield row


def _default(d: dict[str, Any]) -> dict[str, Any] | None:
    kind = str(d.get("type", ""))
    modifier = int(d.get("modifier", 0) or 0)
    if kind in ATTRIBUTES:
        return {"from": ATTRIBUTES[kind], "modifier": modifier}
    if kind == "skill":
        name = _plain(d.get("name"))
        spec = _plain(d.get("specialization"))
        if spec and "@" not in spec:
            name = f"{name} ({spec})"
        return {"from": name, "modifier": modifier}
    return None


def build(library: Path) -> dict[str, Any]:
    """Facts of every Basic Set skill, one entry per (name, attribute, difficulty)."""
    data = json.loads((library / SKILLS_FILE).read_text(encoding="utf-8"))
    entries: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in _rows(data.get("rows") or []):
        attribute, _, difficulty = str(row.get("difficulty", "")).partition("/")
        if attribute not in ATTRIBUTES or not difficulty:
            continue  # techniques
        name = str(row["name"]).strip()
        key = (name, ATTRIBUTES[attribute], difficulty.upper())
        entry = entries.setdefault(key, {
            "name": name, "attribute": ATTRIBUTES[attribute], "difficulty": difficulty.upper(),
            # a default from another specialty of the same skill is left out (it needs the specialty)
            "defaults": [d for d in (_default(x) for x in row.get("defaults") or []) if d and d["from"] != name],
            "specialties": [], "tags": list(row.get("tags") or []), "ref": str(row.get("reference", "")),
        })
        spec = str(row.get("specialization", "") or "").strip()
        if spec and "@" not in spec and spec not in entry["specialties"]:
            entry["specialties"].append(spec)
    skills = sorted(entries.values(), key=lambda e: (e["name"].casefold(), e["attribute"], e["difficulty"]))
    for entry in skills:
        if not entry["specialties"]:
            del entry["specialties"]
    return {"source": "GCS master library, Basic Set Skills.skl (MPL-2.0): facts only", "skills": skills}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path, help="a GCS library folder (with Library/Basic Set/...)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    facts = build(args.library)
    text = json.dumps(facts, ensure_ascii=False, separators=(",", ":"))
    text = text.replace('{"name"', '\n{"name"')
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"{len(facts['skills'])} skills -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
