"""Gamma World 4e Alpha Mutation decks (RULES.md GW-ALPHA): decks, draws by level, taps, overcharge, flux.

`rules/` holds the pure rules (no IPython); `actions.py` the session operations, `render.py` their
drawing, `magics.py` the commands, `widgets/hand.py` the hand widget; `lessons.py` (explain steps, the
`alpha` quiz) and `explore.py` (the alpha explorer) what it teaches, `story.py` its lines in the
players' story.
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
    import gamekernel.gammaworld.lessons  # noqa: F401  (the working of its events: gamekernel/lessons.py)
    from gamekernel.gammaworld.actions import GammaWorld

    return (GammaWorld,)


def _magics() -> tuple[type[Magics], ...]:
    from gamekernel.gammaworld.magics import GammaWorldMagics

    return (GammaWorldMagics,)


def _renderers() -> None:
    import gamekernel.gammaworld.render
    import gamekernel.gammaworld.summaries  # noqa: F401  (its log lines)


def _rest() -> LineHandler[list[str]]:
    from gamekernel.gammaworld.magics import gw_rest

    return LineHandler(run=gw_rest)  # every rest line no other rule set claims: an extended rest


def _new_session(table: Any) -> None:
    """GW-ALPHA-11 (seed 000:33, 40): a new game session returns every alpha card and shuffles."""
    from gamekernel.gammaworld.actions import GammaWorld

    GammaWorld.of(table).new_session()


def _characters(parts: Parts) -> Iterable[str]:
    return parts["gammaworld"].characters


def _player_actions() -> Mapping[str, PlayerAction]:
    from gamekernel.gammaworld.intents import draw, overcharge, tap

    return {"draw": draw, "tap": tap, "overcharge": overcharge}


def _dashboard_actions() -> Mapping[str, DashboardAction]:
    from gamekernel.gammaworld.intents import encounter_end, encounter_start, resolve_flux, tap_card, untap_card

    return {"tap": tap_card, "untap": untap_card, "flux": resolve_flux, "encounter_start": encounter_start,
            "encounter_end": encounter_end}


def _dashboard_section(view: Mapping[str, Any]) -> tuple[str, list[str], list[list[str]]] | None:
    from gamekernel.gammaworld.render import dashboard_section

    return dashboard_section(view)


def _explore_alpha(session: Core, args: Args) -> Explorer:
    from gamekernel.gammaworld.explore import open_alpha

    return open_alpha(session, args)


def _story() -> StoryLines:
    from gamekernel.gammaworld.story import GammaWorldStory

    return GammaWorldStory()


RULESET = RuleSet(
    name="gammaworld",
    package=__name__,
    groups=("gammaworld",),
    handles=_handles,
    magics=_magics,
    renderers=_renderers,
    rest=_rest,
    rest_form=Form("Gamma World: names, or nobody for everyone",
                   (("no-draw", "Gamma World: return and shuffle, draw later"),)),
    characters=_characters,
    new_session=_new_session,
    player_actions=_player_actions,
    dashboard_actions=_dashboard_actions,
    dashboard_section=_dashboard_section,
    explorers=(Explore("alpha", "Gamma World: Alpha Flux over N d20 rolls, overcharge by bonus", _explore_alpha),),
    story=_story,
    public_parts=("gammaworld",),
    event_prefixes=("gw.",),
)
