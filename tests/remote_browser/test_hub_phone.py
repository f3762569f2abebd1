"""The players' page on phones, over the real hub: Playwright device emulation (360×740 light and
390×844 dark, touch) drives every player intent by taps: a check from the sheet with a modifier, a typed
check, dice, choosing among one's characters, alpha draw / tap / overcharge, an MtG check and boost,
answering the GM's ask, attacking on one's turn and defending with the defences offered. After every
tap: no horizontal scroll, every tap target at least 44 px each way, the player's own reply arrives
(the seconds it took are printed, never asserted). A handout and a table roll for alice alone: bob's
page never receives a byte of either (his websocket frames are all recorded), until the GM reveals the
handout. A phone that slept (its socket dropped without a word) wakes to the current view. The page in
Japanese too. Screenshots at phone size, light and dark, in test-artifacts/.

Needs Chromium and configurable-http-proxy, like test_hub_table.py whose hub it uses.
"""

from __future__ import annotations

import base64
import json
import struct
import time
import zlib

import pytest

from tests.remote_browser.test_hub_table import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PASSWORD,
    ROOT,
    Hub,
    _api,
    _gm_runs,
    _require,
    gm_approves,
    sign_in,
    sign_up,
)

pytestmark = [pytest.mark.remote, pytest.mark.browser]

CANARY = "Qx7phone"  # in everything alice alone may read: her handout, the table the GM rolls for her
GM_SECRET = "Qx7gmonly"  # in the GM's own secrets: no phone may read it
PHONES = {"alice": ({"width": 360, "height": 740}, "light"), "bob": ({"width": 390, "height": 844}, "dark")}
ARTIFACTS = ROOT / "test-artifacts"
SETUP = """%load_ext gamekernel
%seed 2
%char new Aiko dx=12
%char skill Stealth 4 @Aiko
%char weapon Aiko Broadsword:13:sw+1 cut
%char new Bren ht=12
%char weapon Bren Shortsword:12:sw cut
%gw new Rin level 4
%library load Mira mira.txt
%table seat alice Aiko
%table seat alice Rin
%table seat alice Mira
%table seat bob Bren
%combat npc Orc ST=12 DX=11 HT=12 HP=18 weapon=Club:16:sw cr
%table serve"""
ORC_ATTACKS_BREN = """_f = _s.combat.state
if _f.pending is not None:
    _s.combat.defend(_f.pending.target)
for _ in range(30):  # until the Orc's blow is one Bren may defend against
    _s.combat.next()
    while _s.combat.state.current.name != 'Orc':
        _s.combat.next()
    _s.combat.attack('Orc', 'Bren', 'Club')
    if _s.combat.state.pending is not None:
        break
"""
OMEN = "\n".join(f"{n}: the omen says {CANARY}o{n}" for n in range(1, 7))


def png(width: int, height: int) -> bytes:
    """A small PNG image, with the canary in a text chunk (a byte of it in bob's frames would show)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + bytes([40, 120, 200]) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"tEXt", b"Comment\x00" + CANARY.encode()) + chunk(b"IDAT", zlib.compress(rows))
            + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    _require()
    running = Hub(tmp_path_factory.mktemp("hub"))
    yield running
    running.stop()


def phone(browser, hub: Hub, user: str):
    """`user` signs up, is let in, signs in and opens the players' page on an emulated phone; every
    websocket frame the page receives is kept."""
    viewport, scheme = PHONES[user]
    context = browser.new_context(viewport=viewport, device_scale_factor=3, is_mobile=True, has_touch=True,
                                  color_scheme=scheme, locale="en-US")
    page = context.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    page.set_default_timeout(20_000)
    assert "sent to the admin" in sign_up(page, hub, user, user + PASSWORD)
    gm_approves(browser, hub, user)
    sign_in(page, hub, user, user + PASSWORD)
    page.goto(f"{hub.base}/user/gm/gamekernel/table")
    if page.locator("text=Authorize access").count():
        page.locator("input[type=submit][value=Authorize], button:has-text('Authorize')").first.click()
    page.wait_for_function("(u) => document.getElementById('who')?.textContent.startsWith(u)", arg=user)
    return context, page, frames


def fits(page) -> dict:
    """What a phone user meets on the page now: its width against the screen's, and each visible tap
    target smaller than 44 px either way (none, when all is well)."""
    return page.evaluate("""() => {
        const small = [];
        for (const node of document.querySelectorAll('button, select, input, a[href]')) {
            const box = node.getBoundingClientRect();
            if (!box.width || !box.height) continue;
            const name = `${node.tagName} ${node.id || node.textContent}`;
            if (box.width < 44 || box.height < 44) small.push(`${name} ${box.width}x${box.height}`);
        }
        return {scroll: document.documentElement.scrollWidth, screen: window.innerWidth, small};
    }""")


def assert_phone_fit(page, where: str) -> None:
    seen = fits(page)
    assert seen["scroll"] <= seen["screen"], (where, seen)
    assert not seen["small"], (where, seen["small"])


def tap_and_wait(page, frames: list[str], selector: str, timings: dict, name: str, *, expect_ok: bool | None = True,
                 nth: int = 0) -> str:
    """Tap `selector` (its `nth` match), wait for the player's own reply and, when it was done, for their
    own view to be sent; keep the seconds each took. `expect_ok` None: done or refused by the rules (a
    boost after a success), a reply either way."""
    page.wait_for_timeout(600)  # a person's pace: the table takes at most 2 actions a second (limits.RATE)
    page.evaluate("() => { document.getElementById('reply').textContent = ''; }")
    seen = len(frames)
    start = time.monotonic()
    page.locator(selector).nth(nth).tap()
    page.wait_for_function("() => document.getElementById('reply').textContent.length > 0")
    timings[name] = round(time.monotonic() - start, 3)
    reply = page.locator("#reply")
    text, kind = reply.inner_text(), reply.get_attribute("class")
    assert expect_ok is None or (kind == "good") == expect_ok, (name, text, kind)
    if kind == "good":  # a done action changes the table: the player's own view follows
        while not any('"type": "view"' in f for f in frames[seen:]):
            assert time.monotonic() - start < 20, (name, "no view came")
            page.wait_for_timeout(10)
        timings[name + " (view)"] = round(time.monotonic() - start, 3)
    assert_phone_fit(page, name)
    return text


def test_every_player_intent_by_touch_on_phones_and_handouts_reach_their_player_alone(hub):
    from playwright.sync_api import sync_playwright

    token = hub.start_gm_server()
    folder = hub.tmp / "table"  # the GM's server's root: the kernel's working folder
    (folder / "mira.txt").write_text("4 Forest\n4 Llanowar Elves\n4 Serra Angel\n4 Plains\n4 Lightning Bolt\n")
    (folder / "letter.txt").write_text(f"Meet me at the old mill. {CANARY}letter", encoding="utf-8")
    (folder / "map.png").write_bytes(png(600, 40))  # wider than the phone: the page fits it
    kernel = _api(hub.base, "/user/gm/api/kernels", token, "POST", {})["id"]
    _gm_runs(hub.base, token, kernel, SETUP)
    _gm_runs(hub.base, token, kernel, f"%%rolltable define Omen 1d6\n{OMEN}")
    timings: dict[str, float] = {}
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        alice_context, alice, alice_frames = phone(browser, hub, "alice")
        bob_context, bob, bob_frames = phone(browser, hub, "bob")
        for page in (alice, bob):
            assert_phone_fit(page, "first view")
        # the sheet's rolls with a modifier, by touch
        alice.select_option("#character", "Aiko")
        alice.select_option("#rollable", "Stealth")
        alice.locator("#mod-up").tap()
        alice.locator("#mod-up").tap()
        assert alice.inner_text("#modifier") == "+2"
        text = tap_and_wait(alice, alice_frames, "#check-sheet", timings, "check from the sheet (+2)")
        assert "Aiko tries Stealth" in text, text
        alice.fill("#spec", "DX-1")
        assert "DX" in tap_and_wait(alice, alice_frames, "#check-typed", timings, "typed check")
        alice.fill("#dice", "2d6 phone")
        assert "phone" in tap_and_wait(alice, alice_frames, "#roll", timings, "dice")
        # another of her characters: Gamma World alpha cards
        alice.select_option("#character", "Rin")
        tap_and_wait(alice, alice_frames, "text=Draw alpha", timings, "alpha draw")
        tap_and_wait(alice, alice_frames, "button:has-text('Tap')", timings, "alpha tap")
        tap_and_wait(alice, alice_frames, "button:has-text('Overcharge')", timings, "alpha overcharge",
                     expect_ok=None, nth=1)
        # and her MtG library
        alice.select_option("#character", "Mira")
        alice.fill("#spec", "green 1")
        tap_and_wait(alice, alice_frames, "#check-typed", timings, "MtG check")
        tap_and_wait(alice, alice_frames, "button:has-text('Boost')", timings, "MtG boost", expect_ok=None)
        # the GM's ask
        _gm_runs(hub.base, token, kernel, "%table ask alice Per")
        alice.wait_for_selector("button:has-text('Roll it')")
        tap_and_wait(alice, alice_frames, "button:has-text('Roll it')", timings, "answer the GM's ask")
        # a fight: alice attacks on her turn, bob defends with what he is offered
        _gm_runs(hub.base, token, kernel, "%combat start Aiko Bren Orc\nfrom gamekernel.magics import current_session"
                                          " as _cs\n_s = _cs()\nwhile _s.combat.state.current.name != 'Aiko':"
                                          " _s.combat.next()")
        alice.select_option("#character", "Aiko")
        alice.wait_for_selector("#attack")
        alice.select_option("#target", "Orc")
        tap_and_wait(alice, alice_frames, "#attack", timings, "attack on my turn")
        _gm_runs(hub.base, token, kernel, ORC_ATTACKS_BREN)
        bob.wait_for_selector("text=Bren is attacked:")
        assert_phone_fit(bob, "defence offered")
        bob.screenshot(path=str(ARTIFACTS / "phone-390-dark-defend.png"), full_page=False)
        tap_and_wait(bob, bob_frames, "section[aria-label='the fight'] button.primary", timings, "defend")
        # alice alone: a handout (text and image) and a table roll; bob never receives a byte of them
        _gm_runs(hub.base, token, kernel, "%table show alice letter.txt\n%table show alice map.png\n"
                                          "%rolltable roll Omen --to alice")
        alice.wait_for_selector("#handouts img")
        alice.wait_for_function("(c) => document.getElementById('handouts').innerText.includes(c)", arg=CANARY)
        alice.wait_for_function("(c) => document.getElementById('rolls').innerText.includes(c)", arg=CANARY)
        bob.wait_for_function("() => document.body.innerText.includes('The GM rolled on Omen for alice')")
        assert_phone_fit(alice, "handouts")
        image = base64.b64encode((folder / "map.png").read_bytes()).decode()
        for frame in bob_frames:
            assert CANARY not in frame and image[:40] not in frame, frame[:300]
            assert "letter.txt" not in frame and "map.png" not in frame, frame[:300]
        assert bob.locator("#handouts").count() == 0 and bob.locator("#rolls").count() == 0
        # the GM's own secrets reach no phone at all
        _gm_runs(hub.base, token, kernel, f"%roll 3d6 {GM_SECRET} --secret\n%note {GM_SECRET} --gm\n"
                                          "%rolltable roll Omen --secret")
        alice.wait_for_timeout(1000)
        assert not any(GM_SECRET in f for f in alice_frames + bob_frames)
        # phone sleeps: its socket is dropped without a word; the GM goes on; it wakes to the current view
        alice.evaluate("() => { const s = socket; s.onclose = null; s.close(); }")
        _gm_runs(hub.base, token, kernel, "%roll 3d6 while-asleep")
        start = time.monotonic()
        alice.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        alice.wait_for_function("() => document.body.innerText.includes('while-asleep')")
        timings["wake -> current view"] = round(time.monotonic() - start, 3)
        # screenshots at phone size, light and dark
        alice.screenshot(path=str(ARTIFACTS / "phone-360-light.png"), full_page=True)
        alice.emulate_media(color_scheme="dark")
        alice.screenshot(path=str(ARTIFACTS / "phone-360-dark.png"), full_page=True)
        bob.screenshot(path=str(ARTIFACTS / "phone-390-dark.png"), full_page=True)
        bob.emulate_media(color_scheme="light")
        bob.screenshot(path=str(ARTIFACTS / "phone-390-light.png"), full_page=True)
        # the GM reveals the letter: now bob holds it too
        seq = _gm_runs_output(hub, token, kernel)
        _gm_runs(hub.base, token, kernel, f"%reveal {seq}")
        bob.wait_for_function("(c) => (document.getElementById('handouts')?.innerText || '').includes(c)", arg=CANARY)
        # Japanese, from the device's language
        alice.goto(f"{hub.base}/user/gm/gamekernel/table?lang=ja")
        alice.wait_for_function("() => document.body.innerText.includes('あなたのキャラクター')")
        assert_phone_fit(alice, "Japanese")
        alice.screenshot(path=str(ARTIFACTS / "phone-360-dark-ja.png"), full_page=True)
        bob_context.close()
        alice_context.close()
        browser.close()
    counts = {"alice": sum(GM_SECRET in f for f in alice_frames), "bob": sum(GM_SECRET in f for f in bob_frames)}
    print("phone timings, tap -> own reply (s):", json.dumps(timings, ensure_ascii=False), "GM canary frames:", counts)


def _gm_runs_output(hub: Hub, token: str, kernel: str) -> int:
    """The event number of alice's letter (the GM reads it in the log: `%log --gm`), written to a file."""
    out = hub.tmp / "table" / "letter-seq.txt"
    _gm_runs(hub.base, token, kernel, "open('letter-seq.txt', 'w').write(str(next(e.seq for e in _s.log"
                                      " if e.kind == 'table.handout' and e.data['name'] == 'letter.txt')))")
    return int(out.read_text())
