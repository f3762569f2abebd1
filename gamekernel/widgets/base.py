"""The base of every gamekernel widget: session state in, user intent out.

A widget mirrors session state into synced traits (`refresh`) whenever the session records an
event, and sends clicks back as session calls; it holds no rule logic and no state the session
lacks. `hold_sync` batches a refresh into one message carrying only the traits that changed.
Its text/plain is stable and its mimebundle carries a static text/html snapshot, so a saved
notebook still shows the sheet, hand or tracker without a kernel or widget state.
"""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import Any

import anywidget
import traitlets

_PACKAGE = Path(__file__).resolve().parent.parent
_SOURCE_ASSETS = _PACKAGE.parent / "widgets"
_BUILT_ASSETS = _PACKAGE / "static"


def asset(name: str) -> Path:
    """Path of a front-end file: the source tree's `widgets/` in a checkout, else the packaged copy."""
    source = _SOURCE_ASSETS / name
    return source if source.exists() else _BUILT_ASSETS / name


class SessionWidget(anywidget.AnyWidget):
    """Subclasses set `_esm`/`_css`, define traits with `.tag(sync=True)`, and implement
    `refresh()`, `snapshot_html()` and `__repr__`."""

    error = traitlets.Unicode("").tag(sync=True)

    def __init__(self, session, **kwargs: Any):
        super().__init__(**kwargs)
        self._session = session
        # weak: a dropped widget stops observing; replaced/excess ones are closed (_retire_older)
        self._stop_observing = session.observe(self._on_event, weak=True)
        self.on_msg(self._on_custom_message)
        self._refresh_synced()
        _retire_older(self)

    def replaces(self, other: SessionWidget) -> bool:
        """A new widget of the same kind and target (`%sheet Aiko` run again) replaces the old one."""
        return _kind(other) == _kind(self) and _target(other) == _target(self)

    @property
    def session(self):
        return self._session

    def _on_event(self, session, event) -> None:
        from gamekernel.errors import GameKernelError

        try:
            self._refresh_synced()
        except GameKernelError as exc:  # e.g. its character was undone: the command itself succeeded
            self.error = str(exc)

    def _refresh_synced(self) -> None:
        with self.hold_sync():
            self.refresh()

    def refresh(self) -> None:
        """Copy the session's state into the synced traits."""
        raise NotImplementedError

    def snapshot_html(self) -> str:
        """A static, escaped, deterministic picture of the widget for kernel-less viewers."""
        raise NotImplementedError

    def handle_action(self, action: str, payload: dict[str, Any]) -> None:
        """Act on a front-end message `{"action": ..., ...}` by calling the session."""
        raise NotImplementedError

    def _on_custom_message(self, widget, content, buffers) -> None:
        from gamekernel.errors import GameKernelError

        if not isinstance(content, dict) or "action" not in content:
            return
        try:
            self.handle_action(str(content["action"]), content)
            self.error = ""
        except GameKernelError as exc:
            self.error = str(exc)

    def _repr_mimebundle_(self, **kwargs: Any):
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        data = dict(data or {})
        data["text/plain"] = repr(self)
        data["text/html"] = self.snapshot_html()
        return data, metadata

    def close(self) -> None:
        stop = getattr(self, "_stop_observing", None)
        if stop is not None:
            stop()
            self._stop_observing = None
        super().close()


_LIVE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # session -> weakrefs of its open widgets
MAX_LIVE_WIDGETS = 32  # per session: beyond this the oldest is closed, so every event stays cheap


def _kind(widget: SessionWidget) -> str:
    """The widget's class by name (anywidget derives a new class of the same name per instance)."""
    return f"{type(widget).__module__}.{type(widget).__qualname__}"


def _target(widget: SessionWidget) -> Any:
    return getattr(widget, "_name", None) or getattr(widget, "_actor_name", None)


def _retire_older(widget: SessionWidget) -> None:
    """Close the widgets `widget` replaces, and the oldest beyond MAX_LIVE_WIDGETS (they stop observing)."""
    refs = _LIVE.setdefault(widget.session, [])
    alive = []
    for ref in refs:
        old = ref()
        if old is None or old._stop_observing is None:  # collected, or closed already
            continue
        if widget.replaces(old):
            old.close()
        else:
            alive.append(ref)
    alive.append(weakref.ref(widget))
    while len(alive) > MAX_LIVE_WIDGETS:
        old = alive.pop(0)()
        if old is not None:
            old.close()
    _LIVE[widget.session] = alive
