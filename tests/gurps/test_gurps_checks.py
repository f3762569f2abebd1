"""Success rolls: GURPS-SR-02..08, SR-05 refusal, worked examples T-01..T-06."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamekernel.errors import UsageError
from gamekernel.gurps.rules.checks import (
    Modifier,
    SuccessRoll,
    classify,
    success_roll,
)
from gamekernel.gurps.rules.odds import check_odds


def oracle(total: int, target: int) -> tuple[bool, str | None]:
    """Straight from RULES.md text, written independently of checks.py.

    SR-03: 3 and 4 always succeed; 17 and 18 always fail. SR-07: crit success on 3-4, on 5 at 15+,
    on 6 at 16+. SR-08: crit failure on 18, on 17 at target <= 15, on roll >= target + 10.
    """
    crit_success = total in (3, 4) or (total == 5 and target >= 15) or (total == 6 and target >= 16)
    if crit_success:
        return True, "success"
    if total == 18 or (total == 17 and target <= 15) or total - target >= 10:
        return False, "failure"
    if total in (17, 18):
        return False, None
    return total <= target, None


@pytest.mark.parametrize("target", range(3, 26))
def test_gurps_sr_07_08_every_crit_boundary_targets_3_to_25(target):
    """GURPS-SR-02/03/07/08: all totals 3..18 for every target 3..25 against the oracle."""
    for total in range(3, 19):
        assert classify(total, target) == oracle(total, target), (total, target)


def test_gurps_sr_05_defense_targets_below_3_use_the_same_rules():
    """GURPS-SR-05: defenses are rolled below 3; 3-4 still succeed, the rest follow SR-08."""
    for target in range(-10, 3):
        for total in range(3, 19):
            assert classify(total, target) == oracle(total, target)


def test_gurps_sr_t01_lockpicking_in_the_dark_issue_text():
    """T-01 and the issue's example line, odds checked exactly."""
    roll = success_roll(9, [(-5, "dark")], label="Lockpicking", actor="Aiko", dice=(4, 3, 4))
    assert roll.target == 4 and roll.total == 11 and not roll.success
    assert roll.margin == -7 and roll.margin_of_failure == 7 and roll.critical is None
    assert roll.odds.success == Fraction(4, 216)
    assert roll.odds.critical_success == Fraction(4, 216)
    assert roll.odds.critical_failure == Fraction(15 + 10 + 6 + 3 + 1, 216)  # 14+ = target + 10 and up
    assert str(roll) == ("Aiko · Lockpicking 9 −5 (dark) = 4 · rolled 11 [4,3,4] · failed by 7 · "
                         "odds 1.9% (crit 1.9%, crit fail 16.2%)")


def test_gurps_sr_t02_primitive_lock_target_19():
    """T-02: target 19; 3-16 succeed, 17 is an ordinary failure, 18 a critical failure."""
    for total in range(3, 17):
        assert classify(total, 19)[0] is True
    assert classify(17, 19) == (False, None)
    assert classify(18, 19) == (False, "failure")
    roll = success_roll(9, [(10, "primitive lock")], dice=(6, 6, 5))
    assert roll.target == 19 and not roll.success and roll.critical is None
    assert roll.margin_of_failure == 0
    assert "17 always fails" in str(roll)


def test_gurps_sr_t03_modifiers_are_cumulative():
    """T-03 / GURPS-SR-04: 9 - 5 + 10 = 14."""
    roll = success_roll(9, [(-5, "dark"), (10, "primitive")], dice=(1, 2, 3))
    assert roll.target == 14
    assert roll.modifiers == (Modifier(-5, "dark"), Modifier(10, "primitive"))


def test_gurps_sr_t04_margins():
    """T-04 / GURPS-SR-06: ST 12: 12 succeeds, 13 fails; 18 vs 12 -> by 6; 9 vs 12 -> fail by 3."""
    assert success_roll(12, dice=(4, 4, 4)).success
    assert not success_roll(12, dice=(4, 4, 5)).success
    assert success_roll(18, dice=(4, 4, 4)).margin_of_success == 6
    assert success_roll(9, dice=(4, 4, 4)).margin_of_failure == 3


def test_gurps_sr_t05_miss_by_ten_is_critical_failure():
    """T-05: target 6 roll 16; target 5 roll 15."""
    assert classify(16, 6) == (False, "failure")
    assert classify(15, 5) == (False, "failure")
    assert classify(15, 6) == (False, None)


def test_gurps_sr_t06_derived_edges():
    """T-06: 14/5 ordinary; 15/5 crit; 16/6 crit; 16/17 ordinary failure; 15/17 crit failure."""
    assert classify(5, 14) == (True, None)
    assert classify(5, 15) == (True, "success")
    assert classify(6, 16) == (True, "success")
    assert classify(17, 16) == (False, None)
    assert classify(17, 15) == (False, "failure")


def test_gurps_sr_05_refuses_below_3_with_reason_and_no_dice():
    """GURPS-SR-05: target 2 is not rolled; the result says why."""
    roll = success_roll(9, [(-7, "")], rng=random.Random(1))
    assert roll.refused and "below 3" in roll.refused
    assert roll.dice == () and roll.total is None and not roll.success
    assert "not rolled" in str(roll)
    assert success_roll(3, dice=(1, 1, 1)).refused is None


def test_gurps_sr_05_defenses_always_roll():
    roll = success_roll(1, label="Dodge", dice=(1, 1, 2), defense=True)
    assert roll.refused is None and roll.success and roll.critical == "success"


def test_gurps_sr_rng_and_replay_roundtrip():
    rng = random.Random(42)
    roll = success_roll(12, [(-2, "rain")], label="Climbing", rng=rng)
    again = SuccessRoll.from_dict(roll.to_dict())
    assert again == roll


def test_gurps_sr_bad_dice_are_usage_errors():
    with pytest.raises(UsageError):
        success_roll(10, dice=(1, 2))
    with pytest.raises(UsageError):
        success_roll(10, dice=(0, 2, 3))
    with pytest.raises(UsageError):
        success_roll(10)


def test_gurps_sr_odds_match_enumeration_for_all_targets():
    """Odds are exact counts over 216 outcomes, the same predicate as the verdict."""
    for target in range(-5, 26):
        odds = check_odds(target)
        ways = {"s": 0, "cs": 0, "cf": 0}
        for a in range(1, 7):
            for b in range(1, 7):
                for c in range(1, 7):
                    ok, crit = oracle(a + b + c, target)
                    ways["s"] += ok
                    ways["cs"] += crit == "success"
                    ways["cf"] += crit == "failure"
        assert (odds.success, odds.critical_success, odds.critical_failure) == (
            Fraction(ways["s"], 216), Fraction(ways["cs"], 216), Fraction(ways["cf"], 216))


def test_gurps_sr_html_escapes_labels():
    roll = success_roll(10, [(1, "<b>x</b>")], label="<Lock>", actor="A&B", dice=(3, 3, 3))
    html = roll._repr_html_()
    assert "<b>x</b>" not in html and "&lt;b&gt;" in html and "A&amp;B" in html
    assert roll._repr_html_() == html  # deterministic


def test_best_alternative_is_the_one_choice_of_a_fallback_chain():
    """"A | B" keeps the alternative with the highest effective target, numbers or names alike; an
    alternative the character cannot use is skipped; none usable raises the first one's error."""
    from gamekernel.errors import NotFoundError
    from gamekernel.gurps.rules.checks import (
        ResolvedCheck,
        best_alternative,
        parse_check_spec,
        parse_side,
        split_vs,
    )

    assert best_alternative(parse_check_spec("12 | 14")).target == 14
    assert best_alternative(parse_check_spec("14-3 | 12")).target == 12
    assert best_alternative(parse_check_spec("12 | 12+0")).target == 12

    def resolve(alt, defense):
        if alt.name == "Known":
            return ResolvedCheck("Known", 11, alt.modifiers, defense)
        if alt.name is None:
            return ResolvedCheck("", alt.number, alt.modifiers, defense, "raw")
        raise NotFoundError(f"no {alt.name}")

    assert best_alternative(parse_check_spec("Unknown | Known-1 | 9"), resolve).label == "Known"
    assert best_alternative(parse_check_spec("Known | 13"), resolve).target == 13
    with pytest.raises(NotFoundError, match="no Unknown"):
        best_alternative(parse_check_spec("Unknown | Other"), resolve)
    with pytest.raises(UsageError):
        best_alternative(parse_check_spec("Known | 12"))  # a name needs a character
    assert split_vs("Aiko:Stealth vs Guard:Per") == ["Aiko:Stealth", "Guard:Per"]
    assert split_vs("14 対 12") == ["14", "12"]
    side = parse_side("Aiko:Stealth-2")
    assert side.actor == "Aiko" and side.alternatives[0].name == "Stealth"
    assert side.alternatives[0].modifiers[0].value == -2
    assert parse_side("S:Stealth").actor is None and parse_side("14").alternatives[0].number == 14


def _panel_built_check_html(result: SuccessRoll) -> str:
    """The check panel built piece by piece through `panel`, as it was before its frames were kept:
    the reference `success_html` must equal for every shape and value."""
    from gamekernel.display.html import chip, dice_chip, esc, panel
    from gamekernel.gurps.render import _tone, note_text, odds_text, verdict_text, working_text
    from gamekernel.i18n import t

    title = esc(result.actor) if result.actor else ""
    pieces = [f'<span class="gk-working">{esc(working_text(result))}</span>']
    if result.refused is None:
        dice = dice_chip(result.dice)
        pieces.append(f'<span class="gk-roll">{esc(t("gurps.check.rolled_short", total=result.total))} {dice}</span>')
    pieces.append(chip(verdict_text(result), _tone(result), cls="gk-verdict"))
    pieces.append(f'<span class="gk-odds" style="font-size:11px">{esc(odds_text(result))}</span>')
    body = " ".join(pieces)
    for note in result.notes:
        body += f' <span class="gk-note">({esc(note_text(note))})</span>'
    return panel("gurps-check", body, title_html=title, tone=_tone(result))


_TEXT = st.lists(st.sampled_from([*"Ab 鍵<>&\"'\x00;:=", ' style="color:red"', "color:#f00"]),
                 max_size=12).map("".join)


@given(base=st.integers(-5, 25), modifiers=st.lists(st.tuples(st.integers(-10, 10), _TEXT), max_size=3),
       label=_TEXT, actor=_TEXT, dice=st.tuples(*[st.integers(1, 6)] * 3), defense=st.booleans(),
       notes=st.lists(st.sampled_from(["default IQ-5", "default DX-4", "GURPS-SR-05", "<b>", ""]), max_size=2),
       language=st.sampled_from(["en", "ja"]))
@settings(max_examples=300, deadline=None)
def test_gurps_sr_check_panel_from_its_frame_equals_the_panel_built_whole(base, modifiers, label, actor, dice,
                                                                           defense, notes, language):
    """Every check's panel (SR-02..08: success, failure, both criticals; SR-05: refused below 3, no dice)
    is byte for byte the one `panel` builds, whatever the actor, label and notes hold (markup, quotes,
    a NUL, text that reads like a style), in either language."""
    from gamekernel.gurps.render import success_html
    from gamekernel.i18n import get_language, set_language

    result = success_roll(base, modifiers, label=label, actor=actor, dice=dice, defense=defense, notes=tuple(notes))
    before = get_language()
    set_language(language)
    try:
        assert success_html(result) == _panel_built_check_html(result)
    finally:
        set_language(before)


def test_gurps_sr_05_refused_check_panel_shows_no_roll_and_equals_the_panel_built_whole():
    from gamekernel.gurps.render import success_html

    refused = success_roll(1, label="Lockpicking", actor="Aiko", dice=(3, 3, 3))
    assert refused.refused is not None and "gk-roll" not in success_html(refused)
    assert success_html(refused) == _panel_built_check_html(refused)
    unrolled = success_roll(12, label="Stealth", _no_dice_ok=True)  # no dice recorded: refused too
    assert success_html(unrolled) == _panel_built_check_html(unrolled)


@given(seed=st.integers(0, 2**32), rolls=st.integers(1, 40))
@settings(max_examples=60, deadline=None)
def test_gurps_sr_02_session_dice_draw_3d6_as_randint_does_and_count_every_word(seed, rolls):
    """SR-02's 3d on the session's generator takes its faces without `randint`'s Python calls: the same
    faces as `randint(1, 6)` three times, the same words counted (so a refused command puts back
    exactly), and the stream goes on alike; a plain generator is asked through its own `randint`."""
    from gamekernel.gurps.rules.checks import roll_3d6
    from gamekernel.rng import TransactionalRandom

    fast, slow, plain = TransactionalRandom(seed), TransactionalRandom(seed), random.Random(seed)
    mark = fast.begin()
    drawn = [roll_3d6(fast) for _ in range(rolls)]
    assert drawn == [(slow.randint(1, 6), slow.randint(1, 6), slow.randint(1, 6)) for _ in range(rolls)]
    assert drawn == [roll_3d6(plain) for _ in range(rolls)]
    assert fast._words == slow._words and fast.random() == slow.random()
    fast.rollback(mark)
    fast.end(mark)
    assert [roll_3d6(fast) for _ in range(rolls)] == drawn  # put back, drawn again alike
