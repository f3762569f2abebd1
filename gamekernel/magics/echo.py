"""Every gamekernel magic line of a cell shows its result, in order, once; a line ending in `;` stays quiet.

IPython shows only a cell's last expression (its displayhook); a `%roll` on an earlier line is run
and logged but its result, or its error, is never seen. `EchoMagicLines` is an AST transformer
(run on every cell's tree from `%load_ext gamekernel` to `%unload_ext`, see `register`) that
rewrites the top-level statements IPython made of our line magics,
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
from collections.abc import Collection
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


def register(shell, names: Collection[str]) -> EchoMagicLines:
    """Add the transformer to `shell.ast_transformers`, IPython's documented place for it (one at a
    time: a reload replaces the previous one). IPython then re-walks each cell's tree once
    (`ast.fix_missing_locations`); bench_core counts that cost as gamekernel's."""
    unregister(shell)
    transformer = EchoMagicLines(shell, names)
    shell.ast_transformers.append(transformer)
    return transformer


def registered(shell) -> EchoMagicLines | None:
    """The transformer running on `shell`'s cells, if any."""
    return next((t for t in shell.ast_transformers if isinstance(t, EchoMagicLines)), None)


def unregister(shell) -> None:
    """Take our transformer out of `shell`, leaving every other one in place."""
    shell.ast_transformers[:] = [t for t in shell.ast_transformers if not isinstance(t, EchoMagicLines)]
