"""A library with what the table knows of its order, as one value: the cards top first, the positions whose
card the player knows (peeked, MTG-CHK-04) and the groups of positions whose cards are known but not their
order (a check's pair at the bottom, MTG-CHK-12; a boost's cards put back, MTG-CHK-13). It is the odds
model of mtg/rules/odds.py (`slot_groups`) carried as one thing, so that every figure drawn from a library
(`%odds check`, `%library odds`, the explorer, the boost foresight) starts from the same knowledge.

`with_counts` is the explorer's "what if": it changes only the cards whose place nobody knows, so the
cards the table saw stay where they were seen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from gamekernel.mtg.rules.facts import CardFacts
from gamekernel.mtg.rules.odds import known_in_groups, known_prefix


@dataclass(frozen=True)
class LibraryKnowledge:
    cards: tuple[CardFacts, ...]
    known: frozenset[int] = frozenset()
    unordered: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def of(cls, cards: Iterable[CardFacts], known: Collection[int] = (),
           unordered: Iterable[Sequence[int]] = ()) -> LibraryKnowledge:
        cards = tuple(cards)
        size = len(cards)
        known_set = frozenset(i for i in known if 0 <= i < size)
        groups = tuple(g for g in (tuple(sorted(i for i in group if 0 <= i < size and i not in known_set))
                                   for group in unordered) if g)
        return cls(cards, known_set, groups)

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def exiled_known(self) -> int:
        """Known top cards a check exiles first (MTG-CHK-04)."""
        return known_prefix(self.known)

    @property
    def known_at_bottom(self) -> int:
        """Cards known to lie in groups of unknown order (the "given the N cards known at the bottom")."""
        return known_in_groups(self.unordered, self.size, self.known)

    def placed(self) -> dict[int, str]:
        """Position -> "known" or "group<i>" for every position the table knows something of."""
        tags = {i: "known" for i in self.known}
        for index, group in enumerate(self.unordered):
            for position in group:
                tags.setdefault(position, f"group{index}")
        return tags

    def fixed_copies(self) -> Counter[str]:
        """Copies of each card whose place (or group) the table knows: a what-if cannot remove them."""
        return Counter(self.cards[i].name for i in self.placed())

    def with_counts(self, counts: Mapping[str, int], facts: Mapping[str, CardFacts]) -> LibraryKnowledge:
        """The library holding `counts` copies of each card, the known and grouped cards where they are and
        the unknown ones changed to make up the rest (extra unknown places go after the last unknown one,
        or under the known top cards); ValueError names a card asked below its known copies."""
        fixed = self.fixed_copies()
        unknown: list[CardFacts] = []
        for name in sorted(set(counts) | set(fixed)):
            extra = counts.get(name, 0) - fixed[name]
            if extra < 0:
                raise ValueError(name)
            unknown.extend([facts[name]] * extra)
        tags = self.placed()
        slots: list[str | int] = [i if i in tags else "unknown" for i in range(self.size)]  # old position
        open_slots = [j for j, slot in enumerate(slots) if slot == "unknown"]
        missing = len(unknown) - len(open_slots)
        if missing > 0:
            at = open_slots[-1] + 1 if open_slots else self.exiled_known
            slots[at:at] = ["unknown"] * missing
        elif missing < 0:
            drop = set(open_slots[missing:])
            slots = [slot for j, slot in enumerate(slots) if j not in drop]
        cards: list[CardFacts] = []
        known: set[int] = set()
        groups: dict[str, list[int]] = {}
        fill = iter(unknown)
        for position, slot in enumerate(slots):
            if slot == "unknown":
                cards.append(next(fill))
                continue
            assert isinstance(slot, int)
            cards.append(self.cards[slot])
            if tags[slot] == "known":
                known.add(position)
            else:
                groups.setdefault(tags[slot], []).append(position)
        return LibraryKnowledge.of(cards, known, groups.values())
