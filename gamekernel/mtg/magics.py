"""MtG action-check magics (%library, %boost, %scene) and the MtG forms of %check and %odds check,
which the core magics dispatch here. Each magic declares its syntax (syntax.py), gets its line
parsed once and calls one session method."""

from __future__ import annotations

from typing import TYPE_CHECKING

from IPython.core.magic import line_cell_magic, line_magic, magics_class

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magic_base import EXPLAIN, ProgressBar, SessionMagics, explainable, guarded
from gamekernel.syntax import Args, Opt, Rest, Sub, Word, Words, command

if TYPE_CHECKING:  # the table's core and the handles its calls reach (imported on first use, below)
    from gamekernel.mtg.actions import Mtg
    from gamekernel.rulesets import Core


def _mtg(session: Core) -> Mtg:
    """MtG's handle on the session, typed; imported on the first command (`%load_ext` stays light)."""
    from gamekernel.mtg.actions import Mtg

    return Mtg.of(session)



def looks_like_mtg_check(spec: str) -> bool:
    """The `%check`/`%odds check` dispatch: the words start with a colour or 'colourless' ('green 2',
    'G2', '緑2', 'green', '赤：2'); such a line is MtG's, valid or not (mtg.rules.kinds.names_a_kind)."""
    from gamekernel.mtg.rules.kinds import names_a_kind

    return names_a_kind(spec)


def _kind_and_difficulty(args: Args) -> tuple[str, int]:
    from gamekernel.mtg.rules.kinds import parse_check_spec

    return parse_check_spec(args.spec)


def mtg_check(session: Core, args: Args) -> object:
    """`%check green 2 @Mira [--boost-if-needed]` (parsed by `%check`'s declaration)."""
    kind, difficulty = _kind_and_difficulty(args)
    return _mtg(session).check(kind, difficulty, actor=args.actor,
                             boost_if_needed=bool(getattr(args, "boost_if_needed", False)))


def mtg_odds(session: Core, args: Args) -> object:
    """`%odds check green 2 @Mira`."""
    kind, difficulty = _kind_and_difficulty(args)
    return _mtg(session).odds(kind, difficulty, actor=args.actor)


@magics_class
class MtgMagics(SessionMagics):
    """%library, %boost, %scene."""

    @line_cell_magic
    @guarded("library")
    @command("library",
             subs=(Sub("load", Words("what", "NAME [FILE]: a decklist file (Arena, MTGO .txt/.dek, Cockatrice .cod, "
                                             "OCTGN .o8d, .mwDeck, XMage or Forge .dck ...), "
                                             "or the cell's body under %%library load NAME",
                                     optional=True, metavar="NAME FILE"), help="load a library from a decklist"),
                   Sub("show", Word("name", optional=True), help="the live library widget"),
                   Sub("view", Word("name", optional=True), help="the library as a static result"),
                   Sub("peek", Word("count", "how many cards from the top", optional=True, metavar="N"),
                       help="look at the top cards"),
                   Sub("odds", Word("name", optional=True), help="the success chance of every check"),
                   Sub("reset", Word("name", optional=True), help="shuffle everything back", aliases=("shuffle",)),
                   Sub("stack", Rest("cards", 'Card, Card, ... (the new top, in order; "A, B" quotes a name)',
                                     optional=True),
                       help="put named cards on top (a test or a scripted scene)"),
                   Sub("data", Rest("file", "AtomicCards.json, a Scryfall bulk file or Forge's res/cardsfolder",
                                    optional=True),
                       help="load card data")),
             actor="whose library (default: the only one)",
             options=(Opt("format", "decklist format (detected if not given): arena, mtgo, dek, cockatrice, "
                                    "octgn, mwdeck, moxfield, archidekt, mtggoldfish, xmage, forge or text",
                          metavar="FORMAT"),
                      Opt("cache", "folder for the card-data cache", metavar="DIR")),
             group="mtg", bare=True, unknown="mtg.err.library_usage")
    def library(self, args: Args, cell: str | None = None):
        """MtG libraries: `%library load Mira mira.txt`, `%%library load Mira` (the decklist pasted in the
        cell below), `%library show @Mira` (widget), `%library view`, `%library peek 2 @Mira`,
        `%library odds @Mira`, `%library reset @Mira`, `%library stack Elvish Mystic, Runeclaw Bear @Mira`,
        `%library data AtomicCards.json`."""
        session, actor = self.session, args.actor
        if cell is not None and args.sub != "load":
            raise UsageError(t("mtg.err.library_cell"))
        if args.sub == "load":
            words = list(args.what)
            if cell is not None:  # the decklist is the cell's body; the line names whose library it is
                if actor and not words:
                    words = [actor]
                if len(words) != 1:
                    raise UsageError(t("mtg.err.library_cell_usage"))
                return _mtg(session).library_load(words[0], "cell", fmt=args.format, text=cell)
            if actor and len(words) == 1:
                words = [actor, *words]
            if len(words) != 2:
                raise UsageError(t("mtg.err.library_usage"))
            return _mtg(session).library_load(words[0], words[1], fmt=args.format)
        if args.sub == "show":  # the live widget (its snapshot shows without a kernel)
            from gamekernel.mtg.widgets.library import LibraryWidget

            return LibraryWidget(session, _mtg(session).actor(args.name or actor))
        if args.sub in (None, "view"):
            return _mtg(session).library_view(getattr(args, "name", None) or actor)
        if args.sub == "peek":
            if not (args.count or "").isdigit():
                raise UsageError(t("mtg.err.peek_count", count=args.count or ""))
            return _mtg(session).library_peek(int(args.count), actor)
        if args.sub == "odds":
            return _mtg(session).odds_table(args.name or actor)
        if args.sub == "reset":
            return _mtg(session).library_reset(args.name or actor)
        if args.sub == "stack":
            from gamekernel.mtg.rules.facts import split_names

            names = split_names(args.cards or "", _mtg(session).facts)
            if not names:
                raise UsageError(t("mtg.err.library_usage"))
            return _mtg(session).library_stack(actor, names)
        if not args.file:
            raise UsageError(t("mtg.err.library_usage"))
        index = _mtg(session).card_data(args.file, cache=args.cache, progress=ProgressBar())
        from gamekernel.mtg.results import DataLoaded  # lazy: %load_ext imports no rules

        return DataLoaded(len(index), args.file)

    @line_magic
    @guarded("boost")
    @command("boost", actor="whose last check to boost (default: the only library)", group="mtg",
             options=(EXPLAIN,), extra="mtg.err.boost_args")
    @explainable
    def boost(self, args: Args):
        """Once per scene after a check: exile the top six, +1 per colourless card (`%boost @Mira`)."""
        return _mtg(self.session).boost(args.actor)

    @line_magic
    @guarded("mtg")
    @command("mtg", subs=(Sub("config", Words("settings", "boost_per_character=false ...", optional=True,
                                               metavar="OPTION=VALUE"), help="MtG options (logged)"),),
             group="mtg", unknown="mtg.err.mtg_usage")
    def mtg(self, args: Args):
        """MtG options as a logged event: `%mtg config boost_per_character=false`; `%mtg config` shows them."""
        options = {}
        for word in args.settings:
            key, sep, value = word.partition("=")
            if not sep or not key:
                raise UsageError(t("mtg.err.config_word", word=word))
            options[key.strip()] = value.strip()
        return _mtg(self.session).config(**options)

    @line_magic
    @guarded("scene")
    @command("scene", group="mtg")
    def scene(self, args: Args):
        """Start a new scene: every boost is available again (`%scene`)."""
        return _mtg(self.session).scene()


MAGICS: list = [MtgMagics]
