"""`%table`: the table dashboard, every character of the session in one widget; and the GM's side of a
remote table: seats, asks, what players see, the players' page (`%table serve`), `%reveal N`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from IPython.core.magic import line_magic, magics_class

from gamekernel.i18n import t
from gamekernel.magic_base import SessionMagics, guarded
from gamekernel.syntax import Args, Flag, Integer, Rest, Sub, Word, Words, command

if TYPE_CHECKING:
    from gamekernel.rulesets import Core
    from gamekernel.table.seats import Seats


def _seats(session: Core) -> Seats:
    """The seats' handle on the session, typed; imported on the first command (`%load_ext` stays light)."""
    from gamekernel.table.seats import Seats

    return session.feature(Seats)



@magics_class
class TableMagics(SessionMagics):
    """The dashboard of the whole table, and who plays at it."""

    @line_magic("table")
    @guarded("table")
    @command("table",
             subs=(Sub("seat", Word("user", "the player's Jupyter user name"),
                       Words("character", "the character they play (any rule set)"),
                       help="seat a player at a character"),
                   Sub("unseat", Word("user", "the player's Jupyter user name"), help="a player leaves the table"),
                   Sub("seats", help="who plays whom"),
                   Sub("invite", Word("user", "the player's hub user name"),
                       help="let a player into this table's page (a club hub: python -m gamekernel hub-config)"),
                   Sub("uninvite", Word("user", "the player's hub user name"), help="take a player off this table"),
                   Sub("ask", Word("user", "the player's Jupyter user name"),
                       Rest("spec", "the GURPS roll: Per, Stealth-2"),
                       help="ask a player for a roll whose result only you see"),
                   Sub("disclose", Word("how", "full or outcome"),
                       help="what players see of a check: full (target, roll, margin) or outcome"),
                   Sub("hide", Words("name", "the fighter players must not see"),
                       help="hide a fighter from the players (an ambush)"),
                   Sub("show", Words("name", "a hidden fighter; or seated players and a file: alice,bob map.png"),
                       help="show a hidden fighter to the players, or hand chosen players a text or image file"),
                   Sub("approve", Word("what", "on, off, or the number of a waiting action"),
                       help="players' actions wait for your approval (on/off), or approve one (N)"),
                   Sub("refuse", Integer("number", "the waiting action's number", metavar="N"),
                       help="refuse a waiting player action"),
                   Sub("players", help="the GM's panel: seats, waiting actions, asks, reveals"),
                   Sub("serve", help="serve the players' page from this kernel (/gamekernel/table on this server)")),
             options=(Flag("gm", "the GM's view: the truth, hidden fighters, NPC HP and secrets included, marked"),),
             group="core", bare=True)
    def table(self, args: Args):
        """Show every character (GURPS, Gamma World, MtG cards) and whose turn it is, with a button
        per common action: next turn, tap a card, resolve flux, an MtG check, new scene, encounters.
        `%table seat alice Aiko`, `%table ask alice Per`, `%table disclose outcome` and `%table serve`
        run the table for players at their own browsers (README "Players at their own machines")."""
        from gamekernel.results import TableNotice

        session = self.session
        if args.sub is None:
            from gamekernel.table.widget import TableDashboard

            return TableDashboard(session, gm=args.gm)
        if args.sub == "seat":
            from gamekernel.table.seats import check_user

            user = check_user(args.user)  # `Alice` is the hub's `alice`
            seats = _seats(session).seat(user, " ".join(args.character))
            return TableNotice(t("remote.seated", user=user, characters=", ".join(seats.seat_of(user))))
        if args.sub == "unseat":
            from gamekernel.table.seats import check_user

            _seats(session).unseat(args.user)
            return TableNotice(t("remote.unseated", user=check_user(args.user)))
        if args.sub in ("invite", "uninvite"):
            return self._invite(args.sub, args.user)
        if args.sub == "seats":
            seated = _seats(session).state.seats
            lines = [t("remote.seated", user=u, characters=", ".join(c)) for u, c in sorted(seated.items())]
            return TableNotice("\n".join(lines) or t("remote.seats.none"))
        if args.sub == "ask":
            seq = _seats(session).ask(args.user, args.spec)
            return TableNotice(t("remote.asked", user=args.user, spec=args.spec, seq=seq))
        if args.sub == "disclose":
            how = _seats(session).disclose(args.how)
            return TableNotice(t(f"remote.disclosed.{how}"))
        if args.sub == "show" and handout_line(session, args.name):
            users = args.name[0].split(",")
            n = _seats(session).show(users, " ".join(args.name[1:]))
            return TableNotice(t("remote.handout.shown", n=n, name=" ".join(args.name[1:]), users=", ".join(users)))
        if args.sub in ("hide", "show"):
            name = _seats(session).hide(" ".join(args.name), hidden=args.sub == "hide")
            return TableNotice(t("remote.hidden_now" if args.sub == "hide" else "remote.shown", name=name))
        if args.sub == "approve":
            return self._approve(args.what)
        if args.sub == "refuse":
            from gamekernel.remote.intents import approve

            return TableNotice(approve(session, args.number, refuse=True).text)
        if args.sub == "players":
            from gamekernel.table.players_widget import PlayersPanel

            return PlayersPanel(session)
        from gamekernel.remote.serve import serve_here

        return TableNotice(serve_here(self.shell))

    def _invite(self, how: str, user: str):
        """Through the hub's API with this GM server's token (gamekernel/remote/hub/invite.py)."""
        import os

        from gamekernel.remote.hub import invite
        from gamekernel.remote.serve import players_url
        from gamekernel.results import TableNotice
        from gamekernel.table.seats import check_user

        name = check_user(user)
        link = invite.hub_link(os.environ)
        members = invite.invite(link, name) if how == "invite" else invite.uninvite(link, name)
        shown = ", ".join(members) or t("remote.members.none")
        if how == "invite":
            return TableNotice(t("remote.invited", user=name, group=link.group, members=shown,
                                 url=players_url(os.environ)))
        return TableNotice(t("remote.uninvited", user=name, group=link.group, members=shown))

    def _approve(self, what: str):
        from gamekernel.errors import UsageError
        from gamekernel.remote.intents import approve
        from gamekernel.results import TableNotice

        if what in ("on", "off"):
            _seats(self.session).approval(what == "on")
            return TableNotice(t(f"remote.approval.{what}"))
        if not what.isdigit():
            raise UsageError(t("remote.err.approve", what=repr(what)))
        return TableNotice(approve(self.session, int(what)).text)

    @line_magic("reveal")
    @guarded("reveal")
    @command("reveal", Integer("seq", "the secret event's number (%log --gm shows it)", metavar="N"), group="core")
    def reveal(self, args: Args):
        """Make a secret event public: `%reveal 12` (the players' views show it, and what it changed)."""
        from gamekernel.results import TableNotice

        return TableNotice(t("remote.revealed", seq=_seats(self.session).reveal(args.seq)))


def handout_line(session: Core, words: list[str]) -> bool:
    """Whether `%table show WORDS` hands out a file (`alice,bob map.png`: its first word names seated
    players, and no hidden fighter) rather than showing a hidden fighter again."""
    from gamekernel.errors import GameKernelError
    from gamekernel.table.seats import check_user

    seats = _seats(session).state
    if len(words) < 2 or seats.is_hidden(" ".join(words)):
        return False
    try:
        return all(seats.seat_of(check_user(u)) for u in words[0].split(",") if u) and bool(words[0].strip(","))
    except GameKernelError:  # a word that is no user name: a fighter's name
        return False


MAGICS = [TableMagics]
