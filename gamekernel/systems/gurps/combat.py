"""GURPS combat state: combatants, initiative, rounds and turns, maneuvers, attacks, defenses,
injury and the badges that come and go with the turns. [GURPS-CMB, GURPS-INJ, GURPS-FAT]

Every transition is a pure function `new_state, report = f(state, ..., dice)`: the state is a
frozen `CombatState`, and `dice` is a `Tape` that draws d6 faces from an RNG (live) or hands back
recorded faces (replay) and remembers every face it gave. The session stores the arguments and
`tape.used` in the event; the reducer calls the same function with `Tape(faces=...)` and gets the
same state, so replay and undo are exact.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any

from gamekernel.errors import DataError, NotFoundError, RuleError, UsageError
from gamekernel.i18n import t
from gamekernel.systems.gurps import attacks as atk
from gamekernel.systems.gurps import defenses as dfn
from gamekernel.systems.gurps import fatigue as fat
from gamekernel.systems.gurps import injury as inj
from gamekernel.systems.gurps import vocabulary
from gamekernel.systems.gurps.checks import SuccessRoll, success_roll
from gamekernel.systems.gurps.damage import DamageRoll, DamageSpec, parse_damage, roll_damage
from gamekernel.systems.gurps.weapons import find_weapon
from gamekernel.systems.gurps.wording import badges, word
from gamekernel.text import match_key

# ---------------------------------------------------------------- cheap copies


def copy_with(obj: Any, /, **changes: Any) -> Any:
    """`dataclasses.replace`, but for the fight's own frozen values (Combatant, CombatState,
    PendingAttack) a plain copy of the instance dict: every reducer copies a Combatant many times,
    and going through `__init__` cost more than the rules themselves. Same fields, same values, still
    frozen (no setattr afterwards); a None hp/fp/hearing (which `__post_init__` fills in) and any
    other dataclass take the ordinary path."""
    names = _FAST_COPY.get(type(obj))
    if names is None or not names.issuperset(changes) or (
            changes.get("hp", 0) is None or changes.get("fp", 0) is None or changes.get("hearing", 0) is None):
        return dataclasses.replace(obj, **changes)
    new = object.__new__(type(obj))
    fields = new.__dict__
    fields.update(obj.__dict__)
    fields.update(changes)
    return new


# ---------------------------------------------------------------- dice tape


class Tape:
    """d6 faces from recorded ones first, then from `rng`; `used` lists every face handed out."""

    def __init__(self, rng: random.Random | None = None, faces: Iterable[int] = ()):
        self._rng = rng
        self._recorded = [int(f) for f in faces]
        self._pos = 0
        self.used: list[int] = []

    def d6(self, n: int = 1) -> tuple[int, ...]:
        out = []
        for _ in range(n):
            if self._pos < len(self._recorded):
                face = self._recorded[self._pos]
                self._pos += 1
            elif self._rng is not None:
                face = self._rng.randint(1, 6)
            else:
                raise DataError(t("combat.err.replay_dice"))
            out.append(face)
            self.used.append(face)
        return tuple(out)

    def roll3(self) -> tuple[int, ...]:
        return self.d6(3)


# ---------------------------------------------------------------- combatants


@dataclass(frozen=True)
class Weapon:
    """A ready weapon (or unarmed attack): skill level, damage text ("sw+1 cut", "2d pi", "thr-1 cr")."""

    name: str
    skill: int
    damage: str
    parry: int | None = 0  # parry bonus; None = cannot parry with it
    ranged: bool = False
    kind: str = "melee"  # melee | thrown | missile | firearm | beam (GURPS-CMB-45..47)
    acc: int = 0
    flail: bool = False
    weight_kg: float = 1.0
    parry_weapon: str = ""  # "" | dagger | quarterstaff | bare_hands (GURPS-CMB-49)

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class Combatant:
    """One fighter: fixed stats plus the state the fight changes."""

    name: str
    st: int = 10
    dx: int = 10
    iq: int = 10
    ht: int = 10
    hp_max: int = 10
    fp_max: int = 10
    will: int = 10
    basic_speed: float = 5.0
    basic_move: int = 5
    pc: bool = False
    side: str = "foes"
    dr: int = 0
    encumbrance: int = 0
    weapons: tuple[Weapon, ...] = ()
    shield: int | None = None
    shield_db: int = 0
    high_pain_threshold: bool = False
    combat_reflexes: bool = False
    hard_to_kill: int = 0
    enhanced_dodge: int = 0
    enhanced_parry: int = 0
    enhanced_block: int = 0
    ambidextrous: bool = False
    hearing: int | None = None  # Hearing roll (Per + Acute Hearing); None = IQ (Per defaults to IQ)
    # --- what the fight changes
    hp: int | None = None
    fp: int | None = None
    posture: str = "standing"
    maneuver: str = "do_nothing"
    option: str = ""
    chosen: bool = False
    maneuver_target: str = ""
    attacks_left: int = 0
    shock: int = 0
    shock_round: int = 0
    stunned: bool = False
    unconscious: bool = False
    collapsed: bool = False
    mortal: bool = False
    dead: bool = False
    destroyed: bool = False
    death_line: int = 0
    parry_used: bool = False
    block_used: bool = False
    feint_on: str = ""
    feint_amount: int = 0
    feint_round: int = 0
    aim_target: str = ""
    aim_turns: int = 0
    concentrating: str = ""
    consciousness_checked: bool = False
    needs_care: bool = False  # failed the 12-hour roll to wake at <= -1 x HP (GURPS-INJ-15)
    rolled: bool = False

    def __post_init__(self) -> None:
        if self.hp is None:
            object.__setattr__(self, "hp", self.hp_max)
        if self.fp is None:
            object.__setattr__(self, "fp", self.fp_max)
        if self.hearing is None:
            object.__setattr__(self, "hearing", self.iq)

    # ---- derived values (no rules elsewhere compute these for the tracker)

    @property
    def reeling(self) -> bool:
        return inj.is_reeling(self.hp, self.hp_max)

    @property
    def tired(self) -> bool:
        return fat.is_tired(self.fp, self.fp_max)

    @property
    def hp_state(self) -> str:
        return inj.hp_state(self.hp, self.hp_max)

    @property
    def fp_state(self) -> str:
        return fat.fp_state(self.fp, self.fp_max)

    @property
    def can_act(self) -> bool:
        return not (self.dead or self.destroyed or self.unconscious or self.collapsed or self.mortal)

    @property
    def dodge(self) -> int:
        return dfn.dodge_score(
            self.basic_speed, self.encumbrance, enhanced=self.enhanced_dodge,
            combat_reflexes=self.combat_reflexes, reeling=self.reeling, tired=self.tired,
        )

    def parry_with(self, weapon: Weapon | None = None) -> int | None:
        weapon = weapon or self.best_parry_weapon()
        if weapon is None or weapon.parry is None or weapon.ranged:
            return None
        return dfn.parry_score(weapon.skill, bonus=weapon.parry, enhanced=self.enhanced_parry,
                               combat_reflexes=self.combat_reflexes)

    def best_parry_weapon(self) -> Weapon | None:
        usable = [w for w in self.weapons if w.parry is not None and not w.ranged]
        return max(usable, key=lambda w: w.skill // 2 + (w.parry or 0), default=None)

    @property
    def parry(self) -> int | None:
        return self.parry_with()

    @property
    def block(self) -> int | None:
        if self.shield is None:
            return None
        return dfn.block_score(self.shield, enhanced=self.enhanced_block, combat_reflexes=self.combat_reflexes)

    @property
    def move(self) -> int:
        """Basic Move x encumbrance (floor, min 1; GURPS-STD-04/05), halved when reeling or tired
        (GURPS-INJ-01, FAT-01), then the posture's share (GURPS-CMB-11)."""
        fifths = atk.combat_tables()["encumbrance"]["move_fifths"][self.encumbrance]
        value = max(1, self.basic_move * fifths // 5)
        if self.reeling:
            value = inj.halve_up(value)
        if self.tired:
            value = inj.halve_up(value)
        return atk.posture_move(self.posture, value)

    def weapon(self, name: str) -> Weapon:
        """By name, ignoring case, spaces and punctuation ("broadsword_thrust" = "Broadsword (Thrust)")."""
        return find_weapon(self.name, self.weapons, name)

    def badges(self, round_: int = 0) -> tuple[str, ...]:
        """Status badges for the tracker, in a fixed order."""
        out = []
        if self.destroyed:
            out.append("destroyed")
        elif self.dead:
            out.append("dead")
        if self.mortal and not self.dead:
            out.append("mortal")
        if self.hp <= -self.hp_max and not (self.dead or self.destroyed):
            out.append("dying")
        elif self.hp <= 0 and not (self.dead or self.destroyed or self.unconscious):
            out.append("collapse")
        if self.unconscious and not (self.dead or self.destroyed):
            out.append("unconscious")
        if self.collapsed:
            out.append("collapsed")
        if self.stunned:
            out.append("stunned")
        if self.shock:
            out.append(f"shock −{self.shock}")
        if self.reeling and self.hp > 0:
            out.append("reeling")
        if self.tired and self.fp > 0:
            out.append("tired")
        if self.posture != "standing":
            out.append(self.posture)
        if self.feint_amount:
            out.append(f"feint −{self.feint_amount} → {self.feint_on}")
        if self.aim_turns:
            out.append(f"aim {self.aim_turns}")
        if self.concentrating:
            out.append("concentrating")
        return tuple(out)

    def to_dict(self) -> dict:
        data = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "weapons"}
        data["weapons"] = [w.to_dict() for w in self.weapons]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Combatant:
        fields = dict(data)
        fields["weapons"] = tuple(Weapon(**w) for w in fields.get("weapons", ()))
        unknown = set(fields) - set(cls.__dataclass_fields__)
        if unknown:
            raise DataError(t("combat.err.combatant_fields", name=fields.get("name", "?"),
                              fields=", ".join(sorted(unknown))))
        return cls(**fields)


# ---------------------------------------------------------------- the fight


@dataclass(frozen=True)
class InitiativeEntry:
    name: str
    basic_speed: float
    dx: int
    tie_roll: tuple[int, ...] = ()


@dataclass(frozen=True)
class PendingAttack:
    """A hit waiting for the defender's choice (GURPS-CMB-25)."""

    attacker: str
    target: str
    weapon: str
    damage: str
    strong_adds: int
    incoming: dfn.Incoming
    tried: tuple[str, ...] = ()
    half_damage: bool = False
    hearing: str = ""  # unseen attacker: "" not rolled yet, "heard", "unheard" (GURPS-CMB-51)


@dataclass(frozen=True)
class CombatState:
    combatants: tuple[Combatant, ...] = ()
    initiative: tuple[InitiativeEntry, ...] = ()
    round: int = 1
    active: int = 0
    pending: PendingAttack | None = None
    over: bool = False

    @property
    def current(self) -> Combatant:
        return self.combatants[self.active]

    def index(self, name: str) -> int:
        for i, c in enumerate(self.combatants):
            if c.name == name:  # the usual case, before the case-insensitive look
                return i
        key = match_key(name)
        for i, c in enumerate(self.combatants):
            if match_key(c.name) == key:
                return i
        names = [c.name for c in self.combatants]
        close = get_close_matches(name, names, n=3)
        hint = (t("gurps.err.did_you_mean", names=", ".join(close)) if close
                else t("combat.err.in_fight", names=", ".join(names)))
        raise NotFoundError(t("combat.err.no_combatant", name=name, hint=hint))

    def get(self, name: str) -> Combatant:
        return self.combatants[self.index(name)]

    def put(self, c: Combatant) -> CombatState:
        i = self.index(c.name)
        return copy_with(self, combatants=(*self.combatants[:i], c, *self.combatants[i + 1:]))

    def readout(self, name: str) -> Readout:
        """The numbers the tracker shows of `name` beyond its own fields (see `Readout`)."""
        return fighter_readout(self, name)

    def to_dict(self) -> dict:
        return {
            "combatants": [c.to_dict() for c in self.combatants],
            "initiative": [[e.name, e.basic_speed, e.dx, list(e.tie_roll)] for e in self.initiative],
            "round": self.round, "active": self.active, "over": self.over,
            "pending": None if self.pending is None else {
                "attacker": self.pending.attacker, "target": self.pending.target, "weapon": self.pending.weapon,
                "damage": self.pending.damage, "strong_adds": self.pending.strong_adds,
                "incoming": {k: getattr(self.pending.incoming, k) for k in dfn.Incoming.__dataclass_fields__},
                "tried": list(self.pending.tried), "half_damage": self.pending.half_damage,
                "hearing": self.pending.hearing,
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CombatState:
        """Inverse of `to_dict` (campaign snapshots)."""
        p = data.get("pending")
        pending = None if p is None else PendingAttack(
            p["attacker"], p["target"], p["weapon"], p["damage"], p["strong_adds"], dfn.Incoming(**p["incoming"]),
            tuple(p["tried"]), p["half_damage"], p.get("hearing", ""))
        return cls(
            combatants=tuple(Combatant.from_dict(c) for c in data["combatants"]),
            initiative=tuple(InitiativeEntry(n, s, d, tuple(r)) for n, s, d, r in data["initiative"]),
            round=data["round"], active=data["active"], pending=pending, over=data["over"],
        )


_FAST_COPY: dict[type, frozenset[str]] = {
    cls: frozenset(cls.__dataclass_fields__) for cls in (Combatant, CombatState, PendingAttack)
}


def maneuver_rules(name: str) -> dict:
    table = atk.combat_tables()["maneuvers"]
    if name not in table or name.startswith("_"):
        names = [n for n in table if not n.startswith("_")]
        close = get_close_matches(name, names, n=3)
        hint = (t("gurps.err.did_you_mean", names=", ".join(close)) if close
                else t("gurps.err.choose", choices=", ".join(names)))
        raise UsageError(t("combat.err.maneuver", name=name, hint=hint))
    return table[name]


MANEUVERS = vocabulary.keys("maneuvers")


def move_allowed(c: Combatant) -> int:
    """Metres this turn under the current maneuver: none 0, step 1, half Move (forward for AoA), full
    (GURPS-CMB-08, 18, 19, 20)."""
    limit = maneuver_rules(c.maneuver)["move"]
    if c.maneuver == "all_out_defense" and c.option == "dodge":
        limit = "half"
    return {"none": 0, "step": min(1, c.move), "half": c.move // 2, "full": c.move}[limit]


def defenses_allowed(c: Combatant) -> tuple[str, ...]:
    """Active defenses the maneuver leaves until the next turn (GURPS-CMB-05, 18, 19, 50)."""
    allowed = tuple(maneuver_rules(c.maneuver)["defenses"])
    have = {"dodge": True, "parry": c.parry is not None, "block": c.block is not None}
    return tuple(k for k in allowed if have[k])


# ---------------------------------------------------------------- initiative (CMB-02, CMB-03)


def initiative_order(combatants: Sequence[Combatant], dice: Tape) -> tuple[tuple[Combatant, ...],
                                                                           tuple[InitiativeEntry, ...]]:
    """Highest Basic Speed first. Ties: same-side NPCs keep the GM's (given) order; otherwise higher
    DX first, then a 3d roll each (higher first), then the given order. Fixed for the fight."""
    groups: dict[float, list[tuple[int, Combatant]]] = {}
    for i, c in enumerate(combatants):
        groups.setdefault(c.basic_speed, []).append((i, c))
    order: list[tuple[Combatant, tuple[int, ...]]] = []
    for speed in sorted(groups, reverse=True):
        group = groups[speed]
        npc_same_side = all(not c.pc for _, c in group) and len({c.side for _, c in group}) == 1
        if len(group) == 1 or npc_same_side:
            order.extend((c, ()) for _, c in group)
            continue
        by_dx: dict[int, list[tuple[int, Combatant]]] = {}
        for i, c in group:
            by_dx.setdefault(c.dx, []).append((i, c))
        for dx in sorted(by_dx, reverse=True):
            tied = by_dx[dx]
            if len(tied) == 1:
                order.append((tied[0][1], ()))
                continue
            rolled = [(i, c, dice.roll3()) for i, c in tied]
            rolled.sort(key=lambda t: (-sum(t[2]), t[0]))
            order.extend((c, faces) for _, c, faces in rolled)
    ordered = tuple(c for c, _ in order)
    entries = tuple(InitiativeEntry(c.name, c.basic_speed, c.dx, faces) for c, faces in order)
    return ordered, entries


def fresh_for_fight(c: Combatant) -> Combatant:
    """Someone joining a new fight: on Do Nothing until his first turn (GURPS-CMB-05), with nothing
    carried over from an earlier fight (shock, feints, Aim, defenses used); HP, FP and conditions stay."""
    return copy_with(c, maneuver="do_nothing", chosen=False, rolled=False, shock=0, shock_round=0, feint_on="",
                     feint_amount=0, feint_round=0, aim_target="", aim_turns=0, parry_used=False, block_used=False)


def start_combat(combatants: Sequence[Combatant], dice: Tape) -> CombatState:
    """Order the fighters; everyone is on Do Nothing until his first turn (GURPS-CMB-05)."""
    if not combatants:
        raise UsageError(t("combat.err.no_combatants"))
    keys = [match_key(c.name) for c in combatants]
    dupes = sorted({c.name for c, key in zip(combatants, keys, strict=True) if keys.count(key) > 1})
    if dupes:
        raise UsageError(t("combat.err.same_name", name=dupes[0]))
    ordered, entries = initiative_order(combatants, dice)
    state = CombatState(combatants=ordered, initiative=entries)
    return _begin_turn(state)


# ---------------------------------------------------------------- turns (CMB-01, 05, INJ-05, INJ-08)


@dataclass(frozen=True)
class TurnReport:
    ended: str
    stun_recovery: SuccessRoll | None
    expired: tuple[str, ...]
    skipped: tuple[str, ...]
    started: str
    round: int
    due: tuple[str, ...]


def _begin_turn(state: CombatState) -> CombatState:
    c = state.current
    c = copy_with(c, parry_used=False, block_used=False, maneuver="do_nothing", option="", chosen=False,
                maneuver_target="", attacks_left=0, consciousness_checked=False)
    return state.put(c)


def checks_due(c: Combatant) -> tuple[str, ...]:
    """What the active fighter must roll before acting: stay conscious at HP <= 0 (GURPS-INJ-02),
    Will to act at FP <= 0 (GURPS-FAT-02), forced Do Nothing when stunned (GURPS-INJ-08)."""
    due = []
    if c.stunned:
        due.append("stunned")
    if c.hp <= 0 and c.can_act and not c.consciousness_checked:
        due.append("consciousness")
    if c.fp <= 0 and c.can_act:
        due.append("will")
    return tuple(due)


def next_turn(state: CombatState, dice: Tape) -> tuple[CombatState, TurnReport]:
    """End the active fighter's turn (stun recovery roll, shock and feint expire) and start the next
    one's; fighters who cannot act are passed over (the second still passes for them)."""
    _require_fight(state)
    if state.pending is not None:
        raise RuleError(t("combat.err.unanswered", target=state.pending.target, attacker=state.pending.attacker))
    c = state.current
    recovery = None
    expired: list[str] = []
    if c.stunned and not (c.dead or c.destroyed or c.unconscious):
        recovery = inj.stun_recovery(c.ht, dice.roll3())
        if recovery.success:
            c = copy_with(c, stunned=False)
            expired.append("stunned")
    if c.shock and c.shock_round <= state.round:
        c = copy_with(c, shock=0, shock_round=0)
        expired.append("shock")
    if c.feint_amount and c.feint_round <= state.round:
        c = copy_with(c, feint_on="", feint_amount=0, feint_round=0)
        expired.append("feint")
    if c.maneuver != "aim":
        c = copy_with(c, aim_target="", aim_turns=0)
    state = state.put(c)
    ended = c.name
    skipped = []
    active, round_ = state.active, state.round
    for _ in range(len(state.combatants)):
        active += 1
        if active >= len(state.combatants):
            active, round_ = 0, round_ + 1
        if state.combatants[active].can_act:
            break
        skipped.append(state.combatants[active].name)
    state = _begin_turn(copy_with(state, active=active, round=round_))
    report = TurnReport(ended, recovery, tuple(expired), tuple(skipped), state.current.name, state.round,
                        checks_due(state.current))
    return state, report


def _require_fight(state: CombatState) -> None:
    if not state.combatants or state.over:
        raise RuleError(t("combat.err.no_fight"))


# ---------------------------------------------------------------- maneuvers (CMB-04..24)


@dataclass(frozen=True)
class ManeuverReport:
    name: str
    maneuver: str
    option: str
    target: str
    checks: tuple[SuccessRoll, ...]
    outcome: str  # "ok" | "unconscious" | "collapsed" | "forced_do_nothing"
    posture: str = ""
    feint: FeintReport | None = None


def choose_maneuver(
    state: CombatState, name: str, maneuver: str, dice: Tape, *, option: str = "", target: str = "",
    posture: str = "", resist: int | None = None, concentrate_on: str = "", weapon: str = "",
) -> tuple[CombatState, ManeuverReport]:
    """The active fighter picks this turn's maneuver (GURPS-CMB-04). At HP <= 0 anything but Do Nothing
    needs an HT roll first (GURPS-INJ-02); at FP <= 0 a Will roll (GURPS-FAT-02); stunned fighters
    must Do Nothing (GURPS-INJ-08)."""
    _require_fight(state)
    rules = maneuver_rules(maneuver)
    c = state.get(name)
    if state.current.name != c.name:
        raise RuleError(t("combat.err.not_turn", current=state.current.name, name=c.name))
    if not c.can_act:
        raise RuleError(t("combat.err.cannot_act", name=c.name,
                                states=badges(c.badges()) or t("combat.err.incapacitated")))
    if c.chosen:
        raise RuleError(t("combat.err.already_chose", name=c.name, maneuver=word(c.maneuver)))
    options = rules.get("options", [])
    if options and option not in options:
        raise UsageError(t("combat.err.option_needed", maneuver=word(maneuver), options=", ".join(options)))
    if not options and option:
        raise UsageError(t("combat.err.no_option", maneuver=word(maneuver), option=option))
    if maneuver in ("feint", "aim") or (maneuver == "all_out_attack" and option == "feint"):
        if not target:
            raise UsageError(t("combat.err.target_needed", maneuver=word(maneuver), name=c.name, key=maneuver))
        state.get(target)
    if maneuver == "change_posture":
        if not posture:
            raise UsageError(t("combat.err.posture_needed"))
        if not atk.posture_change_allowed(c.posture, posture):
            raise RuleError(t("combat.err.rise_first", name=c.name, posture=word(c.posture)))
        if posture == c.posture:
            raise RuleError(t("combat.err.already_posture", name=c.name, posture=word(posture)))
    if maneuver in ("all_out_attack", "move_and_attack") and atk.is_lying(c.posture):
        raise RuleError(t("combat.err.lying", name=c.name, maneuver=word(maneuver, spaced=True)))
    checks: list[SuccessRoll] = []
    if c.stunned and maneuver != "do_nothing":
        raise RuleError(t("combat.err.stunned", name=c.name))
    outcome = "ok"
    if maneuver != "do_nothing":
        if c.hp <= 0 and not c.consciousness_checked:
            roll = inj.consciousness_check(c.ht, c.hp, c.hp_max, dice.roll3())
            checks.append(roll)
            c = copy_with(c, consciousness_checked=True)
            if not roll.success:
                c = copy_with(c, unconscious=True, posture="lying_down", concentrating="")
                outcome = "unconscious"
        if outcome == "ok" and c.fp <= 0:
            roll = fat.will_to_act(c.will, dice.roll3())
            checks.append(roll)
            if not roll.success:
                c = copy_with(c, collapsed=True, posture="lying_down", concentrating="")
                outcome = "collapsed"
    if outcome != "ok":
        return state.put(c), ManeuverReport(c.name, "do_nothing", "", "", tuple(checks), outcome)
    aim_turns = c.aim_turns + 1 if maneuver == "aim" and c.aim_target == target else (1 if maneuver == "aim" else 0)
    c = copy_with(
        c, maneuver=maneuver, option=option, chosen=True, maneuver_target=target,
        attacks_left=rules["attacks"] * (2 if option == "double" and maneuver == "all_out_attack" else 1),
        aim_target=target if maneuver == "aim" else c.aim_target,
        aim_turns=aim_turns if maneuver == "aim" else c.aim_turns,
        concentrating=(concentrate_on or "task") if maneuver == "concentrate" else c.concentrating,
    )
    if maneuver == "change_posture":
        c = copy_with(c, posture=posture)
    state = state.put(c)
    feint = None
    if maneuver == "feint" or (maneuver == "all_out_attack" and option == "feint"):
        state, feint = _feint(state, c.name, target, dice, resist=resist, weapon=weapon,
                              same_turn=maneuver == "all_out_attack")
    return state, ManeuverReport(c.name, maneuver, option, target, tuple(checks), outcome,
                                 posture if maneuver == "change_posture" else "", feint)


def is_free_posture_change(before: str, after: str) -> bool:
    """Free with another maneuver: crouch / rise from a crouch at the start of the turn, and standing
    <-> kneeling as the maneuver's step (GURPS-CMB-06, CMB-10); any other change is the Change Posture
    maneuver."""
    return {before, after} in ({"standing", "crouching"}, {"standing", "kneeling"})


def free_posture(state: CombatState, name: str, posture: str) -> CombatState:
    """A free posture change (see `is_free_posture_change`); refused otherwise."""
    c = state.get(name)
    if is_free_posture_change(c.posture, posture):
        return state.put(copy_with(c, posture=posture))
    raise RuleError(t("combat.err.posture_maneuver", before=word(c.posture), after=word(posture)))


# ---------------------------------------------------------------- feint (CMB-21, CMB-22)


@dataclass(frozen=True)
class FeintReport:
    attacker: str
    target: str
    mine: SuccessRoll
    theirs: SuccessRoll
    penalty: int


def feint_penalty(mine: SuccessRoll, theirs: SuccessRoll) -> int:
    """I fail, or he succeeds by as much or more: 0. I succeed and he fails: my margin of success.
    Both succeed, I by more: the difference (GURPS-CMB-22)."""
    if not mine.success:
        return 0
    if not theirs.success:
        return mine.margin_of_success
    return max(0, mine.margin_of_success - theirs.margin_of_success)


def _feint(state: CombatState, name: str, target: str, dice: Tape, *, resist: int | None, weapon: str,
           same_turn: bool) -> tuple[CombatState, FeintReport]:
    c, foe = state.get(name), state.get(target)
    melee = [w for w in c.weapons if not w.ranged]
    if not melee:
        raise RuleError(t("combat.err.feint_weapon", name=c.name))
    w = c.weapon(weapon) if weapon else max(melee, key=lambda w: w.skill)
    shock = [(-c.shock, "shock")] if c.shock and c.shock_round == state.round else []
    mine = success_roll(w.skill, shock, label=f"Feint ({w.name})", actor=c.name, dice=dice.roll3(), defense=True)
    if resist is None:
        resist = max([foe.dx, *(x.skill for x in foe.weapons if not x.ranged), *([foe.shield] if foe.shield else [])])
    theirs = success_roll(resist, (), label="resist feint", actor=foe.name, dice=dice.roll3(), defense=True)
    penalty = feint_penalty(mine, theirs)
    next_round = state.round if same_turn else state.round + 1
    c = copy_with(c, feint_on=foe.name if penalty else "", feint_amount=penalty,
                  feint_round=next_round if penalty else 0)
    return state.put(c), FeintReport(c.name, foe.name, mine, theirs, penalty)


# ---------------------------------------------------------------- attacks (CMB-25..39)


@dataclass(frozen=True)
class AttackOptions:
    """What the GM says about one attack beyond the maneuver (GURPS-CMB-33..39, 52)."""

    range_m: float = 0
    speed_mps: float = 0
    target_size_m: float | None = None
    braced: bool = False
    scope: int = 0
    off_hand: bool = False
    from_behind: bool = False
    unseen: bool = False
    bad_footing: int = 0
    vision: str = ""
    poor_light: int = 0
    large_shield: bool = False
    beyond_half_damage: bool = False
    extra: tuple[tuple[int, str], ...] = ()
    damage: str = ""  # override the weapon's damage text


@dataclass(frozen=True)
class AttackReport:
    attack: atk.AttackRoll | None
    offered: tuple[tuple[str, int], ...]  # defenses the target may roll, with effective values
    no_defense_reason: str
    damage: DamageReport | None
    checks: tuple[SuccessRoll, ...] = ()  # rolls before attacking (stay conscious, Will to act)
    hearing_needed: bool = False  # unseen attacker: Parry/Block need a Hearing-2 roll first (GURPS-CMB-51)


ATTACK_MANEUVERS = ("attack", "all_out_attack", "move_and_attack", "wait")


def attack(state: CombatState, attacker: str, target: str, weapon: str, dice: Tape,
           opts: AttackOptions = AttackOptions()) -> tuple[CombatState, AttackReport]:
    """Roll to hit; a critical hit, or a target who cannot defend, takes damage at once; otherwise the
    hit waits for the target's defense (GURPS-CMB-25..28, 40, 41)."""
    _require_fight(state)
    if state.pending is not None:
        raise RuleError(t("combat.err.answer_first", target=state.pending.target))
    a, victim = state.get(attacker), state.get(target)
    if a.name == victim.name:
        raise UsageError(t("combat.err.self_attack", name=a.name))
    if not a.can_act:
        raise RuleError(t("combat.err.cannot_act", name=a.name, states=badges(a.badges())))
    w = a.weapon(weapon)
    if state.current.name != a.name and a.maneuver != "wait":
        raise RuleError(t("combat.err.out_of_turn", current=state.current.name, name=a.name))
    pre_checks: tuple[SuccessRoll, ...] = ()
    if not a.chosen and state.current.name == a.name:
        state, pre = choose_maneuver(state, a.name, "attack", dice)
        pre_checks = pre.checks
        a = state.get(attacker)
        if pre.outcome != "ok":  # fell unconscious / collapsed on the roll before acting: logged, no attack
            return state, AttackReport(None, (), f"{a.name}: {pre.outcome}", None, pre.checks)
    if a.maneuver not in ATTACK_MANEUVERS:
        raise RuleError(t("combat.err.no_attack_maneuver", name=a.name, maneuver=word(a.maneuver, spaced=True)))
    if a.attacks_left <= 0:
        raise RuleError(t("combat.err.no_attack_left", name=a.name))
    situation = atk.Situation(
        maneuver=a.maneuver, aoa_option=a.option, posture=a.posture,
        shock=a.shock if a.shock_round == state.round else 0, off_hand=opts.off_hand,
        ambidextrous=a.ambidextrous, bad_footing=opts.bad_footing, vision=opts.vision,
        poor_light=opts.poor_light, extra=opts.extra,
    )
    if w.ranged:
        aim = a.aim_turns if a.aim_target == victim.name else 0
        mods = atk.ranged_modifiers(situation, range_m=opts.range_m, speed_mps=opts.speed_mps,
                                    target_size_m=opts.target_size_m, target_posture=victim.posture, acc=w.acc,
                                    aim_turns=aim, braced=opts.braced, scope=opts.scope)
    else:
        mods = atk.melee_modifiers(situation, large_shield=opts.large_shield)
    if a.maneuver == "all_out_attack" and a.option == "double" and a.attacks_left == 1 and not a.ambidextrous:
        mods = (*mods, (-4, "second attack, off hand"))
    roll = atk.attack_roll(a.name, victim.name, w.name, w.skill, mods, dice.roll3(), ranged=w.ranged,
                           move_and_attack=a.maneuver == "move_and_attack")
    a = copy_with(a, attacks_left=a.attacks_left - 1, rolled=True, aim_target="", aim_turns=0)
    state = state.put(a)
    if not roll.hit:
        return state, AttackReport(roll, (), "", None, pre_checks)
    strong = 0
    spec_text = opts.damage or w.damage
    if a.maneuver == "all_out_attack" and a.option == "strong":
        spec = parse_damage(spec_text, st=a.st)
        strong = max(2, spec.dice)
    incoming = dfn.Incoming(
        kind=w.kind if w.ranged else "melee", critical=roll.critical_hit, from_behind=opts.from_behind,
        flail=w.flail, thrown_weight_kg=w.weight_kg, unseen=opts.unseen, unarmed=w.parry_weapon == "bare_hands",
    )
    pending = PendingAttack(a.name, victim.name, w.name, spec_text, strong, incoming,
                            half_damage=opts.beyond_half_damage)
    offered = defense_options(state, victim.name, incoming, attacker=a.name)
    if not offered:
        reason = _no_defense_reason(state, victim, incoming)
        state, dmg = _hit(state, pending, dice)
        return state, AttackReport(roll, (), reason, dmg, pre_checks)
    needs_hearing = incoming.unseen and any(k in ("parry", "block") for k, _ in offered)
    return copy_with(state, pending=pending), AttackReport(roll, offered, "", None, pre_checks, needs_hearing)


def _defender_state(state: CombatState, c: Combatant, incoming: dfn.Incoming, attacker: str,
                    weapon: Weapon | None = None) -> dfn.DefenderState:
    a = state.get(attacker) if attacker else None
    feint = a.feint_amount if a is not None and a.feint_on == c.name and a.feint_round == state.round else 0
    weapon = weapon or c.best_parry_weapon()
    return dfn.DefenderState(
        maneuver=c.maneuver, aod_option=c.option if c.maneuver == "all_out_defense" else "",
        posture=c.posture, stunned=c.stunned, shield_db=c.shield_db if c.shield is not None else 0,
        feint_penalty=feint, parry_used=c.parry_used, block_used=c.block_used,
        can_parry=c.parry is not None, can_block=c.block is not None,
        parry_weapon=weapon.parry_weapon if weapon else "", conscious=c.can_act,
    )


def _scores(c: Combatant) -> dict[str, int]:
    scores = {"dodge": c.dodge}
    if c.parry is not None:
        scores["parry"] = c.parry
    if c.block is not None:
        scores["block"] = c.block
    return scores


def defense_options(state: CombatState, name: str, incoming: dfn.Incoming, *, attacker: str = "",
                    tried: Sequence[str] = (), unheard: bool = False) -> tuple[tuple[str, int], ...]:
    """Allowed defenses with effective values, best first (the tracker offers the first). `unheard`:
    the defender failed the Hearing-2 roll against an unseen attacker, so no Parry or Block (CMB-51)."""
    if unheard:
        tried = (*tried, "parry", "block")
    c = state.get(name)
    if not c.can_act:
        return ()
    who = _defender_state(state, c, incoming, attacker)
    out = []
    for kind, score in _scores(c).items():
        if kind in tried or kind not in maneuver_rules(c.maneuver)["defenses"]:
            continue
        if dfn.why_not(kind, who, incoming):
            continue
        out.append((kind, score + sum(v for v, _ in dfn.defense_modifiers(kind, who, incoming))))
    out.sort(key=lambda kv: (-kv[1], dfn.DEFENSES.index(kv[0])))
    return tuple(out)


PLAIN_MELEE = dfn.Incoming()  # an ordinary armed melee attack from the front


@dataclass(frozen=True)
class Readout:
    """A combatant's numbers of the moment: Move under the maneuver (GURPS-CMB-08..20), the active
    defenses it leaves (GURPS-CMB-05), and for each (kind, usual, now, modifiers now) as %defend
    rolls it (see `effective_defenses`)."""

    move: int
    defenses: tuple[str, ...]
    defense_values: tuple[tuple[str, int, int, tuple[tuple[int, str], ...]], ...]


def fighter_readout(state: CombatState, name: str) -> Readout:
    c = state.get(name)
    allowed = defenses_allowed(c)
    effective = effective_defenses(state, c.name)
    values = tuple((k, *effective[k]) for k in ("dodge", "parry", "block") if k in allowed and k in effective)
    return Readout(move_allowed(c), allowed, values)


def effective_defenses(state: CombatState, name: str) -> dict[str, tuple[int, int, tuple[tuple[int, str], ...]]]:
    """Each defense as (usual, now, modifiers now). `usual`: standing, not stunned, no maneuver bonus,
    against an ordinary armed melee attack from the front - the score plus shield DB and the parrying
    weapon's own modifier. `now`: what the next defense roll uses - also All-Out Defense, posture
    (GURPS-CMB-11), stun −4 (GURPS-CMB-43, INJ-08), and the pending attack's modifiers (feint, unseen,
    flail) when the attack is on `name`. For the tracker, so its numbers are those %defend rolls."""
    c = state.get(name)
    p = state.pending
    incoming, attacker = (p.incoming, p.attacker) if p is not None and p.target == c.name else (PLAIN_MELEE, "")
    who = _defender_state(state, c, incoming, attacker)
    usual_who = dataclasses.replace(_defender_state(state, c, PLAIN_MELEE, ""), maneuver="do_nothing",
                                    aod_option="", posture="standing", stunned=False)
    out = {}
    for kind, base in _scores(c).items():
        mods = dfn.defense_modifiers(kind, who, incoming)
        usual = base + sum(v for v, _ in dfn.defense_modifiers(kind, usual_who, PLAIN_MELEE))
        out[kind] = (usual, base + sum(v for v, _ in mods), mods)
    return out


def _no_defense_reason(state: CombatState, c: Combatant, incoming: dfn.Incoming) -> str:
    if not c.can_act:
        why = next(b for b in ("destroyed", "dead", "unconscious", "collapsed", "mortal", "stunned")
                   if b == "stunned" or getattr(c, b, False))
        return f"{c.name} cannot defend ({why}) (GURPS-CMB-41)"
    who = _defender_state(state, c, incoming, "")
    for kind in dfn.DEFENSES:
        reason = dfn.why_not(kind, who, incoming)
        if reason:
            return reason
    return "no defense available"


@dataclass(frozen=True)
class DefenseReport:
    defender: str
    kind: str
    roll: SuccessRoll | None
    checks: tuple[SuccessRoll, ...]
    again: tuple[tuple[str, int], ...]  # All-Out Defense (Double), or Dodge after an unheard attacker
    damage: DamageReport | None
    unheard: bool = False  # failed the Hearing-2 roll against an unseen attacker (GURPS-CMB-51)


def hearing_check(c: Combatant, dice: Tape) -> SuccessRoll:
    """Hearing-2 before parrying or blocking an unseen attacker (GURPS-CMB-51, seed [004:1564]); not
    rolled (a failure) below effective 3 (GURPS-SR-05)."""
    faces = dice.roll3() if c.hearing - 2 >= 3 else None
    return success_roll(c.hearing, [(-2, "unseen attacker")], label="Hearing", actor=c.name, dice=faces,
                        kind="sense")


def defend(state: CombatState, defender: str, kind: str, dice: Tape) -> tuple[CombatState, DefenseReport]:
    """Answer the pending attack with dodge, parry, block or none (GURPS-CMB-40..52). A failure lets
    All-Out Defense (Double) try a different defense; otherwise damage follows at once."""
    _require_fight(state)
    p = state.pending
    if p is None:
        raise RuleError(t("combat.err.no_pending"))
    c = state.get(defender)
    if c.name != p.target:
        raise RuleError(t("combat.err.pending_on", target=p.target, name=c.name))
    if kind == "none":
        state = copy_with(state, pending=None)
        state, dmg = _hit(state, p, dice)
        return state, DefenseReport(c.name, "none", None, (), (), dmg)
    checks: list[SuccessRoll] = []
    if c.hp <= 0 and not c.consciousness_checked:
        roll = inj.consciousness_check(c.ht, c.hp, c.hp_max, dice.roll3())
        checks.append(roll)
        c = copy_with(c, consciousness_checked=True)
        if not roll.success:
            c = copy_with(c, unconscious=True, posture="lying_down", concentrating="")
            state = copy_with(state.put(c), pending=None)
            state, dmg = _hit(state, p, dice)
            return state, DefenseReport(c.name, kind, None, tuple(checks), (), dmg)
    if kind not in maneuver_rules(c.maneuver)["defenses"]:
        raise RuleError(t("combat.err.defense_not_allowed", name=c.name, maneuver=word(c.maneuver, spaced=True),
                                        kind=word(kind)))
    if kind in p.tried:
        raise RuleError(t("combat.err.already_tried", name=c.name, kind=word(kind)))
    if kind not in _scores(c):
        raise RuleError(t("combat.err.no_defense_kind", name=c.name, kind=word(kind)))
    if kind in ("parry", "block") and p.incoming.unseen:
        if p.hearing == "unheard":
            raise RuleError(t("combat.err.unheard", name=c.name))
        if p.hearing == "":
            heard = hearing_check(c, dice)
            checks.append(heard)
            p = copy_with(p, hearing="heard" if heard.success else "unheard")
            state = copy_with(state, pending=p)
            if not heard.success:
                state = state.put(c)
                again = defense_options(state, c.name, p.incoming, attacker=p.attacker, tried=p.tried, unheard=True)
                if again:
                    return state, DefenseReport(c.name, kind, None, tuple(checks), again, None, unheard=True)
                state = copy_with(state, pending=None)
                state, dmg = _hit(state, p, dice)
                return state, DefenseReport(c.name, kind, None, tuple(checks), (), dmg, unheard=True)
    who = _defender_state(state, c, p.incoming, p.attacker)
    result = dfn.defense_roll(c.name, kind, _scores(c)[kind], who, p.incoming, dice.roll3())
    c = copy_with(c, rolled=True, parry_used=c.parry_used or kind == "parry",
                  block_used=c.block_used or kind == "block")
    if c.concentrating:
        will = success_roll(c.will, [(-3, "distracted")], label="keep concentrating", actor=c.name,
                            dice=dice.roll3(), defense=True)
        checks.append(will)
        if not will.success:
            c = copy_with(c, concentrating="")
    state = state.put(c)
    if result.success:
        return copy_with(state, pending=None), DefenseReport(c.name, kind, result.roll, tuple(checks), (), None)
    tried = (*p.tried, kind)
    if c.maneuver == "all_out_defense" and c.option == "double" and len(tried) == 1:
        again = defense_options(state, c.name, p.incoming, attacker=p.attacker, tried=tried)
        if again:
            state = copy_with(state, pending=copy_with(p, tried=tried))
            return state, DefenseReport(c.name, kind, result.roll, tuple(checks), again, None)
    state = copy_with(state, pending=None)
    state, dmg = _hit(state, p, dice)
    return state, DefenseReport(c.name, kind, result.roll, tuple(checks), (), dmg)


# ---------------------------------------------------------------- damage and injury (DMG, INJ)


@dataclass(frozen=True)
class InjuryReport:
    """Everything one injury did (GURPS-INJ-01..09): HP before/after, shock, major wound and its
    knockdown roll, death checks, and the states reached."""

    name: str
    injury: int
    hp_before: int
    hp_after: int
    shock: int
    major_wound: bool
    knockdown: inj.KnockdownResult | None
    death_checks: tuple[inj.DeathCheck, ...]
    concentration: SuccessRoll | None
    became: tuple[str, ...]


@dataclass(frozen=True)
class DamageReport:
    damage: DamageRoll
    injury: InjuryReport


def _hit(state: CombatState, p: PendingAttack, dice: Tape) -> tuple[CombatState, DamageReport]:
    a, victim = state.get(p.attacker), state.get(p.target)
    spec = parse_damage(p.damage, st=a.st)
    if p.strong_adds:
        spec = copy_with(spec, adds=spec.adds + p.strong_adds)
    return damage(state, victim.name, spec, dice, attacker=a.name, half=p.half_damage)


def damage(state: CombatState, target: str, spec: DamageSpec | str, dice: Tape, *, attacker: str = "",
           half: bool = False, dr: int | None = None) -> tuple[CombatState, DamageReport]:
    """Roll damage against the target's DR and apply the injury (GURPS-DMG-04..08)."""
    victim = state.get(target)
    if isinstance(spec, str):
        spec = parse_damage(spec, st=state.get(attacker).st if attacker else None)
    roll = roll_damage(spec, dr=victim.dr if dr is None else dr, dice=dice.d6(spec.dice), target=victim.name,
                       attacker=attacker, half=half)
    state, report = apply_injury(state, victim.name, roll.injury, dice)
    return state, DamageReport(roll, report)


def shock_round_for(state: CombatState, victim_index: int) -> int:
    """The round of the victim's next turn: shock applies then and expires when it ends (GURPS-INJ-05)."""
    return state.round if victim_index > state.active else state.round + 1


def apply_injury(state: CombatState, name: str, injury: int, dice: Tape) -> tuple[CombatState, InjuryReport]:
    """Apply injury and every consequence, rolling what the rules ask for, in order: shock (next turn,
    cap 4, none with HPT); major wound (> HP/2) -> knockdown/stun HT roll; a death check at each
    -k x HP line crossed; -5 x HP dead, -10 x HP destroyed; concentration Will-3 (GURPS-CMB-23)."""
    if injury < 0:
        raise UsageError(t("combat.err.injury", injury=injury))
    i = state.index(name)
    c = state.combatants[i]
    before = c.hp
    after = before - injury
    became: list[str] = []
    shock = 0
    knock = None
    deaths: list[inj.DeathCheck] = []
    will = None
    c = copy_with(c, hp=after)
    if injury > 0:
        shock = inj.shock_penalty(injury, high_pain_threshold=c.high_pain_threshold)
        if shock:
            target_round = shock_round_for(state, i)
            total = c.shock + shock if c.shock_round == target_round else shock
            c = copy_with(c, shock=min(4, total), shock_round=target_round)
        if c.hp <= 0 < before:
            c = copy_with(c, consciousness_checked=False)
        alive = not (c.dead or c.destroyed)
        if alive and inj.is_major_wound(injury, c.hp_max) and not c.unconscious:
            knock = inj.knockdown_check(c.ht, dice.roll3(), high_pain_threshold=c.high_pain_threshold)
            if knock.outcome == "stunned":
                c = copy_with(c, stunned=True, posture="lying_down")
                became += ["stunned", "knocked down"]
            elif knock.outcome == "unconscious":
                c = copy_with(c, unconscious=True, posture="lying_down")
                became += ["knocked down", "unconscious"]
        if after <= -10 * c.hp_max and not c.destroyed:
            c = copy_with(c, dead=True, destroyed=True, unconscious=False)
            became.append("destroyed")
        elif after <= -5 * c.hp_max and not c.dead:
            c = copy_with(c, dead=True)
            became.append("dead")
        elif alive:
            for line in inj.death_checks_due(before, after, c.hp_max):
                if line <= c.death_line:
                    continue
                check = inj.death_check(c.ht, dice.roll3(), line=line, hard_to_kill=c.hard_to_kill,
                                        mortally_wounded=c.mortal)
                deaths.append(check)
                c = copy_with(c, death_line=line)
                if check.outcome == "dead":
                    c = copy_with(c, dead=True)
                    became.append("dead")
                    break
                if check.outcome == "mortal":
                    c = copy_with(c, mortal=True)
                    became.append("mortally wounded")
                if check.saved_by_hard_to_kill:
                    c = copy_with(c, unconscious=True, posture="lying_down")
                    became.append("unconscious")
        if c.concentrating and not (c.dead or c.unconscious):
            will = success_roll(c.will, [(-3, "injured")], label="keep concentrating", actor=c.name,
                                dice=dice.roll3(), defense=True)
            if not will.success:
                c = copy_with(c, concentrating="")
                became.append("lost concentration")
        if c.dead or c.unconscious or c.mortal:
            c = copy_with(c, concentrating="", posture="lying_down" if not c.destroyed else c.posture)
        if c.reeling and not inj.is_reeling(before, c.hp_max) and c.hp > 0:
            became.insert(0, "reeling")
    state = copy_with(state, combatants=(*state.combatants[:i], c, *state.combatants[i + 1:]))
    return state, InjuryReport(c.name, injury, before, after, shock, inj.is_major_wound(injury, c.hp_max),
                               knock, tuple(deaths), will, tuple(became))


# ---------------------------------------------------------------- fatigue, healing, GM fixes


def _tire(c: Combatant, amount: int) -> tuple[Combatant, fat.FatigueLoss]:
    """Lose FP; below 0 each costs 1 HP too; at -FP unconscious (GURPS-FAT-02, 03)."""
    loss = fat.lose_fp(c.fp, c.fp_max, amount)
    c = copy_with(c, fp=loss.fp_after, hp=c.hp - loss.hp_loss)
    if c.fp <= -c.fp_max:
        c = copy_with(c, unconscious=True)
    return c, loss


def spend_fp(state: CombatState, name: str, amount: int) -> tuple[CombatState, fat.FatigueLoss]:
    """Lose FP in the fight (spells, exertion, hazards); someone who passes out falls (GURPS-FAT-02, 03)."""
    c, loss = _tire(state.get(name), amount)
    if c.fp <= -c.fp_max:
        c = copy_with(c, posture="lying_down")
    return state.put(c), loss


def suffer(c: Combatant, hp: int = 0, fp: int = 0) -> Combatant:
    """Injury and FP lost outside a fight (hazards, spells): HP off, then FP with their HP cost and
    unconsciousness at -FP (GURPS-FAT-02, 03)."""
    c, _ = _tire(copy_with(c, hp=c.hp - hp), fp)
    return c


def heal(state: CombatState, name: str, hp: int = 0, fp: int = 0) -> CombatState:
    """GM correction / healing: HP and FP up to max; waking from FP unconsciousness when FP > 0."""
    c = state.get(name)
    c = copy_with(c, hp=min(c.hp_max, c.hp + hp), fp=min(c.fp_max, c.fp + fp))
    if c.collapsed and c.fp > 0:
        c = copy_with(c, collapsed=False)
    return state.put(c)


def set_status(state: CombatState, name: str, **flags: Any) -> CombatState:
    """GM override of status flags (stunned, unconscious, posture ...), validated by field name."""
    c = state.get(name)
    allowed = {"stunned", "unconscious", "collapsed", "posture", "mortal", "dead", "concentrating", "shock"}
    bad = set(flags) - allowed
    if bad:
        raise UsageError(t("combat.err.set_status", bad=", ".join(sorted(bad)), allowed=", ".join(sorted(allowed))))
    if "posture" in flags:
        atk.posture_row(flags["posture"])
    return state.put(copy_with(c, **flags))


@dataclass(frozen=True)
class EndReport:
    seconds: int
    fatigue: tuple[tuple[str, int], ...]


def end_combat(state: CombatState) -> tuple[CombatState, EndReport]:
    """Close the fight: those who attacked or defended in a fight of 11+ s lose 1 + encumbrance FP
    (GURPS-FAT-04)."""
    _require_fight(state)
    seconds = state.round
    costs = []
    for c in state.combatants:
        cost = fat.combat_fatigue(seconds, c.encumbrance, made_attack_or_defense=c.rolled)
        if cost and not c.dead:
            state, _ = spend_fp(state, c.name, cost)
            costs.append((c.name, cost))
    return copy_with(state, over=True, pending=None), EndReport(seconds, tuple(costs))


def quick_combatant(name: str, stats: Mapping[str, Any], *, pc: bool = False, side: str = "") -> Combatant:
    """A quick NPC from stats (ST, DX, IQ, HT, HP, FP, Will, Per, Hearing, Speed, Move, DR, weapon "Axe:12:sw+2 cut",
    Shield skill, DB): derived values default as on a sheet (GURPS-CH: HP = ST, FP = HT,
    Basic Speed = (DX + HT) / 4, Move = floor(Speed), Will = IQ)."""
    s = {k.lower(): v for k, v in stats.items()}
    known = {"st", "dx", "iq", "ht", "hp", "fp", "will", "per", "hearing", "speed", "move", "dr", "weapon", "weapons",
             "shield", "db", "enc", "hpt", "cr", "htk", "pc", "side"}
    bad = set(s) - known
    if bad:
        key = sorted(bad)[0]
        close = get_close_matches(key, sorted(known), n=2)
        hint = (t("gurps.err.did_you_mean", names=t("gurps.err.or").join(close)) if close
                else t("gurps.err.known", known=", ".join(sorted(known))))
        raise UsageError(t("combat.err.stat", name=name, key=key, hint=hint))
    st, dx, iq, ht = (int(s.get(k, 10)) for k in ("st", "dx", "iq", "ht"))
    speed = float(s.get("speed", (dx + ht) / 4))
    weapons = []
    raw = s.get("weapons", s.get("weapon", ()))
    for text in ([raw] if isinstance(raw, str) else raw):
        weapons.append(text if isinstance(text, Weapon) else parse_weapon(text))
    return Combatant(
        name=name, st=st, dx=dx, iq=iq, ht=ht, hp_max=int(s.get("hp", st)), fp_max=int(s.get("fp", ht)),
        will=int(s.get("will", iq)), hearing=int(s.get("hearing", s.get("per", iq))), basic_speed=speed,
        basic_move=int(s.get("move", int(speed))),
        dr=int(s.get("dr", 0)), encumbrance=int(s.get("enc", 0)), weapons=tuple(weapons),
        shield=int(s["shield"]) if s.get("shield") is not None else None, shield_db=int(s.get("db", 0)),
        high_pain_threshold=bool(s.get("hpt", False)), combat_reflexes=bool(s.get("cr", False)),
        hard_to_kill=int(s.get("htk", 0)), pc=bool(s.get("pc", pc)), side=str(s.get("side") or side or
                                                                              ("pcs" if pc else "foes")),
    )


def parse_weapon(text: str) -> Weapon:
    """"Broadsword:13:sw+1 cut" (melee), "Bow:12:1d+1 imp:ranged:acc=2", "Dagger:12:thr imp:dagger",
    "Punch:12:thr-1 cr:bare_hands", "Morningstar:11:sw+3 cr:flail"."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) < 3:
        raise UsageError(t("combat.err.weapon_format", text=text))
    name, skill_text, dmg, *flags = parts
    try:
        skill = int(skill_text)
    except ValueError:
        raise UsageError(t("combat.err.weapon_skill", text=text, skill=skill_text)) from None
    parse_damage(dmg, st=10)
    w = Weapon(name=name, skill=skill, damage=dmg)
    for flag in flags:
        key, _, value = flag.partition("=")
        if key in ("ranged", "missile", "firearm", "beam", "thrown"):
            w = copy_with(w, ranged=True, kind="missile" if key == "ranged" else key, parry=None)
        elif key == "acc":
            w = copy_with(w, acc=int(value))
        elif key == "flail":
            w = copy_with(w, flail=True)
        elif key in ("dagger", "quarterstaff", "bare_hands"):
            w = copy_with(w, parry_weapon=key)
        elif key == "noparry":
            w = copy_with(w, parry=None)
        elif key == "kg":
            w = copy_with(w, weight_kg=float(value))
        else:
            raise UsageError(t("combat.err.weapon_flag", text=text, flag=key))
    return w



def weapon_from_sheet(sheet_weapon, level: int) -> Weapon:
    """A character sheet's weapon (systems/gurps/weapons.CharacterWeapon) at its effective level, as
    the combat rules use it (parry bonus, ranged/thrown kind, Acc, flail, parry weapon class)."""
    flags = "".join(f":{f}" for f in sheet_weapon.flags)
    w = parse_weapon(f"weapon:{level}:{sheet_weapon.damage}{flags}")
    parry = None if (sheet_weapon.parry is None or w.parry is None) else sheet_weapon.parry
    return copy_with(w, name=sheet_weapon.name, parry=parry)


__all__ = [
    "AttackOptions", "AttackReport", "CombatState", "Combatant", "DamageReport", "DefenseReport", "EndReport",
    "FeintReport", "InitiativeEntry", "InjuryReport", "ManeuverReport", "PendingAttack", "Readout", "Tape",
    "TurnReport", "Weapon", "apply_injury", "attack", "checks_due", "choose_maneuver", "copy_with", "damage",
    "defend", "defense_options", "defenses_allowed", "effective_defenses", "end_combat", "feint_penalty",
    "fighter_readout", "free_posture", "fresh_for_fight", "heal", "initiative_order", "is_free_posture_change",
    "move_allowed", "next_turn", "parse_weapon", "quick_combatant", "set_status", "spend_fp", "start_combat",
    "suffer", "weapon_from_sheet",
]
