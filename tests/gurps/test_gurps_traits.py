"""Every advantage and disadvantage of the seed: GURPS-ADV-01..26, GURPS-DIS-01..23, CH-14..26 costs."""

from __future__ import annotations

import pytest

from gamekernel.errors import NotFoundError, RuleError
from gamekernel.gurps.rules.traits import find_trait, load_traits, make_trait, trait_cost

# Costs typed from RULES.md (independent of traits.json): fixed, per level, or per option.
FIXED = {
    "ambidexterity": 5, "animal_empathy": 5, "catfall": 10, "combat_reflexes": 15, "danger_sense": 15,
    "daredevil": 15, "empathy": 15, "enhanced_block": 5, "enhanced_dodge": 15, "flexibility": 5,
    "double_jointed": 15, "high_pain_threshold": 10, "jumper_time": 100, "jumper_world": 100,
    "language_talent": 10, "luck": 15, "extraordinary_luck": 30, "ridiculous_luck": 60, "perfect_balance": 15,
    "resistant_poison": 5, "voice": 10,
    "bad_temper": -10, "bloodlust": -10, "curious": -5, "gluttony": -5, "greed": -15, "hard_of_hearing": -10,
    "honesty": -10, "impulsiveness": -10, "jealousy": -10, "lecherousness": -15, "overconfidence": -5,
    "pacifism_reluctant_killer": -5, "pacifism_cannot_harm_innocents": -10, "truthfulness": -5,
    "unluckiness": -10,
}
PER_LEVEL = {
    "acute_hearing": 2, "acute_taste_smell": 2, "acute_touch": 2, "acute_vision": 2, "fearlessness": 2,
    "hard_to_kill": 2, "night_vision": 1, "talent_artificer": 10, "talent_outdoorsman": 10,
    "talent_smooth_operator": 15, "charisma": 5, "odious_personal_habit": -5, "high_tl": 5, "low_tl": -5,
    "reputation": 5, "status": 5,
}
OPTIONS = {
    "enhanced_parry": {"bare_hands": 5, "one_weapon": 5, "all": 10},
    "resistant_disease": {"plus3": 3, "plus8": 5},
    "appearance": {"hideous": -16, "ugly": -8, "unattractive": -4, "average": 0, "attractive": 4,
                   "handsome": 12, "very_handsome": 16},
    "language": {"none": 0, "broken": 1, "accented": 2, "native": 3},
    "low_native_literacy": {"accented": -1, "broken": -2, "none": -3},
    "wealth": {"dead_broke": -25, "poor": -15, "struggling": -10, "average": 0, "comfortable": 10,
               "wealthy": 20, "very_wealthy": 30, "filthy_rich": 50},
    "bad_sight": {"correctable": -10, "uncorrectable": -25},
    "code_of_honor": {"informal_peers": -5, "formal_peers": -10, "formal_always": -15, "pirates": -5,
                      "gentlemans": -10},
    "delusion": {"minor": -5, "major": -10, "severe": -15},
    "intolerance": {"total": -10, "one_group": -5},
    "obsession": {"short_term": -5, "long_term": -10},
    "phobia": {"blood": -10, "darkness": -15, "heights": -10, "number_13": -5, "spiders": -5},
    "sense_of_duty": {"individual": -2, "small_group": -5, "large_group": -10, "entire_race": -15,
                      "every_living_being": -20},
    "vow": {"minor": -5, "major": -10, "great": -15},
}
SPECIAL = {"magery"}
SELF_CONTROL = {"bad_temper", "bloodlust", "curious", "gluttony", "greed", "honesty", "impulsiveness",
                "lecherousness", "obsession", "overconfidence", "phobia", "truthfulness"}


def test_gurps_adv_dis_every_trait_is_covered_by_this_test():
    assert set(load_traits()) == set(FIXED) | set(PER_LEVEL) | set(OPTIONS) | SPECIAL


@pytest.mark.parametrize("ident", sorted(FIXED))
def test_gurps_adv_dis_fixed_costs(ident):
    assert trait_cost(load_traits()[ident]) == FIXED[ident]


@pytest.mark.parametrize("ident", sorted(PER_LEVEL))
def test_gurps_ch_27_per_level_costs(ident):
    defn = load_traits()[ident]
    assert trait_cost(defn, 1) == PER_LEVEL[ident]
    assert trait_cost(defn, 3) == 3 * PER_LEVEL[ident]


@pytest.mark.parametrize("ident", sorted(OPTIONS))
def test_gurps_adv_dis_option_costs(ident):
    defn = load_traits()[ident]
    for option, cost in OPTIONS[ident].items():
        assert trait_cost(defn, option=option) == cost, option


def test_gurps_dis_self_control_marks_match_the_seed_asterisks():
    assert {t.id for t in load_traits().values() if t.self_control} == SELF_CONTROL


def test_gurps_t11_acute_vision_6_and_status():
    """T-11: Acute Vision 6 -> 12; Status 5 -> 25; Status -2 -> -10."""
    assert make_trait("Acute Vision", level=6).points == 12
    assert trait_cost(find_trait("Status"), 5) == 25
    assert trait_cost(find_trait("Status"), -2) == -10


def test_gurps_trait_limits_and_names():
    with pytest.raises(RuleError):
        make_trait("Night Vision", level=10)
    with pytest.raises(RuleError):
        make_trait("Talent (Artificer)", level=5)
    with pytest.raises(RuleError):
        make_trait("Reputation", level=5)
    assert make_trait("Phobia (Spiders)").points == -5
    assert make_trait("短気").id == "bad_temper"
    assert make_trait("Intolerance", option="one_group", points=-2).points == -2
    with pytest.raises(NotFoundError, match="did you mean"):
        find_trait("Combat Reflex")
    assert trait_cost(find_trait("Magery"), 0) == 5 and trait_cost(find_trait("Magery"), 3) == 35


def test_gurps_every_trait_has_japanese_name_and_rule_id():
    for trait in load_traits().values():
        assert trait.ja and trait.rule.startswith("GURPS-") and trait.ref
