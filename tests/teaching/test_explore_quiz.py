"""Odds explorers and quizzes (teaching features): the figures are the exact distributions, the controls move
them, the snapshot and repr are deterministic; quiz answers are checked by the rules and logged."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations

import pytest

from gamekernel import Session
from gamekernel.errors import GameKernelError
from gamekernel.gammaworld import explore as gw_explore
from gamekernel.gurps import explore as gurps_explore
from gamekernel.gurps.rules.odds import check_odds
from gamekernel.mtg import explore as mtg_explore
from gamekernel.mtg.rules.facts import bundled_facts
from gamekernel.mtg.rules.odds import check_odds as mtg_check_odds
from gamekernel.teaching import quiz as qz
from gamekernel.teaching.widgets import explore as xw


def test_check_curve_is_the_3d6_distribution_with_criticals():  # GURPS-SR-02, SR-07, SR-08
    points = {p.skill: p for p in gurps_explore.check_curve()}
    assert points[10].success == Fraction(108, 216)
    assert points[16].critical_success == Fraction(1 + 3 + 6 + 10, 216)  # 3, 4, 5, 6
    assert points[6].critical_failure == Fraction(6 + 3 + 1, 216)  # 16, 17, 18


def test_expected_regular_rounds_is_one_over_the_chance_a_round_decides():  # GURPS-SR-12
    pa, pb = check_odds(14).success, check_odds(12).success
    assert gurps_explore.expected_regular_rounds(14, 12) == 1 / (pa * (1 - pb) + pb * (1 - pa))


def test_contest_grid_stays_within_3_to_18_and_centres_on_the_skills():
    grid = gurps_explore.contest_grid(18, 3)
    assert [row[0].a for row in grid] == list(range(12, 19))
    assert [c.b for c in grid[0]] == list(range(3, 10))


def _brute_force_boost(library, kind, difficulty):
    """Every ordered pair and every 6-card boost from the rest, enumerated (a small library)."""
    from gamekernel.mtg.rules.foresight import counts_colourless_for_boost
    from gamekernel.mtg.rules.kinds import colour_modifier

    total = Fraction(0)
    pairs = list(permutations(range(len(library)), 2))
    for i, j in pairs:
        first, second = library[i], library[j]
        rest = [c for k, c in enumerate(library) if k not in (i, j)]
        colours = second.achievement_colours or (None,)
        for colour in colours:
            achievement = second.mana_value + colour_modifier(kind, colour)
            if achievement >= first.mana_value + difficulty:
                total += Fraction(1, len(pairs) * len(colours))
                continue
            from itertools import combinations

            draws = list(combinations(rest, min(6, len(rest))))
            ok = sum(1 for d in draws if achievement + sum(counts_colourless_for_boost(c) for c in d)
                     >= first.mana_value + difficulty)
            total += Fraction(ok, len(draws)) / (len(pairs) * len(colours))
    return total


def test_boosted_library_odds_match_brute_force():  # MTG-CHK-13
    facts = bundled_facts()
    library = [facts.lookup(n) for n in ("Forest", "Sol Ring", "Runeclaw Bear", "Steam Vents", "Serra Angel",
                                         "Island", "Ornithopter", "Lightning Bolt")]
    for kind, difficulty in (("green", 3), ("red", 5), ("white", 1)):
        boosted = mtg_explore.boosted_odds(library, kind, difficulty)
        assert boosted == _brute_force_boost(library, kind, difficulty)
        assert boosted >= mtg_check_odds(library, kind, difficulty)


def test_alpha_figures():  # GW-ALPHA-10, GW-ALPHA-13/14
    figures = gw_explore.alpha_figures(3, 2)
    assert figures.flux == ((1, Fraction(1, 20)), (2, 1 - Fraction(19, 20) ** 2), (3, 1 - Fraction(19, 20) ** 3))
    assert dict(figures.overcharge)[2] == Fraction(13, 20)


def test_check_explorer_controls_move_the_marked_point():
    widget = xw.ExploreWidget(Session(1), gurps_explore.CheckExplorer("Lockpicking", 13))
    widget.set_control("modifier", -3)
    widget.set_control("explore.situation.dark", True)
    marked = [row for row in widget.tables[0]["rows"] if row["mark"]]
    assert [row["head"] for row in marked] == ["5"]
    assert marked[0]["cells"][0]["title"] == "5/108"  # 3d6 <= 5
    assert "effective 5" in widget.summary and repr(widget) == repr(widget)
    assert 'title="5/108"' in widget.snapshot_html()
    with pytest.raises(GameKernelError):
        widget.explorer.set("modifier", 11)


def test_library_explorer_edits_the_composition():
    facts = bundled_facts()
    cards = [facts.lookup("Forest")] * 3 + [facts.lookup("Runeclaw Bear")] * 3
    widget = xw.ExploreWidget(Session(1), mtg_explore.LibraryExplorer("Mira", cards))
    before = widget.tables[0]["rows"][3]["cells"][4]["title"]  # red, difficulty 4
    widget.set_control("Forest", 6)
    after = widget.tables[0]["rows"][3]["cells"][4]["title"]
    library = [facts.lookup("Forest")] * 6 + [facts.lookup("Runeclaw Bear")] * 3
    plain, boost = mtg_check_odds(library, "red", 4), mtg_explore.boosted_odds(library, "red", 4)
    assert after == (f"without boost {plain.numerator}/{plain.denominator} · "
                     f"with boost {boost.numerator}/{boost.denominator}")
    assert before != after


def test_the_magics_build_each_explorer(ip):
    from gamekernel.magics import current_session

    current_session().gurps.char_new("Aiko", iq=12, skills=[("Lockpicking", 4)])
    widget = ip.run_line_magic("explore", "check Lockpicking @Aiko")
    assert widget.explorer.base == 13
    assert ip.run_line_magic("explore", "contest 14 vs 12").explorer.a == 14
    assert "use check" in repr(ip.run_line_magic("explore", "dice"))


# ---------------------------------------------------------------- quizzes


def test_quiz_questions_come_from_the_rules():
    rng = random.Random(3)
    for question in qz.make_quiz("gurps", 6, rng):
        if question["type"] == "gurps.chance":
            target = question["skill"] + question["modifier"]
            right = Fraction(*question["choices"][question["answer"]])
            assert right == check_odds(target).success
        else:
            from gamekernel.gurps.rules.checks import classify

            success, critical = classify(sum(question["dice"]), question["target"])
            code = question["choices"][question["answer"]]
            assert code == (f"crit_{critical}" if critical else "success" if success else "failure")
    for question in qz.make_quiz("mtg", 4, rng):
        if question["type"] == "mtg.decides":
            assert question["choices"][question["answer"]] == "first"  # MTG-CHK-05
        assert qz.explanation(question).rules[1] == "MTG-CHK-05"


def test_quiz_answers_are_logged_with_the_score_and_wrong_answers_are_explained():
    s = Session(5)
    quiz = s.teaching.quiz("alpha", 2)
    questions = s.teaching.quiz_state(quiz)["questions"]
    s.teaching.quiz_answer(quiz, 1, questions[0]["answer"])
    wrong = (questions[1]["answer"] + 1) % len(questions[1]["choices"])
    data = s.teaching.quiz_answer(quiz, 2, wrong)
    assert data == {"quiz": quiz, "set": "alpha", "number": 2, "choice": wrong, "correct": False, "right": 1,
                    "answered": 2, "of": 2}
    assert s.log[-1].kind == "quiz.answer" and "wrong (1/2" in s.log[-1].summary()
    assert qz.explanation(questions[1]).rules == ("GW-ALPHA-10", "GW-ALPHA-10")
    with pytest.raises(GameKernelError):
        s.teaching.quiz_answer(quiz, 2, 0)  # already answered
    with pytest.raises(GameKernelError):
        s.teaching.quiz_answer(quiz, 3, 0)


def test_the_quiz_widget_shows_steps_only_after_a_wrong_answer(ip):
    widget = ip.run_line_magic("quiz", "gurps 2")
    question = widget.state()["questions"][1]
    assert all(not q["steps"] for q in widget.questions)
    widget.answer(2, (question["answer"] + 1) % 4)
    assert widget.questions[1]["steps"] and widget.questions[1]["correct"] is False
    assert "GURPS-SR" in widget.snapshot_html()


# ---------------------------------------------------------------- what a saved notebook keeps


@pytest.fixture
def updates(monkeypatch):
    """The bundles sent with `update_display` (what the saved notebook's outputs become), by display id."""
    import IPython.display

    sent: dict[str, dict] = {}
    monkeypatch.setattr(IPython.display, "update_display",
                        lambda data, raw=False, metadata=None, display_id=None: sent.__setitem__(display_id, data))
    return sent


def test_a_quiz_answer_clicked_updates_the_saved_snapshot_and_record(ip, updates):
    widget = ip.run_line_magic("quiz", "gurps 2")
    right = widget.state()["questions"][0]["answer"]
    widget._on_custom_message(widget, {"action": "answer", "number": 1, "choice": right}, [])
    view, record = (updates[i] for i in widget._display_ids)
    assert "1 right of 1 answered" in record["text/html"] and "1 right of 1" in view["text/plain"]
    assert record["text/plain"] == widget.session.log[-1].summary()  # the answer's log line, once
    assert "(1/1" in record["text/plain"]


def test_an_explorer_change_is_recorded_in_the_saved_snapshot_and_record(ip, updates):
    widget = ip.run_line_magic("explore", "contest 14 vs 12")
    widget._on_custom_message(widget, {"action": "set", "name": "a", "value": 10}, [])
    widget._on_custom_message(widget, {"action": "set", "name": "b", "value": 11}, [])
    record = updates[widget._display_ids[1]]
    assert "10 vs 11" in record["text/html"]  # the saved picture, in the record
    lines = record["text/plain"].splitlines()
    assert lines[0].startswith("A's skill → 10: 10 vs 12") and lines[1].startswith("B's skill → 11: 10 vs 11")
    widget._on_custom_message(widget, {"action": "set", "name": "a", "value": 19}, [])  # out of range
    assert "out of range" in widget.error and len(widget._record.texts) == 2  # refused: nothing recorded


def test_an_explorer_toggle_reads_on_or_off_in_the_record(ip, updates):
    widget = xw.ExploreWidget(Session(1), gurps_explore.CheckExplorer("Lockpicking", 13))
    assert widget.handle_action("set", {"name": "explore.situation.dark", "value": True}).lines[0].startswith(
        "darkness -5 → on: Lockpicking 13")


def test_answers_and_moves_made_from_python_are_recorded_as_clicks_are(ip, updates):
    quiz = ip.run_line_magic("quiz", "gurps 1")
    quiz.answer(1, quiz.state()["questions"][0]["answer"])
    assert "1 right of 1 answered" in updates[quiz._display_ids[1]]["text/html"]
    explorer = ip.run_line_magic("explore", "contest 14 vs 12")
    explorer.set_control("a", 9)
    assert updates[explorer._display_ids[1]]["text/plain"].startswith("A's skill → 9: 9 vs 12")
