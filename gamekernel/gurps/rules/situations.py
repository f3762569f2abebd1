"""The GM's situational modifiers for the next roll: the rules' named ones (darkness, footing,
distraction, vision, size, range ...) and the pending list a sheet or tracker holds until its next
roll. [GURPS-SR-04, GURPS-CMB-33..39, GURPS-PHY-04, GURPS-PHY-14]

Why a module of its own: the widgets offer these by name and the magics take them typed, and both
must add the same labelled values to a roll; the value of a size or range row is the one the
size and speed/range table gives (`attacks.size_modifier`, `attacks.speed_range_modifier`), never a
second copy of the table. Typed modifiers are read by the one modifier parser
(`checks.parse_modifiers`), as `%react +2 polite` and `%check Lockpicking -5 dark` read theirs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from difflib import get_close_matches
from functools import cache

from gamekernel.errors import UsageError
from gamekernel.gurps.rules.attacks import combat_tables, size_modifier, speed_range_modifier
from gamekernel.gurps.rules.checks import Modifier, parse_modifiers
from gamekernel.i18n import t

MOST_PENDING = 6  # modifiers one roll may wait for: a GM's bucket, not a list to scroll
MOST_VALUE = 20  # the largest single modifier taken (the size/range table's rows stay within 10)
MOST_TEXT = 120  # characters one typed entry may hold


@dataclass(frozen=True)
class Situational:
    """One named modifier: its key (what a widget sends), its value, the English label a roll keeps
    (translated when shown, `render.rule_label`), the rule it comes from, its group in the menu and
    whether an attack takes it (the tracker offers only those)."""

    key: str
    value: int
    label: str
    rule: str
    group: str
    attack: bool = True
    size_m: float | None = None  # a size or range row's metres (the menu names them)


def _fixed() -> list[Situational]:
    poor_light = [Situational(f"poor_light_{n}", -n, "poor light", "GURPS-CMB-34", "vision") for n in range(1, 10)]
    return [
        Situational("dark", -5, "dark", "GURPS-SR-04", "task", attack=False),  # lockpicking by feel [004:62]
        Situational("footing", -2, "bad footing", "GURPS-CMB-33", "footing"),
        Situational("minor_distraction", -2, "minor distraction", "GURPS-CMB-33", "distraction"),
        Situational("major_distraction", -3, "major distraction", "GURPS-CMB-33", "distraction"),
        Situational("blind", -10, "blind / total darkness", "GURPS-CMB-34", "vision"),
        Situational("unseen", -6, "foe unseen", "GURPS-CMB-34", "vision"),
        Situational("unseen_near", -4, "foe unseen, within 1 m", "GURPS-CMB-34", "vision"),
        *poor_light,
        Situational("off_hand", -4, "off hand", "GURPS-CMB-35", "hands"),
        Situational("large_shield", -2, "large shield", "GURPS-CMB-35", "hands"),
        Situational("climb_tree", 5, "tree", "GURPS-PHY-04", "climbing", attack=False),
        Situational("climb_cliff", -3, "cliff", "GURPS-PHY-04", "climbing", attack=False),
        Situational("climb_wall", -3, "building wall", "GURPS-PHY-04", "climbing", attack=False),
        Situational("climb_rope_up", -2, "rope, up", "GURPS-PHY-04", "climbing", attack=False),
        Situational("climb_rope_down", -1, "rope, down", "GURPS-PHY-04", "climbing", attack=False),
        Situational("swim_on_purpose", 3, "entered on purpose", "GURPS-PHY-14", "swimming", attack=False),
    ]


def _rows() -> list[float]:
    return sorted(float(row["value_m"]) for row in combat_tables()["size_speed_range"]["rows"])


@cache
def situationals() -> tuple[Situational, ...]:
    """Every named modifier, menu order. Size rows (SM by the longest dimension, GURPS-CMB-37/38) go
    with attacks; range rows (GURPS-CMB-37/39) only with checks: the tracker sets a range as the
    distance between two fighters, and one range named twice would count twice."""
    sizes = [Situational(f"size_{m:g}m", size_modifier(m), f"size {m:g} m", "GURPS-CMB-38", "size", size_m=m)
             for m in _rows()]
    ranges = [Situational(f"range_{m:g}m", speed_range_modifier(m), f"range {m:g} m", "GURPS-CMB-39", "range",
                          attack=False, size_m=m)
              for m in _rows() if speed_range_modifier(m)]
    return (*_fixed(), *(s for s in sizes if s.value), *ranges)


def situational(key: str) -> Situational:
    """The named modifier `key`; a one-line error naming it (and the close keys) otherwise."""
    found = {s.key: s for s in situationals()}
    if key in found:
        return found[key]
    close = get_close_matches(str(key)[:40], found, n=3)
    hint = t("gurps.err.did_you_mean", names=", ".join(close)) if close else ""
    raise UsageError(t("gurps.err.situational", key=str(key)[:40], hint=hint))


def typed_modifiers(text: str) -> tuple[Modifier, ...]:
    """What the GM typed in a modifier field ("-2 dark +1 steady"), read by the one modifier parser
    (`checks.parse_modifiers`); bounded, each value within MOST_VALUE."""
    text = str(text)
    if len(text) > MOST_TEXT:
        raise UsageError(t("gurps.err.modifier_text", limit=MOST_TEXT))
    mods = parse_modifiers(text)
    if not mods:
        raise UsageError(t("gurps.err.modifier_empty"))
    return tuple(_bounded(m) for m in mods)


def _bounded(mod: Modifier) -> Modifier:
    if abs(mod.value) > MOST_VALUE:
        raise UsageError(t("gurps.err.modifier_size", value=mod.value, limit=MOST_VALUE))
    return mod


def added(pending: Iterable[Modifier], new: Iterable[Modifier]) -> tuple[Modifier, ...]:
    """The pending list with `new` after it; refused (nothing added) beyond MOST_PENDING."""
    out = (*pending, *(_bounded(m) for m in new))
    if len(out) > MOST_PENDING:
        raise UsageError(t("gurps.err.modifier_count", limit=MOST_PENDING))
    return out
