"""Every grammar feature of the dice notation and every error message (exact strings, English)."""

from __future__ import annotations

import pickle
import random

import pytest

from gamekernel.dice import DiceError, Limits, parse, roll
from gamekernel.dice.nodes import Chain, Dice, Group, Neg, Num
from gamekernel.errors import GameKernelError


def total(text: str, seed: int = 1) -> int:
    return roll(text, random.Random(seed)).total


def faces(text: str, seed: int = 1) -> list[int]:
    return [d.value for d in roll(text, random.Random(seed)).dice]


# ----- dice terms


def test_gurps_sr_01_nd_means_n_six_sided_dice():
    """GURPS-SR-01: 'Nd' means N six-sided dice; '2d' = roll 2 dice."""
    expr = parse("2d")
    assert expr.ast == Dice(2, 6, None, 1)
    result = roll("3d", random.Random(5))
    assert [d.sides for d in result.dice] == [6, 6, 6]
    assert result.total == sum(d.value for d in result.dice)


def test_gurps_sr_01_ndm_plus_k_adds_k():
    """GURPS-SR-01: "NdM+K" means roll N dice and add K ("4d+2", "3d-3")."""
    plus = roll("4d+2", random.Random(2))
    assert plus.total == sum(d.value for d in plus.dice) + 2
    minus = roll("3d-3", random.Random(2))
    assert minus.total == sum(d.value for d in minus.dice) - 3
    assert parse("1d-3").text == "1d-3"


def test_gurps_multiplier_applies_to_the_whole_roll():
    """GURPS-SR-01 damage notation: 3d-1x2 means (3d-1)×2; x sits at the level of + and -."""
    result = roll("3d-1x2", random.Random(4))
    assert result.total == (sum(d.value for d in result.dice) - 1) * 2
    assert "× 2" in result.breakdown and result.breakdown.count("(") == 1
    assert total("1+2x3") == 9
    assert total("1+2*3") == 7
    assert total("2×3") == 6 and total("2X3") == 6


def test_ds_is_one_die_and_percentile():
    assert (parse("d20").ast.count, parse("d20").ast.sides) == (1, 20)
    assert parse("d%").ast.sides == 100
    assert parse("2d%").ast.count == 2
    assert parse("d").ast.sides == 6
    assert parse("3D6").ast.sides == 6  # upper case accepted


def test_d1_and_zero_dice():
    assert total("5d1") == 5
    assert total("0d6+3") == 3


def test_roll_order_and_values_in_range():
    result = roll("10d6+1d4-2", random.Random(9))
    assert [d.sides for d in result.dice] == [6] * 10 + [4]
    assert all(1 <= d.value <= d.sides for d in result.dice)
    assert result.total == sum(d.value for d in result.dice) - 2


# ----- arithmetic


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1+2*3", 7),
        ("(1+2)*3", 9),
        ("7/2", 3),
        ("-7/2", -4),  # floor division, like Python's //
        ("7/-2", -4),
        ("2*-3", -6),
        ("--3", 3),
        ("+3", 3),
        ("10-2-3", 5),
        ("2*3/4", 1),
        ("8/2/2", 2),
        ("(((4)))", 4),
        (" 1 + 2 ", 3),
        ("1 x 2", 2),
    ],
)
def test_integer_arithmetic(text, value):
    assert total(text) == value


def test_unary_minus_negates_the_dice_total():
    result = roll("-1d6", random.Random(3))
    assert result.total == -result.dice[0].value


def test_flat_chains_do_not_nest():
    expr = parse("1+2-3+4")
    assert type(expr.ast) is Chain and len(expr.ast.rest) == 3
    assert parse("(1)").ast == Group(Num(1, 2))
    assert parse("-1").ast == Neg(Num(1, 2), 1)


# ----- modifiers


def test_keep_highest_and_lowest():
    result = roll("4d6kh3", random.Random(11))
    values = sorted(d.value for d in result.dice)
    assert result.total == sum(values[1:])
    assert sum(1 for d in result.dice if d.fate == "dropped") == 1
    low = roll("4d6kl1", random.Random(11))
    assert low.total == min(d.value for d in low.dice)


def test_drop_highest_and_lowest():
    rolled = roll("4d6dh1", random.Random(12))
    values = sorted(d.value for d in rolled.dice)
    assert rolled.total == sum(values[:3])
    rolled = roll("4d6dl1", random.Random(12))
    values = sorted(d.value for d in rolled.dice)
    assert rolled.total == sum(values[1:])


def test_keep_defaults_to_one_and_k_means_kh():
    a = roll("3d6kh", random.Random(3))
    assert a.total == max(d.value for d in a.dice)
    b = roll("3d6k2", random.Random(3))
    assert b.total == sum(sorted(d.value for d in b.dice)[1:])


def test_keep_more_than_rolled_keeps_all():
    result = roll("2d6kh5", random.Random(1))
    assert all(d.kept for d in result.dice)


def test_dropped_die_is_marked_and_struck_in_breakdown():
    for seed in range(20):
        result = roll("4d6kh3", random.Random(seed))
        dropped = [d for d in result.dice if d.fate == "dropped"]
        assert len(dropped) == 1
        assert f"~~{dropped[0].value}~~" in result.breakdown


def test_explode_adds_dice_on_max_face():
    seen = False
    for seed in range(200):
        result = roll("1d6!", random.Random(seed))
        dice = result.dice
        for die in dice[:-1]:
            assert die.fate == "exploded" and die.value == 6
        assert dice[-1].fate == "kept"
        assert result.total == sum(d.value for d in dice)
        seen = seen or len(dice) > 1
    assert seen


def test_explode_condition_and_cap():
    """`!>4` explodes on 5 and 6; explosions stop after explode_depth extra dice."""
    for seed in range(50):
        result = roll("3d6!>4", random.Random(seed))
        for die in result.dice:
            assert (die.fate == "exploded") == (die.value >= 5) or die is result.dice[-1]
    capped = roll("1d2!", random.Random(0), Limits(explode_depth=0))
    assert len(capped.dice) == 1
    for seed in range(100):
        assert len(roll("1d2!", random.Random(seed), Limits(explode_depth=3)).dice) <= 4


def test_reroll_until_and_once():
    for seed in range(100):
        result = roll("2d6r1", random.Random(seed))
        counted = [d for d in result.dice if d.kept]
        assert len(counted) == 2 and all(d.value != 1 for d in counted)
        assert all(d.value == 1 for d in result.dice if d.fate == "rerolled")
    once_seen_low = False
    for seed in range(300):
        result = roll("1d6ro<3", random.Random(seed))
        assert len(result.dice) <= 2
        if len(result.dice) == 2:
            assert result.dice[0].fate == "rerolled" and result.dice[0].value < 3
            once_seen_low = once_seen_low or result.dice[1].value < 3
    assert once_seen_low  # reroll once keeps a second low roll


def test_clamps():
    for seed in range(60):
        result = roll("3d6mi2ma5", random.Random(seed))
        for die in result.dice:
            assert 2 <= die.value <= 5
            if die.fate == "clamped":
                assert die.face != die.value
                assert f"{die.face}→{die.value}" in result.breakdown


def test_modifiers_combine_in_fixed_order():
    for seed in range(50):
        result = roll("4d6r1!mi2kh3", random.Random(seed))
        assert result.total == sum(d.value for d in result.dice if d.kept)


# ----- comparisons


@pytest.mark.parametrize(
    ("text", "success", "margin"),
    [
        ("10<=12", True, 2),
        ("13<=12", False, -1),
        ("15>=15", True, 0),
        ("14>=15", False, -1),
        ("3<4", True, 1),
        ("4<4", False, 0),
        ("5>4", True, 1),
        ("4=4", True, 0),
        ("4==6", False, -2),
        ("6 = 4", False, -2),
    ],
)
def test_comparison_success_and_margin(text, success, margin):
    result = roll(text, random.Random(1))
    assert (result.success, result.margin) == (success, margin)
    assert result.comparison[0] in {"<=", ">=", "<", ">", "="}


def test_comparison_with_dice_on_both_sides():
    result = roll("1d20+5 >= 1d20", random.Random(3))
    target = result.comparison[1]
    assert [d.sides for d in result.dice] == [20, 20]
    assert target == result.dice[1].value
    assert result.success == (result.total >= target)


def test_comparison_text_is_spaced_so_it_reads_back():
    expr = parse("2d6! >= 8")
    assert expr.text == "2d6! >= 8"
    assert parse(expr.text) == expr
    assert parse("3d6<=12").text == "3d6 <= 12"


def test_full_width_comparison_symbols():
    assert parse("3d6≤12").comparison[0] == "<="
    assert parse("1d20≥15").comparison[0] == ">="


# ----- labels


@pytest.mark.parametrize(
    ("text", "expr_text", "label"),
    [
        ("3d+2 cutting", "3d+2", "cutting"),
        ("1d20+5 to hit the orc", "1d20+5", "to hit the orc"),
        ("3d6 x-ray", "3d6", "x-ray"),  # x not followed by an operand: a label (d20's bug)
        ("3d6 xylophone", "3d6", "xylophone"),
        ("3d6 x2 fire", "3d6x2", "fire"),  # x followed by an operand: multiplication
        ("3d6 x (1+1) fire", "3d6x(1+1)", "fire"),
        ("4d6 kh3", "4d6", "kh3"),  # modifiers must touch their dice
        ("4d6 khopesh", "4d6", "khopesh"),
        ('3d6 "d20 style"', "3d6", "d20 style"),  # quoted: dice in a label (unquoted, refused below)
        ("3d6 <= 12 stealth", "3d6 <= 12", "stealth"),
        ('3d "6"', "3d", "6"),
        ('3d6 "to hit -2"', "3d6", "to hit -2"),
        ("1d20 to hit 2 orcs", "1d20", "to hit 2 orcs"),  # a number after the first word, unsigned: a label
        ("1d6   many   spaces  ", "1d6", "many   spaces"),
        ("3d6 (fire)", "3d6", "(fire)"),
        ("2d6 鍵開け", "2d6", "鍵開け"),
    ],
)
def test_trailing_label(text, expr_text, label):
    expr = parse(text)
    assert (expr.text, expr.label) == (expr_text, label)


@pytest.mark.parametrize(
    ("text", "word", "column", "suggestion"),
    [
        ("3d6 to hit -2", "-2", 12, "3d6-2 to hit"),
        ("3 d6", "d6", 3, "3d6"),
        ("3d 6", "6", 4, "3d6"),
        ("3d6 2", "2", 5, "3d6+2"),
        ("3d6 d20 style", "d20", 5, "3d6+d20 style"),
        ("1d20+5 >= 15 hit +1", "+1", 18, "1d20+5+1 >= 15 hit"),
        ("３ｄ６ 攻撃 −２", "-2", 8, "3d6-2 攻撃"),  # U+2212, full width: read as ASCII, the column as typed
    ],
)
def test_dice_words_in_a_label_are_refused_with_the_likely_roll(text, word, column, suggestion):
    """DICE notation: a label that starts with dice or a number, or holds a signed number, was most
    likely meant as part of the roll: never rolled as something else; one line with the likely roll."""
    with pytest.raises(DiceError) as caught:
        parse(text)
    message = str(caught.value)
    assert f"'{word}' at column {column}" in message and f"did you mean {suggestion}?" in message, message
    assert caught.value.column == column and "\n" not in message


def test_label_shows_in_str_and_dict():
    result = roll("3d+2 sword", random.Random(1))
    assert str(result).startswith("sword: 3d+2 → [")
    assert result.to_dict()["label"] == "sword"


def test_full_width_input_is_normalised():
    expr = parse("３ｄ＋２　斬り")
    assert (expr.text, expr.label) == ("3d+2", "斬り")
    assert roll("４ｄ６ｋｈ３", random.Random(2)).total == roll("4d6kh3", random.Random(2)).total
    assert parse("１ｄ６−１").text == "1d6-1"  # U+2212 minus sign
    assert total("６÷２") == 3


# ----- errors: exact messages, columns, expected


@pytest.mark.parametrize(
    ("text", "message", "column", "expected"),
    [
        ("3d+", "expected a number after '+' at column 4", 4, "a number"),
        ("", "expected a dice expression at column 1", 1, "a dice expression"),
        ("   ", "expected a dice expression at column 4", 4, "a dice expression"),
        ("3d6 + fire", "expected a number after '+' at column 7", 7, "a number"),
        ("3d+2cut", "expected an operator or the end (put a space before a label) at column 5, found 'c'",
         5, "an operator or the end (put a space before a label)"),
        ("(1+2", "expected ')' at column 5", 5, "')'"),
        ("(1+2 x", "expected ')' at column 6, found 'x'", 6, "')'"),
        ("2*", "expected a number after '*' at column 3", 3, "a number"),
        ("3d6<=", "expected a number after '<=' at column 6", 6, "a number"),
        ("1d6r", "expected a number after 'r' at column 5", 5, "a number"),
        ("1d6ro<", "expected a number after 'ro<' at column 7", 7, "a number"),
        ("1d6mi", "expected a number after 'mi' at column 6", 6, "a number"),
        ("1d6!>", "expected a number after '!>' at column 6", 6, "a number"),
        ("1d0", "a die needs at least 1 side at column 3", 3, "a die size of at least 1"),
        ("1d2000000", "die size 2000000 at column 3 is too large: the limit is 1000000", 3,
         "a die size of at most 1000000"),
        ("1000000d6", "too many dice at column 1: 1000000 dice, the limit is 10000", 1, "at most 10000 dice"),
        ("6000d6+6000d6", "too many dice at column 8: 12000 dice, the limit is 10000", 8, "at most 10000 dice"),
        ("4d6kh3kl1", "modifier 'kl' repeated at column 7: each kind of modifier may appear once per dice group",
         7, "one modifier of each kind"),
        ("1d1!", "'!' at column 4 matches every face of a d1 and would never stop", 4,
         "a condition matching some but not all faces of a d1"),
        ("1d6r<7", "'r' at column 4 matches every face of a d6 and would never stop", 4,
         "a condition matching some but not all faces of a d6"),
        ("1d6r7", "the condition of 'r' at column 4 never matches a d6", 4,
         "a condition matching some but not all faces of a d6"),
        ("2d6!>=8", "the condition of '!' at column 4 never matches a d6 "
         "(to compare the total, put a space before the comparison)", 4,
         "a condition matching some but not all faces of a d6"),
        ("1/0", "division by zero at column 2", 2, "a divisor that is not zero"),
        ("3d6x-", "expected a number after '-' at column 6", 6, "a number"),
        ("1<2<3", "expected an operator or the end (put a space before a label) at column 4, found '<'",
         4, "an operator or the end (put a space before a label)"),
        ("３ｄ＋", "expected a number after '+' at column 4", 4, "a number"),
        ("ｄ０", "a die needs at least 1 side at column 2", 2, "a die size of at least 1"),
    ],
)
def test_error_messages(text, message, column, expected):
    with pytest.raises(DiceError) as caught:
        roll(text, random.Random(1))
    error = caught.value
    assert str(error) == message
    assert (error.column, error.expected, error.text) == (column, expected, text)
    assert isinstance(error, GameKernelError)
    assert "\n" not in str(error)


def test_nesting_and_length_messages():
    with pytest.raises(DiceError, match=r"^nesting too deep at column 51: the limit is 50 levels$"):
        parse("(" * 60 + "1" + ")" * 60)
    with pytest.raises(DiceError, match=r"^nesting too deep at column 51: the limit is 50 levels$"):
        parse("-" * 60 + "1")
    with pytest.raises(DiceError, match=r"^input too long at column 1001: 1001 characters, the limit is 1000$"):
        parse("1" * 1001)
    assert parse("(" * 50 + "1" + ")" * 50).ast is not None


def test_division_by_zero_leaves_rng_untouched():
    rng = random.Random(5)
    state = rng.getstate()
    with pytest.raises(DiceError):
        roll("3d6/(1d6-1d6)*0+1/0", rng)
    assert rng.getstate() == state


def test_errors_in_japanese():
    from gamekernel import i18n

    i18n.set_language("ja")
    with pytest.raises(DiceError) as caught:
        parse("3d+")
    assert str(caught.value) == "4文字目: '+' の後には数が必要です"
    assert caught.value.column == 4


def test_dice_error_pickles():
    try:
        parse("3d+")
    except DiceError as error:
        copy = pickle.loads(pickle.dumps(error))
        assert (str(copy), copy.column, copy.expected) == (str(error), 4, "a number")


def test_non_string_input_is_a_type_error():
    with pytest.raises(TypeError):
        parse(3)  # type: ignore[arg-type]


# ----- results


def test_breakdown_str_and_repr():
    result = roll("3d6+2 sword", random.Random(7))
    values = [d.value for d in result.dice]
    assert result.breakdown == f"3d6+2 = [{', '.join(map(str, values))}] + 2 = {result.total}"
    assert str(result) == f"sword: 3d6+2 → [{','.join(map(str, values))}]+2 = {result.total}"
    assert repr(result) == str(result)


def test_comparison_breakdown():
    result = roll("3d6<=12", random.Random(7))
    word = "success" if result.success else "failure"
    assert result.breakdown.endswith(f"= {result.total} <= 12: {word} (margin {result.margin:+d})")


def test_result_is_immutable_and_round_trips():
    result = roll("4d6r1!mi2kh3+1d4 >= 10 fire", random.Random(3))
    with pytest.raises(AttributeError):
        result.total = 3  # type: ignore[misc]
    data = result.to_dict()
    again = type(result).from_dict(data)
    assert again == result
    assert again.to_dict() == data
    assert again.breakdown == result.breakdown
    assert data["breakdown"] == result.breakdown
    import json

    assert json.loads(json.dumps(data)) == data


def test_same_seed_same_result():
    a = roll("10d6+1d20!kh1-2 >= 3", random.Random(42))
    b = roll("10d6+1d20!kh1-2 >= 3", random.Random(42))
    assert a == b and a.to_dict() == b.to_dict()


def test_parsed_expression_can_be_rolled_again():
    expr = parse("2d6+1 bash")
    rng = random.Random(1)
    results = [roll(expr, rng) for _ in range(5)]
    assert all(r.label == "bash" and 3 <= r.total <= 13 for r in results)
    with pytest.raises(DiceError, match="too many dice"):
        roll(parse("20d6"), rng, Limits(max_dice=10))


def test_die_roll_fates():
    from gamekernel.dice import DieRoll

    assert DieRoll(6, 4).kept and DieRoll(6, 6, "exploded").kept and DieRoll(6, 2, "clamped", 1).kept
    assert not DieRoll(6, 1, "dropped").kept and not DieRoll(6, 1, "rerolled").kept


def test_roll_html_is_escaped_and_marks_fates():
    result = roll("4d6kh3 fire <b>&", random.Random(1))
    html = result._repr_html_()
    assert "&lt;b&gt;&amp;" in html and "<b>&" not in html
    assert "gk-die-dropped" in html and "line-through" in html
    assert 'class="gk gk-roll"' in html
    assert result._repr_html_() == html  # deterministic


def test_many_dice_are_capped_in_display_but_not_in_breakdown():
    result = roll("300d6", random.Random(1))
    assert "… 100 more" in str(result)
    assert result.breakdown.count(",") == 299
    assert "… 100 more" in result._repr_html_()
