"""One display convention: result types map to their text/plain and text/html
renderers through the registry in gamekernel.display, which render/ fills (`@renders`)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from gamekernel.display import HTML, TEXT, Displayable, renderer, renders


@dataclass(frozen=True, repr=False)
class _Base(Displayable):
    value: int


class _Child(_Base):
    pass


class _Special(_Base):
    pass


@renders(_Base, TEXT)
def _base_text(result: _Base) -> str:
    return f"value {result.value}"


@renders(_Base)
def _base_html(result: _Base) -> str:
    return f"<b>{result.value}</b>"


@renders(_Special)
def _special_html(result: _Special) -> str:
    return f"<i>{result.value}</i>"


def test_a_type_is_drawn_by_the_nearest_renderer_along_its_mro():
    assert (str(_Base(1)), repr(_Base(1)), _Base(1)._repr_html_()) == ("value 1", "value 1", "<b>1</b>")
    assert (str(_Child(2)), _Child(2)._repr_html_()) == ("value 2", "<b>2</b>")  # inherited
    assert (str(_Special(3)), _Special(3)._repr_html_()) == ("value 3", "<i>3</i>")  # its own html wins


def test_a_class_keeps_its_own_str_and_repr():
    class Own(_Base):
        def __repr__(self) -> str:
            return f"<Own {self}>"

    assert repr(Own(4)) == "<Own value 4>"


def test_without_a_renderer_the_text_is_the_class_repr_and_the_html_escapes_it():
    class Bare(Displayable):
        def __repr__(self) -> str:
            return "<bare & plain>"

    assert str(Bare()) == "<bare & plain>"
    assert Bare()._repr_html_() == "<pre>&lt;bare &amp; plain&gt;</pre>"


def test_the_results_of_the_rules_are_drawn_by_render():
    from gamekernel.dice.render import roll_html
    from gamekernel.dice.result import RollResult
    from gamekernel.gurps.render import success_html, success_text
    from gamekernel.gurps.rules.checks import SuccessRoll, success_roll

    assert renderer(SuccessRoll, TEXT) is success_text and renderer(SuccessRoll, HTML) is success_html
    assert renderer(RollResult, HTML) is roll_html
    roll = success_roll(12, dice=(3, 4, 5))
    assert str(roll) == success_text(roll) and repr(roll) == f"<SuccessRoll {success_text(roll)}>"


def test_ipython_display_publishes_text_and_html_in_one_step(monkeypatch):
    import IPython.display

    published = []
    monkeypatch.setattr(IPython.display, "publish_display_data", published.append)
    _Special(5)._ipython_display_()
    assert published == [{"text/plain": "value 5", "text/html": "<i>5</i>"}]


class _OwnHtml(_Base):
    def _repr_html_(self) -> str:
        return "<u>own</u>"


def test_ipython_display_draws_a_known_type_in_one_lookup_and_keeps_a_class_own_html(monkeypatch):
    import IPython.display

    import gamekernel.display as display

    published = []
    monkeypatch.setattr(IPython.display, "publish_display_data", published.append)
    _Special(5)._ipython_display_()  # found once: the registry's answer is kept
    _OwnHtml(6)._ipython_display_()
    _OwnHtml(6)._repr_html_()
    real = display.renderer

    def html_not_looked_up(cls, mime):
        if mime == HTML:
            pytest.fail("the html drawing looked up again")
        return real(cls, mime)

    monkeypatch.setattr(display, "renderer", html_not_looked_up)
    _Special(7)._ipython_display_()
    _OwnHtml(8)._ipython_display_()  # a class's own `_repr_html_` wins, as IPython's formatter would use it
    assert published == [{"text/plain": "value 5", "text/html": "<i>5</i>"},
                         {"text/plain": "value 6", "text/html": "<u>own</u>"},
                         {"text/plain": "value 7", "text/html": "<i>7</i>"},
                         {"text/plain": "value 8", "text/html": "<u>own</u>"}]
