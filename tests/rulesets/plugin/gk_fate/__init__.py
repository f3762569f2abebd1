"""Fate Core checks, a rule set written only against gamekernel's public API (and a proof that a
plug-in is a peer of the built-in rule sets): a check is four Fudge dice plus a skill's rating, read
on the ladder (Terrible -2 ... Legendary +8) against an opposition, and its shifts decide: fail, tie,
succeed, succeed with style.

One package plus one entry point (`gk_fate-1.0.dist-info`). Everything gamekernel shows of it comes
from this declaration and from what its modules register on import: its state part and event kinds
(`actions.py`), the working of a check and its quiz (`lessons.py`, into gamekernel.lessons), its
results, log lines (`render.py`) and messages in both languages (`i18n/`), its rule notes
(`data/explain.json`), its rows on `%table` (`dashboard` below), its characters (`characters`), its
odds explorer (`explorers`: `%explore ladder`, explore.py), and its form of the shared `%check`
(`check`, `check_form`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gamekernel.rulesets import Board, Explore, Explorer, Form, LineHandler, Parts, RuleSet, RuleSetHandle


def _handles() -> tuple[type[RuleSetHandle], ...]:
    from gk_fate.actions import Fate

    return (Fate,)


def _magics() -> tuple[type, ...]:
    from gk_fate.magics import FateMagics

    return (FateMagics,)


def _renderers() -> None:
    import gk_fate.render  # noqa: F401


def _check() -> LineHandler[str]:
    from gk_fate.magics import fate_check, looks_like_fate_check

    return LineHandler(run=fate_check, claims=looks_like_fate_check)


def _explore_ladder(session: Any, args: Any) -> Explorer:
    from gk_fate.explore import open_ladder

    return open_ladder(session, args)


def _characters(parts: Parts) -> Iterable[str]:
    names: Iterable[str] = parts["fate"].characters
    return names


def _dashboard(parts: Parts) -> Board:
    """Name, skills (the player's own: private) and the last check's outcome of each Fate character."""
    from gamekernel.display.html import sign
    from gamekernel.i18n import t

    part: Any = parts["fate"]
    rows = []
    for name, skills in sorted(part.characters.items()):
        last = part.last.get(name)
        shown = t(f"fate.outcome.{_outcome(last)}") if last else "—"
        rows.append((name, ", ".join(f"{s} {sign(v)}" for s, v in sorted(skills.items())) or "—", shown))
    return Board("fate.table.title", ("fate.table.name", "fate.table.skills", "fate.table.last"), tuple(rows),
                 private=(1,))


def _outcome(last: dict[str, Any]) -> str:
    from gk_fate.rules import FateCheck

    return FateCheck.from_dict(last).outcome


RULESET = RuleSet(
    name="fate",
    package=__name__,
    groups=("fate",),
    handles=_handles,
    magics=_magics,
    renderers=_renderers,
    check=_check,
    check_form=Form("Fate: Athletics, Athletics vs Good (a skill of the character named, vs the opposition).",
                    (("secret", "Fate: roll for the GM only"),)),
    characters=_characters,
    dashboard=_dashboard,
    explorers=(Explore("ladder", "Fate: each outcome's chance by rating against an opposition", _explore_ladder),),
    public_parts=("fate",),
    event_prefixes=("fate.",),
)
