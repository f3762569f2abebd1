"""Core session operations: seed, dice rolls, exact odds, notes, the log view and its export."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamekernel.errors import UsageError
from gamekernel.events import register_event
from gamekernel.i18n import t
from gamekernel.results import LogView, NoteResult, SessionDate, UndoResult
from gamekernel.session import SessionCore

if TYPE_CHECKING:
    from gamekernel.dice import Distribution, RollResult


def _apply_seed(state: Any, data: Mapping[str, Any]) -> None:
    state["core"].seed = data["seed"]


register_event("seed", apply=_apply_seed, undoable=False, changes=("core",))
register_event("roll", changes=())
register_event("note", changes=())
register_event("session.date", changes=())
register_event("undo", undoable=False)
register_event("redo", undoable=False)


def parse_date(text: str) -> str:
    """A calendar date as `YYYY-MM-DD` (the only form, so a story's date reads the same in any locale)."""
    import re
    from datetime import date

    text = str(text).strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError:
            pass
    raise UsageError(t("core.err.date", date=repr(text)))


@dataclass(frozen=True)
class Written:
    """A written export: where, and how many entries it holds (events, or the story's entries)."""

    path: Path
    count: int


class CoreActions(SessionCore):
    """The table's own operations on the core: seed, roll, odds, notes and the log."""

    def reseed(self, seed: int) -> int:
        """Reseed the RNG so that everything after this is reproducible (logged)."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise UsageError(t("core.err.seed", seed=repr(seed)))
        self.rng.seed(seed)
        self.restart_secret_stream(seed)
        self.record("seed", {"seed": seed})
        return seed

    def dice_limits(self):
        """The dice limits for the current `max_dice` (rebuilt only when the option changes)."""
        cached = getattr(self, "_dice_limits", None)
        if cached is None or cached.max_dice != self.max_dice:
            from gamekernel.dice import Limits

            cached = self._dice_limits = Limits(max_dice=self.max_dice)
        return cached

    def roll(self, expression: str, *, actor: str | None = None, secret: bool = False) -> RollResult:
        """Roll dice notation with the session RNG; the faces are logged as a `roll` event."""
        # from the module, not the package: a from-import of a package runs importlib's Python
        # `_handle_fromlist` on every roll
        from gamekernel.dice.result import roll

        result = roll(expression, self.dice_for(secret), self.dice_limits())
        self.record("roll", {"result": result.to_dict(breakdown=False)}, actor=actor, secret=secret)
        return result

    def odds(self, expression: str) -> Distribution:
        """The exact distribution of dice notation (or the success chance of a comparison)."""
        from gamekernel.dice import distribution

        return distribution(expression, self.dice_limits())

    def note(self, text: str, *, gm_only: bool = False) -> NoteResult:
        """A GM annotation in the log (`gm_only` notes are left out of the players' export)."""
        from gamekernel.text import visible

        text = visible(text).strip()  # read by the players as typed: no bidi or zero-width controls
        if not text:
            raise UsageError(t("core.err.note_empty"))
        self.record("note", {"text": text, "gm_only": gm_only}, secret=gm_only)
        return NoteResult(text, gm_only)

    def session_date(self, date: str) -> SessionDate:
        """Date this session's story (`%campaign date 2026-11-30`): the players' story is headed by
        this date, not by the stamp of the day the notebook ran, so a re-run notebook prints the same."""
        day = parse_date(date)
        self.record("session.date", {"date": day})
        return SessionDate(day)

    def log_view(self, last: int | None = None, *, show_secrets: bool = False) -> LogView:
        """The last `last` events (all when None) as a table; secret details and the fighters the GM
        hides left out unless asked (`--gm`, then marked as the GM's view)."""
        if last is not None and last < 1:
            raise UsageError(t("core.err.log_count", count=last))
        from gamekernel.hiding import hidden_names

        events = self.log if last is None else self.log[-last:]
        hidden = () if show_secrets or not self.state["seats"].hidden else hidden_names(self)
        return LogView(tuple(events), show_secrets, total=len(self.log), log=tuple(self.log), hidden=hidden)

    def log_write(
        self, path: str | os.PathLike[str], *, players: bool = False, this_session: bool = False,
        odds: bool = False, date: str | None = None,
    ) -> Written:
        """Write the log as Markdown (.md) or a self-contained page (.html), atomically (`%log export`),
        returning the path and how many entries the file really holds.

        With a campaign open the log is the whole campaign; `this_session` keeps only what this
        kernel recorded since it opened the campaign. `players` writes the players' story instead
        of the GM's log (`odds` adds the odds to its rolls; `date` heads it instead of the session's
        own date)."""
        from gamekernel.events import refusing_failed_writes
        from gamekernel.render.log import export_html, export_markdown
        from gamekernel.render.story import players_story, story_html, story_markdown
        from gamekernel.util import atomic_write_text

        path = Path(path)
        if date is not None:
            date = parse_date(date)
        events = self.log
        if this_session:
            opened = [i for i, e in enumerate(events) if e.kind == "campaign.open"]
            events = events[opened[-1]:] if opened else events
        suffix = path.suffix.lower()
        markdown = suffix in {".md", ".markdown"}
        if not markdown and suffix not in {".html", ".htm"}:
            raise UsageError(t("core.err.export_suffix", name=repr(path.name)))
        if players:
            story = players_story(self, events, odds=odds, date=date)  # the remote players' story too
            text, count = (story_markdown(story) if markdown else story_html(story)), story.count
        else:
            text = export_markdown(events) if markdown else export_html(events)
            count = len(events)
        with refusing_failed_writes(str(path)):
            atomic_write_text(path, text)
        return Written(path, count)

    def undo_result(self, count: int = 1):
        return UndoResult("undo", tuple(self.undo(count)))

    def redo_result(self, count: int = 1):
        return UndoResult("redo", tuple(self.redo(count)))
