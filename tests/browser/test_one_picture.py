"""One picture per widget cell in every viewer, in a real Chromium: a notebook
executed headless with its widget state saved (as the examples are), then opened from disk, so
untrusted, without a kernel, in JupyterLab and in Notebook 7. Their sanitizer strips the `hidden`
attribute and `<style>` from the record's copy of the snapshot; the copy must still stay hidden
beside the widget's own snapshot. (Reopened trusted without a kernel and nbconvert's page are in
test_notebook_record.py: there the copy is the one picture.)"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

CELLS = [
    "%load_ext gamekernel\n%seed 11",
    '%deck new Rin alpha\n%deck add Rin "Gravity Knot" x2\n%deck add Rin "Sap Bloom" x2\n'
    "%gw Rin level 4 bonus +2\n%draw alpha @Rin",
    "%hand Rin",
    "%explore contest 14 vs 12",
    "%quiz gurps 1",
    "%hand Rin",
]
WIDGET_CELLS = (2, 3, 4, 5)
PICTURES = """() => [...document.querySelectorAll('.jp-CodeCell')].map(cell =>
    [...cell.querySelectorAll('.gk-widget-snapshot')].filter(n => n.getClientRects().length > 0).length)"""


@pytest.fixture(scope="module")
def saved_name(lab, tmp_path_factory):
    """The notebook above executed by nbclient with its widget state, written into the server's root."""
    import nbclient
    import nbformat

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    folder = tmp_path_factory.mktemp("one-picture")
    nbclient.NotebookClient(notebook, timeout=180, kernel_name="python3", store_widget_state=True,
                            resources={"metadata": {"path": str(folder)}}).execute()
    assert notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    nbformat.write(notebook, lab.root / "one-picture.ipynb")  # unsigned: opened untrusted
    return "one-picture.ipynb"


def _pictures(lab, url: str, stem: str) -> list[int]:
    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(40_000)
    page.goto(url)
    page.locator(".jp-CodeCell .gk-widget-snapshot").first.wait_for(state="attached")
    page.locator(".jp-CodeCell").nth(WIDGET_CELLS[-1]).locator(".gk-widget-snapshot").first.wait_for(state="attached")
    counts = page.evaluate(PICTURES)
    lab.screenshot(page, f"{stem}.png")
    page.close()
    return counts


def test_untrusted_notebook_in_jupyterlab_shows_one_picture_per_widget_cell(lab, saved_name):
    counts = _pictures(lab, f"{lab.base}/lab/tree/{saved_name}?token={lab.token}&reset", "one-picture-lab")
    assert [counts[i] for i in WIDGET_CELLS] == [1, 1, 1, 1], counts


def test_untrusted_notebook_in_notebook_7_shows_one_picture_per_widget_cell(lab, saved_name):
    counts = _pictures(lab, f"{lab.base}/notebooks/{saved_name}?token={lab.token}", "one-picture-nb7")
    assert [counts[i] for i in WIDGET_CELLS] == [1, 1, 1, 1], counts
