"""One rule for a table's user names, used by the hub (who signs in) and by the seats (`%table seat
Alice Aiko`): the same person must get the same name on both sides, and no spelling of the GM's name
(`GM`, ` gm`, full-width `ｇｍ`) may name anyone else.

JupyterHub lower-cases names (`Authenticator.normalize_username`); this does that after Unicode NFKC
(so full-width letters, common in Japanese input, become ASCII) and trimming, then allows only what
JupyterHub and a URL path take without quoting.
"""

from __future__ import annotations

import re
import unicodedata

USER_NAME = re.compile(r"[a-z0-9][a-z0-9._@-]{0,63}")  # what a normalised table user name looks like


def normalize_user(name: str) -> str:
    """`" Alice"`, `"ALICE"`, `"ａｌｉｃｅ"` -> `"alice"`: the name the hub and the seats both use."""
    return unicodedata.normalize("NFKC", str(name)).strip().lower()


def valid_user(name: str) -> bool:
    """Whether `name` (already normalised) is a table user name."""
    return USER_NAME.fullmatch(name) is not None
