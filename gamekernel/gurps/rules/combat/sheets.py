"""A GURPS character's sheet as a fighter, and the fighter's wounds back on the sheet.
[GURPS-CMB-43, CMB-45, GURPS-INJ, GURPS-ADV-05]

Why a module of its own: these read a character (traits, skills, weapons) into the combat values
and write what a fight did (HP, FP, lasting states) back; no step of the fight runs here.
"""

from __future__ import annotations

from gamekernel.errors import DataError, NotFoundError, RuleError
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules.characters import Character
from gamekernel.gurps.rules.combat import Combatant, copy_with
from gamekernel.gurps.rules.combat.sides import PARTY, is_party
from gamekernel.gurps.rules.combat.state import allow_fast_copy

# The injury rules' lasting states a character keeps between commands (GURPS-INJ-02..15, FAT-03).
LASTING = ("unconscious", "mortal", "dead", "destroyed", "collapsed", "needs_care")


def lasting_states(c: Combatant) -> tuple[str, ...]:
    return tuple(key for key in LASTING if getattr(c, key))


def with_states(c: Combatant, ch: Character) -> Combatant:
    """`c` with the lasting states and the last death-check line the character's sheet holds too (both
    are written back together by `CombatPart.put`, so they agree unless a test or a GM set one)."""
    states = getattr(ch, "states", ())
    return copy_with(c, death_line=max(c.death_line, getattr(ch, "death_line", 0)),
                     **{key: getattr(c, key) or key in states for key in LASTING})


def combatant_from_character(ch: Character, weapons: tuple[cb.Weapon, ...] = ()) -> Combatant:
    """A core GURPS Character as a combatant: attributes, HP/FP (current), Basic Speed/Move, DR and the
    combat traits (High Pain Threshold, Combat Reflexes, Hard to Kill, Enhanced defenses, Ambidexterity);
    a trait the sheet lacks is level 0 / absent (the sheet's lookups say so, they do not raise)."""
    def level(name: str) -> int:
        return int(ch.trait_level(name))

    def has(name: str) -> bool:
        return ch.has_trait(name) is not None

    # Block needs a ready shield (GURPS-CMB-45); its DB adds to every defense (CMB-43)
    shield = block_skill(ch) if getattr(ch, "has_shield", False) else None
    side = getattr(ch, "side", "") or PARTY  # a sheet without a side is the party's, as it always was
    reflexes = has("Combat Reflexes")
    if not weapons:
        weapons = sheet_weapons(ch)
    if not weapons:
        weapons = (cb.Weapon("Punch", ch.dx, "thr-1 cr", parry_weapon="bare_hands"),)
    return with_states(Combatant(
        name=ch.name, st=ch.st, dx=ch.dx, iq=ch.iq, ht=ch.ht, hp_max=ch.hp, fp_max=ch.fp, will=ch.will,
        basic_speed=float(ch.basic_speed), basic_move=int(ch.basic_move), pc=is_party(side), side=side,
        dr=int(getattr(ch, "dr", 0) or 0), weapons=tuple(weapons), shield=shield,
        shield_db=int(getattr(ch, "defense_db", 0)) if shield is not None else 0,
        encumbrance=min(4, int(getattr(ch, "encumbrance", 0))),
        high_pain_threshold=has("High Pain Threshold"), combat_reflexes=reflexes,
        hard_to_kill=level("Hard to Kill"), enhanced_dodge=always_on(ch, "dodge", reflexes),
        enhanced_parry=always_on(ch, "parry", reflexes), enhanced_block=always_on(ch, "block", reflexes),
        ambidextrous=has("Ambidexterity"), hp=ch.current_hp, fp=ch.current_fp,
        hearing=ch.per + sum(m.value for m in ch.trait_modifiers("hearing")),
    ), ch)


def always_on(ch: Character, kind: str, reflexes: bool) -> int:
    """The sheet's always-on bonus to one defense (Enhanced Dodge, a cloak, a race's DB, GCS features)
    less Combat Reflexes' +1, which the combatant counts itself (GURPS-ADV-05): the fight offers the
    sheet's number, each bonus once (a natural attack's -2 Parry included)."""
    total = int(ch.defense_bonus(kind))
    return total - 1 if reflexes else total


BLOCK_SKILLS = ("Shield", "Shield (Shield)", "Shield (Buckler)", "Cloak")


def block_skill(ch: Character) -> int | None:
    """The best level among the skills a shield or cloak blocks with (GURPS-CMB-45), None if none."""
    levels = []
    for name in BLOCK_SKILLS:
        try:
            levels.append(ch.skill_level(name).level)
        except (NotFoundError, RuleError, DataError):
            continue
    return max(levels, default=None)


def sheet_weapons(ch: Character) -> tuple[cb.Weapon, ...]:
    """The weapons on a character's sheet at their effective levels (a weapon whose skill cannot be
    used untrained is left out)."""
    out = []
    for w in getattr(ch, "weapons", ()):
        try:
            damage = ch.weapon_damage(w) if ch.own_damage_table(w) else None
            level = 0 if "no_roll" in w.flags else ch.weapon_level(w)  # no roll: %attack says so
            out.append(cb.weapon_from_sheet(w, level, damage))
        except (NotFoundError, RuleError):
            continue
    return tuple(out)


allow_fast_copy(Character)  # a write-back copies the character once or twice per event


def write_back(ch: Character, c: Combatant) -> Character:
    """The GURPS character `ch` after a fight or an injury: HP and FP lost, HT and IQ lost for
    good, the lasting states and the last death-check line of `c`, the fighter he was."""
    lost: dict[str, int] = {}
    if c.ht < ch.ht:  # HT lost for good after a mortal wound (GURPS-INJ-11)
        lost["ht"] = c.ht
    if c.iq < ch.iq:  # IQ lost for good to lack of oxygen (GURPS-HAZ-20)
        lost["iq"] = c.iq
    if lost:  # FP (the base of fp_lost) follows from the new HT
        ch = copy_with(ch, **lost)
    return copy_with(ch, hp_lost=max(0, ch.hp - c.hp), fp_lost=max(0, ch.fp - c.fp), states=lasting_states(c),
                     death_line=c.death_line)
