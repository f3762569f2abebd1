"""GURPS combat state: combatants, initiative, rounds and turns, maneuvers, attacks, defenses,
injury and the badges that come and go with the turns. [GURPS-CMB, GURPS-INJ, GURPS-FAT]

Every transition is a pure function `new_state, report = f(state, ..., dice)`: the state is a
frozen `CombatState`, and `dice` is a `Tape` that draws d6 faces from an RNG (live) or hands back
recorded faces (replay) and remembers every face it gave. The session runs the transition once,
live, and stores the arguments, `tape.used` and the facts of what changed (`facts`) in the
event; the reducer writes those facts back, so replay and undo rebuild exactly the state played
without rerunning a rule. Events of older logs, without facts, rerun the same function with
`Tape(faces=...)` and get the same state.

This package's __init__ is the one place callers import the fight from; the code lives in one
module per job (gurps/rules/combat/*.py), each importing only those before it:
  state      the frozen values (Tape, Weapon, Combatant, CombatState) and what the tracker reads
  parries    the weapons a fighter can parry with, each with its Parry (the picker's and the default's)
  conditions the GM's own named conditions on a fighter and their countdowns
  turns      initiative, turns, maneuvers (Aim and Evaluate building up), feints
  roster     joining and leaving a running fight (the one join_fight)
  injury     damage, injury, fatigue, healing, GM fixes, the end of a fight
  attacks    the roll to hit and the active defenses
  picks      a fighter's weapon menu, his first pick, his parry weapons, a weapon's reach
  sides      the party, the foes, the neutral and named sides; the default target
  fighters   quick NPCs and weapons from text or a character sheet
  sheets     a character's sheet as a fighter, and his wounds back on the sheet (imported from there)
  facts      what a transition changed, as an event's facts, and writing them back (no rule)
"""

from __future__ import annotations

from gamekernel.gurps.rules.combat.attacks import (
    ATTACK_MANEUVERS,
    AttackOptions,
    AttackReport,
    DefenseReport,
    attack,
    defend,
    defense_options,
    hearing_check,
    parry_offers,
    refused_defenses,
)
from gamekernel.gurps.rules.combat.conditions import add_condition, lift_condition, parse_condition, tick_conditions
from gamekernel.gurps.rules.combat.fighters import parse_weapon, quick_combatant, weapon_from_sheet
from gamekernel.gurps.rules.combat.injury import (
    DamageReport,
    EndReport,
    InjuryReport,
    apply_injury,
    burn_second,
    damage,
    end_combat,
    heal,
    set_status,
    shock_round_for,
    spend_fp,
    suffer,
)
from gamekernel.gurps.rules.combat.parries import ParryOption, parry_options
from gamekernel.gurps.rules.combat.picks import Pick, best_weapon, reaches, weapon_group, weapon_menu
from gamekernel.gurps.rules.combat.roster import join_fight, leave_fight
from gamekernel.gurps.rules.combat.state import (
    MANEUVERS,
    PLAIN_MELEE,
    Combatant,
    CombatState,
    InitiativeEntry,
    PendingAttack,
    Readout,
    Tape,
    Weapon,
    copy_with,
    defenses_allowed,
    effective_defenses,
    maneuver_rules,
    move_allowed,
)
from gamekernel.gurps.rules.combat.turns import (
    FeintReport,
    ManeuverReport,
    TurnReport,
    checks_due,
    choose_maneuver,
    feint_penalty,
    free_posture,
    fresh_for_fight,
    initiative_order,
    is_free_posture_change,
    next_turn,
    start_combat,
)

__all__ = [
    "ATTACK_MANEUVERS",
    "MANEUVERS",
    "PLAIN_MELEE",
    "AttackOptions",
    "AttackReport",
    "CombatState",
    "Combatant",
    "DamageReport",
    "DefenseReport",
    "EndReport",
    "FeintReport",
    "InitiativeEntry",
    "InjuryReport",
    "ManeuverReport",
    "ParryOption",
    "PendingAttack",
    "Pick",
    "Readout",
    "Tape",
    "TurnReport",
    "Weapon",
    "add_condition",
    "apply_injury",
    "attack",
    "best_weapon",
    "burn_second",
    "checks_due",
    "choose_maneuver",
    "copy_with",
    "damage",
    "defend",
    "defense_options",
    "defenses_allowed",
    "effective_defenses",
    "end_combat",
    "feint_penalty",
    "free_posture",
    "fresh_for_fight",
    "heal",
    "hearing_check",
    "initiative_order",
    "is_free_posture_change",
    "join_fight",
    "leave_fight",
    "lift_condition",
    "maneuver_rules",
    "move_allowed",
    "next_turn",
    "parry_offers",
    "parry_options",
    "parse_condition",
    "parse_weapon",
    "quick_combatant",
    "reaches",
    "refused_defenses",
    "set_status",
    "shock_round_for",
    "spend_fp",
    "start_combat",
    "suffer",
    "tick_conditions",
    "weapon_from_sheet",
    "weapon_group",
    "weapon_menu"
]
