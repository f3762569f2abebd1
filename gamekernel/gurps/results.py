"""Results of GURPS session operations (characters at the table, the GCS library, Luck) that the
operations return and the renderers draw: facts only, drawn by gamekernel/gurps/render.py (so
operations -> results <- renderers, and neither imports the other). Rule results (checks, contests,
damage ...) live with their rules in gamekernel/gurps/rules/."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gamekernel.display import Displayable
from gamekernel.gurps.rules.characters import Character
from gamekernel.gurps.rules.gcs.library import LibraryEntry


@dataclass(frozen=True)
class CharacterList(Displayable):
    """The characters at the table, the active one marked (`%char list`)."""

    characters: tuple[Character, ...]
    active: str | None

    def __repr__(self) -> str:
        return f"<CharacterList {', '.join(c.name for c in self.characters)}>"


@dataclass(frozen=True, repr=False)
class SheetChange(Displayable):
    """`%char skill/trait`: the one change and the character's short status, not the whole sheet
    (`%sheet` shows it); the character's attributes and methods stay reachable (`r.skill_level(...)`)."""

    character: Character
    change: Any  # the change description stored with the event (render.char_change_text)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.character, name)


@dataclass(frozen=True)
class SavedCharacter(Displayable):
    name: str
    path: str

    def __repr__(self) -> str:
        return f"<SavedCharacter {self.name}>"


@dataclass(frozen=True)
class LoadedCharacter(Displayable):
    """A character just loaded, with one line per value where GCS's number replaced ours."""

    character: Character
    differences: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return "\n".join([*self.differences, repr(self.character)])


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class GcsDifferences(Displayable):
    """`%char diff`: every value where the table and the character's GCS file differ."""

    name: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class GcsLibraryLoaded(Displayable):
    """`%gurps library PATH`: what the GCS library folder holds."""

    source: str
    counts: tuple[tuple[str, int], ...]
    from_cache: bool = False
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True)
class LibraryFound(Displayable):
    """`%gurps find NAME`: one entry of the loaded GCS library."""

    entry: LibraryEntry


@dataclass(frozen=True)
class LuckStatus(Displayable):
    """Who has Luck and whether its use is spent (`%luck status`, `%luck reset`)."""

    rows: tuple[tuple[str, str, int, bool], ...]  # (name, trait, every_minutes, spent)

    def __repr__(self) -> str:
        return f"<LuckStatus {', '.join(r[0] for r in self.rows)}>"


@dataclass(frozen=True, repr=False)  # text and html: the render registry (gurps/combat_render.py)
class CombatResult(Displayable):
    """What a combat magic returns: the step's kind and report, and the fight after it (None when no
    fight runs, so no tracker is drawn). `before` is the running fight before the step and `since`
    the fight as the turn began: the output shows only the tracker rows the step (or, for `%next`,
    the turn) changed, worked out when it is drawn (gurps/combat_render.py `rows_shown`)."""

    kind: str
    report: Any
    state: Any = None
    show_tracker: bool = True
    before: Any = None
    since: Any = None
    revealed: tuple[int, ...] = ()  # GURPS-SR-09: the secret events this public step made public first
    revealed_for: tuple[str, ...] = ()  # the fighters whose true state it shows, why they went public


@dataclass(frozen=True)
class Harmed:
    """A step's own lines and what the injury path then did (hazards, casting; None for a step that
    hurts nobody: first aid, healing, waking), drawn together; `told`: the rolls the step made
    itself as its event keeps them (data["outcome"]), so its log line shows their dice."""

    lines: tuple[Any, ...]
    harm: Any = None
    told: Mapping[str, Any] = field(default_factory=dict)


def nested_rolls(report: Any) -> list[tuple[Any, str]]:
    """Every roll a combat step made inside itself, as (SuccessRoll, outcome key or ""): the HT roll to
    stay conscious and the Will roll to act before a maneuver (GURPS-INJ-02, FAT-02), stun recovery
    (INJ-08), the knockdown roll (INJ-07), death checks (INJ-03), suffocation's Will and HT rolls
    (HAZ-18..20), the Will-3 roll to keep concentrating (CMB-23, MAG-06), and those of a second of
    burning clothes; so the log, the story and the exports hold every roll the tracker showed. Read by
    shape (the reports of `gurps.rules.combat`), in the order rolled."""
    out: list[tuple[Any, str]] = []
    if isinstance(report, Harmed):  # a step ending in the one injury path, or in none
        return [] if report.harm is None else _injury_rolls(report.harm)
    recovery = getattr(report, "stun_recovery", None)
    if recovery is not None:
        out.append((recovery, ""))
    out += [(roll, "") for roll in getattr(report, "checks", ()) or ()]
    for name in ("damage", "burn", "injury"):  # a DamageReport's InjuryReport, or one inside a report
        inner = getattr(report, name, None)
        if not hasattr(inner, "death_checks"):
            inner = getattr(inner, "injury", None)
        if hasattr(inner, "death_checks"):
            out += _injury_rolls(inner)
    return out


def _injury_rolls(rep: Any) -> list[tuple[Any, str]]:
    out: list[tuple[Any, str]] = []
    for roll in getattr(rep, "will_rolls", ()):
        out.append((roll, "conscious" if roll.success else "unconscious"))
    if rep.knockdown is not None:
        out.append((rep.knockdown.check, rep.knockdown.outcome))
    out += [(death.check, death.outcome) for death in rep.death_checks]
    if rep.consciousness is not None:
        out.append((rep.consciousness, "conscious" if rep.consciousness.success else "unconscious"))
    if rep.brain_damage is not None:
        out.append((rep.brain_damage, "" if rep.brain_damage.success else "brain_damage"))
    if rep.concentration is not None:
        out.append((rep.concentration, "" if rep.concentration.success else "lost_concentration"))
    return out
