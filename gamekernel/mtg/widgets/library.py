"""The MtG library widget: count, known top cards, the last revealed pair, exile, boost, colours.

It mirrors `session.mtg.library_view(actor)` into synced traits and sends the buttons (check, boost,
new scene) back as session calls, so every click is a logged, undoable event. Its figures carry their
labels (target = first card + difficulty, achievement = second card + colour modifier, cards left,
known top); Boost is disabled with the rules' reason (`session.mtg.boost_refusal`); the difficulty is
checked by the same rule as `%check` (mtg/rules/check.py `check_difficulty`).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any, cast

import traitlets

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.mtg.actions import Mtg
from gamekernel.mtg.rules.kinds import MtgOptions
from gamekernel.widgets.base import SessionWidget, script, styles
from gamekernel.widgets.options import house_rules

if TYPE_CHECKING:  # what `view` returns
    from gamekernel.mtg.results import LibraryView

if TYPE_CHECKING:  # the table's core it draws and calls (below the rule sets)
    from gamekernel.rulesets import Core

LABEL_KEYS = ("mtg.view.none", "mtg.view.boost_used", "mtg.view.boost_free", "mtg.check.success",
              "mtg.check.failure", "mtg.view.colours", "mtg.view.button_check", "mtg.view.button_boost",
              "mtg.view.button_scene", "mtg.widget.target", "mtg.widget.achievement", "mtg.widget.cards_left",
              "mtg.widget.known_top", "mtg.widget.exile", "mtg.widget.kind", "mtg.widget.difficulty",
              "mtg.widget.difficulty_hint", "mtg.widget.known_bottom_label",
              "mtg.widget.known_bottom_note")


def _dict_or_none() -> traitlets.TraitType[dict[str, Any] | None, dict[str, Any] | None]:
    """A synced dict that may be None (no check yet): traitlets types Dict without its allow_none."""
    trait = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    return cast("traitlets.TraitType[dict[str, Any] | None, dict[str, Any] | None]", trait)


class LibraryWidget(SessionWidget):
    """`%library show @Mira`: a live view of one character's library."""

    _esm = script("mtg/library.js")
    _css = styles("mtg/library.css")
    watches = frozenset({"mtg", "seats"})  # the library, and what the players may see of it

    actor = traitlets.Unicode("").tag(sync=True)
    count = traitlets.Int(0).tag(sync=True)
    scene = traitlets.Int(1).tag(sync=True)
    boost_used = traitlets.Bool(False).tag(sync=True)
    boost_refused = traitlets.Unicode("").tag(sync=True)  # why the rules refuse a boost now ("" = allowed)
    known_top = traitlets.List(traitlets.Unicode()).tag(sync=True)
    known_bottom = traitlets.Int(0).tag(sync=True)  # a count only (MTG-CHK-12: the order is not known)
    exile = traitlets.List(traitlets.Unicode()).tag(sync=True)
    last_check = _dict_or_none()
    last_boost = _dict_or_none()
    distribution = traitlets.Dict().tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)

    def __init__(self, session: Core, actor: str, **kwargs: Any):
        self._actor_name = actor
        super().__init__(session, **kwargs)

    def view(self) -> LibraryView:
        return Mtg.of(self.session).library_view(self._actor_name)

    def refresh(self) -> None:
        from gamekernel.mtg.render import colour_name, kind_name
        from gamekernel.mtg.rules.kinds import KINDS

        view = self.view()
        self.actor = view.actor
        self.count = view.count
        self.scene = view.scene
        self.boost_used = view.boost_used
        self.boost_refused = Mtg.of(self.session).boost_refusal(view.actor) or ""
        self.known_top = [view.shown_name(name) for name in view.known_top]
        self.known_bottom = view.known_bottom
        self.exile = [view.shown_name(name) for name in view.exile]
        last = dict(view.last_check) if view.last_check else None
        if last is not None:
            last["kind_label"] = kind_name(last["kind"])
            last["colour_label"] = colour_name(last["chosen_colour"])
            last["first"], last["second"] = view.shown_name(last["first"]), view.shown_name(last["second"])
            last["target_formula"] = t("mtg.widget.target_formula", card=last["first"],
                                       mv=last["target"] - last["difficulty"], difficulty=last["difficulty"])
            last["achievement_formula"] = t("mtg.widget.achievement_formula", card=last["second"],
                                            mv=last["achievement"] - last["modifier"],
                                            modifier=f"{last['modifier']:+d}", colour=last["colour_label"])
        self.last_check = last
        self.last_boost = dict(view.last_boost) if view.last_boost else None
        self.distribution = dict(view.distribution)
        labels: dict[str, str | list[str]] = {key.rsplit(".", 1)[-1]: t(key, cards="") for key in LABEL_KEYS}
        labels.update({f"colour_{c}": colour_name(c) for c in KINDS})
        labels["kinds"] = list(KINDS)  # the check kinds in pentagon order, for the front end's menus
        labels["title"] = t("mtg.view.title", actor=view.actor)
        labels["scene"] = t("mtg.view.scene", scene=view.scene)
        labels["count"] = t("mtg.view.count", count=view.count)
        if view.last_boost:
            labels["boosted"] = t("mtg.view.boosted", bonus=view.last_boost.get("bonus", 0),
                                  achievement=view.last_boost.get("achievement"))
        labels["options"], labels["options_detail"] = house_rules(asdict(Mtg.of(self.session).options),
                                                                  asdict(MtgOptions()), "mtg.option")
        self.labels = labels

    def snapshot_html(self) -> str:
        from gamekernel.mtg.render import library_html

        return library_html(self.view())

    def __repr__(self) -> str:
        from gamekernel.mtg.render import library_text

        return library_text(self.view())

    def handle_action(self, action: str, payload: dict[str, Any]) -> object:
        session = self.session
        if action == "check":
            given: Any = payload.get("difficulty")  # any JSON value from the front end, or absent
            try:
                difficulty = int(given)
            except (TypeError, ValueError):
                raise UsageError(t("mtg.err.difficulty", difficulty=given)) from None
            return Mtg.of(session).check(str(payload.get("kind", "")), difficulty, actor=self._actor_name)
        elif action == "boost":
            return Mtg.of(session).boost(self._actor_name)
        elif action == "scene":
            return Mtg.of(session).scene()
        else:
            raise UsageError(t("mtg.err.widget_action", action=action))
