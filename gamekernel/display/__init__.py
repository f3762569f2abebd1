"""The display protocol every result shares: one registry of renderers, text/plain and text/html
published in one step.

Result classes (in each rule set's rules/, dice/, cards/, actions/) hold facts only; the render layer
draws them. Each render module (a rule set's render.py, dice/render.py, render/*.py) registers its
drawing functions here with `@renders(ResultType)` (html)
or `@renders(ResultType, TEXT)` (plain text), as d20's stringifier dispatch does, so the rules never
import the render layer. The lookup walks the type's MRO; the first miss loads every render module
once (`load_renderers` runs the loader the package root registered, `gamekernel.render.register_all`:
the core itself names no render module). Event summaries (the one-line log text of each event kind)
are kept the same way, by event kind (`summarizes`), and rendered when viewed, in the current language.

IPython tries each of its eleven formatters on every displayed object (svg, png, latex, json ...);
our results only ever have text/plain and text/html, so `_ipython_display_` publishes those two
directly, which halves the cost of showing a result. Nothing is imported from IPython until a
result is actually displayed, so the rules stay usable from a plain script.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

R = TypeVar("R")  # the result type a renderer draws

TEXT = "text/plain"
HTML = "text/html"

# A renderer takes the one result type it is registered for; the registry holds them all as
# `Callable[..., str]`, and `renders` keeps each decorated function's own type.
Renderer = Callable[..., str]
Summary = Callable[[Mapping[str, object]], str]

# each renderer takes the type it is registered under (or a subclass): `renderer` looks it up by type
_RENDERERS: dict[tuple[type, str], Callable[[Any], str]] = {}
_RESOLVED: dict[tuple[type, str], Renderer | None] = {}
SUMMARIES: dict[str, Summary] = {}
# `hide(name)`: whether a fighter's roll numbers stay out of a line (one the GM hides, in a players' view)
Hide = Callable[[str], bool] | None
HidingSummary = Callable[[Mapping[str, Any], Hide], str]
HIDING_SUMMARIES: dict[str, HidingSummary] = {}
_loaded = False


_LOADERS: list[Callable[[], None]] = []  # set from above: what imports the render modules (gamekernel/__init__.py)


def on_first_display(loader: Callable[[], None]) -> None:
    """Register `loader`, run once before the first lookup misses: the package above (its root,
    gamekernel/__init__.py) registers the render layer's `register_all` here, so the core names no
    render module and the registry is filled from above, never pulled from below."""
    _LOADERS.append(loader)


def load_renderers() -> None:
    """Run the registered loaders once; the render modules they import register their renderers
    and summaries on import."""
    global _loaded
    if not _loaded:
        _loaded = True
        for loader in list(_LOADERS):
            loader()


def renders(cls: type[R], mime: str = HTML) -> Callable[[Callable[[R], str]], Callable[[R], str]]:
    """Decorator: `fn(result) -> str` draws instances of `cls` (and its subclasses) as `mime`."""
    if mime not in (TEXT, HTML):
        raise ValueError(f"unknown mime type {mime!r}")

    def register(fn: Callable[[R], str]) -> Callable[[R], str]:
        _RENDERERS[(cls, mime)] = fn
        _RESOLVED.clear()
        return fn

    return register


def renderer(cls: type, mime: str) -> Renderer | None:
    """The renderer of `cls` for `mime`: the nearest registered one along its MRO, or None."""
    key = (cls, mime)
    found = _RESOLVED.get(key)
    if found is not None:
        return found
    load_renderers()
    found = next((_RENDERERS[(base, mime)] for base in cls.__mro__ if (base, mime) in _RENDERERS), None)
    _RESOLVED[key] = found
    return found


def summarizes(*kinds: str) -> Callable[[Summary], Summary]:
    """Decorator: `fn(event_data) -> str` is the one-line log text of the events of these kinds
    ("gw.*" names a family: every kind with that prefix that has no renderer of its own)."""

    def register(fn: Summary) -> Summary:
        for kind in kinds:
            SUMMARIES[kind] = fn
        return fn

    return register


def hides_numbers(*kinds: str) -> Callable[[HidingSummary], HidingSummary]:
    """Decorator: `fn(event_data, hide) -> str` is the log line of these kinds without the numbers of
    the rolls of a fighter `hide` names (a players' view of a line naming a fighter the GM hides)."""

    def register(fn: HidingSummary) -> HidingSummary:
        for kind in kinds:
            HIDING_SUMMARIES[kind] = fn
        return fn

    return register


def summarize_hiding(kind: str, data: Mapping[str, Any], hide: Hide) -> str:
    """An event's log line without the roll numbers of the fighters `hide` names, for a kind that
    tells them apart (`hides_numbers`); any other kind's line as `summarize` draws it."""
    summarize(kind, data)  # loads the renderers
    fn = HIDING_SUMMARIES.get(kind) or HIDING_SUMMARIES.get(kind.partition(".")[0] + ".*")
    return summarize(kind, data) if fn is None else fn(data, hide)


def summarize(kind: str, data: Mapping[str, object]) -> str:
    """An event's log line, drawn now from its facts; a kind without a renderer shows the text an
    earlier version stored with it, else its kind."""
    fn = SUMMARIES.get(kind)
    if fn is None:
        load_renderers()
        fn = SUMMARIES.get(kind) or SUMMARIES.get(kind.partition(".")[0] + ".*")
    if fn is None:
        return str(data.get("summary") or kind)
    return fn(data)


class Displayable:
    """Mixin for result objects: `str`, `repr` and the html come from the renderer registry.

    A class may still define its own `__str__` (text kept with the facts, as dice rolls do) or
    `__repr__` (`<SuccessRoll ...>`); the registry supplies whatever it does not define. Dataclasses
    that mix this in pass `repr=False` so the generated field repr does not hide the mixin's.
    """

    __slots__ = ()

    def _ipython_display_(self) -> None:
        from IPython.display import publish_display_data

        text = repr(self)  # first, as ever: a drawing may read what the text computed
        draw = _RESOLVED.get((type(self), HTML))
        if draw is None or type(self)._repr_html_ is not Displayable._repr_html_:
            html = self._repr_html_()
        else:  # `_repr_html_`'s answer without its two calls: every result shown comes here
            html = draw(self)
        publish_display_data({TEXT: text, HTML: html})

    def _repr_html_(self) -> str:
        draw = renderer(type(self), HTML)
        if draw is None:
            from html import escape

            return f"<pre>{escape(str(self))}</pre>"
        return draw(self)

    def __str__(self) -> str:
        draw = renderer(type(self), TEXT)
        if draw is not None:
            return draw(self)
        if type(self).__repr__ is not Displayable.__repr__:
            return repr(self)  # as object.__str__ does
        return object.__repr__(self)

    def __repr__(self) -> str:
        return str(self)
