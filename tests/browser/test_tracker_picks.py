"""The tracker's picks belong to one fighter's turn, in a real JupyterLab +
Chromium: the target the GM picked at Aiko's turn is not carried into Goblin1's, whose target
defaults to an enemy (Aiko), never his ally; each fighter chooses his own maneuver (GURPS-CMB-02).
The HT roll to stay conscious (GURPS-INJ-02) is rolled with the maneuver the fighter tries, which its
button names; with Do Nothing (no roll needed) it is disabled, so it never commits a leftover pick."""

import pytest

pytestmark = pytest.mark.browser


def test_a_new_turn_does_not_carry_the_previous_fighters_target(lab):
    page = lab.open("tracker-picks.ipynb", [
        "%load_ext gamekernel\n%seed 4",
        "%combat npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp\n"
        "%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Goblin*2",
        "%combat tracker",
    ], timeout_ms=40_000)
    tracker = page.locator(".gk-tracker-widget").first
    tracker.locator('.gk-combatant.gk-active[data-name="Aiko"]').wait_for()
    targets = tracker.locator(".gk-target-picker")
    assert targets.input_value() == "Goblin1"  # an enemy by default
    targets.select_option("Goblin2")
    picker = tracker.locator(".gk-maneuver-picker")
    picker.select_option("all_out_defense")
    lab.run(page, "from gamekernel.magics import current_session as cs\n"
                  "print('HP', cs().combat.damage('Goblin1', '11 cr') and cs().combat.state.get('Goblin1').hp)",
            expect="HP -2")
    tracker.locator(".gk-next").click()
    tracker.locator('.gk-combatant.gk-active[data-name="Goblin1"]').wait_for()
    assert targets.input_value() == "Aiko"  # not Goblin2, his ally picked at Aiko's turn
    assert picker.input_value() == "do_nothing"  # his own maneuver, not Aiko's All-Out Defense

    check = tracker.locator(".gk-check-consciousness")
    assert check.is_disabled() and "Do Nothing needs no roll" in check.get_attribute("title")
    picker.select_option("attack")
    assert check.is_enabled() and check.inner_text().endswith("→ Attack")
    check.click()
    check.wait_for(state="detached")
    lab.run(page, "e = cs().log[-1]\nprint('TRIED', e.kind, e.data['args']['maneuver'], "
                  "cs().combat.state.get('Goblin1').consciousness_checked)", expect="TRIED combat.maneuver attack True")
    lab.close_page(page)


def test_the_tracker_keeps_the_focus_after_an_action(lab):
    """"next turn" pressed from the keyboard keeps the focus on it, through the fresh
    view the record's update draws, so the GM can press it again."""
    page = lab.open("tracker-focus.ipynb", [
        "%load_ext gamekernel\n%seed 4",
        "%combat npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp\n"
        "%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Goblin*2",
        "%combat tracker",
    ], timeout_ms=40_000)
    tracker = page.locator(".gk-tracker-widget").first
    tracker.locator('.gk-combatant.gk-active[data-name="Aiko"]').wait_for()
    tracker.locator(".gk-next").focus()
    page.keyboard.press("Enter")
    page.locator('.gk-tracker-widget .gk-combatant.gk-active[data-name="Goblin1"]').first.wait_for()
    page.locator(".gk-widget-action").first.wait_for()  # the record was updated: a fresh view
    page.wait_for_function("document.activeElement?.dataset.focus === 'next'")
    page.keyboard.press("Enter")
    page.locator('.gk-tracker-widget .gk-combatant.gk-active[data-name="Goblin2"]').first.wait_for()
    lab.close_page(page)
