"""IPython magics: `%roll`, `%odds`, `%seed`, `%log`, `%note`, `%undo`, `%redo` and the rule sets'.

`GameKernel` holds the options (`%config GameKernel`: seed, language, max_dice, log_path) and the
kernel's Session; each rule set's declaration (gamekernel/rulesets.py) names its Magics classes.
Commands shared by several rule sets (`%check`, `%rest`, `%odds check ...`) dispatch here to the
rule set whose declared handler claims the parsed words (a colour first is MtG's check; a duration
is GURPS rest), so a bad line gets the error of the rule set it looks like. Every magic declares
its syntax once with `@command` (gamekernel/syntax.py); `%gamekernel` (`%gk`) lists them all. gamekernel shadows
no IPython magic, and `unload` puts back whatever a name held before `load`. Every magic line of a
cell shows its result, not only the last (gamekernel/magics/echo.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, overload

from IPython.core.magic import line_magic, magics_class
from traitlets import Enum, Int, Unicode, observe

from gamekernel import i18n, limits
from gamekernel.display.results import Attributed
from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magic_base import (
    EXPLAIN,
    Secret,
    SessionMagics,
    current_session,
    explainable,
    guarded,
    holders_for,
    kernel_magics,
    set_kernel_magics,
)
from gamekernel.magics import echo
from gamekernel.rulesets import Shared, contest_odds, forms, handler_for, holders_of, rule_sets
from gamekernel.syntax import COMMANDS, Args, Flag, Integer, Opt, Rest, Sub, Word, Words, command

if TYPE_CHECKING:  # the session is built on first use (`session`), so `%load_ext` imports no rule set
    from gamekernel.table_session import Session

__all__ = ["GameKernel", "current_session", "load", "unload"]

LOG_DEFAULT = 200  # events `%log` shows without a count: a long campaign's log is not one huge output


def _words(command: Shared) -> str:
    """The help of a shared command's words: each rule set's, in the order of the rule sets."""
    return " ".join(form.words for _, form in forms(command) if form.words)


def _flags(command: Shared) -> tuple[Flag, ...]:
    """A shared command's flags: the union of the rule sets' (a flag two declare has both helps)."""
    helps: dict[str, list[str]] = {}
    for _, form in forms(command):
        for name, text in form.flags:
            helps.setdefault(name, []).append(text)
    return tuple(Flag(name, "; ".join(texts)) for name, texts in helps.items())


def _groups(command: Shared) -> tuple[str, ...]:
    """The `%gamekernel` groups a shared command is listed in: each taking part rule set's."""
    return tuple(dict.fromkeys(form.group or declared.groups[0] for declared, form in forms(command)))


class _built_once:
    """A property computed on first use and then kept as the object's plain attribute (the kernel's
    Session is built once and never replaced): every magic reads `self.session`, without a call."""

    def __init__(self, build: Callable[[Any], Session]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    @overload
    def __get__(self, magics: None, owner: type | None = None) -> _built_once: ...
    @overload
    def __get__(self, magics: object, owner: type | None = None) -> Session: ...
    def __get__(self, magics: object, owner: type | None = None) -> _built_once | Session:
        if magics is None:
            return self
        value = magics.__dict__[self.build.__name__] = self.build(magics)
        return value


@magics_class
class GameKernel(SessionMagics):
    """Options of gamekernel (`%config GameKernel`) and the core magics."""

    seed = Int(None, allow_none=True, help="Seed of the session RNG (also env GAMEKERNEL_SEED).").tag(
        config=True
    )
    language = Enum(list(i18n.LANGUAGES), "en", help="Language of every message: en or ja.").tag(
        config=True
    )
    max_dice = Int(10_000, help="Most dice one roll may throw.").tag(config=True)
    log_path = Unicode("", help="JSON Lines file that receives every event, flushed as it happens.").tag(
        config=True
    )
    # input limits (gamekernel/limits.py): each refusal is one line naming its option
    max_count = Int(1_000, help="Most repetitions in one command (d20 rolls, copies of a card, spell cost).").tag(
        config=True)
    max_cards = Int(10_000, help="Most cards in one library or deck file.").tag(config=True)
    max_combatants = Int(500, help="Most fighters in one fight.").tag(config=True)
    max_seconds = Int(86_400, help="Longest duration in seconds (suffocation).").tag(config=True)
    max_file_mb = Int(10, help="Largest character, deck or decklist file, in MB.").tag(config=True)
    max_data_file_mb = Int(1_024, help="Largest card database (MTGJSON, Scryfall), in MB.").tag(config=True)
    max_data_value_kb = Int(1_024, help="Largest one card of a card database, in KB.").tag(config=True)
    max_data_cards = Int(100_000, help="Most entries of a card database.").tag(config=True)
    max_lines = Int(20_000, help="Most lines in a decklist or deck file.").tag(config=True)
    max_nesting = Int(64, help="Deepest [ ]/{ } nesting in a JSON file.").tag(config=True)
    max_entries = Int(1_000, help="Most traits, skills and equipment entries in one character file.").tag(
        config=True)
    max_exact_cost = Int(50_000_000, help="Most estimated steps of an exact distribution (about a second).").tag(
        config=True)
    max_name = Int(200, help="Longest file name typed or read from data.").tag(config=True)
    max_rows = Int(20_000, help="Most entries in one GCS library file (skills, spells, traits, equipment).").tag(
        config=True)

    def __init__(self, shell=None, **kwargs):
        super().__init__(shell=shell, **kwargs)
        self._session: Session | None = None  # built on first use: `%load_ext` then imports no rule set (fast start-up)
        limits.reset()
        limits.configure(**{name: getattr(self, name) for name in limits.NAMES})
        i18n.set_language(self.language)

    @_built_once
    def session(self) -> Session:
        """The kernel's Session, built with the options in force when a magic first needs it."""
        if self._session is None:
            from gamekernel.table_session import Session

            session = Session(self.seed, max_dice=self.max_dice)
            if self.log_path:
                session.attach_log(self.log_path)
            self._session = session
        return self._session

    def close_session(self) -> None:
        """Close the session's files, if it was ever built (`%unload_ext`)."""
        if self._session is not None:
            self._session.close()

    # -- options (a session not built yet reads them when it is) ----------------------------
    @observe("seed")
    def _seed_changed(self, change) -> None:
        if (session := self._built_session()) is not None and change["new"] is not None:
            session.reseed(change["new"])

    @observe("language")
    def _language_changed(self, change) -> None:
        i18n.set_language(change["new"])
        widgets = sys.modules.get("gamekernel.widgets.base")  # loaded only once a widget was shown
        if widgets is not None:
            widgets.refresh_live_widgets()

    @observe("max_dice")
    def _max_dice_changed(self, change) -> None:
        if change["new"] < 1:
            raise UsageError(t("core.err.max_dice", value=change["new"]))
        if (session := self._built_session()) is not None:
            session.max_dice = change["new"]

    @observe(*limits.NAMES)
    def _limit_changed(self, change) -> None:
        if not hasattr(self, "_session"):
            return  # config applied while constructing; __init__ reads it
        limits.configure(**{change["name"]: change["new"]})

    @observe("log_path")
    def _log_path_changed(self, change) -> None:
        if (session := self._built_session()) is not None and change["new"]:
            for warning in session.attach_log(change["new"]):
                print(warning)

    def _built_session(self) -> Session | None:
        return getattr(self, "_session", None)  # config may apply while constructing

    # -- core magics -----------------------------------------------------------------------
    @line_magic
    @guarded("roll")
    @command("roll", Rest("expression", "dice notation and an optional label: 3d+2 sword, 4d6kh3, 1d20+5>=15",
                          metavar="DICE", missing="core.err.roll_empty"),
             actor="who rolls (Gamma World: a natural 1 on a d20 in an encounter is alpha flux)",
             options=(Flag("secret", "roll for the GM only; the result goes to the log"), EXPLAIN))
    @explainable
    def roll(self, args: Args):
        """Roll dice: `%roll 3d+2 sword`, `%roll 4d6kh3`, `%roll 1d20+4 @Rin`, `%roll 3d6<=12`."""
        result = self.session.roll(args.expression, actor=args.actor, secret=args.secret)
        if args.secret:
            return Secret(result)
        return Attributed(args.actor, result) if args.actor else result

    @line_magic
    @guarded("odds")
    @command("odds", Rest("expression", "dice notation, optionally a comparison: 3d6 <= 12, 4d6kh3",
                          metavar="DICE", missing="core.err.odds_empty"),
             subs=(Sub("check", Rest("spec", "GURPS: 12, Lockpicking-5, 12 | 14; MtG: green 2",
                                        missing="gurps.err.usage_odds_check"),
                       help="the odds of a check (GURPS success roll or MtG action check)"),
                   Sub("contest", Rest("sides", "14 vs 12, Aiko:Stealth vs Guard:Per"),
                       help="the odds of a GURPS Quick Contest")),
             actor="whose skills or library (default: the active character / the only library)",
             group=("core", "gurps", "mtg"))
    def odds(self, args: Args):
        """Exact odds: `%odds 3d6 <= 12`, `%odds 4d6kh3`; GURPS `%odds check 12`, `%odds contest 14 vs 12`;
        MtG `%odds check green 2 @Mira`."""
        if args.sub == "check":
            odds = handler_for("check", args.spec, frozenset(holders_of(args.actor, self.session.state)
                                                             if args.actor else ())).odds
            if odds is None:
                raise UsageError(t("core.err.no_check_odds", spec=args.spec))
            return odds(self.session, args)
        if args.sub == "contest":  # a rule set's (RuleSet.check's `contest`): GURPS's Quick Contest
            contest = contest_odds(frozenset(holders_of(args.actor, self.session.state) if args.actor else ()))
            if contest is None:
                raise UsageError(t("core.err.no_contest_odds", sides=args.sides))
            return contest(self.session, args)
        if args.actor is not None:
            raise UsageError(t("cmd.err.extra", word="@" + args.actor, column=args.column("actor"),
                               usage=COMMANDS["odds"].usage()))
        return self.session.odds(args.expression)

    @line_magic("seed")
    @guarded("seed")
    @command("seed", Integer("seed", "a whole number; the same seed replays the same session", metavar="N",
                         error="core.err.seed_magic"))
    def seed_magic(self, args: Args):
        """Reseed the session RNG: `%seed 7` (logged)."""
        self.session.reseed(args.seed)
        from gamekernel.results import SeedResult

        return SeedResult(args.seed)

    @line_magic
    @guarded("log")
    @command("log", Integer("count", f"show the last N events (default: {LOG_DEFAULT})", optional=True, metavar="N",
                        error="core.err.log_word"),
             subs=(Sub("export", Word("file", "FILE.md or FILE.html"),
                       help="write the log (--players: without GM secrets; --session: this session only)"),),
             options=(Flag("gm", "the GM's view: the details of secret events and hidden fighters too, marked"),
                      Flag("players", "export without GM secrets"),
                      Flag("session", "export only this kernel's session of the campaign"),
                      Flag("odds", "add the odds to the players' story"),
                      Opt("date", "head the players' story with this date instead of the session's own",
                          metavar="YYYY-MM-DD")))
    def log(self, args: Args):
        """The session log: `%log`, `%log 10`, `%log --gm`,
        `%log export session.md [--players [--odds] [--date=YYYY-MM-DD]] [--session]`.

        `--players` writes the players' story (no secrets, setup, odds or undone events; `--odds`
        adds the odds); `--session` exports only this kernel's
        session of an open campaign (default: the whole campaign)."""
        if args.sub == "export":
            written = self.session.log_write(args.file, players=args.players, this_session=args.session,
                                                odds=args.odds, date=args.date)
            from gamekernel.results import ExportResult

            return ExportResult(str(written.path), written.count, story=args.players)
        if args.count is None:  # the default cut says how to see the rest; a count asked for needs no hint
            return self.session.log_view(LOG_DEFAULT, show_secrets=args.gm)
        from dataclasses import replace

        return replace(self.session.log_view(args.count, show_secrets=args.gm), total=0)

    @line_magic
    @guarded("note")
    @command("note", Rest("text", "the note, as written", optional=True),
             options=(Flag("gm", "a note for the GM only (left out of the players' export)"),), verbatim=True)
    def note(self, args: Args):
        """Annotate the log: `%note The party enters the crypt` (your words are kept as typed: no `$var`)."""
        return self.session.note(args.text, gm_only=args.gm)

    @line_magic
    @guarded("undo")
    @command("undo", Integer("count", "how many events to take back (default 1)", optional=True, default=1,
                         metavar="N", error="core.err.count_word"))
    def undo(self, args: Args):
        """Take back the last event(s): `%undo`, `%undo 3` (itself logged)."""
        return self.session.undo_result(_at_least_one(args.count, "%undo"))

    @line_magic
    @guarded("redo")
    @command("redo", Integer("count", "how many undone steps to put back (default 1)", optional=True, default=1,
                         metavar="N", error="core.err.count_word"))
    def redo(self, args: Args):
        """Put back what `%undo` took: `%redo`, `%redo 2`."""
        return self.session.redo_result(_at_least_one(args.count, "%redo"))

    # -- campaign --------------------------------------------------------------------------
    @line_magic
    @guarded("campaign")
    @command("campaign",
             subs=(Sub("open", Words("folder", "the campaign folder (created if missing)"),
                       help="open a campaign: every event is written to it as it happens"),
                   Sub("status", help="what is open: sessions, events, the last snapshot"),
                   Sub("save", help="snapshot the open campaign now and rewrite its readable state files"),
                   Sub("load", help="read the open campaign again from its folder (e.g. after a git checkout)"),
                   Sub("close", help="snapshot and close the campaign"),
                   Sub("date", Word("date", "the date, as YYYY-MM-DD"),
                       help="date this session (the players' story shows it, not the day the notebook ran)"),
                   Sub("order", Words("session", "forked sessions (as the fork notice names them), first first"),
                       help="put sessions that forked from one event (a git merge) in the order given"),
                   Sub("repair", Words("folder", "the damaged campaign (default: the one just refused)", optional=True),
                       help="plan rebuilding a damaged campaign from the logs that exist; --confirm carries it out"),
                   Sub("session", Word("what", "new"),
                       help="start a new game session now (Gamma World: every alpha card back, decks shuffled)")),
             options=(Flag("confirm", "with repair: carry the repair out (without it nothing is written)"),
                      Flag("same-session", "with open: this kernel restart is not a new game session")),
             group="campaign")
    def campaign(self, args: Args):
        """A campaign folder: `%campaign open ./crypt-of-ash` (created if missing), `%campaign status`,
        `%campaign date 2026-11-30`, `%campaign save`, `%campaign load`, `%campaign close`,
        `%campaign order SESSION SESSION...` (forked sessions, in the order wanted),
        `%campaign repair [FOLDER] [--confirm]`, `%campaign session new`. Every event is written to the
        folder as it happens. Opening a campaign starts a new game session (Gamma World returns every
        alpha card and shuffles, seed 000:33, 40); `--same-session` says a kernel restart is not one.
        (IPython's own `%save` and `%load` stay IPython's.)"""
        session = self.session
        if args.confirm and args.sub != "repair":
            raise UsageError(t("core.err.confirm_repair_only"))
        if args.same_session and args.sub != "open":
            raise UsageError(t("core.err.same_session_open_only"))
        if args.sub == "open":
            return session.campaign_open(" ".join(args.folder), same_session=args.same_session)
        if args.sub == "session":
            if args.what.strip().casefold() != "new":
                raise UsageError(t("core.err.session_new_only", what=limits.quoted_line(args.what)))
            return session.game_session_new()
        if args.sub == "date":
            return session.session_date(args.date)
        if args.sub == "order":
            return session.campaign_order(args.session)
        if args.sub == "repair":
            return session.campaign_repair(" ".join(args.folder) or None, confirm=args.confirm)
        assert args.sub is not None  # a command of subcommands only: the parser refuses a line without one
        return {"status": session.campaign_status, "save": session.campaign_save,
                "load": session.campaign_load, "close": session.campaign_close}[args.sub]()

    @line_magic
    @guarded("gamekernel")
    @command("gamekernel")
    def gamekernel(self, args: Args):
        """Every gamekernel command by rule set, each with its usage; `%NAME?` shows a command's help.
        `%gk` is the same."""
        from gamekernel.magics.overview import command_overview

        return command_overview()

    @line_magic
    @guarded("gk")
    @command("gk")
    def gk(self, args: Args):
        """Short for `%gamekernel`: every gamekernel command by rule set (the same overview)."""
        from gamekernel.magics.overview import command_overview

        return command_overview()

    # -- commands shared by rule sets ------------------------------------------------------
    @line_magic
    @guarded("check")
    @command("check", Rest("spec", _words("check"), missing="gurps.err.check_empty"),
             actor="who makes the check: the check is that character's rule set's (default: the active "
                   "character / the only library)",
             options=(*_flags("check"), EXPLAIN), group=_groups("check"))
    @explainable
    def check(self, args: Args):
        """A check by the rule set of the character named (`%check Stealth @Aiko`), e.g. a GURPS success
        roll (`%check Lockpicking-5 dark`) or an MtG action check (`%check green 2 @Mira`). With no
        character named the words decide: a first word naming a colour is MtG's; any other, GURPS's."""
        holders = holders_for(self.session, "check", args.spec, args)
        return handler_for("check", args.spec, holders).run(self.session, args)

    @line_magic
    @guarded("rest")
    @command("rest", Words("names", _words("rest"), optional=True, metavar="WHAT"),
             actor="who rests: the rest is that character's rule set's", options=_flags("rest"),
             group=_groups("rest"))
    def rest(self, args: Args):
        """Rest by the rule set of the character named: GURPS `%rest @Bren 30min` recovers FP/HP; Gamma
        World `%rest @Rin` rebuilds the alpha deck. With no character named the words decide: a line
        naming a duration (30min, 2h) is GURPS rest; any other, Gamma World's extended rest."""
        holders = holders_for(self.session, "rest", args.names, args)
        return handler_for("rest", args.names, holders).run(self.session, args)


def _at_least_one(count: int, magic: str) -> int:
    if count < 1:
        raise UsageError(t("core.err.count_low", magic=magic, count=count))
    return count




_replaced: dict[str, dict[str, object]] = {}  # what each kind of magic held before gamekernel loaded


def load(ipython) -> None:
    """Register the core magics and every rule set's (called by `%load_ext gamekernel`); whatever a
    name held before is kept, so `unload` puts it back (gamekernel shadows no IPython magic today)."""
    manager = ipython.magics_manager
    kernel = GameKernel(shell=ipython)
    classes = _magics_classes()
    _replaced.clear()
    for kind in ("line", "cell"):
        mine = {name for class_ in classes for name in class_.magics.get(kind, {})}
        _replaced[kind] = {name: manager.magics[kind][name] for name in mine if name in manager.magics[kind]}
    set_kernel_magics(kernel)
    ipython.register_magics(kernel)
    for magics_class_ in classes[1:]:
        ipython.register_magics(magics_class_(shell=ipython))
    echo.register(ipython, {name for class_ in classes for name in class_.magics.get("line", {})})
    from gamekernel.remote import comm

    comm.register(ipython)  # the remote table's link (only inside a kernel)
    from gamekernel.magics.browser import quiet_empty_results

    quiet_empty_results(ipython)  # a browser tab's kernel only


def _magics_classes() -> list:
    """The core magics, each rule set's (as declared), then the cross-rule-set features'."""
    from gamekernel.rolltables.magics import RollTableMagics
    from gamekernel.scenes.magics import SceneMagics
    from gamekernel.table.magics import TableMagics
    from gamekernel.teaching.magics import TeachingMagics

    return [GameKernel, *(c for r in rule_sets() for c in r.magics()), TeachingMagics, TableMagics, RollTableMagics,
            SceneMagics]


def unload(ipython) -> None:
    """Remove every magic gamekernel registered and put back what those names held before (there is
    no unregister API in IPython)."""
    from gamekernel.magics.browser import restore_empty_results
    from gamekernel.remote import comm

    comm.unregister(ipython)
    restore_empty_results(ipython)
    echo.unregister(ipython)
    for kind in ("line", "cell"):
        table = ipython.magics_manager.magics[kind]
        for magics_class_ in _magics_classes():
            for name in magics_class_.magics.get(kind, {}):
                table.pop(name, None)
        table.update(_replaced.get(kind, {}))
    _replaced.clear()
    limits.reset()
    kernel = kernel_magics()
    if isinstance(kernel, GameKernel):
        kernel.close_session()
        if kernel in ipython.configurables:
            ipython.configurables.remove(kernel)
    set_kernel_magics(None)
