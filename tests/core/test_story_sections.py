"""The players' story: a Gamma World draw outside an encounter never sits under a fight's heading,
a pending Alpha Flux is told in words (no command to type), and an MtG line names its character."""

from __future__ import annotations

from gamekernel import Session, i18n
from gamekernel.render.story import tell


def _blocks(s: Session) -> list[tuple[str, str]]:
    return [(b.kind, b.text) for b in tell(s.log).blocks]


def test_a_draw_outside_the_encounter_is_not_under_the_fight_heading():  # GW-ALPHA-07
    s = Session(seed=7)
    s.gurps.char_new("Aiko", dx=12)
    s.combat.start("Aiko Goblin{ST=9}")
    s.gw.character("Rin", level=1, new=True)
    s.gw.draw("Rin")
    blocks = _blocks(s)
    draw = next(i for i, (kind, text) in enumerate(blocks) if "draws" in text)
    heading = next(text for kind, text in reversed(blocks[:draw]) if kind == "heading")
    assert heading == "Meanwhile", blocks


def test_a_pending_flux_is_told_without_its_command(ip):  # GW-ALPHA-10
    from gamekernel.magics import current_session

    for line in ("gw new Rin", "encounter start", "draw alpha @Rin"):
        ip.run_line_magic(*line.split(" ", 1))
    s = current_session()
    for _ in range(200):  # roll until a natural 1 triggers the flux
        ip.run_line_magic("roll", "1d20 @Rin")
        if any(e.kind == "gw.flux_pending" for e in s.log):
            break
    assert any(e.kind == "gw.flux_pending" for e in s.log)
    texts = [text for _, text in _blocks(s)]
    assert any("Rin rolled a natural 1: an Alpha Flux" in text for text in texts), texts
    assert not any("%flux" in text for text in texts)


def test_an_mtg_check_line_names_the_character():  # MTG-CHK-01
    s = Session(seed=7)
    s.mtg.library_load("Mira", "mira.txt", text="20 Forest\n20 Llanowar Elves\n20 Giant Growth")
    s.mtg.check("green", 2, actor="Mira")
    line = [text for kind, text in _blocks(s) if kind == "line"][-1]
    assert line.startswith("Mira: "), line


def test_the_aside_heading_is_japanese_in_japanese():
    s = Session(seed=7)
    s.gurps.char_new("Aiko", dx=12)
    s.combat.start("Aiko Goblin{ST=9}")
    s.gw.character("Rin", level=1, new=True)
    s.gw.draw("Rin")
    i18n.set_language("ja")
    assert ("heading", "一方その頃") in _blocks(s)
