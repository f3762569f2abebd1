"""Refusing an oversized card database: a 2,000,000-card MTGJSON file (about 10.5 MB gzipped) through
`%library data FILE`, against the floor of only decompressing the same file.

The reader stops at entry max_data_cards + 1 (100,001), so the refusal decompresses about a twentieth
of the file; its time is compared with `gzip -dc FILE > /dev/null` of the whole file measured in the
same run, alternated with it (an absolute time on a shared CPU is no target). A normal load (35,000
cards, the size of AtomicCards) is timed beside, against its own floor (decompressing it and
`json.loads` of the text), so a faster refusal cannot hide a slower load.
"""

from __future__ import annotations

import gzip
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CARDS = 2_000_000
NORMAL = 35_000
RUNS = 5
BLOCK = 20_000  # entries joined per write: the generator takes seconds, not a minute

_REFUSE = r"""
import sys, time
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.run_line_magic("load_ext", "gamekernel")
shell.run_line_magic("seed", "1")  # the session made, as in a GM's kernel before any card data is loaded
t0 = time.perf_counter()
result = shell.run_line_magic("library", "data " + sys.argv[1])
seconds = time.perf_counter() - t0
print("RESULT " + __import__("json").dumps([seconds, repr(result)]))  # after the progress bar's output
"""


def card_entry(number: int) -> str:
    """One MTGJSON AtomicCards entry, as small as the smallest real ones."""
    return f'"Card {number}":[{{"name":"Card {number}","manaValue":1,"colors":["G"],"types":["Creature"]}}]'


def write_many_cards(path: Path, count: int = CARDS) -> Path:
    """An MTGJSON AtomicCards file of `count` small distinct cards, gzipped (`count` 2,000,000: about
    10.5 MB on disk, 170 MB decompressed: inside the size limits, only the entry count refuses it)."""
    with gzip.open(path, "wb", compresslevel=6) as handle:
        handle.write(b'{"meta":{"date":"2026-01-01","version":"5.2.2"},"data":{')
        for start in range(0, count, BLOCK):
            block = ",".join(card_entry(number) for number in range(start, min(count, start + BLOCK)))
            handle.write((("," if start else "") + block).encode())
        handle.write(b"}}")
    return path


WORDS = ("add", "mana", "creature", "target", "player", "draw", "card", "damage", "life", "enters", "battlefield",
         "untap", "tap", "each", "opponent", "counter", "spell", "graveyard", "library", "exile", "token",
         "flying", "trample", "haste", "vigilance", "reach", "until", "end", "of", "turn", "you", "may", "gain",
         "lose", "sacrifice", "return", "hand", "owner", "control", "search", "shuffle", "reveal", "top")


def realistic_entry(number: int) -> str:
    """An entry shaped like a real AtomicCards one (rules text, a Japanese and a German printing,
    legalities, printings, an id), compressing about as well (x8)."""
    rng = random.Random(number)
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(12, 50)))
    face = {"name": f"Card {number}", "manaValue": number % 8, "convertedManaCost": number % 8,
            "manaCost": "{1}{G}", "colors": ["G", "W"][: 1 + number % 2], "colorIdentity": ["G"],
            "types": ["Creature"], "subtypes": ["Elf", "Druid"], "supertypes": [], "layout": "normal",
            "type": "Creature — Elf Druid", "power": str(rng.randint(0, 9)), "toughness": str(rng.randint(1, 9)),
            "text": text, "flavorText": " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 20))),
            "foreignData": [{"language": "Japanese", "name": f"カード{number}", "text": text.upper(),
                             "type": "クリーチャー — エルフ・ドルイド"},
                            {"language": "German", "name": f"Karte {number}", "text": text.title(),
                             "type": "Kreatur — Elf, Druide"}],
            "legalities": {"commander": "Legal", "legacy": "Legal", "modern": "Legal", "vintage": "Legal"},
            "printings": ["M19", "DOM", "M20"],
            "identifiers": {"scryfallOracleId": f"{rng.getrandbits(128):032x}"}}
    return json.dumps(f"Card {number}") + ":" + json.dumps([face], ensure_ascii=False)


def write_normal_cards(path: Path, count: int = NORMAL) -> Path:
    """A gzipped AtomicCards-sized file of `count` realistic entries (35,000: the real file's count)."""
    with gzip.open(path, "wb", compresslevel=6) as handle:
        handle.write(b'{"meta":{"date":"2026-01-01","version":"5.2.2"},"data":{')
        handle.write(",".join(realistic_entry(number) for number in range(count)).encode())
        handle.write(b"}}")
    return path


def refusal_seconds(path: Path) -> tuple[float, str]:
    """`%library data FILE` in a fresh kernel-like shell: the magic's seconds and its output."""
    done = subprocess.run([sys.executable, "-c", _REFUSE, str(path)], capture_output=True, text=True, check=True,
                          env=_environment())
    line = next(line for line in done.stdout.splitlines() if line.startswith("RESULT "))
    seconds, output = json.loads(line.removeprefix("RESULT "))
    return seconds, output


def gunzip_seconds(path: Path) -> float:
    """The floor: `gzip -dc FILE > /dev/null` of the whole file."""
    t0 = time.perf_counter()
    with open("/dev/null", "wb") as sink:
        subprocess.run(["gzip", "-dc", str(path)], stdout=sink, check=True)
    return time.perf_counter() - t0


def normal_load_seconds(path: Path) -> tuple[float, float]:
    """A normal load's seconds (uncached) and its floor's (decompress and `json.loads` the text)."""
    from gamekernel.mtg.rules.loaders import load_card_data

    t0 = time.perf_counter()
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        json.loads(handle.read())
    floor = time.perf_counter() - t0
    t0 = time.perf_counter()
    load_card_data(path, use_cache=False)
    return time.perf_counter() - t0, floor


def _environment() -> dict[str, str]:
    import os

    return {**os.environ, "GAMEKERNEL_CACHE_DIR": tempfile.mkdtemp(prefix="gk-cards-")}


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="gk-card-data-"))
    try:
        big = write_many_cards(folder / "many.json.gz")
        normal = write_normal_cards(folder / "normal.json.gz")
        size = big.stat().st_size / 1e6
        refusals, floors, outputs = [], [], set()
        for _ in range(RUNS):  # alternated: a slow spell of the machine hits both
            seconds, output = refusal_seconds(big)
            refusals.append(seconds)
            outputs.add(output)
            floors.append(gunzip_seconds(big))
        loads = [normal_load_seconds(normal) for _ in range(RUNS)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"Card database refusal: {CARDS:,} cards, {size:.1f} MB gz "
          f"through %library data, {RUNS} runs alternated with gzip -dc of the same file")
    for output in sorted(outputs):
        print(f"  output: {output}")
    floor = min(floors)
    print(f"{'':<22}{'min s':>8}{'median s':>10}{'max s':>8}{'min / floor':>13}")
    for name, times in (("refusal", refusals), ("gzip -dc (floor)", floors)):
        print(f"{name:<22}{min(times):>8.2f}{statistics.median(times):>10.2f}{max(times):>8.2f}"
              f"{min(times) / floor:>12.2f}x")
    ratios = [refusal / floor for refusal, floor in zip(refusals, floors, strict=True)]
    print(f"each refusal / the floor measured right after it: {', '.join(f'x{r:.2f}' for r in ratios)} "
          f"(median x{statistics.median(ratios):.2f})")
    load, load_floor = min(load for load, _ in loads), min(floor for _, floor in loads)
    print(f"normal load ({NORMAL:,} realistic cards, uncached): fastest {load:.2f} s, "
          f"floor (decompress + json.loads) {load_floor:.2f} s: x{load / load_floor:.2f}")


if __name__ == "__main__":
    main()
