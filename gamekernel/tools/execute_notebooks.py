"""Execute notebooks in place and save their outputs, ready for strict nbval.

`python -m gamekernel.tools.execute_notebooks example_notebooks/*.ipynb`

Each notebook runs in its own folder with a fresh kernel and without GAMEKERNEL_SEED, as nbval
will run it, with the demo's fixed secret entropy (`DEMO_ENTROPY`, as example_notebooks/conftest.py
sets it for nbval): a deck's order comes from the secret stream, so without it no saved draw replays.
Widget state is dropped from the saved file: its model ids change on every run (noisy git diffs),
and viewers without a kernel show each widget's saved picture, in its record, instead
(gamekernel/widgets/record.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DEMO_ENTROPY = f"{0x36:032x}"  # GAMEKERNEL_SECRET_ENTROPY of the example notebooks (the first whose shuffles
# deal the cards their text plays): a demo's, never a table's


def execute(path: Path, *, timeout: int = 300) -> None:
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    os.environ.pop("GAMEKERNEL_SEED", None)
    os.environ["GAMEKERNEL_SECRET_ENTROPY"] = DEMO_ENTROPY
    client = NotebookClient(
        notebook, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()
    notebook.metadata.pop("widgets", None)
    from gamekernel.tools.lite import LANGUAGE_INFO  # without it JupyterLite opens on "Select Kernel"

    notebook.metadata["language_info"] = {**LANGUAGE_INFO, **notebook.metadata.get("language_info", {})}
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(notebook, path)


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m gamekernel.tools.execute_notebooks NOTEBOOK.ipynb ...", file=sys.stderr)
        return 2
    for name in argv:
        path = Path(name)
        print(f"executing {path} ...", flush=True)
        execute(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
