"""GURPS combat state: the frozen values a fight is made of (a fighter, the fight, the dice tape)
and the numbers they show (Move and defenses under the current maneuver). [GURPS-CMB, GURPS-INJ]

Why a module of its own: every transition (turns, attacks, injury) builds on these values and
nothing else, and the tracker reads them without rolling a die. The package's __init__ re-exports
every name.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any

from gamekernel.errors import DataError, NotFoundError, UsageError
from gamekernel.gurps.rules import attacks as atk
from gamekernel.gurps.rules import defenses as dfn
from gamekernel.gurps.rules import fatigue as fat
from gamekernel.gurps.rules import injury as inj
from gamekernel.gurps.rules import vocabulary
from gamekernel.gurps.rules.character_parts import encumbered_move
from gamekernel.gurps.rules.weapons import find_weapon
from gamekernel.i18n import t
from gamekernel.text import resolve_name

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
    source = obj.__dict__
    if len(source) == len(names):
        fields.update(source)
    else:  # values cached on the instance (a character's skill index) describe the old one: not copied
        fields.update({key: value for key, value in source.items() if key in names})
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
    st_based: bool = False  # thr/sw damage already worked out from a sheet (All-Out Attack (Strong), CMB-17)
    no_roll: bool = False  # the sheet gives it no attack roll (an aura, an engulf): %attack says so
    effect: str = ""  # a sheet's damage that is no dice ("R-HT-2 or KO"): a hit says it, nothing is rolled
    follow_up: str = ""  # a sheet's bracketed second damage ("[1d burn]"): a hit names it, it is not rolled
    fencing: bool = False  # a GCS "F" parry: the encumbrance level comes off the Parry (`parry_score`) [std]
    reach: str = ""  # the sheet's reach ("C", "1", "C,1", "1-2"); "" = not given, never refused (GURPS-CMB-14)
    usage: str = ""  # the sheet's name of this mode ("Swung", "Bite", "Shield Bash"): the tracker names it so
    uses: str = ""  # the skill it is used with ("Shield", "Brawling"): the tracker groups shields and natural attacks

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


EVALUATE_MOST = 3  # Evaluate: +1 a turn, at most +3 (Basic Set B364 [std])


def gm_conditions_from_list(rows: Any) -> tuple[tuple[str, int], ...]:
    """The GM's conditions as stored (JSON lists) back as the fighter keeps them."""
    return tuple((str(name), int(left)) for name, left in rows)


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
    hearing: int = None  # type: ignore[assignment]  # Hearing roll (Per + Acute Hearing); None = IQ (Per defaults to IQ), set by __post_init__
    # --- what the fight changes
    hp: int = None  # type: ignore[assignment]  # None means full: __post_init__ sets hp_max
    fp: int = None  # type: ignore[assignment]  # None means full: __post_init__ sets fp_max
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
    # Evaluate (Basic Set B364 [std]; not among GURPS Lite's maneuvers, GURPS-CMB-04): the foe studied and
    # the consecutive turns spent (+1 each, at most +3) for the next melee attack or feint on him
    evaluate_target: str = ""
    evaluate_turns: int = 0
    # the GM's own conditions (rules/combat/conditions.py): (name, seconds left; 0 = until lifted)
    gm_conditions: tuple[tuple[str, int], ...] = ()
    concentrating: str = ""
    concentration_injury: int = 0  # injury taken while concentrating, concentration kept (GURPS-MAG-07)
    burning: str = ""  # clothes on fire: "part" | "all" (GURPS-HAZ-11, HAZ-12), until put out
    consciousness_checked: bool = False
    needs_care: bool = False  # failed the 12-hour roll to wake at <= -1 x HP (GURPS-INJ-15)
    rolled: bool = False
    stand_in: bool = False  # quick stats under a character's name: his sheet is never written from it
    last_weapon: str = ""  # the weapon of his last attack: the tracker offers it again (gurps/rules/combat/picks)

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
    def hp_applies(self) -> bool:
        """HP rows apply (max HP 0 is GCS's "N/A", `injury.hp_applies`)."""
        return inj.hp_applies(self.hp_max)

    @property
    def fp_applies(self) -> bool:
        """FP rows apply (max FP 0 is GCS's "N/A", `fatigue.fp_applies`)."""
        return fat.fp_applies(self.fp_max)

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
                               combat_reflexes=self.combat_reflexes,
                               fencing_encumbrance=self.encumbrance if weapon.fencing else 0)

    def best_parry_weapon(self) -> Weapon | None:
        """The weapon with the best Parry as `parry_with` gives it (a fencing weapon's encumbrance
        included, GURPS-CMB-46); the first on the sheet among equals."""
        best: tuple[int, Weapon] | None = None
        for w in self.weapons:
            if w.parry is None or w.ranged:
                continue
            value = self.parry_with(w)
            if value is not None and (best is None or value > best[0]):
                best = (value, w)
        return best[1] if best else None

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
        value = encumbered_move(self.basic_move, self.encumbrance)
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
        if not self.hp_applies:
            pass  # no HP rows (`injury.hp_applies`)
        elif self.hp <= -self.hp_max and not (self.dead or self.destroyed):
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
        if self.burning:
            out.append(f"burning {self.burning}")
        if self.reeling and self.hp > 0:
            out.append("reeling")
        if self.tired and self.fp > 0:
            out.append("tired")
        if self.posture != "standing":
            out.append(self.posture)
        if self.feint_amount:
            out.append(f"feint −{self.feint_amount} → {self.feint_on}")
        if self.aim_turns:  # seconds aimed: +Acc, then +1 at 2 s, +2 at 3+ s (GURPS-CMB-12, 13)
            out.append(f"aim {self.aim_turns} s → {self.aim_target}")
        if self.evaluate_turns:  # the bonus it gives the next melee attack on that foe (B364 [std])
            out.append(f"evaluate +{min(EVALUATE_MOST, self.evaluate_turns)} → {self.evaluate_target}")
        if self.concentrating:
            out.append("concentrating")
        out += [f"{name} ({left} s)" if left else name for name, left in self.gm_conditions]  # the GM's, last
        return tuple(out)

    def to_dict(self) -> dict:
        data = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "weapons"}
        data["weapons"] = [w.to_dict() for w in self.weapons]
        data["gm_conditions"] = [list(pair) for pair in self.gm_conditions]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Combatant:
        fields = dict(data)
        fields["weapons"] = tuple(Weapon(**w) for w in fields.get("weapons", ()))
        if "gm_conditions" in fields:  # none in older logs
            fields["gm_conditions"] = gm_conditions_from_list(fields["gm_conditions"])
        unknown = set(fields) - set(cls.__dataclass_fields__)
        if unknown:
            raise DataError(t("combat.err.combatant_fields", name=fields.get("name", "?"), count=len(unknown),
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
    effect: str = ""  # the weapon's damage is no dice ("R-HT-2 or KO"): if the hit lands it is named, not rolled

    def to_dict(self) -> dict:
        return {
            "attacker": self.attacker, "target": self.target, "weapon": self.weapon, "damage": self.damage,
            "strong_adds": self.strong_adds,
            "incoming": {k: getattr(self.incoming, k) for k in dfn.Incoming.__dataclass_fields__},
            "tried": list(self.tried), "half_damage": self.half_damage, "hearing": self.hearing,
            **({"effect": self.effect} if self.effect else {}),
        }

    @classmethod
    def from_dict(cls, p: Mapping[str, Any]) -> PendingAttack:
        """Inverse of `to_dict` (campaign snapshots)."""
        return cls(p["attacker"], p["target"], p["weapon"], p["damage"], p["strong_adds"],
                   dfn.Incoming(**p["incoming"]), tuple(p["tried"]), p["half_damage"], p.get("hearing", ""),
                   p.get("effect", ""))


def initiative_to_list(entries: Iterable[InitiativeEntry]) -> list[list]:
    return [[e.name, e.basic_speed, e.dx, list(e.tie_roll)] for e in entries]


def initiative_from_list(rows: Iterable[Iterable]) -> tuple[InitiativeEntry, ...]:
    return tuple(InitiativeEntry(n, s, d, tuple(r)) for n, s, d, r in rows)


def ranges_to_list(ranges: Iterable[tuple[str, str, float]]) -> list[list]:
    return [[a, b, m] for a, b, m in ranges]


def ranges_from_list(rows: Iterable[Iterable]) -> tuple[tuple[str, str, float], ...]:
    return tuple((str(a), str(b), float(m)) for a, b, m in rows)


@dataclass(frozen=True)
class CombatState:
    combatants: tuple[Combatant, ...] = ()
    initiative: tuple[InitiativeEntry, ...] = ()
    round: int = 1
    active: int = 0
    pending: PendingAttack | None = None
    over: bool = False
    # the distance in metres of each pair the GM has set (`%combat range Aiko Orc 12m`), names sorted;
    # a pair not listed has no known distance, and nothing is refused or added for it (GURPS-CMB-14, 39)
    ranges: tuple[tuple[str, str, float], ...] = ()

    def distance(self, a: str, b: str) -> float | None:
        """The metres between fighters `a` and `b` (their own names), None when never set."""
        first, second = sorted((a, b))
        return next((m for x, y, m in self.ranges if x == first and y == second), None)

    def with_distance(self, a: str, b: str, metres: float | None) -> CombatState:
        """The fight with the distance between `a` and `b` set (None: forgotten)."""
        first, second = sorted((a, b))
        kept = tuple(r for r in self.ranges if (r[0], r[1]) != (first, second))
        pair = () if metres is None else ((first, second, metres),)
        return copy_with(self, ranges=tuple(sorted(kept + pair)))

    @property
    def current(self) -> Combatant:
        return self.combatants[self.active]

    def find(self, name: str) -> int | None:
        """The index of `name` (exact spelling first, then the one name lookup: width, case and spacing
        ignored, or an unambiguous start), or None: "is this a fighter?" without the error and its hint."""
        for i, c in enumerate(self.combatants):
            if c.name == name:  # the usual case, before the case-insensitive look
                return i
        names = [c.name for c in self.combatants]
        found = resolve_name(name, names)[0]
        return None if found is None else names.index(found)

    def index(self, name: str) -> int:
        found = self.find(name)
        if found is not None:
            return found
        names = [c.name for c in self.combatants]
        close = resolve_name(name, names)[1]
        hint = (t("gurps.err.did_you_mean", names=", ".join(close)) if close
                else t("combat.err.in_fight", names=", ".join(names)))
        raise NotFoundError(t("combat.err.no_combatant", name=name, hint=hint))

    def get(self, name: str) -> Combatant:
        return self.combatants[self.index(name)]

    def put(self, c: Combatant) -> CombatState:
        i = self.index(c.name)
        return copy_with(self, combatants=(*self.combatants[:i], c, *self.combatants[i + 1:]))

    def readout(self, who: str | Combatant) -> Readout:
        """The numbers the tracker shows of a fighter (by name, or the Combatant itself: the tracker
        reads every row, and a look-up by name per row made each refresh quadratic) beyond its own
        fields (see `Readout`)."""
        return _readout(self, self.get(who) if isinstance(who, str) else who)

    def to_dict(self) -> dict:
        return {
            "combatants": [c.to_dict() for c in self.combatants],
            "initiative": initiative_to_list(self.initiative),
            "round": self.round, "active": self.active, "over": self.over,
            "pending": None if self.pending is None else self.pending.to_dict(),
            **({"ranges": ranges_to_list(self.ranges)} if self.ranges else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CombatState:
        """Inverse of `to_dict` (campaign snapshots)."""
        p = data.get("pending")
        return cls(
            combatants=tuple(Combatant.from_dict(c) for c in data["combatants"]),
            initiative=initiative_from_list(data["initiative"]),
            round=data["round"], active=data["active"], pending=None if p is None else PendingAttack.from_dict(p),
            over=data["over"], ranges=ranges_from_list(data.get("ranges", ())),  # none in older logs
        )


_FAST_COPY: dict[type, frozenset[str]] = {
    cls: frozenset(cls.__dataclass_fields__) for cls in (Combatant, CombatState, PendingAttack)
}


def allow_fast_copy(cls: type) -> None:
    """Let `copy_with` copy `cls` without `__init__` too: a frozen dataclass whose `__init__` only
    stores its fields (no `__post_init__`, every field an init field), such as the GURPS character
    a combat event writes HP and states back to."""
    params = getattr(cls, "__dataclass_params__", None)
    fields: dict[str, dataclasses.Field[Any]] = getattr(cls, "__dataclass_fields__", {})
    if params is None or not params.frozen or hasattr(cls, "__post_init__") or any(
            not f.init for f in fields.values()):
        raise TypeError(f"{cls.__name__} cannot be copied without its __init__")
    _FAST_COPY[cls] = frozenset(fields)


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
    move = c.move  # computed once: the tracker reads it for every row it refreshes
    return {"none": 0, "step": min(1, move), "half": move // 2, "full": move}[limit]


def defenses_allowed(c: Combatant) -> tuple[str, ...]:
    """Active defenses the maneuver leaves until the next turn (GURPS-CMB-05, 18, 19, 50)."""
    allowed = tuple(maneuver_rules(c.maneuver)["defenses"])
    have = {"dodge": True, "parry": c.parry is not None, "block": c.block is not None}
    return tuple(k for k in allowed if have[k])


# ---------------------------------------------------------------- what the tracker reads (CMB-05, CMB-11, CMB-43)


def defender_state(state: CombatState, c: Combatant, incoming: dfn.Incoming, attacker: str,
                    weapon: Weapon | None = None) -> dfn.DefenderState:
    a = state.get(attacker) if attacker else None
    feint = a.feint_amount if a is not None and a.feint_on == c.name and a.feint_round == state.round else 0
    best = c.best_parry_weapon()  # looked up once (c.parry would look it up again)
    weapon = weapon or best
    return dfn.DefenderState(
        maneuver=c.maneuver, aod_option=c.option if c.maneuver == "all_out_defense" else "",
        posture=c.posture, stunned=c.stunned, shield_db=c.shield_db if c.shield is not None else 0,
        feint_penalty=feint, parry_used=c.parry_used, block_used=c.block_used,
        can_parry=best is not None and c.parry_with(best) is not None, can_block=c.block is not None,
        parry_weapon=weapon.parry_weapon if weapon else "", conscious=c.can_act,
        distracted=bool(c.burning),  # clothing on fire: -1 to defend (GURPS-CMB-51, HAZ-11)
    )


def defense_scores(c: Combatant) -> dict[str, int]:
    scores = {"dodge": c.dodge}
    if c.parry is not None:
        scores["parry"] = c.parry
    if c.block is not None:
        scores["block"] = c.block
    return scores


PLAIN_MELEE = dfn.Incoming()  # an ordinary armed melee attack from the front


@dataclass(frozen=True)
class Readout:
    """A combatant's numbers of the moment: Move under the maneuver (GURPS-CMB-08..20), the active
    defenses it leaves (GURPS-CMB-05), and for each (kind, usual, now, modifiers now) as %defend
    rolls it (see `effective_defenses`)."""

    move: int
    defenses: tuple[str, ...]
    defense_values: tuple[tuple[str, int, int, tuple[tuple[int, str], ...]], ...]




def _readout(state: CombatState, c: Combatant) -> Readout:
    allowed = defenses_allowed(c)
    effective = _effective_defenses(state, c)
    values = tuple((k, *effective[k]) for k in ("dodge", "parry", "block") if k in allowed and k in effective)
    return Readout(move_allowed(c), allowed, values)


def effective_defenses(state: CombatState, name: str) -> dict[str, tuple[int, int, tuple[tuple[int, str], ...]]]:
    """Each defense as (usual, now, modifiers now). `usual`: standing, not stunned, no maneuver bonus,
    against an ordinary armed melee attack from the front - the score plus shield DB and the parrying
    weapon's own modifier. `now`: what the next defense roll uses - also All-Out Defense, posture
    (GURPS-CMB-11), stun −4 (GURPS-CMB-43, INJ-08), and the pending attack's modifiers (feint, unseen,
    flail) when the attack is on `name`. For the tracker, so its numbers are those %defend rolls."""
    return _effective_defenses(state, state.get(name))


def _effective_defenses(state: CombatState, c: Combatant) -> dict[str, tuple[int, int, tuple[tuple[int, str], ...]]]:
    p = state.pending
    incoming, attacker = (p.incoming, p.attacker) if p is not None and p.target == c.name else (PLAIN_MELEE, "")
    who = defender_state(state, c, incoming, attacker)
    # the usual defender: no attacker, so no feint (the incoming attack does not enter DefenderState)
    usual_who = dataclasses.replace(who, maneuver="do_nothing", aod_option="", posture="standing", stunned=False,
                                    feint_penalty=0)
    out = {}
    for kind, base in defense_scores(c).items():
        mods = dfn.defense_modifiers(kind, who, incoming)
        usual = base + sum(v for v, _ in dfn.defense_modifiers(kind, usual_who, PLAIN_MELEE))
        out[kind] = (usual, base + sum(v for v, _ in mods), mods)
    return out
