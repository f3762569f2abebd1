"""An independent oracle: every GCS character file of a library, played through the magics, against
the numbers GCS itself wrote into the file.

    python tools/gcs_compare.py PATH [--list N] [--kind KIND] [--only TEXT] [--json OUT]

Each `.gcs` file under PATH is loaded in a fresh IPython shell with `%load_ext gamekernel` and
`%char load`; what a GM sees is then read back from the printed output only: `%char` (its text and the
sheet's HTML tables), `%check` for every skill, technique, sense, Fright Check and Dodge, `%cast` (cost
0) for every spell, and a short fight against a dummy: the status line's Dodge/Parry/Block, `%attack`
with every weapon (its level and the damage dice rolled) and `%defend ... parry WEAPON` for every
weapon that parries. The other side of each comparison is GCS's own `calc` block (attributes, Basic
Lift, thrust/swing, Move and Dodge by encumbrance, skill and spell levels, each weapon's level, damage,
parry and block), read straight from the JSON.

This tool shares no code with gamekernel: it imports nothing of the package (the shell loads it as a
user would) and does no GURPS arithmetic beyond GCS's own encumbrance level, so a rule wrong in the
package cannot be wrong the same way here. tools/measure_gcs_play.py is the in-process measure that
`%char diff` shares; this is the check on it. The library is never part of the project: give its path.
Each difference is printed with its class when it is a known seed choice (the sheet's "seed rules" line
names each one), else as "unexplained".
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

DUMMY = "GcsOracleDummy"
ATTRIBUTES = {"st": "ST", "dx": "DX", "iq": "IQ", "ht": "HT", "will": "Will", "per": "Per", "hp": "HP",
              "fp": "FP", "basic_speed": "Basic Speed", "basic_move": "Basic Move"}
SENSES = {"vision": "Vision", "hearing": "Hearing", "taste_smell": "Taste/Smell", "touch": "Touch",
          "fright_check": "Fright Check"}
ENCUMBRANCE_WORDS = {"light": 1, "medium": 2, "heavy": 3, "extra-heavy": 4}


# -- the file's side: GCS's own numbers ----------------------------------------------------------------
def leaves(rows: Any) -> Iterator[dict[str, Any]]:
    """Rows of a GCS list, containers opened (a container's own row is not a skill or spell)."""
    for row in rows or []:
        if isinstance(row, dict):
            if row.get("children"):
                yield from leaves(row["children"])
            else:
                yield row


def fill(text: str, replacements: Any) -> str:
    """GCS's nameables: "Striker (@Body Part@)" shown with the row's replacement."""
    for key, value in (replacements or {}).items():
        text = text.replace(f"@{key}@", str(value))
    return text


def full_name(row: dict[str, Any]) -> str:
    name = fill(str(row.get("name") or row.get("description") or "?"), row.get("replacements"))
    spec = fill(str(row.get("specialization") or ""), row.get("replacements"))
    return f"{name} ({spec})" if spec else name


def pounds(text: Any) -> float:
    """GCS weights: "20 lb", "1,280 lb", "4.9 lb", "10 kg" (the Basic Set's 1 kg = 2 lb)."""
    match = re.match(r"\s*([\d,]*\.?\d+)\s*(lb|kg|oz|tn|t)?", str(text or ""))
    if not match:
        return 0.0
    value = float(match.group(1).replace(",", ""))
    return value * {"kg": 2.0, "oz": 1 / 16, "tn": 2000.0, "t": 2000.0}.get(match.group(2) or "lb", 1.0)


def gcs_encumbrance(data: dict[str, Any]) -> int | None:
    """GCS's encumbrance level (0-4): carried weight against its own Basic Lift, steps at 1, 2, 3, 6 and
    10 x Basic Lift; None when the file does not say its weights."""
    lift = pounds((data.get("calc") or {}).get("basic_lift"))
    rows = [row for row in data.get("equipment") or [] if isinstance(row, dict)]
    if not lift or any("extended_weight" not in (row.get("calc") or {}) for row in rows):
        return None
    carried = sum(pounds(row["calc"]["extended_weight"]) for row in rows)
    return next((level for level, times in enumerate((1, 2, 3, 6)) if carried <= times * lift), 4)


def weapon_owners(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(owner's name, weapon usage) for each weapon the file lists with GCS's numbers: traits that are
    not disabled and carried equipment, containers opened."""
    def walk(rows: Any) -> Iterator[tuple[str, dict[str, Any]]]:
        for row in rows or []:
            if not isinstance(row, dict) or row.get("disabled"):
                continue
            for usage in row.get("weapons") or []:
                if isinstance(usage, dict) and usage.get("calc"):
                    yield full_name(row), usage
            yield from walk(row.get("children"))
    yield from walk(data.get("traits"))
    yield from walk(data.get("equipment"))


def leading_int(text: Any) -> int | None:
    match = re.match(r"\s*([+-]?\d+)", str(text or ""))
    return int(match.group(1)) if match else None


def squeeze(text: Any) -> str:
    return re.sub(r"\s+", "", str(text)).casefold().replace("−", "-")


# -- the table's side: what the magics print ---------------------------------------------------------------
class Tables(HTMLParser):
    """Every <table class="..."> of an output: class -> rows of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._rows: list[list[str]] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            cls = dict(attrs).get("class") or ""
            self._rows = self.tables.setdefault(cls, [])
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag in ("td", "th") and self._rows is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._rows:
            self._rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table":
            self._rows = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def table(html: str, cls: str) -> list[list[str]]:
    parser = Tables()
    parser.feed(html)
    rows = next((rows for name, rows in parser.tables.items() if cls in name.split()), [])
    return [row for row in rows[1:] if row]  # the header row off


class Shell:
    """One IPython shell; each file gets gamekernel loaded afresh (a new session)."""

    def __init__(self, trace: bool = False) -> None:
        from IPython.testing.globalipapp import start_ipython

        self.ip = start_ipython()
        self.loaded, self.trace = False, trace

    def fresh(self) -> None:
        if self.loaded:
            self.run("%unload_ext gamekernel")
        self.run("%load_ext gamekernel")
        self.loaded = True
        self.run("%seed 1")

    def run(self, line: str) -> tuple[str, str]:
        """A cell's printed text and HTML (every output, joined)."""
        from IPython.utils.capture import capture_output

        with capture_output() as captured:
            self.ip.run_cell(line, store_history=False)
        text = "\n".join(str(o.data.get("text/plain", "")) for o in captured.outputs)
        html = "\n".join(str(o.data.get("text/html", "")) for o in captured.outputs)
        if self.trace:
            print(">>>", line, "\n" + text, file=sys.stderr)
        return text, html


def quoted(name: str) -> str:
    """A name as one word of a magic line: in double quotes, or single ones when it holds a double."""
    return f"'{name}'" if '"' in name else f'"{name}"'


def roll_target(text: str, label: str) -> int | None:
    """The target a `%check`/`%cast`/`%attack`/`%defend` line rolled against: "... 8 −4 (why) = 4 · rolled"."""
    for line in text.splitlines():
        if not re.search(r"· (not )?rolled", line) or label not in line:
            continue
        head = re.split(r"· (?:not )?rolled", line)[0].rstrip(" ·").replace("−", "-")
        match = re.search(r"= (-?\d+)$", head) or re.search(r"(-?\d+)$", head)
        if match:
            return int(match.group(1))
    return None


def damage_dice(text: str) -> str | None:
    """The damage a hit dealt, as dice: "A → B · sw+3 = 1d+5 cut: rolled 8 [3]" -> "1d+5 cut"; a flat
    "2 burn rolled at the table"; an effect the file writes instead of dice ("R-HT-2 or KO")."""
    for line in text.splitlines():
        match = (re.search(r"· (.+?): rolled", line) or re.search(r"· ([^·]+?) rolled at the table", line)
                 or re.search(r"is hit: “(.+?)” is not rolled dice", line)
                 or re.search(r"works as its notes say: “(.+?)”", line))
        if match:
            return match.group(1).split(" = ")[-1]
    return None


def damage_to_roll(text: str) -> str | None:
    """A weapon with no attack roll names the damage to roll with `%damage`: "damage thr+8 cr (%damage)"."""
    match = re.search(r"has no attack roll .*?, damage (.+?) \(%damage\)", text)
    return match.group(1) if match else None


# -- one file -------------------------------------------------------------------------------------
Row = tuple[str, str, Any, Any]  # (kind, what, GCS, ours)


class Player:
    """Plays one file through the magics and yields (kind, what, GCS's value, the table's value)."""

    def __init__(self, shell: Shell, path: Path) -> None:
        self.shell, self.path = shell, path
        self.data = json.loads(path.read_text(encoding="utf-8"))

    def compare(self) -> list[Row]:
        sh = self.shell
        sh.fresh()
        text, html = sh.run(f"%char load {quoted(str(self.path))}")
        head = re.search(r"<Character (.+?) · ST .*?Move (-?\d+) Dodge (-?\d+)", text)
        if not head:
            raise ValueError(text.strip().splitlines()[-1] if text.strip() else "no output")
        self.name = head.group(1)
        # where the importer's own computation differed, the table took the file's number (`%char load`
        # says how many, `%char diff` names them): counted apart, the play comparison cannot see them
        self.adopted = [line.strip() for line in sh.run(f"%char diff {quoted(self.name)}")[0].splitlines()
                        if line.strip().endswith("— using GCS")] if "differ from our own" in text else []
        text, html = sh.run("%char")
        return [*self.sheet_rows(text, html), *self.check_rows(), *self.fight_rows()]

    # the sheet
    def sheet_rows(self, text: str, html: str) -> Iterator[Row]:
        data, calc = self.data, self.data.get("calc") or {}
        stats = {row[0]: row[1] for row in table(html, "gk-sheet-attrs") if len(row) >= 2}
        attrs = {a.get("attr_id"): (a.get("calc") or {}).get("value") for a in data.get("attributes") or []
                 if isinstance(a, dict)}
        for key, label in ATTRIBUTES.items():
            if attrs.get(key) is not None:
                ours = stats.get(label)
                yield "attribute", label, float(attrs[key]), None if ours is None else float(ours)
        level = gcs_encumbrance(data)
        head = re.search(r"Move (-?\d+) Dodge (-?\d+)", text)
        match = re.search(r"\b(light|medium|heavy|extra-heavy) encumbrance", text, re.IGNORECASE)
        ours_level = ENCUMBRANCE_WORDS[match.group(1).lower()] if match else 0
        if level is not None:
            yield "encumbrance", "encumbrance", level, ours_level
        at = self.at = ours_level if level is None else level  # the file's weights unknown: the table's level
        for key, index in (("move", 1), ("dodge", 2)):
            values = calc.get(key)
            if isinstance(values, list) and values and head:
                yield key, f"{key} (%char)", int(values[min(at, len(values) - 1)]), int(head.group(index))
        if isinstance(calc.get("dodge"), list) and calc["dodge"] and "Dodge" in stats:
            yield "dodge", "Dodge (sheet)", int(calc["dodge"][min(at, len(calc["dodge"]) - 1)]), int(stats["Dodge"])
        if calc.get("basic_lift"):
            kg = re.match(r"([\d.,]+) kg", stats.get("Basic Lift", ""))
            ours_lb = None if not kg else round(float(kg.group(1).replace(",", "")) * 2, 2)
            yield "basic lift", "Basic Lift (lb)", round(pounds(calc["basic_lift"]), 2), ours_lb
        thrust, _, swing = stats.get("Damage", "").partition("/")
        for key, ours in (("thrust", thrust), ("swing", swing)):
            if calc.get(key):
                yield "thrust/swing", key, squeeze(calc[key]), squeeze(ours)
        sheet_skills: dict[str, int] = {}
        for row in table(html, "gk-sheet-skills"):
            if len(row) >= 3 and re.fullmatch(r"-?\d+", row[2]):
                sheet_skills[row[0]] = max(int(row[2]), sheet_skills.get(row[0], -99))
        for name, gcs in self.levels("skills").items():
            yield "sheet skill", name, gcs, sheet_skills.get(name)
        yield from self.sheet_weapon_rows(table(html, "gk-sheet-weapons"))

    def levels(self, group: str) -> dict[str, int]:
        """Each named row's level in the file (a name listed twice: the better, as a GM would roll)."""
        out: dict[str, int] = {}
        for row in leaves(self.data.get(group)):
            level = (row.get("calc") or {}).get("level")
            if level is not None:
                name = full_name(row)
                out[name] = max(int(level), out.get(name, -99))
        return out

    def matched_weapons(self, names: list[str]) -> list[tuple[str, dict[str, Any], str]]:
        """Pairs each of the file's weapon usages with the table's row of it, by owner name and order:
        the table names a second usage "Owner (usage)"."""
        owners: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for owner, usage in weapon_owners(self.data):
            owners[owner].append(usage)
        by_owner: dict[str, list[str]] = defaultdict(list)
        for name in names:
            candidates = [o for o in owners if name == o or name.startswith(o + " (")]
            if candidates:
                by_owner[max(candidates, key=len)].append(name)
        self.unmatched = [f"{owner} ({len(usages)} in the file, {len(by_owner.get(owner, []))} at the table)"
                          for owner, usages in owners.items() if len(by_owner.get(owner, [])) < len(usages)]
        return [(owner, usage, name) for owner, usages in owners.items()
                for usage, name in zip(usages, by_owner.get(owner, []), strict=False)]

    def sheet_weapon_rows(self, rows: list[list[str]]) -> Iterator[Row]:
        self.weapon_names = [row[0] for row in rows if row]
        for _owner, usage, name in self.matched_weapons(self.weapon_names):
            row = next(r for r in rows if r and r[0] == name)
            wc = usage["calc"]
            if wc.get("level") is not None and len(row) > 1:
                yield "sheet weapon level", name, int(wc["level"]), leading_int(row[1])
            if len(row) > 4 and not usage.get("range"):  # a melee usage: the sheet's Parry column
                yield "sheet parry", name, leading_int(wc.get("parry")), leading_int(row[4])
        for missing in self.unmatched:
            yield "weapon listed", missing, "listed", "missing"

    # rolls outside a fight
    def check_rows(self) -> Iterator[Row]:
        sh = self.shell
        attrs = {a.get("attr_id"): (a.get("calc") or {}).get("value") for a in self.data.get("attributes") or []
                 if isinstance(a, dict)}
        for key, label in SENSES.items():
            if attrs.get(key) is not None:
                text, _ = sh.run(f"%check {label}")
                yield "sense", label, int(attrs[key]), roll_target(text, label)
        calc = self.data.get("calc") or {}
        if isinstance(calc.get("dodge"), list) and calc["dodge"]:
            text, _ = sh.run("%check Dodge")
            yield "dodge", "Dodge (%check)", int(calc["dodge"][min(self.at, len(calc["dodge"]) - 1)]), \
                roll_target(text, "Dodge")
        for name, gcs in self.levels("skills").items():
            # a name ending "-20" would read as a modifier unquoted: quoted as a GM types it then
            word = quoted(name) if re.search(r"[+-]\d+$", name) else name
            text, _ = sh.run(f"%check {word}")
            yield "skill", name, gcs, roll_target(text, self.name)
        for name, gcs in self.levels("spells").items():
            text, _ = sh.run(f"%cast {name} 0 @{quoted(self.name)}")
            yield "spell", name, gcs, roll_target(text, name)

    # a fight
    def fight_rows(self) -> Iterator[Row]:
        sh = self.shell
        sh.run(f"%combat npc {DUMMY} ST=10 DX=10 HT=10 weapon=Club:18:sw cr")
        text, _ = sh.run(f"%combat start {quoted(self.name)} {DUMMY}")
        status = next((line for line in text.splitlines() if line[2:].startswith(self.name + ":")), "")
        if not status:
            yield "fight", "fight started", "started", text.strip().splitlines()[0] if text.strip() else "?"
            return
        defences = dict((k, int(v)) for k, v in re.findall(r"(Dodge|Parry|Block) (-?\d+)", status))
        calc = self.data.get("calc") or {}
        if isinstance(calc.get("dodge"), list) and calc["dodge"]:
            yield "dodge", "Dodge (fight)", int(calc["dodge"][min(self.at, len(calc["dodge"]) - 1)]), \
                defences.get("Dodge")
        pairs = self.matched_weapons(self.weapon_names)
        self.turn(self.name)
        for _owner, usage, name in pairs:
            if leading_int(usage["calc"].get("block")) is not None:
                yield "fight block", name, leading_int(usage["calc"]["block"]), defences.get("Block")
        for _owner, usage, name in pairs:
            wc = usage["calc"]
            if wc.get("level") is None and not wc.get("damage"):
                continue
            level, dice = self.attack_with(name)
            if wc.get("level") is not None:
                yield "fight weapon level", name, int(wc["level"]), level
            if wc.get("damage") and str(wc["damage"]).strip() not in ("-", ""):
                yield "damage", name, squeeze(wc["damage"]), None if dice is None else squeeze(dice)
        parries = [(usage, name) for _o, usage, name in pairs
                   if leading_int(usage["calc"].get("parry")) is not None and not usage.get("range")]
        if parries:
            self.turn(DUMMY)
            for usage, name in parries:
                yield "fight parry", name, leading_int(usage["calc"]["parry"]), self.parry_with(name)

    def turn(self, who: str) -> None:
        """Next turn until it is this fighter's (the status line marks the active one with ▶)."""
        for _ in range(3):
            text, _html = self.shell.run("%combat status")
            if any(line.startswith(f"▶ {who}:") for line in text.splitlines()):
                return
            self.shell.run("%next")

    def attack_with(self, weapon: str) -> tuple[int | None, str | None]:
        """Attack the dummy with one weapon until a hit lands (at most 100 tries, each undone): the level
        rolled against and the damage dice rolled."""
        sh, level = self.shell, None
        for _ in range(100):
            text, _html = sh.run(f"%attack {quoted(self.name)} -> {DUMMY} {quoted(weapon)}")
            if text.startswith("error"):
                if (formula := damage_to_roll(text)) is not None:  # as the message says: %damage
                    text, _html = sh.run(f"%damage {formula} --by={quoted(self.name)}")
                    if not text.startswith("error"):
                        sh.run("%undo 1")
                return None, damage_dice(text)
            level = roll_target(text, weapon) if level is None else level
            events = 1
            if "must answer" in text:
                more, _html = sh.run(f"%defend {DUMMY} none")
                text += "\n" + more
                events = 2
            dice = damage_dice(text)
            sh.run(f"%undo {events}")
            if dice is not None:
                return level, dice
        return level, None

    def parry_with(self, weapon: str) -> int | None:
        """The dummy attacks; the character parries with this weapon (undone after)."""
        sh = self.shell
        for _ in range(6):
            text, _html = sh.run(f"%attack {DUMMY} -> {quoted(self.name)} Club")
            if text.startswith("error"):
                return None
            if "must answer" not in text:
                sh.run("%undo 1")
                continue
            text, _html = sh.run(f"%defend {quoted(self.name)} parry {quoted(weapon)}")
            sh.run("%undo 2" if "· rolled" in text else "%undo 1")
            return roll_target(text, "Parry")
        return None


# -- the report -------------------------------------------------------------------------------------
SEED_CHOICES = (  # (kind, test on the file's data and the row) -> the seed rule the sheet names
    ("0 FP/HP: never tired (GURPS-FAT-01..03)",
     lambda data, kind, what: kind in ("basic lift", "dodge", "move", "encumbrance")
     and any(a.get("attr_id") in ("fp", "hp") and (a.get("calc") or {}).get("value") == 0
             for a in data.get("attributes") or [] if isinstance(a, dict))),
    ("reeling Dodge halved whole, rounded up (GURPS-INJ-01)",
     lambda data, kind, what: kind == "dodge" and any(
         a.get("attr_id") == "hp" and (a.get("calc") or {}).get("current", 99) * 3 <= (a.get("calc") or {})
         .get("value", 0) for a in data.get("attributes") or [] if isinstance(a, dict))),
    ("Block: shield or cloak, 3 + skill/2 + DB (GURPS-CMB-45)", lambda data, kind, what: kind == "fight block"),
)


def classify(data: dict[str, Any], kind: str, what: str) -> str:
    return next((name for name, test in SEED_CHOICES if test(data, kind, what)), "unexplained")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="a GCS library folder (or one .gcs file)")
    parser.add_argument("--list", type=int, default=10, help="differences to list per kind")
    parser.add_argument("--kind", default="", help="list every difference of this kind ('adopted': every "
                                                   "number the table took from the file over its own)")
    parser.add_argument("--only", default="", help="only files whose path contains this text")
    parser.add_argument("--json", type=Path, help="write every difference (and every number adopted) here as JSON")
    parser.add_argument("--trace", action="store_true", help="print every command and its output")
    args = parser.parse_args(argv)
    files = [args.path] if args.path.is_file() else sorted(args.path.rglob("*.gcs"))
    files = [f for f in files if args.only in str(f)]
    shell = Shell(trace=args.trace)
    equal: Counter[str] = Counter()
    total: Counter[str] = Counter()
    differences: dict[str, list[str]] = defaultdict(list)
    classes: Counter[str] = Counter()
    found: list[dict[str, Any]] = []
    adopted: list[str] = []
    refused: list[str] = []
    for number, path in enumerate(files, 1):
        try:
            player = Player(shell, path)
            rows = player.compare()
        except (ValueError, OSError) as error:
            refused.append(f"{path.name}: {error}")
            continue
        adopted += [f"{path.name}: {line}" for line in player.adopted]
        for kind, what, gcs, ours in rows:
            total[kind] += 1
            if gcs == ours:
                equal[kind] += 1
                continue
            cls = classify(player.data, kind, what)
            classes[cls] += 1
            differences[kind].append(f"{path.name}: {what}: GCS {gcs}, table {ours} [{cls}]")
            found.append({"file": str(path.relative_to(args.path)) if path != args.path else path.name,
                          "kind": kind, "what": what, "gcs": gcs, "table": ours, "class": cls})
        if number % 50 == 0:
            print(f"... {number}/{len(files)} files", file=sys.stderr)
    print(f"{len(files)} character files, {len(files) - len(refused)} played, {len(refused)} refused")
    for line in refused:
        print("  refused:", line)
    for kind in sorted(total):
        print(f"{kind:20} {equal[kind]:6}/{total[kind]:<6} {100 * equal[kind] / total[kind]:7.2f}% equal")
    all_equal, all_total = sum(equal.values()), sum(total.values())
    if all_total:
        print(f"{'all':20} {all_equal:6}/{all_total:<6} {100 * all_equal / all_total:7.3f}% equal "
              f"({all_total - all_equal} differ)")
    for cls, count in classes.most_common():
        print(f"  {count:5}  {cls}")
    print(f"the file's number taken over the importer's own: {len(adopted)} values "
          f"(the table shows GCS's; `%char diff` names them)")
    for line in adopted if args.kind == "adopted" else adopted[: args.list]:
        print("  ", line)
    for kind, lines in sorted(differences.items()):
        shown = lines if kind == args.kind else lines[: args.list]
        print(f"-- {kind}: {len(lines)} differences")
        for line in shown:
            print("  ", line)
    if args.json:
        args.json.write_text(json.dumps({"differences": found, "adopted": adopted}, indent=1, ensure_ascii=False),
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
