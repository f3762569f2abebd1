"""`%char skill` / `%char trait` show what changed and a short status, not the whole sheet (GURPS-CH-*:
the sheet is one %sheet away); the result still answers like the character."""

from __future__ import annotations


def test_a_skill_shows_the_change_and_the_sheet_command_not_the_sheet(ip):
    ip.run_line_magic("char", "new Aiko dx=12")
    whole = ip.run_line_magic("char", "use Aiko")._repr_html_()
    result = ip.run_line_magic("char", "skill Broadsword 4")
    text = str(result)
    assert text.splitlines()[0] == "Aiko: skill Broadsword 4 pts → 13"
    assert "%sheet Aiko shows the whole sheet" in text and len(text.splitlines()) == 3
    assert len(result._repr_html_()) < len(whole) / 2
    assert result.skill_level("Broadsword").level == 13  # DX 12, Average, 4 points = DX+1 (GURPS-STD-01)


def test_a_trait_shows_the_change(ip):
    ip.run_line_magic("char", "new Aiko dx=12")
    text = str(ip.run_line_magic("char", "trait Combat Reflexes"))
    assert text.startswith("Aiko: trait Combat Reflexes added") and "%sheet Aiko" in text
