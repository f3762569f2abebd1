"""The session's core: the table's state, the RNG, the event log, observers and undo/redo.

State is the replay of the active events: `record` applies an event's reducer and appends it to
the log; `undo` appends an `undo` event and rebuilds the state from the events still active, so
the log stays append-only and the story keeps the correction. Each rule set keeps its operations
in its own handle (`session.gurps.state`, `session.rules["coin"]`, made from its `RuleSet` declaration)
and its state as named parts (`register_part`): the core names no rule set.
gamekernel/table_session.py gives the public `Session` its typed handles.
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Self, TypeVar

from gamekernel.errors import GameKernelError, StorageError, UsageError
from gamekernel.events import (
    ENTROPY_KIND,
    EVENT_KINDS,
    Event,
    LogStore,
    check_storable,
    encode_event,
    now_iso,
    reactions_for,
    register_event,
    register_reaction,
)
from gamekernel.i18n import t
from gamekernel.replay import DeferredInterrupts, active_events, replay, replay_checked
from gamekernel.rng import Mark, TransactionalRandom
from gamekernel.rulesets import RuleSetHandle, handle_classes
from gamekernel.secret_index import SecretIndex
from gamekernel.state import TableState

if TYPE_CHECKING:
    from gamekernel.campaign import CampaignStore

__all__ = ["Rules", "SessionCore", "active_events", "register_reaction", "replay"]

H = TypeVar("H", bound=RuleSetHandle)


get_ident = threading.get_ident
META_KINDS = frozenset({"undo", "redo"})
ENTROPY_BYTES = 16
register_event(ENTROPY_KIND, undoable=False, changes=())
MetaOutcome = tuple[list[Event], list[list[Event]], TableState]  # active events, redo stack, state


class SessionCore:
    """One table's core: the log, the dice, undo/redo, `record`, observers, `command`; every rule set's
    handle is in `rules` (and, at run time, an attribute: `session.coin`). The table's own operations
    build on it (gamekernel/actions/core.py: roll, note, the log; actions/campaign.py: campaigns), and
    the public, typed `Session` on those (gamekernel/table_session.py)."""

    campaign: CampaignStore | None = None  # the open campaign (actions/campaign.py opens and closes it)
    _campaign_meant: Path | None = None  # a reload under way: no command records until a campaign is open

    def _after_campaign_event(self) -> None:
        """What a campaign does after each event (actions/campaign.py: its snapshots)."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        max_dice: int = 10_000,
        log_path: str | os.PathLike[str] | None = None,
    ):
        self.rules = Rules(self)  # every rule set's handle, made on first use (its state part registered now)
        if seed is None and os.environ.get("GAMEKERNEL_SEED", "").strip():
            seed = _parse_seed(os.environ["GAMEKERNEL_SEED"], "GAMEKERNEL_SEED")
        self._owner = threading.get_ident()  # see `_check_owner`
        self._lock = threading.RLock()  # see `command`
        self._holder: int | None = None
        self.rng = TransactionalRandom(seed)
        self.secret_rng = TransactionalRandom()  # keyed at the first secret roll (see `restart_secret_stream`)
        self._secret_key: SecretKey = SecretKey(None, True)
        self._secret_seed: int | None = None  # the public seed the secret stream is keyed from
        self.max_dice = max_dice
        self.log: list[Event] = []
        self.active: list[Event] = []
        self._redo_stack: list[list[Event]] = []
        self.state = TableState()
        self._observers: list[Any] = []  # callables, or WeakMethods of widgets
        self._store: LogStore | None = None
        self.load_warnings: list[str] = []
        self._in_reaction = False
        self.acting_for: str | None = None  # the player whose intent is being carried out (`command(user)`)
        self._public_only = False  # see `public_only`
        self.reaction_events: list[Event] = []
        self._public_table: Any = None  # the players' table (`public_table`), made on first use
        self.projected = False  # True for a projection's shadow session: it is the players' table already
        self._secret_seen: tuple[int, int, bool] = (0, 0, False)  # (log identity, events read, a secret seen)
        self._secrets = SecretIndex()  # `active_secrets`
        if seed is not None:
            self.restart_secret_stream(seed)
            self.record("seed", {"seed": seed})
        if log_path is not None:
            self.attach_log(log_path)

    # -- recording -------------------------------------------------------------------------
    def record(
        self, kind: str, data: Mapping[str, Any] | None = None, *, actor: str | None = None,
        secret: bool = False,
    ) -> Event:
        """Apply and log one event, write-ahead: memory changes only once the event is on disk.

        The event's line reaching the file whole is the one point of commit. Everything before it
        (the reducer, an undo's replay) is refused or undone when it fails; an exception of any
        kind at any point after it (an interrupt while the line is synced) completes the event in
        memory instead, so memory and disk always agree and no number is used twice.
        """
        with self._lock:
            if secret and self._public_only:
                raise UsageError(t("remote.err.player_secret"))
            if not self._secret_key.logged and kind != ENTROPY_KIND:
                # text that cannot be stored refuses the event: then the entropy stays unlogged too
                check_storable(Event(0, kind, dict(data or {}), actor, secret, ""))
                self._log_secret_entropy()
            return self._record(kind, data, actor=actor, secret=secret)

    def _log_secret_entropy(self) -> None:
        """Write the entropy that keys the secret stream, as a secret event, just before the first
        event after the first secret draw: the GM's log then holds all that replaying the secret dice
        needs, a refused command leaves no trace, and a notebook without secret rolls keeps its numbers."""
        key = self._secret_key
        self._record(ENTROPY_KIND, {"entropy": key.entropy}, actor=None, secret=True)
        self._secret_key = SecretKey(key.entropy, True)

    def _record(self, kind: str, data: Mapping[str, Any] | None, *, actor: str | None, secret: bool) -> Event:
        me = get_ident()
        if me != self._owner and me != self._holder:  # inside `command()` (every caller) the holder is me
            self._check_owner()
        if self.campaign is not None:
            self._check_writable()
        elif self._campaign_meant is not None:  # a reload cut short: never recorded to memory only
            raise StorageError(t("campaign.err.lost", name=repr(self._campaign_meant.name),
                                 path=str(self._campaign_meant)))
        event_kind = EVENT_KINDS.get(kind)
        if event_kind is None:
            raise KeyError(f"unregistered event kind {kind!r}")
        log = self.log
        event = Event.new(log[-1].seq + 1 if log else 1, kind, dict(data or {}), actor, secret, now_iso(),
                          self.acting_for)
        # refuse text that cannot be stored (a lone surrogate) before anything changes
        store, after, collecting = self._store, None, gc.isenabled()
        line: bytes | None = None
        if store is None:
            check_storable(event)
        else:
            line = encode_event(event)
        deferred = DeferredInterrupts() if store is not None else None
        if deferred is not None:
            deferred.__enter__()
        try:
            if kind in META_KINDS:
                after = self._meta_outcome(event)
            if event_kind.apply is not None:
                event_kind.apply(self.state, event.data)
            if store is not None and line is not None:
                store.append_bytes(line)
            self._commit(event, after)
        except BaseException:
            if collecting:  # an interrupt inside a replay's `gc_paused` may have left it off
                gc.enable()
            self._settle(event, after, store, line)
            raise
        finally:
            if deferred is not None:
                deferred.__exit__()  # an interrupt that came meanwhile is raised now, memory and disk agreeing
        if self.campaign is not None:
            self._after_campaign_event()
        if self._observers:
            self._notify(event)
        if kind not in META_KINDS and not self._in_reaction:
            reactions = reactions_for(kind)
            if reactions:
                self._in_reaction = True
                try:
                    for reaction in reactions:
                        reaction(self, event)
                finally:
                    self._in_reaction = False
        return event

    def _check_owner(self) -> None:
        """A session is used by the thread that created it, or by a caller inside `command()`: two
        threads recording at once would give two events one number; any other call from another
        thread is refused before it starts."""
        me = threading.get_ident()
        if me != self._owner and me != self._holder:
            raise UsageError(t("core.err.thread", thread=threading.current_thread().name))

    def _settle(self, event: Event, after: MetaOutcome | None, store: LogStore | None, line: bytes | None) -> None:
        """After a failure inside `record`: an event that reached its commit point (its line whole
        in the file; without a file, the log in memory) is completed in memory, any other undone."""
        committed = store.ends_with(line) if store is not None and line else bool(self.log) and self.log[-1] is event
        if committed:
            self._commit(event, after)
        elif EVENT_KINDS[event.kind].apply is not None:
            self.state = replay(self.active)  # the state before this event

    def _commit(self, event: Event, after: MetaOutcome | None) -> None:
        """Make memory hold `event` (idempotent: a second call after an interrupt changes nothing)."""
        if not self.log or self.log[-1] is not event:
            self.log.append(event)
        if self._in_reaction and (not self.reaction_events or self.reaction_events[-1] is not event):
            self.reaction_events.append(event)
        if after is not None:
            self.active, self._redo_stack, self.state = after
        elif not self.active or self.active[-1] is not event:
            self.active.append(event)
            if EVENT_KINDS[event.kind].undoable:  # a new action forgets what was undone; a seed or a notice does not
                self._redo_stack.clear()

    def command(self, user: str | None = None) -> Command:
        """`with session.command():` - the one way in for every caller (a magic, a widget's click, a
        player's intent, a handle's own multi-step operation), holding three things at once:

        - the lock: one caller at a time, whatever its thread (a widget's message that the kernel
          handles on a subshell waits for the notebook's running command, and the other way round);
        - the transaction: a command refused (a GameKernelError) before it recorded anything gets
          the dice it drew put back, so it consumes no randomness and seeded replays agree (one that
          recorded events keeps its dice: the events hold them);
        - the acting user: with `user`, every event recorded inside is stamped `by=user` (a player's
          intent carried out by the GM's kernel; the table server names the authenticated user).

        Commands nest (an operation that opens its own inside a magic's is the same caller)."""
        return Command(self, user)

    def dice_for(self, secret: bool) -> TransactionalRandom:
        """The stream a roll draws from: secret rolls use their own (see `secret_seed`), so the
        public events and the seed together never reveal what the GM rolled in secret.
        Another thread is refused here too, before it draws a die (see `_check_owner`)."""
        me = get_ident()
        if me != self._owner and me != self._holder:  # inside `command()` (every magic) the holder is me
            self._check_owner()
        if not secret:
            return self.rng
        if self._secret_key.entropy is None:
            self._key_secret_stream()
        return self.secret_rng

    @contextmanager
    def public_only(self) -> Iterator[None]:
        """Inside: a secret event is refused (one line; the command's dice are put back, nothing is
        recorded): a player's own check is public whatever its rule set reads into its words
        (GURPS-SR-09). Hidden card orders still draw from the secret stream, as for everyone."""
        before, self._public_only = self._public_only, True
        try:
            yield
        finally:
            self._public_only = before

    def restart_secret_stream(self, seed: int) -> None:
        """A new public seed (the session's, or `%seed N`): the secret stream is keyed afresh at the
        next secret roll, from this seed and new entropy the players never see."""
        self._secret_seed = seed
        self._secret_key = SecretKey(None, True)

    def _key_secret_stream(self) -> None:
        """Key the secret stream from the seed and 16 bytes of the system's entropy: recovering the
        public seed from public rolls then predicts no secret die. The entropy waits to be logged
        (see `_log_secret_entropy`); an unseeded table's stream already has the system's entropy."""
        if self._secret_seed is None:
            self._secret_key = SecretKey("", True)
            return
        entropy = _fixed_entropy() or os.urandom(ENTROPY_BYTES).hex()
        self.secret_rng.seed(secret_seed(self._secret_seed, entropy))
        self._secret_key = SecretKey(entropy, False)

    # -- undo / redo -----------------------------------------------------------------------
    def undo(self, count: int = 1) -> list[Event]:
        """Take back the last `count` undoable events; returns them (oldest first)."""
        taken = self._last_undoable(count)
        if not taken:
            return []
        seqs = [e.seq for e in taken]
        self.record("undo", {"seqs": seqs})
        return taken

    def redo(self, count: int = 1) -> list[Event]:
        """Put back the events most recently undone (`count` undo steps' worth)."""
        if count < 1:
            raise UsageError(t("core.err.redo_count", count=count))
        if not self._redo_stack:
            return []
        groups = self._redo_stack[-count:]
        events = [e for group in reversed(groups) for e in group]
        self.record("redo", {"seqs": [e.seq for e in events]})
        return events

    def _last_undoable(self, count: int) -> list[Event]:
        if count < 1:
            raise UsageError(t("core.err.undo_count", count=count))
        taken: list[Event] = []
        steps = 0
        active_seqs = {e.seq for e in self.active}
        causes: set[int] = set()  # a reaction (e.g. the alpha flux of a natural 1) goes with its cause
        for event in reversed(self.active):
            if not EVENT_KINDS[event.kind].undoable:
                continue
            if event.seq in causes:  # a cause's own cause goes too (two reveals before one step)
                causes.discard(event.seq)
                taken.append(event)
            elif steps == count:
                break
            else:
                taken.append(event)
                steps += 1
            cause = event.data.get("cause")
            if isinstance(cause, int) and cause in active_seqs:
                causes.add(cause)
        return list(reversed(taken))

    def _meta_outcome(self, event: Event) -> MetaOutcome:
        """What an undo or redo makes of the active events, the redo stack and the state, computed
        before it is written: an undo whose replay fails is refused with nothing written or changed."""
        by_seq = {e.seq: e for e in self.log}
        seqs = list(event.data["seqs"])
        redo_stack = list(self._redo_stack)
        if event.kind == "undo":
            gone = set(seqs)
            active = [e for e in self.active if e.seq not in gone]
            redo_stack.append([by_seq[s] for s in seqs])
        else:
            wanted = set(seqs)
            restored: list[Event] = []
            while redo_stack and wanted:
                group = redo_stack.pop()
                restored[:0] = group
                wanted -= {e.seq for e in group}
            active = sorted(self.active + restored, key=lambda e: e.seq)
        return active, redo_stack, replay_checked(active)

    def _notify(self, event: Event) -> None:
        dead = False
        for entry in list(self._observers):
            observer = entry() if isinstance(entry, weakref.WeakMethod) else entry
            if observer is None:
                dead = True
                continue
            observer(self, event)
        if dead:
            self._observers = [e for e in self._observers if not (isinstance(e, weakref.WeakMethod) and e() is None)]

    # -- observers -------------------------------------------------------------------------
    def observe(self, observer: Callable[[Self, Event], None], *, weak: bool = False) -> Callable[[], None]:
        """Call `observer(session, event)` after every event; returns a function that stops it.

        `weak=True` (a bound method) does not keep its object alive: a widget that is dropped and
        collected stops observing by itself, so a long session does not slow down with old widgets.
        """
        entry: Any = weakref.WeakMethod(observer) if weak else observer
        self._observers.append(entry)

        def stop() -> None:
            if entry in self._observers:
                self._observers.remove(entry)

        return stop

    def public_table(self) -> Any:
        """The one projection of what the players may know (gamekernel/remote/projection.py), made on
        first use: the remote players' pages and every player-visible view of the notebook read it."""
        table = self._public_table
        if table is None:
            table = self._public_table = self._make_public_table()
        return table.current()

    def _make_public_table(self) -> Any:
        """The players' table of this session: the public Session makes it (gamekernel/table_session.py),
        as the projection sits above the core (a core imports nothing above it)."""
        raise UsageError("the players' table needs the public Session (gamekernel.Session)")

    def public_state(self) -> TableState:
        """The state the players' views are drawn from: the GM's own while no secret event changed
        anything (or this session is already a projection), else the public table's."""
        if self.projected or not self.ever_secret():
            return self.state
        table = self.public_table()
        return table.live_state() if table.hidden else self.state

    def active_secrets(self, group: str | None = None) -> Sequence[Event]:
        """The secret events still in effect, in log order; of one rule set's kinds with `group`
        ("combat", "gw"). A public step asks on every call (is it about to show what a secret
        changed?), so each event is read once (gamekernel/secret_index.py)."""
        return self._secrets.of(self.active, group)

    def ever_secret(self) -> bool:
        """Whether the log holds a secret event (read once per new event): until one, the players'
        table is the GM's and no projection is kept."""
        log, (seen, length, found) = self.log, self._secret_seen
        if seen != id(log) or length > len(log):
            length, found = 0, False
        elif found or length == len(log):  # every card step asks twice: the second answer is known
            return found
        found = log[-1].secret if length == len(log) - 1 else any(e.secret for e in log[length:])
        self._secret_seen = (id(log), len(log), found)
        return found

    @property
    def observer_count(self) -> int:
        """How many observers are registered and alive (a leak check)."""
        return sum(1 for e in self._observers if not (isinstance(e, weakref.WeakMethod) and e() is None))

    # -- the log file ----------------------------------------------------------------------
    def attach_log(self, path: str | os.PathLike[str]) -> list[str]:
        """Append every event to `path` from now on; a non-empty file is resumed instead.

        Resuming replays the file (skipping and reporting a torn last line); returns the warnings.
        """
        path = Path(path)
        report = LogStore.load(path)
        if report.events and len(self.log) > 1:
            raise UsageError(
                f"{path.name} already holds {len(report.events)} events and this session has its own; "
                "choose a new log file or start a fresh session to resume it"
            )
        if self._store is not None:
            self._store.close()
        self._store = LogStore(path)
        if report.events:
            self._restore(report.events)
        else:
            self._store.append_many(self.log)
        self.load_warnings = report.warnings
        return report.warnings

    def _restore(self, events: Iterable[Event]) -> None:
        self.log = list(events)
        self.active, self._redo_stack = active_events(self.log)
        self.state = replay(self.active)

    def _check_writable(self) -> None:
        """A campaign opened read-only (its folder cannot be written) can be looked at, not played:
        an event recorded only in memory would be lost at close, so it is refused before anything changes."""
        campaign = self.campaign
        if campaign is not None and campaign.read_only:
            raise StorageError(t("campaign.err.read_only", name=repr(campaign.root.name)))

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def feature(self, kind: type[H]) -> H:
        """The handle of a feature across rule sets (`session.seats`, `session.teaching`): made on first
        use, one per session, like a rule set's."""
        return self.rules.feature(kind)

    if not TYPE_CHECKING:  # for a type checker a misspelt name stays an error; `rules[...]` is typed
        def __getattr__(self, name: str) -> RuleSetHandle:
            """A plug-in rule set's handle as an attribute (`session.coin`), like the built-in ones."""
            if name.startswith("_") or name == "rules":
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            try:
                return self.rules[name]
            except KeyError:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}") from None


class Rules(Mapping[str, RuleSetHandle]):
    """`session.rules`: every rule set's handle by name (`rules["gurps"]`, a plug-in's `rules["coin"]`),
    each made on first use and kept for the session."""

    __slots__ = ("_table", "_made")

    def __init__(self, table: SessionCore) -> None:
        self._table = table
        self._made: dict[str, RuleSetHandle] = {}
        handle_classes()  # the rule sets' parts and event kinds are registered before anything replays

    def __getitem__(self, name: str) -> RuleSetHandle:
        made = self._made.get(name)
        if made is None:
            made = self._made[name] = handle_classes()[name](self._table)
        return made

    def feature(self, kind: type[H]) -> H:
        made = self._made.get(kind.name)
        if made is None:
            made = self._made[kind.name] = kind(self._table)
        assert isinstance(made, kind)
        return made

    def __iter__(self) -> Iterator[str]:
        return iter(handle_classes())

    def __len__(self) -> int:
        return len(handle_classes())


def secret_seed(seed: int, entropy: str) -> int:
    """The seed of the secret stream: SHA-256 of the table's seed and the secret entropy (hex) the
    GM's log holds in its `secret.entropy` event, so the GM's log replays the secret dice exactly
    while the public seed alone predicts none of them."""
    digest = hashlib.sha256(f"gamekernel secret stream\0{seed}\0{entropy}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


class SecretKey(NamedTuple):
    """What keys the secret stream now: `entropy` (hex; None before the first secret roll since the
    seed, "" for an unseeded table) and whether its `secret.entropy` event is in the log yet."""

    entropy: str | None
    logged: bool


def _fixed_entropy() -> str:
    """GAMEKERNEL_SECRET_ENTROPY (32 hex digits), for a test or a demo notebook whose saved outputs
    must replay (example_notebooks/conftest.py): the secret stream then follows from it and the seed.
    Never for a real table, where the players could read it; "" when unset."""
    text = os.environ.get("GAMEKERNEL_SECRET_ENTROPY", "").strip().lower()
    if text and not re.fullmatch(f"[0-9a-f]{{{2 * ENTROPY_BYTES}}}", text):
        raise UsageError(t("core.err.secret_entropy", count=2 * ENTROPY_BYTES, text=repr(text[:40])))
    return text


def _parse_seed(text: str, where: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise UsageError(t("core.err.whole_number", where=where, text=repr(text))) from None


def _begin(session: SessionCore) -> tuple[int, tuple[Mark, Mark, SecretKey]]:
    """A transaction's start: the log's length and where both dice streams and the secret key stand."""
    return len(session.log), (session.rng.begin(), session.secret_rng.begin(), session._secret_key)


def _finish(session: SessionCore, kind: type[BaseException] | None, count: int,
            marks: tuple[Mark, Mark, SecretKey]) -> None:
    """A transaction's end: a command refused before it recorded anything gets its dice (and a key it
    drew) put back; both streams' command ends either way."""
    public, secret, key = marks
    try:
        if kind is not None and issubclass(kind, GameKernelError) and len(session.log) == count:
            session.rng.rollback(public)
            session.secret_rng.rollback(secret)
            session._secret_key = key  # a key drawn by the refused command goes with its dice
    finally:
        session.rng.end(public)
        session.secret_rng.end(secret)


class Command:
    """`with session.command(user):` (see `SessionCore.command`): the lock, the transaction and the
    acting user, entered in that order and left in the reverse; a plain class, as every caller enters one."""

    __slots__ = ("_session", "_user", "_previous", "_acting", "_count", "_marks")

    def __init__(self, session: SessionCore, user: str | None = None) -> None:
        self._session = session
        self._user = user

    def __enter__(self) -> None:
        session = self._session
        session._lock.acquire()
        try:  # an interrupt right after the lock is taken must not keep it
            self._previous, session._holder = session._holder, get_ident()
            self._count, self._marks = _begin(session)
            self._acting = session.acting_for
            if self._user is not None:
                session.acting_for = self._user
        except BaseException:
            session._holder = self._previous
            session._lock.release()
            raise

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: object) -> Literal[False]:
        session = self._session
        try:
            session.acting_for = self._acting
            _finish(session, kind, self._count, self._marks)
        finally:
            try:
                session._holder = self._previous
            finally:
                session._lock.release()
        return False
