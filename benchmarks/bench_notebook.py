"""Saved notebook size: bytes per cell against the number of cells of a session.

A session is a cycle of ordinary cells (rolls, checks, damage, notes, the next turn of a running
fight) after one setup cell. It is executed by nbclient in a fresh kernel and saved as
`gamekernel.tools.execute_notebooks` saves it (widget state dropped), and so is the same session
with every magic line's result printed as text instead (`_r = %roll 3d+2` then `print(_r)`): the
peer of each size, measured in the same run. Each size is a fresh kernel, so the sizes are
independent; GAMEKERNEL_BENCH_QUICK=1 leaves out the largest.
"""

from __future__ import annotations

import os
import tempfile
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
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (SETUP, *cells)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    env = os.environ.pop("GAMEKERNEL_SEED", None)
    try:
        NotebookClient(notebook, timeout=600, kernel_name="python3",
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
    return path.stat().st_size


def main() -> None:
    from benchmarks.report import Target, curve, targets

    sizes = SIZES[:-1] if os.environ.get("GAMEKERNEL_BENCH_QUICK") else SIZES
    rich, text = [], []
    with tempfile.TemporaryDirectory() as temp:
        for count in sizes:
            rich.append(_saved_bytes(_cells(count, as_text=False), Path(temp)))
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


def _kb(value: float) -> str:
    return f"{value / 1000:,.2f} kB"


if __name__ == "__main__":
    main()
