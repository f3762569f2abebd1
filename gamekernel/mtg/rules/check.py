"""The MtG TRPG action check (MTG-CHK-01..12) and the scene boost (MTG-CHK-13), as pure functions.

A library is a plain sequence of CardFacts, top first. Functions take the known top positions and
an rng, and return an immutable result that keeps every random outcome (the colour picked, the
bottom order) and the move plan: `new_order[j]` = the index, in the library given, of the card that
ends at position j. Applying the plan (or replaying it) needs no RNG.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from gamekernel.display import Displayable
from gamekernel.errors import RuleError, UsageError
from gamekernel.i18n import t
from gamekernel.mtg.rules.facts import CardFacts
from gamekernel.mtg.rules.foresight import boost_chance, counts_colourless_for_boost
from gamekernel.mtg.rules.kinds import (
    DEFAULT_OPTIONS,
    USUAL_DIFFICULTIES,
    MtgOptions,
    colour_modifier,
    parse_kind,
    relation,
)
from gamekernel.mtg.rules.odds import Groups, check_odds, known_prefix


class CheckImpossible(RuleError):
    """MTG-CHK-04: after exiling the known top cards the library has one card or fewer."""


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class CheckResult(Displayable):
    """Everything one action check revealed and decided; enough to show, log and replay it."""

    kind: str
    difficulty: int
    library_size: int
    known_cards: tuple[CardFacts, ...]  # exiled during the check, returned on top in this order
    first: CardFacts  # sets the target
    second: CardFacts  # sets the achievement
    target: int | float
    colours: tuple[str, ...]  # the colours the second card counts as for the achievement
    chosen_colour: str | None  # the colour used (picked at random when several)
    relation: str  # same / allied / other / colourless
    modifier: int
    achievement: int | float
    success: bool
    bottom: tuple[str, str]  # names of the two revealed cards, in the order put on the bottom
    new_order: tuple[int, ...]
    odds: Fraction | None = None
    actor: str | None = None
    options: MtgOptions = field(default=DEFAULT_OPTIONS, repr=False, compare=False)
    # Boost foresight: the exact chance a boost would turn this failure into a success (None on a success).
    boost_odds: Fraction | None = None
    auto_boost: BoostResult | None = field(default=None, compare=False)  # applied by boost_if_needed
    auto_boost_note: str | None = field(default=None, compare=False)  # why boost_if_needed did not boost

    @property
    def unusual_difficulty(self) -> bool:
        """MTG-CHK-03: outside 0-8 is allowed but noted."""
        return self.difficulty not in USUAL_DIFFICULTIES

    @property
    def random_colour(self) -> bool:
        return len(self.colours) > 1

    @property
    def colours_from_land_types(self) -> bool:
        """MTG-CHK-09: the card is a land whose basic land types give it the colours it counts as."""
        return bool(self.second.land_type_colours) and self.colours != self.second.colours

    def to_dict(self) -> dict:
        """The outcome as plain JSON for the event log (card names, not objects)."""
        return {
            "kind": self.kind, "difficulty": self.difficulty, "library_size": self.library_size,
            "known": [c.name for c in self.known_cards], "first": self.first.name,
            "second": self.second.name, "target": self.target, "colours": list(self.colours),
            "chosen_colour": self.chosen_colour, "relation": self.relation, "modifier": self.modifier,
            "achievement": self.achievement, "success": self.success, "bottom": list(self.bottom),
            "new_order": list(self.new_order),
            "odds": None if self.odds is None else [self.odds.numerator, self.odds.denominator],
            "actor": self.actor,
            "boost_odds": None if self.boost_odds is None else [self.boost_odds.numerator,
                                                                 self.boost_odds.denominator],
        }


def check_difficulty(difficulty: object) -> int:
    """A difficulty is a whole number, normally 0-8, never below 0 (MTG-CHK-03: higher is harder;
    the seed's scale starts at 0); the magic and the library widget both reach this one rule."""
    if isinstance(difficulty, bool) or not isinstance(difficulty, int):
        raise UsageError(t("mtg.err.difficulty", difficulty=difficulty))
    if difficulty < 0:
        raise UsageError(t("mtg.err.difficulty_negative", difficulty=difficulty))
    return difficulty


def action_check(library: Sequence[CardFacts], kind: str, difficulty: int, rng: random.Random, *,
                 known: Collection[int] | int = (), unordered: Groups = (),
                 options: MtgOptions = DEFAULT_OPTIONS, actor: str | None = None, with_odds: bool = True,
                 hidden: random.Random | None = None) -> CheckResult:
    """Run MTG-CHK-04..12 on `library` (top first). Raises CheckImpossible (nothing moved) when the
    library holds one card or fewer once the known top cards are exiled. `known` and `unordered` are
    what the table knows of the order (the odds model, `slot_groups`): the odds and the boost
    foresight are exact given them. `hidden` (default `rng`)
    orders the pair on the bottom, which the players do not see (MTG-CHK-12): a session passes its
    secret stream; the colour pick everyone sees (MTG-CHK-10) draws from `rng`."""
    kind = parse_kind(kind)
    difficulty = check_difficulty(difficulty)
    exiled = known_prefix(known)
    size = len(library)
    if size - exiled <= 1:  # MTG-CHK-04
        raise CheckImpossible(t("mtg.err.too_few", actor=actor or t("mtg.library"), size=size,
                                known=exiled, left=max(size - exiled, 0)))
    odds = (check_odds(library, kind, difficulty, known=known, unordered=unordered, options=options)
            if with_odds else None)
    first, second = library[exiled], library[exiled + 1]  # MTG-CHK-05, -06
    target = first.mana_value + difficulty
    colours = second.achievement_colours  # MTG-CHK-09: land types count for the achievement only
    chosen = colours[rng.randrange(len(colours))] if len(colours) > 1 else (colours[0] if colours else None)
    modifier = colour_modifier(kind, chosen, options)  # MTG-CHK-07, -08, -10
    achievement = second.mana_value + modifier
    swap = (rng if hidden is None else hidden).randrange(2) == 1  # MTG-CHK-12: both to the bottom in random order
    pair = (exiled + 1, exiled) if swap else (exiled, exiled + 1)
    new_order = (*range(exiled), *range(exiled + 2, size), *pair)  # known cards back on top, same order
    success = achievement >= target  # MTG-CHK-11
    foresight = None
    if not success:
        after_known, after_groups = knowledge_after(new_order, known, unordered, (exiled, exiled + 1))
        foresight = boost_chance(achievement, target, [library[i] for i in new_order], after_known,
                                 after_groups, options, exiled=exiled)
    return CheckResult(
        kind=kind, difficulty=difficulty, library_size=size, known_cards=tuple(library[:exiled]),
        first=first, second=second, target=target, colours=colours, chosen_colour=chosen,
        relation=relation(kind, chosen, options), modifier=modifier, achievement=achievement,
        success=success, bottom=(library[pair[0]].name, library[pair[1]].name), new_order=new_order,
        odds=odds, actor=actor, options=options, boost_odds=foresight,
    )


def knowledge_after(new_order: Sequence[int], known: Collection[int] | int, unordered: Groups,
                    seen: Collection[int], returned: Sequence[int] = (), pair: int = 2
                    ) -> tuple[set[int], list[tuple[int, ...]]]:
    """The table's knowledge after a move (`new_order[j]` = the old position of the card now at j): known
    cards stay known where they went; the cards `seen` (old positions) leave their groups; the last
    `pair` positions (a check's revealed cards, MTG-CHK-12) and the positions of `returned` (old
    positions of a boost's exiled cards put back, MTG-CHK-13) each form a new unordered group."""
    known_set = set(range(known)) if isinstance(known, int) else set(known)
    where = {old: new for new, old in enumerate(new_order)}
    left = set(seen) | set(returned)
    groups = [tuple(sorted(where[i] for i in group if i in where and i not in left and i not in known_set))
              for group in unordered]
    size = len(new_order)
    if pair:
        groups.append(tuple(range(size - pair, size)))
    if returned:
        groups.append(tuple(sorted(where[i] for i in returned)))
    return {where[i] for i in known_set if i in where}, [g for g in groups if g]


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class BoostResult(Displayable):
    """MTG-CHK-13: the top cards exiled after a check and the achievement they add."""

    check: CheckResult
    exiled: tuple[CardFacts, ...]
    colourless: tuple[bool, ...]  # per exiled card: counted for the boost
    bonus: int
    achievement: int | float
    success: bool
    new_order: tuple[int, ...]  # over the library as it was after the check
    to_bottom: tuple[int, ...] = ()  # exiled indices sent to the bottom (only with boost_exile_stays=False)
    actor: str | None = None

    @property
    def turned(self) -> bool:
        """The boost changed a failure into a success."""
        return self.success and not self.check.success

    def to_dict(self) -> dict:
        return {"exiled": [c.name for c in self.exiled], "colourless": list(self.colourless),
                "bonus": self.bonus, "achievement": self.achievement, "success": self.success,
                "new_order": list(self.new_order), "to_bottom": list(self.to_bottom), "actor": self.actor}


def boost_refusal(check: CheckResult, exilable: int) -> str | None:
    """Why the seed forbids boosting `check` now, or None (seed 002:33-36, 64: the boost raises the
    achievement; success is achievement >= target, so a success has nothing to gain, and with no card
    to exile it adds nothing)."""
    actor = check.actor or t("mtg.character")
    if check.success:
        return t("mtg.err.boost_success", actor=actor)
    if exilable < 1:
        return t("mtg.err.boost_empty", actor=actor)
    return None


EVERYONE = "*"  # the boost scope when one boost per scene is shared by the whole table


def boost_scope(actor: str, options: MtgOptions) -> str:
    """Whose boost of the scene a boost uses: the character's own (recommended) or the table's (MTG-CHK-13)."""
    return actor if options.boost_per_character else EVERYONE


def require_boost(actor: str, options: MtgOptions, user: str | None, last_check: dict | None) -> str:
    """A boost is allowed once per scene (per character or for the table; `user` is who already used
    it) and only right after a check not boosted yet, with no new top cards seen since (MTG-CHK-13;
    seed 002:61,64); returns the scope it uses, RuleError otherwise."""
    scope = boost_scope(actor, options)
    if user is not None:
        if options.boost_per_character:
            raise RuleError(t("mtg.err.boost_used", actor=actor))
        raise RuleError(t("mtg.err.boost_used_table", user=user))
    if last_check is None:
        raise RuleError(t("mtg.err.boost_no_check", actor=actor))
    if last_check["boosted"]:
        raise RuleError(t("mtg.err.boost_done"))
    if last_check.get("peeked"):
        raise RuleError(t("mtg.err.boost_peeked", actor=actor))
    return scope


def boost_taken(size: int, check: CheckResult, options: MtgOptions) -> tuple[int, ...]:
    """The library positions a boost would exile: up to `boost_cards` after the known top cards, never
    the revealed pair now at the bottom (MTG-CHK-13); RuleError when the library changed since the check."""
    if size != check.library_size:
        raise RuleError(t("mtg.err.boost_stale"))
    middle = range(len(check.known_cards), size - 2)
    return tuple(middle[: options.boost_cards])


def boost(library: Sequence[CardFacts], check: CheckResult, rng: random.Random | None = None, *,
          options: MtgOptions | None = None) -> BoostResult:
    """Boost the achievement of `check`, given the library as the check left it.

    The boost happens before step 5 (OPEN): the revealed pair (now at the bottom) and the known top
    cards (still exiled at that moment) are not among the cards it exiles.
    """
    options = options or check.options
    size = len(library)
    taken = boost_taken(size, check, options)
    refusal = boost_refusal(check, len(taken))
    if refusal:
        raise RuleError(refusal)
    exiled = tuple(library[i] for i in taken)
    colourless = tuple(counts_colourless_for_boost(card, options) for card in exiled)
    bonus = sum(colourless)
    achievement = check.achievement + bonus
    rest = [i for i in range(size) if i not in set(taken)]
    to_bottom: tuple[int, ...] = ()
    if not options.boost_exile_stays:
        if rng is None:
            raise UsageError(t("mtg.err.boost_rng"))
        shuffled = list(taken)
        rng.shuffle(shuffled)
        to_bottom = tuple(shuffled)
        rest = rest[:-2] + list(to_bottom) + rest[-2:]  # exiled before step 5: under them the pair
    return BoostResult(check, exiled, colourless, bonus, achievement, achievement >= check.target,
                       tuple(rest), to_bottom, check.actor)
