"""`%rolltable`: rollable tables: list, define (a cell body), load (a CSV/JSON/YAML file), odds, roll
for an audience (`--secret`, `--to alice,bob`, `--blind alice`). Parses the line once and calls
`session.rolltables`."""

from __future__ import annotations

from IPython.core.magic import cell_magic, line_magic, magics_class

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magic_base import Secret, SessionMagics, guarded
from gamekernel.syntax import COMMANDS, Args, Flag, Opt, Sub, Word, command

_MOD = Word("modifier", "added to the dice: +2, -1", optional=True, metavar="MOD", default="")


def modifier(text: str) -> int:
    """`+2`, `-1`, `3` (full-width signs and digits too) as a whole number; "" is 0."""
    from gamekernel.text import half_width

    plain = half_width(str(text or "")).strip()
    if not plain:
        return 0
    if not plain.lstrip("+-").isdigit() or len(plain) > 6 or plain.count("+") + plain.count("-") > 1:
        raise UsageError(t("rolltable.err.modifier", text=repr(text)))
    return int(plain)


def players(text: str) -> list[str]:
    return [u.strip() for u in str(text or "").split(",") if u.strip()]


@magics_class
class RollTableMagics(SessionMagics):
    """Rollable tables: yours (a cell or a file of the table folder) and the ones the rule sets ship."""

    @line_magic("rolltable")
    @guarded("rolltable")
    @command("rolltable",
             subs=(Sub("list", help="the tables you can roll on"),
                   Sub("define", Word("name", "the table's name"), Word("dice", "its dice: 2d6, 3d, 1d20"),
                       help="define a table from the cell's body (%%rolltable define NAME DICE)"),
                   Sub("load", Word("path", "a .csv, .json, .yaml file in the table folder"),
                       help="define a table from a file"),
                   Sub("odds", Word("name", "a table"), _MOD, help="every entry's exact odds"),
                   Sub("roll", Word("name", "a table"), _MOD, help="roll on a table")),
             options=(Flag("secret", "only the GM learns the result (nobody learns it was rolled)"),
                      Opt("to", "players who read the result; the others read only that it was rolled",
                          metavar="ALICE,BOB", default=""),
                      Opt("blind", "players for whom it is rolled: they read only that it was; the GM the result",
                          metavar="ALICE,BOB", default=""),
                      Opt("name", "the table's name (load: else the file's)", metavar="NAME", default=""),
                      Opt("dice", "the dice of a CSV table (load)", metavar="DICE", default="")),
             group="core", bare=True)
    def rolltable(self, args: Args) -> object:
        """Rollable tables: `%rolltable roll reaction +2` (GURPS-RR-04), `%rolltable odds spell-failure`,
        `%rolltable roll Encounter --to alice`, `--blind alice`, `--secret`; define one in a cell
        (`%%rolltable define Encounter 2d6`, then `2-4: goblins -> Weather` a line, `@Aiko` names a
        character, `[card Serra Angel]` a card) or load a CSV/JSON/YAML file."""
        return run(self, args, None)

    @cell_magic("rolltable")
    @guarded("rolltable")
    def rolltable_cell(self, line: str, cell: str) -> object:
        """`%%rolltable define NAME DICE`: the cell's lines are the table's entries."""
        args = COMMANDS["rolltable"].parse(line)
        if args.sub != "define":
            raise UsageError(t("rolltable.err.cell"))
        return run(self, args, cell)


def run(magics: RollTableMagics, args: Args, cell: str | None) -> object:
    """One `%rolltable` line (with its cell's body for `define`)."""
    from gamekernel.rolltables.actions import RollTables

    tables = magics.session.feature(RollTables)
    if args.sub in (None, "list"):
        return tables.names()
    if args.sub == "define":
        from gamekernel.rolltables.rules import parse_body

        if not cell or not cell.strip():
            raise UsageError(t("rolltable.err.body", name=args.name))
        return tables.define(parse_body(args.name, args.dice, cell))
    if args.sub == "load":
        return tables.load(args.path, name=args.options.get("name") or "", dice=args.options.get("dice") or "")
    if args.sub == "odds":
        return tables.odds(args.name, modifier(args.modifier))
    chosen = [a for a in ("secret", "to", "blind") if args.options.get(a)]
    if len(chosen) > 1:
        raise UsageError(t("rolltable.err.one_audience"))
    audience = {"secret": "secret", "to": "player", "blind": "blind"}.get(chosen[0] if chosen else "", "public")
    to = players(args.options.get("to") or args.options.get("blind") or "")
    result = tables.roll(args.name, modifier(args.modifier), audience=audience, to=to)
    if audience in ("player", "blind"):  # the notebook is the table's screen: who, never what
        from gamekernel.results import TableNotice

        users = magics.session.log[-1].data["to"]
        return TableNotice(t(f"rolltable.notice_{audience}", table=result.table, users=", ".join(users)))
    return Secret(result) if audience == "secret" else result


MAGICS = [RollTableMagics]
