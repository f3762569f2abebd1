"""`%flip [N]`."""

from __future__ import annotations

from IPython.core.magic import line_magic, magics_class

from gamekernel.magic_base import SessionMagics, guarded
from gamekernel.syntax import Args, Integer, command
from gk_coin.actions import Coin, FlipResult


@magics_class
class CoinMagics(SessionMagics):
    @line_magic
    @guarded("flip")
    @command("flip", Integer("times", "how many times (default 1)", optional=True, default=1, metavar="N"),
             group="coin")
    def flip(self, args: Args) -> FlipResult:
        """Flip the coin: `%flip`, `%flip 3`."""
        return Coin.of(self.session).flip(args.times)  # this rule set's handle on the kernel's session, typed
