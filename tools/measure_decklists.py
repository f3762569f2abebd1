"""Measure the decklist loader on a folder of real decklists (XMage / Forge .dck, MTGO .txt / .dek ...).

    python tools/measure_decklists.py CORPUS --facts FACTS [--ext .dck] [--list N]

CORPUS (or the environment variable GAMEKERNEL_DECKLIST_CORPUS) is a folder searched recursively for
.dck, .txt, .dec, .dek, .cod, .o8d and .mwDeck files. FACTS (or GAMEKERNEL_CARD_FACTS) is the card data
the names are looked up in: a gamekernel facts file (.json with "cards" rows), an MTGJSON AtomicCards.json, a Scryfall
bulk file or a Forge `res/cardsfolder`; without it the small bundled facts are used. `--ext` keeps
only some file endings (Forge's folders hold other .txt files). Prints how many lists load, by
detected format, and groups the rest by the reason of their error (the error's first line with names
and numbers blanked out), with a few examples each. The corpus is never part of the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from gamekernel.errors import GameKernelError
from gamekernel.mtg.rules.decklists import build_library, read_decklist
from gamekernel.mtg.rules.facts import FactsIndex, bundled_facts, read_facts_file
from gamekernel.mtg.rules.loaders import load_card_data

SUFFIXES = {".dck", ".txt", ".dec", ".dek", ".cod", ".o8d", ".mwdeck"}


def facts_from(path: Path | None) -> FactsIndex:
    """The card data to resolve names in: a facts file, a card-data file, or the bundled facts."""
    if path is None:
        return bundled_facts()
    if path.is_dir():
        return load_card_data(path)
    try:
        head = path.read_text(encoding="utf-8")[:4096] if path.suffix == ".json" else ""
    except UnicodeDecodeError:
        head = ""
    if '"cards"' in head and '"data"' not in head:
        return read_facts_file(path)
    return load_card_data(path, use_cache=False)


def reason(error: Exception) -> str:
    """An error's kind: its first line with quoted text, numbers and file names blanked out."""
    text = str(error).splitlines()[0]
    text = re.sub(r"^[^:]+?\.(dck|txt|dec|dek|cod|o8d|mwdeck)\b", "FILE", text)
    text = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "'…'", text)
    return re.sub(r"\d+", "N", text)[:110]


def measure(files: list[Path], facts: FactsIndex) -> tuple[Counter, Counter, dict[str, list[str]], float]:
    """(loaded by format, refused by format, examples by reason, seconds spent)."""
    loaded: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    started = time.perf_counter()
    for path in files:
        fmt = "?"
        try:
            deck = read_decklist(path)
            fmt = deck.fmt
            build_library(deck, facts)
        except (GameKernelError, OSError) as error:
            refused[fmt] += 1
            lines = str(error).splitlines()  # the headline and the first line it names
            examples[reason(error)].append(f"{path.name}: {' | '.join(line.strip() for line in lines[:2])[:200]}")
            continue
        loaded[fmt] += 1
    return loaded, refused, examples, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path,
                        default=os.environ.get("GAMEKERNEL_DECKLIST_CORPUS") or None)
    parser.add_argument("--facts", type=Path, default=os.environ.get("GAMEKERNEL_CARD_FACTS") or None)
    parser.add_argument("--list", type=int, default=3, help="examples to print per reason")
    parser.add_argument("--ext", action="append", help="only files ending so (.dck ...; repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.corpus is None or not Path(args.corpus).is_dir():
        parser.error("give a corpus folder (or set GAMEKERNEL_DECKLIST_CORPUS)")
    suffixes = {e.lower() if e.startswith(".") else f".{e.lower()}" for e in args.ext} if args.ext else SUFFIXES
    files = sorted(p for p in Path(args.corpus).rglob("*") if p.suffix.lower() in suffixes and p.is_file())
    facts = facts_from(args.facts)
    loaded, refused, examples, seconds = measure(files, facts)
    total, ok = len(files), sum(loaded.values())
    if args.json:
        print(json.dumps({"files": total, "loaded": ok, "by_format": {f: [loaded[f], refused[f]] for f in
                          sorted(set(loaded) | set(refused))}, "reasons": {k: len(v) for k, v in examples.items()},
                          "cards_known": len(facts)}, indent=1))
        return 0
    print(f"{total} decklists, card data: {facts.source} ({len(facts)} cards), {seconds:.1f} s")
    print(f"loaded {ok} of {total} ({100 * ok / max(total, 1):.1f}%)")
    for fmt in sorted(set(loaded) | set(refused)):
        print(f"  {fmt:12} {loaded[fmt]:6} loaded  {refused[fmt]:6} refused")
    for why, cases in sorted(examples.items(), key=lambda item: -len(item[1])):
        print(f"{len(cases):6}  {why}")
        for case in cases[:args.list]:
            print(f"          {case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
