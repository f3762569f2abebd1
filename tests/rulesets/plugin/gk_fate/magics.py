"""`%fate NAME SKILL=RATING...`, and Fate's form of the shared `%check` (`%check Athletics vs Good @Aiko`)."""

from __future__ import annotations

from typing import Any

from IPython.core.magic import line_magic, magics_class

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magic_base import Secret, SessionMagics, guarded
from gamekernel.syntax import Args, Word, Words, command
from gk_fate.actions import Fate, FateCharacter
from gk_fate.rules import BY_WORD, FAIR, rating


def _fate(session: Any) -> Fate:
    """This rule set's handle on the session gamekernel made from its declaration, typed."""
    return Fate.of(session)


def parse_spec(spec: str) -> tuple[str, int]:
    """`Athletics` or `Athletics vs Good` / `Athletics vs +3`: the skill and the opposition (Fair if none)."""
    skill, vs, against = spec.partition(" vs ")
    skill = skill.strip()
    if not skill:
        raise UsageError(t("fate.err.check", spec=spec))
    if not vs:
        return skill, FAIR
    try:
        return skill, rating(against)
    except ValueError:
        raise UsageError(t("fate.err.rating", text=against.strip())) from None


def fate_check(session: Any, args: Args) -> object:
    """`%check Athletics [vs Good] @Aiko [--secret]` for a Fate character (the actor is required)."""
    skill, opposition = parse_spec(args.spec)
    if not args.actor:
        raise UsageError(t("fate.err.actor"))
    result = _fate(session).check(skill, actor=args.actor, opposition=opposition, secret=args.secret)
    return Secret(result) if args.secret else result


def looks_like_fate_check(spec: str) -> bool:
    """Without an actor, a line is Fate's when it names its opposition on the ladder (`vs Good`)."""
    return " vs " in spec and spec.partition(" vs ")[2].strip().casefold() in BY_WORD


@magics_class
class FateMagics(SessionMagics):
    @line_magic
    @guarded("fate")
    @command("fate", Word("name", "the character (created if new)"),
             Words("skills", "SKILL=RATING, a rating as a number (+3) or a ladder word (Good)", optional=True),
             group="fate")
    def fate(self, args: Args) -> FateCharacter:
        """A Fate character and its skills: `%fate Aiko Athletics=+2 Fight=Good`."""
        skills: dict[str, int] = {}
        for word in args.skills:
            skill, eq, value = word.partition("=")
            if not eq or not skill:
                raise UsageError(t("fate.err.skill", word=word))
            try:
                skills[skill] = rating(value)
            except ValueError:
                raise UsageError(t("fate.err.rating", text=value)) from None
        return _fate(self.session).character(args.name, skills)
