"""Odds explorers (a teaching feature): `%explore check|contest|library|alpha`. Each explorer keeps the control
values the learner set (a modifier, two skills, a library composition, an origin bonus), asks
gamekernel.teaching.explore for the exact figures and shows them as tables (render/explore.py draws
them, for the front end and for the static snapshot alike). Moving a control sends an intent;
nothing here computes a chance.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import traitlets

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.widgets.base import SessionWidget, script, styles

if TYPE_CHECKING:  # the Session it draws and calls: for the type checker only (pyproject.toml)
    from gamekernel.rulesets import Core

# usual situations for a success roll: (i18n key, modifier); seed examples and GURPS-CMB-33
SITUATIONS = (("explore.situation.dark", -5), ("explore.situation.primitive", 10),
              ("explore.situation.footing", -2), ("explore.situation.distraction", -3))


class Explorer:
    """The state of one explorer: its controls and how to turn them into tables."""

    mode = ""

    def controls(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def set(self, name: str, value: Any) -> None:
        raise NotImplementedError

    def tables(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def summary(self) -> str:
        raise NotImplementedError


def _int(value: Any, low: int, high: int, name: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise UsageError(t("explore.err.number", name=name, value=value)) from None
    if not low <= number <= high:
        raise UsageError(t("explore.err.range", name=name, value=number, low=low, high=high))
    return number


class CheckExplorer(Explorer):
    mode = "check"

    def __init__(self, label: str, base: int):
        self.label, self.base, self.modifier = label, base, 0
        self.toggles = {key: False for key, _ in SITUATIONS}

    @property
    def effective(self) -> int:
        return self.base + self.modifier + sum(v for k, v in SITUATIONS if self.toggles[k])

    def controls(self):
        items = [{"name": "modifier", "kind": "range", "min": -10, "max": 10, "value": self.modifier,
                  "label": t("explore.modifier")}]
        items += [{"name": key, "kind": "toggle", "value": self.toggles[key], "label": t(key, value=value)}
                  for key, value in SITUATIONS]
        return items

    def set(self, name, value):
        if name == "modifier":
            self.modifier = _int(value, -10, 10, name)
        elif name in self.toggles:
            self.toggles[name] = bool(value)
        else:
            raise UsageError(t("explore.err.control", name=name))

    def tables(self):
        from gamekernel.teaching.explore import check_curve
        from gamekernel.teaching.render_explore import check_tables

        return check_tables(check_curve(), self.effective)

    def summary(self):
        from gamekernel.gurps.rules.odds import check_odds
        from gamekernel.teaching.render_explore import check_summary

        return check_summary(self.label, self.base, self.effective, check_odds(self.effective))


class ContestExplorer(Explorer):
    mode = "contest"

    def __init__(self, a: int, b: int):
        self.a, self.b = a, b

    def controls(self):
        return [{"name": "a", "kind": "range", "min": 3, "max": 18, "value": self.a, "label": t("explore.skill_a")},
                {"name": "b", "kind": "range", "min": 3, "max": 18, "value": self.b, "label": t("explore.skill_b")}]

    def set(self, name, value):
        if name not in ("a", "b"):
            raise UsageError(t("explore.err.control", name=name))
        setattr(self, name, _int(value, 3, 18, name))

    def tables(self):
        from gamekernel.teaching.explore import contest_grid
        from gamekernel.teaching.render_explore import contest_tables

        return contest_tables(contest_grid(self.a, self.b), self.a, self.b)

    def summary(self):
        from gamekernel.gurps.rules.odds import quick_contest_odds
        from gamekernel.teaching.explore import expected_regular_rounds
        from gamekernel.teaching.render_explore import contest_summary

        return contest_summary(quick_contest_odds(self.a, self.b), expected_regular_rounds(self.a, self.b))


class LibraryExplorer(Explorer):
    """A library's odds, given what the table knows of its order (MTG-CHK-04, -12); the counts edit only
    the cards whose place nobody knows (`LibraryKnowledge.with_counts`)."""

    mode = "library"

    def __init__(self, actor: str, cards: Any):
        from gamekernel.mtg.rules.knowledge import LibraryKnowledge

        self.actor = actor
        self.base = cards if isinstance(cards, LibraryKnowledge) else LibraryKnowledge.of(cards)
        self.facts = {c.name: c for c in self.base.cards}
        self.counts = Counter(c.name for c in self.base.cards)
        self.fixed = self.base.fixed_copies()

    def knowledge(self) -> Any:
        return self.base.with_counts(self.counts, self.facts)

    def library(self) -> list:
        return list(self.knowledge().cards)

    def controls(self):
        """One count per card, named as printed in the current language (its Japanese name in ja); no fewer
        than the copies the table knows the place of."""
        items = []
        for name in sorted(self.facts):
            shown = self.facts[name].shown_name
            low = self.fixed[name]
            items.append({"name": name, "kind": "count", "min": low, "max": 60, "value": self.counts[name],
                          "label": shown, "hint": t("explore.hint.card", card=shown, low=low, high=60)})
        return items

    def set(self, name, value):
        if name not in self.facts:
            raise UsageError(t("explore.err.card", name=name))
        self.counts[name] = _int(value, self.fixed[name], 60, name)

    def tables(self):
        from gamekernel.teaching.explore import library_grid
        from gamekernel.teaching.render_explore import library_tables

        known = self.knowledge()
        return library_tables(library_grid(known.cards, known=known.known, unordered=known.unordered))

    def summary(self):
        from gamekernel.teaching.render_explore import library_summary

        known = self.knowledge()
        return library_summary(self.actor, known.size, known.known_at_bottom, known.exiled_known)


class AlphaExplorer(Explorer):
    mode = "alpha"

    def __init__(self, actor: str, bonus: int, rolls: int = 10):
        self.actor, self.bonus, self.rolls = actor, bonus, rolls

    def controls(self):
        return [{"name": "rolls", "kind": "range", "min": 1, "max": 30, "value": self.rolls,
                 "label": t("explore.rolls")},
                {"name": "bonus", "kind": "range", "min": -5, "max": 10, "value": self.bonus,
                 "label": t("explore.bonus")}]

    def set(self, name, value):
        if name == "rolls":
            self.rolls = _int(value, 1, 30, name)
        elif name == "bonus":
            self.bonus = _int(value, -5, 10, name)
        else:
            raise UsageError(t("explore.err.control", name=name))

    def tables(self):
        from gamekernel.teaching.explore import alpha_figures
        from gamekernel.teaching.render_explore import alpha_tables

        return alpha_tables(alpha_figures(self.rolls, self.bonus), self.rolls, self.bonus)

    def summary(self):
        from gamekernel.gammaworld.rules.odds import p_flux, p_overcharge
        from gamekernel.teaching.render_explore import alpha_summary

        return alpha_summary(self.actor, self.rolls, p_flux(self.rolls), self.bonus, p_overcharge(self.bonus))


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

    def _on_event(self, session, event) -> None:
        """The figures depend on the controls only; nothing the session records changes them."""

    def refresh(self) -> None:
        self.mode = self._explorer.mode
        self.controls = [with_hint(spec) for spec in self._explorer.controls()]
        self.tables = self._explorer.tables()
        self.summary = self._explorer.summary()

    def set_control(self, name: str, value: Any) -> None:
        """Move a control from Python as the front end does: its line goes into the cell's record."""
        self.record_action(self._set(name, value))

    def handle_action(self, action: str, payload: dict[str, Any]):
        if action != "set":
            raise UsageError(t("explore.err.action", action=action))
        return self._set(str(payload.get("name", "")), payload.get("value"))

    def _set(self, name: str, value: Any):
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
