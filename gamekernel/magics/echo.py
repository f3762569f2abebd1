"""Every gamekernel magic line of a cell shows its result, in order, once; a line ending in `;` stays quiet.

IPython shows only a cell's last expression (its displayhook); a `%roll` on an earlier line is run
and logged but its result, or its error, is never seen. `EchoMagicLines` is an AST transformer
(run on the tree of every cell it may change from `%load_ext gamekernel` to `%unload_ext`, see
`register` and `PassGate`) that rewrites the top-level statements IPython made of our line magics,
`get_ipython().run_line_magic('roll', '1d6 a')`:

- not the cell's last statement: wrapped in `show(...)`, which displays the result at once;
- the last statement: left to IPython's displayhook (shown once, and kept in `Out`/`_`);
- ending in `;`: the `;` is taken off the line and the call wrapped in `quiet(...)`, so the magic
  runs (and is logged) but nothing shows, as `x;` in IPython; for the last line this matches
  IPython's `@output_can_be_silenced` magics;
- assignments (`r = %roll 3d+2`) are not expression statements: they bind silently, as in IPython
  (a trailing `;` is taken off the line there too: `r = %roll 3d+2;` binds the roll, as `r = 3;`).

Only gamekernel's own magics are touched (IPython's and other extensions' keep IPython's
behaviour), only top-level statements are (as IPython displays nothing inside a loop), and only
with IPython's default `ast_node_interactivity` ('last_expr' or 'last_expr_or_assign'): with 'all'
IPython already shows every line.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Collection
from types import FrameType
from typing import Any

_THIS_MODULE = __name__
_INTERACTIVE = ("last_expr", "last_expr_or_assign")


def show(result: Any) -> None:
    """Display a magic's result now (a line that is not the cell's last); None shows nothing."""
    if result is not None:
        from IPython.display import display

        display(result)


def quiet(result: Any) -> None:
    """Swallow a magic's result (a line ending in `;`): it ran and is logged, nothing shows."""
    return None


def _ends_with_semicolon(line: str) -> bool:
    return line.rstrip().endswith(";")


def _without_semicolon(line: str) -> str:
    return line.rstrip()[:-1].rstrip()


def _drop_semicolon(line: ast.Constant) -> bool:
    """Take the closing `;` off a magic's line (its value is a str, see `_magic_line`); was there one?"""
    text = line.value
    if not (isinstance(text, str) and _ends_with_semicolon(text)):
        return False
    line.value = _without_semicolon(text)
    return True


class EchoMagicLines(ast.NodeTransformer):
    """Wraps the top-level expression statements calling one of `names` (see the module docstring)."""

    def __init__(self, shell, names: Collection[str]):
        super().__init__()
        self.shell = shell
        self.names = frozenset(names)

    def visit_Module(self, node: ast.Module) -> ast.Module:
        if getattr(self.shell, "ast_node_interactivity", "last_expr") not in _INTERACTIVE:
            return node
        body = node.body
        last = len(body) - 1
        for index, statement in enumerate(body):
            if isinstance(statement, (ast.Assign, ast.AnnAssign)):  # `r = %roll 3d+2;` binds, as `r = 3;`
                line = self._magic_line(statement.value)
                if line is not None:
                    _drop_semicolon(line)
                continue
            if not isinstance(statement, ast.Expr):
                continue
            call = statement.value
            line = self._magic_line(call)
            if line is None:
                continue
            if _drop_semicolon(line):
                statement.value = self._wrap("quiet", call)
            elif index != last:
                statement.value = self._wrap("show", call)
        return node

    def _magic_line(self, call: ast.expr | None) -> ast.Constant | None:
        """The line argument of `get_ipython().run_line_magic(<ours>, '<line>')`, else None."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "run_line_magic" and len(call.args) >= 2):
            return None
        owner = call.func.value
        if not (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name)
                and owner.func.id == "get_ipython"):
            return None
        name, line = call.args[0], call.args[1]
        if not (isinstance(name, ast.Constant) and name.value in self.names
                and isinstance(line, ast.Constant) and isinstance(line.value, str)):
            return None
        return line

    @staticmethod
    def _wrap(function: str, call: ast.expr) -> ast.Call:
        # __import__ rather than a name in the user's namespace, which the user may rebind; the new
        # nodes take the magic line's place (setting them here spares a walk of the whole cell)
        at = {key: getattr(call, key) for key in ("lineno", "col_offset", "end_lineno", "end_col_offset")}
        module = ast.Call(ast.Name("__import__", ast.Load(), **at), [ast.Constant(_THIS_MODULE, **at)],
                          [ast.keyword("fromlist", ast.List([ast.Constant(function, **at)], ast.Load(), **at), **at)],
                          **at)
        return ast.Call(ast.Attribute(module, function, ast.Load(), **at), [call], [], **at)


class PassGate:
    """Puts the AST pass in `shell.ast_transformers` for a cell that may need it, and takes it out
    for one that cannot (an input transformer, `shell.input_transformers_post`: it sees each cell's
    Python lines, after IPython's own transforms, just before the cell is parsed).

    While any AST transformer is registered IPython walks every node of every cell once more
    (`ast.fix_missing_locations`): half of the pass's cost in a `%roll 3d+2` cell. Most cells need
    nothing rewritten (`may_rewrite`), and those skip both walks. IPython transforms a cell's text
    (`transform_cell`, ipykernel too) before its tree, so the gate has decided for that cell when
    its tree is transformed."""

    def __init__(self, shell, transformer: EchoMagicLines):
        self.shell = shell
        self.transformer = transformer

    def __call__(self, lines: list[str]) -> list[str]:
        transformers = self.shell.ast_transformers
        armed = self.transformer in transformers
        if may_rewrite("".join(lines)) != armed:
            if armed:
                transformers[:] = [t for t in transformers if t is not self.transformer]
            else:
                transformers.append(self.transformer)
        return lines


def may_rewrite(source: str) -> bool:
    """Whether the pass could change anything in a cell of this Python source. It rewrites only a
    `run_line_magic` call (that name is in the text) that is not the cell's last top-level statement
    or whose line ends in `;`: a cell of one line without a `;` holds one statement, the last."""
    return "run_line_magic" in source and (";" in source or "\n" in source.strip())


def register(shell, names: Collection[str]) -> EchoMagicLines:
    """Add the pass to `shell` through IPython's documented hooks (one at a time: a reload replaces
    the previous one): its gate in `shell.input_transformers_post`, which puts the transformer in
    `shell.ast_transformers` for the cells it may change (`PassGate`)."""
    unregister(shell)
    transformer = EchoMagicLines(shell, names)
    shell.input_transformers_post.append(PassGate(shell, transformer))
    _rewrite_running_cell(transformer)
    return transformer


def _rewrite_running_cell(transformer: EchoMagicLines) -> None:
    """The cell that runs `%load_ext gamekernel` was transformed before the pass existed, so its later
    lines would show only the last. IPython compiles a cell's top-level statements one at a time, just
    before each runs (`InteractiveShell.run_ast_nodes`), and offers an extension no hook into the cell
    that loads it: the pass rewrites that cell's statements in place (the running `%load_ext` and those
    before it have been compiled already, so they are left as they ran). Outside a cell (a script,
    `run_line_magic` called directly) there is no such frame and nothing changes."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "run_ast_nodes" and frame.f_locals.get("self") is transformer.shell:
            nodes = frame.f_locals.get("nodelist")
            if isinstance(nodes, list) and all(isinstance(node, ast.stmt) for node in nodes):
                transformer.visit_Module(ast.Module(body=nodes, type_ignores=[]))
            return
        frame = frame.f_back



def unregister(shell) -> None:
    """Take our gate and transformer out of `shell`, leaving every other one in place."""
    shell.input_transformers_post[:] = [t for t in shell.input_transformers_post if not isinstance(t, PassGate)]
    shell.ast_transformers[:] = [t for t in shell.ast_transformers if not isinstance(t, EchoMagicLines)]
