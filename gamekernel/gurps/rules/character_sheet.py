"""A GURPS character's sheet: what it stores, what follows from it (secondary characteristics,
basic damage, encumbrance, the conditions HP/FP mean) and the traits' automatic effects.
[GURPS-CH-01..12, GURPS-DMG-01..03, GURPS-STD-04, GURPS-INJ-01..04, GURPS-FAT-01..03, GURPS-ADV-05]

Why a module of its own: `Character` (characters.py) adds skills, checks, points and files on top
of this; everything here reads the stored fields and the trait catalog only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from math import floor
from typing import Any, Self

from gamekernel.errors import UsageError
from gamekernel.gurps.rules.character_parts import (
    ENCUMBRANCE_SKILLS,
    Language,
    Reputation,
    Skill,
    basic_lift_kg,
    encumbered_move,
    encumbrance_level,
)
from gamekernel.gurps.rules.checks import Modifier
from gamekernel.gurps.rules.damage import DamageSpec, DiceAdds, progression_damage, resolve_damage
from gamekernel.gurps.rules.defenses import dodge_score
from gamekernel.gurps.rules.fatigue import fp_applies, is_tired
from gamekernel.gurps.rules.injury import halve_up, hp_applies, is_reeling
from gamekernel.gurps.rules.skills import SkillDef
from gamekernel.gurps.rules.traits import Trait, maybe_trait
from gamekernel.gurps.rules.weapons import CharacterWeapon
from gamekernel.i18n import t
from gamekernel.text import same_name


@dataclass(frozen=True)
class CharacterSheet:
    """The stored sheet and what follows from it; `Character` is the one class callers use."""

    name: str
    st: int = 10
    dx: int = 10
    iq: int = 10
    ht: int = 10
    hp_adj: int = 0
    will_adj: int = 0
    per_adj: int = 0
    fp_adj: int = 0
    speed_adj: int = 0  # quarters of Basic Speed
    move_adj: int = 0
    appearance: str = "average"
    wealth: str = "average"
    status: int = 0
    tl: int = 0  # personal TL minus campaign TL (GURPS-CH-18)
    reputations: tuple[Reputation, ...] = ()
    languages: tuple[Language, ...] = ()
    traits: tuple[Trait, ...] = ()
    skills: tuple[Skill, ...] = ()
    dr: int = 0
    shield_db: int = 0  # a ready shield's Defense Bonus; 0 = no shield, so no Block (GURPS-CMB-43, 45)
    can_block: bool = False  # a ready shield or cloak without a DB still blocks (a GCS item with a Block)
    equipment: tuple[str, ...] = ()
    weapons: tuple[CharacterWeapon, ...] = ()  # ready weapons and attack modes (combat uses them)
    budget: int = 100
    disadvantage_limit: int = 50  # percent of the budget (GURPS-CH-03, GM's option)
    allow_bought_secondary: bool = False  # OPEN flag (after GURPS-CH-11)
    hp_lost: int = 0
    fp_lost: int = 0
    # Lasting states the injury rules set (GURPS-INJ-02..15, FAT-03): "unconscious", "mortal", "dead",
    # "destroyed", "collapsed", "needs_care"; and the last -k x HP line whose death check was rolled.
    states: tuple[str, ...] = ()
    death_line: int = 0
    handedness: str = "right"
    notes: str = ""
    # Attribute levels granted by traits/equipment (GCS features), e.g. (("st", 4),): in the
    # attribute's value, not in its point cost.
    granted: tuple[tuple[str, int], ...] = ()
    # Always-on bonuses from GCS features by roll key ("dodge", "parry", "block", ...) with who gives them.
    feature_bonuses: tuple[tuple[str, int, str], ...] = ()
    # Reaction bonuses and conditional modifiers a GCS file lists: (amount, situation).
    conditionals: tuple[tuple[int, str], ...] = ()
    carried_kg: float = 0.0
    cost_reduction: tuple[tuple[str, int], ...] = ()  # ("st", 50): % off an attribute's cost (SM, No Fine Manipulators)
    lifting_st: int = 0  # ST for Basic Lift only (Lifting ST, GCS `st:lifting_only` features)
    striking_st: int = 0  # ST for damage only (Striking ST, GCS `st:striking_only` features)
    damage_progression: str = "basic_set"  # GCS's table setting; "basic_set" = the seed's GURPS-DMG-02
    dice_for_adds: bool = False  # GCS's "modifying dice + adds" setting: 1d+4 -> 2d (not the seed's)
    gcs_source: str = ""  # the GCS file it was imported from (`%char save NAME.gcs` copies it)
    side: str = ""  # the side it fights on ("" = the party; `%char load x.gcs --npc` = foes, gurps/rules/combat/sides)
    source: str = field(default="", compare=False)

    # -- secondary characteristics (GURPS-CH-08..12, DMG-02) --------------------------------
    @property
    def hp(self) -> int:
        return self.st + self.hp_adj

    @property
    def will(self) -> int:
        return self.iq + self.will_adj

    @property
    def per(self) -> int:
        return self.iq + self.per_adj

    @property
    def fp(self) -> int:
        return self.ht + self.fp_adj

    @property
    def speed_fraction(self) -> Fraction:
        """Basic Speed exactly: (HT + DX) / 4, not rounded (GURPS-CH-09)."""
        return Fraction(self.ht + self.dx, 4) + Fraction(self.speed_adj, 4)

    @property
    def basic_speed(self) -> float:
        return float(self.speed_fraction)

    @property
    def basic_move(self) -> int:
        """floor(Basic Speed) (GURPS-CH-11)."""
        return floor(self.speed_fraction) + self.move_adj

    @property
    def move(self) -> int:
        """Basic Move under the carried load (GURPS-STD-05), halved (round up) when reeling and again
        when tired (GURPS-INJ-01, FAT-01; seed 004 lines 1600, 1658, the rows are cumulative), as the
        fight's Move is before posture."""
        value = encumbered_move(self.basic_move, self.encumbrance)
        for halved in (self.reeling, self.tired):
            if halved:
                value = halve_up(value)
        return value

    @property
    def base_dodge(self) -> int:
        """floor(Basic Speed) + 3 (GURPS-CH-10), before traits and load."""
        return floor(self.speed_fraction) + 3

    @property
    def dodge(self) -> int:
        """Dodge as combat has it: less the encumbrance level (GURPS-CMB-44), plus the always-on trait
        bonuses (Enhanced Dodge, Combat Reflexes, GCS features) and a ready shield's DB (GURPS-CMB-43)."""
        return dodge_score(self.basic_speed, self.encumbrance_penalty,
                           enhanced=self.defense_bonus("dodge") + self.defense_db,
                           reeling=self.reeling, tired=self.tired)

    @property
    def reeling(self) -> bool:
        """Current HP at a third of max or below (GURPS-INJ-01, the seed's "1/3 or less"): the same
        test as the fight's, so the sheet and the tracker agree."""
        return is_reeling(self.current_hp, self.hp)

    @property
    def tired(self) -> bool:
        """Current FP below a third of max (GURPS-FAT-01)."""
        return is_tired(self.current_fp, self.fp)

    @property
    def encumbrance_penalty(self) -> int:
        """The encumbrance level as Dodge and the hampered skills subtract it (past X-Heavy as X-Heavy)."""
        return min(4, self.encumbrance)

    @cached_property
    def basic_lift(self) -> float:
        """Basic Lift in kg for ST with Lifting ST, rounded in lb as the seed says (GURPS-CH-12), in the
        file's progression (a GCS file's "knowing your own strength" lifts as GCS has it). Worked out
        once per (frozen) character: every check of a hampered skill reads the encumbrance."""
        return float(basic_lift_kg(self.st + self.lifting_st, self.damage_progression))

    @property
    def thrust(self) -> DiceAdds:
        return self.thrust_swing[0]

    @property
    def swing(self) -> DiceAdds:
        return self.thrust_swing[1]

    @property
    def thrust_swing(self) -> tuple[DiceAdds, DiceAdds]:
        """Basic thrust and swing (GURPS-DMG-02) for ST plus Striking ST, in the file's progression:
        the one table the sheet, `%char` and every weapon's damage read."""
        return progression_damage(self.st + self.striking_st, self.damage_progression)

    @property
    def damage(self) -> str:
        """"thrust/swing" as on the sheet (GURPS-DMG-03)."""
        thrust, swing = self.thrust_swing
        return f"{thrust}/{swing}"

    def damage_shown(self, weapon: CharacterWeapon) -> str:
        """The weapon's damage as the sheet shows it: as written ("sw+1 cut") when plain ST's thr/sw
        gives it, else the dice the fight rolls (`weapon_damage`); an untyped one without a type; a
        damage that is no dice (an affliction, a grapple's control) as the file writes it."""
        if weapon.effect and not weapon.damage:
            return weapon.effect
        if self.own_damage_table(weapon) or weapon.damage.split()[-1:] == ["none"]:
            shown = str(self.weapon_damage(weapon))
        else:
            shown = weapon.damage
        return f"{shown} {weapon.follow_up}" if weapon.follow_up else shown

    def own_damage_table(self, weapon: CharacterWeapon) -> bool:
        """Whether this weapon's damage differs from thr/sw of plain ST (Striking ST, another
        progression, ST below 1, adds per die): then the fight rolls `weapon_damage`, worked out here."""
        if weapon.effect and not weapon.damage:
            return False
        return bool(weapon.per_die or self.striking_st or self.damage_progression != "basic_set" or self.st < 1
                    or self.dice_for_adds or self.weapon_st(weapon) != self.st + self.striking_st)

    def weapon_st(self, weapon: CharacterWeapon) -> int:
        """The ST a weapon's thr/sw is read at (GURPS-DMG-01): the wielder's with Striking ST, or the
        weapon's own rated ST (a bow's pull); plus its effective-ST bonus; at most its `max_st`."""
        st = (weapon.rated_st or self.st + self.striking_st) + weapon.st_bonus
        if weapon.max_st and st > weapon.max_st:
            st = weapon.max_st
        return st if st == self.st + self.striking_st else max(st, 0)

    def weapon_damage(self, weapon: CharacterWeapon) -> DamageSpec:
        """The basic damage a weapon does in this character's hands (GURPS-DMG-03): thr/sw from the
        sheet's table (at the weapon's ST, `weapon_st`), plus the weapon's adds per die (GCS
        `modifier_per_die`, Brawling +1/die)."""
        st = self.weapon_st(weapon)
        table = self.thrust_swing if st == self.st + self.striking_st else progression_damage(
            st, self.damage_progression)
        return resolve_damage(weapon.damage, table, per_die=weapon.per_die, dice_for_adds=self.dice_for_adds)

    @property
    def current_hp(self) -> int:
        return self.hp - self.hp_lost

    @property
    def current_fp(self) -> int:
        return self.fp - self.fp_lost

    @cached_property
    def encumbrance(self) -> int:
        """Encumbrance level from the carried load: 0 None .. 4 X-Heavy, 5 over 10 x BL (GURPS-STD-04)."""
        return encumbrance_level(self.carried_kg, self.basic_lift)

    @property
    def conditions(self) -> tuple[str, ...]:
        """What current HP/FP and load mean now, as i18n keys under "gurps.condition.": reeling
        (HP < 1/3, GURPS-INJ-01), hp_zero (HP <= 0: HT rolls to stay conscious, INJ-02), mortal
        (HP <= -HP: death checks, INJ-03), dead (HP <= -5 x HP, INJ-04), tired (FP < 1/3, FAT-01),
        fp_zero (FP <= 0: Will rolls, FAT-02), fp_out (FP <= -FP: unconscious, FAT-03), and the
        encumbrance level above None (STD-04). Lasting states the rolls set (`states`: unconscious,
        mortally wounded, dead ...) come first as "state_..."."""
        out = [f"state_{key}" for key in self.states if not (key == "dead" and "destroyed" in self.states)]
        hp, fp = self.current_hp, self.current_fp
        if "dead" in self.states or "destroyed" in self.states:
            pass  # the state already says it all about HP
        elif not hp_applies(self.hp):
            pass  # max HP 0: GCS's "N/A", no HP row applies
        elif hp <= -5 * self.hp:
            out.append("dead")
        elif hp <= -self.hp:
            out.append("mortal")
        elif hp <= 0:
            out.append("hp_zero")
        elif self.reeling:
            out.append("reeling")
        if not fp_applies(self.fp):
            pass  # max FP 0: GCS's "N/A", no FP row applies (tired included)
        elif fp <= -self.fp:
            out.append("fp_out")
        elif fp <= 0:
            out.append("fp_zero")
        elif self.tired:
            out.append("tired")
        if self.encumbrance:
            out.append(f"encumbrance_{self.encumbrance}")
        return tuple(out)

    def with_attribute(self, name: str, value: int) -> Self:
        """A copy with one whole-number field changed ("dx", 12); refuses unknown fields and those
        holding something else (a name, a list of traits), which a number would break."""
        key = name.lower()
        spec = self.__dataclass_fields__.get(key)
        if spec is None or spec.type != "int":
            raise UsageError(t("gurps.err.unknown_field", name=name))
        changes: dict[str, Any] = {key: value}  # the field is only known at run time (an int one)
        return replace(self, **changes)

    # -- traits -------------------------------------------------------------------------------
    def has_trait(self, name: str) -> Trait | None:
        """The first trait matching an id, English or Japanese name, or None."""
        defn = maybe_trait(name)
        for trait in self.traits:
            if defn is not None and trait.id == defn.id:
                return trait
            if same_name(trait.name, name):
                return trait
        return None

    def trait_level(self, name: str) -> int:
        trait = self.has_trait(name)
        return trait.level if trait else 0

    def trait_modifiers(self, roll: str, *, skill: SkillDef | None = None) -> tuple[Modifier, ...]:
        """Labelled automatic trait modifiers for a roll key ("vision", "dodge", "fright_check",
        "ht_knockdown", "skill:Climbing", ...). With `skill`, also its "skill:" and "skill_tag:" keys."""
        keys = {roll}
        if skill is not None:
            keys.add(f"skill:{skill.name}")
            keys.update(f"skill_tag:{tag}" for tag in skill.tags)
        found = sorted((pair for key in keys for pair in self._modifiers_by_roll.get(key, ())), key=lambda p: p[0])
        out = [modifier for _, modifier in found]
        if skill is not None and self.encumbrance and skill.name in ENCUMBRANCE_SKILLS:
            out.append(Modifier(-ENCUMBRANCE_SKILLS[skill.name] * self.encumbrance_penalty, "encumbrance"))
        return tuple(out)

    @cached_property
    def _modifiers_by_roll(self) -> dict[str, list[tuple[int, Modifier]]]:
        """The automatic trait effects, then the feature bonuses, by roll key with their sheet order:
        built once per (frozen) character, so a check does not scan every trait (a GCS sheet has hundreds)."""
        by_roll: dict[str, list[tuple[int, Modifier]]] = {}
        order = 0
        for trait in self.traits:
            defn = trait.definition
            if defn is None:  # a trait the catalog does not know has no automatic effects
                continue
            for effect in defn.effects:
                order += 1
                if effect.get("auto") and effect.get("roll") is not None:
                    value = _effect_value(effect, trait)
                    if value:
                        by_roll.setdefault(effect["roll"], []).append((order, Modifier(value, defn.name)))
        for key, value, label in self.feature_bonuses:
            order += 1
            if value:
                by_roll.setdefault(key, []).append((order, Modifier(value, label)))
        return by_roll

    @property
    def defense_db(self) -> int:
        """The ready shield's DB: set on the sheet (`%char set db=2`), or for a GCS character the Block
        bonus its equipped shield gives (the importer sets it). 0 = no DB (GURPS-CMB-43)."""
        return self.shield_db

    @property
    def has_shield(self) -> bool:
        """Block needs a ready shield (GURPS-CMB-45): one with a DB, or a GCS item that blocks."""
        return self.defense_db > 0 or self.can_block

    def defense_bonus(self, kind: str) -> int:
        """Always-on bonus to an active defense ("dodge", "parry", "block"): Combat Reflexes +1,
        Enhanced Dodge/Parry/Block +1 (GURPS-ADV-05, ADV-09..11)."""
        return sum(m.value for m in self.trait_modifiers(kind.lower()))


def _effect_value(effect: dict[str, Any], trait: Trait) -> int:
    if "per_level" in effect:
        return int(effect["per_level"]) * trait.level
    if effect.get("bonus_from_option"):
        defn = trait.definition
        row = defn.options.get(trait.option, {}) if defn else {}
        return int(row.get("bonus", row.get("reaction", 0)))
    return int(effect.get("bonus", 0))
