"""How the players' story tells Gamma World's events (`RuleSet.story`; the story itself is
gamekernel/render/story.py): an encounter opens a heading, every draw, tap, overcharge and flux is told
as its log line (a pending Alpha Flux as what happened, never a command to type), an overcharge by its
outcome alone while only outcomes are disclosed; decks and characters are setup, not story."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamekernel.i18n import t

if TYPE_CHECKING:
    from gamekernel.events import Event
    from gamekernel.rulesets import Telling

SETUP = frozenset({"gw.setup", "gw.character", "gw.deck_add", "gw.deck"})  # table setup, not story
PENDING_FLUX = frozenset({"gw.flux_pending", "gw.flux_ask"})


class GammaWorldStory:
    """Gamma World's story lines (gamekernel.rulesets.StoryLines)."""

    outcome_kinds = frozenset({"gw.overcharge"})

    def before(self, telling: Telling) -> None:
        return None

    def tell(self, telling: Telling, event: Event, before: object) -> None:
        if event.kind == "gw.encounter_start":
            telling.heading("encounter", t("story.heading.encounter"))
        elif event.kind not in SETUP:
            telling.aside()
            telling.line(t("story.gw.flux_pending", name=event.actor or "?") if event.kind in PENDING_FLUX
                         else telling.summary_line(event))

    def outcome(self, event: Event) -> str | None:
        return None  # an overcharge's recorded success

    def odds_marks(self) -> tuple[str, ...]:
        return ()
