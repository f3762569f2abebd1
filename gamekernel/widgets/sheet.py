"""The GURPS character sheet widget: attributes editable with live recomputation, traits and skills
with costs, weapons (level, damage, reach, Parry), the point total against the budget, click-to-roll.

An edit (DX 12 -> 13) is a session call (`char_set`, logged and undoable); the session's event
refreshes the widget, so Basic Speed, Dodge, Move and the point total change at once. Clicking a
skill or attribute sends its key (`{"action": "roll", "skill": full name}` or `"attribute": "DX"`),
rolled by `session.check_named` without parsing (logged, shown as the widget's last roll).
The widget computes nothing itself: every number comes from the Character.
"""

from __future__ import annotations

from typing import Any

import traitlets

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.widgets.base import SessionWidget, asset
from gamekernel.widgets.styles import themed

EDITABLE_ATTRIBUTES = ("st", "dx", "iq", "ht")


class SheetWidget(SessionWidget):
    """`SheetWidget(session, name="Aiko")` - also what `%sheet Aiko` shows."""

    _esm = asset("sheet.js")
    _css = themed("sheet.css")

    character = traitlets.Unicode("").tag(sync=True)
    attributes = traitlets.List([]).tag(sync=True)  # editable: {key, label, value, points}
    derived = traitlets.List([]).tag(sync=True)  # {key, label, value, points, roll}
    traits_rows = traitlets.List([]).tag(sync=True)  # {name, points}
    skills = traitlets.List([]).tag(sync=True)  # {name, label, diff, level, points, source}
    weapons = traitlets.List([]).tag(sync=True)  # {name, level, damage, reach, parry}
    total = traitlets.Unicode("").tag(sync=True)
    over_budget = traitlets.Bool(False).tag(sync=True)
    issues = traitlets.List([]).tag(sync=True)
    last = traitlets.Unicode("").tag(sync=True)
    labels = traitlets.Dict({}).tag(sync=True)

    def __init__(self, session, name: str | None = None, **kwargs: Any):
        self._name = session.character(name).name
        super().__init__(session, **kwargs)

    def view(self):
        return self.session.character(self._name)

    def refresh(self) -> None:
        from gamekernel.render.gurps import display_name, success_text, weapon_rows
        from gamekernel.systems.gurps.checks import SuccessRoll

        c = self.view()
        self.character = c.name
        attr_points = c.attribute_points()
        self.attributes = [{"key": key, "label": t(f"gurps.attr.{key.upper()}"), "value": getattr(c, key),
                            "points": attr_points[key], "roll": key.upper()} for key in EDITABLE_ATTRIBUTES]
        self.derived = [
            {"key": "hp", "label": t("gurps.attr.HP"), "value": f"{c.current_hp}/{c.hp}", "roll": ""},
            {"key": "will", "label": t("gurps.attr.Will"), "value": str(c.will), "roll": "Will"},
            {"key": "per", "label": t("gurps.attr.Per"), "value": str(c.per), "roll": "Per"},
            {"key": "fp", "label": t("gurps.attr.FP"), "value": f"{c.current_fp}/{c.fp}", "roll": ""},
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
        last = self.session.gurps.last_check.get(c.name)
        if last and last.get("secret"):  # the sheet is on the shared screen: say a roll was made, not what
            self.last = t("core.secret_result", kind="check")  # as %check --secret shows it
        else:
            self.last = success_text(SuccessRoll.from_dict(last)) if last else ""
        self.labels = {"traits": t("gurps.sheet.col.trait"), "skills": t("gurps.sheet.col.skill"),
                       "level": t("gurps.sheet.col.level"), "points": t("gurps.sheet.col.points"),
                       "roll_hint": t("gurps.sheet.roll_hint"), "last": t("gurps.sheet.last"),
                       "weapon": t("gurps.sheet.col.weapon"), "damage": t("gurps.attr.Damage"),
                       "reach": t("gurps.sheet.col.reach"), "parry": t("gurps.attr.Parry")}

    def handle_action(self, action: str, payload: dict[str, Any]):
        if action == "set":
            from gamekernel.widgets.record import EventLines

            key = str(payload.get("key", ""))
            if key not in EDITABLE_ATTRIBUTES:
                raise UsageError(t("gurps.err.sheet_edit", key=key))
            log = self.session.log
            mark = len(log)
            self.session.char_set(self._name, **{key: payload.get("value")})
            return EventLines(tuple(event.summary() for event in log[mark:]))  # not the whole sheet
        elif action == "roll":  # a structured intent: the row's key, never display text to parse
            key = str(payload.get("skill") or payload.get("attribute") or "").strip()
            if not key:
                raise UsageError(t("gurps.err.sheet_nothing"))
            return self.session.check_named(key, actor=self._name)
        else:
            raise UsageError(t("gurps.err.sheet_action", action=action))

    def snapshot_html(self) -> str:
        from gamekernel.render.gurps import character_html

        return character_html(self.view())

    def __repr__(self) -> str:
        c = self.view()
        pts = c.points()
        return (f"<SheetWidget {c.name}: ST {c.st} DX {c.dx} IQ {c.iq} HT {c.ht}, Dodge {c.dodge}, "
                f"{pts.total}/{pts.budget} points>")
