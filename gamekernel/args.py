"""`Args`, a parsed command line: what `gamekernel.syntax` reads a line into and every magic, and
every rule set's form of a shared command (`RuleSet.check`), receives.

Why a module of its own, below the rule-set declarations: a `RuleSet` hook names the `Args` it is
given, and the parser (gamekernel/syntax.py, which re-exports it) sits above them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["Args"]


class Args:
    """A parsed line: `args.NAME` for positionals and options, `.actor`, `.sub`, `.column(NAME)`.

    The values are plain attributes (read several times by every magic); the five fields win over
    a value of the same name, as they are what every command relies on."""

    def __init__(self, values: dict[str, Any], options: dict[str, Any], sub: str | None = None,
                 actor: str | None = None, columns: dict[str, int] | None = None) -> None:
        attributes = self.__dict__
        attributes.update(options)
        attributes.update(values)
        attributes.update(values=values, options=options, sub=sub, actor=actor, columns=columns or {})

    values: dict[str, Any]
    options: dict[str, Any]
    sub: str | None
    actor: str | None
    columns: dict[str, int]

    def __getattr__(self, name: str) -> Any:
        """Reached only for a name the line did not set (a value of another form of the command, or a
        typo): refused as usual. Declared so that a magic's `args.NAME` type-checks as `Any`; that
        every NAME a magic reads is one its `@command` declares is a test (tests/core/test_magic_args.py)."""
        known = ", ".join(sorted(self.__dict__.get("values", ()))) or "none"
        raise AttributeError(f"the parsed line has no value {name!r} (values: {known})")

    def __repr__(self) -> str:
        return (f"Args(values={self.values!r}, options={self.options!r}, sub={self.sub!r}, "
                f"actor={self.actor!r}, columns={self.columns!r})")

    def __eq__(self, other: object) -> bool:
        return type(other) is Args and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    if TYPE_CHECKING:  # for the checker only: at run time a missing name still raises AttributeError
        def __getattr__(self, name: str) -> Any:
            """The declared arguments of the magic (positionals and options), by name."""
            ...

    def column(self, name: str) -> int:
        """1-based column where the value `name` (or option, or "actor") starts; 1 when absent."""
        return self.columns.get(name, 1)
