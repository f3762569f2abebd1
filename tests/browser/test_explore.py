"""The odds explorers in a real JupyterLab + Chromium (a teaching feature): moving each explorer's controls
changes the figures shown, and every figure checked is the exact distribution (GURPS-SR-02..08,
SR-10, SR-12; MTG-CHK-05..13; GW-ALPHA-10, 13, 14)."""

from fractions import Fraction

import pytest

from gamekernel.gammaworld.rules.odds import p_flux
from gamekernel.gurps.explore import expected_regular_rounds
from gamekernel.gurps.rules.odds import check_odds, quick_contest_odds
from gamekernel.mtg.explore import boosted_odds
from gamekernel.mtg.rules.facts import bundled_facts
from gamekernel.mtg.rules.odds import check_odds as mtg_check_odds

pytestmark = pytest.mark.browser

DECK = "Deck\\n4 Elvish Mystic\\n4 Runeclaw Bear\\n12 Forest\\n4 Steam Vents\\n4 Ornithopter\\n"


def frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def move(page, selector: str, value) -> None:
    """Set a slider or number box the way a user's drag ends: a value, then a change event."""
    page.locator(selector).first.evaluate(
        "(input, value) => { input.value = String(value); input.dispatchEvent(new Event('input'));"
        " input.dispatchEvent(new Event('change')); }", value)


def marked_cell(page, table: str, head: str):
    row = page.locator(f'.gk-explore .gk-x-table[data-id="{table}"] tr.gk-x-mark[data-head="{head}"]').first
    row.wait_for()
    return row.locator("td").first


def test_check_explorer_slider_and_toggle_move_the_exact_point(lab):
    page = lab.open("explore_check.ipynb", [
        "%load_ext gamekernel",
        "%char new Aiko iq=12\n%char skill Lockpicking 4",
        "%explore check Lockpicking @Aiko",
    ])
    cell = marked_cell(page, "curve", "13")
    assert cell.get_attribute("title") == frac(check_odds(13).success)
    move(page, '.gk-explore .gk-x-control[data-name="modifier"] input', -3)
    cell = marked_cell(page, "curve", "10")
    assert cell.get_attribute("title") == frac(check_odds(10).success) == "1/2"
    page.locator('.gk-explore .gk-x-control[data-name="explore.situation.dark"] input').first.check()
    cell = marked_cell(page, "curve", "5")
    assert cell.get_attribute("title") == frac(check_odds(5).success)
    row = page.locator('.gk-explore tr.gk-x-mark[data-head="5"] td')
    assert row.nth(2).get_attribute("title") == frac(check_odds(5).critical_failure)
    page.locator(".gk-explore .gk-x-summary", has_text="effective 5").first.wait_for()
    lab.screenshot(page, "explore-check.png")
    lab.close_page(page)


def test_contest_explorer_heat_map_follows_both_skills(lab):
    page = lab.open("explore_contest.ipynb", ["%load_ext gamekernel", "%explore contest 14 vs 12"])
    current = page.locator('.gk-explore .gk-x-table[data-id="quick"] td.gk-x-current').first
    current.wait_for()
    odds = quick_contest_odds(14, 12)
    expected = f"A wins {frac(odds.a_wins)} · B wins {frac(odds.b_wins)} · tie {frac(odds.tie)}"
    assert current.get_attribute("title") == expected
    move(page, '.gk-explore .gk-x-control[data-name="a"] input', 10)
    page.locator(".gk-explore .gk-x-summary", has_text="10 vs 12").first.wait_for()
    odds = quick_contest_odds(10, 12)
    current = page.locator('.gk-explore .gk-x-table[data-id="quick"] td.gk-x-current').first
    assert current.get_attribute("title").startswith(f"A wins {frac(odds.a_wins)} ")
    rounds = page.locator('.gk-explore .gk-x-table[data-id="regular"] td.gk-x-current').first
    assert rounds.get_attribute("title") == frac(expected_regular_rounds(10, 12))
    lab.close_page(page)


def test_library_explorer_follows_the_edited_composition(lab):
    page = lab.open("explore_library.ipynb", [
        "%load_ext gamekernel",
        "%seed 7",
        f"open('mira.txt', 'w').write('{DECK}')",
        "%library load Mira mira.txt",
        "%explore library @Mira",
    ])
    page.locator(".gk-explore .gk-x-summary", has_text="28 cards").first.wait_for()
    move(page, '.gk-explore .gk-x-control[data-name="Ornithopter"] input', 10)
    page.locator(".gk-explore .gk-x-summary", has_text="34 cards").first.wait_for()
    facts = bundled_facts()
    library = ([facts.lookup("Elvish Mystic")] * 4 + [facts.lookup("Runeclaw Bear")] * 4
               + [facts.lookup("Forest")] * 12 + [facts.lookup("Steam Vents")] * 4 + [facts.lookup("Ornithopter")] * 10)
    red = page.locator('.gk-explore .gk-x-table[data-id="library"] tr').nth(4)  # header, white, blue, black, red
    cell = red.locator("td").nth(3)  # difficulty 3
    plain, boost = mtg_check_odds(library, "red", 3), boosted_odds(library, "red", 3)
    assert cell.get_attribute("title") == f"without boost {frac(plain)} · with boost {frac(boost)}"
    lab.close_page(page)


def test_alpha_explorer_flux_over_rolls_and_overcharge_by_bonus(lab):
    page = lab.open("explore_alpha.ipynb", [
        "%load_ext gamekernel",
        "%deck gm\n%gw new Rin level 4 bonus +2",
        "%explore alpha @Rin",
    ])
    assert marked_cell(page, "overcharge", "+2").get_attribute("title") == "13/20"
    move(page, '.gk-explore .gk-x-control[data-name="rolls"] input', 5)
    assert marked_cell(page, "flux", "5").get_attribute("title") == frac(p_flux(5))
    move(page, '.gk-explore .gk-x-control[data-name="bonus"] input', 5)
    assert marked_cell(page, "overcharge", "+5").get_attribute("title") == "4/5"
    lab.close_page(page)
