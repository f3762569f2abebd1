"""Explain mode (a teaching feature): each step cites the rule that decided it, every cited rule has an
explanation in en and ja and exists in RULES.md (ids copied by tools/rule_ids.py)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from gamekernel import Session, i18n
from gamekernel.gammaworld import lessons as gw_lessons
from gamekernel.gurps import lessons as gurps_lessons
from gamekernel.gurps.rules.checks import success_roll
from gamekernel.gurps.rules.contests import roll_quick_contest
from gamekernel.gurps.rules.damage import parse_damage, roll_damage
from gamekernel.mtg import lessons as mtg_lessons
from gamekernel.teaching import explain as ex

RULE_IDS = set((Path(__file__).parent / "data" / "rule_ids.txt").read_text(encoding="utf-8").split())


def rule_of(explanation: ex.Explanation, key_part: str) -> str:
    """The rule of the (single) step whose message key contains `key_part`."""
    found = [s.rule for s in explanation.steps if key_part in s.key]
    assert len(found) == 1, (key_part, explanation.steps)
    return found[0]


# ---------------------------------------------------------------- data files


def cited_rules() -> frozenset[str]:
    """Every rule id explain mode and the quizzes may cite, read from their source: the quizzes and each
    rule set's working of its events (`<rule set>/lessons.py`)."""
    package = Path(ex.__file__).parents[1]
    sources = [package / "teaching" / "quiz.py",
               *(package / name / "lessons.py" for name in ("gurps", "mtg", "gammaworld"))]
    text = "".join(path.read_text(encoding="utf-8") for path in sources)
    return frozenset(re.findall(r'"((?:GURPS|MTG|GW)-[A-Z]+-\d+)"', text))


def test_every_cited_rule_has_a_note_in_both_languages_and_is_a_real_rule():
    cited = cited_rules()
    assert len(cited) >= 30  # the scan found the ids (it would pass vacuously on none)
    notes = ex.rule_notes()
    for rule in sorted(cited):
        assert rule in RULE_IDS, rule
        assert rule in notes, rule
        for language in ("en", "ja"):
            note = ex.RuleNote.lookup(rule, language)
            assert note.text and note.section and note.seed in ("000", "002", "004", "std"), (rule, language)
        assert notes[rule]["en"] != notes[rule]["ja"]


def test_every_note_is_a_real_rule():
    assert set(ex.rule_notes()) <= RULE_IDS


def test_step_messages_exist_in_both_catalogs():
    root = Path(ex.__file__).parents[1] / "i18n"
    en = json.loads((root / "en" / "explain.json").read_text(encoding="utf-8"))
    ja = json.loads((root / "ja" / "explain.json").read_text(encoding="utf-8"))
    assert en.keys() == ja.keys()


# ---------------------------------------------------------------- GURPS success rolls


def test_a_check_cites_modifiers_comparison_margin_and_criticals():
    roll = success_roll(13, [(-5, "dark")], label="Lockpicking", dice=(4, 2, 6))  # 12 vs 8
    e = gurps_lessons.check_explanation(roll)
    assert e.rules == ("GURPS-SR-04", "GURPS-SR-02", "GURPS-SR-06", "GURPS-SR-08")
    assert e.steps[1].key == "explain.gurps.failure"
    assert e.steps[2].fields == {"margin": 4}
    assert e.odds == Fraction(56, 216)  # 3d6 <= 8


def test_a_sheet_skill_check_starts_with_the_skill_cost():
    s = Session(4)
    s.gurps.char_new("Aiko", iq=12, skills=[("Lockpicking", 4)])
    s.gurps.check("Lockpicking-5 dark", actor="Aiko")
    first = s.teaching.explain().explanations[0].steps[0]
    assert first.rule == "GURPS-STD-01"
    assert first.fields == {"skill": "Lockpicking", "attribute": "IQ", "difficulty": "A", "points": 4,
                            "relative": "+1", "level": 13}


def test_17_at_skill_16_cites_the_critical_failure_rule_as_ordinary():
    e = gurps_lessons.check_explanation(success_roll(16, dice=(6, 6, 5)))
    assert rule_of(e, "auto_failure") == "GURPS-SR-03"
    assert rule_of(e, "not_critical_17") == "GURPS-SR-08"


def test_17_at_skill_15_is_a_critical_failure():
    e = gurps_lessons.check_explanation(success_roll(15, dice=(6, 6, 5)))
    assert rule_of(e, "crit_failure.17") == "GURPS-SR-08"


def test_4_at_skill_3_is_an_automatic_success():
    e = gurps_lessons.check_explanation(success_roll(3, dice=(1, 1, 2)))
    assert rule_of(e, "auto_success") == "GURPS-SR-03"
    assert rule_of(e, "crit_success.low") == "GURPS-SR-07"


@pytest.mark.parametrize(("target", "dice", "key"), [
    (15, (1, 2, 2), "crit_success.five"), (14, (1, 2, 2), "not_critical"),
    (16, (2, 2, 2), "crit_success.six"), (15, (2, 2, 2), "not_critical"),
    (6, (6, 5, 5), "crit_failure.ten"), (7, (6, 5, 5), "not_critical"),
])
def test_critical_boundaries(target, dice, key):
    e = gurps_lessons.check_explanation(success_roll(target, dice=dice))
    assert e.steps[-1].key == f"explain.gurps.{key}"


def test_a_target_below_3_is_not_rolled():
    e = gurps_lessons.check_explanation(success_roll(2, label="Climbing"))
    assert e.rules[-1] == "GURPS-SR-05" and e.odds is None


# ---------------------------------------------------------------- contests, damage, attacks


def test_a_contest_cites_both_rolls_then_the_winner_and_margin():
    contest = roll_quick_contest(14, 12, dice=(1, 1, 1, 6, 6, 6))
    e = gurps_lessons.contest_explanation(contest)
    assert [s.fields.get("side") for s in e.steps[:8]] == ["A"] * 4 + ["B"] * 4
    assert rule_of(e, "contest_one_succeeds") == "GURPS-SR-10"
    victory = next(s for s in e.steps if s.key == "explain.gurps.victory_margin")
    assert victory.rule == "GURPS-SR-11" and victory.fields["margin"] == 11 + 6  # 3 under 14, 18 over 12


def test_a_tied_contest_has_no_margin_of_victory():
    contest = roll_quick_contest(12, 12, dice=(3, 3, 4, 3, 3, 4))
    e = gurps_lessons.contest_explanation(contest)
    assert e.rules[-1] == "GURPS-SR-10" and "GURPS-SR-11" not in e.rules


def test_damage_cites_dr_wounding_and_injury():
    damage = roll_damage(parse_damage("1d+2 cut"), dr=2, dice=(3,))
    e = gurps_lessons.damage_explanation(damage)
    assert e.rules == ("GURPS-SR-01", "GURPS-DMG-05", "GURPS-DMG-07", "GURPS-DMG-08")
    assert e.steps[-1].fields["injury"] == 4  # (5-2) x 1.5 = 4.5 -> 4


def test_damage_stopped_by_dr_stops_at_penetration():
    e = gurps_lessons.damage_explanation(roll_damage(parse_damage("1d cr"), dr=5, dice=(2,)))
    assert e.rules == ("GURPS-SR-01", "GURPS-DMG-05")


def test_an_attack_with_damage_is_explained_from_the_log():
    s = Session(1)
    s.combat.npc("Orc", "ST=16 DX=12 HT=12 HP=12 weapon=Greataxe:13:sw+3 cut")
    s.combat.start("Bren{ST=13,DX=12,HT=12,weapon=Axe:14:sw+2 cut,pc=1} Orc")
    s.combat.attack("Bren", "Orc", "Axe")
    attack = s.teaching.explain()
    assert attack.explanations[0].rules[1] == "GURPS-CMB-26"  # the hit decided by the attack-roll rule
    assert "GURPS-CMB-40" in attack.explanations[0].rules  # a defense is offered
    s.combat.defend("Orc", "none")
    defend = s.teaching.explain().explanations[0]
    assert {"GURPS-DMG-05", "GURPS-DMG-07", "GURPS-DMG-08"} <= set(defend.rules)
    hp = next(step for step in defend.steps if step.key == "explain.gurps.hp")
    assert hp.fields["name"] == "Orc" and hp.fields["after"] == hp.fields["before"] - hp.fields["injury"]


# ---------------------------------------------------------------- MtG and Gamma World


def test_an_mtg_check_counts_a_land_as_its_colours():
    result = {"kind": "red", "difficulty": 4, "known": [], "first": "Elvish Mystic", "second": "Steam Vents",
              "target": 5, "colours": ["blue", "red"], "chosen_colour": "red", "relation": "same", "modifier": 5,
              "achievement": 5, "success": True, "bottom": ["Elvish Mystic", "Steam Vents"], "odds": [267, 946],
              "actor": "Mira"}
    e = mtg_lessons.mtg_check_explanation(result, is_land=lambda name: name == "Steam Vents")
    assert rule_of(e, "land_colours") == "MTG-CHK-09"
    assert rule_of(e, "random_colour") == "MTG-CHK-10"
    assert rule_of(e, "relation.same") == "MTG-CHK-07"
    assert rule_of(e, "mtg.target") == "MTG-CHK-05" and e.steps[1].fields["mv"] == 1
    assert rule_of(e, "mtg.success") == "MTG-CHK-11"
    assert e.odds == Fraction(267, 946)


def test_an_allied_colour_cites_the_allied_colours_rule():
    result = {"kind": "white", "difficulty": 0, "first": "Island", "second": "Island", "target": 0,
              "colours": ["blue"], "chosen_colour": "blue", "relation": "allied", "modifier": 3, "achievement": 3,
              "success": True, "bottom": []}
    e = mtg_lessons.mtg_check_explanation(result, is_land=lambda name: True)
    assert rule_of(e, "relation.allied") == "MTG-CHK-08"
    assert "MTG-CHK-10" not in e.rules


def test_a_flux_from_a_natural_one_is_explained_by_the_flux_rule():
    e = gw_lessons.flux_pending_explanation({"faces": [1], "count": 1, "label": "1d20+4"}, "Rin")
    assert e.rules == ("GW-ALPHA-10", "GW-ALPHA-10") and e.odds == Fraction(1, 20)
    swap = gw_lessons.flux_explanation({"discarded": "A", "drawn": ["B"], "source": "gm"}, "Rin", str.lower)
    assert swap.steps[0].fields == {"who": "Rin", "discarded": "a", "drawn": "b"}
    assert set(swap.rules) == {"GW-ALPHA-10"}


def test_an_overcharge_cites_bonus_and_roll_rules():
    detail = {"face": 7, "bonus": 2, "total": 9, "success_min": 10, "success": False, "attack": True, "flux": False}
    e = gw_lessons.overcharge_explanation(detail, "Ember Thought", "Rin")
    assert e.rules == ("GW-ALPHA-12", "GW-ALPHA-14", "GW-ALPHA-13", "GW-ALPHA-13")
    assert e.odds == Fraction(13, 20)  # faces 8..20, +2 >= 10


# ---------------------------------------------------------------- through the magics


def test_check_explain_shows_rule_ids_in_both_languages(ip):
    out = ip.run_line_magic("check", "13-5 dark --explain")
    text = repr(out)
    assert "GURPS-SR-04" in text and "GURPS Lite: Modifiers" in text and "Situation modifiers" in text
    assert "seed 004" not in text  # the book a teacher has, not the project's file
    html = out._repr_html_()
    assert 'data-rule="GURPS-SR-04"' in html and "gk-explain-odds" in html
    assert 'title="seed 004, lines 59-65"' in html  # the seed's lines stay, for the GM and developers
    ip.run_line_magic("config", "GameKernel.language = 'ja'")
    assert "修正" in repr(ip.run_line_magic("explain", ""))


def test_explain_an_event_number_and_refusals(ip):
    ip.run_line_magic("check", "12")
    assert "GURPS-SR-02" in repr(ip.run_line_magic("explain", "2"))
    assert "no event 9" in repr(ip.run_line_magic("explain", "9"))
    assert "decides nothing by a rule" in repr(ip.run_line_magic("explain", "1"))


def test_a_secret_check_stays_secret_with_explain(ip):
    out = ip.run_line_magic("check", "12 --secret --explain")
    assert "GURPS-SR" not in repr(out)
    i18n.set_language("en")


def test_a_boost_is_explained_against_the_check_it_boosts(ip, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("Deck\n4 Serra Angel\n10 Forest\n6 Ornithopter\n", encoding="utf-8")
    ip.run_line_magic("library", f"load Mira {deck}")
    ip.run_line_magic("library", "stack Serra Angel, Serra Angel @Mira")
    ip.run_line_magic("check", "green 4 @Mira")  # target 9 vs 5: a failure
    out = ip.run_line_magic("boost", "@Mira --explain")
    explanation = out.explanations[0]
    assert explanation.rules[0] == "MTG-CHK-13"
    assert explanation.steps[1].rule == "MTG-CHK-11" and explanation.steps[1].fields["target"] == 9


def test_a_hazard_is_explained_by_its_rule_roll_and_damage():
    s = Session(3)
    s.gurps.char_new("Bren", st=13, ht=12)
    s.combat.hazard("fall", "Bren", metres=6)
    fall = s.teaching.explain().explanations[0]
    assert fall.rules[:2] == ("GURPS-HAZ-06", "GURPS-HAZ-06")
    assert {"GURPS-DMG-05", "GURPS-DMG-08"} <= set(fall.rules)
    s.combat.hazard("cold", "Bren", clothing="light")
    cold = s.teaching.explain().explanations[0]
    assert cold.rules[0] == "GURPS-HAZ-01" and "GURPS-SR-02" in cold.rules


def test_explain_on_a_plain_roll_says_there_is_nothing_to_explain(ip):
    out = ip.run_line_magic("roll", "3d6 --explain")
    assert out.explanations == () and "nothing here is decided" in repr(out)


def test_explanations_cite_the_books_a_teacher_has_and_each_rule_once(ip):
    """GURPS Lite by section (the seed, a translation of GURPS Lite, prints no page numbers), the Gamma
    World Rulebook with the page its seed names (seed 000 line 1: p66), the MtG house rule by its title;
    a step under the rule the step before it cited shows its working and rule id only."""
    from gamekernel.lessons import Explanation, Step
    from gamekernel.teaching.render_explain import explanation_html, explanation_text, step_rows

    steps = tuple(Step(rule, "explain.gurps.target", {"who": "", "target": 12})
                  for rule in ("GURPS-SR-02", "GURPS-SR-02", "GW-ALPHA-12", "MTG-CHK-05"))
    text = explanation_text(Explanation(steps=steps))
    lines = text.splitlines()
    assert "(GURPS-SR-02, GURPS Lite: Success rolls) — Three dice" in lines[0]
    assert lines[1].endswith("(GURPS-SR-02)")  # cited once, on the step before
    assert "Gamma World Rulebook, Alpha Mutation Cards (p. 66)" in lines[2]
    assert "the house rule \u201cMtG as a TRPG: action checks\u201d" in lines[3]
    assert "seed" not in text
    html = explanation_html(Explanation(steps=steps))
    assert html.count('class="gk-why"') == 3 and html.count('title="seed 004, lines 44-45"') == 1
    rows = step_rows(Explanation(steps=steps))  # the quiz widget's rows: the same, once per rule
    assert rows[0]["seed"] == "seed 004, lines 44-45" and rows[1]["why"] == rows[1]["source"] == ""
    assert all(row["why"] for row in rows[2:])
    i18n.set_language("ja")
    try:
        assert "簡易版GURPS（GURPS Lite）：成功判定" in explanation_text(Explanation(steps=steps))
    finally:
        i18n.set_language("en")
