"""Who may sign in to a club's hub (`club.py`): the identities of `make table` (`authenticator.py`:
per-person passwords, a lock-out after failed sign-ins, the one account made from the environment,
here the club admin's), with open sign-up for players and the admin's approval for GMs.

Why open sign-up is safe here: a signed-up player reaches nothing (the `user` role holds no server
and no table) until a table's GM invites them (`%table invite`, which adds them to the table's group).
A GM's name is different: whoever holds it gets a server and the right to seat players, so a sign-up
under a GM's name waits for the club admin at /hub/authorize, as every sign-up does at a `make table`.
"""

from __future__ import annotations

from typing import Any

from traitlets import List, Unicode

from gamekernel.remote.hub.authenticator import TableAuthenticator


class ClubAuthenticator(TableAuthenticator):
    """TableAuthenticator for many tables: `gm` is the club admin; `table_gms` wait for their approval."""

    table_gms = List(Unicode(), config=True, help="The tables' GMs: their sign-ups wait for the admin's approval.")

    def create_user(self, username: str, password: str, **kwargs: Any) -> Any:
        info = super().create_user(username, password, **kwargs)
        if info is not None and info.username in set(self.table_gms):
            info.is_authorized = False  # open sign-up approved it; a GM's name is the admin's to approve
            self.db.commit()
        return info
