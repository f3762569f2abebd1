"""The odds explorer widget (a teaching feature): `%explore NAME`, any rule set's explorer (`RuleSet.explorers`:
GURPS's check and contest, MtG's library, Gamma World's alpha, a plug-in's). The explorer keeps the
control values the learner set (a modifier, two skills, a library composition, an origin bonus) and
gives the exact figures as tables (teaching/render_explore.py draws them, for the static snapshot;
widgets/explore.js for the front end). Moving a control sends an intent; nothing here computes a chance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.widgets.base import SessionWidget, script, styles

if TYPE_CHECKING:  # the Session it draws and calls: for the type checker only (pyproject.toml)
    from gamekernel.events import Event
    from gamekernel.rulesets import Core, Explorer

def with_hint(spec: dict[str, Any]) -> dict[str, Any]:
    """A control with its tooltip and screen-reader words (`hint`) in the current language: the front end
    writes no word of its own."""
    if "hint" in spec:
        return spec
    if spec["kind"] == "toggle":
        return {**spec, "hint": t("explore.hint.toggle", label=spec["label"])}
    return {**spec, "hint": t("explore.hint.range", label=spec["label"], low=spec["min"], high=spec["max"])}


class ExploreWidget(SessionWidget):
    """One explorer: controls in, exact tables out; the static snapshot shows the same tables."""

    _esm = script("teaching/explore.js")
    _css = styles("teaching/explore.css")

    mode = traitlets.Unicode("").tag(sync=True)
    controls: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    tables: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    summary = traitlets.Unicode("").tag(sync=True)

    def __init__(self, session: Core, explorer: Explorer, **kwargs: Any):
        self._explorer = explorer
        super().__init__(session, **kwargs)

    @property
    def explorer(self) -> Explorer:
        return self._explorer

    def _on_event(self, session: Core, event: Event) -> None:
        """The figures depend on the controls only; nothing the session records changes them."""

    def refresh(self) -> None:
        self.mode = self._explorer.mode
        self.controls = [with_hint(spec) for spec in self._explorer.controls()]
        self.tables = self._explorer.tables()
        self.summary = self._explorer.summary()

    def set_control(self, name: str, value: Any) -> None:
        """Move a control from Python as the front end does: its line goes into the cell's record."""
        self.record_action(self._set(name, value))

    def handle_action(self, action: str, payload: dict[str, Any]) -> object:
        if action != "set":
            raise UsageError(t("explore.err.action", action=action))
        return self._set(str(payload.get("name", "")), payload.get("value"))

    def _set(self, name: str, value: Any) -> object:
        """Move a control; returns its line for the cell's saved record (the changes are not session
        events, so the record is what a saved notebook keeps of them)."""
        from gamekernel.results import EventLines

        self._explorer.set(name, value)
        self._refresh_synced()
        return EventLines((self.change_line(name),))

    def change_line(self, name: str) -> str:
        """"modifier → -3: Lockpicking 13 -3 = effective 10 ...": the control as it now is, and the summary."""
        spec = next(c for c in self.controls if c["name"] == name)
        value = spec["value"]
        shown = t("explore.on") if value is True else t("explore.off") if value is False else value
        return t("explore.record.set", label=spec["label"], value=shown, summary=self.summary)

    def snapshot_html(self) -> str:
        from gamekernel.teaching.render_explore import explorer_html

        return explorer_html(self.summary, self.tables)

    def __repr__(self) -> str:
        from gamekernel.teaching.render_explore import explorer_text

        return explorer_text(self.summary, self.tables)
