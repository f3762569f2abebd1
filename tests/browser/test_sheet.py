"""The GURPS character sheet widget in a real JupyterLab + Chromium: edit DX and see Basic Speed,
Dodge and the point total change (GURPS-CH-05, CH-09..11), click a skill and see the roll in the
kernel's log (GURPS-SR-02), and a weapon added with `%char weapon` appear with its level, damage,
reach and Parry (GURPS-CMB-46)."""

import pytest

pytestmark = pytest.mark.browser


def test_sheet_edits_dx_and_rolls_a_skill_through_the_session(lab):
    page = lab.open("sheet.ipynb", [
        "%load_ext gamekernel",
        "%seed 5",
        "%char new Aiko dx=12 iq=12 ht=11",
        "%char skill Lockpicking 8\n%char skill Stealth 4\n%char trait Combat Reflexes",
        "w = %sheet Aiko\nw",
    ])
    sheet = page.locator(".gk-sheet").first
    sheet.wait_for()
    dodge = page.locator(".gk-sheet .gk-derived-dodge .gk-value").first
    assert dodge.inner_text() == "9"  # floor((12+11)/4) + 3 + Combat Reflexes
    assert "117/100" in page.locator(".gk-sheet .gk-sheet-total").first.inner_text()

    dx = page.locator(".gk-sheet .gk-attr-input[data-key=dx]").first
    dx.fill("14")
    dx.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.gk-sheet .gk-derived-dodge .gk-value').textContent === '10'")
    assert page.locator(".gk-sheet .gk-derived-basic_speed .gk-value").first.inner_text() == "6.25"
    assert "157/100" in page.locator(".gk-sheet .gk-sheet-total").first.inner_text()
    lab.run(page, "from gamekernel.magics import current_session as cs\ns = cs()\n"
                  "print('DX', s.gurps.character('Aiko').dx, s.gurps.character('Aiko').dodge, s.log[-1].kind)",
            expect="DX 14 10 gurps.char.update")

    page.locator(".gk-sheet .gk-skill[data-skill=Lockpicking] .gk-skill-name").first.click()
    last = page.locator(".gk-sheet .gk-sheet-last").first
    last.wait_for()
    assert "Lockpicking 14" in last.inner_text()
    lab.run(page, "e = s.log[-1]\nprint('ROLL', e.kind, e.actor, e.data['result']['label'], "
                  "len(e.data['result']['dice']))",
            expect="ROLL gurps.check Aiko Lockpicking 3")

    lab.run(page, "%char weapon Aiko Broadsword:DX:sw+1 cut:reach=1", expect="Broadsword")
    weapon = page.locator(".gk-sheet .gk-weapon[data-weapon=Broadsword]").first
    weapon.wait_for()
    cells = [weapon.locator(f".gk-weapon-{k}").inner_text() for k in ("name", "level", "damage", "reach", "parry")]
    assert cells == ["Broadsword", "14", "sw+1 cut", "1", "11"]  # DX 14; Parry 14/2 + 3 + Combat Reflexes
    lab.run(page, "print('KIND', s.log[-1].kind, s.log[-1].summary())",
            expect="KIND gurps.char.set Aiko: weapon Broadsword added")
    lab.screenshot(page, "sheet.png")
    lab.close_page(page)


def test_clicking_a_skill_named_with_a_hyphen_and_digits_rolls_it(lab):
    """Regression: the sheet sent the skill's display name through the check parser, which read "-66"
    as a modifier ("no skill 'Area Knowledge (Route'"). A click now sends the row's key."""
    page = lab.open("sheet_route66.ipynb", [
        "%load_ext gamekernel",
        "%seed 5",
        "from gamekernel.magics import current_session as cs\n"
        "from gamekernel.gurps.rules.characters import Character, Skill\n"
        "s = cs()\n"
        "s.gurps.add_character(Character(name='Aiko', iq=12, skills=(\n"
        "    Skill('Area Knowledge', 'IQ', 'E', 2, specialization='Route-66'),)))",
        "w = %sheet Aiko\nw",
    ])
    skill = page.locator('.gk-sheet .gk-skill[data-skill="Area Knowledge (Route-66)"] .gk-skill-name').first
    skill.wait_for()
    skill.click()
    last = page.locator(".gk-sheet .gk-sheet-last").first
    last.wait_for()
    page.wait_for_function(
        "() => document.querySelector('.gk-sheet .gk-sheet-last').textContent.includes('Route-66')")
    assert "Area Knowledge (Route-66) 13" in last.inner_text()
    lab.run(page, "e = s.log[-1]\nprint('ROLL', e.kind, e.actor, e.data['result']['label'], "
                  "e.data['result']['target'], len(e.data['result']['dice']))",
            expect="ROLL gurps.check Aiko Area Knowledge (Route-66) 13 3")
    lab.close_page(page)
