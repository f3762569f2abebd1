"""The GURPS combat tracker widget: initiative order, the active fighter, HP/FP bars coloured by
state, the defenses as the next defense roll uses them, status badges, a maneuver picker and quick
buttons, live both ways.

A damage update sends ONE message with only what changed: the per-combatant fields that moved
(in the small `patch` trait) plus `round`/`active` if they changed. The full `rows` are synced
only when the set of fighters changes or a new view asks for them (`resync`). An event recomputes
only the rows it can change (`stale_rows`), so an update costs about the same at 10 and at 1,000
fighters. Clicks become session calls (logged, undoable); no rules here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import traitlets

from gamekernel.errors import UsageError
from gamekernel.events import Event
from gamekernel.gurps.actions import Gurps
from gamekernel.gurps.combat_actions import Combat
from gamekernel.gurps.combat_render import stale_rows
from gamekernel.gurps.results import CombatResult
from gamekernel.gurps.widgets.modifiers import ACTIONS as MODIFIER_ACTIONS
from gamekernel.gurps.widgets.modifiers import ModifierField
from gamekernel.i18n import get_language, t
from gamekernel.text import half_width
from gamekernel.widgets.base import SessionWidget, script, styles

if TYPE_CHECKING:  # the table's core it draws and calls (below the rule sets)
    from gamekernel.rulesets import Core


def _row(state, index: int) -> dict[str, Any]:
    """One synced row: the tracker row of the fighter at `index` with its words in the session's language."""
    from gamekernel.gurps.combat_render import badge_text, badge_tone, bar_tone, defense_text, label, tracker_row

    row = tracker_row(state, index)
    # the GM's own conditions apart (the last badges, in their order): each with a button to lift it
    own = state.combatants[index].gm_conditions
    cut = len(row["badges"]) - len(own)
    rule_badges, gm_badges = row["badges"][:cut], row["badges"][cut:]
    row["conditions"] = [[name, text, "warn"] for (name, _), text in zip(own, gm_badges, strict=True)]
    row["badges"] = [[badge_text(b), badge_tone(b)] for b in rule_badges]
    row["hp_tone"], row["fp_tone"] = bar_tone("hp", row["hp_state"]), bar_tone("fp", row["fp_state"])  # as saved
    for entry in row["defense_values"]:
        entry["text"] = defense_text(entry)
    row["maneuver_label"] = label(row["maneuver"]) + (f" ({label(row['option'])})" if row["option"] else "")
    return row


def _rows(state) -> dict[str, dict[str, Any]]:
    """Every synced row, by fighter name (a full recompute)."""
    return {c.name: _row(state, i) for i, c in enumerate(state.combatants)}


class Tracker(SessionWidget):
    """`Tracker(session)` - also what `%combat tracker` shows."""

    _esm = script("gurps/tracker.js", "gurps/modifiers.js")
    _css = styles("gurps/tracker.css", "gurps/modifiers.css")

    order: traitlets.List[str] = traitlets.List([]).tag(sync=True)
    rows = traitlets.Dict({}).tag(sync=True)
    patch = traitlets.Dict({}).tag(sync=True)
    round = traitlets.Int(0).tag(sync=True)
    active = traitlets.Unicode("").tag(sync=True)
    pending = traitlets.Dict({}).tag(sync=True)
    over = traitlets.Bool(False).tag(sync=True)
    labels = traitlets.Dict({}).tag(sync=True)
    last = traitlets.Unicode("").tag(sync=True)
    result_html = traitlets.Unicode("").tag(sync=True)  # the last exchange, drawn by the static renderers
    offered = traitlets.Dict({}).tag(sync=True)  # {"name": defender, "options": [[kind, value, text], ...]}
    due = traitlets.Dict({}).tag(sync=True)  # {"name": active fighter, "checks": ["consciousness", ...]}
    picks = traitlets.Dict({}).tag(sync=True)  # the active fighter's weapon menu, first picks, target, distances
    last_target = traitlets.Unicode("").tag(sync=True)  # the last attack's target: the damage box's first pick
    modifiers: traitlets.List[list] = traitlets.List([]).tag(sync=True)  # the next attack's: [value, text]
    situations: traitlets.List[list] = traitlets.List([]).tag(sync=True)  # the named ones an attack takes

    def __init__(self, session: Core, **kwargs: Any):
        self._patch_seq = 0
        self._labels_language = ""
        self._exchange: list[CombatResult] = []
        self._last_event: Event | None = None  # the combat event `last` was written from (rewritten in a new language)
        self._seen = None  # the fight the rows were last computed from
        self._where: dict[str, int] = {}  # each fighter's index in it
        self._field = ModifierField(attack=True)  # the GM's modifiers for the next attack roll
        super().__init__(session, **kwargs)

    def refresh(self) -> None:
        from gamekernel.gurps.combat_render import label
        from gamekernel.gurps.rules.combat import MANEUVERS, maneuver_rules

        state = Combat.of(self.session).state
        relabelled = self._labels_language != get_language()
        if relabelled:  # built once per language: refresh runs on every event
            self._labels_language = get_language()
            self.labels = {"next": t("combat.kind.next"), "attack": t("combat.kind.attack"),
                           "defend": t("combat.kind.defend"), "title": t("combat.tracker.title", round="{round}"),
                           "none": t("combat.none"), "over": t("combat.over"),
                           "cols": {k: t(f"tracker.col.{k}") for k in ("name", "hp", "fp", "maneuver", "defenses",
                                                                        "status", "actions")},
                           "buttons": {k: t(f"tracker.button.{k}") for k in ("choose", "attack", "defend", "next",
                                                                             "damage", "join", "leave", "end")},
                           "checks": {k: t(f"tracker.button.{b}", name="{name}") for k, b in
                                      (("consciousness", "ht_conscious"), ("will", "will"), ("mortal", "mortal"),
                                       ("wake", "wake"))},
                           "last_exchange": t("tracker.last"), "defend_as": t("tracker.defend_as", name="{name}"),
                           "weapon": t("tracker.weapon"), "target": t("tracker.target"),
                           "check_needs_maneuver": t("tracker.check_needs_maneuver", name="{name}"),
                           "damage": t("tracker.damage"), "damage_hint": t("tracker.damage_hint"),
                           "join_hint": t("tracker.join_hint"), "no_defense": t("tracker.no_defense"),
                           "groups": {g: t(f"combat.tracker.group.{g}") for g in ("weapon", "shield", "natural")},
                           "sides": {k: t(f"combat.side.{k}") for k in ("pcs", "foes", "neutral")},
                           "side": t("combat.tracker.side"), "range": t("combat.tracker.range"),
                           "closer": t("combat.tracker.closer"), "farther": t("combat.tracker.farther"),
                           "condition": t("tracker.condition"), "condition_hint": t("tracker.condition_hint"),
                           "condition_add": t("tracker.condition_add"),
                           "condition_lift": t("tracker.condition_lift", condition="{condition}"),
                           "maneuvers": {m: label(m) for m in MANEUVERS}, "field": ModifierField.labels(),
                           "options": {m: {o: label(o) for o in maneuver_rules(m)["options"]}
                                       for m in MANEUVERS if maneuver_rules(m).get("options")}}
        if relabelled:
            self._redraw_words()
            self.situations = self._field.menu()
            self.modifiers = self._field.rows()
        if state is None:
            self.order, self.rows, self.round, self.active = [], {}, 0, ""
            self.offered, self.due = {}, {}
            self._seen = None
            return
        combat = Combat.of(self.session)
        defender, options = combat.offered()
        fighter, checks = combat.due()
        self._sync_rows(state, relabelled)
        p = state.pending
        log = self.session.log
        if log and log[-1].kind.startswith("combat."):
            self._last_event = log[-1]
        self._assign(
            offered={"name": defender, "options": self._defense_options(options),
                     "refused": [[k, t(key, **{f: v if f == "name" else label(v) for f, v in fields}), label(k)]
                                 for k, key, fields in combat.refused()]},
            picks=combat.picks(state.current.name) if not state.over else {},
            last_target=combat.last_target(),
            due={"name": fighter, "checks": [c for c in checks if c in ("consciousness", "will")],
                 "after": [list(pair) for pair in Combat.of(self.session).after_rolls()]},
            round=state.round, active="" if state.over else state.current.name, over=state.over,
            pending={} if p is None else {"attacker": p.attacker, "target": p.target},
            last=self.last if self._last_event is None else self._last_event.summary(),
        )

    def _defense_options(self, options: tuple[tuple[str, int], ...]) -> list[list[Any]]:
        """[kind, value, text, weapon] per defense offered; Parry once per weapon it can be made with,
        named ("Parry 10 (Axe)"), best first (GURPS-CMB-46)."""
        from gamekernel.gurps.combat_render import label

        out: list[list[Any]] = []
        for kind, value in options:
            parries = Combat.of(self.session).parries() if kind == "parry" else ()
            if parries:
                out += [[kind, v, f"{label(kind)} {v} ({text})", weapon] for weapon, text, v in parries]
            else:
                out.append([kind, value, f"{label(kind)} {value}", ""])
        return out

    def _redraw_words(self) -> None:
        """After a change of language, the results panel and the last line in the new one: both are
        drawn from the results and the event they show, not kept as the old language's text."""
        self.result_html = "".join(r._repr_html_() for r in self._exchange)
        if self._last_event is not None:
            self.last = self._last_event.summary()

    def _assign(self, **values: Any) -> None:
        """Set the traits whose value differs: setting a trait validates and compares it, which cost
        more than the rest of an update once only the stale rows are recomputed."""
        for name, value in values.items():
            if getattr(self, name) != value:
                setattr(self, name, value)

    def _sync_rows(self, state, relabelled: bool) -> None:
        """Recompute the rows the event can have changed (all of them after a change of language or of
        fighters) and send them: the whole `rows` when the fighters changed, else a `patch` of the
        fields that moved."""
        stale = None if relabelled else stale_rows(self._seen, state, self._where)
        self._seen = state
        if stale is not None:  # the same fighters in the same order as the synced rows
            self._send_patch({state.combatants[i].name: _row(state, i) for i in sorted(stale)})
            return
        rows = _rows(state)
        self._where = {c.name: i for i, c in enumerate(state.combatants)}
        order = list(self._where)
        if order != list(self.order) or set(rows) != set(self.rows):
            self.order = order
            self.rows = rows
        else:
            self._send_patch(rows)

    def _send_patch(self, rows: dict[str, dict[str, Any]]) -> None:
        """Send the fields of `rows` that differ from the synced copy, and update that copy in place."""
        changes = {}
        for name, row in rows.items():
            old = self.rows[name]
            diff = {k: v for k, v in row.items() if old.get(k) != v}
            if diff:
                changes[name] = diff
                old.update(diff)  # in place: the Python copy stays current, no full sync (a fresh row shares nothing)
        if changes:
            self._patch_seq += 1
            self.patch = {"seq": self._patch_seq, "rows": changes}

    def snapshot_html(self) -> str:
        from gamekernel.gurps.combat_render import tracker_html

        return tracker_html(Combat.of(self.session).state)

    def __repr__(self) -> str:
        from gamekernel.gurps.combat_render import tracker_text

        return tracker_text(Combat.of(self.session).state)

    def handle_action(self, action: str, payload: dict[str, Any]):
        result = self._act(action, payload)
        if isinstance(result, CombatResult):  # its record line: the step, not another tracker table
            result = dataclasses.replace(result, show_tracker=False)
            self._show(action, result)
        return result

    def _show(self, action: str, result: CombatResult) -> None:
        """The results panel: an attack opens a new exchange, its defense, damage and rolls join it (the
        last four steps);
        each step drawn by the same renderer as the magic's output (rolls with their dice)."""
        if action in ("next", "join", "leave", "end", "side", "range", "condition", "lift"):  # no exchange
            return  # their line shows below
        if action == "attack":
            self._exchange = []
        self._exchange = [*self._exchange[-3:], result]
        self.result_html = "".join(r._repr_html_() for r in self._exchange)

    def _act(self, action: str, payload: dict[str, Any]):
        if action == "resync":
            self.send_state("rows")
            return None  # a new view asking for the rows: nothing happened
        if action in MODIFIER_ACTIONS:  # the modifier field changes; nothing is rolled or recorded
            self._field.act(action, payload)
            self.modifiers = self._field.rows()
            return None
        step = ACTIONS.get(action)
        if step is None:
            raise UsageError(t("combat.err.tracker_action", action=action))
        if action != "attack":
            return step(self.session, payload)
        # with the field's modifiers (never any the message itself names), as `%attack ... -2 dark` gives them
        result = step(self.session, {**payload, "extra": [[m.value, m.label] for m in self._field.take()]})
        self._field.clear()  # made: the modifiers were this attack's only
        self.modifiers = []
        return result


def _condition(text: str) -> tuple[str, int]:
    """The condition box's text read as `%combat condition`'s words are (quotes keep a name whole)."""
    from gamekernel.gurps.rules.combat.conditions import parse_condition
    from gamekernel.syntax import tokenize

    return parse_condition([token.value for token in tokenize(text[:200])])


# What each button or box of the tracker does: one session call (logged, undoable) per action.
ACTIONS: dict[str, Callable[[Core, dict[str, Any]], Any]] = {
    "next": lambda s, p: Combat.of(s).next(),
    "maneuver": lambda s, p: Combat.of(s).maneuver(str(p["name"]), str(p["maneuver"]), option=str(p.get("option", "")),
                                               target=str(p.get("target", ""))),
    # the GM's modifiers from the field (`extra`, set by the widget, GURPS-CMB-33), as `%attack` reads its own
    "attack": lambda s, p: Combat.of(s).attack(str(p["attacker"]), str(p["target"]), str(p["weapon"]),
                                               **({"extra": p["extra"]} if p.get("extra") else {})),
    "defend": lambda s, p: Combat.of(s).defend(str(p["name"]), str(p.get("kind", "")), weapon=str(p.get("weapon", ""))),
    "side": lambda s, p: Combat.of(s).side(str(p["name"]), str(p.get("side", ""))),
    "range": lambda s, p: Combat.of(s).range(str(p["a"]), str(p["b"]), half_width(str(p.get("distance", "")))),
    # the damage box is `%damage SPEC @NAME` (its text read as a magic's line is): rolled ("2d+1 cut") or
    # rolled at the table ("7 cut"), through the one damage parser
    "damage": lambda s, p: Gurps.of(s).damage(half_width(str(p.get("spec", ""))), target=str(p["name"])),
    "end": lambda s, p: Combat.of(s).end(),
    # the GM's own condition, typed as `%combat condition NAME ...` takes it ("Blessed 3s"), and its lift
    "condition": lambda s, p: Combat.of(s).condition(str(p["name"]), *_condition(str(p.get("text", "")))),
    "lift": lambda s, p: Combat.of(s).lift(str(p["name"]), str(p.get("condition", ""))),
    "mortal": lambda s, p: Combat.of(s).mortal_check(str(p["name"])),
    "wake": lambda s, p: Combat.of(s).wake(str(p["name"])),
    "join": lambda s, p: Combat.of(s).join(str(p.get("spec", ""))),
    "leave": lambda s, p: Combat.of(s).leave(str(p["name"])),
}
