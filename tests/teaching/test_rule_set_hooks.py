"""Teaching and the players' story read each rule set's own part from its declaration or from the
registries it fills (gamekernel/lessons.py): the quiz sets, the explorers, the words of the steps,
the story lines. These tests hold each lookup to its owner and its refusals to one line."""

from __future__ import annotations

import random

import pytest

from gamekernel import Session
from gamekernel.errors import UsageError
from gamekernel.lessons import Step
from gamekernel.rulesets import explorers, rule_set, story_of
from gamekernel.teaching import quiz as qz
from gamekernel.teaching.render_explain import step_text


def test_each_built_in_explorer_is_its_rule_sets_and_opens_its_own_mode():
    """GURPS-SR-02 (check), SR-10 (contest), MTG-CHK-13 (library), GW-ALPHA-10 (alpha): `%explore NAME`
    finds the explorer its rule set declared, and what it opens is of that name."""
    owners = {name: owner.name for owner in map(rule_set, ("gurps", "gammaworld", "mtg"))
              for name in (e.name for e in owner.explorers)}
    assert owners == {"check": "gurps", "contest": "gurps", "alpha": "gammaworld", "library": "mtg"}
    assert list(explorers()) == ["check", "contest", "alpha", "library"]  # the rule sets' order


def test_explore_check_opens_at_the_characters_skill(ip):  # GURPS-SR-02
    ip.run_cell("%char new Aiko st=10 dx=12 iq=12 ht=11\n%char skill Lockpicking 4")
    widget = ip.run_line_magic("explore", "check Lockpicking @Aiko")
    assert widget.mode == "check" and widget.explorer.base == 13  # Lockpicking, IQ/Hard, 4 points: IQ+1
    assert "error" in repr(ip.run_line_magic("explore", "check"))  # its words are needed


def test_a_rule_set_named_for_its_explorer_says_which_one(ip):
    shown = repr(ip.run_line_magic("explore", "mtg"))
    assert shown == "error: %explore: the rule set 'mtg' explores as %explore library", shown
    assert "use check" in repr(ip.run_line_magic("explore", "dice"))  # not a rule set: the usage


def test_a_quiz_set_is_found_by_its_rule_sets_name():  # GW-ALPHA-13: Gamma World's quiz is `alpha`
    s = Session(3)
    quiz = s.teaching.quiz("gammaworld", 2)
    state = s.teaching.quiz_state(quiz)
    assert state["set"] == "alpha" and [q["type"] for q in state["questions"]] == ["alpha.overcharge",
                                                                                   "alpha.natural_one"]
    assert qz.quiz_set_named("gurps") == "gurps"
    with pytest.raises(UsageError, match=r"unknown rule set 'fate'; choose gurps, alpha, mtg$"):
        qz.quiz_set_named("fate")  # not installed here


def test_a_quiz_draws_the_same_questions_from_the_rule_sets_registry():
    """GURPS-SR-02/SR-07/SR-08: the kinds of question alternate as registered, and the draw depends on
    the RNG alone (a saved quiz replays)."""
    first = qz.make_quiz("gurps", 4, random.Random(8))
    assert [q["type"] for q in first] == ["gurps.chance", "gurps.verdict"] * 2
    assert first == qz.make_quiz("gurps", 4, random.Random(8))
    assert next(iter(first[0])) == "type"  # stored as before: the type first


def test_a_saved_question_no_rule_set_teaches_is_refused_in_one_line():
    question = {"type": "gone.kind", "choices": ["a"], "answer": 0}
    with pytest.raises(UsageError, match=r"no installed rule set asks questions of the kind 'gone\.kind'"):
        qz.explanation(question)


def test_step_words_are_the_rule_sets_own():
    """GURPS-SR-04: a modifier's label and a skill in the current language; MTG-CHK-07: a colour's name
    only in MtG's steps; any other field drawn plainly."""
    from gamekernel.i18n import set_language

    Session(1)  # the rule sets' lessons registered
    gurps = Step("GURPS-SR-04", "explain.gurps.target_mods", {"who": "", "base": 12, "mods": ((-5, "dark"),),
                                                                "target": 7})
    mtg = Step("MTG-CHK-01", "explain.mtg.announce", {"kind": "green", "difficulty": 2})
    set_language("ja")
    try:
        assert "暗" in step_text(gurps) and "緑" in step_text(mtg), (step_text(gurps), step_text(mtg))
    finally:
        set_language("en")
    assert step_text(gurps) == "12 −5 (dark) = effective 7" and "green" in step_text(mtg)


def test_story_lines_come_from_the_rule_set_owning_the_kind():
    from gamekernel.gammaworld.story import GammaWorldStory
    from gamekernel.gurps.story import GurpsStory
    from gamekernel.mtg.story import MtgStory

    assert isinstance(story_of("combat.attack"), GurpsStory) and isinstance(story_of("gurps.check"), GurpsStory)
    assert isinstance(story_of("gw.draw"), GammaWorldStory) and isinstance(story_of("mtg.check"), MtgStory)
    assert story_of("roll") is None and story_of("note") is None  # the core's, told by the story itself
