"""The Fate plug-in's own tests, written as a plug-in author writes them: the shell fixture comes from
`gamekernel.testing` (loaded with `-p gamekernel.testing`), the plug-in from its entry point. Run by
tests/rulesets/test_plugin.py in a fresh Python with the plug-ins on the path (FATE-* rule ids:
gk_fate/data/explain.json)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from gk_fate.explore import outcome_chances
from gk_fate.rules import FateCheck, chance_at_least, ladder_word, outcome, rating

from gamekernel.i18n import set_language
from gamekernel.lessons import QUESTION_KINDS, QUIZ_SETS
from gamekernel.magics import current_session
from gamekernel.remote.projection import Audience
from gamekernel.remote.views import player_view
from gamekernel.testing import run


@pytest.fixture
def aiko(ip):
    assert repr(run(ip, "fate", "Aiko Athletics=+2 Fight=Good")) == "Aiko: Athletics Fair (+2), Fight Good (+3)"
    return ip


def _last_check(ip) -> FateCheck:
    event = current_session().log[-1]
    assert event.kind == "fate.check"
    return FateCheck.from_dict(dict(event.data))


# -- the rules ---------------------------------------------------------------------------------
def test_fate_ladder_reads_terrible_to_legendary():
    assert [ladder_word(v) for v in (-2, 0, 2, 8)] == ["terrible", "mediocre", "fair", "legendary"]
    assert ladder_word(-3) == "terrible" and ladder_word(9) == "legendary"  # beyond the ladder: its ends
    assert rating("Good") == 3 and rating("+3") == 3 and rating("-2") == -2 and rating("legendary") == 8
    for bad in ("9", "-3", "Goo", ""):
        with pytest.raises(ValueError):
            rating(bad)


def test_fate_outcome_by_shifts_at_each_boundary():
    assert [outcome(s) for s in (-1, 0, 1, 2, 3, 7)] == ["fail", "tie", "succeed", "succeed", "style", "style"]


def test_fate_dice_odds_are_exact():
    assert chance_at_least(-4) == 1 and chance_at_least(5) == 0
    assert chance_at_least(0) * 81 == 50 and chance_at_least(4) * 81 == 1 and chance_at_least(1) * 81 == 31


# -- %check by the actor -------------------------------------------------------------------------
def test_check_goes_to_the_fate_character_s_rule_set(aiko):
    shown = repr(run(aiko, "check", "Athletics @Aiko"))
    check = _last_check(aiko)
    assert check.actor == "Aiko" and check.rating == 2 and check.opposition == 2  # Fair unless named
    assert len(check.faces) == 4 and set(check.faces) <= {-1, 0, 1}
    assert check.result == 2 + sum(check.faces) and check.shifts == check.result - 2
    assert shown.startswith("Aiko: Athletics Fair (+2) · rolled ") and f"{check.shifts} shifts" in shown
    run(aiko, "check", "Fight vs Great @Aiko")
    assert (_last_check(aiko).rating, _last_check(aiko).opposition) == (3, 4)
    run(aiko, "check", "Stealth @aiko")  # an unlisted skill is Mediocre; the name as every name is matched
    assert (_last_check(aiko).actor, _last_check(aiko).rating) == ("Aiko", 0)


def test_check_refuses_bad_lines_and_changes_nothing(aiko):
    before = len(current_session().log)
    assert repr(run(aiko, "check", "Athletics vs Goo @Aiko")) == (
        "error: a rating is a whole number from -2 to +8 or a ladder word (Good), got Goo")
    assert repr(run(aiko, "check", "Fight @Aiko --boost-if-needed")) == (
        "error: unknown option --boost-if-needed at column 13 (known: --secret)")
    assert repr(run(aiko, "check", "Athletics vs Good")) == (
        "error: a Fate check names its character: %check Athletics vs Good @Aiko")
    assert len(current_session().log) == before


def test_gurps_and_mtg_checks_are_untouched_by_the_plug_in(aiko):
    run(aiko, "char", "new Bren iq=11")
    assert "IQ" in repr(run(aiko, "check", "IQ @Bren"))
    assert current_session().log[-1].kind == "gurps.check"
    assert repr(run(aiko, "check", "12")).startswith("<SuccessRoll Bren · target 12")  # the active one


def test_explain_shows_the_fate_rules_in_both_languages(aiko):
    text = repr(run(aiko, "check", "Athletics vs Good @Aiko --explain"))
    check = _last_check(aiko)
    lines = text.splitlines()
    assert "Fate check by Aiko" in lines
    for rule in ("FATE-SKILL", "FATE-DICE", "FATE-LADDER", "FATE-OUTCOME"):
        assert f"({rule}, Fate Core SRD: " in text
    assert f"against +3 that is {check.shifts} shifts" in text
    odds = chance_at_least(2)  # at least one shift: the dice make up +2 vs +3 and one more
    assert f"(exactly {odds.numerator}/{odds.denominator})" in text and odds * 81 == 15
    set_language("ja")
    again = repr(run(aiko, "explain", ""))
    assert "Aiko の Fate 判定" in again and "(FATE-OUTCOME, Fate Core SRD：結果)" in again


def test_a_gurps_check_explains_with_the_plug_ins_installed(ip):
    """The coin plug-in declares explain notes it does not ship: they are optional, not an error."""
    text = repr(run(ip, "check", "12 --explain"))
    assert "(GURPS-SR-02, GURPS Lite: Success rolls)" in text and "Error" not in text


def test_log_lines_in_english_and_japanese(aiko):
    run(aiko, "check", "Athletics @Aiko")
    check = _last_check(aiko)
    log = repr(run(aiko, "log", ""))
    assert "Fate character" in log and "Fate check" in log and f"{check.shifts} shifts" in log
    set_language("ja")
    log = repr(run(aiko, "log", ""))
    assert "Fate キャラクター" in log and "Fate 判定" in log and f"{check.shifts} シフト" in log


# -- the table and the players ----------------------------------------------------------------
def test_table_dashboard_has_the_fate_rows(aiko):
    run(aiko, "check", "Athletics vs Legendary @Aiko")  # +2 + at most +4 < +8: a failure, surely
    text = repr(run(aiko, "table", ""))
    assert "\nFate:\n  Aiko · skills Athletics +2, Fight +3 · last check fails" in text


def test_players_see_no_secret_check_and_only_their_own_skills(aiko):
    run(aiko, "fate", "Bo Will=+1")
    run(aiko, "table", "seat alice Aiko")
    run(aiko, "table", "seat bob Bo")
    run(aiko, "check", "Athletics vs Legendary @Aiko")
    run(aiko, "check", "Will vs Terrible @Bo --secret")  # +1 - 4 >= -2 ... not surely: only hidden matters
    session = current_session()
    view = player_view(session, Audience.player("alice"), session.public_table())
    board = view["boards"]["fate"]
    rows = {r[0]: r for r in board["rows"]}
    assert rows["Aiko"] == ["Aiko", "Athletics +2, Fight +3", "fails"]
    assert board["title"] == "Fate" and board["columns"][1] == "skills"  # words the page draws as given
    assert rows["Bo"] == ["Bo", "", "—"]  # Bo's skills are bob's; his secret check reached nobody
    gm = repr(run(aiko, "table", "--gm"))
    assert "Bo · skills Will +1 · last check" in gm and "—" not in gm.split("Bo · ")[1]


def test_a_seated_player_checks_from_the_players_page(aiko):
    """The players' check intent is `%check` by the character's rule set: a Fate character's goes to
    Fate (FATE-DICE), stamped with the player; a secret or another's actor is refused, nothing recorded."""
    from gamekernel.remote.intents import handle

    run(aiko, "table", "seat alice Aiko")
    session = current_session()
    reply = handle(session, "alice", {"action": "check", "spec": "Athletics vs Good"})
    assert reply.ok, reply
    check = _last_check(aiko)
    assert (check.actor, check.skill, check.opposition) == ("Aiko", "Athletics", 3)
    assert session.log[-1].by == "alice" and not session.log[-1].secret
    count = len(session.log)
    assert not handle(session, "alice", {"action": "check", "spec": "Athletics --secret"}).ok
    assert not handle(session, "alice", {"action": "check", "spec": "Athletics @Aiko"}).ok
    assert len(session.log) == count


def test_the_gm_asks_a_fate_character_and_the_answer_is_a_secret_fate_check(aiko):
    from gamekernel.remote.intents import handle

    run(aiko, "table", "seat alice Aiko")
    run(aiko, "table", "ask alice Fight")
    session = current_session()
    assert handle(session, "alice", {"action": "answer", "ask": 1}).ok
    check = next(e for e in reversed(session.log) if e.kind == "fate.check")
    assert check.secret and check.actor == "Aiko" and check.data["skill"] == "Fight"


def test_quiz_draws_fate_questions_and_explains_the_answer(aiko):
    assert QUIZ_SETS["fate"] == ("fate.ladder", "fate.outcome")
    session = current_session()
    quiz = session.teaching.quiz("fate", 2)
    questions = session.teaching.quiz_state(quiz)["questions"]
    assert [q["type"] for q in questions] == ["fate.ladder", "fate.outcome"]
    ladder, shifts = questions
    assert ladder_word(ladder["choices"][ladder["answer"]]) == ladder_word(ladder["value"])
    check = FateCheck("", "", shifts["rating"], tuple(shifts["faces"]), shifts["opposition"])
    assert shifts["choices"][shifts["answer"]] == check.outcome
    assert session.teaching.quiz_answer(quiz, 2, shifts["answer"])["correct"] is True
    assert session.teaching.quiz_answer(quiz, 1, (ladder["answer"] + 1) % 4)["correct"] is False
    steps = QUESTION_KINDS["fate.outcome"].explain(shifts)
    assert [s.rule for s in steps.steps] == ["FATE-SKILL", "FATE-DICE", "FATE-LADDER", "FATE-OUTCOME"]
    shown = repr(run(aiko, "quiz", "fate 1"))
    assert "Quiz: Fate checks" in shown


def test_outcome_chances_add_up_and_split_at_the_shift_boundaries():
    """FATE-OUTCOME over FATE-DICE: at a rating equal to the opposition, a tie is a dice total of 0
    (19/81), a success 1 or 2 (16+10), with style 3 or 4 (4+1); the four always make 1."""
    even = outcome_chances(2, 2)
    assert even == {"fail": Fraction(31, 81), "tie": Fraction(19, 81), "succeed": Fraction(26, 81),
                    "style": Fraction(5, 81)}
    assert all(sum(outcome_chances(r, o).values()) == 1 for r in range(-2, 9) for o in range(-2, 9))
    assert outcome_chances(8, -2)["style"] == 1 and outcome_chances(-2, 8)["fail"] == 1  # beyond any dice


def test_explore_ladder_is_the_plug_ins_explorer_in_the_shared_widget(aiko):
    widget = run(aiko, "explore", "ladder")
    assert widget.mode == "ladder" and [c["name"] for c in widget.controls] == ["rating", "opposition"]
    marked = [row for row in widget.tables[0]["rows"] if row["mark"]]
    assert [row["head"] for row in marked] == ["Mediocre (+0)"]
    assert marked[0]["cells"][0]["title"] == "22/27"  # fails against Fair (+2): a dice total of +1 or less, 66/81
    widget.set_control("rating", 2)
    assert widget.summary == "Fair (+2) against Fair (+2): succeeds (with style or not) 38.27%"
    with pytest.raises(Exception, match="rating"):
        widget.explorer.set("rating", 9)  # off the ladder
    shown = repr(run(aiko, "explore", "ladder"))
    assert "Each outcome by rating, against Fair (+2)" in shown


def test_undo_and_a_campaign_keep_the_fate_state(aiko, tmp_path):
    session = current_session()
    run(aiko, "check", "Athletics @Aiko")
    run(aiko, "undo", "")
    assert session.fate.state.last == {}
    run(aiko, "campaign", f"open {tmp_path / 'c'}")
    run(aiko, "check", "Fight @Aiko")
    kept = session.fate.state.to_dict()
    run(aiko, "campaign", "close")
    from gamekernel import Session

    again = Session()
    again.campaign_open(str(tmp_path / "c"))
    assert again.fate.state.to_dict() == kept
    again.campaign_close()
