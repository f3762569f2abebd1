"""MtG action-check magics (%library, %boost, %scene) and the MtG forms of %check and %odds check,
which the core magics dispatch here. Magics only parse and call one session method."""

from __future__ import annotations

import shlex

from IPython.core.magic import line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments

from gamekernel.display import Displayable
from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magics._base import SessionMagics, guarded, split_line
from gamekernel.magics.syntax import Args


def looks_like_mtg_check(spec: str) -> bool:
    """The `%check`/`%odds check` dispatch: the words start with a colour or 'colourless' ('green 2',
    'G2', '緑2', 'green', '赤：2'); such a line is MtG's, valid or not (systems.mtg.kinds.names_a_kind)."""
    from gamekernel.systems.mtg.kinds import names_a_kind

    return names_a_kind(spec)


def _kind_and_difficulty(args: Args) -> tuple[str, int]:
    from gamekernel.systems.mtg.kinds import parse_check_spec

    if getattr(args, "secret", False):  # a GURPS option; MtG checks are open
        raise UsageError(t("core.err.option", name="secret", column=args.column("secret"), known=t("cmd.none")))
    return parse_check_spec(args.spec)


def mtg_check(session, args: Args):
    """`%check green 2 @Mira` (parsed by `%check`'s declaration)."""
    kind, difficulty = _kind_and_difficulty(args)
    return session.mtg_check(kind, difficulty, actor=args.actor)


def mtg_odds(session, args: Args):
    """`%odds check green 2 @Mira`."""
    kind, difficulty = _kind_and_difficulty(args)
    return session.mtg_odds(kind, difficulty, actor=args.actor)


class _Progress:
    """A text/HTML progress bar in one display handle, for loading 100 MB card data files."""

    def __init__(self):
        from IPython.display import display

        self.handle = display(self._html(0, 1), display_id=True)
        self.shown = -1

    @staticmethod
    def _html(done: int, total: int):
        from IPython.display import HTML

        share = 0 if total <= 0 else min(100, done * 100 // total)
        return HTML(f'<div class="gk-progress" style="width:240px;border:1px solid #ccc;height:10px">'
                    f'<div style="width:{share}%;height:10px;background:#3b82c4"></div></div>'
                    f'<span style="font-size:11px">{share}% of {total:,} bytes</span>')

    def __call__(self, done: int, total: int) -> None:
        share = 0 if total <= 0 else done * 100 // total
        if share != self.shown and self.handle is not None:
            self.shown = share
            self.handle.update(self._html(done, total))


class DataLoaded(Displayable):
    def __init__(self, count: int, source: str):
        self.count, self.source = count, source

    def __repr__(self) -> str:
        return t("mtg.data.loaded", count=self.count, source=self.source)

    def _repr_html_(self) -> str:
        from gamekernel.render.html import esc, panel

        return panel("mtg-data", esc(repr(self)))


@magics_class
class MtgMagics(SessionMagics):
    """%library, %boost, %scene."""

    @magic_arguments()
    @argument("command", nargs="*", help="load Name file.txt [--format arena|mtgo|dek] | show | view | peek N | "
              "odds | reset | stack Card, Card | data AtomicCards.json [--cache DIR]")
    @argument("@Name", nargs="?", help="Whose library (default: the only one).")
    @line_magic
    @guarded("library")
    def library(self, line: str = ""):
        """MtG libraries: `%library load Mira mira.txt`, `%library show @Mira` (widget), `%library view`,
        `%library peek 2 @Mira`, `%library odds @Mira`, `%library reset @Mira`,
        `%library stack Elvish Mystic, Runeclaw Bear @Mira`, `%library data AtomicCards.json`."""
        parsed = split_line(line, flags=("format", "cache"))
        head, _, rest = parsed.text.partition(" ")
        head, rest = head.lower(), rest.strip()
        session = self.session
        if head == "load":
            words = shlex.split(rest) if rest else []
            if parsed.actor and len(words) == 1:
                words = [parsed.actor, *words]
            if len(words) != 2:
                raise UsageError(t("mtg.error.library_usage"))
            fmt = parsed.flags.get("format")
            return session.load_library(words[0], words[1], fmt=fmt if isinstance(fmt, str) else None)
        if head == "show":  # the live widget (its snapshot shows without a kernel)
            from gamekernel.widgets.library import LibraryWidget

            return LibraryWidget(session, session.mtg_actor(rest or parsed.actor))
        if head in {"", "view"}:
            return session.library_view(rest or parsed.actor)
        if head == "peek":
            if not rest.isdigit():
                raise UsageError(t("mtg.error.peek_count", count=rest))
            return session.peek_library(int(rest), parsed.actor)
        if head == "odds":
            return session.mtg_odds_table(rest or parsed.actor)
        if head in {"reset", "shuffle"}:
            return session.reset_library(rest or parsed.actor)
        if head == "stack":
            names = [name.strip() for name in rest.split(",") if name.strip()]
            if not names:
                raise UsageError(t("mtg.error.library_usage"))
            return session.stack_library(parsed.actor, names)
        if head == "data":
            if not rest:
                raise UsageError(t("mtg.error.library_usage"))
            cache = parsed.flags.get("cache")
            index = session.mtg_card_data(rest, cache=cache if isinstance(cache, str) else None,
                                          progress=_Progress())
            return DataLoaded(len(index), rest)
        raise UsageError(t("mtg.error.library_usage"))

    @magic_arguments()
    @argument("@Name", nargs="?", help="Whose last check to boost (default: the only library).")
    @line_magic
    @guarded("boost")
    def boost(self, line: str = ""):
        """Once per scene after a check: exile the top six, +1 per colourless card (`%boost @Mira`)."""
        parsed = split_line(line, flags=())
        if parsed.text:
            raise UsageError(t("mtg.error.boost_args", text=parsed.text))
        return self.session.mtg_boost(parsed.actor)

    @line_magic
    @guarded("scene")
    def scene(self, line: str = ""):
        """Start a new scene: every boost is available again (`%scene`)."""
        return self.session.mtg_scene()


MAGICS: list = [MtgMagics]
