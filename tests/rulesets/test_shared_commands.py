"""The shared commands (`%check`, `%rest`) go by the actor's rule set first; only a line that names
no character any rule set holds is decided by its words. Each rule set declares its own flags and the
help of its words (`RuleSet.check_form`, `.rest_form`), the shared declaration is their union, and a
flag of another rule set is refused by the rule set the line goes to (GURPS-SR-01, MTG-CHK-01,
GW-ALPHA-11)."""

from __future__ import annotations

import pytest

import gamekernel.magics  # noqa: F401  (declares the shared commands)
from gamekernel.rulesets import Form, LineHandler, RuleSet, rule_set_for, rule_sets
from gamekernel.syntax import COMMANDS

DECK = "4 Elvish Mystic\n4 Runeclaw Bear\n12 Forest\n4 Steam Vents\n4 Ornithopter\n"


@pytest.fixture
def deck(tmp_path):
    path = tmp_path / "mira.txt"
    path.write_text(DECK, encoding="utf-8")
    return path


def test_the_actor_decides_before_the_words():
    # words alone: a colour is MtG's check, anything else GURPS's; a duration is GURPS rest
    assert rule_set_for("check", "green 2").name == "mtg"
    assert rule_set_for("check", "Stealth-2").name == "gurps"
    assert rule_set_for("rest", ["Bren", "30min"]).name == "gurps"
    assert rule_set_for("rest", ["Rin"]).name == "gammaworld"
    # an actor MtG holds: MtG's check whatever the words (GURPS is never asked)
    assert rule_set_for("check", "Stealth-2", {"mtg"}).name == "mtg"
    # an actor GURPS holds: GURPS's, even for words that name a colour
    assert rule_set_for("check", "green 2", {"gurps"}).name == "gurps"
    # held by both: the words decide among the holders
    assert rule_set_for("check", "green 2", {"gurps", "mtg"}).name == "mtg"
    assert rule_set_for("check", "Stealth", {"gurps", "mtg"}).name == "gurps"
    # a Gamma World mutant rests Gamma World's way even with a duration in the line
    assert rule_set_for("rest", ["8h"], {"gammaworld"}).name == "gammaworld"
    # held by a rule set that does not take part in the command: the words decide among all
    assert rule_set_for("rest", ["Bren", "30min"], {"mtg"}).name == "gurps"


def test_the_shared_declaration_is_the_union_of_the_rule_sets_forms():
    check, rest = COMMANDS["check"], COMMANDS["rest"]
    assert [o.name for o in check.options] == ["secret", "boost-if-needed", "explain"]
    assert [o.name for o in rest.options] == ["no-draw"]
    assert check.args[0].help.startswith("GURPS: Lockpicking-5") and "MtG: green 2" in check.args[0].help
    assert "Gamma World: names" in rest.args[0].help
    assert check.group == ("gurps", "mtg") and rest.group == ("combat", "gammaworld")
    for declared in rule_sets():  # every flag is a rule set's own: none is declared by the core
        for name, text in declared.check_form.flags + declared.rest_form.flags:
            assert name and text


def test_a_character_s_rule_set_takes_the_check(ip, deck):
    ip.run_line_magic("library", f"load Mira {deck}")
    ip.run_line_magic("char", "new Aiko dx=12 iq=13")
    # Mira is an MtG player: her check is MtG's, so non-colour words get MtG's error, not GURPS's
    assert repr(ip.run_line_magic("check", "Stealth @Mira")).startswith("error: unknown check colour 'Stealth'")
    # Aiko is a GURPS character: a GURPS roll against her IQ
    assert "IQ" in repr(ip.run_line_magic("check", "IQ @Aiko"))
    # the flag of the other rule set is refused by the one the line goes to, naming its own
    assert repr(ip.run_line_magic("check", "IQ @Aiko --boost-if-needed")) == (
        "error: unknown option --boost-if-needed at column 10 (known: --secret)")
    assert repr(ip.run_line_magic("check", "green 2 @Mira --secret")) == (
        "error: unknown option --secret at column 15 (known: --boost-if-needed)")


def test_a_named_nobody_falls_back_to_the_words(ip):
    assert repr(ip.run_line_magic("check", "Stealth @Nobody")) == (
        "error: no character 'Nobody'; create one with %char new NAME")


def test_a_mutant_rests_by_gamma_world_rules(ip):
    ip.run_line_magic("deck", "new Rin alpha")
    for card in ("Gravity Knot", "Thought Needle", "Heavy Knuckle", "Ember Thought"):
        ip.run_line_magic("deck", f'add Rin "{card}" x2')
    ip.run_line_magic("gw", "Rin level 4 bonus +2")
    ip.run_line_magic("draw", "alpha @Rin")
    rested = repr(ip.run_line_magic("rest", "@Rin"))
    assert "Rin" in rested and not rested.startswith("error")


def test_a_rule_set_s_form_is_data_read_without_importing_it():
    probe = RuleSet(name="probe", package=__name__, groups=("probe",),
                    check=lambda: LineHandler(run=lambda session, args: None),
                    check_form=Form("Probe: anything", (("loud", "Probe: shout it"),), group="extra"))
    assert probe.form("check").flags == (("loud", "Probe: shout it"),)
    assert probe.form("rest") == Form() and probe.takes_part("check") and not probe.takes_part("rest")


def test_mtg_chk_02_a_misspelt_colour_names_the_colour_not_the_character(ip, tmp_path):
    """`%check grene 2 @Mira` for Mira's library: the colour that was meant, one line, nothing recorded."""
    from gamekernel.magics import current_session

    deck = tmp_path / "mira.txt"
    deck.write_text("20 Forest\n20 Llanowar Elves\n", encoding="utf-8")
    ip.run_line_magic("library", f"load Mira {deck}")
    before = len(current_session().log)
    text = repr(ip.run_line_magic("check", "grene 2 @Mira"))
    assert text.startswith("error: unknown check colour 'grene': did you mean green?") and "\n" not in text, text
    assert len(current_session().log) == before


def test_odds_contest_is_a_rule_set_s_own_form(ip, monkeypatch):
    """`%odds contest` is answered by a rule set's `%check` handler (`LineHandler.contest`): GURPS's
    Quick Contest (GURPS-SR-10), read from its declaration; without one, a one-line refusal."""
    from gamekernel import rulesets
    from gamekernel.gurps.rules.odds import quick_contest_odds

    shown = ip.run_line_magic("odds", "contest 14 vs 12")
    assert rulesets.contest_odds() is rulesets._handlers("check")["gurps"].contest
    assert shown == quick_contest_odds(14, 12)
    handlers = {name: LineHandler(run=h.run, claims=h.claims, odds=h.odds)
                for name, h in rulesets._handlers("check").items()}
    monkeypatch.setattr(rulesets, "_handlers", lambda command: handlers)
    assert rulesets.contest_odds() is None
    refused = ip.run_line_magic("odds", "contest 14 vs 12")
    assert str(refused) == "error: no rule set answers %odds contest 14 vs 12"
