"""The players' page in Chromium, on the GM's server: a player seated at two characters picks the one
who acts (a labelled chooser), and the action is recorded for that one; the story the page shows
follows the deltas it is sent; while nobody the players see has the turn, the fight's heading names
no turn."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.remote.test_table_under_load import GM, _kernel, _run

pytestmark = [pytest.mark.browser]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-dev-shm-usage"]
SETUP = ("%load_ext gamekernel\n%seed 3\n%char new Aiko dx=12\n%char new Bo dx=11\n"
         "%table seat alice Aiko\n%table seat alice Bo\n%table serve")
AMBUSH = ("%combat npc Assassin ST=10 DX=14 HT=10 HP=10 weapon=Knife:14:thr-1 imp\n%table hide Assassin\n"
          "%combat start Assassin Aiko")


@pytest.fixture
def chromium():
    if not Path(CHROMIUM).exists():
        if os.environ.get("GAMEKERNEL_REQUIRE_BROWSER"):
            pytest.fail("Chromium is required here (GAMEKERNEL_REQUIRE_BROWSER=1) but is not installed")
        pytest.skip("Chromium is not installed (apt-get install -y chromium)")
    return CHROMIUM


async def test_a_player_with_two_characters_picks_the_one_who_acts(jp_fetch, jp_serverapp, jp_http_port,
                                                                   jp_base_url, chromium):
    from playwright.async_api import async_playwright, expect

    kernel = await _kernel(jp_fetch)
    await _run(jp_serverapp, kernel, SETUP)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            context = await browser.new_context()
            await context.add_cookies([{"name": "test-user", "value": "alice",
                                        "url": f"http://127.0.0.1:{jp_http_port}/"}])
            page = await context.new_page()
            await page.goto(f"http://127.0.0.1:{jp_http_port}{jp_base_url}gamekernel/table")
            chooser = page.get_by_label("Acting as")
            await expect(chooser).to_have_value("Aiko")
            await chooser.select_option("Bo")
            await page.get_by_label("dice", exact=True).fill("2d6 chosen")
            await page.get_by_role("button", name="Roll", exact=True).click()
            await expect(page.locator("#reply")).to_have_class("good")
            await expect(page.get_by_label("the story so far")).to_contain_text("chosen")
            await expect(chooser).to_have_value("Bo")  # the choice outlives the redraw
            await _run(jp_serverapp, kernel, "%roll 1d6 gm-after")  # a delta: the story keeps what it had
            story = page.get_by_label("the story so far")
            await expect(story).to_contain_text("gm-after")
            await expect(story).to_contain_text("chosen")
            await _run(jp_serverapp, kernel, AMBUSH)  # a hidden fighter acts first: nobody's turn is shown
            await expect(page.get_by_role("heading", name="Fight · round 1", exact=True)).to_be_visible()
            await expect(page.get_by_label("the fight")).not_to_contain_text("'s turn")
        finally:
            await browser.close()
    text = await _run(jp_serverapp, kernel, "from gamekernel.magic_base import current_session as _cs\nimport json\n"
                                            "_e = [e for e in _cs().log if e.kind == 'roll'][-2]\n"
                                            "print(json.dumps([_e.kind, _e.by, _e.actor]))")
    assert json.loads(text) == ["roll", "alice", "Bo"]
    await jp_fetch("api", "kernels", kernel, method="DELETE", headers=GM)
