"""IPython magics: `%roll`, `%odds`, `%seed`, `%log`, `%note`, `%undo`, `%redo` and the rule sets'.

`GameKernel` holds the options (`%config GameKernel`: seed, language, max_dice, log_path) and the
kernel's Session; each rule set adds a Magics class of its own (gamekernel/magics/<set>.py).
Commands shared by several rule sets (`%check`, `%rest`, `%odds check ...`) dispatch here.
"""

from __future__ import annotations

import importlib

from IPython.core.magic import line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments
from traitlets import Enum, Int, Unicode, observe

from gamekernel import i18n
from gamekernel.display import Displayable
from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magics._base import (
    Secret,
    SessionMagics,
    current_session,
    guarded,
    set_kernel_magics,
    split_line,
)
from gamekernel.render.log import Attributed

__all__ = ["GameKernel", "current_session", "load", "unload"]

RULE_SET_MODULES = ("gurps", "combat", "gammaworld", "mtg")


def _rule_set(name: str):
    return importlib.import_module(f"gamekernel.magics.{name}")


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

    def __init__(self, shell=None, **kwargs):
        super().__init__(shell=shell, **kwargs)
        from gamekernel.session import Session

        self._session = Session(self.seed, max_dice=self.max_dice)
        i18n.set_language(self.language)
        if self.log_path:
            self._session.attach_log(self.log_path)

    @property
    def session(self):
        return self._session

    # -- options ---------------------------------------------------------------------------
    @observe("seed")
    def _seed_changed(self, change) -> None:
        if not hasattr(self, "_session"):
            return  # config applied while constructing; __init__ reads it
        if change["new"] is not None:
            self._session.reseed(change["new"])

    @observe("language")
    def _language_changed(self, change) -> None:
        if not hasattr(self, "_session"):
            return  # config applied while constructing; __init__ reads it
        i18n.set_language(change["new"])

    @observe("max_dice")
    def _max_dice_changed(self, change) -> None:
        if not hasattr(self, "_session"):
            return  # config applied while constructing; __init__ reads it
        if change["new"] < 1:
            raise UsageError(t("core.err.max_dice", value=change["new"]))
        self._session.max_dice = change["new"]

    @observe("log_path")
    def _log_path_changed(self, change) -> None:
        if not hasattr(self, "_session"):
            return  # config applied while constructing; __init__ reads it
        if change["new"]:
            for warning in self._session.attach_log(change["new"]):
                print(warning)

    # -- core magics -----------------------------------------------------------------------
    @magic_arguments()
    @argument("expression", nargs="*", help="Dice notation and an optional label: 3d+2 sword, 4d6kh3, 1d20+5>=15")
    @argument("@Name", nargs="?", help="Who rolls (Gamma World: a natural 1 on a d20 in an encounter is alpha flux)")
    @argument("--secret", action="store_true", help="Roll for the GM only; the result goes to the log.")
    @line_magic
    @guarded("roll")
    def roll(self, line: str = ""):
        """Roll dice: `%roll 3d+2 sword`, `%roll 4d6kh3`, `%roll 1d20+4 @Rin`, `%roll 3d6<=12`."""
        parsed = split_line(line)
        if not parsed.text:
            raise UsageError(t("core.err.roll_empty"))
        result = self.session.roll(parsed.text, actor=parsed.actor, secret=parsed.flag("secret"))
        if parsed.flag("secret"):
            return Secret(result)
        return Attributed(parsed.actor, result) if parsed.actor else result

    @magic_arguments()
    @argument("expression", nargs="*", help="Dice notation, optionally a comparison: 3d6 <= 12, 4d6kh3")
    @line_magic
    @guarded("odds")
    def odds(self, line: str = ""):
        """Exact odds: `%odds 3d6 <= 12`, `%odds 4d6kh3`; GURPS `%odds check 12`, `%odds contest 14 vs 12`;
        MtG `%odds check green 2 @Mira`."""
        text = line.strip()
        if not text:
            raise UsageError(t("core.err.odds_empty"))
        head = text.split(None, 1)[0].lower()
        if head in {"check", "contest"}:
            mtg = _rule_set("mtg")
            if head == "check" and mtg.looks_like_mtg_check(text.split(None, 1)[1] if " " in text else ""):
                return mtg.mtg_odds_line(self.session, text)
            return _rule_set("gurps").gurps_odds_line(self.session, text)
        return self.session.odds(text)

    @magic_arguments()
    @argument("seed", help="A whole number; the same seed replays the same session.")
    @line_magic("seed")
    @guarded("seed")
    def seed_magic(self, line: str = ""):
        """Reseed the session RNG: `%seed 7` (logged)."""
        text = line.strip()
        try:
            value = int(text)
        except ValueError:
            raise UsageError(t("core.err.seed_magic", text=repr(text))) from None
        self.session.reseed(value)
        return _SeedResult(value)

    @magic_arguments()
    @argument("N", nargs="?", help="Show the last N events (default: all).")
    @argument("export", nargs="?", help="`%%log export FILE.md|FILE.html [--players]` writes the log.")
    @argument("--gm", action="store_true", help="Show the details of secret events too.")
    @argument("--players", action="store_true", help="Export without GM secrets.")
    @argument("--session", action="store_true", help="Export only this kernel's session of the campaign.")
    @line_magic
    @guarded("log")
    def log(self, line: str = ""):
        """The session log: `%log`, `%log 10`, `%log --gm`, `%log export session.md [--players] [--session]`.

        `--players` leaves out GM-secret rolls and GM notes; `--session` exports only this kernel's
        session of an open campaign (default: the whole campaign)."""
        parsed = split_line(line, flags=("gm", "players", "session"))
        words = parsed.text.split()
        if words and words[0] == "export":
            if len(words) != 2:
                raise UsageError(t("core.err.log_export_usage"))
            path = self.session.export_log(
                words[1], players=parsed.flag("players"), this_session=parsed.flag("session")
            )
            return _ExportResult(str(path), len(self.session.log))
        if len(words) > 1:
            raise UsageError(t("core.err.log_many", text=repr(parsed.text)))
        last = None
        if words:
            try:
                last = int(words[0])
            except ValueError:
                raise UsageError(t("core.err.log_word", text=repr(words[0]))) from None
        return self.session.log_view(last, show_secrets=parsed.flag("gm"))

    @magic_arguments()
    @argument("text", nargs="*", help="The note; --gm keeps it out of the players' export.")
    @argument("--gm", action="store_true", help="A note for the GM only.")
    @line_magic
    @guarded("note")
    def note(self, line: str = ""):
        """Annotate the log: `%note The party enters the crypt`."""
        parsed = split_line(line, flags=("gm",))
        return self.session.note(parsed.text, gm_only=parsed.flag("gm"))

    @magic_arguments()
    @argument("N", nargs="?", help="How many events to take back (default 1).")
    @line_magic
    @guarded("undo")
    def undo(self, line: str = ""):
        """Take back the last event(s): `%undo`, `%undo 3` (itself logged)."""
        return self.session.undo_result(_count(line, "%undo"))

    @magic_arguments()
    @argument("N", nargs="?", help="How many undone steps to put back (default 1).")
    @line_magic
    @guarded("redo")
    def redo(self, line: str = ""):
        """Put back what `%undo` took: `%redo`, `%redo 2`."""
        return self.session.redo_result(_count(line, "%redo"))

    # -- campaign --------------------------------------------------------------------------
    @magic_arguments()
    @argument("action", help="open FOLDER | status | close")
    @line_magic
    @guarded("campaign")
    def campaign(self, line: str = ""):
        """A campaign folder: `%campaign open ./crypt-of-ash` (created if missing), `%campaign status`,
        `%campaign close`. Every event is written to the folder as it happens."""
        words = line.split(None, 1)
        action = words[0] if words else ""
        if action == "open" and len(words) == 2:
            return self.session.open_campaign(words[1].strip())
        if action == "status" and len(words) == 1:
            return self.session.campaign_status()
        if action == "close" and len(words) == 1:
            return self.session.close_campaign()
        raise UsageError(t("core.err.campaign_usage"))

    @line_magic
    @guarded("save")
    def save(self, line: str = ""):
        """Snapshot the open campaign now and rewrite its readable state files (`%save`)."""
        if line.strip():
            raise UsageError(t("core.err.save_args"))
        return self.session.save_campaign()

    @line_magic
    @guarded("load")
    def load(self, line: str = ""):
        """Read the open campaign again from its folder (`%load`), e.g. after a git checkout."""
        if line.strip():
            raise UsageError(t("core.err.load_args"))
        return self.session.reload_campaign()

    # -- commands shared by rule sets ------------------------------------------------------
    @magic_arguments()
    @argument("spec", nargs="*", help="GURPS: Lockpicking-5 dark, Per+2, Lockpicking | IQ-5. MtG: green 2, G2, 緑2.")
    @argument("@Name", nargs="?", help="Who makes the check (default: the active character).")
    @argument("--secret", action="store_true", help="GURPS: roll for the GM only.")
    @line_magic
    @guarded("check")
    def check(self, line: str = ""):
        """A check: GURPS success roll (`%check Lockpicking-5 dark`) or MtG action check (`%check green 2 @Mira`)."""
        mtg = _rule_set("mtg")
        if mtg.looks_like_mtg_check(split_line(line, flags=("secret",)).text):
            return mtg.mtg_check_line(self.session, line)
        return _rule_set("gurps").gurps_check_line(self.session, line)

    @magic_arguments()
    @argument("what", nargs="*", help="GURPS: `Bren 30min` (a duration). Gamma World: `@Rin` (extended rest).")
    @line_magic
    @guarded("rest")
    def rest(self, line: str = ""):
        """Rest: GURPS `%rest Bren 30min` recovers FP/HP; Gamma World `%rest @Rin` rebuilds the alpha deck."""
        combat = _rule_set("combat")
        if combat.looks_like_gurps_rest(line):
            return combat.gurps_rest_line(self.session, line)
        return _rule_set("gammaworld").gw_rest_line(self.session, line)


def _count(line: str, magic: str) -> int:
    text = line.strip() or "1"
    try:
        count = int(text)
    except ValueError:
        raise UsageError(t("core.err.count_word", magic=magic, text=repr(text))) from None
    if count < 1:
        raise UsageError(t("core.err.count_low", magic=magic, count=count))
    return count


class _SeedResult(Displayable):
    def __init__(self, seed: int):
        self.seed = seed

    def __repr__(self) -> str:
        return i18n.t("core.seed", seed=self.seed)

    def _repr_html_(self) -> str:
        from gamekernel.render.html import esc, panel

        return panel("seed", esc(repr(self)), tone="muted")


class _ExportResult(Displayable):
    def __init__(self, path: str, count: int):
        self.path, self.count = path, count

    def __repr__(self) -> str:
        return i18n.t("core.log.exported", count=self.count, path=self.path)

    def _repr_html_(self) -> str:
        from gamekernel.render.html import esc, panel

        return panel("export", esc(repr(self)), tone="good")


def load(ipython) -> None:
    """Register the core magics and every rule set's (called by `%load_ext gamekernel`)."""
    kernel = GameKernel(shell=ipython)
    set_kernel_magics(kernel)
    ipython.register_magics(kernel)
    for name in RULE_SET_MODULES:
        for magics_class_ in getattr(_rule_set(name), "MAGICS", ()):
            ipython.register_magics(magics_class_(shell=ipython))


def unload(ipython) -> None:
    """Remove every magic gamekernel registered (there is no unregister API in IPython)."""
    from gamekernel.magics import _base

    line_magics = ipython.magics_manager.magics["line"]
    classes = [GameKernel] + [c for n in RULE_SET_MODULES for c in getattr(_rule_set(n), "MAGICS", ())]
    for magics_class_ in classes:
        for name in magics_class_.magics.get("line", {}):
            line_magics.pop(name, None)
        for name in magics_class_.magics.get("cell", {}):
            ipython.magics_manager.magics["cell"].pop(name, None)
    if _base._kernel_magics is not None:
        _base._kernel_magics.session.close()
        if _base._kernel_magics in ipython.configurables:
            ipython.configurables.remove(_base._kernel_magics)
    set_kernel_magics(None)
