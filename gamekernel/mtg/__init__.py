"""The MtG-card TRPG ("Parties of Planeswalkers"): libraries from decklists, action checks, boosts, odds.

`rules/` holds the pure rules (no IPython); `actions.py` the session operations, `render.py` their
drawing, `magics.py` the commands, `widgets/library.py` the library widget; `lessons.py` (explain
steps, their colour words, the quiz) and `explore.py` (the library explorer) what it teaches, `story.py`
its lines in the players' story.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from gamekernel.rulesets import (
    DashboardAction,
    Explore,
    Explorer,
    Form,
    LineHandler,
    Parts,
    PlayerAction,
    RuleSet,
    RuleSetHandle,
    StoryLines,
)

if TYPE_CHECKING:  # what the hooks receive and return: for the type checker only (`%load_ext` stays light)
    from IPython.core.magic import Magics

    from gamekernel.args import Args
    from gamekernel.rulesets import Core


def _handles() -> tuple[type[RuleSetHandle], ...]:
    import gamekernel.mtg.lessons  # noqa: F401  (the working of its events: gamekernel/lessons.py)
    from gamekernel.mtg.actions import Mtg

    return (Mtg,)


def _magics() -> tuple[type[Magics], ...]:
    from gamekernel.mtg.magics import MtgMagics

    return (MtgMagics,)


def _renderers() -> None:
    import gamekernel.mtg.render
    import gamekernel.mtg.summaries  # noqa: F401  (its log lines)


def _check() -> LineHandler[str]:
    from gamekernel.mtg.magics import looks_like_mtg_check, mtg_check, mtg_odds
    from gamekernel.mtg.rules.kinds import parse_check_spec

    return LineHandler(run=mtg_check, claims=looks_like_mtg_check, odds=mtg_odds,  # a colour first
                       reads=parse_check_spec)


def _characters(parts: Parts) -> Iterable[str]:
    return parts["mtg"].decks  # each library is its player character's


def _player_actions() -> Mapping[str, PlayerAction]:
    from gamekernel.mtg.intents import boost

    return {"boost": boost}


def _dashboard_actions() -> Mapping[str, DashboardAction]:
    from gamekernel.mtg.intents import dashboard_check, new_scene

    return {"check": dashboard_check, "scene": new_scene}


def _dashboard_labels() -> Mapping[str, Any]:
    from gamekernel.mtg.intents import dashboard_labels

    return dashboard_labels()


def _dashboard_section(view: Mapping[str, Any]) -> tuple[str, list[str], list[list[str]]] | None:
    from gamekernel.mtg.render import dashboard_section

    return dashboard_section(view)


def _explore_library(session: Core, args: Args) -> Explorer:
    from gamekernel.mtg.explore import open_library

    return open_library(session, args)


def _story() -> StoryLines:
    from gamekernel.mtg.story import MtgStory

    return MtgStory()


RULESET = RuleSet(
    name="mtg",
    package=__name__,
    groups=("mtg",),
    handles=_handles,
    magics=_magics,
    renderers=_renderers,
    check=_check,
    check_form=Form("MtG: green 2, G2, 緑2 (the first word names a colour)",
                    (("boost-if-needed", "MtG: boost at once when the boost can turn a failure into a success"),)),
    characters=_characters,
    player_actions=_player_actions,
    dashboard_actions=_dashboard_actions,
    dashboard_section=_dashboard_section,
    dashboard_labels=_dashboard_labels,
    explorers=(Explore("library", "MtG success by colour x difficulty, without and with boost", _explore_library),),
    story=_story,
    public_parts=("mtg",),
    event_prefixes=("mtg.",),
)
