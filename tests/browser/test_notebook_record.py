"""The notebook is the session's record (every line's output and widget actions), in a real JupyterLab + Chromium:
every magic line of a cell shows, an error in the middle included; a tracker round clicked through
leaves each action's line and the final snapshot in the saved notebook, readable after the kernel
is gone; nbconvert's page with the widget state saved shows the snapshot offline."""

from __future__ import annotations

import json
import time

import pytest

pytestmark = pytest.mark.browser

SETUP = [
    "%load_ext gamekernel",
    "%seed 4",
    "%combat npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp",
    "%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Goblin",
    "w = %combat tracker\nw",
]
TRACKER_CELL = 4


def _cell(page, index: int):
    return page.locator(".jp-Notebook .jp-CodeCell").nth(index)


def test_a_cell_of_three_magics_shows_three_results_and_the_error_between(lab):
    page = lab.open("three-lines.ipynb", [
        "%load_ext gamekernel",
        "%seed 3",
        "%roll 1d6 alpha\n%combat start Aiko Goblin*2\n%roll 1d6 omega",
    ])
    outputs = _cell(page, 2).locator(".jp-OutputArea-output")
    outputs.filter(has_text="omega").first.wait_for()
    texts = outputs.all_inner_texts()
    assert len(texts) == 3, texts
    assert "alpha" in texts[0]
    assert "no fighter, template or character 'Aiko'" in texts[1]  # the error of the middle line, in its place
    assert "omega" in texts[2]
    lab.screenshot(page, "three-lines.png")
    lab.close_page(page)


def _saved_actions(notebook) -> int:
    outputs = notebook["cells"][TRACKER_CELL]["outputs"]
    if len(outputs) != 2:
        return -1
    return "".join(outputs[1]["data"]["text/html"]).count('class="gk-widget-action"')


def _wait_for_file(path, predicate, timeout_s: float = 90):
    deadline = time.monotonic() + timeout_s
    while True:
        notebook = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
        if notebook is not None and predicate(notebook):
            return notebook
        if time.monotonic() > deadline:
            raise AssertionError(f"{path.name} never reached the expected state")
        time.sleep(0.5)


def test_a_tracker_round_is_kept_in_the_saved_notebook_and_shows_without_its_kernel(lab):
    page = lab.open("tracker-record.ipynb", SETUP)
    cell = _cell(page, TRACKER_CELL)
    tracker = cell.locator(".gk-tracker-widget")
    actions = cell.locator(".gk-widget-action")
    tracker.first.wait_for()

    tracker.locator(".gk-attack").first.click()  # Aiko attacks Goblin (seed 4: a hit, Goblin may defend)
    tracker.locator(".gk-defend").first.wait_for()
    actions.nth(0).wait_for()
    tracker.locator(".gk-defend").first.click()  # Goblin dodges and fails: 6 injury
    actions.nth(1).wait_for()
    tracker.locator(".gk-next").first.click()
    cell.locator('.gk-tracker-widget .gk-combatant.gk-active[data-name="Goblin"]').first.wait_for()
    actions.nth(2).wait_for()
    tracker.locator(".gk-next").first.click()
    actions.nth(3).wait_for()
    cell.locator('.gk-tracker-widget .gk-combatant.gk-active[data-name="Aiko"]').first.wait_for()
    # one line, as %log words it, the knockdown roll made inside the step included (GURPS-INJ-07)
    assert actions.nth(1).inner_text() == ("Goblin defends: Dodge 3d6 [6,4,4]=14 vs 8, not defended; damage 1d+2 "
                                           "[2]+2=4 cut → injury 6; knockdown 11 · rolled 3 "
                                           "[1,1,1] · critical success by 8 · odds 62.5% (crit 1.9%, crit fail 1.9%) "
                                           "→ no effect")

    page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
    saved = _wait_for_file(lab.root / "tracker-record.ipynb", lambda nb: _saved_actions(nb) == 4)
    widget = saved["cells"][TRACKER_CELL]["outputs"][0]
    assert "second 2" in "".join(widget["data"]["text/plain"]).lower()  # the final state, not the start
    assert "application/vnd.jupyter.widget-view+json" not in widget["data"]  # dropped by the GM's server
    assert "state after event" in "".join(saved["cells"][TRACKER_CELL]["outputs"][1]["data"]["text/html"])
    lab.close_page(page)  # the kernel is shut down: its widget models are gone

    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(90_000)
    page.goto(f"{lab.base}/lab/tree/tracker-record.ipynb?token={lab.token}&reset")
    cell = _cell(page, TRACKER_CELL)
    copy = cell.locator(".gk-widget-record > .gk-widget-snapshot")
    cell.locator(".gk-widget-action").first.wait_for()
    copy.wait_for(state="visible")  # no view to draw (gamekernel/remote/saved_views.py): the saved picture shows
    assert cell.get_by_text("model not found").count() == 0
    text = copy.inner_text()
    assert "state after event" in text and "3/9" in text  # Goblin's HP after the round
    lines = cell.locator(".gk-widget-action").all_inner_texts()
    assert len(lines) == 4 and "injury 6" in lines[1] and lines[3] == "next turn: Aiko (after Goblin)", lines
    lab.screenshot(page, "tracker-record-reopened.png")
    lab.close_page(page)


def test_nbconvert_page_with_widget_state_shows_the_snapshot_offline(lab, tmp_path):
    import nbclient
    import nbformat
    from nbconvert import HTMLExporter

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in SETUP])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbclient.NotebookClient(notebook, timeout=180, kernel_name="python3", store_widget_state=True,
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert notebook.metadata["widgets"]  # the saved widget state makes nbconvert drop the text/html
    page_html, _ = HTMLExporter().from_notebook_node(notebook)
    path = tmp_path / "page.html"
    path.write_text(page_html, encoding="utf-8")
    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    page.goto(path.as_uri())
    copy = page.locator(".gk-widget-record > .gk-widget-snapshot")
    copy.wait_for(state="visible", timeout=60_000)
    assert "Aiko" in copy.inner_text() and "state after event" in copy.inner_text()
    page.close()


# Pictures a viewer shows per cell: the saved snapshots it draws.
_PICTURES = """() => [...document.querySelectorAll('.jp-Cell')].map(cell =>
    [...cell.querySelectorAll('.gk-widget-snapshot')].filter(n => n.getClientRects().length > 0).length)"""


def test_nbconvert_sanitized_page_with_widget_state_shows_one_picture_per_widget_cell(lab, tmp_path):
    """The closest thing here to a sanitizing viewer such as GitHub's (which cannot run here):
    nbconvert's export with `sanitize_html` strips `<style>`, `style` and `hidden`; offline, with the
    widget state saved, the tracker cell still shows exactly one picture."""
    import nbclient
    import nbformat
    from nbconvert import HTMLExporter

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in SETUP])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbclient.NotebookClient(notebook, timeout=180, kernel_name="python3", store_widget_state=True,
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    page_html, _ = HTMLExporter(sanitize_html=True).from_notebook_node(notebook)
    assert "<style>.jp-OutputArea-child:has" not in page_html  # the sanitizer did strip our rule
    path = tmp_path / "sanitized.html"
    path.write_text(page_html, encoding="utf-8")
    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    page.goto(path.as_uri())
    page.locator(".gk-widget-snapshot").first.wait_for(state="visible", timeout=60_000)
    counts = page.evaluate(_PICTURES)
    page.close()
    assert counts[TRACKER_CELL] == 1 and sum(counts) == 1, counts
