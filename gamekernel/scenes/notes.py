"""A scene's GM notes read into text and marks: `[Lockpicking-5]`, `[3d6]`, `[Per]`, `[Per-2 @Aiko]`
become buttons, each the very line a magic takes (`%check Per-2 @Aiko`, `%roll 3d6`).

Why a module of its own: the notes are read once, when the `%%scene` cell runs, and every mark is
checked then by the parser its magic uses (the command's declaration, then dice notation or the check
line of the rule set it goes to), so a bad mark is one line naming it and its line before any button
exists; a click later runs the mark through the same declaration as the typed magic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from gamekernel.errors import GameKernelError, UsageError
from gamekernel.i18n import t
from gamekernel.text import visible

MOST_LINES = 400  # of notes in one scene
MOST_MARKS = 100  # buttons in one scene
MOST_MARK = 200  # characters inside one mark
MOST_TITLE = 80

Kind = Literal["roll", "check"]
_BRACKETS = str.maketrans({"［": "[", "］": "]"})  # full-width brackets, as a Japanese keyboard types them
_MARK = re.compile(r"\[([^\[\]]*)\]")


@dataclass(frozen=True)
class Mark:
    """One button: its number in the scene, its line of the notes (1-based), the line its magic takes
    (the text between the brackets) and which magic: `%roll` (dice notation first) or `%check`."""

    index: int
    line: int
    text: str
    kind: Kind


@dataclass(frozen=True)
class Notes:
    """The scene: its title and its lines, each a tuple of plain text pieces and marks, in order."""

    title: str
    lines: tuple[tuple[str | Mark, ...], ...]

    @property
    def marks(self) -> tuple[Mark, ...]:
        return tuple(piece for line in self.lines for piece in line if isinstance(piece, Mark))


def mark_kind(text: str) -> Kind:
    """`%roll` when the mark's first word is dice notation that throws dice (`3d6`, `2d+1 cut`,
    `1d20+5 @Rin`), else `%check` (`Per`, `Lockpicking-5`, `12`, `green 2 @Mira`)."""
    from gamekernel.dice.parser import parse  # lazy: the notes of a plain scene need no dice parser

    first = text.split()[0] if text.split() else ""
    try:
        return "roll" if parse(first).dice_count > 0 else "check"
    except GameKernelError:
        return "check"


def read_notes(title: str, body: str) -> Notes:
    """The notes as lines of text and marks; unbalanced or empty brackets, or too many of anything, are
    refused in one line naming the mark and its line."""
    title = " ".join(visible(title).split())[:MOST_TITLE]
    rows = visible(body.translate(_BRACKETS)).replace("\r\n", "\n").split("\n")
    while rows and not rows[-1].strip():
        rows.pop()
    while rows and not rows[0].strip():
        rows.pop(0)
    if len(rows) > MOST_LINES:
        raise UsageError(t("scene.err.lines", count=len(rows), limit=MOST_LINES))
    lines: list[tuple[str | Mark, ...]] = []
    count = 0
    for number, row in enumerate(rows, start=1):
        pieces: list[str | Mark] = []
        at = 0
        for match in _MARK.finditer(row):
            _check_plain(row[at:match.start()], number)
            text = " ".join(match.group(1).split())
            if not text:
                raise UsageError(t("scene.err.empty", line=number))
            if len(text) > MOST_MARK:
                raise UsageError(t("scene.err.long", line=number, limit=MOST_MARK))
            count += 1
            if count > MOST_MARKS:
                raise UsageError(t("scene.err.marks", limit=MOST_MARKS))
            if row[at:match.start()]:
                pieces.append(row[at:match.start()])
            pieces.append(Mark(count, number, text, mark_kind(text)))
            at = match.end()
        _check_plain(row[at:], number)
        if row[at:]:
            pieces.append(row[at:])
        lines.append(tuple(pieces))
    return Notes(title, tuple(lines))


def _check_plain(text: str, line: int) -> None:
    """Text between marks holds no bracket of its own: a `[` never closed or a `]` never opened."""
    for bracket in "[]":
        if bracket in text:
            raise UsageError(t("scene.err.bracket", line=line, text=_near(text, text.index(bracket))))


def _near(text: str, at: int) -> str:
    """The words around position `at`, for an error: at most 30 characters, on one line."""
    start = max(0, at - 12)
    return text[start:start + 30].strip()
