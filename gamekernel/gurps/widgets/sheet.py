"""The GURPS character sheet widget: attributes editable with live recomputation, traits and skills
with costs, weapons (level, damage, reach, Parry), the point total against the budget, click-to-roll.

An edit (DX 12 -> 13, or current HP 12 -> 7) is a session call (`char_set`, logged and undoable,
validated as `%char set` is); an edit that changes nothing records nothing. The session's event
refreshes the widget, so Basic Speed, Dodge, Move, the conditions and the point total change at once;
the front end patches the values in place, so the edited box keeps its focus. A secret roll never
shows as the last roll. Clicking a
skill or attribute sends its key (`{"action": "roll", "skill": full name}` or `"attribute": "DX"`),
rolled by `session.gurps.check_named` without parsing (logged, shown as the widget's last roll).
The modifier field (`modifiers.ModifierField`: typed `-2 dark` or picked from the rules' named
modifiers) waits for the next such roll, is named in it and clears once it is made.
The widget computes nothing itself: every number comes from the Character.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets

from gamekernel.errors import UsageError
from gamekernel.gurps.actions import Gurps
from gamekernel.gurps.widgets.modifiers import ACTIONS as MODIFIER_ACTIONS
from gamekernel.gurps.widgets.modifiers import ModifierField
from gamekernel.i18n import get_language, t
from gamekernel.widgets.base import SessionWidget, script, styles

if TYPE_CHECKING:  # what `view` returns
    from gamekernel.gurps.rules.characters import Character

if TYPE_CHECKING:  # the table's core it draws and calls (below the rule sets)
    from gamekernel.rulesets import Core

Row = dict[str, Any]  # one synced row: plain JSON for the front end

EDITABLE_ATTRIBUTES = ("st", "dx", "iq", "ht")
POOLS = ("hp", "fp")  # current HP/FP, edited as the points lost


class SheetWidget(SessionWidget):
    """`SheetWidget(session, name="Aiko")` - also what `%sheet Aiko` shows."""

    _esm = script("gurps/sheet.js", "gurps/modifiers.js")
    _css = styles("gurps/sheet.css", "gurps/modifiers.css")
    watches = frozenset({"gurps"})  # the character and its last check

    character = traitlets.Unicode("").tag(sync=True)
    attributes: traitlets.List[Row] = traitlets.List([]).tag(sync=True)  # editable: {key, label, value, points}
    derived: traitlets.List[Row] = traitlets.List([]).tag(sync=True)  # {key, label, value, points, roll}
    traits_rows: traitlets.List[Row] = traitlets.List([]).tag(sync=True)  # {name, points}
    skills: traitlets.List[Row] = traitlets.List([]).tag(sync=True)  # {name, label, diff, level, points, source}
    weapons: traitlets.List[Row] = traitlets.List([]).tag(sync=True)  # {name, level, damage, reach, parry}
    total = traitlets.Unicode("").tag(sync=True)
    over_budget = traitlets.Bool(False).tag(sync=True)
    issues: traitlets.List[str] = traitlets.List([]).tag(sync=True)
    last = traitlets.Unicode("").tag(sync=True)
    pools: traitlets.List[Row] = traitlets.List([]).tag(sync=True)  # editable current HP/FP: {key, label, value, max}
    conditions: traitlets.List[str] = traitlets.List([]).tag(sync=True)  # what current HP/FP and load mean now (text)
    labels = traitlets.Dict({}).tag(sync=True)
    modifiers: traitlets.List[list] = traitlets.List([]).tag(sync=True)  # the next roll's: [value, text]
    situations: traitlets.List[list] = traitlets.List([]).tag(sync=True)  # the named ones: [group, [[key, text]]]

    def __init__(self, session: Core, name: str | None = None, *, gm: bool = False, **kwargs: Any):
        self._name = Gurps.of(session).character(name).name
        self._field = ModifierField(attack=False)
        self.gm = gm  # `%sheet --gm`: the true sheet, marked; else the sheet as the table knows it
        self._shown: tuple[Any, ...] = ()  # what the traits were last computed from (see `_inputs`)
        super().__init__(session, **kwargs)

    def _inputs(self) -> tuple[Any, ...]:
        """Everything the sheet reads: the character (immutable: an event that changes it makes a new
        one), its last check (a new record each time) and the language."""
        c = self.view()
        return c, Gurps.of(self.session).state.last_check.get(c.name), get_language()

    def _refresh_synced(self) -> None:
        """Recompute the sheet only when what it reads changed: every event of the session reaches
        every open sheet, and most (a roll, a card, someone else's check) leave its character alone."""
        inputs = self._inputs()
        if len(inputs) == len(self._shown) and all(a is b for a, b in zip(inputs, self._shown, strict=True)):
            return
        super()._refresh_synced()
        self._shown = inputs

    def view(self) -> Character:
        """The character shown: as the players know it (a secret hit not in it, GURPS-SR-09, live and
        in the state a notebook saves), or the truth for the GM's sheet (`gm`)."""
        if self.gm:
            return Gurps.of(self.session).character(self._name)
        return Gurps.of(self.session).character_public(self._name)

    def refresh(self) -> None:
        from gamekernel.gurps.render import display_name, success_text, weapon_rows
        from gamekernel.gurps.rules.checks import SuccessRoll

        c = self.view()
        self.character = c.name
        attr_points = c.attribute_points()
        self.attributes = [{"key": key, "label": t(f"gurps.attr.{key.upper()}"), "value": getattr(c, key),
                            "points": attr_points[key], "roll": key.upper()} for key in EDITABLE_ATTRIBUTES]
        self.derived = [
            {"key": "will", "label": t("gurps.attr.Will"), "value": str(c.will), "roll": "Will"},
            {"key": "per", "label": t("gurps.attr.Per"), "value": str(c.per), "roll": "Per"},
            {"key": "basic_speed", "label": t("gurps.attr.Basic Speed"), "value": f"{c.basic_speed:g}", "roll": ""},
            {"key": "basic_move", "label": t("gurps.attr.Basic Move"), "value": str(c.basic_move), "roll": ""},
            {"key": "dodge", "label": t("gurps.attr.Dodge"), "value": str(c.dodge), "roll": "Dodge"},
            {"key": "basic_lift", "label": t("gurps.attr.Basic Lift"), "value": f"{c.basic_lift:g} kg", "roll": ""},
            {"key": "damage", "label": t("gurps.attr.Damage"), "value": c.damage, "roll": ""},
        ]
        self.traits_rows = [{"name": display_name(label), "points": cost} for label, cost in c.feature_points()]
        rows = []
        for skill in c.skills:
            try:
                level = c.skill_level(skill.full_name)
                value, source = level.level, level.source
            except Exception as error:  # a broken imported skill still shows, with the reason
                value, source = None, str(error)
            rows.append({"name": skill.full_name, "label": display_name(skill.full_name),
                         "diff": f"{skill.attribute}/{skill.difficulty}", "level": value, "points": skill.points,
                         "source": source})
        self.skills = rows
        self.weapons = weapon_rows(c)
        pts = c.points()
        self.total = t("gurps.sheet.total", total=pts.total, budget=pts.budget, unspent=pts.unspent,
                       disadvantages=pts.disadvantages, limit=pts.disadvantage_limit)
        self.over_budget = pts.total > pts.budget
        self.issues = [str(issue) for issue in c.validate()]
        self.pools = [{"key": key, "label": t(f"gurps.sheet.current_{key}"), "value": current, "max": most}
                      for key, current, most in (("hp", c.current_hp, c.hp), ("fp", c.current_fp, c.fp))]
        self.conditions = [t(f"gurps.condition.{key}") for key in c.conditions]
        last = Gurps.of(self.session).state.last_check.get(c.name)
        if last and last.get("secret"):  # the sheet is on the shared screen: say a roll was made, not what
            self.last = t("core.secret_result", kind="check")  # as %check --secret shows it
        else:
            self.last = success_text(SuccessRoll.from_dict(last)) if last else ""
        self.labels = {"traits": t("gurps.sheet.col.trait"), "skills": t("gurps.sheet.col.skill"),
                       "level": t("gurps.sheet.col.level"), "points": t("gurps.sheet.col.points"),
                       "roll_hint": t("gurps.sheet.roll_hint"), "last": t("gurps.sheet.last"),
                       "weapon": t("gurps.sheet.col.weapon"), "damage": t("gurps.attr.Damage"),
                       "reach": t("gurps.sheet.col.reach"), "parry": t("gurps.attr.Parry"),
                       "conditions": t("gurps.sheet.conditions"), "none": t("gurps.sheet.no_conditions"),
                       "edit_hint": t("gurps.sheet.edit_hint"), "field": ModifierField.labels(),
                       **({"gm_view": t("table.gm_view")} if self.gm else {})}
        self.situations = self._field.menu()
        self.modifiers = self._field.rows()

    def handle_action(self, action: str, payload: dict[str, Any]) -> object:
        if action == "set":
            from gamekernel.results import EventLines

            log = self.session.log
            mark = len(log)
            Gurps.of(self.session).char_set(self._name, **self._edit(str(payload.get("key", "")), payload.get("value")))
            lines = tuple(event.summary() for event in log[mark:])  # not the whole sheet
            return EventLines(lines) if lines else None  # "DX 14 -> 14" changed nothing: no line
        elif action == "roll":  # a structured intent: the row's key, never display text to parse
            key = str(payload.get("skill") or payload.get("attribute") or "").strip()
            if not key:
                raise UsageError(t("gurps.err.sheet_nothing"))
            result = Gurps.of(self.session).check_named(key, actor=self._name, modifiers=self._field.take())
            self._field.clear()  # made: the modifiers were this roll's only
            self.modifiers = []
            return result
        elif action in MODIFIER_ACTIONS:  # the field changes; nothing is rolled or recorded
            self._field.act(action, payload)
            self.modifiers = self._field.rows()
            return None
        else:
            raise UsageError(t("gurps.err.sheet_action", action=action))

    def _edit(self, key: str, value: Any) -> dict[str, Any]:
        """The `char_set` fields of one edited box: an attribute as is, a current HP/FP as the points
        lost (the character stores HP and HP lost); the session validates both as `%char set` does."""
        if key in EDITABLE_ATTRIBUTES:
            return {key: value}
        if key in POOLS:
            try:
                current = int(value)
            except (TypeError, ValueError):
                raise UsageError(t("gurps.err.whole_number", what=t(f"gurps.attr.{key.upper()}"),
                                   value=value)) from None
            return {f"{key}_lost": getattr(self.view(), key) - current}
        raise UsageError(t("gurps.err.sheet_edit", key=key))

    def snapshot_html(self) -> str:
        from gamekernel.gurps.render import character_html

        if self.gm:
            from gamekernel.display.html import chip

            badge = chip(t("table.gm_view"), "warn")
            return f'<div class="gk-gm-view"><div>{badge}</div>{character_html(self.view())}</div>'
        return character_html(self.view())

    def __repr__(self) -> str:
        c = self.view()
        pts = c.points()
        return (f"<SheetWidget {c.name}: ST {c.st} DX {c.dx} IQ {c.iq} HT {c.ht}, Dodge {c.dodge}, "
                f"{pts.total}/{pts.budget} points>")
