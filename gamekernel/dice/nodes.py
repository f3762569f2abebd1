"""The dice AST and how each node rolls.

Nodes are small immutable objects; each `roll` appends one record per dice group to `out`
(in evaluation order, left to right) so the result keeps every face and its fate. A record is
`(sides, faces, entries)`: plain groups keep `faces` (a list of ints) and `entries=None`;
modified groups keep `entries`, a list of `(value, fate, face)` in roll order.

Sums are flat `Chain` nodes rather than nested binary nodes, so `1+1+...+1` never recurses
deeply; nesting only comes from parentheses and unary signs, which the parser caps.
"""

from __future__ import annotations

from operator import itemgetter

from gamekernel.rng import TransactionalRandom
from gamekernel.rng import raw_bits as _raw_bits

KEPT, DROPPED, EXPLODED, REROLLED, CLAMPED = "kept", "dropped", "exploded", "rerolled", "clamped"

# One dice group as a roll records it: (sides, faces or None, (value, fate, face) entries or None).
GroupRecord = tuple[int, list[int] | None, list[tuple[int, str, int]] | None]


class DivideByZero(Exception):
    """Internal: raised while rolling, turned into a DiceError with the column by `roll`."""

    def __init__(self, column: int):
        super().__init__(column)
        self.column = column


class Node(tuple):
    """Base of the AST nodes: immutable tuples with named fields (cheap to build, no cache needed).

    Build them with `Class(field, ...)` (the parser uses the faster `make`). Equality compares
    the type and the fields, not the source columns.
    """

    __slots__ = ()
    fields: tuple[str, ...] = ()

    def __new__(cls, *values):
        return tuple.__new__(cls, values)

    def __getnewargs__(self):
        return tuple(self)

    def shape(self) -> tuple:
        """The node without source columns: two spellings of the same roll compare equal."""
        out: list = [type(self).__name__]
        for name, value in zip(self.fields, self, strict=True):
            if name == "col":
                continue
            if isinstance(value, Node):
                value = value.shape()
            elif name == "rest":
                value = tuple((op, node.shape()) for op, node, _col in value)
            out.append(value)
        return tuple(out)

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self.shape() == other.shape()

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.shape())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.fields, self, strict=True) if name != "col")
        return f"{type(self).__name__}({shown})"


_tuple_new = tuple.__new__


def make(cls, *values):
    """Build a node from its field values in order."""
    return _tuple_new(cls, values)


def node_field(index: int, doc: str) -> property:
    return property(itemgetter(index), doc=doc)


class Num(Node):
    """An integer literal."""

    __slots__ = ()
    fields = ("value", "col")
    value = node_field(0, "the integer")
    col = node_field(1, "1-based column")

    def roll(self, rng, out, depth):
        return self[0]


class Neg(Node):
    """Unary minus."""

    __slots__ = ()
    fields = ("operand", "col")
    operand = node_field(0, "the negated node")
    col = node_field(1, "1-based column")

    def roll(self, rng, out, depth):
        return -self[0].roll(rng, out, depth)


class Group(Node):
    """Parentheses: kept so the breakdown shows them as written."""

    __slots__ = ()
    fields = ("inner",)
    inner = node_field(0, "the node inside the parentheses")

    def roll(self, rng, out, depth):
        return self[0].roll(rng, out, depth)


class Chain(Node):
    """`first (op operand)*`, evaluated left to right; op is one of + - x * /.

    `x`/`×` (the GURPS damage multiplier) sits at the level of + and -, so `3d-1x2` is (3d-1)×2;
    `*` and `/` bind tighter as usual. Division rounds down (floor), like Python's `//`.
    """

    __slots__ = ()
    fields = ("first", "rest")
    first = node_field(0, "the first operand")
    rest = node_field(1, "tuple of (op, node, column)")

    def roll(self, rng, out, depth):
        total = self[0].roll(rng, out, depth)
        for op, node, col in self[1]:
            value = node[0] if type(node) is Num else node.roll(rng, out, depth)
            if op == "+":
                total += value
            elif op == "-":
                total -= value
            elif op == "/":
                if value == 0:
                    raise DivideByZero(col)
                total //= value
            else:
                total *= value
        return total


class Mods(Node):
    """Modifiers of one dice group (each at most once), applied in a fixed order per die:
    reroll (`r`: until, `ro`: once) -> clamp (`mi`/`ma`) -> explode (`!`, decided on the face
    after rerolls) -> keep/drop over the per-die totals (an exploded die and its extra dice
    count as one die).

    Conditions are inclusive face ranges `(low, high)`; `keep` is ("kh"|"kl"|"dh"|"dl", n).
    """

    __slots__ = ()
    fields = ("keep", "reroll", "reroll_once", "explode", "low", "high")
    keep = node_field(0, "(kind, count) or None")
    reroll = node_field(1, "face range or None")
    reroll_once = node_field(2, "True for ro")
    explode = node_field(3, "face range or None")
    low = node_field(4, "clamp minimum or None")
    high = node_field(5, "clamp maximum or None")

    def kept_count(self, n: int) -> tuple[bool, int]:
        """(keep the highest?, how many of the n dice are kept)."""
        kind, count = self[0]
        if kind == "kh":
            return True, min(count, n)
        if kind == "kl":
            return False, min(count, n)
        if kind == "dh":
            return False, max(n - count, 0)
        return True, max(n - count, 0)

    def only_keep(self) -> bool:
        return self[1] is None and self[3] is None and self[4] is None and self[5] is None


def faces(rng, n: int, sides: int) -> list[int]:
    """n uniform faces 1..sides, exact: rejection sampling on getrandbits (as randrange does).

    The session's TransactionalRandom is drawn from with the Twister's own C method (a Python call
    a die less, see `_counted_faces`), any other generator through its `getrandbits`."""
    k = (sides - 1).bit_length()
    if type(rng) is TransactionalRandom:
        return _counted_faces(rng, n, sides, k)
    bits = rng.getrandbits
    if n == 1:  # the commonest group (1d20), without the loop set-up
        value = bits(k)
        while value >= sides:
            value = bits(k)
        return [value + 1]
    if sides == 1 << k:
        return [bits(k) + 1 for _ in range(n)]
    out: list[int] = []
    append = out.append
    for _ in range(n):
        value = bits(k)
        while value >= sides:
            value = bits(k)
        append(value + 1)
    return out


def _counted_faces(rng: TransactionalRandom, n: int, sides: int, k: int) -> list[int]:
    """`faces` on the session's generator: the same draws in the same order, each `getrandbits(k)` of
    the C method, and the words they took counted once at the end as `TransactionalRandom.getrandbits`
    counts them (an interrupt between two draws too, so a later refusal still puts back exactly)."""
    out: list[int] = []
    append = out.append
    calls = 0
    try:
        for _ in range(n):
            value = _raw_bits(rng, k)
            calls += 1
            while value >= sides:
                value = _raw_bits(rng, k)
                calls += 1
            append(value + 1)
    finally:
        rng._words += calls * ((k + 31) >> 5)
    return out


def one_face(rng, sides: int) -> int:
    bits = rng.getrandbits
    k = (sides - 1).bit_length()
    value = bits(k)
    while value >= sides:
        value = bits(k)
    return value + 1


class Dice(Node):
    """`NdS` with optional modifiers; `sides` is already resolved (`3d` -> 6, `d%` -> 100)."""

    __slots__ = ()
    fields = ("count", "sides", "mods", "col")
    count = node_field(0, "number of dice")
    sides = node_field(1, "faces per die")
    mods = node_field(2, "Mods or None")
    col = node_field(3, "1-based column")

    def roll(self, rng, out, depth):
        count, sides, mods, _col = self
        if mods is None:
            rolled = faces(rng, count, sides)
            out.append((sides, rolled, None))
            return sum(rolled)
        if mods.only_keep():
            return self._roll_keep(rng, out)
        return self._roll_modified(rng, out, depth)

    def _roll_keep(self, rng, out):
        n = self.count
        rolled = faces(rng, n, self.sides)
        highest, keep = self.mods.kept_count(n)
        order = sorted(range(n), key=rolled.__getitem__, reverse=highest)
        kept = set(order[:keep])
        entries = [(v, KEPT if i in kept else DROPPED, v) for i, v in enumerate(rolled)]
        out.append((self.sides, None, entries))
        return sum(rolled[i] for i in kept)

    def _roll_modified(self, rng, out, depth):
        sides, mods = self.sides, self.mods
        reroll = mods.reroll
        reroll_limit = 1 if mods.reroll_once else depth
        explode = mods.explode
        low, high = mods.low, mods.high
        per_die = []
        for _ in range(self.count):
            entries = []
            total = 0
            extra = 0
            while True:
                face = one_face(rng, sides)
                if reroll is not None:
                    tries = 0
                    while reroll[0] <= face <= reroll[1] and tries < reroll_limit:
                        entries.append((face, REROLLED, face))
                        face = one_face(rng, sides)
                        tries += 1
                value = face
                if low is not None and value < low:
                    value = low
                if high is not None and value > high:
                    value = high
                explodes = explode is not None and explode[0] <= face <= explode[1] and extra < depth
                fate = EXPLODED if explodes else (CLAMPED if value != face else KEPT)
                entries.append((value, fate, face))
                total += value
                if not explodes:
                    break
                extra += 1
            per_die.append((total, entries))
        if mods.keep is not None:
            highest, keep = mods.kept_count(self.count)
            order = sorted(range(self.count), key=lambda i: per_die[i][0], reverse=highest)
            dropped: set[int] | tuple[()] = set(order[keep:])
        else:
            dropped = ()
        flat: list[tuple[int, str, int]] = []
        total = 0
        for index, (die_total, entries) in enumerate(per_die):
            if index in dropped:
                flat.extend((v, f if f == REROLLED else DROPPED, face) for v, f, face in entries)
            else:
                flat.extend(entries)
                total += die_total
        out.append((sides, None, flat))
        return total
