"""GURPS Lite (4th edition): characters, success rolls, contests, reactions, combat and injury.

`rules/` holds the pure rules (no IPython); `actions.py` and `combat_actions.py` are the session
operations (the fight's operations in `combat_ops.py`, its state part and event facts in
`combat_part.py`, the reader of typed fighters in `combat_specs.py`), `render.py` and
`combat_render.py` draw their results, `magics.py` and `combat_magics.py` are the commands,
`widgets/` the sheet and the tracker. What it teaches: `lessons.py` (explain steps, their words, the
quiz), `explore.py` (the odds explorers); `story.py` tells its events in the players' story.
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
    import gamekernel.gurps.lessons  # noqa: F401  (the working of its events: gamekernel/lessons.py)
    from gamekernel.gurps.actions import Gurps
    from gamekernel.gurps.combat_actions import Combat

    return (Gurps, Combat)


def _magics() -> tuple[type[Magics], ...]:
    from gamekernel.gurps.combat_magics import CombatMagics
    from gamekernel.gurps.magics import GurpsMagics

    return (GurpsMagics, CombatMagics)


def _renderers() -> None:
    import gamekernel.gurps.combat_render
    import gamekernel.gurps.render
    import gamekernel.gurps.summaries  # noqa: F401  (its log lines)


def _check() -> LineHandler[str]:
    from gamekernel.gurps.magics import gurps_check, gurps_check_odds, gurps_contest_odds
    from gamekernel.gurps.rules.checks import parse_check_spec

    # every check line no other rule set claims; and `%odds contest`
    return LineHandler(run=gurps_check, odds=gurps_check_odds, contest=gurps_contest_odds, reads=parse_check_spec)


def _rest() -> LineHandler[list[str]]:
    from gamekernel.gurps.combat_magics import gurps_rest, looks_like_gurps_rest

    return LineHandler(run=gurps_rest, claims=looks_like_gurps_rest)


def _characters(parts: Parts) -> Iterable[str]:
    return parts["gurps"].characters


def _player_actions() -> Mapping[str, PlayerAction]:
    from gamekernel.gurps.intents import attack, defend

    return {"attack": attack, "defend": defend}


def _dashboard_actions() -> Mapping[str, DashboardAction]:
    from gamekernel.gurps.intents import end_fight, next_turn

    return {"next": next_turn, "end_fight": end_fight}


def _dashboard_section(view: Mapping[str, Any]) -> tuple[str, list[str], list[list[str]]] | None:
    from gamekernel.gurps.combat_render import dashboard_section

    return dashboard_section(view)


def _explore_check(session: Core, args: Args) -> Explorer:
    from gamekernel.gurps.explore import open_check

    return open_check(session, args)


def _explore_contest(session: Core, args: Args) -> Explorer:
    from gamekernel.gurps.explore import open_contest

    return open_contest(session, args)


def _story() -> StoryLines:
    from gamekernel.gurps.story import GurpsStory

    return GurpsStory()


RULESET = RuleSet(
    name="gurps",
    package=__name__,
    groups=("gurps", "combat"),
    handles=_handles,
    magics=_magics,
    renderers=_renderers,
    check=_check,
    rest=_rest,
    check_form=Form("GURPS: Lockpicking-5 dark, Per+2, Lockpicking | IQ-5, 12.",
                    (("secret", "GURPS: roll for the GM only"),)),
    rest_form=Form("GURPS: Bren 30min (a name and a duration).", group="combat"),
    characters=_characters,
    player_actions=_player_actions,
    dashboard_actions=_dashboard_actions,
    dashboard_section=_dashboard_section,
    explorers=(Explore("check", "success and criticals over effective skill, a modifier slider and toggles",
                       _explore_check, words="Lockpicking, 12, Stealth+2", arg="spec"),
               Explore("contest", "Quick Contest win/lose/tie and Regular Contest rounds over both skills",
                       _explore_contest, words="14 vs 12", arg="sides")),
    story=_story,
    public_parts=("gurps", "gurps_combat"),
    event_prefixes=("gurps.", "combat."),
)
