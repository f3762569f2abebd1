"""The modifier field of the sheet and the tracker: what the GM typed (`-2 dark`) or picked from the
rules' named modifiers (darkness, footing, size ...), waiting for the widget's next roll.

Why a class of its own: both widgets hold the same field, and it is the GM's input not yet sent - as
the tracker's damage box holds its text - never state of the table: nothing is recorded until the
roll it joins, which names every modifier in its result and its event (GURPS-SR-04). Typed text goes
through the one modifier parser (`rules.situations.typed_modifiers` -> `checks.parse_modifiers`);
a bad entry is refused whole with one line and the pending list stays as it was.
"""

from __future__ import annotations

from typing import Any

from gamekernel.errors import UsageError
from gamekernel.gurps.rules.checks import Modifier
from gamekernel.gurps.rules.situations import added, situational, situationals, typed_modifiers
from gamekernel.i18n import t

ACTIONS = ("modifier", "situation", "unmodify", "clear_modifiers")


class ModifierField:
    """The pending modifiers of one widget; `attack`: offer only what an attack takes (the tracker)."""

    def __init__(self, *, attack: bool) -> None:
        self.attack = attack
        self.pending: tuple[Modifier, ...] = ()

    def act(self, action: str, payload: dict[str, Any]) -> None:
        """Change the pending list as a front-end message asks; a refusal changes nothing."""
        if action == "modifier":
            self.pending = added(self.pending, typed_modifiers(str(payload.get("text", ""))))
        elif action == "situation":
            found = situational(str(payload.get("key", "")))
            self.pending = added(self.pending, (Modifier(found.value, found.label),))
        elif action == "unmodify":
            index = payload.get("index")
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.pending):
                raise UsageError(t("gurps.err.modifier_index", index=str(index)[:20]))
            self.pending = self.pending[:index] + self.pending[index + 1:]
        else:
            self.pending = ()

    def take(self) -> tuple[Modifier, ...]:
        """The modifiers for the roll being made (the list clears once the roll is made: `clear`)."""
        return self.pending

    def clear(self) -> None:
        self.pending = ()

    def rows(self) -> list[list[Any]]:
        """The pending modifiers as the field shows them: [value, text] each."""
        from gamekernel.gurps.render import modifier_text

        return [[m.value, modifier_text(m)] for m in self.pending]

    def menu(self) -> list[list[Any]]:
        """The named modifiers by group, in the current language: [group text, [[key, text], ...]]."""
        from gamekernel.display.html import sign
        from gamekernel.gurps.render import rule_label

        groups: dict[str, list[list[str]]] = {}
        for s in situationals():
            if self.attack and not s.attack:
                continue
            text = t("gurps.situation.entry", label=rule_label(s.label), value=sign(s.value))
            groups.setdefault(s.group, []).append([s.key, text])
        return [[t(f"gurps.situation.group.{group}"), entries] for group, entries in groups.items()]

    @staticmethod
    def labels() -> dict[str, str]:
        return {key: t(f"gurps.situation.{key}") for key in ("title", "hint", "pick", "none", "remove", "clear",
                                                              "applies")}
