"""The GURPS sheet widget in a real JupyterLab + Chromium, switched to Japanese mid-session: the trait
rows (GURPS-CH-27's leveled trait, GURPS-DIS-04's option) and the specialized skill are redrawn with the
catalog's Japanese names and the validation line in Japanese; the front end writes only what the kernel
sends."""

import pytest

pytestmark = pytest.mark.browser


def test_a_switch_to_japanese_renames_the_sheet_traits_skills_and_issues_in_the_page(lab):
    page = lab.open("sheet-ja.ipynb", [
        "%load_ext gamekernel",
        "%char new Aiko dx=12 iq=12 ht=11 budget=20",
        "%char trait Acute Vision 2\n%char trait \"Code of Honor (Pirate's)\"\n%char skill Survival (Woodlands) 2",
        "w = %sheet Aiko\nw",
    ])
    traits = page.locator(".gk-sheet .gk-sheet-traits").first
    traits.wait_for()
    assert "Acute Vision 2" in traits.inner_text()
    lab.run(page, "%config GameKernel.language = 'ja'\nprint('SWITCHED')", expect="SWITCHED")
    traits.locator("td", has_text="「鋭敏視覚」2").wait_for()
    text = traits.inner_text()
    assert "「名誉の掟」（海賊の掟）" in text and "Acute" not in text and "Code of Honor" not in text, text
    skills = page.locator(".gk-sheet").first.inner_text()
    assert "〈生存（Woodlands）〉" in skills and "エラー：CP：" in skills, skills
    lab.screenshot(page, "sheet-ja.png")
    lab.close_page(page)
