"""The GURPS combat tracker in a real JupyterLab + Chromium: start a fight, click "next turn", apply
damage from a magic and see the HP bar and the badge change in the page (GURPS-CMB, GURPS-INJ); a kneeling
fighter's Dodge shows base → effective (GURPS-CMB-11 posture table), the value %defend rolls."""

import pytest

pytestmark = pytest.mark.browser


def test_tracker_next_turn_and_live_damage(lab):
    page = lab.open("tracker.ipynb", [
        "%load_ext gamekernel",
        "%seed 4",
        "%combat npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp",
        "%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Goblin*2",
        "w = %combat tracker\nw",
    ])
    tracker = page.locator(".gk-tracker-widget").first
    tracker.wait_for()
    assert page.locator(".gk-tracker-widget .gk-combatant").count() == 3
    active = page.locator(".gk-tracker-widget .gk-combatant.gk-active").first
    assert active.get_attribute("data-name") == "Aiko"

    page.locator(".gk-tracker-widget .gk-next").first.click()
    page.locator('.gk-tracker-widget .gk-combatant.gk-active[data-name="Goblin1"]').first.wait_for()
    lab.run(page, "from gamekernel.magics import current_session as cs\n"
                  "s = cs(); print('ACTIVE', s.combat.state.current.name, s.log[-1].kind)",
            expect="ACTIVE Goblin1 combat.next")

    goblin1 = '.gk-tracker-widget .gk-combatant[data-name="Goblin1"]'
    assert page.locator(f"{goblin1} .gk-defense-dodge").first.inner_text() == "Dodge 8"  # Speed 5.75 + 3
    lab.run(page, "%posture Goblin1 kneeling", expect="Goblin1")
    page.locator(f"{goblin1} .gk-defense-dodge[data-value='6']").first.wait_for()
    assert page.locator(f"{goblin1} .gk-defense-dodge").first.inner_text() == "Dodge 8→6"  # kneeling −2

    goblin2 = '.gk-tracker-widget .gk-combatant[data-name="Goblin2"]'
    assert page.locator(f"{goblin2} .gk-hp").first.get_attribute("data-state") == "healthy"
    lab.run(page, "r = %hit Goblin2 1d+4 cut\nprint('HP', s.combat.state.get('Goblin2').hp)", expect="HP")
    page.locator(f"{goblin2} .gk-hp[data-state='reeling'], {goblin2} .gk-hp[data-state='collapse']").first.wait_for()
    badges = page.locator(f"{goblin2} .gk-badge").all_inner_texts()
    assert any(b.startswith("shock") for b in badges)
    lab.screenshot(page, "tracker.png")
    lab.close_page(page)
