"""The tracker as a form, in a real JupyterLab + Chromium: a whole exchange played in the tracker without a
magic - the weapon and target chosen by mouse, the attack, the defence chosen from the offered ones
by keyboard (Enter), damage typed in the damage box (Enter), the HT roll to stay conscious at HP <= 0
(GURPS-INJ-02), a fighter added and one removed mid-fight (initiative kept) - checking the page and
the kernel's state and log. Screenshots in the light and the dark theme."""

import pytest

pytestmark = pytest.mark.browser

W = ".gk-tracker-widget"
KERNEL = "from gamekernel.magics import current_session as cs\ns = cs()\n"


def _theme(page, name: str, light: str) -> None:
    page.evaluate(f"window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{name}'}})")
    page.wait_for_function(f"document.body.dataset.jpThemeLight === '{light}'", timeout=60_000)
    page.locator("#jupyterlab-splash").wait_for(state="detached", timeout=60_000)


def test_tracker_plays_a_full_exchange_by_mouse_and_keyboard(lab):
    page = lab.open("tracker_exchange.ipynb", [
        "%load_ext gamekernel",
        "%seed 4",
        "%combat npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp",
        "%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,weapon=Knife:13:thr-1 imp,pc=1} "
        "Goblin*2",
        "w = %combat tracker\nw",
    ], timeout_ms=180_000)
    page.locator(f"{W} .gk-combatant").first.wait_for()
    heads = page.locator(f"{W} thead th").all_inner_texts()
    assert heads[:3] == ["Combatant", "HP", "FP"] and "Defenses" in heads

    # attack: weapon and target chosen with the mouse
    page.locator(f"{W} .gk-weapon-picker").first.select_option("Knife")
    page.locator(f"{W} .gk-target-picker").first.select_option("Goblin1")
    page.locator(f"{W} .gk-attack").first.click()
    page.locator(f"{W} .gk-tracker-results .gk-gurps-check .gk-die").first.wait_for(timeout=60_000)
    lab.run(page, KERNEL + "print('LAST', s.log[-1].kind, s.log[-1].data['args']['weapon'])",
            expect="LAST combat.attack Knife", timeout_ms=60_000)

    # the defence: chosen from the offered ones with the keyboard, Enter confirms
    chooser = page.locator(f"{W} .gk-defense-picker").first
    chooser.wait_for(timeout=60_000)
    offered = chooser.locator("option").all_inner_texts()
    assert any(o.startswith("Dodge") for o in offered) and any(o.startswith("Parry") for o in offered)
    chooser.focus()
    chooser.select_option("dodge")
    page.keyboard.press("Enter")
    page.locator(f"{W} .gk-defense-picker").first.wait_for(state="detached", timeout=60_000)
    lab.run(page, KERNEL + "print('DEF', s.log[-1].kind, s.log[-1].data['args']['kind'])",
            expect="DEF combat.defend dodge", timeout_ms=60_000)
    assert page.locator(f"{W} .gk-tracker-results .gk-combat-defend").count() == 1

    # next turn (mouse), then damage typed into the damage box (Enter)
    page.locator(f"{W} .gk-next").first.click()
    page.locator(f'{W} .gk-combatant.gk-active[data-name="Goblin1"]').first.wait_for(timeout=60_000)
    page.locator(f"{W} .gk-damage-target").first.select_option("Goblin1")
    spec = page.locator(f"{W} .gk-damage-spec").first
    spec.click()
    spec.fill("1d+9 cr")
    page.keyboard.press("Enter")
    page.locator(f'{W} .gk-combatant[data-name="Goblin1"] .gk-hp[data-state="collapse"]').first.wait_for(
        timeout=60_000)
    damage = page.locator(f"{W} .gk-tracker-results .gk-combat-damage").first
    assert "Goblin1" in damage.inner_text() and damage.locator(".gk-gurps-damage .gk-die").count() == 1  # 1d: one die

    # the pending HT roll: Goblin1 at HP <= 0 tries to attack; the button rolls HT first
    page.locator(f"{W} .gk-maneuver-picker").first.select_option("attack")
    check = page.locator(f"{W} .gk-check-consciousness").first
    check.wait_for(timeout=60_000)
    assert "Goblin1" in check.inner_text()
    lab.screenshot(page, "tracker-exchange-light.png")
    check.click()
    page.locator(f"{W} .gk-check-consciousness").first.wait_for(state="detached", timeout=60_000)
    out = lab.run(page, KERNEL + "e = s.log[-1]\nprint('HT', e.kind, e.data['args']['maneuver'], "
                                 "len(e.data['faces']), s.combat.state.get('Goblin1').consciousness_checked)",
                  expect="HT combat.maneuver", timeout_ms=60_000)
    assert "attack 3 True" in out
    assert page.locator(f"{W} .gk-tracker-results .gk-gurps-check").count() >= 1

    # a newcomer joins by keyboard; a goblin leaves by mouse; the turn stays with Goblin1
    join = page.locator(f"{W} .gk-join-spec").first
    join.click()
    join.fill("Orc{ST=12,DX=14,HT=12}")
    page.keyboard.press("Enter")
    page.locator(f'{W} .gk-combatant[data-name="Orc"]').first.wait_for(timeout=60_000)
    names = page.locator(f"{W} .gk-combatant").evaluate_all("rows => rows.map(r => r.dataset.name)")
    assert names == ["Orc", "Aiko", "Goblin1", "Goblin2"]
    page.locator(f'{W} .gk-combatant[data-name="Goblin2"] .gk-leave').first.click()
    page.locator(f'{W} .gk-combatant[data-name="Goblin2"]').first.wait_for(state="detached", timeout=60_000)
    lab.run(page, KERNEL + "print('ORDER', [c.name for c in s.combat.state.combatants], s.combat.state.current.name)",
            expect="ORDER ['Orc', 'Aiko', 'Goblin1'] Goblin1", timeout_ms=60_000)
    assert page.locator(f'{W} .gk-combatant.gk-active[data-name="Goblin1"]').count() == 1

    # Tab reaches the buttons
    page.locator(f"{W} .gk-join-spec").first.focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('gk-join')")
    lab.screenshot(page, "tracker-light.png")
    _theme(page, "JupyterLab Dark", "false")
    lab.screenshot(page, "tracker-dark.png")
    _theme(page, "JupyterLab Light", "true")
    lab.close_page(page)
