"""The Gamma World hand widget in a real JupyterLab + Chromium, switched to Japanese mid-session:
after a tap made in English, `%config GameKernel.language = 'ja'` redraws the page's footer line
(GW-ALPHA-08: the tap), the counts, the options line and the buttons in Japanese; the front end
writes only the words the kernel sends."""

import pytest

pytestmark = pytest.mark.browser


def test_a_switch_to_japanese_relabels_the_hand_footer_and_options_in_the_page(lab):
    page = lab.open("hand-ja.ipynb", [
        "%load_ext gamekernel",
        "%seed 11",
        '%deck new Rin alpha\n%deck add Rin "Gravity Knot" x2\n%deck add Rin "Thought Needle" x2\n'
        '%deck add Rin "Sap Bloom" x2\n%deck add Rin "Heavy Knuckle"',
        "%gw Rin level 4 bonus +2\n%draw alpha @Rin\n%gw config flux_outside_encounter=true",
        "%hand Rin",
    ])
    hand = page.locator(".gk-hand-widget").first
    hand.wait_for()
    hand.locator(".gk-card").first.click()
    last = hand.locator(".gk-hand-last")
    last.filter(has_text="uses").wait_for()
    rules = hand.locator(".gk-hand-options")
    assert rules.locator("summary").inner_text() == "house rules: 1 changed"  # one line; the detail on demand
    assert not rules.locator(".gk-house-rules").is_visible()
    rules.locator("summary").click()
    assert rules.locator(".gk-house-rules").inner_text() == "flux outside an encounter (flux_outside_encounter=true)"
    lab.run(page, "%config GameKernel.language = 'ja'\nprint('SWITCHED')", expect="SWITCHED")
    last.filter(has_text="を使用").wait_for()  # the same tap's line, drawn again in Japanese
    assert "uses" not in last.inner_text()
    rules.locator("summary").filter(has_text="ハウスルール：1件変更").wait_for()
    assert hand.locator(".gk-hand-counts").inner_text().startswith("自分のデッキ")
    assert hand.locator(".gk-tap").first.inner_text() in ("タップ", "アンタップ")
    lab.screenshot(page, "hand-ja.png")
    lab.close_page(page)
