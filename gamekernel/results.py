"""Results of the table's own operations (notes, the log, undo and redo, the seed, exports) and of the
campaign: facts only, returned by gamekernel/actions/ and the core magics and drawn by the renderers
of gamekernel/render/ (so operations -> results <- renderers, and neither imports the other)."""

from __future__ import annotations

from dataclasses import dataclass

from gamekernel.display import Displayable
from gamekernel.events import Event


@dataclass(frozen=True, repr=False)
class NoteResult(Displayable):
    """`%note TEXT` (`--gm`: a note for the GM only)."""

    text: str
    gm_only: bool = False


@dataclass(frozen=True, repr=False)
class SessionDate(Displayable):
    """The date the GM gave this session (`%campaign date`)."""

    date: str


@dataclass(frozen=True, repr=False)
class UndoResult(Displayable):
    """What `%undo` or `%redo` (`action`) took back or put back, oldest first."""

    action: str
    events: tuple[Event, ...]


@dataclass(frozen=True, repr=False)
class LogView(Displayable):
    """`%log [N] [--gm]`: the events shown, and whether secret events show their details."""

    events: tuple[Event, ...]
    show_secrets: bool = False
    total: int = 0  # events in the whole log: more than shown adds a line saying how to see them
    log: tuple[Event, ...] = ()  # the whole log: which events are undone, what an undo took back
    hidden: tuple[str, ...] = ()  # the fighters the GM hides: the players' log names none of them


@dataclass(frozen=True, repr=False)
class SeedResult(Displayable):
    """`%seed N`: the session RNG was reseeded (logged)."""

    seed: int


@dataclass(frozen=True, repr=False)
class ExportResult(Displayable):
    """`%log export FILE`: where the log (or the players' story) went and how many entries it holds."""

    path: str
    count: int
    story: bool = False


@dataclass(frozen=True, repr=False)
class CampaignStatus(Displayable):
    """What `%campaign` opened, saved or closed: its sessions, events, last snapshot and notices."""

    name: str
    path: str
    sessions: int
    events: int
    snapshot_seq: int
    notices: tuple[str, ...] = ()
    closed: bool = False
    read_only: bool = False  # opened read-only: a close wrote nothing


@dataclass(frozen=True, repr=False)
class EventLines(Displayable):
    """The log lines of the events one widget action recorded (a sheet edit, whose magic would show
    the whole character)."""

    lines: tuple[str, ...]


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class TableNotice(Displayable):
    """What a GM's remote-table command did (`%table seat`, `ask`, `serve`, `%reveal`), in one line."""

    text: str
