"""The first cell a newcomer runs in JupyterLab, `%load_ext gamekernel` and the tour's lines under it,
shows every line's result on its first run, in order (gamekernel/magics/echo.py), and the same on the
second."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

FIRST_CELL = "\n".join([
    "%load_ext gamekernel",
    "%seed 7",
    "%roll 3d+2 sword  # a comment after a magic",
    "%roll 4d6kh3",
    "%roll 1d20+5 >= 15",
])


def _outputs(page) -> list[str]:
    return page.locator(".jp-Cell").first.locator(".jp-OutputArea-output").all_inner_texts()


def test_the_load_ext_cell_shows_every_line_on_its_first_run(lab):
    page = lab.open("first-cell.ipynb", [FIRST_CELL])
    cell = page.locator(".jp-Cell").first
    cell.locator(".jp-OutputArea-output").filter(has_text="1d20+5").wait_for(timeout=60_000)
    first = _outputs(page)
    assert len(first) == 4, first  # the seed and three rolls: the first run included
    assert "7" in first[0] and first[1].startswith("sword") and "comment" not in first[1], first
    assert "4d6kh3" in first[2] and "1d20+5" in first[3], first
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    lab.screenshot(page, "first-cell.png")
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")  # the second run
    page.wait_for_function("""() => { const w = window.jupyterapp.shell.currentWidget;
        return w.sessionContext.kernelDisplayStatus === 'idle'
            && w.content.widgets[0].model.executionCount === 2; }""")
    cell.locator(".jp-OutputArea-output").filter(has_text="1d20+5").wait_for()
    again = _outputs(page)
    assert "already loaded" in again[0] and again[1:] == first, again  # IPython's notice, then the same lines
    lab.close_page(page)
