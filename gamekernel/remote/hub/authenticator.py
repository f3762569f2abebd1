"""Who may sign in to a table's hub: every person with a credential of their own, never the GM's.

Built on jupyterhub-nativeauthenticator (a JupyterHub project): players sign up at `/hub/signup` with
a password of their own and wait until the GM approves them at `/hub/authorize` (as a GM lets people
join on a virtual tabletop); failed sign-ins lock the account out for a while. Chosen over one-time
invite links because it is kept upstream, stores only bcrypt hashes in the hub's own database, and
lets a player come back another evening with the same name and password.

What this adds to it, for a table:
- The GM's account is made at every hub start from the password in the environment (never through a
  sign-up), so no player can claim it first; a sign-up under any spelling of the GM's name (`GM`,
  ` gm`, `ｇｍ`: `names.normalize_user`) is refused, and nobody can withdraw the GM's approval.
- The lock-out holds for every account, the GM's included: after `allowed_failed_logins` wrong
  passwords, even the right one is refused for `seconds_before_next_try` (measured on a monotonic
  clock: the upstream check reads only the seconds field of a timedelta, which wraps every day), and
  the sign-in page says so in one line (upstream's page would still check the password there, and
  tell an unapproved player's right password from a wrong one).
- Names follow `names.py`, the rule `%table seat` uses too.
- A sign-up is never approved by itself: upstream approves at once a name listed in `allowed_users`.
"""

from __future__ import annotations

import math
import time
from typing import Any
from urllib.parse import urlsplit

import bcrypt
from jupyterhub.handlers import BaseHandler
from nativeauthenticator import NativeAuthenticator
from nativeauthenticator.handlers import LoginHandler, ToggleAuthorizationHandler
from nativeauthenticator.orm import UserInfo
from tornado import web
from tornado.escape import url_escape
from tornado.httputil import url_concat
from traitlets import Unicode, default

from gamekernel.remote.hub.names import normalize_user, valid_user


class TableLoginHandler(LoginHandler):
    """The sign-in page (nativeauthenticator's, with its sign-up link), which refuses a locked-out
    account before looking at its password. Its own code, not upstream's: nativeauthenticator 1.3's
    handler reads `self.statsd` and renders without JupyterHub 6's `sync`, both gone or new in
    JupyterHub 6, so every sign-in there failed with an error 500."""

    def _render(self, login_error: str | None = None, username: str | None = None, sync: bool = False,
                **ignored: Any) -> Any:
        next_url = self.get_argument("next", default="")
        return BaseHandler.render_template(
            self, "native-login.html", sync=sync, next=url_escape(next_url), username=username,
            login_error=login_error, custom_html=self.authenticator.custom_html,
            login_url=self.settings["login_url"], enable_signup=self.authenticator.enable_signup,
            two_factor_auth=self.authenticator.allow_2fa,
            authenticator_login_url=url_concat(self.authenticator.login_url(self.hub.base_url), {"next": next_url}))

    async def post(self) -> None:
        data = {arg: self.get_argument(arg, strip=False) for arg in self.request.body_arguments if arg != "_xsrf"}
        name = self.authenticator.normalize_username(data.get("username", ""))
        wait = self.authenticator.locked_for(name)
        if wait > 0:
            self.set_status(429)
            error = f"Too many failed sign-ins for {name}: try again in {max(1, math.ceil(wait / 60))} minute(s)."
            self.finish(await self._render(login_error=error, username=name))
            return
        user = await self.login_user(data)
        if user:
            self._jupyterhub_user = user
            self.redirect(self.get_next_url(user))
            return
        error = "Invalid username or password."
        info = self.authenticator.get_user(name)
        if info is not None and not info.is_authorized and info.is_valid_password(data.get("password", "")):
            error = f"{name} is waiting for the GM's approval."  # counted as a failure above, like any
        self.set_status(403)
        self.finish(await self._render(login_error=error, username=name))


class TableToggleAuthorizationHandler(ToggleAuthorizationHandler):
    """Approve or withdraw a player: only by a click on the approval page itself (upstream toggles on
    any GET, so a link a player slips to the GM, or an image on any page, would approve them); the
    GM's own approval cannot be withdrawn."""

    async def get(self, slug: str) -> None:
        if normalize_user(slug) == self.authenticator.gm:
            raise web.HTTPError(403, "the GM's account is always approved")
        came_from = urlsplit(self.request.headers.get("Referer", ""))
        here = urlsplit(self.request.full_url())
        if (came_from.netloc, came_from.path) != (here.netloc, self.hub.base_url + "authorize"):
            raise web.HTTPError(403, "approve players with the buttons of the approval page (/hub/authorize)")
        await super().get(slug)


class TableAuthenticator(NativeAuthenticator):
    """NativeAuthenticator with the GM's account from the environment and a lock-out for everyone."""

    gm = Unicode("gm", config=True, help="The GM's user name (normalised as every name is).")
    gm_password = Unicode("", config=True, help="The GM's password, set at each hub start (never stored in clear).")

    @default("allow_all")
    def _allow_all(self) -> bool:
        return True  # who may sign in is decided by the GM's approval of each sign-up (and the GM's password)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gm = normalize_user(self.gm)
        if not valid_user(self.gm):
            raise ValueError(f"the GM's user name {self.gm!r} is not a valid user name")
        if not self.gm_password:
            raise ValueError("the GM's password is empty: the GM's account would be open to anyone")
        self.failures: dict[str, tuple[int, float]] = {}  # name -> (failed sign-ins, when the last one was)
        self._install_gm()

    def _install_gm(self) -> None:
        """Make (or take back) the GM's account with the password from the environment."""
        hashed = bcrypt.hashpw(self.gm_password.encode(), bcrypt.gensalt())
        info = UserInfo.find(self.db, self.gm)
        if info is None:
            self.db.add(UserInfo(username=self.gm, password=hashed, is_authorized=True))
        else:  # whatever was there (an older sign-up, an old password) is replaced
            info.password, info.is_authorized, info.has_2fa = hashed, True, False
        self.db.commit()

    # -- names ---------------------------------------------------------------------------------------

    def normalize_username(self, username: str) -> str:
        name = normalize_user(username)
        return self.username_map.get(name, name)

    def validate_username(self, username: str) -> bool:
        return valid_user(username) and super().validate_username(username)

    def create_user(self, username: str, password: str, **kwargs: Any) -> Any:
        """A sign-up; refused (None) for any spelling of the GM's name, whatever the database holds."""
        if self.normalize_username(username) == self.gm:
            self.log.warning("Refused a sign-up as the GM (%r)", username)
            return None
        return super().create_user(username, password, **kwargs)

    def get_authed_users(self) -> set[str]:
        """The approved accounts only. Upstream adds `allowed_users` and `admin_users`, and a sign-up
        under such a name is approved at once: with GAMEKERNEL_TABLE_PLAYERS=alice, whoever signed up
        as `alice` first would be in without the GM."""
        return {info.username for info in UserInfo.all_users(self.db) if info.is_authorized}

    # -- lock-out --------------------------------------------------------------------------------------

    def add_login_attempt(self, username: str) -> None:
        count, _ = self.failures.get(username, (0, 0.0))
        self.failures[username] = (count + 1, time.monotonic())

    def successful_login(self, username: str) -> None:
        self.failures.pop(username, None)

    def locked_for(self, username: str) -> float:
        """Seconds until `username` may try again (0: now). Locked after `allowed_failed_logins` failures."""
        count, last = self.failures.get(username, (0, 0.0))
        if not self.allowed_failed_logins or count < self.allowed_failed_logins:
            return 0.0
        return max(0.0, self.seconds_before_next_try - (time.monotonic() - last))

    def is_blocked(self, username: str) -> bool:
        return self.locked_for(username) > 0

    def get_handlers(self, app: Any) -> list[tuple[str, Any]]:
        replaced = {r"/login": TableLoginHandler, r"/authorize/([^/]*)": TableToggleAuthorizationHandler}
        return [(route, replaced.get(route, handler)) for route, handler in super().get_handlers(app)]
