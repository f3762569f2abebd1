"""The base of every gamekernel widget: session state in, user intent out.

A widget mirrors session state into synced traits (`refresh`) whenever the session records an
event, and sends clicks back as session calls; it holds no rule logic and no state the session
lacks. `hold_sync` batches a refresh into one message carrying only the traits that changed.
Its text/plain is stable. Displayed, it keeps a record below it: a static picture of the widget
(so a saved notebook still shows the sheet, hand or tracker without a kernel or widget state, and
only a drawn view hides it), then one line per action taken in it; each action adds its line and
updates the picture in place (display ids, gamekernel/widgets/record.py). Every open widget re-renders its
labels when the language changes (`refresh_live_widgets`).

A displayed widget is never closed by a later one: closing would blank its view, and its model
would be missing from the saved widget state ("model not found" in Voila or a reopened notebook).
A widget replaced by a newer one of the same kind and target, or beyond MAX_LIVE_WIDGETS, only
goes dormant: it stops following the session's events (so every event stays cheap), keeps its view
and still answers clicks; its next message wakes it (it refreshes and follows the session again).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import anywidget
import traitlets

from gamekernel.events import EVENT_KINDS, Event

if TYPE_CHECKING:  # the session's core as everything below the public Session reaches it
    from gamekernel.rulesets import Core

_PACKAGE = Path(__file__).resolve().parent.parent
_SOURCE_ASSETS = _PACKAGE.parent / "widgets"
_BUILT_ASSETS = _PACKAGE / "static"
_LIVE: weakref.WeakSet[SessionWidget] = weakref.WeakSet()


def asset(name: str) -> Path:
    """Path of a front-end file: the source tree's `widgets/` in a checkout, else the packaged copy."""
    source = _SOURCE_ASSETS / name
    return source if source.exists() else _BUILT_ASSETS / name


def styles(name: str, *helpers: str) -> str:
    """A widget's stylesheet after the shared ones: `widgets/theme.css` (the one palette of JupyterLab
    variables, the same as the static outputs', see display/html.py) and `widgets/common.css` (the
    frame, buttons, chips and errors every widget uses), so the widgets look alike in every theme; then
    the parts it shares with other widgets of its group (`helpers`)."""
    return "\n".join(asset(part).read_text(encoding="utf-8")
                     for part in ("theme.css", "common.css", *helpers, name))


def script(name: str, *helpers: str) -> str:
    """A widget's module after the shared helpers (`widgets/common.js`: element helpers, the shared
    button, and the memory that keeps focus and selections when a view is redrawn) and the parts it
    shares with other widgets of its group (`helpers`, e.g. the GURPS modifier field)."""
    return "\n".join(asset(part).read_text(encoding="utf-8") for part in ("common.js", *helpers, name))


class SessionWidget(anywidget.AnyWidget):
    """Subclasses set `_esm`/`_css`, define traits with `.tag(sync=True)`, and implement
    `refresh()`, `snapshot_html()` and `__repr__`."""

    error = traitlets.Unicode("").tag(sync=True)
    key = traitlets.Unicode("").tag(sync=True)  # this widget's id: what its redrawn views remember it by
    # the id of its saved picture (record.py): a drawn view hides that picture by it (widgets/common.js)
    picture = traitlets.Unicode("").tag(sync=True)

    def __init__(self, session: Core, **kwargs: Any):
        from gamekernel.widgets.record import ActionRecord

        super().__init__(**kwargs)
        self._session = session
        self._record = ActionRecord()
        self.key = self.model_id
        from gamekernel.widgets.record import picture_id

        self.picture = picture_id(session, type(self).__name__)
        self._stop_observing: Callable[[], None] | None = None
        self._follow()
        self.on_msg(self._on_custom_message)
        self._refresh_synced()
        _LIVE.add(self)

    def _follow(self) -> None:
        """Observe the session (weakly: a dropped widget stops by itself) and put to sleep the
        widgets this one replaces and the oldest beyond the cap (`_make_room`)."""
        self._stop_observing = self._session.observe(self._on_event, weak=True)
        _make_room(self)

    @property
    def dormant(self) -> bool:
        """Displayed and answering clicks, but not following the session's events."""
        return self._stop_observing is None and self.comm is not None

    def sleep(self) -> None:
        """Stop following the session's events; the view stays as it is and the comm stays open."""
        stop = self._stop_observing
        if stop is not None:
            stop()
            self._stop_observing = None

    def wake(self) -> None:
        """Follow the session again, after catching up with what happened while dormant."""
        if not self.dormant:
            return
        self._refresh_synced()
        self._follow()

    def replaces(self, other: SessionWidget) -> bool:
        """A new widget of the same kind and target (`%sheet Aiko` run again) replaces the old one."""
        return _kind(other) == _kind(self) and _target(other) == _target(self)

    @property
    def session(self) -> Core:
        return self._session

    # The state parts this widget draws from, when it draws from nothing else (not the log, not the
    # table's secrets): an event whose kind declares it changes none of them (a roll beside a sheet)
    # is passed over. None: every event refreshes it.
    watches: ClassVar[frozenset[str] | None] = None

    def _on_event(self, session: Core, event: Event) -> None:
        from gamekernel.errors import GameKernelError

        watched = self.watches
        if watched is not None:
            changes = EVENT_KINDS[event.kind].changes
            if changes is not None and watched.isdisjoint(changes):
                return
        try:
            self._refresh_synced()
        except GameKernelError as exc:  # e.g. its character was undone: the command itself succeeded
            from gamekernel.events import kind_word
            from gamekernel.i18n import t

            # says what took its subject away, so a stale count beside it is read as the past
            what = kind_word(event.kind)
            if event.kind in ("undo", "redo"):
                what += " " + ", ".join(str(seq) for seq in event.data.get("seqs", ()))
            self.error = t("core.widget.gone", seq=event.seq, what=what, reason=str(exc))

    def _refresh_synced(self) -> None:
        with self.hold_sync():
            self.refresh()

    def refresh(self) -> None:
        """Copy the session's state into the synced traits."""
        raise NotImplementedError

    def snapshot_html(self) -> str:
        """A static, escaped, deterministic picture of the widget for kernel-less viewers."""
        raise NotImplementedError

    def handle_action(self, action: str, payload: dict[str, Any]) -> Any:
        """Act on a front-end message `{"action": ..., ...}` by calling the session; return the
        result to record in the notebook (None: nothing happened worth a line)."""
        raise NotImplementedError

    def _on_custom_message(self, widget: object, content: object, buffers: object) -> None:
        if not isinstance(content, dict) or "action" not in content:
            return
        with self.session.command():  # a subshell's thread waits for a running command; a refused click draws no dice
            self._handle_message(content)

    def _catch_up(self) -> None:
        """Show the session as it is before acting on a click: a widget whose subject is gone (its
        character or library undone) raises its one-line GameKernelError here, so the click is
        refused with nothing done, instead of acting and then failing to draw the result."""
        if self.dormant:
            self.wake()
        else:
            self._refresh_synced()

    def _handle_message(self, content: dict[str, Any]) -> None:
        from gamekernel.display.results import WithNotices
        from gamekernel.errors import GameKernelError

        mark = len(self.session.reaction_events)
        start = len(self.session.log)
        try:
            self._catch_up()
            result = self.handle_action(str(content["action"]), content)
            self.error = ""
        except GameKernelError as exc:
            self._refuse(str(exc))  # refused: nothing happened, nothing is recorded
            return
        except (KeyError, TypeError, ValueError, OverflowError) as exc:  # a message with a missing or odd field
            self._refuse(bad_message(content.get("action"), exc))
            return
        if result is not None:
            notices = tuple(self.session.reaction_events[mark:])
            events = list(self.session.log[start:])
            # the action's line as the log words it; a secret event's words are the GM's: the result's
            # own (a notice) stands in for them
            line = "; ".join(e.line() for e in events) if events and not any(e.secret for e in events) else ""
            self.record_action(WithNotices(result, notices) if notices else result, line=line)

    def _refuse(self, text: str) -> None:
        """Show a refusal; a lone surrogate the page sent (JSON allows "\\ud800") is shown escaped,
        or the message itself could not be sent back as UTF-8."""
        from gamekernel.events import printable

        self.error = ""  # a refusal repeated word for word still reaches the front end as a change
        self.error = printable(text)

    # -- the saved record (gamekernel/widgets/record.py) -----------------------------------------
    @property
    def _display_ids(self) -> tuple[str, str]:
        return f"gamekernel-{self.model_id}", f"gamekernel-{self.model_id}-record"

    def _event_number(self) -> int:
        log = self.session.log
        return log[-1].seq if log else 0

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The view, a stable text/plain, and an empty text/html: a viewer that cannot draw the view
        shows nothing for it, the picture being in the record below (gamekernel/widgets/record.py)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        data = dict(data or {})
        data["text/plain"] = repr(self)
        data["text/html"] = ""
        return data, metadata

    def _record_bundle(self) -> dict[str, str]:
        return self._record.bundle(self.snapshot_html(), self._event_number(), picture=self.picture)

    def _ipython_display_(self) -> None:
        """The widget and its record (its picture and action lines), each under a display id for later updates."""
        from IPython.display import display

        data, metadata = self._repr_mimebundle_()
        widget_id, record_id = self._display_ids
        display(data, raw=True, metadata=metadata, display_id=widget_id)
        display(self._record_bundle(), raw=True, display_id=record_id)

    def record_action(self, result: Any, *, line: str = "") -> None:
        """Add the action's line (`line`, its events' log lines, else `result`'s text on one line) to this
        widget's record and update its saved picture in place."""
        from IPython import get_ipython
        from IPython.display import update_display

        self._record.add(result, line)
        if get_ipython() is None:  # plain Python: no notebook to update
            return
        data, metadata = self._repr_mimebundle_()
        widget_id, record_id = self._display_ids
        update_display(data, raw=True, metadata=metadata, display_id=widget_id)
        update_display(self._record_bundle(), raw=True, display_id=record_id)

    def close(self) -> None:
        """Only an explicit `widget.close()` closes a widget (its views go blank)."""
        _LIVE.discard(self)
        if hasattr(self, "_stop_observing"):
            self.sleep()
        super().close()


def refresh_live_widgets() -> None:
    """Re-render every open widget (e.g. its labels after a language switch); a widget whose subject
    is gone (a character removed) keeps its last picture rather than stopping the switch."""
    from gamekernel.errors import GameKernelError

    for widget in list(_LIVE):
        try:
            widget._refresh_synced()
        except GameKernelError:
            continue


_OPEN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # session -> weakrefs of its following widgets
MAX_LIVE_WIDGETS = 32  # per session: beyond this the oldest goes dormant, so every event stays cheap


def _kind(widget: SessionWidget) -> str:
    """The widget's class by name (anywidget derives a new class of the same name per instance)."""
    return f"{type(widget).__module__}.{type(widget).__qualname__}"


def _target(widget: SessionWidget) -> Any:
    return getattr(widget, "_name", None) or getattr(widget, "_actor_name", None)


def _make_room(widget: SessionWidget) -> None:
    """Put to sleep (never close) the widgets `widget` replaces and the oldest beyond MAX_LIVE_WIDGETS."""
    refs = _OPEN.setdefault(widget.session, [])
    following = []
    for ref in refs:
        old = ref()
        if old is None or old is widget or old._stop_observing is None:  # collected, itself, or asleep
            continue
        if widget.replaces(old):
            old.sleep()
        else:
            following.append(ref)
    following.append(weakref.ref(widget))
    while len(following) > MAX_LIVE_WIDGETS:
        old = following.pop(0)()
        if old is not None:
            old.sleep()
    _OPEN[widget.session] = following


def bad_message(action: Any, error: Exception) -> str:
    """One line for a front-end message the widget cannot use: a field missing (KeyError) or a value
    of the wrong kind (`inf`, NaN, a list for a name). Messages are data from the page, not calls."""
    from gamekernel.events import printable
    from gamekernel.i18n import t

    name = printable(str(action))
    if isinstance(error, KeyError):
        field = printable(str(error.args[0] if error.args else ""))
        return t("core.widget.err.missing_field", action=name, field=field)
    return t("core.widget.err.bad_value", action=name, error=printable(str(error)))
