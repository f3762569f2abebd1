"""Measure, at the play layer, every number a GM sees or rolls for the characters of a GCS library.

    python tools/measure_gcs_play.py PATH [--list N] [--kind KIND]
    GCS_LIBRARY=PATH python tools/measure_gcs_play.py

Loads each `.gcs` file under PATH as `%char load` does (`Session().gurps_char_load`), then reads
each value where the table uses it: the sheet's attributes and secondary characteristics, what
`%check` rolls against for each skill, technique and spell, `%fright`'s target and the sense rolls,
the fight's Dodge/Parry/Block (a combatant made as `%combat add` makes it, its usual defences),
each weapon's level and the damage `%attack` rolls, the point total, Basic Lift and encumbrance.
Each is compared with the value the file carries (GCS's own `calc`). Prints the agreement, the
files refused, and the differences grouped by kind and by cause. Measuring the importer's internal
recomputation is tools/measure_gcs_library.py; this one measures what reaches the table.
The library is never part of the project: give its path, CI does not run this.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import traceback
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gamekernel.errors import GameKernelError
from gamekernel.gurps.combat_actions import combatant_from_character
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules.characters import encumbrance_level
from gamekernel.gurps.rules.damage import parse_damage
from gamekernel.gurps.rules.gcs import weapon_rows
from gamekernel.gurps.rules.gcs.calc import weight_lb
from gamekernel.session import Session

Row = tuple[str, str, Any, Any]  # (kind, label, the file's value, ours at the table)
ATTRIBUTES = ("st", "dx", "iq", "ht", "will", "per", "hp", "fp", "basic_speed", "basic_move")
SENSES = {"fright_check": "Fright Check", "vision": "Vision", "hearing": "Hearing",
          "taste_smell": "Taste/Smell", "touch": "Touch"}


def _plain(value: Any) -> Any:
    """7.0 -> 7, so a whole Basic Speed compares with the file's 7."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _spaced(text: str) -> str:
    """GCS's "2d+1 cut" and ours compare without spacing or case."""
    return re.sub(r"\s+", "", str(text)).casefold()


def attribute_rows(data: dict[str, Any], ch: Any, session: Session) -> Iterator[Row]:
    """Attributes and secondary characteristics as the sheet shows them; Fright Check and the senses
    as `%fright` and `%check Vision` roll them."""
    calc = {a.get("attr_id"): (a.get("calc") or {}).get("value") for a in data.get("attributes") or []
            if isinstance(a, dict)}
    for key in ATTRIBUTES:
        if calc.get(key) is not None:
            yield "attribute", key, _plain(calc[key]), _plain(getattr(ch, key))
    for key, spec in SENSES.items():
        if calc.get(key) is not None:
            yield "sense", key, calc[key], session.gurps_check_target(spec, actor=ch.name)


def _leaves(rows: Any) -> Iterator[dict[str, Any]]:
    for row in rows or []:
        if not isinstance(row, dict):
            continue
        if row.get("children") is not None or str(row.get("type", "")).endswith("_container"):
            yield from _leaves(row.get("children"))
        else:
            yield row


def skill_rows(data: dict[str, Any], ch: Any, session: Session) -> Iterator[Row]:
    """Each skill, technique and spell with a level in the file, against what `%check` rolls."""
    from gamekernel.gurps.rules.gcs.features import substitute

    for group in ("skills", "spells"):
        for row in _leaves(data.get(group)):
            level = (row.get("calc") or {}).get("level")
            if level is None:
                continue
            name = substitute(str(row.get("name", "?")), row.get("replacements"))
            spec = substitute(str(row.get("specialization", "") or ""), row.get("replacements"))
            full = f"{name} ({spec})" if spec else name
            kind = "spell" if group == "spells" else ("technique" if "/" not in str(row.get("difficulty", ""))
                                                       else "skill")
            entry = ch.find_skill_entry(full)
            try:
                ours = ch.skill_level(entry.full_name if entry else full).level
            except GameKernelError:
                ours = None
            yield kind, full, int(level), ours


def fight_rows(data: dict[str, Any], ch: Any) -> Iterator[Row]:
    """Dodge, and each weapon's level, damage, Parry and Block, as the fight offers them to a combatant
    made from the sheet (what `%attack` and `%defend` roll)."""
    c = combatant_from_character(ch)
    state = cb.start_combat([c], dice=cb.Tape(faces=[10] * 12)) if hasattr(cb, "start_combat") else None
    usual = cb.effective_defenses(state, c.name) if state is not None else {}
    dodges = (data.get("calc") or {}).get("dodge")
    if isinstance(dodges, list) and dodges:
        level = encumbrance_level_of(data)
        yield "dodge", "Dodge", int(dodges[min(level, len(dodges) - 1)]), usual.get("dodge", (None,))[0]
    by_name = {w.name: w for w in c.weapons}
    for name, row in weapon_rows(data):
        wc = row.get("calc") or {}
        weapon = by_name.get(name)
        if wc.get("level") is not None:
            yield "weapon level", name, int(wc["level"]), None if weapon is None else weapon.skill
        if wc.get("damage"):
            yield "damage", name, _spaced(wc["damage"]), None if weapon is None else _spaced(rolled_damage(weapon, c))
        parry = _leading_int(wc.get("parry"))
        if parry is not None:
            yield "parry", name, parry, None if weapon is None else usual_parry(state, c, weapon)
        block = _leading_int(wc.get("block"))
        if block is not None:
            yield "block", name, block, usual.get("block", (None,))[0]


def rolled_damage(weapon: Any, c: Any) -> str:
    """The basic damage `%attack` rolls with this weapon for this combatant."""
    return str(cb.weapon_damage(weapon, c)) if hasattr(cb, "weapon_damage") else str(parse_damage(weapon.damage,
                                                                                                  st=c.st))


def usual_parry(state: Any, c: Any, weapon: Any) -> int | None:
    """The Parry `%defend parry` offers with this weapon against an ordinary attack."""
    if weapon.parry is None or weapon.ranged:
        return None
    only = cb.copy_with(c, weapons=(weapon,))
    return cb.effective_defenses(state.put(only), c.name).get("parry", (None,))[0]


def _leading_int(value: Any) -> int | None:
    match = re.match(r"\s*([+-]?\d+)", str(value or ""))
    return int(match.group(1)) if match else None


def encumbrance_level_of(data: dict[str, Any]) -> int:
    """GCS's encumbrance level: the carried weight against the file's own Basic Lift."""
    lift = weight_lb((data.get("calc") or {}).get("basic_lift"))
    carried = sum(weight_lb((row.get("calc") or {}).get("extended_weight") or 0)
                  for row in data.get("equipment") or [] if isinstance(row, dict))
    return min(4, encumbrance_level(carried, lift)) if lift else 0


def load_rows(data: dict[str, Any], ch: Any) -> Iterator[Row]:
    """Basic Lift (the file's lb at the seed's 1 lb = 0.5 kg), encumbrance level, thrust/swing and the
    point total the sheet shows."""
    calc = data.get("calc") or {}
    if calc.get("basic_lift"):
        yield "basic lift", "Basic Lift", _plain(weight_lb(calc["basic_lift"]) / 2), _plain(ch.basic_lift)
        yield "encumbrance", "encumbrance", encumbrance_level_of(data), min(4, ch.encumbrance)
    for key in ("thrust", "swing"):
        if calc.get(key):
            yield "thrust/swing", key, _spaced(calc[key]), _spaced(getattr(ch, key))
    spent = gcs_spent(data)
    if spent is not None:
        yield "points", "points spent", spent, ch.points().total


def gcs_spent(data: dict[str, Any]) -> int | None:
    """The points GCS counts as spent: attributes and top-level traits (their calc, containers
    included), every skill, technique and spell row."""
    total = 0
    for row in data.get("attributes") or []:
        total += int((row.get("calc") or {}).get("points", 0) or 0)
    for row in data.get("traits") or []:
        if isinstance(row, dict) and not row.get("disabled"):
            total += int((row.get("calc") or {}).get("points", 0) or 0)
    for group in ("skills", "spells"):
        total += sum(int(row.get("points", 0) or 0) for row in _leaves(data.get(group)))
    return total


def measure(path: Path) -> list[Row]:
    """Every compared value of one file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    session = Session()
    ch = session.gurps_char_load(path)
    rows = [*attribute_rows(data, ch, session), *skill_rows(data, ch, session), *fight_rows(data, ch),
            *load_rows(data, ch)]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, nargs="?", default=os.environ.get("GCS_LIBRARY"))
    parser.add_argument("--list", type=int, default=8, help="differences to list per kind")
    parser.add_argument("--kind", default="", help="list every difference of this kind")
    args = parser.parse_args(argv)
    if not args.path:
        parser.error("give the library's path (or set GCS_LIBRARY)")
    files = sorted(Path(args.path).rglob("*.gcs"))
    equal: Counter[str] = Counter()
    total: Counter[str] = Counter()
    differences: dict[str, list[str]] = defaultdict(list)
    files_differing: set[str] = set()
    refused: list[str] = []
    for path in files:
        try:
            rows = measure(path)
        except (GameKernelError, ValueError) as error:
            refused.append(f"{path.name}: {error}")
            continue
        except Exception:
            refused.append(f"{path.name}: TRACEBACK {traceback.format_exc().splitlines()[-1]}")
            continue
        for kind, label, gcs, ours in rows:
            total[kind] += 1
            if gcs == ours:
                equal[kind] += 1
            else:
                files_differing.add(path.name)
                differences[kind].append(f"{path.name}: {label}: GCS {gcs}, ours {ours}")
    print(f"{len(files)} character files, {len(files) - len(refused)} loaded, {len(refused)} refused")
    for line in refused:
        print("  refused:", line)
    for kind in sorted(total):
        print(f"{kind:14} {equal[kind]:6}/{total[kind]:<6} {100 * equal[kind] / total[kind]:6.2f}% equal")
    all_equal, all_total = sum(equal.values()), sum(total.values())
    if all_total:
        print(f"{'all':14} {all_equal:6}/{all_total:<6} {100 * all_equal / all_total:6.2f}% equal "
              f"({all_total - all_equal} differ, in {len(files_differing)} files)")
    for kind, lines in sorted(differences.items()):
        shown = lines if kind == args.kind else lines[: args.list]
        print(f"-- {kind}: {len(lines)} differences")
        for line in shown:
            print("  ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
