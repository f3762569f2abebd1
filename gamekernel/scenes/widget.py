"""The prepared scene (`%%scene Crypt`): the GM's notes as text, each `[mark]` a button that rolls for the
character picked (or as the mark says), recorded exactly as the magic would be (`%check Per @Aiko`,
`%roll 3d6`: gamekernel/scenes/run.py). Its saved picture is the notes with each button's last result
beside it, compactly. No rules here: a click is the magic's line through the magic's path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import traitlets

from gamekernel.errors import UsageError
from gamekernel.i18n import get_language, t
from gamekernel.rulesets import rule_sets
from gamekernel.scenes.notes import Mark, Notes
from gamekernel.widgets.base import SessionWidget, script, styles

if TYPE_CHECKING:  # the table's core and its own operations (`roll`), as the magics reach them
    from gamekernel.actions.core import CoreActions
    from gamekernel.rulesets import Core


class SceneWidget(SessionWidget):
    """`SceneWidget(session, notes)` - also what a `%%scene TITLE` cell shows."""

    _esm = script("scenes/scene.js")
    _css = styles("scenes/scene.css")

    title = traitlets.Unicode("").tag(sync=True)
    lines: traitlets.List[list] = traitlets.List([]).tag(sync=True)  # per line: ["text", str] / ["mark", n, str]
    characters: traitlets.List[str] = traitlets.List([]).tag(sync=True)  # whom a button may roll for
    results = traitlets.Dict({}).tag(sync=True)  # mark number (as text) -> its last result, one line
    labels = traitlets.Dict({}).tag(sync=True)

    def __init__(self, session: Core, notes: Notes, **kwargs: Any):
        self._notes = notes
        self._marks = {mark.index: mark for mark in notes.marks}
        self._language = ""
        self._results: dict[int, str] = {}
        super().__init__(session, **kwargs)

    def refresh(self) -> None:
        names = sorted({name for r in rule_sets() if r.characters is not None
                        for name in r.characters(self.session.state.parts)})
        if names != self.characters:
            self.characters = names
        if self._language != get_language():
            self._language = get_language()
            self.labels = {"for": t("scene.for"), "active": t("scene.active"), "roll_hint": t("scene.roll_hint"),
                           "marks": t("scene.marks", count=len(self._marks))}
            self.title = self._notes.title
            self.lines = [[["mark", p.index, p.text] if isinstance(p, Mark) else ["text", p] for p in line]
                          for line in self._notes.lines]

    def handle_action(self, action: str, payload: dict[str, Any]) -> object:
        if action != "roll":
            raise UsageError(t("scene.err.action", action=str(action)[:40]))
        index = payload.get("mark")
        mark = self._marks.get(index) if isinstance(index, int) and not isinstance(index, bool) else None
        if mark is None:
            raise UsageError(t("scene.err.no_mark", mark=str(index)[:20]))
        actor = str(payload.get("actor") or "")
        if actor and actor not in self.characters:
            raise UsageError(t("scene.err.actor", name=actor[:60]))
        from gamekernel.scenes.run import run_mark

        start = len(self.session.log)
        result = run_mark(cast("CoreActions", self.session), mark, actor)
        events = list(self.session.log[start:])
        if any(e.secret for e in events):  # the GM's roll: the picture and the record say one was made, not what
            from gamekernel.display.results import SecretNotice

            self._results[mark.index] = t("core.secret_result", kind=mark.kind)
            self.results = {str(k): v for k, v in self._results.items()}
            return SecretNotice(mark.kind)  # as the magic shows it (magic_base.guarded)
        self._results[mark.index] = "; ".join(e.line() for e in events)
        self.results = {str(k): v for k, v in self._results.items()}
        return result

    def snapshot_html(self) -> str:
        from gamekernel.scenes.render import scene_html

        return scene_html(self._notes, self._results)

    def __repr__(self) -> str:
        return f"<SceneWidget {self._notes.title or '—'}: {len(self._marks)} marks>"
