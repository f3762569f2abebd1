"""GURPS characters: attributes and their costs, secondary characteristics, traits, skills, points.

Public API (stable; the combat helper builds on it):

    Character(name, st=10, dx=10, iq=10, ht=10, hp_adj=0, will_adj=0, per_adj=0, fp_adj=0,
              speed_adj=0 (quarters of Basic Speed), move_adj=0, appearance="average",
              wealth="average", status=0, tl=0 (personal TL minus campaign TL), reputations=(),
              languages=(), traits=(), skills=(), dr=0, equipment=(), budget=100,
              disadvantage_limit=50 (percent of budget), hp_lost=0, fp_lost=0, notes="")
      frozen; change with dataclasses.replace() or .with_attribute("dx", 12)
      derived: hp, will, per, fp, basic_speed (float, exact quarters), basic_move, base_dodge,
               dodge (incl. Enhanced Dodge and Combat Reflexes), basic_lift (kg), thrust, swing,
               damage (e.g. "1d/2d-1"), current_hp, current_fp
      trait_modifiers(roll_key) -> tuple[Modifier, ...]   # "dodge", "parry", "block", "fright_check",
                                                          # "vision", "ht_knockdown", "ht_survival"...
      defense_bonus(kind) -> int                          # kind in "dodge", "parry", "block"
      has_trait(name) -> Trait | None, trait_level(name) -> int
      skill_level(name) -> SkillLevel(level, source, ...)  # points, direct level or default
      resolve(spec) -> ResolvedCheck                      # CheckSpec/str -> label, base, modifiers
      points() -> PointBreakdown; validate() -> tuple[Issue, ...]
      reaction_modifiers(attracted=False, npc_status=0) -> tuple[Modifier, ...]
      to_dict() / Character.from_dict(data)
    (files: gamekernel/gurps/rules/character_files.py, save_character / load_character)
    roll_check(character, spec, *, rng=None, dice=None) -> SuccessRoll

Rules: GURPS-CH-01..29 [004:130-613], ADV/DIS effects, MEN-01 (sense rolls vs Per),
GURPS-STD-01..03 (skills). OPEN (RULES.md): bought secondary characteristics are off by default
(`allow_bought_secondary`); Basic Lift is rounded to the nearest kg when it is 5 kg or more.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from difflib import get_close_matches
from fractions import Fraction
from functools import cached_property
from math import ceil, floor
from typing import Any

from gamekernel.display import Displayable
from gamekernel.errors import DataError, NotFoundError, RuleError, UsageError

# the sheet's small values live in character_parts.py; re-exported so callers import them from here
from gamekernel.gurps.rules.character_parts import (  # noqa: F401 (re-exported)
    ATTRIBUTE_RANGE,
    ENCUMBRANCE_LIMITS,
    ENCUMBRANCE_SKILLS,
    Issue,
    Language,
    PointBreakdown,
    Reputation,
    Skill,
    SkillLevel,
    basic_lift_kg,
    basic_lift_lb,
    encumbered_move,
    encumbrance_level,
    issue,
    language_cost,
)
from gamekernel.gurps.rules.character_sheet import CharacterSheet
from gamekernel.gurps.rules.checks import (
    CheckSpec,
    CheckTarget,
    Modifier,
    ResolvedCheck,
    SuccessRoll,
    best_alternative,
    parse_check_spec,
    success_roll,
)
from gamekernel.gurps.rules.defenses import parry_score
from gamekernel.gurps.rules.injury import halve_up
from gamekernel.gurps.rules.skills import (
    SkillDef,
    default_options,
    is_standard_spend,
    japanese_name,
    maybe_skill,
    relative_level,
)
from gamekernel.gurps.rules.traits import Trait, load_traits, shown_trait_name
from gamekernel.gurps.rules.weapons import CharacterWeapon, find_weapon
from gamekernel.i18n import get_language, t
from gamekernel.text import half_width, match_key

SCHEMA = 1

# GURPS-CH-05: points per level above/below 10.
ATTRIBUTE_COST = {"st": 10, "dx": 20, "iq": 20, "ht": 10}
# OPEN (after GURPS-CH-11): Basic Set costs of bought secondary characteristics. [std]
SECONDARY_COST = {"hp_adj": 2, "will_adj": 5, "per_adj": 5, "fp_adj": 3, "speed_adj": 5, "move_adj": 5}
SECONDARY_LABELS = {"hp_adj": "HP", "will_adj": "Will", "per_adj": "Per", "fp_adj": "FP", "speed_adj": "Basic Speed",
                    "move_adj": "Basic Move"}  # their `gurps.attr.*` names

# Names a check may use for an attribute or derived score, English and Japanese (lower-cased keys).
ATTRIBUTE_NAMES = {
    "st": "ST", "strength": "ST", "体力": "ST",
    "dx": "DX", "dexterity": "DX", "敏捷力": "DX", "敏捷": "DX",
    "iq": "IQ", "intelligence": "IQ", "知力": "IQ",
    "ht": "HT", "health": "HT", "生命力": "HT",
    "will": "Will", "意志": "Will", "意志力": "Will",
    "per": "Per", "perception": "Per", "知覚": "Per", "知覚力": "Per",
    "vision": "Vision", "視覚": "Vision",
    "hearing": "Hearing", "聴覚": "Hearing",
    "taste": "Taste/Smell", "smell": "Taste/Smell", "taste/smell": "Taste/Smell",
    "taste-smell": "Taste/Smell", "taste_smell": "Taste/Smell", "味覚": "Taste/Smell",
    "嗅覚": "Taste/Smell", "味覚/嗅覚": "Taste/Smell",
    "touch": "Touch", "触覚": "Touch",
    "fright check": "Fright Check", "fright": "Fright Check", "fc": "Fright Check", "恐怖判定": "Fright Check",
    "dodge": "Dodge", "よけ": "Dodge",
}
SENSES = {"Vision": "vision", "Hearing": "hearing", "Taste/Smell": "taste_smell", "Touch": "touch"}
DEFENSES = {"Dodge", "Parry", "Block"}


def make_skill(name: str, points: int = 0, level: int | None = None, specialization: str = "") -> Skill:
    """A Skill of the data file by English or Japanese name (attribute/difficulty filled in)."""
    defn = maybe_skill(name)
    if defn is None and name.rstrip().endswith(")") and "(" in name:  # "Guns (Pistol)"
        head, _, inner = name.rstrip()[:-1].partition("(")
        defn = maybe_skill(head.strip())
        specialization = specialization or inner.strip()
    if defn is None:
        from gamekernel.gurps.rules.skills import find_skill

        find_skill(name)  # raises NotFoundError with suggestions
        raise AssertionError
    return Skill(defn.name, defn.attribute, defn.difficulty, points, level, specialization)


def custom_skill(name: str, difficulty: str, points: int) -> Skill:
    """A skill given as `NAME ATTRIBUTE/DIFFICULTY`: "Guns (Pistol)", "DX/E" (any skill, listed or not)."""
    attribute, _, diff = difficulty.partition("/")
    canonical = ATTRIBUTE_NAMES.get(attribute.strip().casefold())
    if canonical not in ("ST", "DX", "IQ", "HT", "Will", "Per"):
        raise UsageError(t("gurps.err.controlling_attribute", attribute=attribute))
    from gamekernel.gurps.rules.skills import normalize_difficulty

    specialization = ""
    text = name.strip()
    if text.endswith(")") and "(" in text:
        text, _, inner = text[:-1].partition("(")
        text, specialization = text.strip(), inner.strip()
    return Skill(text, canonical, normalize_difficulty(diff), points, None, specialization)



def _skill_shown(name: str) -> str:
    """A skill named in a validation message: its Japanese name in Japanese (〈〉 are the message's)."""
    return (japanese_name(name) if get_language() == "ja" else None) or name


def _trait_shown(label: str) -> str:
    """A trait named in a validation message: its Japanese name in Japanese, else as the sheet has it."""
    return shown_trait_name(label) or label


@dataclass(frozen=True)
class Character(CharacterSheet, Displayable):
    """A GURPS character (frozen: edits return a new Character). See the module docstring; the stored
    fields and the derived numbers are `CharacterSheet`'s (character_sheet.py)."""

    def weapon_parry(self, weapon: CharacterWeapon) -> int | None:
        """Parry with a weapon: skill/2 + 3 + its parry bonus + always-on bonuses + a ready shield's DB
        (GURPS-CMB-46, CMB-43); None when it cannot parry."""
        if weapon.parry is None:
            return None
        enc = min(4, self.encumbrance) if "fencing" in weapon.flags else 0
        return (parry_score(self.weapon_level(weapon), bonus=weapon.parry, fencing_encumbrance=enc)
                + self.defense_bonus("parry") + self.defense_db)

    # -- skills ---------------------------------------------------------------------------------
    def find_skill_entry(self, name: str) -> Skill | None:
        """The first skill on the sheet named `name` (name or full name, width/case ignored, or the
        listed skill's own name), or None."""
        found = self.find_skill_entries(name)
        return found[0] if found else None

    def find_skill_entries(self, name: str, *, kind: str | None = None) -> tuple[Skill, ...]:
        """Every row on the sheet named `name`, in the sheet's order (a GCS file may list a skill
        twice, each row with its own points); with `kind` ("spell"), only rows of that kind."""
        by_key, by_name = self._skill_index
        defn = maybe_skill(name)
        found = {*by_key.get(_name_key(name), ()), *(by_name.get(defn.name, ()) if defn else ())}
        rows = (self.skills[i] for i in sorted(found))
        return tuple(row for row in rows if kind is None or row.kind == kind)

    @cached_property
    def _skill_index(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """Positions of the skills by name key (of the name and of the full name) and by exact name:
        built once per (frozen) character, so a lookup does not scan every skill."""
        by_key: dict[str, list[int]] = {}
        by_name: dict[str, list[int]] = {}
        for index, skill in enumerate(self.skills):
            for key in {_name_key(skill.name), _name_key(skill.full_name)}:
                by_key.setdefault(key, []).append(index)
            by_name.setdefault(skill.name, []).append(index)
        return by_key, by_name

    def attribute_value(self, attribute: str) -> int:
        """ST, DX, IQ, HT, Will, Per (a skill's controlling attribute)."""
        key = match_key(attribute)
        values = {"st": self.st, "dx": self.dx, "iq": self.iq, "ht": self.ht,
                  "will": self.will, "per": self.per}
        if key not in values:
            raise DataError(t("gurps.err.controlling_attribute", attribute=attribute))
        return values[key]

    def skill_level(self, name: str, *, _depth: int = 0) -> SkillLevel:
        """A skill's level: bought (attribute + STD-01 table), given directly, or the best default
        (STD-03); never below the best default; automatic trait bonuses (Talent, Flexibility,
        Voice, Truthfulness, ...) are included.

        Worked out once per name asked on this (frozen) character: every check, sheet row and attack
        asks again, and the answer depends only on the sheet and the bundled skill and trait lists. A
        refusal is not kept (it is worked out again, with its hints)."""
        if _depth:
            return self._work_out_skill_level(name, _depth)
        known = self._skill_levels.get(name)
        if known is None:
            known = self._skill_levels[name] = self._work_out_skill_level(name, 0)
        return known

    @cached_property
    def _skill_levels(self) -> dict[str, SkillLevel]:
        """`skill_level`'s answers so far, by the name as asked."""
        return {}

    def spell_level(self, name: str) -> SkillLevel:
        """A spell's level for `%cast` (GURPS-MAG-01: a spell is a skill): the sheet's spell rows of
        that name first, so the spell Shield is not the skill Shield; else as `skill_level`."""
        if not self.find_skill_entries(name, kind="spell"):
            return self.skill_level(name)
        key = f"\0spell:{name}"
        known = self._skill_levels.get(key)
        if known is None:
            known = self._skill_levels[key] = self._work_out_skill_level(name, 0, kind="spell")
        return known

    def _work_out_skill_level(self, name: str, _depth: int, *, kind: str | None = None) -> SkillLevel:
        """The level of `name`; a name the sheet lists twice (GCS keeps both rows) is the better row's,
        the one a player would roll. A skill and a spell of one name (Shield): the skill, unless `kind`
        asks for the spell (`spell_level`)."""
        entries = self.find_skill_entries(name, kind=kind)
        if kind is None and any(entry.kind != "spell" for entry in entries):
            entries = tuple(entry for entry in entries if entry.kind != "spell")
        if len(entries) <= 1:
            return self._entry_level(entries[0] if entries else None, name, _depth)
        same = [entry for entry in entries if _same_skill(entry, entries[0])]  # not Guns (Rifle) for Guns (Pistol)
        return max((self._entry_level(entry, name, _depth) for entry in same), key=lambda known: known.level)

    def _entry_level(self, entry: Skill | None, name: str, _depth: int) -> SkillLevel:
        defn = maybe_skill(entry.name if entry else name)
        if entry is not None:
            label = entry.full_name
        elif defn is not None:
            label = defn.name
        else:
            raise NotFoundError(self._unknown_message(name))
        if entry is not None and entry.level is not None:
            return SkillLevel(label, int(entry.level), "direct")
        bonuses = self.trait_modifiers("skill", skill=defn) if defn else ()
        bonus = sum(m.value for m in bonuses)
        best_default = self._best_default(defn, _depth) if defn else None
        if entry is not None and entry.points > 0:
            attribute = entry.attribute or (defn.attribute if defn else "")
            difficulty = entry.difficulty or (defn.difficulty if defn else "")
            if not attribute or not difficulty:
                raise DataError(t("gurps.err.skill_needs_attribute", skill=entry.name))
            relative = relative_level(difficulty, entry.points)
            level = self.attribute_value(attribute) + relative + entry.bonus
            if best_default is not None and best_default[0] > level:
                return SkillLevel(label, best_default[0] + bonus, best_default[1], attribute, None, bonuses)
            return SkillLevel(label, level + bonus, "points", attribute, relative, bonuses)
        if best_default is None:
            raise RuleError(t("gurps.err.no_default", skill=label))
        return SkillLevel(label, best_default[0] + bonus, best_default[1],
                          defn.attribute if defn else "", None, bonuses)

    def _best_default(self, defn: SkillDef, depth: int) -> tuple[int, str] | None:
        best: tuple[int, str] | None = None
        for source, modifier in default_options(defn):
            try:
                value = self.attribute_value(source)
                text = f"default {source}{modifier:+d}"
            except DataError:
                if depth > 0:
                    continue
                entry = self.find_skill_entry(source)
                if entry is None:  # skill-to-skill defaults only from skills actually known
                    continue
                try:
                    known = self.skill_level(source, _depth=depth + 1)
                except (RuleError, NotFoundError):
                    continue
                # the source's own Talent/feature bonuses stay out: the defaulting skill adds its
                # bonuses once (GURPS-ADV-26; counted twice, Camouflage from Survival came out +2 high)
                value = known.level - sum(m.value for m in known.bonuses) - entry.bonus
                text = f"default {source}{modifier:+d}"
            if best is None or value + modifier > best[0]:
                best = (value + modifier, text)
        return best

    # -- checks ---------------------------------------------------------------------------------
    def weapon(self, name: str) -> CharacterWeapon:
        """A weapon on the sheet by name (case and spacing/punctuation ignored); NotFoundError with hints."""
        return find_weapon(self.name, self.weapons, name)

    def weapon_level(self, weapon: CharacterWeapon | str) -> int:
        """The weapon's effective skill on this sheet: its fixed level, else the skill (or attribute)
        it uses plus its modifier (GURPS-CMB-26: attack rolls are against the weapon skill)."""
        w = self.weapon(weapon) if isinstance(weapon, str) else weapon
        if "no_roll" in w.flags:
            raise RuleError(t("gurps.err.weapon.no_roll", weapon=w.name))
        if w.level is not None:
            return w.level
        source = w.skill_name
        short = max(0, w.min_st - self.st)  # -1 per point of ST below the weapon's minimum (GURPS-CMB-33)
        if match_key(source) in ("st", "dx", "iq", "ht", "will", "per"):
            return self.attribute_value(source) + w.modifier - short
        return self.skill_level(source).level + w.modifier - short

    def resolve(self, spec: CheckSpec | str) -> ResolvedCheck:
        """Turn a check spec into label, base and modifiers for this character; a fallback chain
        ("Lockpicking | IQ-5") picks the alternative with the best effective level."""
        if isinstance(spec, str):
            spec = parse_check_spec(spec)
        return best_alternative(spec, self._resolve_one)

    def _resolve_one(self, target: CheckTarget, defense: bool) -> ResolvedCheck:
        if target.name is None:
            return ResolvedCheck("", int(target.number or 0), target.modifiers, defense, "raw")
        key = _name_key(target.name)
        canonical = ATTRIBUTE_NAMES.get(key)
        if canonical is not None:
            return self._resolve_attribute(canonical, target.modifiers, defense)
        skill = self.skill_level(target.name)
        notes = () if skill.source in ("points", "direct") else (skill.source,)
        return ResolvedCheck(skill.name, skill.level, target.modifiers, defense, "skill", notes)

    def _resolve_attribute(self, name: str, mods: tuple[Modifier, ...], defense: bool) -> ResolvedCheck:
        if name in SENSES:  # GURPS-MEN-01: sense rolls vs Per, Acute Senses add
            traits = self.trait_modifiers(SENSES[name])
            return ResolvedCheck(name, self.per, traits + mods, defense, "sense")
        if name == "Fright Check":  # GURPS-MEN-10
            return ResolvedCheck(name, self.will, self.trait_modifiers("fright_check") + mods, defense,
                                 "fright")
        if name == "Dodge":
            load = (Modifier(-self.encumbrance_penalty, "encumbrance"),) if self.encumbrance else ()
            shield = (Modifier(self.defense_db, "shield DB"),) if self.defense_db else ()  # GURPS-CMB-43
            own = self.trait_modifiers("dodge") + shield + load
            halved = self.dodge - (self.base_dodge + sum(m.value for m in own))  # reeling, tired: INJ-01, FAT-01
            states = (Modifier(halved, t("gurps.mod.halved")),) if halved else ()
            return ResolvedCheck(name, self.base_dodge, own + states + mods, True, "defense")
        value = {"ST": self.st, "DX": self.dx, "IQ": self.iq, "HT": self.ht,
                 "Will": self.will, "Per": self.per}[name]
        if name == "ST" and self.tired:  # GURPS-FAT-01 (seed 004 line 1658): ST halved, round up, for ST rolls
            mods = (Modifier(halve_up(value) - value, t("gurps.mod.tired_st")), *mods)
        return ResolvedCheck(name, value, mods, defense, "attribute")

    def _unknown_message(self, name: str) -> str:
        from gamekernel.gurps.rules.skills import load_skills

        # one entry per name: a skill on the sheet is also in the skill list ("did you mean X, X?")
        known = sorted({*ATTRIBUTE_NAMES, *(s.name.casefold() for s in self.skills),
                        *(s.casefold() for s in load_skills())})
        close = get_close_matches(_name_key(name), known, n=3, cutoff=0.6)
        hint = t("gurps.err.did_you_mean", names=", ".join(close)) if close else ""
        return t("gurps.err.no_skill", name=self.name, skill=name, hint=hint)

    # -- reactions ------------------------------------------------------------------------------
    def reaction_modifiers(self, *, attracted: bool = False, npc_status: int = 0) -> tuple[Modifier, ...]:
        """The character's own reaction modifiers (GURPS-RR-03, CH-14..17, CH-25, CH-26, DIS-06):
        Appearance, Charisma, Voice, Reputation, OPH, Delusion, Status above the NPC's."""
        out: list[Modifier] = []
        appearance = load_traits()["appearance"].options.get(self.appearance, {})
        value = appearance.get("reaction_attracted" if attracted else "reaction", 0) if appearance else 0
        if attracted and "reaction_attracted" not in appearance:
            value = appearance.get("reaction", 0)
        if value:
            out.append(Modifier(int(value), f"Appearance ({appearance['name']})"))
        out.extend(self.trait_modifiers("reaction"))
        for reputation in self.reputations:
            label = f"Reputation: {reputation.description}" if reputation.description else "Reputation"
            out.append(Modifier(reputation.modifier, label))
        if self.status > npc_status:
            out.append(Modifier(self.status - npc_status, "Status"))
        return tuple(out)

    # -- points and validation ------------------------------------------------------------------
    def attribute_points(self) -> dict[str, int]:
        """Cost of each attribute (GURPS-CH-05); levels granted by traits are paid in the trait."""
        granted = dict(self.granted)
        return {name: self._reduced(name, (getattr(self, name) - granted.get(name, 0) - 10) * cost)
                for name, cost in ATTRIBUTE_COST.items()}

    def secondary_points(self) -> dict[str, int]:
        granted = {f"{key}_adj": value for key, value in self.granted}
        granted["move_adj"] = dict(self.granted).get("basic_move", 0)
        return {name: self._reduced(name, (getattr(self, name) - granted.get(name, 0)) * cost)
                for name, cost in SECONDARY_COST.items()}

    def _reduced(self, name: str, cost: int) -> int:
        """A cost less the sheet's `cost_reduction` for it (GCS: Size Modifier for ST and HP, No Fine
        Manipulators), at most 80% off, a fraction rounded up as GCS rounds (HP +4 at 20% off: 7)."""
        percent = min(80, dict(self.cost_reduction).get(name.removesuffix("_adj"), 0))
        if not percent:
            return cost
        return ceil(Fraction(cost * (100 - percent), 100))

    def skill_points(self) -> int:
        return sum(s.points for s in self.skills)

    def feature_points(self) -> list[tuple[str, int]]:
        """(label, cost) of every non-attribute, non-skill cost: traits, appearance, wealth, ..."""
        traits = load_traits()
        items: list[tuple[str, int]] = []
        appearance = traits["appearance"].options.get(self.appearance)
        if appearance and appearance["cost"]:
            items.append((f"Appearance ({appearance['name']})", int(appearance["cost"])))
        wealth = traits["wealth"].options.get(self.wealth)
        if wealth and wealth["cost"]:
            items.append((f"Wealth ({wealth['name']})", int(wealth["cost"])))
        if self.status:
            items.append((f"Status {self.status}", 5 * self.status))
        if self.tl:
            items.append((f"{'High' if self.tl > 0 else 'Low'} TL {self.tl:+d}", 5 * self.tl))
        for reputation in self.reputations:
            items.append((f"Reputation {reputation.modifier:+d}", 5 * reputation.modifier))
        for language in self.languages:
            items.append((f"Language: {language.name}", language_cost(language)))
        items.extend((trait.name, trait.points) for trait in self.traits)
        return items

    def points(self) -> PointBreakdown:
        """Point totals and the disadvantage limit (GURPS-CH-01, CH-03)."""
        attributes = sum(self.attribute_points().values())
        secondary = sum(self.secondary_points().values())
        features = [cost for _, cost in self.feature_points()]
        negatives = [c for c in self.attribute_points().values() if c < 0]
        negatives += [c for c in self.secondary_points().values() if c < 0]
        negatives += [c for c in features if c < 0]
        advantages = sum(c for c in features if c > 0)
        skills = self.skill_points()
        total = attributes + secondary + sum(features) + skills
        limit = -floor(self.budget * self.disadvantage_limit / 100)
        return PointBreakdown(
            attributes=attributes, secondary=secondary, advantages=advantages,
            disadvantages=sum(negatives), skills=skills, total=total, budget=self.budget,
            disadvantage_limit=limit,
        )

    def validate(self) -> tuple[Issue, ...]:
        """Readable problems: over budget, disadvantage limit, attribute ranges, odd skill spends,
        negated disadvantages (GURPS-CH-03, CH-06, CH-07, CH-29, STD-02, trait limits), worded in the
        current language when validated."""
        issues: list[Issue] = []
        pts = self.points()
        if pts.total > pts.budget:
            issues.append(issue("error", "points", t("gurps.issue.over_budget", total=pts.total,
                                                     over=pts.total - pts.budget, budget=pts.budget),
                                t("gurps.issue.field.points")))
        if pts.disadvantages < pts.disadvantage_limit:
            issues.append(issue("error", "disadvantages",
                                t("gurps.issue.disadvantage_limit", total=pts.disadvantages,
                                  limit=pts.disadvantage_limit, percent=self.disadvantage_limit, budget=pts.budget),
                                t("gurps.issue.field.disadvantages")))
        issues.extend(self._attribute_issues())
        if not self.allow_bought_secondary:
            for name, cost in self.secondary_points().items():
                if cost:
                    issues.append(issue("warning", name, t("gurps.issue.bought_secondary"),
                                        t(f"gurps.attr.{SECONDARY_LABELS[name]}")))
        for skill in self.skills:
            where = t("gurps.issue.field.skill", skill=_skill_shown(skill.name))
            if skill.level is None and skill.points < 1:
                issues.append(issue("error", f"skill {skill.name}", t("gurps.issue.skill_no_points"), where))
            elif skill.level is None and skill.difficulty != "W" and not is_standard_spend(skill.points):
                issues.append(issue("warning", f"skill {skill.name}",
                                    t("gurps.issue.skill_spend", points=skill.points), where))
        issues.extend(self._trait_issues())
        for reputation in self.reputations:
            if not -4 <= reputation.modifier <= 4:
                issues.append(issue("error", "reputation", t("gurps.issue.reputation",
                                                             modifier=f"{reputation.modifier:+d}"),
                                    _trait_shown("Reputation")))
        if not -2 <= self.status <= 8:
            issues.append(issue("warning", "status", t("gurps.issue.status", status=self.status),
                                _trait_shown("Status")))
        return tuple(issues)

    def _attribute_issues(self) -> list[Issue]:
        """Attributes outside the human range or the GM's usual limits (GURPS-CH-06, CH-07)."""
        issues: list[Issue] = []
        for name in ("st", "dx", "iq", "ht"):
            value = getattr(self, name)
            where = t(f"gurps.attr.{name.upper()}")
            if value < 1:
                issues.append(issue("error", name.upper(), t("gurps.issue.below_minimum", value=value), where))
            elif value > 20:
                issues.append(issue("warning", name.upper(), t("gurps.issue.above_20", value=value), where))
            elif value < 8:
                issues.append(issue("warning", name.upper(), t("gurps.issue.below_8", value=value), where))
        return issues

    def _trait_issues(self) -> list[Issue]:
        issues: list[Issue] = []
        ids = {t.id for t in self.traits if t.id}
        for trait in self.traits:
            defn = trait.definition
            if defn is None:
                continue
            for negated in defn.data.get("negates", []):
                if negated in ids:
                    other = load_traits()[negated].name
                    issues.append(issue("error", other, t("gurps.issue.negated", trait=_trait_shown(defn.name)),
                                        _trait_shown(other)))
            if defn.leveled:
                low, high = defn.level_range()
                if trait.level < low or (high is not None and trait.level > high):
                    issues.append(issue("error", trait.name, t("gurps.issue.trait_level", level=trait.level,
                                                               low=low, high=high), _trait_shown(trait.name)))
            if defn.data.get("villain"):
                issues.append(issue("warning", trait.name, t("gurps.issue.villain"), _trait_shown(trait.name)))
        return issues

    # -- persistence ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"schema": SCHEMA, "system": "gurps", "name": self.name}
        for name in ("st", "dx", "iq", "ht", "hp_adj", "will_adj", "per_adj", "fp_adj", "speed_adj",
                     "move_adj", "appearance", "wealth", "status", "tl", "dr", "shield_db", "budget",
                     "disadvantage_limit", "allow_bought_secondary", "hp_lost", "fp_lost",
                     "handedness", "notes"):
            data[name] = getattr(self, name)
        if self.gcs_source:
            data["gcs_source"] = self.gcs_source
        if self.side:
            data["side"] = self.side
        data["reputations"] = [{"modifier": r.modifier, "description": r.description} for r in self.reputations]
        data["languages"] = [asdict(language) for language in self.languages]
        data["traits"] = [t.to_dict() for t in self.traits]
        data["skills"] = [s.to_dict() for s in self.skills]
        data["equipment"] = list(self.equipment)
        if self.weapons:
            data["weapons"] = [w.to_dict() for w in self.weapons]
        if self.granted:
            data["granted"] = dict(self.granted)
        if self.feature_bonuses:
            data["feature_bonuses"] = [list(row) for row in self.feature_bonuses]
        if self.conditionals:
            data["conditionals"] = [list(row) for row in self.conditionals]
        if self.carried_kg:
            data["carried_kg"] = self.carried_kg
        if self.striking_st:
            data["striking_st"] = self.striking_st
        if self.can_block:
            data["can_block"] = True
        if self.lifting_st:
            data["lifting_st"] = self.lifting_st
        if self.cost_reduction:
            data["cost_reduction"] = dict(self.cost_reduction)
        if self.damage_progression != "basic_set":
            data["damage_progression"] = self.damage_progression
        if self.dice_for_adds:
            data["dice_for_adds"] = True
        if self.states:
            data["states"] = list(self.states)
        if self.death_line:
            data["death_line"] = self.death_line
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, where: str = "character") -> Character:
        """Rebuild from `to_dict` output; DataError names the field that is wrong."""
        if not isinstance(data, dict):
            raise DataError(t("gurps.err.file.object", where=where))
        if data.get("schema", SCHEMA) > SCHEMA:
            raise DataError(t("gurps.err.file.schema", where=where, schema=data.get("schema"), supported=SCHEMA))
        if not data.get("name"):
            raise DataError(t("gurps.err.file.no_name", where=where))
        kwargs: dict[str, Any] = {"name": str(data["name"])}
        for name, kind in (("st", int), ("dx", int), ("iq", int), ("ht", int), ("hp_adj", int),
                           ("will_adj", int), ("per_adj", int), ("fp_adj", int), ("speed_adj", int),
                           ("move_adj", int), ("status", int), ("tl", int), ("dr", int), ("shield_db", int),
                           ("budget", int),
                           ("disadvantage_limit", int), ("hp_lost", int), ("fp_lost", int),
                           ("appearance", str), ("wealth", str), ("handedness", str), ("notes", str),
                           ("gcs_source", str), ("side", str),
                           ("allow_bought_secondary", bool)):
            if name in data:
                value = data[name]
                if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
                    raise DataError(t("gurps.err.file.integer", where=where, field=name, value=value))
                if kind is str and not isinstance(value, str):
                    raise DataError(t("gurps.err.file.text", where=where, field=name, value=value))
                kwargs[name] = value
        try:
            kwargs["reputations"] = tuple(Reputation(int(r["modifier"]), r.get("description", ""))
                                          for r in data.get("reputations", []))
            kwargs["languages"] = tuple(Language(**lang) for lang in data.get("languages", []))
            kwargs["traits"] = tuple(Trait.from_dict(t) for t in data.get("traits", []))
            kwargs["skills"] = tuple(Skill.from_dict(s) for s in data.get("skills", []))
            kwargs["equipment"] = tuple(str(e) for e in data.get("equipment", []))
            kwargs["weapons"] = tuple(CharacterWeapon.from_dict(w, where=f"{where}: weapons[{i}]")
                                      for i, w in enumerate(data.get("weapons", [])))
            kwargs["granted"] = tuple((str(k), int(v)) for k, v in dict(data.get("granted", {})).items())
            kwargs["feature_bonuses"] = tuple((str(k), int(v), str(label))
                                              for k, v, label in data.get("feature_bonuses", []))
            kwargs["conditionals"] = tuple((int(v), str(text)) for v, text in data.get("conditionals", []))
            kwargs["carried_kg"] = float(data.get("carried_kg", 0.0))
            kwargs["striking_st"] = int(data.get("striking_st", 0))
            kwargs["can_block"] = bool(data.get("can_block", False))
            kwargs["lifting_st"] = int(data.get("lifting_st", 0))
            kwargs["cost_reduction"] = tuple((str(k), int(v)) for k, v in dict(data.get("cost_reduction", {})).items())
            kwargs["damage_progression"] = str(data.get("damage_progression", "basic_set"))
            kwargs["dice_for_adds"] = bool(data.get("dice_for_adds", False))
            kwargs["states"] = tuple(str(x) for x in data.get("states", []))
            kwargs["death_line"] = int(data.get("death_line", 0))
        except (KeyError, TypeError, ValueError) as error:
            raise DataError(t("gurps.err.file.entry", where=where, error=error)) from error
        traits = load_traits()
        if kwargs.get("appearance", "average") not in traits["appearance"].options:
            raise DataError(t("gurps.err.file.choice", where=where, field="appearance",
                              choices=", ".join(traits["appearance"].options)))
        if kwargs.get("wealth", "average") not in traits["wealth"].options:
            raise DataError(t("gurps.err.file.choice", where=where, field="wealth",
                              choices=", ".join(traits["wealth"].options)))
        return cls(**kwargs)

    def __repr__(self) -> str:
        return f"<Character {self}>"


def _same_skill(one: Skill, other: Skill) -> bool:
    """Two rows of one skill: the same full name, or the same listed skill (鍵開け = Lockpicking) and
    specialization."""
    if _name_key(one.full_name) == _name_key(other.full_name):
        return True
    first, second = maybe_skill(one.name), maybe_skill(other.name)
    return (first is not None and second is not None and first.name == second.name
            and _name_key(one.specialization) == _name_key(other.specialization))


def _name_key(name: str) -> str:
    """A skill name as looked up: widths, case and brackets aside, a typographic apostrophe as ' ."""
    return match_key(half_width(name).strip().strip("〈〉<>").replace("\u2019", "'").replace("\u2018", "'"))


def roll_check(
    character: Character, spec: CheckSpec | str, *, rng: random.Random | None = None, dice: Iterable[int] | None = None,
    extra: Iterable[Modifier] = (),
) -> SuccessRoll:
    """Resolve `spec` for `character` and roll it (checks.success_roll)."""
    if isinstance(spec, str):
        spec = parse_check_spec(spec)
    resolved = character.resolve(spec)
    return success_roll(
        resolved.base, resolved.modifiers + tuple(extra), label=resolved.label, actor=character.name,
        rng=rng, dice=dice, defense=resolved.defense, kind=resolved.kind, notes=resolved.notes,
    )


def check_edits(character: Character, changes: dict[str, Any]) -> None:
    """Refuse edits the rules forbid, before anything is logged: an attribute outside 1-20
    (GURPS-CH-04) and HP/FP lost below zero (current above the maximum: healing stops there)."""
    low, high = ATTRIBUTE_RANGE
    for key in ("st", "dx", "iq", "ht"):
        if key in changes and not low <= changes[key] <= high:
            raise RuleError(t("gurps.err.attribute_range", attribute=t(f"gurps.attr.{key.upper()}"),
                              value=changes[key], low=low, high=high))
    for key, most in (("hp_lost", "hp"), ("fp_lost", "fp")):
        if key in changes and changes[key] < 0:
            edited = replace(character, **changes)
            raise RuleError(t("gurps.err.above_maximum", what=t(f"gurps.attr.{most.upper()}"),
                              value=getattr(edited, most) - changes[key], most=getattr(edited, most)))
