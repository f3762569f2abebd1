"""Widget messages from the front end are data, not trusted calls: a message with a missing field,
a field of the wrong type, `inf`, `-inf` or NaN, sent to every widget class's `_on_custom_message`,
ends in the widget's one-line error (or an action done), never in a traceback."""

from __future__ import annotations

import inspect
import json
import random
import re

import pytest

from gamekernel import Session
from gamekernel.gammaworld.explore import AlphaExplorer
from gamekernel.gammaworld.widgets.hand import HandWidget
from gamekernel.gurps.explore import CheckExplorer, ContestExplorer
from gamekernel.gurps.widgets.sheet import SheetWidget
from gamekernel.gurps.widgets.tracker import Tracker
from gamekernel.mtg.widgets.library import LibraryWidget
from gamekernel.table.players_widget import PlayersPanel
from gamekernel.table.widget import TableDashboard
from gamekernel.teaching.widgets import explore as xw
from gamekernel.teaching.widgets.quiz import QuizWidget

DECK = "Deck\n4 Elvish Mystic\n4 Runeclaw Bear\n12 Forest\n4 Steam Vents\n4 Ornithopter\n"
ODD = [float("inf"), float("-inf"), float("nan"), None, "", "x", "Aiko", "Goblin1", "Rin", 0, -1, 3, 10**30,
       1.5, True, [], {}, [1], {"a": 1}, "2d+1 cut", "7 cut", "dx", "st", "DX", "Broadsword", "\ud800"]


def session_with_everything(tmp_path) -> Session:
    session = Session(seed=4)
    session.gurps.char_new("Aiko", st=11, dx=13)
    session.combat.npc("Goblin", "ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp")
    session.combat.start("Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Goblin*2")
    session.gw.deck_new("Rin")
    for card in ("Gravity Knot", "Thought Needle", "Heavy Knuckle", "Ember Thought"):
        session.gw.deck_add("Rin", card, 2)
    session.gw.character("Rin", level=4)
    session.gw.draw("Rin")
    deck = tmp_path / "mira.txt"
    deck.write_text(DECK, encoding="utf-8")
    session.mtg.library_load("Mira", deck)
    return session


def widgets(session):
    return [
        SheetWidget(session, "Aiko"), Tracker(session), HandWidget(session, "Rin"), LibraryWidget(session, "Mira"),
        TableDashboard(session), PlayersPanel(session), QuizWidget(session, session.teaching.quiz("gurps", 2)),
        xw.ExploreWidget(session, CheckExplorer("Lockpicking", 13)),
        xw.ExploreWidget(session, ContestExplorer(12, 10)),
        xw.ExploreWidget(session, AlphaExplorer("Rin", 2)),
    ]


def words_of(widget) -> tuple[list[str], list[str]]:
    """The action names and payload fields its module reads (so that the fuzz reaches every branch)."""
    source = inspect.getsource(inspect.getmodule(type(widget)))
    actions = sorted(set(re.findall(r'action (?:==|in) \(?"(\w+)"', source))
                     | set(re.findall(r'"(\w+)":\s*(?:lambda|self\.)', source)))
    fields = sorted(set(re.findall(r'payload(?:\.get\(|\[)"(\w+)"', source))
                    | set(re.findall(r'content(?:\.get\(|\[)"(\w+)"', source)))
    return actions or ["set"], fields or ["value"]


def message(rng: random.Random, actions: list[str], fields: list[str]) -> dict:
    content: dict = {"action": rng.choice([*actions, 0, None, "nope"])}
    for name in rng.sample(fields, rng.randint(0, len(fields))):
        content[name] = rng.choice(ODD)
    return content


@pytest.mark.parametrize("seed", range(4))
def test_random_messages_to_every_widget_end_only_in_one_line_errors(tmp_path, seed):
    rng = random.Random(seed)
    session = session_with_everything(tmp_path)
    for widget in widgets(session):
        actions, fields = words_of(widget)
        for _ in range(60):
            content = message(rng, actions, fields)
            try:
                widget._on_custom_message(widget, content, [])
            except Exception as error:  # the point of the test
                pytest.fail(f"{type(widget).__name__} {content!r}: {type(error).__name__}: {error}")
            assert "\n" not in widget.error and "Traceback" not in widget.error
            widget.error.encode("utf-8")
            json.dumps(widget.error)
        widget.close()


@pytest.mark.parametrize("content", [{"action": "check", "difficulty": float("inf")},
                                     {"action": "check", "difficulty": float("nan")}])
def test_an_infinite_difficulty_is_refused_in_a_line(tmp_path, content):
    session = session_with_everything(tmp_path)
    widget = LibraryWidget(session, "Mira")
    events = len(session.log)
    widget._on_custom_message(widget, content, [])
    assert widget.error and "\n" not in widget.error and len(session.log) == events


def test_a_missing_field_names_the_field(tmp_path):
    session = session_with_everything(tmp_path)
    widget = Tracker(session)
    events = len(session.log)
    widget._on_custom_message(widget, {"action": "attack", "attacker": "Aiko", "weapon": "Broadsword"}, [])
    assert "target" in widget.error and "\n" not in widget.error and len(session.log) == events


def test_a_click_on_a_widget_whose_subject_was_undone_is_refused_with_nothing_done(tmp_path):
    """Found by tools/fuzz_magics.py: the library widget's "new scene" after `%undo` of the library
    load acted (a scene event) and then raised NotFoundError drawing its result."""
    session = Session(seed=4)
    deck = tmp_path / "mira.txt"
    deck.write_text(DECK, encoding="utf-8")
    session.mtg.library_load("Mira", deck)
    widget = LibraryWidget(session, "Mira")
    session.undo()
    events, scene = len(session.log), session.state["mtg"].scene
    widget._on_custom_message(widget, {"action": "scene"}, [])
    assert "Mira" in widget.error and "\n" not in widget.error
    assert len(session.log) == events and session.state["mtg"].scene == scene
    widget.close()
