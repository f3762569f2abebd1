"""Session operations of GURPS Lite (the `session.gurps.state` handle): characters, checks, contests, reactions,
damage, fright checks, self-control rolls.

Characters live in the "gurps" state part as frozen Character values; every change is an event
(`gurps.char.set`, `gurps.char.update`, `gurps.char.use`, `gurps.damage`). Rolls are planned here
with the session RNG, judged by gamekernel/gurps/rules, and recorded with their dice, so a replay
needs no RNG.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from gamekernel import limits
from gamekernel.errors import GameKernelError, NotFoundError, RuleError, UsageError
from gamekernel.events import refusing_failed_writes, register_event
from gamekernel.gurps.combat_actions import Combat
from gamekernel.gurps.results import (
    CharacterList,
    GcsDifferences,
    GcsLibraryLoaded,
    LibraryFound,
    LoadedCharacter,
    LuckStatus,
    SavedCharacter,
)
from gamekernel.gurps.rules.character_files import load_character, save_character
from gamekernel.gurps.rules.characters import (
    Character,
    check_edits,
    custom_skill,
    make_skill,
)
from gamekernel.gurps.rules.checks import (
    CheckSpec,
    CheckTarget,
    Modifier,
    ModifierLike,
    ResolvedCheck,
    SuccessRoll,
    best_alternative,
    normalize_modifiers,
    parse_check_spec,
    parse_modifiers,
    parse_side,
    raw_only,
    roll_3d6,
    split_vs,
    success_roll,
)
from gamekernel.gurps.rules.contests import QuickContest, RegularContest, quick_contest, regular_contest
from gamekernel.gurps.rules.damage import DamageRoll, parse_damage, roll_damage
from gamekernel.gurps.rules.fright import FrightCheck, fright_check
from gamekernel.gurps.rules.gcs import export_gcs, read_gcs
from gamekernel.gurps.rules.gcs.library import LibraryIndex, index_library
from gamekernel.gurps.rules.influence import INFLUENCE_SKILLS, InfluenceResult, influence_outcome
from gamekernel.gurps.rules.injury import shock_applies
from gamekernel.gurps.rules.luck import LuckResult, luck_level, luck_reroll, recovered_after, require_luck
from gamekernel.gurps.rules.reactions import ReactionRoll, reaction_roll
from gamekernel.gurps.rules.selfcontrol import SelfControlRoll, self_control_roll, situation_modifier
from gamekernel.gurps.rules.traits import make_trait
from gamekernel.gurps.rules.weapons import CharacterWeapon, parse_character_weapon
from gamekernel.i18n import t
from gamekernel.rulesets import RuleSetHandle
from gamekernel.state import register_part
from gamekernel.text import resolve_name, same_name, visible

PART = "gurps"
# Fields a sheet edit may change, with their types (GURPS-CH-04..26).
EDITABLE = {
    "st": int, "dx": int, "iq": int, "ht": int, "hp_adj": int, "will_adj": int, "per_adj": int, "fp_adj": int,
    "speed_adj": int, "move_adj": int, "status": int, "tl": int, "dr": int, "shield_db": int, "budget": int,
    "disadvantage_limit": int, "hp_lost": int, "fp_lost": int, "appearance": str, "wealth": str,
    "notes": str, "allow_bought_secondary": bool,
}

EDITABLE_ALIASES = {"db": "shield_db"}  # `%char set db=2`: a ready shield's Defense Bonus


@dataclass
class GurpsState:
    """The GURPS part of the table: characters by name, the active one, each actor's last check,
    and the Luck uses spent since the GM last said enough play time had passed (GURPS-ADV-19)."""

    characters: dict[str, Character] = field(default_factory=dict)
    active: str | None = None
    last_check: dict[str, dict] = field(default_factory=dict)
    luck_used: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"characters": {n: c.to_dict() for n, c in sorted(self.characters.items())},
                "active": self.active, "last_check": dict(sorted(self.last_check.items())),
                "luck_used": dict(sorted(self.luck_used.items()))}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GurpsState:
        return cls({n: Character.from_dict(c) for n, c in data.get("characters", {}).items()},
                   data.get("active"), dict(data.get("last_check", {})), dict(data.get("luck_used", {})))


register_part(PART, GurpsState)


# --- reducers (deterministic: only the event data) --------------------------------------------------


def _apply_set(state, data: Mapping[str, Any]) -> None:
    part: GurpsState = state[PART]
    character = Character.from_dict(data["character"])
    part.characters[character.name] = character
    if data.get("activate", True) or part.active is None:
        part.active = character.name


def _apply_update(state, data: Mapping[str, Any]) -> None:
    part: GurpsState = state[PART]
    part.characters[data["name"]] = replace(part.characters[data["name"]], **data["changes"])


def _apply_use(state, data: Mapping[str, Any]) -> None:
    state[PART].active = data["name"]


def _apply_check(state, data: Mapping[str, Any]) -> None:
    result = data["result"]
    state[PART].last_check[result.get("actor") or ""] = dict(result)


def _apply_damage(state, data: Mapping[str, Any]) -> None:
    part: GurpsState = state[PART]
    target = data.get("applied_to")
    if target and target in part.characters:
        current = part.characters[target]
        part.characters[target] = replace(current, hp_lost=current.hp_lost + int(data["injury"]))


def _apply_luck(state, data: Mapping[str, Any]) -> None:
    part: GurpsState = state[PART]
    name = data["result"]["actor"]
    part.luck_used[name] = part.luck_used.get(name, 0) + 1
    part.last_check[name] = {**data["result"]["kept"], "luck": True}


def _apply_luck_reset(state, data: Mapping[str, Any]) -> None:
    part: GurpsState = state[PART]
    for name in data["names"]:
        part.luck_used.pop(name, None)


register_event("gurps.char.set", apply=_apply_set, changes=(PART,))
register_event("gurps.char.update", apply=_apply_update, changes=(PART,))
register_event("gurps.char.use", apply=_apply_use, changes=(PART,))
register_event("gurps.char.save", changes=())
register_event("gurps.check", apply=_apply_check, changes=(PART,))
register_event("gurps.contest", changes=())
register_event("gurps.regular_contest", changes=())
register_event("gurps.react", changes=())
register_event("gurps.influence", changes=())
register_event("gurps.damage", apply=_apply_damage, changes=(PART,))
register_event("gurps.luck", apply=_apply_luck, changes=(PART,))
register_event("gurps.luck.reset", apply=_apply_luck_reset, changes=(PART,))
register_event("gurps.fright", changes=())
register_event("gurps.self_control", changes=())


def _skill_level_or_none(character: Character, skill: str) -> int | None:
    """A skill's level for the log line; None when the sheet cannot compute it (a broken import)."""
    try:
        return character.skill_level(skill).level
    except Exception:
        return None


REPORT_EXAMPLES = 3  # differences `%char load` shows; `%char diff` lists them all


def _load_report(name: str, used_file: int, differences: tuple[str, ...]) -> tuple[str, ...]:
    """What `%char load` says of a GCS file, in a few lines: how many of the file's numbers replaced
    ours, how many values at the table still differ (the first few), and the command for all."""
    out = [t("gurps.gcs.used_file", count=used_file)] if used_file else []
    if differences:
        out.append(t("gurps.gcs.play_summary", count=len(differences), name=quoted_name(name)))
        out.extend(differences[:REPORT_EXAMPLES])
    return tuple(out)


def quoted_name(name: str) -> str:
    """A name as a magic takes it: quoted when it has spaces ("Sir Henryk")."""
    return f'"{name}"' if any(ch.isspace() for ch in name) else name


class Gurps(RuleSetHandle):
    """GURPS on one table (`session.gurps`): `session.gurps.check("Lockpicking-5 dark")` etc."""

    name = "gurps"
    _gcs_library: LibraryIndex | None = None

    # -- characters ---------------------------------------------------------------------------------
    @property
    def state(self) -> GurpsState:
        return self.table.state[PART]

    def characters(self) -> CharacterList:
        part = self.state
        return CharacterList(tuple(part.characters[n] for n in sorted(part.characters)), part.active)

    def character(self, name: str | None = None) -> Character:
        """A character by name (English or as typed), or the active one; NotFoundError with hints."""
        part = self.state
        if name is None:
            if part.active is None:
                raise UsageError(t("gurps.err.no_active"))
            return part.characters[part.active]
        found, close = resolve_name(name, part.characters)
        if found is not None:
            return part.characters[found]
        hint = t("gurps.err.did_you_mean", names=", ".join(close)) if close else (
            t("gurps.err.known", known=", ".join(sorted(part.characters))) if part.characters
            else t("gurps.err.create_character"))
        raise NotFoundError(t("gurps.err.no_character", name=name, hint=hint))

    def character_public(self, name: str | None = None) -> Character:
        """The character as the players know it (the public table): HP, FP and conditions a secret roll
        changed stay as they were until the GM reveals it (GURPS-SR-09)."""
        true = self.character(name)
        public = self.table.public_state()[PART]
        return public.characters.get(true.name, true)

    def add_character(self, character: Character, *, activate: bool = True,
                      change: Mapping[str, Any] | None = None) -> Character:
        """Put a Character at the table (replacing one of the same name); logged. `change` describes
        a sheet edit for the log line (what = skill | trait | weapon, see render.gurps.char_change_text)."""
        if not isinstance(character, Character):
            raise UsageError(t("gurps.err.add_character"))
        if not character.name.strip():
            raise UsageError(t("gurps.err.character_name"))
        data: dict[str, Any] = {"character": character.to_dict(), "activate": activate}
        if change:
            data["change"] = dict(change)
        self.table.record("gurps.char.set", data, actor=character.name)
        return self.state.characters[character.name]

    def char_new(
        self, name: str, *, traits: Iterable[str | tuple] = (), skills: Iterable[str | tuple] = (),
        activate: bool = True, **fields: Any,
    ) -> Character:
        """Create a character: `gurps_char_new("Aiko", dx=12, iq=12, skills=[("Lockpicking", 8)],
        traits=["Combat Reflexes", ("Acute Vision", 2)])`."""
        name = visible(name).strip()
        if not name:
            raise UsageError(t("gurps.err.new_name"))
        built_traits = []
        for item in traits:
            if isinstance(item, str):
                built_traits.append(make_trait(item))
            else:
                trait_name, *rest = item
                level = rest[0] if rest and isinstance(rest[0], int) else 1
                option = rest[0] if rest and isinstance(rest[0], str) else ""
                built_traits.append(make_trait(trait_name, level=level, option=option))
        built_skills = []
        for item in skills:
            if isinstance(item, str):
                built_skills.append(make_skill(item, 1))
            else:
                skill_name, points, *rest = item
                built_skills.append(make_skill(skill_name, int(points), level=rest[0] if rest else None))
        unknown = [k for k in fields if k not in Character.__dataclass_fields__ or k in ("name", "traits", "skills")]
        if unknown:
            raise UsageError(t("gurps.err.character_field", field=unknown[0]))
        character = Character(name=name, traits=tuple(built_traits), skills=tuple(built_skills), **fields)
        Character.from_dict(character.to_dict())  # validates appearance/wealth names before logging
        return self.add_character(character, activate=activate)

    def char_import(self, path: str | os.PathLike[str], *, activate: bool = True, side: str = "") -> LoadedCharacter:
        """Load a character file; for a GCS file also say, one line each, where the file's value
        is used because our computation differs (`%char load`). `side`: the side it fights on (a
        monster's `foes`, `%char load x.gcs --npc`), else the file's own, else the party's."""
        given = bool(side)
        if given:
            from gamekernel.gurps.rules.combat.sides import PARTY, side_key

            side = side_key(side)
            side = "" if side == PARTY else side  # the party is a sheet's default: stored as none
        if Path(path).suffix.lower() == ".gcs":
            from gamekernel.gurps.gcs_play import play_differences

            result = read_gcs(path)
            lines = result.mismatch_lines()
            character = replace(result.character, notes="; ".join([*lines, *result.warnings]),
                                gcs_source=str(path), side=side)
            added = self.add_character(character, activate=activate)
            report = _load_report(added.name, len(lines), play_differences(result.document, added))
            return LoadedCharacter(added, report, result.warnings)
        character = load_character(path)
        character = replace(character, source="", side=side if given else character.side)
        return LoadedCharacter(self.add_character(character, activate=activate))

    def char_diff(self, name: str | None = None) -> GcsDifferences:
        """Every number at the table that differs from the character's GCS file, one line each
        (`%char diff`), read afresh from the file it was loaded from."""
        from gamekernel.gurps.gcs_play import play_differences

        character = self.character(name)
        if not character.gcs_source:
            raise UsageError(t("gurps.err.gcs.no_file", name=character.name))
        result = read_gcs(character.gcs_source)
        return GcsDifferences(character.name, (*result.mismatch_lines(),
                                               *play_differences(result.document, character)))

    def char_save(self, name: str | None = None, path: str | os.PathLike[str] | None = None) -> SavedCharacter:
        """Write a character as JSON (atomic); the default path is `<name>.json`. A `.gcs` path writes
        a copy of the character's GCS file with its current HP/FP and conditions."""
        character = self.character(name)
        # a typed path may hold folders and `~`; a name from data (a .gcs) is only ever a file name
        target = limits.user_path(path) if path else Path(limits.data_name(character.name) + ".json")
        with refusing_failed_writes(str(target)):
            if target.suffix.lower() == ".gcs":
                export_gcs(character, target)
            else:
                save_character(target, character)
        self.table.record("gurps.char.save", {"name": character.name, "path": str(target)}, actor=character.name)
        return SavedCharacter(character.name, str(target))

    def char_use(self, name: str) -> Character:
        """Make a character the active one (the default actor of checks)."""
        character = self.character(name)
        self.table.record("gurps.char.use", {"name": character.name})
        return character

    def char_set(self, name: str | None = None, /, **changes: Any) -> Character:
        """Change fields of a character (`gurps_char_set("Aiko", dx=13)`): the sheet widget's edits; logged."""
        character = self.character(name)
        clean: dict[str, Any] = {}
        for key, value in changes.items():
            key = EDITABLE_ALIASES.get(key, key)
            kind = EDITABLE.get(key)
            if kind is None:
                close = get_close_matches(key, list(EDITABLE), n=3)
                hint = t("gurps.err.did_you_mean", names=", ".join(close)) if close else ""
                raise UsageError(t("gurps.err.cannot_edit", key=key, hint=hint))
            if kind is int:
                try:
                    value = int(value)
                except (TypeError, ValueError):
                    raise UsageError(t("gurps.err.whole_number", what=key, value=value)) from None
            clean[key] = kind(value)
        if not clean:
            raise UsageError(t("gurps.err.nothing_to_change"))
        Character.from_dict({**character.to_dict(), **clean})  # validates before logging
        check_edits(character, clean)
        clean = {key: value for key, value in clean.items() if getattr(character, key) != value}
        if not clean:  # "DX 14 -> 14": nothing changes, nothing is recorded
            return character
        before = {key: getattr(character, key) for key in clean}
        self.table.record("gurps.char.update", {"name": character.name, "changes": clean, "before": before},
                    actor=character.name)
        return self.state.characters[character.name]

    def char_add_skill(
        self, skill: str, points: int, *, level: int | None = None, name: str | None = None,
        difficulty: str | None = None,
    ) -> Character:
        """Add (or re-buy) a skill: from the skill list and the Basic Set catalog
        (`gurps_char_add_skill("Lockpicking", 8)`, `"Guns (Pistol)"`), or any skill with its attribute and
        difficulty (`gurps_char_add_skill("Underwater Demolition", 2, difficulty="DX/A")`); logged."""
        character = self.character(name)
        if difficulty:
            new = custom_skill(skill, difficulty, int(points))
        else:
            try:
                new = make_skill(skill, int(points), level=level)
            except NotFoundError:
                if self._gcs_library is None:
                    raise
                entry = self._gcs_library.find(skill, "skill")  # the loaded GCS library, with hints
                new = replace(custom_skill(entry.name, str(entry.facts.get("difficulty", "")), int(points)),
                              specialization=entry.specialization)
        if new.points < 1 and new.level is None:
            raise UsageError(t("gurps.err.skill_one_point", skill=new.name))
        old = next((s for s in character.skills if s.full_name == new.full_name), None)
        skills = (*(s for s in character.skills if s.full_name != new.full_name), new)
        changed = replace(character, skills=skills)
        change: dict[str, Any] = {"what": "skill", "skill": new.full_name, "points": new.points,
                                  "level": _skill_level_or_none(changed, new.full_name)}
        if old is not None:
            change.update(was_points=old.points, was_level=_skill_level_or_none(character, old.full_name))
        return self.add_character(changed, activate=self.state.active == character.name, change=change)

    def library(self, path: str | os.PathLike[str], *, cache: str | None = None,
                      progress=None) -> GcsLibraryLoaded:
        """Read a GCS library folder (skills, spells, traits, equipment) into a cached index; names
        then resolve against it (`%char skill`, `%gurps find`)."""
        index = index_library(path, cache=cache, progress=progress)
        self._gcs_library = index
        counts = index.counts()
        return GcsLibraryLoaded(str(path), tuple((k, counts.get(k, 0)) for k in ("skill", "spell", "trait",
                                                                                 "equipment")),
                                index.from_cache, index.skipped)

    def find(self, name: str, kind: str | None = None) -> LibraryFound:
        """An entry of the loaded GCS library by name (close matches when missing)."""
        if self._gcs_library is None:
            raise UsageError(t("gurps.library.none"))
        return LibraryFound(self._gcs_library.find(name, kind))

    def char_add_trait(
        self, trait: str, *, level: int = 1, option: str = "", name: str | None = None,
    ) -> Character:
        """Add a trait from the data: `gurps_char_add_trait("Acute Vision", level=2)`; logged."""
        character = self.character(name)
        new = make_trait(trait, level=level, option=option)
        kept = tuple(t for t in character.traits if not (t.id and t.id == new.id and t.option == new.option))
        was = [t.name for t in character.traits if t not in kept]
        change = {"what": "trait", "trait": new.name, "points": new.points, "was": was[0] if was else ""}
        return self.add_character(replace(character, traits=(*kept, new)),
                                  activate=self.state.active == character.name, change=change)

    def char_add_weapon(self, weapon: str | CharacterWeapon, *, name: str | None = None) -> Character:
        """Put a weapon on the sheet (replacing one of the same name): `gurps_char_add_weapon("Broadsword:14:sw+1 cut")`
        or `"Shortsword:Broadsword-2:sw cut"` (the level then follows the skill); logged."""
        character = self.character(name)
        new = parse_character_weapon(weapon) if isinstance(weapon, str) else weapon
        character.weapon_level(new)  # the skill must be usable (bought, or with a default) before logging
        kept = tuple(w for w in character.weapons if not same_name(w.name, new.name))
        action = "replaced" if len(kept) < len(character.weapons) else "added"
        return self.add_character(replace(character, weapons=(*kept, new)),
                                  activate=self.state.active == character.name,
                                  change={"what": "weapon", "weapon": new.name, "action": action})

    def char_drop_weapon(self, weapon: str, *, name: str | None = None) -> Character:
        """Take a weapon off the sheet; logged."""
        character = self.character(name)
        gone = character.weapon(weapon)
        return self.add_character(replace(character, weapons=tuple(w for w in character.weapons if w != gone)),
                                  activate=self.state.active == character.name,
                                  change={"what": "weapon", "weapon": gone.name, "action": "removed"})

    # -- rolls ----------------------------------------------------------------------------------------
    def _actor_or_none(self, actor: str | None) -> Character | None:
        if actor is not None:
            return self.character(actor)
        part = self.state
        return part.characters[part.active] if part.active else None

    def _resolve(self, spec: CheckSpec, actor: str | None = None) -> tuple[ResolvedCheck, Character | None]:
        """The spec's best alternative (gurps.rules.checks.best_alternative) and whose it is: the
        named actor, else the spec's own, else the active character; a spec of plain numbers with no
        actor named needs no character (and has none)."""
        who = actor or spec.actor
        character = None if (who is None and raw_only(spec)) else self._actor_or_none(who)
        return (character.resolve(spec) if character else best_alternative(spec)), character

    def check_odds(self, spec: str | CheckSpec, actor: str | None = None):
        """Exact odds of a success roll against `spec` (a number, or a skill of `actor`): `%odds check`."""
        from gamekernel.gurps.rules.odds import check_odds

        return check_odds(self.check_target(spec, actor))

    def contest_odds(self, first: str | CheckSpec, second: str | CheckSpec, actor: str | None = None):
        """Exact odds of a Quick Contest between two specs: `%odds contest 14 vs 12`."""
        from gamekernel.gurps.rules.odds import quick_contest_odds

        return quick_contest_odds(self.check_target(_as_side(first), actor),
                                  self.check_target(_as_side(second), actor))

    def check_target(self, spec: str | CheckSpec, actor: str | None = None) -> int:
        """The effective target of a check spec: its best alternative, numbers or `[Name:]Skill±n`."""
        return self._resolve(_as_side(spec), actor)[0].target

    def check(
        self, spec: str | CheckSpec, *, actor: str | None = None, secret: bool = False,
        modifiers: Iterable = (), dice: Iterable[int] | None = None,
    ) -> SuccessRoll:
        """A success roll: `gurps_check("Lockpicking-5 dark")`, `gurps_check("Per+2", actor="Aiko", secret=True)`,
        `gurps_check("12")`. Resolves names against the actor (default: the active character). A str is
        parsed once here (the Python API); magics and widgets pass a parsed CheckSpec."""
        parsed = parse_check_spec(spec) if isinstance(spec, str) else spec
        secret = secret or parsed.secret
        who = actor or parsed.actor
        character = self._actor_or_none(who)
        resolved, _ = self._resolve(parsed, character.name if character else None)
        name = character.name if character else ""
        extra = normalize_modifiers(modifiers) + self.shock(character, resolved)
        faces = tuple(dice) if dice is not None else None
        result = success_roll(resolved.base, resolved.modifiers + extra, label=resolved.label, actor=name,
                              rng=None if faces else self.table.dice_for(secret), dice=faces, defense=resolved.defense,
                              kind=resolved.kind, notes=resolved.notes)
        if secret:
            result = replace(result, secret=True)
        self.table.record("gurps.check", {"spec": parsed.text or str(spec), "result": result.to_dict()},
                    actor=name or None, secret=secret)
        return result

    def shock(self, character: Character | None, resolved: ResolvedCheck | None = None) -> tuple[Modifier, ...]:
        """The shock a character in a fight feels on this turn, as a modifier to a DX- or IQ-based
        roll (GURPS-INJ-05); nothing outside a fight, for HT/Will/Per or an active defense. Without
        `resolved`: for a spell (IQ-based)."""
        fight = Combat.of(self.table).state
        if character is None or fight is None or fight.find(character.name) is None:
            return ()
        c = fight.get(character.name)
        if not c.shock or c.shock_round != fight.round:
            return ()
        if resolved is not None and (resolved.defense or not shock_applies(_controlling(character, resolved))):
            return ()
        return (Modifier(-c.shock, t("gurps.mod.shock")),)

    def check_named(self, key: str, *, actor: str | None = None,
                    modifiers: Iterable[ModifierLike] = ()) -> SuccessRoll:
        """A success roll against one attribute or skill named exactly (the sheet widget's click):
        "DX", "Per", "Dodge", or a skill's full name as the sheet lists it, e.g. "Area Knowledge
        (Route-66)". Nothing is parsed: no alternatives, the key names the row; `modifiers` are the
        GM's for this roll (the sheet's modifier field, already read), named in the result and the
        event as `%check Lockpicking -5 dark` names its own (GURPS-SR-04)."""
        character = self.character(actor)
        mods = normalize_modifiers(modifiers)
        text = " ".join([key, *(f"{m.value:+d} {m.label}".strip() for m in mods)])
        return self.check(CheckSpec((CheckTarget(name=key, number=None, modifiers=mods),), text=text),
                          actor=character.name)

    # -- Luck (GURPS-ADV-19..21) --------------------------------------------------------------------
    def luck(self, name: str | None = None) -> LuckResult:
        """Use Luck on the character's last success roll: reroll it twice and keep the best of the
        three (GURPS-ADV-19). Declared right after the roll; one use per period of play (Luck 1 h,
        Extraordinary 30 min, Ridiculous 10 min) until `luck_reset`; logged and undoable."""
        character = self._actor_or_none(name)
        if character is None:
            raise UsageError(t("gurps.err.no_active"))
        last = self.state.last_check.get(character.name)
        own = [e for e in self.table.active if e.actor == character.name]
        level = require_luck(character.name, luck_level(character), self.state.luck_used.get(character.name, 0),
                             last, own[-1].kind if own else None)
        assert last is not None  # require_luck refused when there is no roll to reroll
        original = SuccessRoll.from_dict(last)
        faces = [roll_3d6(self.table.dice_for(original.secret)) for _ in range(level.rolls - 1)]
        result = luck_reroll(original, level, faces, note=t("gurps.luck.note", trait=level.name, rolls=level.rolls))
        self.table.record("gurps.luck", {"result": result.to_dict()}, actor=character.name, secret=result.secret)
        return result

    def luck_status(self) -> LuckStatus:
        rows = []
        for name in sorted(self.state.characters):
            level = luck_level(self.state.characters[name])
            if level is not None:
                rows.append((name, level.name, level.every_minutes, self.state.luck_used.get(name, 0) > 0))
        return LuckStatus(tuple(rows))

    def luck_reset(self, name: str | None = None, *, minutes: int | None = None) -> LuckStatus:
        """The GM says play time has passed: spent Luck comes back (all of it, one character's, or
        with `minutes` only the levels whose interval has passed: 10 min restores Ridiculous Luck)."""
        names = [self.character(name).name] if name else sorted(self.state.luck_used)
        back = []
        for who in names:
            level = luck_level(self.state.characters[who]) if who in self.state.characters else None
            if who in self.state.luck_used and (level is None or recovered_after(level, minutes)):
                back.append(who)
        self.table.record("gurps.luck.reset", {"names": back, "minutes": minutes})
        return self.luck_status()

    def contest(
        self, a: str | CheckSpec, b: str | CheckSpec | None = None, *, secret: bool = False, regular: bool = False,
        max_rounds: int = 20,
    ) -> QuickContest | RegularContest:
        """A Quick Contest (`gurps_contest("Aiko:Stealth vs Guard:Per")`, or two sides) or, with `regular`,
        a Regular Contest capped at `max_rounds` rounds (every round kept). A side is a CheckSpec
        (`parse_side`), its actor the character; a str is parsed once here."""
        if b is None:
            if not isinstance(a, str):
                raise UsageError(t("gurps.err.contest_sides"))
            parts = split_vs(a)
            if len(parts) != 2:
                raise UsageError(t("gurps.err.contest_sides"))
            a, b = parts
        a_resolved, a_who = self._resolve(_as_side(a))
        b_resolved, b_who = self._resolve(_as_side(b))
        a_base, a_mods, a_label = a_resolved.base, a_resolved.modifiers, a_resolved.label
        b_base, b_mods, b_label = b_resolved.base, b_resolved.modifiers, b_resolved.label
        a_actor, b_actor = (a_who.name if a_who else ""), (b_who.name if b_who else "")
        result: QuickContest | RegularContest
        dice = self.table.dice_for(secret)
        if regular:
            result = regular_contest(a_base, b_base, a_mods=a_mods, b_mods=b_mods, a_label=a_label,
                                     b_label=b_label, a_actor=a_actor, b_actor=b_actor, rng=dice,
                                     max_rounds=max_rounds)
            kind = "gurps.regular_contest"
        else:
            ra = success_roll(a_base, a_mods, label=a_label, actor=a_actor, rng=dice, always_roll=True,
                              kind="contest")
            rb = success_roll(b_base, b_mods, label=b_label, actor=b_actor, rng=dice, always_roll=True,
                              kind="contest")
            result = quick_contest(ra, rb)
            kind = "gurps.contest"
        if secret:
            result = replace(result, secret=True)
        self.table.record(kind, {"result": result.to_dict()}, actor=a_actor or None, secret=secret)
        return result

    def react(
        self, modifiers: str | Iterable[ModifierLike] = "", *, actor: str | None = None, npc: str = "",
        secret: bool = False, attracted: bool = False, npc_status: int = 0,
    ) -> ReactionRoll:
        """A reaction roll: 3d + the given modifiers + the actor's own (Appearance, Charisma, Voice,
        Reputation, OPH, Status...); the actor defaults to the active character."""
        mods = parse_modifiers(modifiers) if isinstance(modifiers, str) else normalize_modifiers(modifiers)
        character = self._actor_or_none(actor)
        own = character.reaction_modifiers(attracted=attracted, npc_status=npc_status) if character else ()
        result = reaction_roll(own + mods, rng=self.table.dice_for(secret), npc=npc,
                               actor=character.name if character else "")
        if secret:
            result = replace(result, secret=True)
        self.table.record("gurps.react", {"result": result.to_dict()}, actor=result.actor or None, secret=secret)
        return result

    def influence(
        self, skill: str | CheckSpec, target: str, *, actor: str | None = None, modifiers: Iterable = (),
        secret: bool = False,
    ) -> InfluenceResult:
        """An Influence roll: Quick Contest of an Influence skill (+ Charisma) vs the target's Will
        (+ Fearlessness against Intimidation); Diplomacy also rolls a reaction (GURPS-MEN-06..08)."""
        character = self._actor_or_none(actor)
        if character is None:
            raise UsageError(t("gurps.err.no_active"))
        resolved = character.resolve(skill)
        if resolved.label not in INFLUENCE_SKILLS:
            raise UsageError(t("gurps.err.not_influence", skill=resolved.label, skills=", ".join(INFLUENCE_SKILLS)))
        other = self.character(target)
        mods = resolved.modifiers + character.trait_modifiers("influence") + normalize_modifiers(modifiers)
        will_mods: tuple[Modifier, ...] = ()
        if resolved.label == "Intimidation":
            will_mods = other.trait_modifiers("resist_intimidation")
        dice = self.table.dice_for(secret)
        ra = success_roll(resolved.base, mods, label=resolved.label, actor=character.name, rng=dice,
                          always_roll=True, kind="contest")
        rb = success_roll(other.will, will_mods, label="Will", actor=other.name, rng=dice,
                          always_roll=True, kind="contest")
        reaction = None
        if resolved.label == "Diplomacy":
            reaction = reaction_roll(character.reaction_modifiers(), rng=self.table.dice_for(secret), npc=other.name,
                                     actor=character.name)
        result = influence_outcome(quick_contest(ra, rb), resolved.label, reaction)
        if secret:
            result = replace(result, secret=True)
        self.table.record("gurps.influence", {"result": result.to_dict()}, actor=character.name, secret=secret)
        return result

    def damage(
        self, spec: str, *, target: str | None = None, attacker: str | None = None, dr: int | None = None,
        half: bool = False, secret: bool = False, apply: bool = True,
    ) -> DamageRoll | Any:
        """A damage roll: `gurps_damage("2d+1 cut", target="Goblin")`; thr/sw use the attacker's ST (default:
        the active character); DR defaults to the target's. A known target (a fighter, or a character
        outside a fight) takes it through the one injury path (`combat_damage`: major wound, consciousness
        and death checks, states) and the combat result is returned; an unknown name gets a plain roll."""
        fighter = Combat.of(self.table).fighter(target) if (apply and target) else None
        if fighter is not None:
            return self._damage_in_fight(fighter, spec, attacker=attacker, dr=dr, half=half, secret=secret)
        source = self._actor_or_none(attacker) if attacker or any(
            w in spec.lower() for w in ("thr", "sw")) else None
        parsed = parse_damage(spec, st=source.st if source else None)
        victim = None
        if target is not None:
            try:
                victim = self.character(target)
            except NotFoundError:
                victim = None
        if victim is not None and apply:  # the one injury path, outside a fight (GURPS-INJ)
            text = str(parsed) if source is not None else spec
            return Combat.of(self.table).damage(victim.name, text, attacker=source.name if source else (attacker or ""),
                                            dr=dr, half=half, secret=secret)
        if dr is None:
            dr = victim.dr if victim else 0
        dice = self.table.dice_for(secret)
        result = roll_damage(parsed, dr=dr, rng=dice, target=victim.name if victim else (target or ""),
                             attacker=source.name if source else (attacker or ""), half=half)
        if secret:
            result = replace(result, secret=True)
        applied = victim.name if (victim and apply) else None
        self.table.record("gurps.damage", {"result": result.to_dict(), "injury": result.injury, "applied_to": applied},
                    actor=result.attacker or None, secret=secret)
        return result

    def _damage_in_fight(self, fighter: str, spec: str, *, attacker: str | None, dr: int | None, half: bool,
                         secret: bool):
        """`gurps_damage()` on a combatant: thr/sw use a fighting attacker's ST, else the named (or active)
        character's ST resolved to plain dice here, so the combat event holds everything it needs."""
        by = Combat.of(self.table).fighter(attacker) if attacker else None
        if by is None and any(w in spec.lower() for w in ("thr", "sw")):
            source = self._actor_or_none(attacker)
            if source is None:
                raise UsageError(t("gurps.err.damage_by", spec=spec))
            by = Combat.of(self.table).fighter(source.name)
            if by is None:
                spec = str(parse_damage(spec, st=source.st))
        return Combat.of(self.table).damage(fighter, spec, attacker=by or "", dr=dr, half=half, secret=secret)

    def fright(
        self, modifiers: str | Iterable[ModifierLike] = "", *, actor: str | None = None, secret: bool = False,
        rule_of_14: bool = False,
    ) -> FrightCheck:
        """A Fright Check vs Will (+ Combat Reflexes, Fearlessness) with the seed's outcomes."""
        mods = parse_modifiers(modifiers) if isinstance(modifiers, str) else normalize_modifiers(modifiers)
        character = self._actor_or_none(actor)
        if character is None:
            raise UsageError(t("gurps.err.no_active"))
        own = character.trait_modifiers("fright_check")
        result = fright_check(character.will, own + mods, actor=character.name, rng=self.table.dice_for(secret),
                              rule_of_14=rule_of_14)
        if secret:
            result = replace(result, secret=True)
        self.table.record("gurps.fright", {"result": result.to_dict()}, actor=character.name, secret=secret)
        return result

    def self_control(
        self, trait: str, modifiers: str | Iterable[ModifierLike] = "", *, actor: str | None = None,
        situation: str = "", secret: bool = False,
    ) -> SelfControlRoll:
        """A self-control roll (3d vs 12) for one of the actor's * disadvantages, e.g. "Bad Temper"."""
        mods = parse_modifiers(modifiers) if isinstance(modifiers, str) else normalize_modifiers(modifiers)
        character = self._actor_or_none(actor)
        if character is None:
            owned = make_trait(trait)
            name = ""
        else:
            found = character.has_trait(trait)
            if found is None:
                raise NotFoundError(t("gurps.err.no_trait", name=character.name, trait=trait))
            owned, name = found, character.name
        if situation:
            defn = owned.definition
            if defn is None:  # a custom trait (from GCS) has no self-control situations (GURPS-CH-28)
                raise RuleError(t("gurps.err.not_cr_trait", trait=owned.name))
            mods = (*mods, Modifier(situation_modifier(defn, situation), situation))
        result = self_control_roll(owned, mods, rng=self.table.dice_for(secret), actor=name)
        if secret:
            result = replace(result, secret=True)
        self.table.record("gurps.self_control", {"result": result.to_dict()}, actor=name or None, secret=secret)
        return result


def _controlling(character: Character, resolved: ResolvedCheck) -> str:
    """The attribute a resolved check rests on: itself, or the skill's controlling attribute."""
    if resolved.kind == "attribute":
        return resolved.label
    if resolved.kind != "skill":
        return ""
    try:
        return character.skill_level(resolved.label).attribute
    except GameKernelError:
        return ""


def _as_side(spec: str | CheckSpec) -> CheckSpec:
    """A contest side or a check spec given as text (the Python API), parsed once: "Aiko:Stealth"."""
    return parse_side(spec) if isinstance(spec, str) else spec
