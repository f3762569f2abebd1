"""How the players' story tells the MtG house rule's events (`RuleSet.story`; the story itself is
gamekernel/render/story.py): a scene opens a heading, a check and a boost are told as their log line
(the character first), by their outcome alone while only outcomes are disclosed; the libraries and
their files are setup, not story."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamekernel.i18n import t

if TYPE_CHECKING:
    from gamekernel.events import Event
    from gamekernel.rulesets import Telling

OUTCOME_KINDS = frozenset({"mtg.check", "mtg.boost"})


class MtgStory:
    """MtG's story lines (gamekernel.rulesets.StoryLines)."""

    outcome_kinds = OUTCOME_KINDS

    def before(self, telling: Telling) -> None:
        return None

    def tell(self, telling: Telling, event: Event, before: object) -> None:
        if event.kind == "mtg.scene":
            telling.heading("scene", t("story.heading.scene", scene=event.data["scene"]))
        elif event.kind in OUTCOME_KINDS:
            telling.aside()
            telling.line(telling.summary_line(event))

    def outcome(self, event: Event) -> str | None:
        return None  # a check's and a boost's recorded success

    def odds_marks(self) -> tuple[str, ...]:
        """How a check's odds part begins ("odds 42.1%")."""
        return (t("mtg.check.odds", odds="\0").split("\0")[0].strip(),)
