"""Campaign operations (a mixin of Session): open, save, reload and close a campaign folder.

Opening restores the state at the end of the last session: from the latest snapshot plus the
events after it when the snapshot is still valid (no later undo reaches behind it), else by a
full replay. Every new event goes to this kernel's own session log in the folder.
"""

from __future__ import annotations

import contextlib
import os
from bisect import bisect_right
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from gamekernel.errors import DataError, StorageError, UsageError
from gamekernel.events import Event, gc_paused, register_event
from gamekernel.host import HostBase
from gamekernel.i18n import t
from gamekernel.limits import user_path
from gamekernel.results import CampaignStatus

if TYPE_CHECKING:
    from pathlib import Path

    from gamekernel.campaign import CampaignStore
    from gamekernel.events import LogStore
    from gamekernel.state import TableState

AUTO_SNAPSHOT_EVERY = 5_000

register_event("campaign.open", undoable=False)


def snapshot_state(snapshot: dict[str, Any], notices: list[str]) -> TableState | None:
    """The state a snapshot holds, or None (replay the whole log) with a notice naming the part that
    could not be read: the log is the record, the snapshot only saves replay time."""
    from gamekernel.state import TableState

    try:
        return TableState.from_dict(snapshot)
    except DataError as error:
        notices.append(t("campaign.notice.snapshot_replayed", error=str(error)))
        return None


def snapshot_is_valid(events: list[Event], snapshot_seq: int) -> bool:
    """A snapshot after event S holds while no later undo/redo reaches an event at or before S."""
    for event in events[after(events, snapshot_seq):]:
        if event.kind in {"undo", "redo"} and min(event.data["seqs"]) <= snapshot_seq:
            return False
    return True


def after(events: list[Event], seq: int) -> int:
    """The index of the first of `events` (in order of seq, as a log is) that comes after event `seq`."""
    return bisect_right(events, seq, key=attrgetter("seq"))


class CampaignActions(HostBase):
    """`session.campaign_open(path)`, `campaign_save()`, `campaign_load()`, `campaign_close()`,
    `campaign_repair(path, confirm=False)`."""

    campaign: CampaignStore | None = None
    _last_refused: Path | None  # the folder a refused open named, for `campaign_repair()`

    def campaign_open(self, path: str | os.PathLike[str]) -> CampaignStatus:
        """Open (or create) the campaign in `path`, every file verified; a damaged one is refused."""
        return self._open_campaign(path, reloading=False)

    def _open_campaign(self, path: str | os.PathLike[str], *, reloading: bool) -> CampaignStatus:
        """`campaign_open`; when `reloading` (`campaign_load`), the events in memory are the
        campaign's own, just closed, not events recorded before it that it leaves out."""
        from gamekernel.campaign import CampaignStore
        from gamekernel.session import active_events, replay

        if self.campaign is not None:
            raise UsageError(t("campaign.err.already_open", name=repr(self.campaign.root.name)))
        path = user_path(path, "folder")  # `~/campaigns/x` as typed
        store = CampaignStore(path)
        self._last_refused = store.root  # what `campaign_repair()` repairs when given no folder
        notices = store.open()
        assert store.index is not None  # open() read the index or created it
        try:
            with gc_paused(keep=True):  # the log lives as long as the kernel: see gc_paused
                loaded = store.load()
                active, redo_stack = active_events(loaded.events)
                state = None
                if loaded.snapshot is not None and snapshot_is_valid(loaded.events, loaded.snapshot_seq):
                    state = snapshot_state(loaded.snapshot, notices)
                start = 0 if state is None else after(active, loaded.snapshot_seq)
                state = replay(active[start:], state)
            log = None if store.read_only else store.start_session()
        except BaseException:
            store.release()
            raise
        earlier = [] if reloading else [e for e in self.log if e.kind != "seed"]
        seed = next((e for e in reversed(self.log) if e.kind == "seed"), None)
        before = (self.log, self.active, self._redo_stack, self.state, self._store, self.load_warnings)
        self.close()
        # annotated: assigning here would otherwise redeclare the host's attributes for the checker
        self.log: list[Event] = loaded.events
        self.active: list[Event] = active
        self._redo_stack: list[list[Event]] = redo_stack
        self.state: TableState = state
        self._store: LogStore | None = log
        self.campaign = store
        self._events_since_snapshot = 0
        self.load_warnings: list[str] = loaded.warnings
        if log is None:  # read-only, looked at and not played: nothing to record, a command that records is refused
            self._last_refused = None
            if earlier:
                notices.append(t("campaign.notice.earlier", count=len(earlier)))
            return self.campaign_status(notices=tuple(notices + loaded.warnings))
        try:
            self.record("campaign.open",
                        {"name": store.index.name, "session": log.path.name, "events": len(loaded.events)})
            if seed is not None and not earlier and not reloading:
                self.record("seed", dict(seed.data))  # nothing used the RNG since: the story keeps its seed
        except BaseException:  # e.g. the disk is full: the session is as it was, the campaign closed
            self.log, self.active, self._redo_stack, self.state, self._store, self.load_warnings = before
            self.campaign = None
            store.release()
            raise
        self._last_refused = None
        if earlier:
            notices.append(t("campaign.notice.earlier", count=len(earlier)))
        return self.campaign_status(notices=tuple(notices + loaded.warnings))

    def campaign_repair(self, path: str | os.PathLike[str] | None = None, *, confirm: bool = False):
        """What rebuilding the campaign in `path` (by default the one whose opening was just refused)
        from the logs that exist would do; done only with `confirm`.

        Nothing is deleted: files that cannot be kept are moved into a `damaged-<time>` folder.
        """
        from gamekernel.campaign_repair import repair

        if self.campaign is not None:
            raise UsageError(t("campaign.err.already_open", name=repr(self.campaign.root.name)))
        path = path if path is not None else getattr(self, "_last_refused", None)
        if path is None:
            raise UsageError(t("campaign.err.repair_which"))
        return repair(path, confirm=confirm)

    def campaign_status(self, *, notices: tuple[str, ...] = ()) -> CampaignStatus:
        store = self._require_campaign()
        return CampaignStatus(
            store.index.name, str(store.root), len(store.index.sessions), len(self.log), store.index.snapshot_seq,
            notices,
        )

    def campaign_save(self) -> CampaignStatus:
        """Write a snapshot of the state now and the readable per-part files."""
        store = self._require_campaign()
        return self.campaign_status(notices=tuple(self._write_snapshot(store)))

    def campaign_load(self) -> CampaignStatus:
        """Read the campaign again from its folder (what another tool or git checkout changed)."""
        store = self._require_campaign()
        root = store.root
        closed = self.campaign_close()
        opened = self._open_campaign(root, reloading=True)
        return self.campaign_status(notices=closed.notices + opened.notices)

    def campaign_close(self) -> CampaignStatus:
        """Write a last snapshot and let the campaign go; a failed snapshot loses nothing (the logs
        hold every event) and is reported on the status."""
        store = self._require_campaign()
        notices: tuple[str, ...] = ()
        try:
            notices = () if store.read_only else tuple(self._write_snapshot(store))
        except StorageError as error:
            from gamekernel.campaign import CopiesNotWrittenError

            key = "campaign.notice.copies_failed" if isinstance(error, CopiesNotWrittenError) else \
                "campaign.notice.snapshot_failed"
            notices = (t(key, error=str(error)),)
        status = self.campaign_status()
        store.release()
        self.campaign = None
        self._store = None
        return CampaignStatus(status.name, status.path, status.sessions, status.events, status.snapshot_seq,
                              notices, closed=True)

    def _require_campaign(self):
        if self.campaign is None:
            raise UsageError(t("campaign.err.none_open"))
        return self.campaign

    def _write_snapshot(self, store) -> list[str]:
        """Write the snapshot and readable copies; returns the store's notices (an edit kept aside)."""
        if not self.log or not self.state.can_snapshot():
            return []
        state = self.state.to_dict()
        notices = store.write_snapshot(self.log[-1].seq, state, {k: v for k, v in state.items() if k != "core"})
        self._events_since_snapshot = 0
        return notices

    def _after_campaign_event(self) -> None:
        """Called for each recorded event while a campaign is open: snapshot every few thousand."""
        self._events_since_snapshot = getattr(self, "_events_since_snapshot", 0) + 1
        if self._events_since_snapshot >= AUTO_SNAPSHOT_EVERY:
            with contextlib.suppress(StorageError):  # the event is in the log; retried after the next one
                self._write_snapshot(self.campaign)
