"""Deny by default, proven on every route: the real Jupyter server with every extension the table's
install loads (JupyterLab and its settings/workspaces/extensions/build APIs, Notebook 7, terminals,
the language servers, Voila when installed) and the deny-by-default identity provider `make table`
uses (auth.py). Each route the running server registers (walked recursively through tornado's
routers), each HTTP method its handler defines and each websocket, is requested as a signed-in
player: 403 everywhere but the players' page and its socket. The same requests as the GM: never 403.

Named regressions: a player's keyboard-shortcut setting (Shift+Enter replaces the GM's cell and runs
it) is refused and the GM's settings are unchanged; `/metrics` (its last activity moves when the GM
rolls in secret) and `/api/me` answer a player 403.
"""

from __future__ import annotations

import importlib.util
import json
import re
import re._parser as sre  # the regex parser: each route's pattern filled with a matching path
from typing import Any

import pytest
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.routing import PathMatches, Router
from tornado.simple_httpclient import HTTPStreamClosedError
from tornado.web import RequestHandler
from tornado.websocket import WebSocketHandler, websocket_connect

from gamekernel.remote.auth import DENIED, is_table_handler
from tests.remote.conftest import TableHeaderIdentity

GM = {"X-Test-User": "gm"}
PLAYER = {"X-Test-User": "alice"}
EXTENSIONS = ["gamekernel.remote.server", "jupyterlab", "notebook", "jupyter_server_terminals", "jupyter_lsp",
              "notebook_shim", "voila.server_extension"]
# what the GM's own requests leave out: they would stop the test's server or build JupyterLab, or never
# answer (jupyterlab_server's licenses handler calls its own `finish` without the argument it requires)
GM_SKIPS = {("ShutdownHandler", "POST"), ("BuildHandler", "POST"), ("LicensesHandler", "OPTIONS")}
# a 403 these handlers give the GM too, their own (the request's made-up values): tornado's XSRF check
# on a plain tornado handler, and a file Voila's static handlers do not serve
GM_OWN_403 = {("TrailingSlashHandler", "POST"), ("TrailingSlashHandler", "PUT"), ("MultiStaticFileHandler", "GET"),
              ("MultiStaticFileHandler", "HEAD"), ("AllowListFileHandler", "GET"), ("AllowListFileHandler", "HEAD")}
BODY_METHODS = {"POST", "PUT", "PATCH"}
SHORTCUTS = "@jupyterlab/shortcuts-extension:shortcuts"
ATTACK = {"shortcuts": [{"command": "notebook:replace-selection", "keys": ["Shift Enter"],
                         "selector": ".jp-Notebook", "args": {"text": "import os; os.system('id')"}}]}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


@pytest.fixture
def jp_server_config():
    return {
        "ServerApp": {
            "jpserver_extensions": {name: True for name in EXTENSIONS if _installed(name)},
            "identity_provider_class": TableHeaderIdentity,
            "authorizer_class": "gamekernel.remote.auth.PlayersAuthorizer",
            "disable_check_xsrf": True,  # the header identity stands in for a signed-in browser
            "authenticate_prometheus": True,
            "allow_unauthenticated_access": False,  # as `make table` runs it (hub/settings.py)
        },
        "PlayersAuthorizer": {"gm": "gm"},
        "TableHeaderIdentity": {"gm": "gm"},
    }


@pytest.fixture(autouse=True)
def _undo_notebook_shims_patch():
    """notebook_shim patches jupyter_server's ExtensionManager class for good: put it back after."""
    from jupyter_server.extension.manager import ExtensionManager

    original = ExtensionManager.__dict__["sorted_extensions"]
    yield
    ExtensionManager.sorted_extensions = original


# -- every route, walked from the server's own routers


def _routes(router: Any) -> list[tuple[re.Pattern[str], type]]:
    found = []
    for rule in router.rules:
        target = rule.target
        if isinstance(target, Router) and hasattr(target, "rules"):
            found += _routes(target)
        elif isinstance(target, type) and issubclass(target, RequestHandler):
            assert isinstance(rule.matcher, PathMatches), (rule, "a handler matched by something but a path")
            found.append((rule.matcher.regex, target))
        else:  # a target tornado serves without a handler class would pass the route guard by
            raise AssertionError(f"a route that is no handler class: {rule!r}")
    return found


def _char(items: list) -> str:
    """A character the regex character set `items` accepts."""
    negate = items and items[0][0] is sre.NEGATE
    chars = {sre.CATEGORY_DIGIT: "1", sre.CATEGORY_WORD: "a", sre.CATEGORY_NOT_SPACE: "a",
             sre.CATEGORY_NOT_DIGIT: "a", sre.CATEGORY_NOT_WORD: "-", sre.CATEGORY_SPACE: " "}
    if not negate:
        op, value = items[0]
        if op is sre.LITERAL:
            return chr(value)
        if op is sre.RANGE:
            return chr(value[0])
        return chars[value]
    pattern = re.compile("[" + "".join(_set_text(items)) + "]")
    return next(c for c in "aZ1_-.x" if pattern.fullmatch(c))


def _set_text(items: list) -> list[str]:
    texts = {sre.CATEGORY_DIGIT: r"\d", sre.CATEGORY_WORD: r"\w", sre.CATEGORY_SPACE: r"\s",
             sre.CATEGORY_NOT_DIGIT: r"\D", sre.CATEGORY_NOT_WORD: r"\W", sre.CATEGORY_NOT_SPACE: r"\S"}
    out = []
    for op, value in items:
        if op is sre.NEGATE:
            out.append("^")
        elif op is sre.LITERAL:
            out.append(re.escape(chr(value)))
        elif op is sre.RANGE:
            out.append(f"{re.escape(chr(value[0]))}-{re.escape(chr(value[1]))}")
        else:
            out.append(texts[value])
    return out


def _fill(parsed: Any) -> str:
    """A path the parsed regex matches: each group filled with a plausible value."""
    out = []
    for op, value in parsed:
        if op is sre.LITERAL:
            out.append(chr(value))
        elif op is sre.NOT_LITERAL:
            out.append("a" if value != ord("a") else "b")
        elif op is sre.ANY:
            out.append("a")
        elif op is sre.IN:
            out.append(_char(value))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, high, sub = value
            out.append(_fill(sub) * min(max(low, 1), high))
        elif op in (sre.SUBPATTERN, sre.ATOMIC_GROUP):
            out.append(_fill(value[-1]))
        elif op is sre.BRANCH:
            out.append(_fill(value[1][0]))
        elif op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            continue
        else:
            raise AssertionError(f"no filler for the regex part {op}")
    return "".join(out)


def _path_for(regex: re.Pattern[str]) -> str:
    path = _fill(sre.parse(regex.pattern))
    path = path if path.startswith("/") else "/" + path  # a catch-all (`.*`): a request's path has its slash
    assert regex.match(path), (regex.pattern, path)
    return path


def _methods(handler: type) -> list[str]:
    if issubclass(handler, WebSocketHandler):
        return ["WEBSOCKET"]
    return [m for m in handler.SUPPORTED_METHODS
            if getattr(handler, m.lower(), None) is not getattr(RequestHandler, m.lower(), None)]


def _requests(web_app: Any) -> list[tuple[str, type, str, bool]]:
    """(path, handler class, method, whether the handler defines that method) for every route: its own
    methods and websocket, and every other standard method (a player gets 403 for those too)."""
    routes = _routes(web_app.default_router)
    default = web_app.settings.get("default_handler_class")
    if default is not None:
        routes.append((re.compile("/no/such/route$"), default))
    found = []
    for regex, handler in routes:
        own = _methods(handler)
        others = [m for m in RequestHandler.SUPPORTED_METHODS if m not in own]
        found += [(_path_for(regex), handler, method, method in own) for method in [*own, *others]]
    return found


async def _answer(client: Any, port: int, path: str, method: str, headers: dict[str, str]) -> int:
    _LAST.clear()
    if method == "WEBSOCKET":
        try:
            socket = await websocket_connect(HTTPRequest(f"ws://127.0.0.1:{port}{path}", headers=headers,
                                                         request_timeout=20))
        except HTTPClientError as error:
            return error.code
        socket.close()
        return 101
    try:
        response = await client.fetch(path, method=method, headers=headers, raise_error=False,
                                      follow_redirects=False, body="{}" if method in BODY_METHODS else None,
                                      allow_nonstandard_methods=True, request_timeout=30)
    except HTTPStreamClosedError:  # a handler that fails before it runs (jupyter_server's PublicStaticFileHandler
        return 0  # under a base URL has no `path`): no answer at all, to anyone
    _LAST["body"] = response.body[:200]
    if method != "HEAD" and response.code in (301, 302, 303, 307, 308, 401):
        assert not response.body.strip() or response.code != 200, (path, response.body[:200])
    return response.code


_LAST: dict = {}


async def _cleanup(server: Any) -> None:
    await server.kernel_manager.shutdown_all()
    terminals = getattr(server.web_app.settings.get("terminal_manager"), "terminate_all", None)
    if terminals is not None:
        await terminals()


async def test_every_route_of_the_gms_server_answers_a_player_403_but_the_players_page(
        jp_serverapp, http_server_client, jp_http_port):
    requests = _requests(jp_serverapp.web_app)
    handlers = {handler for _, handler, _, _ in requests}
    table = [(path, method) for path, handler, method, own in requests if is_table_handler(handler)]
    assert len({path for path, _ in table}) == 4, table  # the page, view, intent and socket
    assert len(handlers) > 60, len(handlers)
    leaks, refused_gm, gm_requests = [], [], 0
    try:
        for path, handler, method, own in requests:
            player = await _answer(http_server_client, jp_http_port, path, method, PLAYER)
            if is_table_handler(handler):  # the players' page: its own methods (a CORS preflight is the GM's
                # alone: auth.py `may_preflight`); tornado's 405 for the others; 400: HTTP to its socket
                reaches = own and method != "OPTIONS"
                wrong = player in (403, 0) if reaches else player not in (400, 403, 405)
            else:
                wrong = player not in (403, 0)  # 0: no answer at all
            if wrong:
                leaks.append((method, path, handler.__name__, player))
            if not own or (handler.__name__, method) in GM_SKIPS:
                continue
            gm_requests += 1
            gm = await _answer(http_server_client, jp_http_port, path, method, GM)
            if gm == 403 and ((handler.__name__, method) not in GM_OWN_403 or _LAST.get("body") == DENIED.encode()):
                refused_gm.append((method, path, handler.__name__, _LAST.get("body")))
    finally:
        await _cleanup(jp_serverapp)
    own_methods = sum(own for *_, own in requests)
    print(f"deny by default: {len(handlers)} handler classes, {own_methods} routes x their own methods and "
          f"{len(requests) - own_methods} x the other standard methods requested as a player "
          f"({len(requests) - len(table)} refused, {len(table)} to the players' page); {gm_requests} as the GM")
    assert not leaks, f"a player reached {len(leaks)} of {len(requests)}: {leaks}"
    assert not refused_gm, f"the GM was refused {len(refused_gm)}: {refused_gm}"


async def _fetch(client: Any, path: str, headers: dict[str, str], method: str = "GET", body: str | None = None) -> Any:
    return await client.fetch(path, method=method, headers=headers, body=body, raise_error=False,
                              follow_redirects=False, request_timeout=30)


async def test_a_players_shortcut_setting_is_refused_and_the_gms_settings_stay(jp_serverapp, http_server_client,
                                                                             jp_base_url):
    """The attack: a player PUTs a shortcut mapping Shift+Enter to "replace the cell's text and run it";
    the GM's next Shift+Enter would run the player's Python in the GM's kernel."""
    url = f"{jp_base_url}lab/api/settings/{SHORTCUTS}"
    before = await _fetch(http_server_client, url, GM)
    assert before.code == 200
    attack = await _fetch(http_server_client, url, PLAYER, "PUT", json.dumps({"raw": json.dumps(ATTACK)}))
    assert attack.code == 403, attack.body[:300]
    assert b"os.system" not in attack.body
    for path in (url, f"{jp_base_url}lab/api/settings", f"{jp_base_url}lab/api/workspaces/default"):
        assert (await _fetch(http_server_client, path, PLAYER)).code == 403, path
    after = await _fetch(http_server_client, url, GM)
    assert json.loads(after.body)["raw"] == json.loads(before.body)["raw"]
    assert b"os.system" not in after.body


@pytest.mark.parametrize("path", ["metrics", "api/me", "api/status", "lab/api/extensions", "lab/api/build",
                                  "api", "static/style/index.css", "lab", "tree", "login", "logout"])
async def test_a_player_gets_403_from_side_channels_and_unauthenticated_pages(jp_serverapp, http_server_client,
                                                                             jp_base_url, path):
    """`/metrics` moves its last activity when the GM rolls in secret; `/api/me` names the GM's
    permissions; static files and the sign-in pages ask nobody's identity at all."""
    answer = await _fetch(http_server_client, jp_base_url + path, PLAYER)
    assert answer.code == 403, (path, answer.code, answer.body[:200])
    assert b"last_activity" not in answer.body and b"process_" not in answer.body
    assert (await _fetch(http_server_client, jp_base_url + path, GM)).code != 403, path


async def test_a_player_is_nobody_to_a_handler_that_only_asks_for_a_signed_in_user(jp_serverapp):
    """The second wall: the identity provider names the player to the players' page alone."""
    from gamekernel.remote.server import ViewHandler

    provider = jp_serverapp.identity_provider

    class Request:
        headers = PLAYER

    class Somewhere:
        application = jp_serverapp.web_app
        request = Request()

    table = ViewHandler.__new__(ViewHandler)
    table.request, table.application = Request(), jp_serverapp.web_app  # type: ignore[misc]
    assert (await provider.get_user(table)).username == "alice"
    assert await provider.get_user(Somewhere()) is None
    Somewhere.request.headers = GM  # type: ignore[misc]
    assert (await provider.get_user(Somewhere())).username == "gm"
