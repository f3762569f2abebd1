"""A GM's evening by mouse in a real JupyterLab + Chromium, then the saved notebook read from disk: six
fighters (three party characters from GCS files, three NPC templates) through two full turns by the
tracker's default picks (attack, each hit answered by the defense offered first, next), a modifier
typed in the tracker's field and one picked in the sheet's menu (GURPS-SR-04, CMB-33), a condition of
the GM's own, and each button of a prepared `%%scene` once (GURPS-SR-02).

The saved notebook is the session's record: every action `%log` lists is there, in the record of the
widget that did it, as `%log` words it; and the tracker's cell is small. The baseline is the figure
measured on the first GM's-evening walk (the same two turns of six fighters, 52 clicks): 83 kB for the
tracker cell, one framed box per click; the compact record (one line per action under one picture)
must stay under 60% of it. [GURPS-CMB-02, CMB-25, CMB-26, CMB-30, CMB-31, CMB-40, SR-02, SR-04]"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

DATA = Path(__file__).parents[1] / "gurps" / "data"
BRANNOC = Path(__file__).parents[2] / "example_notebooks" / "brannoc.gcs"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
NAME = "gm-evening.ipynb"
TRACKER, SCENE, SHEET = 4, 5, 6  # the cells of the widgets walked
BASELINE_TRACKER_BYTES = 83_000  # the tracker cell after the same two turns, one framed box per click (measured)
KERNEL = "from gamekernel.magics import current_session as cs\ns = cs()\n"


def _cell(page, index: int):
    return page.locator(".jp-Notebook .jp-CodeCell").nth(index)


def cell_bytes(cell: dict) -> int:
    """A cell's size as JupyterLab writes it (nbformat's one-space indent, UTF-8)."""
    return len(json.dumps(cell, indent=1, ensure_ascii=False).encode("utf-8"))


def _record(cell: dict) -> tuple[list[str], int]:
    """A widget cell's saved action lines and the event its picture shows the state after."""
    html = "".join(cell["outputs"][-1]["data"]["text/html"])
    lines = re.findall(r'<div class="gk-widget-action">(.*?)</div>', html)
    after = re.search(r'class="gk-widget-caption"[^>]*>[^<]*?(\d+)', html)
    assert after, html[-500:]
    import html as markup

    return [markup.unescape(line) for line in lines], int(after.group(1))


def _wait_for_file(path: Path, predicate, timeout_s: float = 60) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        notebook = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
        if notebook is not None and predicate(notebook):
            return notebook
        if time.monotonic() > deadline:
            raise AssertionError(f"{path.name} never reached the expected state")
        time.sleep(0.25)  # polling the disk for the save, not waiting on the page


def test_a_gm_evening_by_mouse_is_kept_whole_and_small_in_the_saved_notebook(lab):
    page = lab.open(NAME, [
        "%load_ext gamekernel\n%seed 41",
        f"%char load {DATA / 'aiko.gcs'}\n%char load {BRANNOC}\n%char load {DATA / 'gcs' / 'features_v5.gcs'}",
        "%combat npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp\n"
        "%combat npc Orc ST=12 DX=11 HT=12 weapon=Axe:12:sw+2 cut\n"
        "%combat npc Wolf ST=8 DX=13 HT=12 weapon=Bite:13:thr cut",
        '%combat start Aiko Brannoc "Test Knight" Goblin Orc Wolf',
        "%combat tracker",
        "%%scene Crypt\nThe door is bound in iron: [Lockpicking-5]\nSomething moves below: [Per] [3d6]",
        "%sheet Aiko",
    ], timeout_ms=120_000)
    cell = _cell(page, TRACKER)
    tracker = cell.locator(".gk-tracker-widget").first  # the live view (the saved picture follows)
    actions = cell.locator(".gk-widget-action")
    tracker.locator(".gk-combatant.gk-active").wait_for()
    order = tracker.locator(".gk-combatant").evaluate_all("rows => rows.map(r => r.dataset.name)")
    assert len(order) == 6

    def act(button: str, *, refusable: bool = False) -> str:
        """Click, wait for the record's new line; returns it (one line per action), or "" for a refusal
        the walk allows (a stunned fighter may not attack: GURPS-INJ-08)."""
        before = actions.count()
        shown = tracker.locator(".gk-error").count() > 0  # a refusal still shown: only a line will do
        tracker.locator(button).click()
        page.wait_for_function(  # its line, or the tracker's refusal (then the assertion below says why)
            """([index, before, shown]) => { const cell = document.querySelectorAll('.jp-Notebook .jp-CodeCell')[index];
                const refused = [...cell.querySelectorAll('.gk-tracker-widget .gk-error')].some(n => n.textContent);
                return cell.querySelectorAll('.gk-widget-action').length > before || (!shown && refused); }""",
            arg=[TRACKER, before, shown])
        if refusable and actions.count() == before:
            return ""
        assert actions.count() > before, (button, tracker.locator(".gk-error").all_inner_texts())
        return actions.nth(before).inner_text()

    def second() -> int:
        return int(re.findall(r"\d+", tracker.locator(".gk-tracker-title").inner_text())[0])

    clicks = refused = 0
    typed = ""
    steps = 0
    for step in range(3 * len(order)):  # two full turns (a fighter down is passed over by Next)
        if second() > 2:
            break
        steps += 1
        active = tracker.locator(".gk-combatant.gk-active").get_attribute("data-name")
        if step == 1:  # the GM types a situational modifier for this attack (GURPS-CMB-33)
            field = tracker.locator(".gk-modifier-input")
            field.fill("-2 dark")
            field.press("Enter")
            tracker.locator(".gk-modifier-chip").first.wait_for()
            typed = active
        if step == 3:  # a condition of the GM's own on the fighter whose turn it is
            tracker.locator(".gk-condition-spec").fill("Blessed 3s")
            line = act(".gk-condition-add")
            clicks += 1
            assert "Blessed" in line and active in line, line
        line = act(".gk-attack", refusable=step > 1)
        clicks += 1
        if not line:  # stunned: the maneuver offered first (Do Nothing) is his turn
            refused += 1
            assert "stunned" in tracker.locator(".gk-error").inner_text()
            line = act(".gk-choose")
            clicks += 1
        assert line.startswith(active), (active, line)
        if step == 1:
            assert "dark" in line, line  # the typed modifier is named in the roll it joined
            assert tracker.locator(".gk-modifier-chip").count() == 0  # and taken by it
        chooser = tracker.locator(".gk-defense-picker")  # drawn before the record's line arrives
        if chooser.count():  # a hit waits for its defense: the first one offered answers it
            assert ", hit" in line, line
            assert chooser.input_value() == chooser.locator("option").first.get_attribute("value")
            act(".gk-defend")
            clicks += 1
        if step == 6:
            ARTIFACTS.mkdir(exist_ok=True)
            cell.screenshot(path=str(ARTIFACTS / "gm-evening-tracker.png"))
        act(".gk-next")
        clicks += 1
        tracker.locator(f'.gk-combatant.gk-active[data-name="{active}"]').wait_for(state="detached")

    scene = _cell(page, SCENE).locator(".gk-scene").first
    scene.locator(".gk-scene-actor").select_option("Aiko Tanaka")
    marks = scene.locator(".gk-scene-mark")
    assert marks.count() == 3
    for index in range(marks.count()):
        marks.nth(index).click()
        scene.locator(".gk-scene-result").nth(index).wait_for()
    _cell(page, SCENE).locator(".gk-widget-action").nth(2).wait_for()
    _cell(page, SCENE).screenshot(path=str(ARTIFACTS / "gm-evening-scene.png"))

    sheet = _cell(page, SHEET).locator(".gk-sheet").first
    picker = sheet.locator(".gk-situation-picker")
    picked = picker.locator("optgroup option").first
    picked_key, picked_text = picked.get_attribute("value"), picked.inner_text()
    picker.select_option(picked_key)
    sheet.locator(".gk-modifier-chip").first.wait_for()
    sheet.locator(".gk-skill .gk-skill-name").first.click()
    _cell(page, SHEET).locator(".gk-widget-action").first.wait_for()

    page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
    path = lab.root / NAME
    saved = _wait_for_file(path, lambda nb: len(nb["cells"][SHEET]["outputs"]) == 2
                           and "gk-widget-action" in "".join(nb["cells"][SHEET]["outputs"][1]["data"]["text/html"]))
    tracker_bytes, notebook_bytes = cell_bytes(saved["cells"][TRACKER]), path.stat().st_size
    print(f"\nGM evening: {clicks} tracker clicks; tracker cell {tracker_bytes} B "
          f"({tracker_bytes / BASELINE_TRACKER_BYTES:.0%} of the baseline), notebook {notebook_bytes} B")

    # every action %log lists is in the saved record of the widget that did it, as %log words it
    records = {index: _record(saved["cells"][index]) for index in (TRACKER, SCENE, SHEET)}
    events = json.loads(lab.run(page, KERNEL + "import json\nprint('EVENTS', json.dumps([(e.seq, e.kind, e.summary()) "
                                               "for e in s.log]))", expect="EVENTS").split(" ", 1)[1])
    log_text = lab.run(page, "%log 500", expect="combat")
    start = next(seq for seq, kind, _ in events if kind == "combat.start")
    windows = [(TRACKER, start, records[TRACKER][1]), (SCENE, records[TRACKER][1], records[SCENE][1]),
               (SHEET, records[SCENE][1], records[SHEET][1])]
    assert records[SHEET][1] == events[-1][0]  # nothing happened after the sheet's roll
    logged = {int(cells[0]): cells for line in log_text.splitlines()
              if len(cells := [c.strip() for c in line.split("\t")]) == 3 and cells[0].isdigit()}
    walked = 0
    for index, low, high in windows:
        lines = records[index][0]
        for seq, _kind, _summary in events:
            if low < seq <= high:  # %log's words for the event (its kind's column aside) on one record line
                assert any(logged[seq][2] in line for line in lines), (index, logged[seq], lines)
                walked += 1
    kinds = [kind for seq, kind, _ in events if seq > start]
    assert second() == 3 and kinds.count("combat.next") == steps >= 2 * len(order) - 2, kinds
    assert "combat.defend" in kinds and "combat.condition" in kinds, kinds
    # every click that acted made one line or more (a refused one none): the tracker's, the scene's 3, the sheet's 1
    assert walked == len(kinds) >= len(records[TRACKER][0]) + 3 + 1 >= clicks - refused + 4
    assert any("dark" in line and line.startswith(typed) for line in records[TRACKER][0])
    assert any(picked_text.split(" ")[0].lower() in line.lower() for line in records[SHEET][0]), (
        picked_text, records[SHEET][0])

    # the size: under 60% of the baseline's measured 83 kB for the same two turns
    assert tracker_bytes < 0.6 * BASELINE_TRACKER_BYTES, tracker_bytes
    lab.close_page(page)

    # reopened without its kernel: the record reads (its picture and its lines)
    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(90_000)
    page.goto(f"{lab.base}/lab/tree/{NAME}?token={lab.token}&reset")
    cell = _cell(page, TRACKER)
    cell.locator(".gk-widget-action").first.wait_for()
    cell.locator(".gk-widget-record > .gk-widget-snapshot").wait_for(state="visible")
    assert cell.locator(".gk-widget-action").count() == len(records[TRACKER][0])
    height = cell.evaluate("node => node.getBoundingClientRect().height")
    print(f"tracker cell reopened: {height:.0f} px tall")
    cell.screenshot(path=str(ARTIFACTS / "gm-evening-reopened.png"))  # the tracker cell, its record
    page.close()
