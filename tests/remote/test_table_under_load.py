"""The table on a real kernel when it is slow or flooded: a busy kernel is never taken for a
restarted one; an action is carried out once however often it is sent; a wait past the timeout tells
the truth; one table link per kernel across `%reload_ext` and a restart, and the players' views
follow the reload without anyone acting; views never reach the GM's own notebook connection; the
network's input is bounded with one-line refusals."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from tornado.httpclient import HTTPClientError

from gamekernel.remote import bridge as bridge_module
from gamekernel.remote import limits
from tests.remote.test_table_end_to_end import _kernel, _run  # the GM's notebook, one helper for both

GM = {"X-Test-User": "gm"}
ALICE = {"X-Test-User": "alice"}
SETUP = "%load_ext gamekernel\n%seed 3\n%char new Aiko dx=12\n%table seat alice Aiko\n%table serve"
LABELS = ("from gamekernel.magic_base import current_session as _cs\n"
          "print([e.data['result'].get('label') for e in _cs().log if e.kind == 'roll'])")
LINKS = ("from gamekernel.remote import comm as _c\n_k = get_ipython().kernel\n"
         "print(_c.link_count(), sum(1 for c in _k.comm_manager.comms.values() if c.target_name == _c.TARGET),"
         " __import__('gamekernel.magic_base').magic_base.current_session().observer_count)")


async def _post(jp_fetch, body, headers=ALICE):
    try:
        response = await jp_fetch("gamekernel", "table", "api", "intent", method="POST", body=body, headers=headers)
    except HTTPClientError as error:
        return error.code, json.loads(error.response.body) if error.response is not None else None
    return response.code, json.loads(response.body)


async def _until(predicate, seconds=60.0):
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return predicate()


async def _ready(jp_fetch, bridge):
    found = json.loads((await jp_fetch("gamekernel", "table", "api", "view", headers=ALICE)).body)["view"]
    assert found is not None
    assert await _until(lambda: not bridge.busy)


@pytest.fixture
def bridge(jp_serverapp):
    return jp_serverapp.web_app.settings["gamekernel_table_bridge"]


async def test_a_busy_kernel_is_not_a_restarted_one(jp_fetch, jp_serverapp, bridge):
    kernel = await _kernel(jp_fetch)
    await _run(jp_serverapp, kernel, SETUP)
    await _ready(jp_fetch, bridge)
    # the kernel says "idle" (as it does between queued messages) and still runs for 4.5 s: longer
    # than the 3 s after which an idle-looking kernel used to be declared restarted
    cell = asyncio.ensure_future(_run(jp_serverapp, kernel, "import time\ntime.sleep(0.5)\n"
                                      "get_ipython().kernel._publish_status('idle', 'shell')\n"
                                      "time.sleep(4.5)\n%roll 1d6 during"))
    assert await _until(lambda: bridge.busy)  # the cell runs
    assert await _until(lambda: bridge.busy is False and not cell.done())  # and says "idle"
    code, body = await _post(jp_fetch, json.dumps({"action": "roll", "dice": "2d6 queued", "cid": "one"}))
    await cell
    assert code == 200 and body["reply"]["ok"], body
    assert "restarted" not in json.dumps(body) and bridge.restarts == 0
    assert (await _run(jp_serverapp, kernel, LABELS)).strip() == "['during', 'queued']"
    assert (await _run(jp_serverapp, kernel, LINKS)).split()[:2] == ["1", "1"]
    await jp_fetch("api", "kernels", kernel, method="DELETE", headers=GM)


async def test_a_long_wait_tells_the_truth_and_the_action_is_done_once(jp_fetch, jp_serverapp, bridge, monkeypatch):
    monkeypatch.setattr(bridge_module, "REPLY_TIMEOUT", 1.0)
    kernel = await _kernel(jp_fetch)
    await _run(jp_serverapp, kernel, SETUP)
    await _ready(jp_fetch, bridge)
    cell = asyncio.ensure_future(_run(jp_serverapp, kernel, "import time\ntime.sleep(4)\n%roll 1d6 during"))
    assert await _until(lambda: bridge.busy)
    intent = json.dumps({"action": "roll", "dice": "2d6 late", "cid": "late-1"})
    code, body = await _post(jp_fetch, intent)
    assert code == 200 and body["reply"]["waiting"] and body["reply"]["text"] == bridge_module.STILL_WAITING
    assert "try again" not in body["reply"]["text"]
    again = await _post(jp_fetch, intent)  # the player sends it again all the same, twice
    await _post(jp_fetch, intent)
    await cell
    assert again[1]["reply"]["waiting"]
    assert await _until(lambda: not bridge.pending)
    assert (await _run(jp_serverapp, kernel, LABELS)).strip() == "['during', 'late']"
    code, body = await _post(jp_fetch, intent)  # answered after it was done: the first answer, nothing new
    assert body["reply"]["ok"] and (await _run(jp_serverapp, kernel, LABELS)).strip() == "['during', 'late']"
    await jp_fetch("api", "kernels", kernel, method="DELETE", headers=GM)


async def test_one_link_across_reload_and_restart_and_views_follow_the_reload(jp_fetch, jp_serverapp, bridge):
    kernel = await _kernel(jp_fetch)
    await _run(jp_serverapp, kernel, SETUP)
    received: list = []
    bridge.listen("alice", received.append)  # alice's page is open (as the socket handler does)
    await bridge.view("alice")
    assert await _until(lambda: bool(received))
    assert (await _run(jp_serverapp, kernel, LINKS)).split() == ["1", "1", "2"]
    received.clear()
    await _run(jp_serverapp, kernel, "%reload_ext gamekernel\n%char new Aiko dx=12\n%char new Bo\n"
                                     "%table seat alice Aiko\n%table seat alice Bo")
    assert await _until(lambda: any(m["view"]["mine"] == ["Aiko", "Bo"] for m in received))  # nobody acted
    assert (await _run(jp_serverapp, kernel, LINKS)).split() == ["1", "1", "2"]
    await jp_fetch("api", "kernels", kernel, "restart", method="POST", body="{}", headers=GM)
    await _run(jp_serverapp, kernel, SETUP)
    _, body = await _post(jp_fetch, json.dumps({"action": "roll", "dice": "3d6 after"}))
    assert await _until(lambda: bridge.ready)
    if not body["reply"]["ok"]:  # sent while the restarted kernel was still loading gamekernel
        _, body = await _post(jp_fetch, json.dumps({"action": "roll", "dice": "3d6 after"}))
    assert body["reply"]["ok"], body
    assert (await _run(jp_serverapp, kernel, LINKS)).split() == ["1", "1", "2"]
    bridge.leave("alice", received.append)
    await jp_fetch("api", "kernels", kernel, method="DELETE", headers=GM)


async def test_views_reach_the_player_and_not_the_gms_notebook(jp_fetch, jp_serverapp, bridge):
    kernel = await _kernel(jp_fetch)
    await _run(jp_serverapp, kernel, SETUP)
    received: list = []
    bridge.listen("alice", received.append)
    await bridge.view("alice")
    assert await _until(lambda: bool(received))
    received.clear()
    seen: list = []
    await _run(jp_serverapp, kernel, "%roll 3d6 stairs", seen)
    assert await _until(lambda: any("stairs" in json.dumps(m) for m in received))
    assert [m for m in seen if m["header"]["msg_type"] == "comm_msg"] == []
    assert "stairs" in json.dumps([m["content"] for m in seen])  # the GM's own output, and nothing of the players'
    bridge.leave("alice", received.append)
    assert "alice" not in bridge.views
    await jp_fetch("api", "kernels", kernel, method="DELETE", headers=GM)


async def test_the_same_action_sent_three_times_is_recorded_once_and_input_is_bounded(jp_fetch, jp_serverapp, bridge):
    kernel = await _kernel(jp_fetch)
    await _run(jp_serverapp, kernel, SETUP)
    await _ready(jp_fetch, bridge)
    intent = json.dumps({"action": "roll", "dice": "1d6 once", "cid": "same"})
    replies = [await _post(jp_fetch, intent) for _ in range(3)]
    assert [r[1]["reply"]["ok"] for r in replies] == [True] * 3 and len({json.dumps(r) for r in replies}) == 1
    assert (await _run(jp_serverapp, kernel, LABELS)).strip() == "['once']"
    padded = intent + " " * (limits.MAX_BYTES + 1 - len(intent))
    code, body = await _post(jp_fetch, padded)
    assert code == 413 and "\n" not in body["reply"]["text"]
    code, body = await _post(jp_fetch, "[" * 33 + "]" * 33)
    assert code == 400 and "deep" in body["reply"]["text"]
    code, body = await _post(jp_fetch, "[" * 30_000)
    assert code == 400
    answers = [(await _post(jp_fetch, json.dumps({"action": "roll", "dice": f"1d6 burst{n}"})))[1]["reply"]
               for n in range(12)]  # a burst of 4, then 2 a second; the rest refused at once, the kernel never asked
    refused = [a for a in answers if "too fast" in a["text"]]
    assert refused and all(not a["ok"] for a in refused)
    assert (await _run(jp_serverapp, kernel, LABELS)).count("burst") == len(answers) - len(refused)
    await jp_fetch("api", "kernels", kernel, method="DELETE", headers=GM)


async def test_the_socket_refuses_a_long_message_with_a_line_and_a_closed_page_is_let_go_of_once(
        jp_fetch, jp_ws_fetch, jp_serverapp, bridge, caplog):
    kernel = await _kernel(jp_fetch)
    await _run(jp_serverapp, kernel, SETUP)
    page = await jp_ws_fetch("gamekernel", "table", "api", "socket", headers=ALICE)

    async def next_of(kind):
        while True:
            message = json.loads(await asyncio.wait_for(page.read_message(), 60))
            if message["type"] == kind:
                return message

    assert (await next_of("view"))["view"]["mine"] == ["Aiko"]
    page.write_message(json.dumps({"action": "roll", "dice": "1d6"}) + " " * limits.MAX_BYTES)
    refused = (await next_of("reply"))["reply"]
    assert refused["ok"] is False and "too long" in refused["text"] and "\n" not in refused["text"]
    page.write_message(json.dumps({"action": "roll", "dice": "1d6 by-socket", "cid": "s1"}))
    done = (await next_of("reply"))["reply"]
    assert done["ok"] and done["cid"] == "s1" and "by-socket" in done["text"]
    page.close()
    assert await _until(lambda: "alice" not in bridge.listeners and "alice" not in bridge.views)
    await _run(jp_serverapp, kernel, "%roll 1d6 nobody-listens\n%roll 1d6 still-nobody")
    assert "Task exception was never retrieved" not in caplog.text
    await jp_fetch("api", "kernels", kernel, method="DELETE", headers=GM)

