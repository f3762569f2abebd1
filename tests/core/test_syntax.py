"""The one declaration mechanism of magics (gamekernel/syntax.py): parsing, usage, help, errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekernel import i18n
from gamekernel.errors import UsageError
from gamekernel.syntax import COMMANDS, Flag, Integer, Opt, Rest, Sub, Syntax, Word, Words, command, tokenize

ROLL = Syntax("t_roll", (Rest("expression", metavar="DICE"),), actor="who",
              options=(Flag("secret"), Opt("rounds", kind=int, metavar="N", default=20), Opt("npc")))
CAMPAIGN = Syntax("t_campaign", subs=(Sub("open", Words("folder")), Sub("status"),
                                      Sub("close", aliases=("閉じる",))))


def _error(syntax: Syntax, line: str) -> str:
    with pytest.raises(UsageError) as error:
        syntax.parse(line)
    return str(error.value)


def test_options_take_a_value_with_a_space_or_an_equals_sign():
    for line in ("3d6 --rounds 3 --npc Guard", "3d6 --rounds=3 --npc=Guard", '3d6 --npc="Guard" --rounds=3'):
        args = ROLL.parse(line)
        assert (args.expression, args.rounds, args.npc, args.secret) == ("3d6", 3, "Guard", False), line
    args = ROLL.parse('--npc "Old Guard" 3d6 + 2 sword --secret')
    assert (args.expression, args.npc, args.secret, args.rounds) == ("3d6 + 2 sword", "Old Guard", True, 20)


def test_actor_plain_or_quoted_and_full_width():
    assert ROLL.parse("3d6 @Aiko").actor == "Aiko"
    assert ROLL.parse('3d6 @"Big Bob" label').actor == "Big Bob"
    assert ROLL.parse("3d6 @'Big Bob'").expression == "3d6"
    args = ROLL.parse("３ｄ６ ＠Aiko －－secret")
    assert (args.expression, args.actor, args.secret) == ("3d6", "Aiko", True)


def test_a_command_without_an_actor_keeps_at_words_as_words():
    note = Syntax("t_note", (Rest("text"),), verbatim=True)
    assert note.parse("meet @Bren at noon").text == "meet @Bren at noon"
    assert note.parse("ＡＢＣ").text == "ＡＢＣ"  # verbatim: the user's words, not NFKC'd


def test_columns_are_recorded_for_later_parsers():
    args = ROLL.parse("@Aiko  Lockpicking-5 --secret")
    assert args.column("actor") == 1 and args.column("expression") == 8 and args.column("secret") == 22


def test_subcommands_aliases_and_their_positionals():
    assert CAMPAIGN.parse("open my camp").folder == ["my", "camp"]
    assert CAMPAIGN.parse('OPEN "my camp"').folder == ["my camp"]
    assert CAMPAIGN.parse("閉じる").sub == "close"
    assert CAMPAIGN.parse("status").sub == "status"


def test_errors_say_what_and_where():
    assert _error(ROLL, "3d6 --loud") == "unknown option --loud at column 5 (known: --secret, --rounds, --npc)"
    assert _error(ROLL, "3d6 --secret=yes") == "--secret takes no value (column 5)"
    assert _error(ROLL, "3d6 --rounds") == "--rounds needs a value: --rounds=N (column 5)"
    assert _error(ROLL, "3d6 --rounds=x") == "--rounds needs a whole number, got 'x' at column 5"
    assert _error(ROLL, "3d6 @") == "a name must follow @ at column 5 (usage: %t_roll DICE... [@Name] " \
        "[--secret] [--rounds=N] [--npc=VALUE])"
    assert _error(ROLL, "3d6 @A @B") == "more than one @actor in the line (at columns 5 and 8)"
    assert _error(ROLL, '3d6 "open') == "unclosed quote at column 5"
    assert _error(CAMPAIGN, "dance") == ("unknown subcommand 'dance' at column 1 "
                                         "(usage: %t_campaign open FOLDER... | status | close)")
    assert _error(CAMPAIGN, "") == "usage: %t_campaign open FOLDER... | status | close"
    assert _error(CAMPAIGN, "open") == "FOLDER is missing (usage: %t_campaign open FOLDER... | status | close)"
    assert _error(CAMPAIGN, "status x") == ("unexpected 'x' at column 8 "
                                            "(usage: %t_campaign open FOLDER... | status | close)")
    count = Syntax("t_undo", (Integer("n", optional=True, default=1),))
    assert count.parse("").n == 1 and count.parse("3").n == 3 and count.parse("-2").n == -2
    assert _error(count, "x") == "N must be a whole number, got 'x' at column 1"
    assert _error(count, "1-2") == "N must be a whole number, got '1-2' at column 1"


def test_errors_in_japanese():
    try:
        i18n.set_language("ja")
        assert _error(ROLL, "3d6 --loud").startswith("5 文字目の --loud は知らないオプションです")
        assert _error(CAMPAIGN, "open") == "FOLDER が足りません（使い方: %t_campaign open FOLDER... | status | close）"
    finally:
        i18n.set_language("en")


def test_usage_and_help_come_from_the_declaration():
    syntax = Syntax("t_log", (Word("n", "how many", optional=True, metavar="N"),),
                    subs=(Sub("export", Word("file", "FILE.md"), help="write it"),),
                    options=(Flag("gm", "secrets too"),))
    assert syntax.usage() == "%t_log export FILE | [N] [--gm]"
    doc = syntax.help("The log.")
    assert doc.startswith("::\n\n  %t_log export FILE | [N] [--gm]\n\nThe log.\n")
    assert "export FILE" in doc and "write it" in doc and "FILE.md" in doc and "--gm" in doc and "secrets too" in doc


@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Zs", "Cc"),
                                                blacklist_characters="\"'"), min_size=1), max_size=6))
def test_tokenize_keeps_every_word_and_its_column(words):
    line = "  ".join(words)
    tokens = tokenize(line)
    assert [token.raw for token in tokens] == [w for w in line.split()]
    for token in tokens:
        assert line[token.column - 1:].startswith(token.raw)


def _reference_tokenize(text):
    """The character-by-character scanner the regular expression replaced (for speed): the oracle;
    an apostrophe after a letter or digit is part of the word, never a quote that opens."""
    tokens, index, length = [], 0, len(text)
    while index < length:
        if text[index].isspace():
            index += 1
            continue
        start = index
        while index < length and not text[index].isspace():
            if text[index] == "'" and index and (text[index - 1].isalnum() or text[index - 1] == "_"):
                index += 1  # an apostrophe after a letter or digit (Aiko's) is part of the word
            elif text[index] in "\"'":
                close = text.find(text[index], index + 1)
                if close < 0:
                    return ("unclosed", index + 1)
                index = close + 1
            else:
                index += 1
        tokens.append((text[start:index], start + 1))
    return tokens


@given(st.text(alphabet=st.sampled_from(list("ab1 '\"\t\u3000\u00a0\u2028@-=")), max_size=24))
def test_tokenize_splits_as_the_character_scanner_did(line):
    expected = _reference_tokenize(line)
    if isinstance(expected, tuple):
        with pytest.raises(UsageError, match=f"column {expected[1]}\\b"):
            tokenize(line)
    else:
        assert [(token.raw, token.column) for token in tokenize(line)] == expected


def test_a_name_the_line_did_not_set_is_refused_naming_the_values():
    """`Args.__getattr__` (typed Any for the type checker) still refuses what the line lacks."""
    args = command("probe_getattr", Word("name", "who"))(lambda self, a: a)(None, "Rin")
    try:
        assert args.name == "Rin" and getattr(args, "fooo", "absent") == "absent"
        with pytest.raises(AttributeError, match=r"no value 'fooo' \(values: name\)"):
            _ = args.fooo
    finally:
        COMMANDS.pop("probe_getattr", None)


def test_a_plain_line_and_its_options_and_actor_are_read():
    args = ROLL.parse("  3d+2   sword ")
    assert (args.expression, args.column("expression"), args.secret, args.rounds, args.actor) == (
        "3d+2 sword", 3, False, 20, None)
    assert ROLL.parse("3d+2 --secret").secret is True  # an option: read word by word
    assert ROLL.parse("3d+2 @Rin").actor == "Rin"
