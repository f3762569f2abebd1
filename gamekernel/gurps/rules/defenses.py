"""GURPS active defenses: Dodge, Parry and Block scores, which defenses an attack allows, and their
modifiers. [GURPS-CMB-40..52]

A defense roll is always rolled, even below 3 (GURPS-SR-05); 3-4 always succeed (CMB-42).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules import vocabulary
from gamekernel.gurps.rules.attacks import posture_row
from gamekernel.gurps.rules.checks import SuccessRoll, success_roll
from gamekernel.gurps.rules.injury import halve_up
from gamekernel.gurps.rules.wording import english, word
from gamekernel.i18n import t

Mod = tuple[int, str]
DEFENSES = tuple(k for k in vocabulary.keys("defenses") if k != "none")  # "none" is a choice, not a defense


def dodge_score(
    basic_speed: float, encumbrance: int = 0, *, enhanced: int = 0, combat_reflexes: bool = False,
    reeling: bool = False, tired: bool = False,
) -> int:
    """floor(Basic Speed) + 3 - encumbrance level (GURPS-CMB-44), +Enhanced Dodge, +1 Combat Reflexes;
    halved (round up) when reeling (GURPS-INJ-01) and again when tired (GURPS-FAT-01)."""
    value = int(basic_speed // 1) + 3 - encumbrance + enhanced + (1 if combat_reflexes else 0)
    if reeling:
        value = halve_up(value)
    if tired:
        value = halve_up(value)
    return value


def parry_score(skill: int, *, bonus: int = 0, enhanced: int = 0, combat_reflexes: bool = False,
                fencing_encumbrance: int = 0) -> int:
    """floor(weapon skill / 2) + 3 (sword 13 -> 9) + weapon bonus (GURPS-CMB-46). A fencing weapon
    (a GCS "F" parry; not in the seed, carried as GCS computes it [std]) has its skill lowered by the
    encumbrance level and its Parry too: the level is added back before halving and taken off whole
    (Rapier 13 at Light encumbrance: skill 12, Parry 13 // 2 + 3 - 1 = 8)."""
    enc = max(0, fencing_encumbrance)
    return (skill + enc) // 2 + 3 - enc + bonus + enhanced + (1 if combat_reflexes else 0)


def block_score(shield_skill: int, *, enhanced: int = 0, combat_reflexes: bool = False) -> int:
    """floor(Shield / 2) + 3 (Shield 11 -> 8) (GURPS-CMB-45)."""
    return shield_skill // 2 + 3 + enhanced + (1 if combat_reflexes else 0)


@dataclass(frozen=True)
class Incoming:
    """What the defender faces: the attack's kind and features (GURPS-CMB-45, 47, 52).

    kind: melee | thrown | missile (muscle-powered) | firearm | beam | liquid | missile_spell
    """

    kind: str = "melee"
    critical: bool = False
    from_behind: bool = False
    flail: bool = False
    thrown_weight_kg: float = 1.0
    unseen: bool = False
    attacker_within_reach: bool = False
    unarmed: bool = False


ALLOWED = {  # attack kind -> defenses that can stop it
    "melee": ("dodge", "parry", "block"),
    "thrown": ("dodge", "parry", "block"),
    "missile": ("dodge", "block"),
    "liquid": ("dodge", "block"),
    "firearm": ("dodge",),
    "beam": ("dodge",),
    "missile_spell": ("dodge", "block"),  # GURPS-MAG-12
}


@dataclass(frozen=True)
class DefenderState:
    """The defender's side of the modifiers (GURPS-CMB-43, 50, 51)."""

    maneuver: str = "do_nothing"
    aod_option: str = ""  # dodge | parry | block | double
    posture: str = "standing"
    stunned: bool = False
    shield_db: int = 0
    distracted: bool = False
    bad_footing: int = 0
    feint_penalty: int = 0
    parry_used: bool = False
    block_used: bool = False
    can_parry: bool = True
    can_block: bool = False
    parry_weapon: str = ""  # "" | dagger | quarterstaff | bare_hands
    conscious: bool = True
    aware: bool = True


def _why_not(kind: str, who: DefenderState, attack: Incoming) -> tuple[str, dict[str, str]] | None:
    """The message key and fields of the reason a defense is impossible, or None (GURPS-CMB-41..52)."""
    if kind not in DEFENSES:
        raise UsageError(t("combat.err.defense", kind=kind))
    if attack.critical:
        return "combat.err.why.critical", {}
    if not who.conscious:
        return "combat.err.why.unconscious", {}
    if not who.aware:
        return "combat.err.why.unaware", {}
    if attack.from_behind:
        return "combat.err.why.behind", {}
    if who.maneuver == "all_out_attack":
        return "combat.err.why.all_out_attack", {}
    if kind not in ALLOWED.get(attack.kind, DEFENSES):
        if kind == "parry" and attack.attacker_within_reach and attack.kind in ("missile", "firearm", "beam"):
            pass  # knock the missile weapon aside (GURPS-CMB-47)
        else:
            return "combat.err.why.cannot_stop", {"kind": kind, "attack": attack.kind}
    if kind == "parry":
        if who.maneuver == "move_and_attack":
            return "combat.err.why.move_and_attack", {}
        if not who.can_parry:
            return "combat.err.why.no_parry", {}
        if who.parry_used and who.aod_option != "double":
            return "combat.err.why.parried", {}
    if kind == "block":
        if not who.can_block:
            return "combat.err.why.no_shield", {}
        if who.block_used and who.aod_option != "double":
            return "combat.err.why.blocked", {}
    return None


def why_not(kind: str, who: DefenderState, attack: Incoming) -> str | None:
    """The reason a defense is impossible, or None when it may be rolled (GURPS-CMB-41..52). In English
    whatever the language: reports keep it."""
    found = _why_not(kind, who, attack)
    return None if found is None else english(found[0], **found[1])


def why_not_key(kind: str, who: DefenderState, attack: Incoming) -> tuple[str, dict[str, str]] | None:
    """`why_not` as its message key and fields, for a result drawn later in the current language."""
    found = _why_not(kind, who, attack)
    return None if found is None else (found[0], {k: str(v) for k, v in found[1].items()})


def why_not_text(kind: str, who: DefenderState, attack: Incoming) -> str | None:
    """`why_not` in the current language, for error messages."""
    found = _why_not(kind, who, attack)
    return None if found is None else t(found[0], **{k: word(v) for k, v in found[1].items()})


def defense_modifiers(kind: str, who: DefenderState, attack: Incoming) -> tuple[Mod, ...]:
    """Every modifier to one active defense, labelled (GURPS-CMB-43, 49..52, CMB-11 posture)."""
    mods: list[Mod] = []
    if who.maneuver == "all_out_defense" and who.aod_option == kind:
        mods.append((2, "All-Out Defense"))
    row = posture_row(who.posture)
    if row["defense"]:
        mods.append((row["defense"], who.posture.replace("_", " ")))
    if who.shield_db:
        mods.append((who.shield_db, "shield DB"))
    if who.stunned:
        mods.append((-4, "stunned"))
    if attack.unseen:
        mods.append((-4, "attacker unseen"))
    if who.distracted:
        mods.append((-1, "distracted"))
    if who.bad_footing:
        mods.append((-abs(who.bad_footing), "bad footing"))
    if who.feint_penalty:
        mods.append((-who.feint_penalty, "feint"))
    if kind == "parry":
        if who.parry_weapon == "dagger":
            mods.append((-1, "dagger/knife"))
        elif who.parry_weapon == "quarterstaff":
            mods.append((2, "quarterstaff"))
        elif who.parry_weapon == "bare_hands" and not attack.unarmed:
            mods.append((-3, "bare hands vs weapon"))
        if attack.flail:
            mods.append((-4, "flail"))
        if attack.kind == "thrown":
            mods.append((-2, "small thrown weapon") if attack.thrown_weight_kg <= 0.5 else (-1, "thrown weapon"))
    if kind == "block" and attack.flail:
        mods.append((-2, "flail"))
    return tuple(mods)


@dataclass(frozen=True)
class DefenseRoll:
    defender: str
    kind: str
    roll: SuccessRoll

    @property
    def success(self) -> bool:
        return self.roll.success


def defense_roll(
    defender: str, kind: str, score: int, who: DefenderState, attack: Incoming, faces: Sequence[int],
    weapon: str = "",
) -> DefenseRoll:
    """Roll one active defense; refuses (RuleError) when it is not allowed, naming the rule. `weapon`:
    the one a Parry is made with, named in the roll ("Parry (Axe)", GURPS-CMB-46)."""
    reason = why_not_text(kind, who, attack)
    if reason:
        raise RuleError(t("combat.err.cannot_defend", defender=defender, kind=word(kind), reason=reason))
    mods = defense_modifiers(kind, who, attack)
    label = {"dodge": "Dodge", "parry": "Parry", "block": "Block"}[kind]
    if weapon and kind == "parry":
        label = f"{label} ({weapon})"
    roll = success_roll(score, mods, label=label, actor=defender, dice=tuple(faces), defense=True, kind="defense")
    return DefenseRoll(defender, kind, roll)
