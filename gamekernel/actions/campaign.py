"""Campaign operations (a mixin of Session): open, save, reload and close a campaign folder.

Opening restores the state at the end of the last session: from the latest snapshot plus the
events after it when the snapshot is still valid (no later undo reaches behind it), else by a
full replay. Every new event goes to this kernel's own session log in the folder.
"""

from __future__ import annotations

import contextlib
import gc
import os
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gamekernel.actions.core import CoreActions
from gamekernel.errors import DataError, GameKernelError, StorageError, UsageError
from gamekernel.events import Event, gc_paused, register_event
from gamekernel.i18n import t
from gamekernel.limits import user_path
from gamekernel.replay import after, snapshot_is_valid
from gamekernel.results import CampaignStatus, EventLines

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


def _session_name(given: str) -> str:
    """A session as the GM may type it: `sessions/NAME.jsonl` as notices show it, or the bare name."""
    name = given.removeprefix("sessions/")
    return name if name.endswith(".jsonl") else f"{name}.jsonl"


def _hand_over(store: CampaignStore, holder: CampaignStore | None) -> None:
    """The lock passes from the store of before a reload to the store read again (idempotent)."""
    if holder is not None:
        if holder._locked:
            store.take_lock_from(holder)
        holder.release()


class CampaignActions(CoreActions):
    """`session.campaign_open(path)`, `campaign_save()`, `campaign_load()`, `campaign_close()`,
    `campaign_repair(path, confirm=False)`."""

    _closed_at: tuple[list[Event], int] | None = None  # the log and its length when a campaign was closed
    _last_refused: Path | None  # the folder a refused open named, for `campaign_repair()`

    def campaign_open(self, path: str | os.PathLike[str], *, same_session: bool = False) -> CampaignStatus:
        """Open (or create) the campaign in `path`, every file verified; a damaged one is refused.

        Opening a campaign in a kernel starts a new game session (the default, seed 000:33, 40): each
        rule set's `new_session` runs and records what it does (Gamma World: every alpha card back,
        decks shuffled). `same_session=True` is the GM saying this kernel restart is not a new game
        session (the table plays on where it stopped)."""
        if self.campaign is not None:
            raise UsageError(t("campaign.err.already_open", name=repr(self.campaign.root.name)))
        status = self._open_campaign(path, holder=None)
        if same_session or self.campaign is None or self.campaign.read_only:
            return status
        lines = self._new_game_session()
        return replace(status, notices=(*status.notices, *lines))

    def game_session_new(self) -> EventLines:
        """`%campaign session new`: the GM starts a new game session now (same effect as opening the
        campaign in a new kernel): every rule set's `new_session`, each step its own event."""
        lines = self._new_game_session()
        return EventLines(tuple(lines) or (t("campaign.session.nothing"),))

    def _new_game_session(self) -> list[str]:
        """Run every rule set's `new_session`; the log lines of the events they recorded."""
        from gamekernel.rulesets import rule_sets

        mark = len(self.log)
        for rule_set in rule_sets():
            if rule_set.new_session is not None:
                rule_set.new_session(self)
        return [event.summary() for event in self.log[mark:]]

    def _open_campaign(self, path: str | os.PathLike[str], *, holder: CampaignStore | None) -> CampaignStatus:
        """`campaign_open`; with `holder` (`campaign_load`: the store open on the same folder) the
        folder is read again under the lock `holder` keeps, and only once it has been read whole,
        replayed and its new session started does the kernel switch to it: any failure or interrupt
        before that leaves `holder` open as it was (never a kernel silently without its campaign)."""
        from gamekernel.campaign import CampaignStore
        from gamekernel.replay import DeferredInterrupts, active_events, replay

        path = user_path(path, "folder")  # `~/campaigns/x` as typed
        store = CampaignStore(path)
        if holder is None:
            self._last_refused = store.root  # what `campaign_repair()` repairs when given no folder
        notices = store.open(holder=holder)
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
            notices += store.keep_edits(loaded.edited)
            log = None if store.read_only else store.start_session()
        except BaseException:
            store.release()  # a reread's store holds no lock: `holder` keeps it
            raise
        earlier = [] if holder is not None else self._earlier_events()
        seed = next((e for e in reversed(self.log) if e.kind == "seed"), None)
        before = (self.log, self.active, self._redo_stack, self.state, self._store, self.load_warnings, self.campaign)
        read = len(loaded.events)
        deferred = DeferredInterrupts()  # a real SIGINT waits until the switch is whole
        deferred.__enter__()
        try:
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
            try:
                if log is not None:  # the commit point: this line in the new session's log
                    self.record("campaign.open", {"name": store.index.name, "session": log.path.name,
                                                  "events": read, "number": len(store.index.sessions)})
                    if seed is not None and not earlier and holder is None:
                        self.record("seed", dict(seed.data))  # nothing used the RNG since: the story keeps its seed
            finally:
                if log is None or len(self.log) > read:  # switched, even if an exception came after the commit
                    _hand_over(store, holder)
        except BaseException:
            if self.campaign is store and (log is None or len(self.log) > read):
                _hand_over(store, holder)  # again, if an exception cut the first short
                raise
            # e.g. the disk is full: the session is as it was, `holder` still open
            self.log, self.active, self._redo_stack, self.state, self._store, self.load_warnings, self.campaign = before
            store.release()
            raise
        finally:
            deferred.__exit__()
        self._last_refused = None
        self._campaign_meant = None
        self._closed_at = None
        if earlier:
            notices.append(t("campaign.notice.earlier", count=len(earlier)))
        return self.campaign_status(notices=tuple(notices + loaded.warnings))

    def _earlier_events(self) -> list[Event]:
        """The events in memory that no campaign holds: those recorded since the last campaign was
        closed (its own are in its folder), or all of them when none was open (a seed excepted)."""
        closed_at = getattr(self, "_closed_at", None)
        events = self.log
        if closed_at is not None and closed_at[0] is events:
            events = events[closed_at[1]:]
        return [e for e in events if e.kind != "seed"]

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

    def campaign_status(self, *, notices: tuple[str, ...] | None = None) -> CampaignStatus:
        """What is open; asked for on its own (`%campaign status`), with the forks its sessions hold
        and how they were ordered (gamekernel.campaign_chain)."""
        store = self._require_campaign()
        if notices is None:
            notices = tuple(store.forks)
        return CampaignStatus(
            store.index.name, str(store.root), len(store.index.sessions), len(self.log), store.index.snapshot_seq,
            notices,
        )

    def campaign_order(self, names: list[str]) -> CampaignStatus:
        """Put forked sessions (two that follow the same event) in the order given, kept in the index
        so that every later open numbers them so; the folder is then read again to renumber (their
        undo, redo and reveal references too, as gamekernel.campaign_chain does). Refused, changing
        nothing: no campaign open, read-only, a name that is no session, sessions that are no fork of
        each other, or later events that name events of the fork (their meaning would change)."""
        store = self._require_campaign()
        if store.read_only:
            raise StorageError(t("campaign.err.read_only", name=repr(store.root.name)))
        chosen = [_session_name(name) for name in names]
        for name, given in zip(chosen, names, strict=True):
            if name not in store.index.sessions:
                raise UsageError(t("campaign.err.order_unknown", name=repr(given), campaign=repr(store.root.name)))
        if len(set(chosen)) != len(chosen):
            raise UsageError(t("campaign.err.order_twice"))
        follows = {store.forked[name][0] if name in store.forked else None for name in chosen}
        if None in follows or len(follows) != 1:
            raise UsageError(t("campaign.err.order_not_forks", names=", ".join(map(repr, names))))
        group = [name for name in store.index.sessions if name in store.forked and store.forked[name][0] in follows]
        self._refuse_if_named_later(min(store.forked[n][1] for n in group), max(store.forked[n][2] for n in group))
        kept = [name for name in store.index.fork_order if name not in group]
        before = store.index.fork_order
        store.index.fork_order = kept + chosen
        try:
            store._write_index()
        except BaseException:
            store.index.fork_order = before
            raise
        return self.campaign_load()

    def _refuse_if_named_later(self, first: int, last: int) -> None:
        """Events after a fork (numbered `first`-`last` here) that name one of its events by number
        (an undo, redo or reveal) would name another event once renumbered: such a reorder is refused."""
        for event in self.log:
            if event.seq <= last:
                continue
            data = event.data
            named: list[Any] = []
            if event.kind in ("undo", "redo") and isinstance(data.get("seqs"), list):
                named = data["seqs"]
            elif event.kind == "table.reveal":
                named = [data.get("seq"), data.get("cause")]
            if any(type(n) is int and first <= n <= last for n in named):
                raise UsageError(t("campaign.err.order_named_later", seq=event.seq, first=first, last=last))

    def campaign_save(self) -> CampaignStatus:
        """Write a snapshot of the state now and the readable per-part files."""
        store = self._require_campaign()
        return self.campaign_status(notices=tuple(self._write_snapshot(store)))

    def campaign_load(self) -> CampaignStatus:
        """Read the campaign again from its folder (what another tool or git checkout changed):
        read first, then write; writes nothing before the folder has been read whole (no snapshot
        or readable copy from memory over what changed), and a refused reread (damage, an interrupt,
        a full disk) leaves the campaign open as it was, said in the one line of the error."""
        store = self._require_campaign()
        self._campaign_meant = store.root
        collecting = gc.isenabled()
        try:
            status = self._open_campaign(store.root, holder=store)
        except GameKernelError as error:
            self._campaign_meant = None
            raise type(error)(t("campaign.err.load_refused", error=str(error), name=repr(store.root.name))) from None
        except BaseException:
            if collecting:  # an interrupt inside the reread's `gc_paused` may have left the collector off
                gc.enable()
            if self.campaign is not None:  # put back whole, or switched whole: commands record to it
                self._campaign_meant = None
            raise
        return status

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
        self._campaign_meant = None
        self._closed_at = (self.log, len(self.log))  # these events are the campaign's: not "earlier" at the next open
        return CampaignStatus(status.name, status.path, status.sessions, status.events, status.snapshot_seq,
                              notices, closed=True, read_only=store.read_only)

    def _require_campaign(self):
        if self.campaign is None:
            raise UsageError(t("campaign.err.none_open"))
        return self.campaign

    def _write_snapshot(self, store) -> list[str]:
        """Write the snapshot and readable copies; returns the store's notices (an edit kept aside)."""
        if not self.log or not self.state.can_snapshot():
            return []
        state = self.state.to_dict()
        notices = store.write_snapshot(self.log[-1].seq, state, {k: v for k, v in state.items() if k != "core"},
                                       self.log[-1].time)
        self._events_since_snapshot = 0
        return notices

    def _after_campaign_event(self) -> None:
        """Called for each recorded event while a campaign is open: snapshot every few thousand."""
        self._events_since_snapshot = getattr(self, "_events_since_snapshot", 0) + 1
        if self._events_since_snapshot >= AUTO_SNAPSHOT_EVERY:
            with contextlib.suppress(StorageError):  # the event is in the log; retried after the next one
                self._write_snapshot(self.campaign)
