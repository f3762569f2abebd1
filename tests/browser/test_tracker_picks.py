"""The tracker's picks belong to one fighter's turn (issue 25 item 4), in a real JupyterLab +
Chromium: the target the GM picked at Aiko's turn is not carried into Goblin1's, whose target
defaults to an enemy (Aiko), never his ally; each fighter chooses his own maneuver (GURPS-CMB-02)."""

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
    tracker.locator(".gk-maneuver-picker").select_option("all_out_defense")
    tracker.locator(".gk-next").click()
    tracker.locator('.gk-combatant.gk-active[data-name="Goblin1"]').wait_for()
    assert targets.input_value() == "Aiko"  # not Goblin2, his ally picked at Aiko's turn
    assert tracker.locator(".gk-maneuver-picker").input_value() != "all_out_defense"
    lab.close_page(page)
