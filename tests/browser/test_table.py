"""The table dashboard in a real JupyterLab + Chromium: `%table` shows a GURPS fight, a Gamma World hand
and an MtG library side by side; a card is tapped, the turn passed and an MtG check made by clicks
and the keyboard, checked in the page and in the kernel's log. Screenshots light and dark."""

import pytest

pytestmark = pytest.mark.browser

D = ".gk-table-dashboard"
KERNEL = "from gamekernel.magics import current_session as cs\ns = cs()\n"
SETUP = KERNEL + """s.gw.deck_new('Rin')
for card in ('Gravity Knot', 'Thought Needle', 'Heavy Knuckle', 'Ember Thought'):
    s.gw.deck_add('Rin', card, 2)
s.gw.character('Rin', level=4)
s.gw.draw('Rin')
s.mtg.library_load('Mira', 'forest-friends.txt',
                   text='Deck\\n4 Forest\\n3 Elvish Mystic\\n2 Runeclaw Bear\\n3 Plains\\n')
print('ready')"""


def _theme(page, name: str, light: str) -> None:
    page.evaluate(f"window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{name}'}})")
    page.wait_for_function(f"document.body.dataset.jpThemeLight === '{light}'", timeout=60_000)
    page.locator("#jupyterlab-splash").wait_for(state="detached", timeout=60_000)


def test_table_dashboard_driven_by_clicks(lab):
    page = lab.open("table.ipynb", [
        "%load_ext gamekernel",
        "%seed 6",
        "%combat start Aiko{ST=11,DX=13,HT=11,pc=1} Goblin{DX=12}",
        SETUP,
        "%table",
    ], timeout_ms=180_000)
    page.locator(f"{D} .gk-table-row").first.wait_for(timeout=120_000)
    assert page.locator(f'{D} .gk-table-gurps .gk-table-row.gk-active[data-name="Aiko"]').count() == 1
    assert page.locator(f'{D} .gk-table-gamma .gk-table-row[data-name="Rin"] .gk-table-card').count() == 2
    assert page.locator(f'{D} .gk-table-mtg .gk-table-row[data-name="Mira"]').inner_text().count("12") >= 1
    _scroll_to(page.locator(f"{D} .gk-table-mtg").first)
    lab.screenshot(page, "table-light.png")

    page.locator(f'{D} .gk-table-gamma .gk-table-tap').first.click()
    page.locator(f"{D} .gk-table-card.gk-tapped").first.wait_for(timeout=60_000)
    lab.run(page, KERNEL + "print('TAP', s.log[-1].kind)", expect="TAP gw.tap", timeout_ms=60_000)

    page.locator(f"{D} .gk-table-next").first.click()
    page.locator(f'{D} .gk-table-gurps .gk-table-row.gk-active[data-name="Goblin"]').first.wait_for(timeout=60_000)
    assert "Goblin's turn" in page.locator(f"{D} .gk-table-status").first.inner_text()

    page.locator(f"{D} .gk-table-colour").first.select_option("green")
    difficulty = page.locator(f"{D} .gk-table-difficulty").first
    difficulty.fill("3")
    difficulty.press("Enter")
    lab.run(page, KERNEL + "e = s.log[-1]\nprint('CHECK', e.kind, e.data['actor'], e.data['result']['difficulty'])",
            expect="CHECK mtg.check Mira 3", timeout_ms=60_000)
    assert page.locator(f"{D} .gk-table-difficulty").first.input_value() == "3"  # kept between clicks
    page.locator(f"{D} .gk-table-scene").first.click()
    page.locator(f"{D} .gk-table-status", has_text="Scene 2").first.wait_for(timeout=60_000)
    _scroll_to(page.locator(f"{D} .gk-table-mtg").first)
    lab.screenshot(page, "table-light-after.png")
    _theme(page, "JupyterLab Dark", "false")
    lab.screenshot(page, "table-dark.png")
    _theme(page, "JupyterLab Light", "true")
    lab.close_page(page)


def _scroll_to(locator, tries: int = 5) -> None:
    """Scroll a part of the dashboard into view for a screenshot; a redraw between finding the node
    and scrolling to it detaches it, so find it again (the state itself was already waited for)."""
    from playwright.sync_api import Error

    for attempt in range(tries):
        try:
            locator.scroll_into_view_if_needed(timeout=10_000)
            return
        except Error:
            if attempt == tries - 1:
                raise
