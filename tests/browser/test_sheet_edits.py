"""The sheet edits like a form in a real JupyterLab + Chromium (usable as a form): Enter applies a value and the
focus stays in the box, Tab (blur) applies too, an out-of-range value shows `%char set`'s one-line error
and changes nothing (GURPS-CH-04), an edit that changes nothing records nothing, current HP brings its
condition (GURPS-INJ-01), a skill rolls from the keyboard, and a secret roll never shows."""

import pytest

pytestmark = pytest.mark.browser

SPEED = ".gk-sheet .gk-derived-basic_speed .gk-value"


def _text_is(page, selector, text):
    page.wait_for_function("([s, t]) => document.querySelector(s)?.textContent === t", arg=[selector, text])


def _recorded(page, count):
    """Wait until the widget's record below it shows `count` action lines (each redraws the view)."""
    page.wait_for_function("(n) => document.querySelectorAll('.gk-widget-action').length === n", arg=count)


def _focus_on(page, focus_id):
    page.wait_for_function("(id) => document.activeElement?.dataset?.focusId === id", arg=focus_id)


def test_sheet_edits_by_keyboard_and_refuses_out_of_range_values(lab):
    page = lab.open("sheet_edits.ipynb", [
        "%load_ext gamekernel",
        "%seed 5",
        "%char new Aiko dx=12 iq=12 ht=11\n%char skill Stealth 4",
        "from gamekernel.magics import current_session as cs\ns = cs()\n"
        "count = lambda: sum(e.kind == 'gurps.char.update' for e in s.log)",
        "w = %sheet Aiko\nw",
    ])
    page.locator(".gk-sheet .gk-attr-input[data-key=ht]").first.wait_for()
    _text_is(page, SPEED, "5.75")
    ht = page.locator(".gk-sheet .gk-attr-input[data-key=ht]").first

    ht.click()  # mouse into the box, keyboard for the value: Enter applies it, the focus stays
    ht.fill("13")
    ht.press("Enter")
    _text_is(page, SPEED, "6.25")
    _recorded(page, 1)
    _focus_on(page, "edit:ht")  # the view is redrawn after the action; the focus comes back to HT
    assert ht.input_value() == "13"

    dx = page.locator(".gk-sheet .gk-attr-input[data-key=dx]").first
    dx.click()
    dx.fill("13")
    dx.press("Tab")  # leaving the box applies it; Tab reaches the next box, which nothing redraws away
    _text_is(page, SPEED, "6.5")
    _recorded(page, 2)
    _focus_on(page, "roll:IQ")  # the next stop after DX's box is IQ's roll label

    ht.click()
    ht.fill("25")
    ht.press("Enter")
    error = page.locator(".gk-sheet .gk-sheet-error").first
    error.wait_for()
    assert error.inner_text() == "HT 25 is outside the human range 1 to 20"
    page.wait_for_function("() => document.querySelector('.gk-sheet .gk-attr-input[data-key=ht]').value === '13'")
    _focus_on(page, "edit:ht")
    ht.fill("0")
    ht.press("Enter")  # the same kind of refusal again still shows and still reverts the box
    page.wait_for_function("() => document.querySelector('.gk-sheet .gk-sheet-error').textContent.includes('HT 0')")
    page.wait_for_function("() => document.querySelector('.gk-sheet .gk-attr-input[data-key=ht]').value === '13'")
    lab.run(page, "c = s.gurps.character('Aiko')\nprint('STATE', c.ht, c.dx, count())", expect="STATE 13 13 2")

    ht.click()
    ht.press("Enter")  # nothing changed: nothing sent, nothing logged
    ht.press("Tab")
    hp = page.locator(".gk-sheet .gk-pool-input[data-key=hp]").first
    hp.click()
    hp.fill("3")
    hp.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.gk-sheet .gk-sheet-conditions').textContent.includes('reeling')")
    _recorded(page, 3)
    _focus_on(page, "edit:hp")
    assert page.locator(".gk-sheet .gk-sheet-error").first.is_hidden()
    lab.run(page, "c = s.gurps.character('Aiko')\nprint('POOL', c.current_hp, c.hp_lost, count())", expect="POOL 3 7 3")

    stealth = page.locator(".gk-sheet .gk-skill[data-skill=Stealth] .gk-skill-name").first
    stealth.focus()
    stealth.press("Enter")  # a skill rolls from the keyboard as from the mouse
    last = page.locator(".gk-sheet .gk-sheet-last").first
    last.wait_for()
    assert "Stealth" in last.inner_text()
    lab.run(page, "%check DX --secret", expect="DX")
    # the shared screen says a secret roll was made, never what it was
    page.wait_for_function("() => document.querySelector('.gk-sheet .gk-sheet-last').textContent"
                           ".includes('Secret roll for the GM')")
    lab.run(page, "print('LAST', s.log[-1].kind, s.log[-1].secret)", expect="LAST gurps.check True")
    paths = lab.themed_screenshots(page, ".jp-OutputArea-output:has(.gk-sheet)", "sheet-widget")
    assert all(path.stat().st_size > 0 for path in paths)
    lab.close_page(page)
