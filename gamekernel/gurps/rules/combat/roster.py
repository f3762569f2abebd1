"""Joining and leaving a running fight without reshuffling it (GURPS-CMB-02, CMB-05).

Why a module of its own: the order of a fight is fixed when it starts; a newcomer takes the place
the start's own tie rule earns him among the others, after those he ties with (he came late), and
waits on Do Nothing until his first turn; whoever leaves is simply taken out. Either way the fighter
whose turn it is keeps it.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules.combat.state import Combatant, CombatState, InitiativeEntry, copy_with
from gamekernel.gurps.rules.combat.turns import begin_turn, fresh_for_fight
from gamekernel.i18n import t
from gamekernel.text import match_key


def _running(state: CombatState) -> None:
    if not state.combatants or state.over:
        raise RuleError(t("combat.err.no_fight"))


def join_place(order: Sequence[Combatant], newcomer: Combatant) -> int:
    """Where `newcomer` enters a fixed order (0-based): before the first fighter the start's own rule puts
    after him (GURPS-CMB-02 lower Basic Speed; CMB-03 on equal Speed with a PC among them, lower DX), so
    after everyone he ties with, since he came late; same-side NPCs tied on Speed keep the GM's order,
    the newcomer last. The order already set never changes (CMB-02)."""
    tied = [c for c in order if c.basic_speed == newcomer.basic_speed]
    gm_order = not newcomer.pc and all(not c.pc and c.side == newcomer.side for c in tied)

    def goes_after(c: Combatant) -> bool:
        if c.basic_speed != newcomer.basic_speed:
            return c.basic_speed < newcomer.basic_speed
        return not gm_order and c.dx < newcomer.dx

    return next((i for i, c in enumerate(order) if goes_after(c)), len(order))


def join_fight(state: CombatState, newcomer: Combatant) -> CombatState:
    """`newcomer` enters the running fight at his `join_place`, on Do Nothing until his first turn
    (GURPS-CMB-05); the fighter whose turn it is keeps it. The one way anyone joins a fight."""
    _running(state)
    if any(match_key(c.name) == match_key(newcomer.name) for c in state.combatants):
        raise UsageError(t("combat.err.same_name", name=newcomer.name))
    place = join_place(state.combatants, newcomer)
    c = fresh_for_fight(newcomer)
    entry = InitiativeEntry(c.name, c.basic_speed, c.dx)
    combatants = (*state.combatants[:place], c, *state.combatants[place:])
    initiative = (*state.initiative[:place], entry, *state.initiative[place:])
    active = state.active + 1 if place <= state.active else state.active
    return copy_with(state, combatants=combatants, initiative=initiative, active=active)


def leave_fight(state: CombatState, name: str) -> tuple[CombatState, str]:
    """`name` leaves the fight; the one whose turn it is keeps it (if it was the leaver's, the next
    fighter's turn begins). Refused while an attack on or by him waits for its defense."""
    _running(state)
    i = state.index(name)
    gone = state.combatants[i]
    if len(state.combatants) == 1:
        raise RuleError(t("table.err.last_fighter", name=gone.name))
    p = state.pending
    if p is not None and gone.name in (p.attacker, p.target):
        raise RuleError(t("combat.err.unanswered", target=p.target, attacker=p.attacker))
    combatants = (*state.combatants[:i], *state.combatants[i + 1:])
    entries = tuple(e for e in state.initiative if e.name != gone.name)
    active, round_ = state.active, state.round
    if i < active:
        active -= 1
    ranges = tuple(r for r in state.ranges if gone.name not in r[:2])  # his distances go with him
    state = copy_with(state, combatants=combatants, initiative=entries, ranges=ranges)
    if i == state.active:
        if active >= len(combatants):
            active, round_ = 0, round_ + 1
        state = begin_turn(copy_with(state, active=active, round=round_))
    return copy_with(state, active=active, round=round_), gone.name
