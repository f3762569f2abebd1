"""The GM's controls in a real JupyterLab + Chromium: a prepared scene's button rolls for the character
picked, recorded as the magic would be (GURPS-SR-02), and the sheet's modifier field names its
modifier in the next roll only, then clears (GURPS-SR-04)."""

import pytest

pytestmark = pytest.mark.browser


def test_a_scene_button_and_the_sheet_modifier_field(lab):
    page = lab.open("gm_controls.ipynb", [
        "%load_ext gamekernel",
        "%seed 5",
        "%char new Aiko dx=12 iq=12 ht=11\n%char skill Lockpicking 8\n%char new Bren dx=11 iq=11",
        "%%scene Crypt\nThe door is bound in iron: [Lockpicking-5]\nSomething moves: [Per] [3d6]",
        "%sheet Aiko",
    ])
    scene = page.locator(".gk-scene").first
    scene.wait_for()
    scene.locator(".gk-scene-actor").select_option("Aiko")
    scene.locator('.gk-scene-mark[data-mark="1"]').click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.gk-scene .gk-scene-result')]"
        ".some(n => n.textContent.includes('Lockpicking'))")
    assert "Aiko · Lockpicking" in scene.locator(".gk-scene-result").first.inner_text()
    lab.run(page, "from gamekernel.magics import current_session as cs\ns = cs()\ne = s.log[-1]\n"
                  "print('SCENE', e.kind, e.actor, e.data['spec'], e.data['result']['modifiers'])",
            expect="SCENE gurps.check Aiko Lockpicking-5 [[-5, '']]")

    sheet = page.locator(".gk-sheet").first
    field = sheet.locator(".gk-modifier-input")
    field.fill("-2 dark")
    field.press("Enter")
    chip = sheet.locator(".gk-modifier-chip")
    chip.first.wait_for()
    assert "−2 (dark)" in chip.first.inner_text()
    sheet.locator(".gk-skill[data-skill=Lockpicking] .gk-skill-name").click()
    page.wait_for_function(
        "() => document.querySelector('.gk-sheet .gk-sheet-last').textContent.includes('−2 (dark)')")
    page.wait_for_function("() => document.querySelectorAll('.gk-sheet .gk-modifier-chip').length === 0")
    assert sheet.locator(".gk-modifier-input").input_value() == ""
    lab.run(page, "e = s.log[-1]\nprint('SHEET', e.kind, e.actor, e.data['result']['modifiers'])",
            expect="SHEET gurps.check Aiko [[-2, 'dark']]")
    lab.screenshot(page, "gm_controls.png")
    lab.close_page(page)
