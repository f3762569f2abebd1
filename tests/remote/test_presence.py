"""A table with players on its page counts as activity of the GM's server (gamekernel/remote/presence.py),
which is what the hub's idle culler reads: jupyter_server's `last_activity`."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from gamekernel.remote.presence import SETTING, Presence


async def test_an_open_players_page_keeps_the_server_active(jp_serverapp):
    app = jp_serverapp.web_app
    app.settings["started"] -= timedelta(hours=2)  # a server up for two hours, its kernels idle
    app.settings.pop("api_last_activity", None)
    presence = Presence(app.settings, every=0.05)
    idle = app.last_activity()
    page = object()
    presence.join(page)
    joined = app.last_activity()
    assert joined > idle and app.settings[SETTING] == joined
    await asyncio.sleep(0.3)
    assert app.last_activity() > joined  # still "now" while the page is open, nobody rolling
    presence.leave(page)
    left = app.last_activity()
    await asyncio.sleep(0.3)
    assert app.last_activity() == left and not presence.ticker.is_running()  # nobody there: it ages


async def test_presence_counts_every_page_until_the_last_leaves(jp_serverapp):
    presence = Presence(jp_serverapp.web_app.settings, every=0.05)
    alice, bob = object(), object()
    presence.join(alice)
    presence.join(bob)
    presence.leave(alice)
    assert presence.ticker.is_running()  # bob is still there
    presence.leave(bob)
    assert not presence.ticker.is_running()
    presence.leave(bob)  # a socket closed twice: nothing more
    assert presence.open == set()
