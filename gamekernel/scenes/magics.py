"""`%%scene TITLE`: the GM's prepared notes, each `[mark]` a button (gamekernel/scenes/widget.py)."""

from __future__ import annotations

from IPython.core.magic import cell_magic, magics_class

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magic_base import SessionMagics, guarded
from gamekernel.syntax import Args, Rest, command


@magics_class
class SceneMagics(SessionMagics):
    """The prepared scene's cell magic."""

    @cell_magic("scene")
    @guarded("scene")
    @command("%scene", Rest("title", "Crypt", optional=True), verbatim=True)
    def scene_cell(self, args: Args, cell: str = "") -> object:
        """Prepared notes: the cell's body as written, each `[Lockpicking-5]`, `[3d6]`, `[Per]` or
        `[Per-2 @Aiko]` a button that rolls for the character picked above the notes (a mark naming
        someone rolls for them), recorded exactly as `%check` or `%roll` with that line. Every mark is
        read when the cell runs: a bad one is one line naming it and its line, and no scene is shown.
        (The MtG line magic `%scene` starts a new scene of boosts; this cell magic is the GM's notes.)"""
        from gamekernel.scenes.notes import read_notes
        from gamekernel.scenes.run import check_mark
        from gamekernel.scenes.widget import SceneWidget

        notes = read_notes(args.title, cell or "")
        if not notes.marks and not notes.lines:
            raise UsageError(t("scene.err.no_notes"))
        for mark in notes.marks:
            check_mark(mark, self.session.state.parts)
        return SceneWidget(self.session, notes)


MAGICS = [SceneMagics]
