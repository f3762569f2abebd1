"""The core results in a real JupyterLab: rolls and odds render as styled, static HTML."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_roll_and_odds_render_in_jupyterlab(lab):
    page = lab.open("core.ipynb", [
        "%load_ext gamekernel",
        "%seed 7",
        "%roll 3d+2 sword & <b>shield</b>",
        "%odds 3d6 <= 12",
        "%roll 3d+",
    ])
    roll = page.locator(".jp-OutputArea-output .gk-roll").first
    roll.wait_for(timeout=60_000)
    assert roll.locator(".gk-total").inner_text() == "11"
    assert roll.locator(".gk-die").count() == 3
    assert roll.locator(".gk-title").inner_text() == "sword & <b>shield</b>"  # the label is escaped, not markup
    odds = page.locator(".jp-OutputArea-output .gk-odds").first
    odds.wait_for()
    assert "20/27" in odds.inner_text()
    error = page.locator(".jp-OutputArea-output .gk-error").first
    error.wait_for()
    assert error.inner_text() == "error: expected a number after '+' at column 4"
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    lab.run(page, "from gamekernel.magics import current_session\nprint('EVENTS', len(current_session().log))",
            expect="EVENTS 2")  # the seed and one roll; the error recorded nothing
    lab.screenshot(page, "core-outputs.png")
    lab.close_page(page)
