"""`%table`: the table dashboard, every character of the session in one widget."""

from __future__ import annotations

from IPython.core.magic import line_magic, magics_class

from gamekernel.magic_base import SessionMagics, guarded
from gamekernel.syntax import Args, command


@magics_class
class TableMagics(SessionMagics):
    """The dashboard of the whole table."""

    @line_magic("table")
    @guarded("table")
    @command("table", group="core")
    def table(self, args: Args):
        """Show every character (GURPS, Gamma World, MtG cards) and whose turn it is, with a button
        per common action: next turn, tap a card, resolve flux, an MtG check, new scene, encounters."""
        from gamekernel.table.widget import TableDashboard

        return TableDashboard(self.session)


MAGICS = [TableMagics]
