"""The GM's panel (`%table players`) in JupyterLab at a tablet's size (768×1024): seats, a waiting
player action with what it will roll, an ask, a handout to reveal; nothing wider than the panel, every
button and field at least 44 px; one tap approves the waiting action, one reveals the handout to all.
Screenshot in test-artifacts/."""

import pytest

pytestmark = pytest.mark.browser

P = ".gk-players"
KERNEL = "from gamekernel.magics import current_session as cs\ns = cs()\n"
SETUP = KERNEL + """from pathlib import Path
from gamekernel.remote.intents import handle
s.gurps.char_new('Aiko')
s.gurps.char_new('Bren')
s.seats.seat('alice', 'Aiko')
s.seats.seat('bob', 'Bren')
s.seats.approval(True)
print(handle(s, 'alice', {'action': 'check', 'spec': 'Stealth-2'}).text)
s.seats.ask('bob', 'Per-1')
Path('letter.txt').write_text('Meet me at the mill.')
s.seats.show(['alice'], 'letter.txt')
print('ready')"""

FITS = """(selector) => { const panel = document.querySelector(selector);
    const small = [...panel.querySelectorAll('button, input:not([type=checkbox]), label')]
        .filter(n => { const b = n.getBoundingClientRect(); return b.width && (b.width < 44 || b.height < 44); })
        .map(n => `${n.tagName} ${n.textContent} ${n.getBoundingClientRect().width}`);
    return {overflow: panel.scrollWidth - panel.clientWidth, small}; }"""


def test_the_gms_panel_at_tablet_size(lab):
    page = lab.open("panel.ipynb", ["%load_ext gamekernel", "%seed 3", SETUP, "%table players"], timeout_ms=180_000)
    page.set_viewport_size({"width": 768, "height": 1024})
    panel = page.locator(P).first
    panel.wait_for(timeout=120_000)
    page.locator(f"{P} .gk-players-row", has_text="check · Stealth-2").first.wait_for(timeout=60_000)
    assert page.locator(f"{P} .gk-players-row", has_text="letter.txt").count() == 1
    panel.scroll_into_view_if_needed()
    seen = page.evaluate(FITS, P)
    assert seen == {"overflow": 0, "small": []}, seen
    lab.screenshot(page, "gm-panel-tablet.png")
    page.locator(f"{P} .gk-players-row", has_text="check · Stealth-2").locator("button").first.click()
    lab.run(page, KERNEL + "print('BY', [e.by for e in s.log if e.kind == 'gurps.check'])", expect="BY ['alice']",
            timeout_ms=60_000)
    page.locator(f"{P} .gk-players-row", has_text="letter.txt").locator("button").first.click()
    lab.run(page, KERNEL + "print('REVEALED', [e.kind for e in s.log if e.seq in s.seats.state.revealed])",
            expect="REVEALED ['table.handout']", timeout_ms=60_000)
