"""Run every example notebook in Japanese and list the English words gamekernel still writes.

    python tools/sweep_japanese.py [example_notebooks/*.ipynb] [--contexts]

Each notebook is copied with its folder into a temporary directory (so nothing it writes lands in the
repository), `%config GameKernel.language = 'ja'` is inserted after its `%load_ext` / `%reload_ext` cell
and every later switch back to English is made a switch to Japanese, and its code cells run in a fresh
kernel. What a user sees of each output is read (the HTML of a rich output with its tags removed, else its
plain text; the streams; an error's line) and its ASCII words of two letters or more are listed, minus:

- words the user typed (the notebook's magic lines and the string literals of its Python: names,
  dice notation, the notebook's own `print` strings) or the data files beside it contain, unless a
  displayed result echoes a whole name the catalogs translate (a GURPS skill or trait, an MtG card with a
  Japanese name: those must be Japanese);
- words the Japanese catalogs use themselves (HP, FP, CP, TL, option settings such as boost_cards=6).

Each word is counted once per notebook; the total is the number of distinct words over all notebooks.
Stream output (the notebooks' own `print` lines) is listed apart from the results gamekernel displays.
"""

from __future__ import annotations

import argparse
import html
import io
import json
import os
import re
import shutil
import sys
import tempfile
import tokenize
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z'’]*[A-Za-z](?![A-Za-z0-9_])")
LOAD = re.compile(r"^%(re)?load_ext gamekernel\s*$", re.M)
TO_ENGLISH = re.compile(r"(%config GameKernel\.language\s*=\s*)['\"]en['\"]")
BRACKETED = re.compile(r"〈[^〈〉]*〉")
TAGS = re.compile(r"<(style|script)[^>]*>.*?</\1>|<[^>]+>", re.S)
DATA_SUFFIXES = (".gcs", ".txt", ".dek", ".json", ".csv")
SWITCH = "%config GameKernel.language = 'ja'"


def japanese_notebook(notebook: dict) -> dict:
    """The notebook with Japanese switched on right after gamekernel is loaded, and kept on."""
    cells = []
    switched = False
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            source = TO_ENGLISH.sub(r"\1'ja'", "".join(cell["source"]))
            cell = {**cell, "source": source}
        cells.append(cell)
        if not switched and cell["cell_type"] == "code" and LOAD.search("".join(cell["source"])):
            cells.append({"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                          "source": SWITCH})
            switched = True
    if not switched:
        raise SystemExit(f"no %load_ext gamekernel cell to switch to Japanese after in {notebook.get('path', '?')}")
    return {**notebook, "cells": cells}


def shown_text(output: dict) -> tuple[str, str]:
    """(kind, text) of what a user sees of one output: "stream" or "display"."""
    if output.get("output_type") == "stream":
        return "stream", "".join(output.get("text", ""))
    if output.get("output_type") == "error":
        return "display", f"{output.get('ename', '')}: {output.get('evalue', '')}"
    data = output.get("data", {})
    if "text/html" in data:
        return "display", html.unescape(TAGS.sub(" ", "".join(data["text/html"])))
    return "display", "".join(data.get("text/plain", ""))


def _catalog_words() -> set[str]:
    """ASCII words the Japanese catalogs write themselves (HP, CP, option settings)."""
    words: set[str] = set()
    for path in (ROOT / "gamekernel").rglob("i18n/ja/*.json"):
        for text in json.loads(path.read_text(encoding="utf-8")).values():
            words.update(WORD.findall(re.sub(r"\{[^{}]*\}", " ", str(text))))
    return words


def translated_names() -> re.Pattern[str]:
    """The names the catalogs translate (GURPS skills and traits, MtG cards with a Japanese name), longest
    first: a user may type them in English, but a Japanese output must not echo them."""
    from gamekernel.gurps.rules.skills import load_skills
    from gamekernel.gurps.rules.traits import load_traits

    names = [s.name for s in load_skills().values() if s.ja] + [t.name for t in load_traits().values() if t.ja]
    facts = json.loads((ROOT / "gamekernel/mtg/data/facts.json").read_text(encoding="utf-8"))
    names += [row[0] for row in facts["cards"] if len(row) > 6 and row[6]]
    ordered = sorted(set(names), key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z])(?:" + "|".join(map(re.escape, ordered)) + r")(?![A-Za-z])")


def typed_text(source: str) -> str:
    """What a user typed in a code cell: its magic lines whole, and the string literals of its Python
    (not the names of the functions it calls); a cell magic's cell (`%%rolltable define ...`) whole: its
    body is text the user typed, not Python."""
    if source.lstrip().startswith("%%"):
        return source
    magics = [line for line in source.splitlines() if line.lstrip().startswith(("%", "!"))]
    python = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
    literals: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(python).readline):
            if token.type == tokenize.STRING or token.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
                literals.append(token.string)
    except (tokenize.TokenError, SyntaxError):
        literals.append(python)
    return "\n".join(magics + literals)


def _user_words(notebook: dict, folder: Path) -> set[str]:
    text = [typed_text("".join(c["source"])) for c in notebook["cells"] if c["cell_type"] == "code"]
    text += [p.read_text(encoding="utf-8", errors="replace") for p in folder.iterdir()
             if p.suffix in DATA_SUFFIXES and p.is_file()]
    return set(WORD.findall("\n".join(text)))


def sweep(path: Path, *, timeout: int = 300) -> tuple[list[tuple[str, str, int, str]], set[str]]:
    """(word, kind, cell index, context) for every English word left in the Japanese run of `path`, and
    every ASCII word of its outputs before anything is excused (the raw figure)."""
    import nbformat
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / path.parent.name
        shutil.copytree(path.parent, folder, ignore=shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints"))
        raw = json.loads(path.read_text(encoding="utf-8"))
        notebook = nbformat.from_dict(japanese_notebook(raw))
        os.environ.pop("GAMEKERNEL_SEED", None)
        NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(folder)}}).execute()
        excused = _user_words(raw, folder) | _catalog_words()
    names = translated_names()
    found = []
    raw: set[str] = set()
    started = False
    for index, cell in enumerate(notebook.cells):
        started = started or cell.source == SWITCH
        if not started:  # before the switch the outputs are English by design
            continue
        for output in cell.get("outputs", []):
            kind, text = shown_text(output)
            echoed = [span.span() for span in names.finditer(text)] if kind == "display" else []
            japanese_form = [span.span() for span in BRACKETED.finditer(text)]  # 〈盾（Shield）〉: a specialization
            echoed = [(a, b) for a, b in echoed if not any(c <= a < d for c, d in japanese_form)]
            raw.update(WORD.findall(text))
            for match in WORD.finditer(text):
                inside = any(start <= match.start() < end for start, end in echoed)
                if inside or match.group(0) not in excused:
                    start = max(0, match.start() - 40)
                    context = " ".join(text[start:match.end() + 40].split())
                    found.append((match.group(0), kind, index, context))
    return found, raw


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--contexts", action="store_true", help="print each word's first context")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "example_notebooks").glob("*.ipynb"))
    distinct: dict[str, dict[str, list]] = defaultdict(dict)
    raw: set[str] = set()
    for path in paths:
        print(f"running {path.name} in Japanese ...", file=sys.stderr, flush=True)
        found, words = sweep(path)
        raw |= words
        for word, kind, cell, context in found:
            distinct[word].setdefault(path.name, [kind, cell, context, 0])[3] += 1
    for word in sorted(distinct, key=str.casefold):
        where = "; ".join(f"{name}#{cell} {kind} x{count}" for name, (kind, cell, _, count) in distinct[word].items())
        print(f"{word}\t{where}")
        if args.contexts:
            for name, (_, _, context, _) in distinct[word].items():
                print(f"    {name}: {context}")
    print(f"{len(distinct)} distinct English words left ({len(raw)} distinct ASCII words in the outputs "
          "before names, typed text and the catalogs' own terms are excused)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
