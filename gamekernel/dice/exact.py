"""Exact integer kernels for distributions: a distribution is `(lo, counts)`, where
`counts[i]` is the number of ways (an int) to get `lo + i`.

Sums of dice are polynomial products. They are computed by Kronecker substitution: each
coefficient list is packed into one big integer with fixed-width slots, so one C-level
multiplication (or `pow`) convolves whole distributions; `100d6` is a single `pow`.
Keep-highest/lowest uses an order-statistics DP over faces (highest first) whose states are
such packed polynomials: faces x kept^2 big-integer operations instead of sides^dice rolls.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

Dist = tuple[int, tuple[int, ...]]

MAX_BITS = 1 << 23  # packed size of one exact result; ~1 MB, a fraction of a second to compute
MAX_PAIRS = 1_000_000  # outcome pairs for * and /


class TooLarge(Exception):
    """Internal: the exact computation would be too big; `size` describes it for the message.

    Holds a message key and its fields, rendered only when the error is shown (in the language of
    that moment), so this module needs no catalog on the fast path."""

    column: int  # set by the caller that knows where in the line the node starts (odds._Walker)

    def __init__(self, key: str, **fields: int):
        super().__init__(key, fields)
        self.key = key
        self.fields = fields

    @property
    def size(self) -> str:
        from gamekernel.i18n import t

        return t(self.key, **self.fields)

    def __reduce__(self):
        return (_too_large, (self.key, self.fields))


def _too_large(key: str, fields: dict[str, int]) -> TooLarge:
    return TooLarge(key, **fields)


def _slot_bytes(largest: int) -> int:
    return largest.bit_length() // 8 + 1


def pack(counts, nbytes: int) -> int:
    return int.from_bytes(b"".join(c.to_bytes(nbytes, "little") for c in counts), "little")


def unpack(value: int, length: int, nbytes: int) -> tuple[int, ...]:
    raw = value.to_bytes(length * nbytes, "little")
    frm = int.from_bytes
    return tuple(frm(raw[i : i + nbytes], "little") for i in range(0, length * nbytes, nbytes))


def check_size(cells: int, bits: int) -> None:
    if cells * bits > MAX_BITS:
        raise TooLarge("dice.size.bits", cells=cells, bits=bits)


def keep_cost(n: int, k: int, faces: int, packed_bytes: int) -> int:
    """Estimated steps of `keep_highest`, known before any of it runs: its table of binomials
    (big numbers: ~n^3), then per face k^2/2 shifts and k*n products of `packed_bytes` polynomials."""
    return n * n * n // 2 + faces * (k * k // 2 + k * n) * max(1, packed_bytes // 64)


def check_cost(steps: int) -> None:
    """Refuse an exact computation estimated above `max_exact_cost` steps (gamekernel.limits)."""
    from gamekernel.limits import current

    if steps > current().max_exact_cost:
        raise TooLarge("limits.size.steps", steps=steps, limit=current().max_exact_cost)


def trim(dist: Dist) -> Dist:
    """Drop zero counts at both ends."""
    lo, counts = dist
    start, end = 0, len(counts)
    while start < end - 1 and counts[start] == 0:
        start += 1
    while end - 1 > start and counts[end - 1] == 0:
        end -= 1
    if start == 0 and end == len(counts):
        return dist
    return lo + start, tuple(counts[start:end])


def constant(value: int) -> Dist:
    return value, (1,)


def negate(dist: Dist) -> Dist:
    lo, counts = dist
    return -(lo + len(counts) - 1), tuple(reversed(counts))


def convolve(a: Dist, b: Dist) -> Dist:
    """Distribution of the sum of two independent variables."""
    (alo, ac), (blo, bc) = a, b
    if len(bc) == 1 or len(ac) == 1:
        (single, many) = (bc[0], ac) if len(bc) == 1 else (ac[0], bc)
        return alo + blo, many if single == 1 else tuple(c * single for c in many)
    length = len(ac) + len(bc) - 1
    largest = sum(ac) * sum(bc)
    check_size(length, largest.bit_length())
    nbytes = _slot_bytes(largest)
    product = pack(ac, nbytes) * pack(bc, nbytes)
    return alo + blo, unpack(product, length, nbytes)


def power(die: Dist, n: int) -> Dist:
    """Sum of n independent copies of `die`."""
    lo, counts = die
    if n == 0:
        return 0, (1,)
    if n == 1 or len(counts) == 1:
        return lo * n, (counts[0] ** n,) if len(counts) == 1 else counts
    length = (len(counts) - 1) * n + 1
    largest = sum(counts) ** n
    check_size(length, largest.bit_length())
    nbytes = _slot_bytes(largest)
    width = nbytes * 8
    if all(c == 1 for c in counts):  # a plain die: 1 + x + ... + x^(s-1), packed directly
        base = ((1 << (len(counts) * width)) - 1) // ((1 << width) - 1)
    else:
        base = pack(counts, nbytes)
    return lo * n, unpack(pow(base, n), length, nbytes)


@lru_cache(maxsize=512)
def plain_dice(n: int, sides: int) -> Dist:
    """NdS without modifiers (cached: it is the building block of most expressions)."""
    return power((1, (1,) * sides), n)


def combine(a: Dist, b: Dist, op) -> Dist:
    """Distribution of op(x, y) for independent x, y (used for * and floor division)."""
    (alo, ac), (blo, bc) = a, b
    nonzero_a = [(alo + i, c) for i, c in enumerate(ac) if c]
    nonzero_b = [(blo + i, c) for i, c in enumerate(bc) if c]
    if len(nonzero_a) * len(nonzero_b) > MAX_PAIRS:
        raise TooLarge("dice.size.pairs", left=len(nonzero_a), right=len(nonzero_b))
    out: dict[int, int] = {}
    get = out.get
    for x, cx in nonzero_a:
        for y, cy in nonzero_b:
            v = op(x, y)
            out[v] = get(v, 0) + cx * cy
    return from_mapping(out)


def from_mapping(weights: dict[int, int]) -> Dist:
    lo, hi = min(weights), max(weights)
    if hi - lo + 1 > 4 * MAX_PAIRS:
        raise TooLarge("dice.size.outcomes", count=hi - lo + 1)
    counts = [0] * (hi - lo + 1)
    for value, count in weights.items():
        counts[value - lo] += count
    return lo, tuple(counts)


def keep_highest(die: Dist, n: int, k: int) -> Dist:
    """Sum of the k highest of n independent copies of `die` (exact, order statistics DP).

    Faces are visited from the highest down. State j < k = how many dice are already placed
    (all on higher faces), as a packed polynomial over the kept sum. Placing m more dice on
    face v either stays below k (continue) or completes the kept set, after which the other
    dice only need any lower face: one closed-form weight, no further states.
    """
    lo, counts = die
    k = max(0, min(k, n))
    total = sum(counts)
    if k == 0:
        return 0, (total**n,)
    if k == n:
        return power(die, n)
    faces = len(counts)
    length = k * (faces - 1) + 1
    largest = total**n
    check_size(length, largest.bit_length())
    nbytes = _slot_bytes(largest)
    check_cost(keep_cost(n, k, faces, length * nbytes))
    width = nbytes * 8
    binom = [[comb(r, m) for m in range(r + 1)] for r in range(n + 1)]
    states = [0] * k
    states[0] = 1
    result = 0
    below = total
    for index in range(faces - 1, -1, -1):
        weight = counts[index]
        below -= weight
        if weight == 0:
            continue
        weight_pow = [weight**m for m in range(n + 1)]
        below_pow = [below**m for m in range(n + 1)]
        new = [0] * k
        for j in range(k):
            poly = states[j]
            if not poly:
                continue
            r = n - j
            row = binom[r]
            for m in range(k - j):
                new[j + m] += (poly << (index * m * width)) * (row[m] * weight_pow[m])
            finish = sum(row[m] * weight_pow[m] * below_pow[r - m] for m in range(k - j, r + 1))
            result += (poly << (index * (k - j) * width)) * finish
        states = new
    return k * lo, unpack(result, length, nbytes)


def keep_lowest(die: Dist, n: int, k: int) -> Dist:
    return negate(keep_highest(negate(die), n, k))


def single_modified(sides: int, reroll, reroll_once: bool, explode, low, high, depth: int) -> Dist:
    """One die after reroll (bounded like the roller), clamp and explosion (capped at depth).

    Reroll-until allows at most `depth` rerolls, exactly like the roller: with m matching faces
    a kept non-matching face has weight sum(m^i s^(D-i)), a matching one m^D (denominator s^(D+1)).
    """
    if reroll is None:
        weights = [1] * sides
    else:
        tries = 1 if reroll_once else depth
        first, last = max(reroll[0], 1), min(reroll[1], sides)
        matching = last - first + 1
        keep_weight = sum(matching**i * sides ** (tries - i) for i in range(tries + 1))
        # a weight per face, each as large as sides^depth: refused before the list is built
        # (1d1000000r1 would hold a million 2,000-bit numbers)
        check_size(sides, keep_weight.bit_length())
        weights = [
            matching**tries if first <= face <= last else keep_weight for face in range(1, sides + 1)
        ]
    total = sum(weights)

    def value(face: int) -> int:
        if low is not None and face < low:
            face = low
        if high is not None and face > high:
            face = high
        return face

    base: dict[int, int] = {}
    for face, weight in enumerate(weights, start=1):
        v = value(face)
        base[v] = base.get(v, 0) + weight
    chain = from_mapping(base)
    if explode is None:
        return chain
    first, last = max(explode[0], 1), min(explode[1], sides)
    work = depth * (last - first + 1) * (depth + 1) * len(chain[1])
    if work > 4 * MAX_PAIRS:
        raise TooLarge("dice.size.exploding", count=(depth + 1) * len(chain[1]))
    stop: dict[int, int] = {}
    go: dict[int, int] = {}
    for face, weight in enumerate(weights, start=1):
        target = go if first <= face <= last else stop
        v = value(face)
        target[v] = target.get(v, 0) + weight
    stop_dist = from_mapping(stop) if stop else (0, (0,))
    for level in range(1, depth + 1):
        grown: dict[int, int] = {}
        scale = total**level
        slo, scounts = stop_dist
        for i, c in enumerate(scounts):
            if c:
                grown[slo + i] = grown.get(slo + i, 0) + c * scale
        clo, ccounts = chain
        for v, weight in go.items():
            for i, c in enumerate(ccounts):
                if c:
                    key = v + clo + i
                    grown[key] = grown.get(key, 0) + c * weight
        chain = from_mapping(grown)
    return chain


def explode_miss(sides: int, reroll, reroll_once: bool, explode, depth: int):
    """(exploding weight, total weight) per physical die, for the truncated mass."""
    if reroll is None:
        weights = [1] * sides
    else:
        tries = 1 if reroll_once else depth
        first, last = max(reroll[0], 1), min(reroll[1], sides)
        matching = last - first + 1
        keep_weight = sum(matching**i * sides ** (tries - i) for i in range(tries + 1))
        # a weight per face, each as large as sides^depth: refused before the list is built
        # (1d1000000r1 would hold a million 2,000-bit numbers)
        check_size(sides, keep_weight.bit_length())
        weights = [
            matching**tries if first <= face <= last else keep_weight for face in range(1, sides + 1)
        ]
    first, last = max(explode[0], 1), min(explode[1], sides)
    return sum(weights[first - 1 : last]), sum(weights)
