"""The players' page on the GM's server: a player reaches the table and nothing else; the server
names the user (a client-sent one is overwritten); intents reach the GM's kernel and come back as
that player's own reply and view; a secret event sends the player nothing."""

from __future__ import annotations

import json

import pytest
from tornado.httpclient import HTTPClientError

GM = {"X-Test-User": "gm"}
ALICE = {"X-Test-User": "alice"}
BOB = {"X-Test-User": "bob"}


async def _status(jp_fetch, *path, headers, method="GET", body=None, **options):
    try:
        response = await jp_fetch(*path, headers=headers, method=method, body=body, **options)
    except HTTPClientError as error:
        return error.code
    return response.code


@pytest.mark.parametrize("path", [("api", "contents"), ("api", "kernels"), ("api", "sessions"), ("api", "terminals"),
                                  ("api", "kernelspecs"), ("api", "config", "x")])
async def test_a_player_gets_403_everywhere_but_the_table(jp_fetch, path):
    assert await _status(jp_fetch, *path, headers=ALICE) == 403
    assert await _status(jp_fetch, *path, headers=GM) in (200, 404)


async def test_the_page_is_served_to_a_player_and_to_nobody_signed_out(jp_fetch):
    page = await jp_fetch("gamekernel", "table", headers=ALICE)
    assert page.code == 200 and b"sends intents (data, never code)" in page.body
    assert await _status(jp_fetch, "gamekernel", "table", headers={}, follow_redirects=False) in (302, 403)


async def test_a_player_cannot_open_a_kernel_websocket(jp_fetch, jp_ws_fetch):
    kernel = json.loads((await jp_fetch("api", "kernels", method="POST", body="{}", headers=GM)).body)
    try:
        with pytest.raises(HTTPClientError) as refused:
            await jp_ws_fetch("api", "kernels", kernel["id"], "channels", headers=ALICE)
        assert refused.value.code == 403
    finally:
        await jp_fetch("api", "kernels", kernel["id"], method="DELETE", headers=GM)


async def test_a_player_asking_for_views_in_a_loop_is_refused_429_past_the_burst(jp_fetch):
    """A view may be drawn by the GM's kernel: a player's GETs share a bucket (a burst of 4, 2 a
    second), so a loop of them cannot keep the kernel busy; another player is not slowed by it."""
    from gamekernel.remote import limits

    statuses = [await _status(jp_fetch, "gamekernel", "table", "api", "view", headers=ALICE)
                for _ in range(limits.BURST + 3)]
    assert statuses[:limits.BURST] == [200] * limits.BURST
    assert 429 in statuses[limits.BURST:]
    assert await _status(jp_fetch, "gamekernel", "table", "api", "view", headers=BOB) == 200
