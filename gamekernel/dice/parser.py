"""Dice notation -> AST: a hand-written recursive-descent parser with precise errors.

Grammar (whitespace is allowed around operators, not inside a dice term):

    roll      := expr [compare expr] [label]
    expr      := term (('+' | '-' | 'x' | '×') term)*      left to right; x is the GURPS multiplier
    term      := unary (('*' | '/' | '÷') unary)*
    unary     := ('-' | '+') unary | atom
    atom      := '(' expr ')' | dice | integer
    dice      := [integer] 'd' [integer | '%'] modifier*   'd' alone = d6 (GURPS), d% = d100
    modifier  := ('kh'|'kl'|'dh'|'dl'|'k') [integer]        default 1; k = kh
               | ('r'|'ro') [cmp] integer                   reroll until / once (cmp default '=')
               | '!' [cmp integer]                          explode (default: on the highest face)
               | ('mi'|'ma') integer                        clamp each die
    compare   := '<=' | '>=' | '<' | '>' | '=' | '==' | '≤' | '≥'

Label rule: the expression ends at the first character that cannot continue it. If whitespace
precedes that point, the rest of the text is the label (`3d+2 cutting`); otherwise it is an
error. A letter `x` after whitespace is a multiplication only when a full operand follows it
(`3d6 x2`, `3d6 x (1+1)`), otherwise it starts the label (`3d6 x-ray`). Modifiers must touch
their dice, so `3d6 kh-like` is a label too. A label that starts with dice or a number (`3 d6`,
`3d6 2`) or holds a signed number (`3d6 to hit -2`) is refused with the likely roll (did you mean
3d6-2 to hit?); a label in quotes is taken as written (`3d6 "to hit -2"`).

Input is NFKC-normalised first (`３ｄ＋２` -> `3d+2`); columns in errors count characters of the
text as typed. There is deliberately no parse cache.
"""

from __future__ import annotations

import re

from gamekernel.dice.errors import DiceError, expected_error, limit_error
from gamekernel.dice.limits import DEFAULT_LIMITS, Limits
from gamekernel.dice.nodes import Chain, Dice, Group, Mods, Neg, Node, Num, make, node_field

_DIGITS = re.compile(r"[0-9]*")
_COMPARISON = re.compile(r"<=|>=|==|[<>=]")
_MODIFIER = re.compile(r"kh|kl|dh|dl|ro|mi|ma|[kr!]")
_LABEL_WORD = re.compile(r"\S+")
_SIGNED = re.compile(r"[+\-−]\d+")
_DICE_WORD = re.compile(r"\d*d(?:\d+|%)?", re.I)


def t_(key: str, **fields: object) -> str:
    """A message in the current language, imported on the error path only (`import gamekernel.dice`
    stays light)."""
    from gamekernel.i18n import t

    return t(key, **fields)


def _digits_end(s: str, pos: int) -> int:
    match = _DIGITS.match(s, pos)
    assert match is not None  # `*` matches the empty string
    return match.end()


def _comparison_at(s: str, pos: int) -> str | None:
    """`<=`, `>=`, `==`, `<`, `>` or `=` starting at pos, else None."""
    match = _COMPARISON.match(s, pos)
    return match.group() if match else None


def _modifier_at(s: str, pos: int) -> str | None:
    match = _MODIFIER.match(s, pos)
    return match.group() if match else None


def _nfkc(text: str) -> str:
    if text.isascii():
        return text
    from gamekernel.text import half_width

    return half_width(text)
_SPACE = " \t\r\n"
_new = tuple.__new__
_OPERAND_START = frozenset("0123456789d(-+")
_EXPR_NEXT = frozenset("+-x \t\r\n")
_TERM_NEXT = frozenset("*/ \t\r\n")
_ASCII_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}
# Characters NFKC leaves alone but people type for arithmetic.
_EXTRA = {"−": "-", "÷": "/", "×": "x", "≤": "<=", "≥": ">=", "＝": "=", "\u3000": " "}
_SIGNS = {"x": "x", "*": "*", "/": "/"}


class Expression(Node):
    """A parsed roll: the AST, an optional comparison `(op, Node)`, the label and the text.

    `text` is the expression part, normalised (NFKC, lower case, no spaces except around a
    comparison) so that parsing it again gives the same AST; `source` is the input as typed.
    """

    __slots__ = ()
    fields = ("ast", "comparison", "label", "text", "source", "dice_count")
    ast = node_field(0, "the root node")
    comparison = node_field(1, "(op, right-hand Node) or None")
    label = node_field(2, "trailing free text, or ''")
    text = node_field(3, "normalised expression text")
    source = node_field(4, "the input as typed")
    dice_count = node_field(5, "dice rolled before explosions and rerolls")

    def __repr__(self) -> str:
        label = f", label={self.label!r}" if self.label else ""
        return f"Expression({self.text!r}{label})"

    def shape(self) -> tuple:
        comparison = self.comparison
        if comparison is not None:
            comparison = (comparison[0], comparison[1].shape())
        return (self.ast.shape(), comparison, self.label)


def normalise(text: str) -> tuple[str, list[int] | None]:
    """NFKC plus arithmetic look-alikes; returns (text, column map or None when 1:1)."""
    if text.isascii():
        return text, None
    parts: list[str] = []
    columns: list[int] = []
    for index, char in enumerate(text):
        if char in _EXTRA:
            piece = _EXTRA[char]
        else:
            piece = _nfkc(char)
            piece = "".join(_EXTRA.get(c, c) for c in piece)
        parts.append(piece)
        columns.extend([index + 1] * len(piece))
    return "".join(parts), columns


def parse(text: str, limits: Limits = DEFAULT_LIMITS) -> Expression:
    """Parse dice notation; raise DiceError naming the column and what was expected."""
    if not isinstance(text, str):
        raise TypeError(f"dice notation must be a str, not {type(text).__name__}")
    if len(text) > limits.max_length:
        raise limit_error(
            text, limits.max_length + 1, "dice.err.too_long", "dice.exp.shorter",
            length=len(text), limit=limits.max_length,
        )
    if text.isascii():
        lower = text.lower()
        return parse_simple(lower, text, limits) or Parser(lower, text, text, None, limits).parse_roll()
    return _parse_unicode(text, limits)


def parse_simple(lower: str, source: str, limits: Limits) -> Expression | None:
    """The commonest shape, `NdS` or `NdS+K` (`3d+2`, `1d20+5`), read with a few str methods.

    Not a cache: it builds the same AST the general parser builds (a property test checks
    that), and anything else - including every error - goes to the general parser.
    """
    head, d, tail = lower.partition("d")
    if not d or (head and not head.isdigit()):
        return None
    # One sign at most: a second one (or anything else) fails an isdigit below.
    at = tail.find("+")
    if at < 0:
        at = tail.find("-")
    if at < 0:
        sides_text = tail
    else:
        sides_text, number_text = tail[:at], tail[at + 1 :]
        if not number_text.isdigit():
            return None
    if sides_text and not sides_text.isdigit():
        return None
    count = int(head) if head else 1
    sides = int(sides_text) if sides_text else 6
    if count > limits.max_dice or not 1 <= sides <= limits.max_sides:
        return None
    if at < 0:
        return _new(Expression, (_new(Dice, (count, sides, None, 1)), None, "", lower, source, count))
    index = len(head) + 2 + at  # column of the sign
    number = _new(Num, (int(number_text), index + 1))
    ast = _new(Chain, (_new(Dice, (count, sides, None, 1)), ((tail[at], number, index),)))
    return _new(Expression, (ast, None, "", lower, source, count))


def _parse_unicode(text: str, limits: Limits) -> Expression:
    norm, columns = normalise(text)
    assert columns is not None  # only non-ASCII text comes here, and it always gets a column map
    if len(norm) > limits.max_length:
        raise limit_error(
            text, columns[limits.max_length], "dice.err.too_long", "dice.exp.shorter",
            length=len(norm), limit=limits.max_length,
        )
    return Parser(norm.translate(_ASCII_LOWER), norm, text, columns, limits).parse_roll()


class Parser:
    # No __slots__: class-level defaults mean a new parser sets only five attributes.
    pos = depth = dice = 0
    spaced = False
    columns: list[int] | None = None

    def __init__(self, lower: str, norm: str, source: str, columns, limits: Limits):
        self.s = lower
        self.n = len(lower)
        self.norm = norm
        self.source = source
        self.limits = limits
        if columns is not None:
            self.columns = columns

    # ----- helpers
    def col(self, pos: int) -> int:
        """1-based column in the text as typed."""
        columns = self.columns
        if columns is None:
            return pos + 1
        if pos < len(columns):
            return columns[pos]
        return len(self.source) + 1

    def skip(self) -> int:
        s, n, pos = self.s, self.n, self.pos
        start = pos
        while pos < n and s[pos] in _SPACE:
            pos += 1
        if pos != start:
            self.spaced = True
            self.pos = pos
        return pos

    def fail(self, pos: int, key: str, *, after: str | None = None, **fields) -> DiceError:
        found = None if pos >= self.n or after is not None else self.norm[pos]
        return expected_error(self.source, self.col(pos), key, after=after, found=found, **fields)

    def limit(self, pos: int, key: str, expected_key: str, **fields) -> DiceError:
        return limit_error(self.source, self.col(pos), key, expected_key, **fields)

    def need_operand(self, after: str) -> int:
        pos = self.skip()
        if pos >= self.n or self.s[pos] not in _OPERAND_START:
            raise self.fail(pos, "dice.exp.number", after=after)
        return pos

    # ----- grammar
    def parse_roll(self) -> Expression:
        s, n = self.s, self.n
        start = self.skip() if n and s[0] in _SPACE else 0
        if start >= n or s[start] not in _OPERAND_START:
            raise self.fail(start, "dice.exp.expression")
        ast = self.expr()
        end = self.pos
        text = s[start:end]
        if self.spaced:
            text = "".join(text.split())
        if end == n:
            return _new(Expression, (ast, None, "", text, self.source, self.dice))
        return self.finish(ast, start, end, text)

    def finish(self, ast: Node, start: int, end: int, text: str) -> Expression:
        """What may follow the expression: a comparison, then a label after whitespace."""
        s, n = self.s, self.n
        comparison = None
        base = text
        pos = self.skip()
        if pos < n and (op := _comparison_at(s, pos)) is not None:
            self.pos = pos + len(op)
            op = "=" if op == "==" else op
            rhs_start = self.need_operand(op)
            comparison = (op, self.expr())
            end = self.pos
            # spaced, so that `2d6! >= 8` never reads back as an explode condition
            text = f"{text} {op} {''.join(s[rhs_start:end].split())}"
            pos = self.skip()
        label = ""
        if pos < n:
            if pos == end:  # no whitespace before: not a label
                raise self.fail(pos, "dice.exp.operator")
            from gamekernel.text import visible

            raw = self.norm[pos:].rstrip()
            if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
                raw = raw[1:-1]  # a quoted label is taken as written: `3d "to hit -2"`
            else:
                self.no_number_in_label(pos, base, text[len(base):])
            label = visible(_nfkc(raw)).strip()  # no bidi or zero-width trick reaches a story
        return _new(Expression, (ast, comparison, label, text, self.source, self.dice))

    def no_number_in_label(self, pos: int, base: str, comparison: str) -> None:
        """A label that starts with dice or a number (`3 d6`, `3d6 2`), or holds a signed number
        (`3d6 to hit -2`), most likely meant it as part of the roll: refused with the likely meaning,
        never rolled as something else (a quoted label keeps them)."""
        words = list(_LABEL_WORD.finditer(self.norm, pos))
        for index, word in enumerate(words):
            token = word.group()
            if _SIGNED.fullmatch(token):
                joined = f"{base}{'-' if token[0] in '-−' else '+'}{token[1:]}"
            elif index == 0 and (_DICE_WORD.fullmatch(token) or token.isdigit()):
                glued = (base.isdigit() and token[0] in "dD") or (base[-1:] in "dD" and token.isdigit())
                joined = f"{base}{token}" if glued else f"{base}+{token}"  # `3 d6`, `3d 6`: 3d6
            else:
                continue
            rest = " ".join(other.group() for other in words if other is not word)
            label = self.norm[pos:].strip()
            suggestion = f"{joined}{comparison} {rest}".strip()
            raise DiceError(
                t_("dice.err.label_number", word=token, column=self.col(word.start()), suggestion=suggestion,
                   quoted=f'{self.norm[:pos].strip()} "{label}"'),
                column=self.col(word.start()), expected=suggestion, text=self.source, kind="syntax")

    def expr(self) -> Node:
        """operand chains joined by + - x; each operand may carry a * / chain (see term_rest)."""
        s, n = self.s, self.n
        first = self.operand()
        pos = self.pos
        if pos < n and s[pos] in _TERM_NEXT:
            first = self.term_rest(first)
            pos = self.pos
        if pos >= n or s[pos] not in _EXPR_NEXT:
            return first
        rest = []
        while True:
            before = pos
            char = s[pos]
            if char in _SPACE:
                pos = self.skip()
                if pos >= n:
                    break
                char = s[pos]
            if char == "+" or char == "-":
                after = pos + 1
                self.pos = after
                if after >= n or s[after] not in _OPERAND_START:
                    self.need_operand(self.norm[pos])
                rest.append((char, self.term(), pos + 1 if self.columns is None else self.col(pos)))
            elif char == "x":
                self.pos = pos + 1
                if pos == before:
                    self.need_operand(self.norm[pos])
                    rest.append(("x", self.term(), self.col(pos)))
                else:
                    # after whitespace an `x` is only an operator if an operand follows
                    saved = (self.depth, self.dice)
                    try:
                        self.need_operand(self.norm[pos])
                        rest.append(("x", self.term(), self.col(pos)))
                    except DiceError as error:
                        if error.kind != "syntax":
                            raise
                        self.depth, self.dice = saved
                        self.pos = before
                        break
            else:
                self.pos = before
                break
            pos = self.pos
            if pos >= n:
                break
        if not rest:
            return first
        return _new(Chain, (first, tuple(rest)))

    def term(self) -> Node:
        first = self.operand()
        pos = self.pos
        if pos < self.n and self.s[pos] in _TERM_NEXT:
            return self.term_rest(first)
        return first

    def term_rest(self, first: Node) -> Node:
        """`first (('*' | '/') operand)*`; leaves pos after `first` when no * or / follows."""
        s, n, pos = self.s, self.n, self.pos
        rest = []
        while True:
            before = pos
            if s[pos] in _SPACE:
                pos = self.skip()
            if pos < n and s[pos] in "*/":
                self.pos = pos + 1
                self.need_operand(self.norm[pos])
                rest.append((s[pos], self.operand(), self.col(pos)))
            else:
                self.pos = before
                break
            pos = self.pos
            if pos >= n:
                break
        if not rest:
            return first
        return _new(Chain, (first, tuple(rest)))

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > self.limits.max_depth:
            raise self.limit(pos, "dice.err.too_deep", "dice.exp.shallower", limit=self.limits.max_depth)

    def operand(self) -> Node:
        """unary | '(' expr ')' | dice | integer (the caller made sure one can start here)."""
        s, pos = self.s, self.pos
        char = s[pos]
        if char == "-" or char == "+":
            self.enter(pos)
            self.pos = pos + 1
            self.need_operand(self.norm[pos])
            inner = self.operand()
            self.depth -= 1
            return _new(Neg, (inner, self.col(pos))) if char == "-" else inner
        if char == "(":
            self.enter(pos)
            self.pos = pos + 1
            self.need_operand("(")
            inner = self.expr()
            close = self.skip()
            if close >= self.n or s[close] != ")":
                raise self.fail(close, "dice.exp.close")
            self.pos = close + 1
            self.depth -= 1
            return _new(Group, (inner,))
        n = self.n
        end = _digits_end(s, pos)
        count_text = s[pos:end]
        column = pos + 1 if self.columns is None else self.col(pos)
        if end >= n or s[end] != "d":  # a plain number
            self.pos = end
            return _new(Num, (int(count_text), column))
        end += 1
        if end < n and s[end] == "%":
            sides_text: str | None = "%"
            end += 1
        else:
            start = end
            end = _digits_end(s, start)
            sides_text = s[start:end] or None
        self.pos = end
        count = int(count_text) if count_text else 1
        limits = self.limits
        if sides_text is None:
            sides = 6
        elif sides_text == "%":
            sides = 100
        else:
            sides = int(sides_text)
            if sides < 1:
                raise self.limit(end - len(sides_text), "dice.err.die_zero", "dice.exp.die_size")
            if sides > limits.max_sides:
                raise self.limit(
                    end - len(sides_text), "dice.err.die_too_big", "dice.exp.die_size_max",
                    sides=sides, limit=limits.max_sides,
                )
        self.dice += count
        if self.dice > limits.max_dice:
            raise self.limit(
                pos, "dice.err.too_many_dice", "dice.exp.fewer_dice", count=self.dice, limit=limits.max_dice
            )
        mods = None
        if end < self.n and s[end] in "kdrm!":
            mods = self.modifiers(sides)
        return _new(Dice, (count, sides, mods, column))

    def number_after(self, name: str) -> int:
        start = self.pos
        end = _digits_end(self.s, start)
        if end == start:
            raise self.fail(start, "dice.exp.number", after=name)
        self.pos = end
        return int(self.s[start:end])

    def condition(self, name: str, sides: int, default_op: str | None) -> tuple[int, int] | None:
        """An inclusive face range from `[cmp] integer`; None when absent and allowed to be."""
        s, pos = self.s, self.pos
        op = _comparison_at(s, pos)
        if op is not None:
            self.pos = pos + len(op)
            value = self.number_after(name + op)
            op = "=" if op == "==" else op
        elif pos < self.n and s[pos] in "0123456789":
            op = "="
            value = self.number_after(name)
        elif default_op is None:
            raise self.fail(pos, "dice.exp.number", after=name)
        else:
            return None
        if op == "<":
            return (1, value - 1)
        if op == "<=":
            return (1, value)
        if op == ">":
            return (value + 1, sides)
        if op == ">=":
            return (value, sides)
        return (value, value)

    def modifiers(self, sides: int) -> Mods | None:
        s, n = self.s, self.n
        found: dict[str, object] = {}
        reroll: tuple[tuple[int, int], bool] | None = None
        while self.pos < n and s[self.pos] in "kdrm!":
            start = self.pos
            name = _modifier_at(s, start)
            if name is None:
                break
            self.pos = start + len(name)
            kind = "keep" if name in ("kh", "kl", "dh", "dl", "k") else name
            kind = "reroll" if kind in ("r", "ro") else kind
            kind = "clamp_" + kind if kind in ("mi", "ma") else kind
            if kind in found:
                raise self.limit(start, "dice.err.duplicate", "dice.exp.one_modifier", name=name)
            if kind == "keep":
                digits_end = _digits_end(s, self.pos)
                count = 1
                if digits_end > self.pos:
                    count = int(s[self.pos : digits_end])
                    self.pos = digits_end
                found[kind] = ("kh" if name == "k" else name, count)
            elif kind == "reroll":
                faces = self.condition(name, sides, None)
                assert faces is not None  # without a default, a missing range raised
                matching = _overlap(faces, sides)
                if matching == 0:
                    raise self.limit(start, "dice.err.never", "dice.exp.condition", name=name, sides=sides)
                if matching == sides and name == "r":
                    raise self.limit(start, "dice.err.forever", "dice.exp.condition", name=name, sides=sides)
                found[kind] = reroll = (faces, name == "ro")
            elif kind == "!":
                faces = self.condition("!", sides, "=") or (sides, sides)
                matching = _overlap(faces, sides)
                if matching == 0:
                    raise self.limit(
                        start, "dice.err.never_explode", "dice.exp.condition", name="!", sides=sides
                    )
                if matching == sides:
                    raise self.limit(start, "dice.err.forever", "dice.exp.condition", name="!", sides=sides)
                found[kind] = faces
            else:
                found[kind] = self.number_after(name)
        if not found:
            return None
        return make(
            Mods,
            found.get("keep"),
            reroll[0] if reroll else None,
            bool(reroll and reroll[1]),
            found.get("!"),
            found.get("clamp_mi"),
            found.get("clamp_ma"),
        )


def _overlap(faces: tuple[int, int], sides: int) -> int:
    low, high = max(faces[0], 1), min(faces[1], sides)
    return max(0, high - low + 1)
