"""GURPS skills: the skill list (data/skills.json), levels from points, defaults.

    find_skill(name) -> SkillDef                 # English or Japanese, case-insensitive, 〈〉 allowed
    relative_level(difficulty, points) -> int    # GURPS-STD-01/02 (level relative to the attribute)
    points_for_relative(difficulty, relative)    # the inverse: cheapest spend for a relative level
    default_options(skill_def) -> [(source, modifier)]  # GURPS-STD-03

The seed has no skill list; the skills here are the ones the seed names, with the standard
attribute/difficulty and defaults ([std]) except where the seed states the default
(Climbing DX-5, Hiking HT-5, Throwing DX-3, Diagnosis IQ-6, Swimming HT-4).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from difflib import get_close_matches
from functools import cache
from importlib import resources

from gamekernel.errors import DataError, NotFoundError, UsageError
from gamekernel.i18n import t
from gamekernel.text import half_width, match_key

DIFFICULTIES = ("E", "A", "H", "VH", "W")
DIFFICULTY_BASE = {"E": 0, "A": -1, "H": -2, "VH": -3, "W": -3}  # GURPS-STD-02 D
DIFFICULTY_NAMES = {"E": "Easy", "A": "Average", "H": "Hard", "VH": "Very Hard", "W": "Wildcard"}
# Untrained default when a skill lists none of its own (GURPS-STD-03); Very Hard has none.
GENERIC_DEFAULT = {"E": -4, "A": -5, "H": -6}


@dataclass(frozen=True)
class SkillDef:
    """One skill of the data file."""

    name: str
    ja: str
    attribute: str
    difficulty: str
    defaults: tuple[tuple[str, int], ...]
    tags: tuple[str, ...] = ()
    ref: str = ""
    specialties: tuple[str, ...] = ()
    catalog: bool = False  # from the Basic Set catalog: its defaults are complete (none = no default)


def normalize_difficulty(text: str) -> str:
    key = str(text).strip().upper()
    if key not in DIFFICULTIES:
        raise UsageError(t("gurps.err.difficulty", text=text))
    return key


def relative_level(difficulty: str, points: int) -> int:
    """Level relative to the controlling attribute for `points` spent (GURPS-STD-01/02).

    1 pt -> D; 2-3 pts -> D+1; 4+ pts -> D + 2 + floor((pts-4)/4) = D + 1 + floor(pts/4).
    Wildcard skills (GCS "w") divide points by 3 first. 0 points has no level (raises).
    """
    diff = normalize_difficulty(difficulty)
    if points < 1:
        raise UsageError(t("gurps.err.skill_points", points=points))
    if diff == "W":
        points = points // 3
        if points < 1:
            return DIFFICULTY_BASE["W"] - 1
    base = DIFFICULTY_BASE[diff]
    if points == 1:
        return base
    if points < 4:
        return base + 1
    return base + 2 + (points - 4) // 4


def points_for_relative(difficulty: str, relative: int) -> int:
    """Cheapest point spend that reaches `relative` (1, 2, 4, 8, 12, ...); raises below 1 point's level."""
    diff = normalize_difficulty(difficulty)
    step = relative - DIFFICULTY_BASE[diff]
    if step < 0:
        raise UsageError(t("gurps.err.skill_start", difficulty=DIFFICULTY_NAMES[diff], base=DIFFICULTY_BASE[diff]))
    cost = 1 if step == 0 else 2 if step == 1 else 4 * (step - 1)
    return cost * (3 if diff == "W" else 1)


def is_standard_spend(points: int) -> bool:
    """True for the spends of the cost table: 1, 2, 4, 8, 12, ... (GURPS-STD-02)."""
    return points in (1, 2) or (points >= 4 and points % 4 == 0)


def default_options(skill: SkillDef) -> tuple[tuple[str, int], ...]:
    """The skill's defaults: its own list, else the generic attribute default (GURPS-STD-03)."""
    if skill.defaults:
        return skill.defaults
    if skill.difficulty in GENERIC_DEFAULT and skill.name not in _NO_DEFAULT and not skill.catalog:
        return ((skill.attribute, GENERIC_DEFAULT[skill.difficulty]),)
    return ()


# Skills with no default at all (standard GURPS: martial arts and Engineer).
_NO_DEFAULT = frozenset({"Karate", "Boxing", "Engineer"})


@cache
def load_skills() -> dict[str, SkillDef]:
    """All skills keyed by English name: the seed's list (data/skills.json, with Japanese names and
    the seed's own defaults) over the Basic Set catalog of facts (data/basic_skills.json, built by
    tools/build_gurps_skill_facts.py), so every Basic Set skill is known."""
    skills = _read_skills("basic_skills.json")
    skills.update(_read_skills("skills.json"))
    return skills


def _read_skills(file: str) -> dict[str, SkillDef]:
    path = resources.files("gamekernel.gurps") / "data" / file
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise DataError(t("gurps.err.data_read", file=file, error=error)) from error
    skills: dict[str, SkillDef] = {}
    for index, row in enumerate(raw.get("skills", [])):
        try:
            skill = SkillDef(
                name=row["name"],
                ja=row.get("ja", ""),
                attribute=row["attribute"],
                difficulty=normalize_difficulty(row["difficulty"]),
                defaults=tuple((d["from"], int(d["modifier"])) for d in row.get("defaults", [])),
                tags=tuple(row.get("tags", [])),
                ref=row.get("ref", ""),
                specialties=tuple(row.get("specialties", [])),
                catalog=file != "skills.json",
            )
        except (KeyError, TypeError, ValueError, UsageError) as error:
            raise DataError(t("gurps.err.data_entry", file=file, list="skills", index=index,
                              error=error)) from error
        skills[skill.name] = skill
    return skills


@cache
def _index() -> dict[str, SkillDef]:
    index: dict[str, SkillDef] = {}
    for skill in load_skills().values():
        index[match_key(skill.name)] = skill
        if skill.ja:
            index[match_key(skill.ja)] = skill
    return index


def _key(name: str) -> str:
    text = half_width(name).strip().strip("〈〉<>").strip()
    if text.upper().startswith("S:"):
        text = text[2:]
    return match_key(text)


def maybe_skill(name: str) -> SkillDef | None:
    """The skill called `name` (English or Japanese), or None."""
    return _index().get(_key(name))


def find_skill(name: str) -> SkillDef:
    """The skill called `name`; raises NotFoundError with close matches."""
    skill = maybe_skill(name)
    if skill is None:
        close = get_close_matches(_key(name), list(_index()), n=3, cutoff=0.6)
        hint = t("gurps.err.did_you_mean", names=", ".join(close)) if close else ""
        raise NotFoundError(t("gurps.err.unknown_skill", name=name, hint=hint))
    return skill


def japanese_name(name: str) -> str | None:
    """〈鍵開け〉-style display helper: the Japanese name of a skill, or None. A specialization
    ("Survival (Woodlands)", as `Skill.full_name` writes it) stays as the user or their file wrote it:
    生存（Woodlands）."""
    skill = maybe_skill(name)
    if skill is None and name.endswith(")") and " (" in name:
        head, _, specialization = name[:-1].partition(" (")
        ja = japanese_name(head)
        return f"{ja}（{specialization}）" if ja and specialization else None
    return skill.ja if skill and skill.ja else None
