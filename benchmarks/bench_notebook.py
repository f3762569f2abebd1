"""Saved notebook size: bytes per cell against the number of cells of a session.

A session is a cycle of ordinary cells (rolls, checks, damage, notes, the next turn of a running
fight) after one setup cell. It is executed by nbclient in a fresh kernel and saved as
`gamekernel.tools.execute_notebooks` saves it (widget state dropped), and so is the same session
with every magic line's result printed as text instead (`_r = %roll 3d+2` then `print(_r)`): the
peer of each size, measured in the same run. Each size is a fresh kernel, so the sizes are
independent; GAMEKERNEL_BENCH_QUICK=1 leaves out the largest.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections import Counter
from pathlib import Path

SETUP = (
    "%load_ext gamekernel\n%seed 3\n"
    "%char new Aiko st=11 dx=13 iq=12 ht=11\n%char new Guard st=11 iq=10 dr=1\n%char use Aiko\n"
    "%combat npc Orc ST=12 DX=11 HT=12 HP=18 weapon=Club:11:sw cr\n"
    "%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Orc*2"
)
CYCLE = (
    "%roll 3d+2 sword",
    "%check DX-2",
    "%roll 1d20+5 >= 15 to hit",
    "%damage 1d+2 cut @Guard",
    "%note the party presses on",
    "%next",
    "%check IQ",
    "%roll 4d6kh3 strength",
)
SIZES = [10, 30, 100, 300]


def _cells(count: int, *, as_text: bool) -> list[str]:
    lines = [CYCLE[i % len(CYCLE)] for i in range(count)]
    if as_text:
        return [f"_r = {line}\nprint(_r)" for line in lines]
    return lines


def _saved_bytes(cells: list[str], folder: Path) -> int:
    """Bytes of the notebook `cells` (after the setup cell) once executed and saved."""
    return _saved(cells, folder).stat().st_size


def _saved(cells: list[str], folder: Path) -> Path:
    """The notebook `cells` (after the setup cell), executed and saved as the examples are."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (SETUP, *cells)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    env = os.environ.pop("GAMEKERNEL_SEED", None)
    try:
        # a print's lines reach the client in as many stream messages as the kernel happened to flush
        # (301 to 343 outputs for the same 300 cells); JupyterLab keeps one output per stream, and
        # so does the peer here, so that it is the same size in every run
        NotebookClient(notebook, timeout=600, kernel_name="python3", coalesce_streams=True,
                       resources={"metadata": {"path": str(folder)}}).execute()
    finally:
        if env is not None:
            os.environ["GAMEKERNEL_SEED"] = env
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    errors = [o for cell in notebook.cells for o in cell.get("outputs", ()) if o.get("output_type") == "error"]
    assert not errors, f"a benchmark cell failed: {errors[0].get('ename')}: {errors[0].get('evalue')}"
    path = folder / "session.ipynb"
    nbformat.write(notebook, path)
    return path


_STYLE = re.compile(r' style="[^"]*"')
_PALETTE = re.compile(r"var\(--jp-[a-z0-9-]+,#[0-9a-fA-F]+\)")
_RECORD = '<div class="gk-widget-record">'
_ACTION = '<div class="gk-widget-action">'


def breakdown(path: Path) -> Counter[str]:
    """What a saved notebook's bytes are made of: each output's data by mime type (as saved, JSON
    escaping and line splitting included), and within text/html the constructs an output repeats:
    inline style attributes (of which the font stack and the palette's theme variables), and the
    picture of a widget in its record."""
    from gamekernel.display.html import FONT_STACK

    parts: Counter[str] = Counter()
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        for output in cell.get("outputs", ()):
            for mime, value in output.get("data", {}).items():
                parts[mime] += len(json.dumps(value, ensure_ascii=False).encode())
            if output.get("output_type") == "stream":
                parts["stream"] += len(json.dumps(output["text"], ensure_ascii=False).encode())
            html = output.get("data", {}).get("text/html")
            if html is not None:
                _html_parts(html if isinstance(html, str) else "".join(html), FONT_STACK, parts)
    parts["whole file"] = path.stat().st_size
    return parts


def _html_parts(html: str, font_stack: str, parts: Counter[str]) -> None:
    styles = _STYLE.findall(html)
    parts["html: style attributes"] += sum(len(s.encode()) for s in styles)
    parts["html: the font stack in them"] += sum(s.count(font_stack) for s in styles) * len(font_stack)
    parts["html: theme variables in them"] += sum(len(v) for s in styles for v in _PALETTE.findall(s))
    parts["html: widget pictures in records"] += len(_record_picture(html).encode())


def _record_picture(html: str) -> str:
    """A widget record's picture (gamekernel/widgets/record.py): from the record's start to its
    first action line, or to the record's own closing tag."""
    start = html.find(_RECORD)
    if start < 0:
        return ""
    start += len(_RECORD)
    end = html.find(_ACTION, start)
    return html[start:end if end >= 0 else len(html) - len("</div>")]


def main() -> None:
    from benchmarks.report import Target, curve, targets

    sizes = SIZES[:-1] if os.environ.get("GAMEKERNEL_BENCH_QUICK") else SIZES
    rich, text = [], []
    with tempfile.TemporaryDirectory() as temp:
        for count in sizes:
            saved = _saved(_cells(count, as_text=False), Path(temp))
            rich.append(saved.stat().st_size)
            parts = breakdown(saved)  # the largest session's is printed
            text.append(_saved_bytes(_cells(count, as_text=True), Path(temp)))
    per_cell = [size / count for size, count in zip(rich, sizes, strict=True)]
    per_text = [size / count for size, count in zip(text, sizes, strict=True)]
    curve("saved notebook bytes per cell vs cells", "cells", sizes, per_cell, 0.0,
          "O(1): a cell's outputs do not grow with the cells before it", value=_kb, value_name="bytes per cell")
    curve("saved notebook bytes per cell vs cells, results printed as text", "cells", sizes, per_text, 0.0,
          "O(1)", value=_kb, value_name="bytes per cell")
    targets("saved notebook size (the same cells printing text, same run)", [
        Target(f"{count:,}-cell session saved", f"{size / 1000:,.1f} kB",
               f"the same cells printing text {peer / 1000:,.1f} kB", f"{size / peer:.1f}x", "<= 5x",
               size / peer <= 5)
        for count, size, peer in zip(sizes, rich, text, strict=True)
    ])
    _print_breakdown(sizes[-1], parts)


def _print_breakdown(count: int, parts: Counter[str]) -> None:
    from benchmarks.report import table

    whole = parts.pop("whole file")
    inner = {name: size for name, size in parts.items() if name.startswith("html: ")}
    outer = {name: size for name, size in parts.items() if name not in inner}
    outer["cells, sources and the file's own structure"] = whole - sum(outer.values())
    rows = [[name, f"{size:,}", f"{100 * size / whole:.0f}%"] for name, size in Counter(outer).most_common()]
    rows += [[f"  {name}", f"{size:,}", f"{100 * size / whole:.0f}%"] for name, size in inner.items()]
    table(f"what the {count:,}-cell session's {whole / 1000:,.1f} kB are made of", ["part", "bytes", "share"], rows)


def _kb(value: float) -> str:
    return f"{value / 1000:,.2f} kB"


if __name__ == "__main__":
    main()
