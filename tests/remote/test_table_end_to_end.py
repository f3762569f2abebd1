"""A player's intent through the server to the GM's kernel and back, on a real kernel: the server
stamps the user, the kernel records `by`, a secret event sends the player nothing, and the link
survives `%reload_ext gamekernel` and a kernel restart."""

from __future__ import annotations

import asyncio
import json
import time

GM = {"X-Test-User": "gm"}
ALICE = {"X-Test-User": "alice"}
BOB = {"X-Test-User": "bob"}
SETUP = "%load_ext gamekernel\n%seed 3\n%char new Aiko dx=12\n%char new Orc\n%table seat alice Aiko\n%table serve"


async def _kernel(jp_fetch):
    return json.loads((await jp_fetch("api", "kernels", method="POST", body="{}", headers=GM)).body)["id"]


async def _run(app, kernel_id, code, seen=None):
    """Run `code` in the kernel as the GM's notebook would; its printed text (`seen` gets every
    iopub message)."""
    client = app.kernel_manager.get_kernel(kernel_id).client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=60)
        out = []

        def hook(msg):
            if seen is not None:
                seen.append(msg)
            if msg["header"]["msg_type"] == "stream":
                out.append(msg["content"]["text"])

        reply = await client.execute_interactive(code, timeout=60, output_hook=hook)
        assert reply["content"]["status"] == "ok", reply["content"]
        return "".join(out)
    finally:
        client.stop_channels()


async def _intent(jp_fetch, headers, intent):
    response = await jp_fetch("gamekernel", "table", "api", "intent", method="POST", body=json.dumps(intent),
                              headers=headers)
    return json.loads(response.body)["reply"]


async def _view(jp_fetch, headers, seconds: float = 60.0):
    """The player's view, once the kernel has sent one (the test waits for the state it asserts)."""
    deadline = time.monotonic() + seconds
    while True:
        found = json.loads((await jp_fetch("gamekernel", "table", "api", "view", headers=headers)).body)["view"]
        if found is not None or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.1)


async def _last_event(app, kernel_id):
    text = await _run(app, kernel_id, "from gamekernel.magic_base import current_session as _cs\n"
                                      "_e = _cs().log[-1]\nprint(_e.kind, _e.by, _e.actor)")
    return text.split()


async def test_an_intent_is_stamped_with_the_signed_in_user_and_recorded_by_it(jp_fetch, jp_serverapp):
    kernel = await _kernel(jp_fetch)
    await _run(jp_serverapp, kernel, SETUP)
    view = await _view(jp_fetch, ALICE)
    assert view["mine"] == ["Aiko"] and view["seats"] == {"alice": ["Aiko"]}
    reply = await _intent(jp_fetch, ALICE, {"action": "check", "spec": "DX", "user": "gm", "player": "gm"})
    assert reply["ok"] is True and reply["text"].startswith("Aiko tries DX (12): "), reply  # the story's line
    assert await _last_event(jp_serverapp, kernel) == ["gurps.check", "alice", "Aiko"]
    refused = await _intent(jp_fetch, BOB, {"action": "check", "spec": "DX"})
    assert refused == {"ok": False, "text": "you have no seat at this table: ask the GM to seat you"}
    assert await _last_event(jp_serverapp, kernel) == ["gurps.check", "alice", "Aiko"]  # nothing recorded
    await jp_fetch("api", "kernels", kernel, method="DELETE", headers=GM)


async def test_a_secret_event_sends_the_player_no_message_and_a_public_one_does(jp_fetch, jp_serverapp):
    kernel = await _kernel(jp_fetch)
    await _run(jp_serverapp, kernel, SETUP)
    await _view(jp_fetch, ALICE)
    bridge = jp_serverapp.web_app.settings["gamekernel_table_bridge"]
    received: list = []
    bridge.listen("alice", received.append)  # alice's page is open: her views are pushed
    while True:  # the first views have arrived when nothing has come for a second
        count = len(received)
        await asyncio.sleep(1.0)
        if len(received) == count:
            break
    received.clear()
    await _run(jp_serverapp, kernel, "%roll 3d6 CANARY-label --secret\n%check Per --secret @Aiko\n%note CANARY --gm")
    await asyncio.sleep(1.0)
    assert received == []
    await _run(jp_serverapp, kernel, "%roll 3d6 stairs")
    deadline = time.monotonic() + 60
    while not received and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert received and "stairs" in json.dumps(received) and "CANARY" not in json.dumps(received)
    await jp_fetch("api", "kernels", kernel, method="DELETE", headers=GM)


async def test_the_table_follows_reload_ext_and_a_kernel_restart(jp_fetch, jp_serverapp):
    kernel = await _kernel(jp_fetch)
    await _run(jp_serverapp, kernel, SETUP)
    first = await _intent(jp_fetch, ALICE, {"action": "roll", "dice": "1d6"})
    assert first["ok"], first
    await _run(jp_serverapp, kernel, "%reload_ext gamekernel\n%char new Aiko dx=12\n%table seat alice Aiko")
    second = await _intent(jp_fetch, ALICE, {"action": "roll", "dice": "2d6"})
    assert second["ok"], second
    assert await _last_event(jp_serverapp, kernel) == ["roll", "alice", "Aiko"]
    await jp_fetch("api", "kernels", kernel, "restart", method="POST", body="{}", headers=GM)
    await _run(jp_serverapp, kernel, SETUP)
    deadline = time.monotonic() + 60
    reply = {"ok": False}
    while not reply["ok"] and time.monotonic() < deadline:
        reply = await _intent(jp_fetch, ALICE, {"action": "roll", "dice": "3d6"})
        if not reply["ok"]:
            await asyncio.sleep(0.2)
    assert reply["ok"], reply
    await jp_fetch("api", "kernels", kernel, method="DELETE", headers=GM)


async def test_a_player_queues_behind_a_long_gm_cell_and_a_returning_player_sees_the_current_view(
        jp_fetch, jp_serverapp):
    kernel = await _kernel(jp_fetch)
    await _run(jp_serverapp, kernel, SETUP)
    await _view(jp_fetch, ALICE)
    bridge = jp_serverapp.web_app.settings["gamekernel_table_bridge"]
    while bridge.busy:  # the kernel idle first: a later "busy" is the long cell's
        await asyncio.sleep(0.02)
    long_cell = asyncio.ensure_future(_run(jp_serverapp, kernel, "import time\ntime.sleep(3)\n%roll 1d6 during"))
    while not bridge.busy:  # until the GM's cell is running
        await asyncio.sleep(0.02)
    reply = await _intent(jp_fetch, ALICE, {"action": "roll", "dice": "2d6 queued"})
    await long_cell
    assert reply["ok"], reply
    text = await _run(jp_serverapp, kernel, "from gamekernel.magic_base import current_session as _cs\n"
                                            "print([e.data['result'].get('label') for e in _cs().log"
                                            " if e.kind == 'roll'])")
    assert text.strip() == "['during', 'queued']"  # after the cell, not lost, not before it
    # away and back: a fresh page load gets the view as it is now, the GM's roll in its story
    await _run(jp_serverapp, kernel, "%roll 3d6 while-away")
    deadline = time.monotonic() + 60
    while True:
        view = json.loads((await jp_fetch("gamekernel", "table", "api", "view", headers=ALICE)).body)["view"]
        if any("while-away" in block["text"] for block in view["story"]) or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.1)
    assert any("while-away" in block["text"] for block in view["story"])
    await jp_fetch("api", "kernels", kernel, method="DELETE", headers=GM)
