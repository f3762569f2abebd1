"""The MtG library widget: count, known top cards, the last revealed pair, exile, boost, colours.

It mirrors `session.library_view(actor)` into synced traits and sends the buttons (check, boost,
new scene) back as session calls, so every click is a logged, undoable event.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import traitlets

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.widgets.base import SessionWidget, script, styles
from gamekernel.widgets.options import options_line

LABEL_KEYS = ("mtg.view.known", "mtg.view.exile", "mtg.view.none", "mtg.view.boost_used",
              "mtg.view.boost_free", "mtg.check.success", "mtg.check.failure", "mtg.view.colours",
              "mtg.view.button_check", "mtg.view.button_boost", "mtg.view.button_scene")


class LibraryWidget(SessionWidget):
    """`%library show @Mira`: a live view of one character's library."""

    _esm = script("library.js")
    _css = styles("library.css")

    actor = traitlets.Unicode("").tag(sync=True)
    count = traitlets.Int(0).tag(sync=True)
    scene = traitlets.Int(1).tag(sync=True)
    boost_used = traitlets.Bool(False).tag(sync=True)
    known_top = traitlets.List(traitlets.Unicode()).tag(sync=True)
    exile = traitlets.List(traitlets.Unicode()).tag(sync=True)
    last_check = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    last_boost = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    distribution = traitlets.Dict().tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)

    def __init__(self, session, actor: str, **kwargs: Any):
        self._actor_name = actor
        super().__init__(session, **kwargs)

    def view(self):
        return self.session.library_view(self._actor_name)

    def refresh(self) -> None:
        from gamekernel.render.mtg import colour_name, kind_name
        from gamekernel.systems.mtg.kinds import KINDS

        view = self.view()
        self.actor = view.actor
        self.count = view.count
        self.scene = view.scene
        self.boost_used = view.boost_used
        self.known_top = [view.shown_name(name) for name in view.known_top]
        self.exile = [view.shown_name(name) for name in view.exile]
        last = dict(view.last_check) if view.last_check else None
        if last is not None:
            last["kind_label"] = kind_name(last["kind"])
            last["colour_label"] = colour_name(last["chosen_colour"])
            last["first"], last["second"] = view.shown_name(last["first"]), view.shown_name(last["second"])
        self.last_check = last
        self.last_boost = dict(view.last_boost) if view.last_boost else None
        self.distribution = dict(view.distribution)
        labels = {key.rsplit(".", 1)[-1]: t(key, cards="") for key in LABEL_KEYS}
        labels.update({f"colour_{c}": colour_name(c) for c in KINDS})
        labels["kinds"] = list(KINDS)  # the check kinds in pentagon order, for the front end's menus
        labels["title"] = t("mtg.view.title", actor=view.actor)
        labels["scene"] = t("mtg.view.scene", scene=view.scene)
        labels["count"] = t("mtg.view.count", count=view.count)
        labels["options"] = t("mtg.library.options", options=options_line(asdict(self.session.mtg_options)))
        self.labels = labels

    def snapshot_html(self) -> str:
        from gamekernel.render.mtg import library_html

        return library_html(self.view())

    def __repr__(self) -> str:
        from gamekernel.render.mtg import library_text

        return library_text(self.view())

    def handle_action(self, action: str, payload: dict[str, Any]):
        session = self.session
        if action == "check":
            difficulty = payload.get("difficulty")
            try:
                difficulty = int(difficulty)
            except (TypeError, ValueError):
                raise UsageError(t("mtg.error.difficulty", difficulty=difficulty)) from None
            return session.mtg_check(str(payload.get("kind", "")), difficulty, actor=self._actor_name)
        elif action == "boost":
            return session.mtg_boost(self._actor_name)
        elif action == "scene":
            return session.mtg_scene()
        else:
            raise UsageError(t("mtg.error.widget_action", action=action))
