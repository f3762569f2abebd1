"""`%flip [N]`."""

from __future__ import annotations

from IPython.core.magic import line_magic, magics_class

from gamekernel.magic_base import SessionMagics, guarded
from gamekernel.syntax import Args, Integer, command
from gk_coin.actions import CoinActions, FlipResult


@magics_class
class CoinMagics(SessionMagics):
    @line_magic
    @guarded("flip")
    @command("flip", Integer("times", "how many times (default 1)", optional=True, default=1, metavar="N"),
             group="coin")
    def flip(self, args: Args) -> FlipResult:
        """Flip the coin: `%flip`, `%flip 3`."""
        session = self.session
        # gamekernel mixes this rule set's operations into every Session it makes (from the entry
        # point), which no type checker can see: narrowing says so, and checks it
        assert isinstance(session, CoinActions)
        return session.coin_flip(args.times)
