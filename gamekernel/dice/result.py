"""Rolling: Expression + RNG -> RollResult, which keeps every die with its fate.

A result stores the faces compactly (one record per dice group) and builds the DieRoll tuple,
the breakdown text and the HTML only when asked; `to_dict` includes the breakdown so a log
reads without re-rendering, and `from_dict` restores an equal result without the RNG.
"""

from __future__ import annotations

import sys

from gamekernel.dice.errors import limit_error
from gamekernel.dice.limits import DEFAULT_LIMITS, Limits
from gamekernel.dice.nodes import (
    CLAMPED,
    DROPPED,
    EXPLODED,
    KEPT,
    REROLLED,
    Chain,
    Dice,
    DivideByZero,
    Group,
    GroupRecord,
    Neg,
    Num,
    make,
)
from gamekernel.dice.nodes import faces as roll_faces
from gamekernel.dice.parser import Expression, Parser, parse, parse_simple
from gamekernel.display import Displayable

_COUNTED = frozenset((KEPT, EXPLODED, CLAMPED))
_SHOW_LIMIT = 200  # dice listed per group in __str__ and HTML; the breakdown lists all
_LENIENT = Limits(max_dice=sys.maxsize, max_length=sys.maxsize, max_depth=200, max_sides=sys.maxsize)


class _once:
    """`functools.cached_property` without the lock Python 3.11 takes on every first access:
    that lock costs as much as building a short breakdown. Results are immutable, so a race
    could only compute the same value twice."""

    def __init__(self, func):
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


class DieRoll:
    """One physical die: its size, the value it contributes, its fate, and the face rolled.

    `face` is set only when it differs from `value` (clamped dice: `1d6mi2` rolling 1 has
    face 1, value 2). Immutable; compares by value.
    """

    __slots__ = ("face", "fate", "sides", "value")
    sides: int
    value: int
    fate: str
    face: int | None

    def __init__(self, sides: int, value: int, fate: str = KEPT, face: int | None = None):
        _set = object.__setattr__
        _set(self, "sides", sides)
        _set(self, "value", value)
        _set(self, "fate", fate)
        _set(self, "face", face)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("DieRoll is immutable")

    def __delattr__(self, name: str) -> None:
        """Deleting a field is refused like setting one (an AttributeError, not a TypeError)."""
        raise AttributeError("DieRoll is immutable")

    @property
    def kept(self) -> bool:
        """Does this die count toward the total?"""
        return self.fate in _COUNTED

    @property
    def natural(self) -> int:
        return self.value if self.face is None else self.face

    def _key(self) -> tuple:
        return (self.sides, self.value, self.fate, self.face)

    def __eq__(self, other) -> bool:
        return isinstance(other, DieRoll) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        face = "" if self.face is None else f", face={self.face}"
        return f"DieRoll(sides={self.sides}, value={self.value}, fate={self.fate!r}{face})"

    def __reduce__(self):
        return (DieRoll, self._key())


def _compare(op: str, total: int, target: int) -> tuple[bool, int]:
    """(success, margin): margin >= 0 on success for <= and >=, > 0 for < and >; for = it is
    minus the distance from the target."""
    if op == "<=":
        return total <= target, target - total
    if op == ">=":
        return total >= target, total - target
    if op == "<":
        return total < target, target - total
    if op == ">":
        return total > target, total - target
    return total == target, -abs(total - target)


class RollResult(Displayable):
    """The outcome of one roll; immutable, replayable from `to_dict()` without the RNG."""

    __slots__ = ("__dict__",)

    expression: Expression
    total: int
    comparison: tuple[str, int] | None = None
    success: bool | None = None
    margin: int | None = None
    _groups: list[GroupRecord]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("RollResult is immutable")

    def __delattr__(self, name: str) -> None:
        """Deleting a field is refused like setting one (an AttributeError, not a TypeError)."""
        raise AttributeError("RollResult is immutable")

    @property
    def text(self) -> str:
        return self.expression.text

    @property
    def label(self) -> str:
        return self.expression.label

    @property
    def ast(self):
        return self.expression.ast

    @_once
    def dice(self) -> tuple[DieRoll, ...]:
        """Every die in roll order, rerolled and dropped ones included."""
        out: list[DieRoll] = []
        for sides, faces, entries in self._groups:
            if entries is None:
                assert faces is not None  # a plain group keeps its faces (nodes.py)
                out.extend(DieRoll(sides, v) for v in faces)
            else:
                out.extend(
                    DieRoll(sides, v, fate, None if face == v else face) for v, fate, face in entries
                )
        return tuple(out)

    def fates(self) -> list[tuple[str, int, int, int | None]]:
        """`(fate, value, sides, face)` of every die, in the order and with the values of `dice`,
        without building the DieRoll objects: drawing a roll's dice needs only these (for speed)."""
        out: list[tuple[str, int, int, int | None]] = []
        for sides, faces, entries in self._groups:
            if entries is None:
                assert faces is not None  # a plain group keeps its faces (nodes.py)
                out += [(KEPT, v, sides, None) for v in faces]
            else:
                out += [(fate, v, sides, None if face == v else face) for v, fate, face in entries]
        return out

    @property
    def rolled_text(self) -> str:
        """The notation of what is rolled, without the comparison its verdict states (`1d20+5` of
        `1d20+5 >= 15`), so a result says the comparison once."""
        text = self.__dict__["expression"][3]
        comparison = self.comparison if "comparison" in self.__dict__ else None
        if comparison is None:
            return text
        cut = text.rfind(f" {comparison[0]} ")
        return text if cut < 0 else text[:cut]

    @property
    def breakdown(self) -> str:
        """One line of working: `3d6+2 = [4, 3, 6] + 2 = 15` (built on first use, then kept)."""
        fields = self.__dict__
        line = fields.get("_breakdown")
        if line is not None:
            return line
        text = fields["expression"][3]
        total = fields["total"]
        if "comparison" in fields:
            text = self.rolled_text  # the verdict states the comparison
            working = self._working(spaced=True, cap=None)
            verdict = self._verdict(spaced=True)
        else:  # the common case, without the method calls
            ast, groups = fields["expression"][0], fields["_groups"]
            kind = type(ast)
            # the faces as Python prints a list (one die without the list's repr: `[17]`)
            if kind is Dice and groups[0][2] is None:  # `3d6`
                faces = groups[0][1]
                line = fields["_breakdown"] = (f"{text} = [{faces[0]}] = {total}" if len(faces) == 1
                                               else f"{text} = {faces!r} = {total}")
                return line
            if kind is Chain and len(ast[1]) == 1 and type(ast[0]) is Dice and groups[0][2] is None:
                op, operand, _column = ast[1][0]
                if type(operand) is Num:  # `1d20+5`, `3d6-1`, `2d6x2`: what _show gives, without its calls
                    faces, tail = groups[0][1], f"{_SPACED_OPS[op]}{operand[0]} = {total}"
                    line = fields["_breakdown"] = (f"{text} = [{faces[0]}]{tail}" if len(faces) == 1
                                                   else f"{text} = {faces!r}{tail}")
                    return line
            working = _show(ast, iter(groups), True, None)
            verdict = ""
        if "[" not in working and working == str(total):  # no dice: `5 = 5` would say nothing
            line = fields["_breakdown"] = f"{text} = {total}{verdict}"
        else:
            line = fields["_breakdown"] = f"{text} = {working} = {total}{verdict}"
        return line

    def _working(self, *, spaced: bool, cap: int | None) -> str:
        groups = iter(self._groups)
        left = _show(self.expression.ast, groups, spaced, cap)
        if self.comparison is not None:
            self.__dict__["_rhs_working"] = _show(self.expression.comparison[1], groups, spaced, cap)
        return left

    def _verdict(self, *, spaced: bool) -> str:
        if self.comparison is None:
            return ""
        from gamekernel.i18n import t

        op, target = self.comparison
        rhs = self.__dict__.get("_rhs_working", str(target))
        target_text = str(target) if rhs == str(target) else f"{rhs} = {target}"
        word = t("dice.success") if self.success else t("dice.failure")
        return f" {op} {target_text}: {word} ({t('dice.margin')} {self.margin:+d})"

    def __str__(self) -> str:
        fields = self.__dict__
        expression = fields["expression"]
        label = f"{expression[2]}: " if expression[2] else ""
        if "comparison" not in fields:  # the common case (`3d6`, `1d20+5`), without the walk of the tree
            working = _plain_working(expression[0], fields["_groups"])
            if working is not None:
                return f"{label}{expression[3]} → {working} = {fields['total']}"
        working = self._working(spaced=False, cap=_SHOW_LIMIT)
        return f"{label}{self.rolled_text} → {working} = {self.total}{self._verdict(spaced=False)}"

    __repr__ = __str__

    def _key(self):
        return (self.text, self.label, self.total, self.comparison, self.success, self.margin, self.dice)

    def __eq__(self, other) -> bool:
        return isinstance(other, RollResult) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def to_dict(self, *, breakdown: bool = True) -> dict:
        """JSON-able: text, label, total, every die by group, comparison, success, margin and (unless
        `breakdown` is False, as in a logged event, which keeps no prose) the breakdown text."""
        dice = []
        for sides, faces, entries in self._groups:
            rolls: list[int | list[int | str]]
            if entries is None:
                assert faces is not None  # a plain group keeps its faces (nodes.py)
                rolls = list(faces)
            else:
                rolls = []
                for value, fate, face in entries:
                    if fate == KEPT:
                        rolls.append(value)
                    elif face == value:
                        rolls.append([value, fate])
                    else:
                        rolls.append([value, fate, face])
            dice.append({"sides": sides, "rolls": rolls})
        expression = self.expression  # its fields, not the `text` and `label` properties: every roll is logged
        data = {
            "text": expression[3],
            "label": expression[2],
            "total": self.total,
            "dice": dice,
            "comparison": list(self.comparison) if self.comparison else None,
            "success": self.success,
            "margin": self.margin,
        }
        if breakdown:
            data["breakdown"] = self.breakdown
        return data

    @classmethod
    def from_dict(cls, data: dict) -> RollResult:
        """Rebuild a result from `to_dict()` output (e.g. a log line) without rolling."""
        parsed = parse(data["text"], _LENIENT)
        expression = make(
            Expression, parsed.ast, parsed.comparison, data.get("label", ""), parsed.text, data["text"],
            parsed.dice_count,
        )
        groups: list[GroupRecord] = []
        for group in data["dice"]:
            sides = group["sides"]
            rolls = group["rolls"]
            if all(isinstance(r, int) for r in rolls):
                groups.append((sides, list(rolls), None))
            else:
                entries = []
                for r in rolls:
                    if isinstance(r, int):
                        entries.append((r, KEPT, r))
                    else:
                        entries.append((r[0], r[1], r[2] if len(r) > 2 else r[0]))
                groups.append((sides, None, entries))
        comparison = tuple(data["comparison"]) if data.get("comparison") else None
        # a stored "breakdown" is not restored: it is text, drawn again in the current language
        return _make(expression, data["total"], groups, comparison, data.get("success"), data.get("margin"))


_new = object.__new__


def _make(expression, total, groups, comparison=None, success=None, margin=None) -> RollResult:
    result = _new(RollResult)
    fields = result.__dict__
    fields["expression"] = expression
    fields["total"] = total
    fields["_groups"] = groups
    if comparison is not None:
        fields["comparison"] = comparison
        fields["success"] = success
        fields["margin"] = margin
    return result


def roll(expr: str | Expression, rng, limits: Limits = DEFAULT_LIMITS) -> RollResult:
    """Roll dice notation (or a parsed Expression) with `rng` (a random.Random)."""
    if type(expr) is str:
        if len(expr) <= limits.max_length and expr.isascii():  # parse(), minus one call
            lower = expr.lower()
            expression = parse_simple(lower, expr, limits)
            if expression is not None:
                return _roll_simple(expression, rng)
            expression = Parser(lower, expr, expr, None, limits).parse_roll()
        else:
            expression = parse(expr, limits)
    elif isinstance(expr, Expression):
        expression = expr
        if expression.dice_count > limits.max_dice:
            raise limit_error(
                expression.source, 1, "dice.err.too_many_dice", "dice.exp.fewer_dice",
                count=expression.dice_count, limit=limits.max_dice,
            )
    else:
        expression = parse(expr, limits)  # raises TypeError for non-strings
    groups: list[GroupRecord] = []
    depth = limits.explode_depth
    ast, comparison, _label, text, _source, _count = expression
    saved = rng.getstate() if "/" in text else None
    try:
        total = ast.roll(rng, groups, depth)
        if comparison is None:
            result = _new(RollResult)
            fields = result.__dict__
            fields["expression"] = expression
            fields["total"] = total
            fields["_groups"] = groups
            return result
        op, node = comparison
        target = node.roll(rng, groups, depth)
    except DivideByZero as error:
        rng.setstate(saved)  # a refused roll leaves the RNG as it was
        raise limit_error(
            expression.source, error.column, "dice.err.divide_zero", "dice.exp.nonzero"
        ) from None
    success, margin = _compare(op, total, target)
    return _make(expression, total, groups, (op, target), success, margin)


def _roll_simple(expression: Expression, rng) -> RollResult:
    """`NdS` or `NdS+K` / `NdS-K` as `parse_simple` reads them (`3d+2`, `1d20+5`), rolled without walking
    the tree: the same faces, total and groups as `Chain.roll` / `Dice.roll` (a property test
    compares the two on every shape `parse_simple` accepts)."""
    ast = expression[0]
    if type(ast) is Dice:
        rolled = roll_faces(rng, ast[0], ast[1])
        total = sum(rolled)
        sides = ast[1]
    else:
        dice, ((op, number, _column),) = ast
        sides = dice[1]
        rolled = roll_faces(rng, dice[0], sides)
        total = sum(rolled) + number[0] if op == "+" else sum(rolled) - number[0]
    result = _new(RollResult)
    fields = result.__dict__
    fields["expression"] = expression
    fields["total"] = total
    fields["_groups"] = [(sides, rolled, None)]
    return result


def _plain_working(ast, groups: list[GroupRecord]) -> str | None:
    """The working `_show` writes unspaced for `NdS` (`[4,3,6]`) and `NdS` with one number
    (`[4,3,6]+2`) of plain dice, at most _SHOW_LIMIT of them; None for any other shape."""
    kind = type(ast)
    if kind is Chain and len(ast[1]) == 1 and type(ast[0]) is Dice:
        op, operand, _column = ast[1][0]
        if type(operand) is not Num:
            return None
        tail = f"{_OPS[op]}{operand[0]}"
    elif kind is Dice:
        tail = ""
    else:
        return None
    _sides, faces, entries = groups[0]
    if entries is not None or faces is None or len(faces) > _SHOW_LIMIT:
        return None
    return f"[{','.join(map(str, faces))}]{tail}"


# ----- working (the middle of the breakdown)

_OPS = {"+": "+", "-": "-", "x": "×", "*": "*", "/": "/"}
_SPACED_OPS = {op: f" {sign} " for op, sign in _OPS.items()}


def _mark(value: int, fate: str, face: int) -> str:
    if fate == KEPT:
        return str(value)
    if fate == DROPPED:
        return f"~~{value}~~"
    if fate == EXPLODED:
        return f"{value}!"
    if fate == REROLLED:
        return f"~~{value}~~↻"
    return f"{face}→{value}"


def _show(node, groups, spaced: bool, cap: int | None) -> str:
    kind = type(node)
    if kind is Chain:
        ops = _SPACED_OPS if spaced else _OPS
        rest = node[1]
        if len(rest) == 1:  # `3d6+2`: one f-string, no list to join
            op, operand, _col = rest[0]
            first = _show(node[0], groups, spaced, cap)
            if type(operand) is Num:
                return f"{first}{ops[op]}{operand[0]}"
            return f"{first}{ops[op]}{_show(operand, groups, spaced, cap)}"
        parts = [_show(node[0], groups, spaced, cap)]
        for op, operand, _col in rest:
            if op == "x" and len(parts) > 1:  # x multiplies everything before it: show that
                parts = ["(", *parts, ")"]
            parts.append(ops[op])
            parts.append(str(operand[0]) if type(operand) is Num else _show(operand, groups, spaced, cap))
        return "".join(parts)
    if kind is Dice:
        _sides, faces, entries = next(groups)
        if entries is None:
            if spaced and cap is None:
                return repr(faces)  # a list of ints prints as `[4, 3, 6]`, twice as fast as a join
            if cap is None or len(faces) <= cap:
                return "[" + (", " if spaced else ",").join(map(str, faces)) + "]"
            items = [str(v) for v in faces]
        else:
            items = [_mark(*e) for e in entries]
        if cap is not None and len(items) > cap:
            from gamekernel.i18n import t

            items = [*items[:cap], t("dice.more_dice", count=len(items) - cap)]
        return "[" + (", " if spaced else ",").join(items) + "]"
    if kind is Num:
        return str(node[0])
    if kind is Neg:
        return "-" + _show(node[0], groups, spaced, cap)
    if kind is Group:
        return "(" + _show(node[0], groups, spaced, cap) + ")"
    raise TypeError(f"unknown node {node!r}")
