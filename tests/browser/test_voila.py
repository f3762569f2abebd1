"""An example notebook served by Voila, in a real Chromium: 04-gamma-world-alpha-mutations shows Rin's
hand twice (`%hand Rin` in two cells, the second replacing the first); both render live (no "model not
found": a replaced widget only goes dormant, it is never closed, gamekernel/widgets/base.py) and each
of their cells shows one picture, the live view, the saved picture in its record staying hidden
below it (the rule hiding it comes with the view's own stylesheet)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import _free_port, wait_until_serving

pytestmark = pytest.mark.browser

EXAMPLES = Path(__file__).resolve().parents[2] / "example_notebooks"
NOTEBOOK = "04-gamma-world-alpha-mutations.ipynb"
TEACHING = "07-teaching-the-rules.ipynb"  # explorers and quizzes
DATA = ("brannoc.gcs", "mira.txt", "mira-ja.txt")  # what the examples read
# Per cell of the page: live hand views, visible saved pictures (in the record),
# and whether the cell says a widget model is missing.
CELLS = """() => [...document.querySelectorAll('.jp-Cell')]
    .map(area => ({
        live: area.querySelectorAll('.gk-hand-widget').length,
        pictures: [...area.querySelectorAll('.gk-widget-snapshot')]
            .filter(n => n.getClientRects().length > 0).length,
        missing: /model not found/i.test(area.innerText),
    }))"""


@pytest.fixture(scope="module")
def voila(tmp_path_factory):
    yield from _serve(tmp_path_factory, NOTEBOOK)


@pytest.fixture(scope="module")
def voila_teaching(tmp_path_factory):
    yield from _serve(tmp_path_factory, TEACHING)


def _serve(tmp_path_factory, notebook: str):
    """Voila serving a copy of an example notebook and the files it reads (its kernel runs in that
    copy's folder)."""
    pytest.importorskip("voila")
    tmp = tmp_path_factory.mktemp("voila")
    folder = tmp / "notebooks"
    folder.mkdir()
    for name in (notebook, *DATA):
        shutil.copy(EXAMPLES / name, folder / name)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
               IPYTHONDIR=str(tmp / "ipython"))
    env.pop("GAMEKERNEL_SEED", None)
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "voila", notebook, "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
         "--ServerApp.port_retries=0"],
        cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=open(tmp / "voila.log", "w"),  # noqa: SIM115
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(f"{base}/api/kernelspecs", server, tmp / "voila.log", "Voila")
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


def test_voila_renders_both_hands_live_with_one_picture_each(lab, voila):
    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(90_000)  # the notebook runs in about 15 s here
    page.goto(voila)
    hands = page.locator(".gk-hand-widget")
    hands.nth(1).wait_for()  # the second hand's live view: the notebook ran to it
    for i in range(2):
        hands.nth(i).locator(".gk-card").first.wait_for()  # drawn from its model: the first one too
        assert "Rin" in hands.nth(i).inner_text()
    cells = [c for c in page.evaluate(CELLS) if c["live"] or c["pictures"] or c["missing"]]
    lab.screenshot(page, "voila-hands.png")
    page.close()
    assert not any(c["missing"] for c in cells), cells
    widget_cells = [c for c in cells if c["live"]]
    assert len(widget_cells) == 2, cells
    assert all(c["live"] == 1 and c["pictures"] == 0 for c in widget_cells), widget_cells  # the live view alone


def test_voila_shows_one_picture_per_widget_cell_of_the_teaching_example(lab, voila_teaching):
    import nbformat

    from .test_one_picture import LIVE, wait_for_one_picture_each

    notebook = nbformat.read(EXAMPLES / TEACHING, as_version=4)
    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(90_000)
    page.goto(voila_teaching)
    page.locator(LIVE).nth(7).wait_for()  # its eight views drawn live: the notebook ran to the last
    wait_for_one_picture_each(page, notebook)
    lab.screenshot(page, "voila-teaching.png")
    page.close()
