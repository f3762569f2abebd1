"""Every fighter has a side: a GCS monster loaded with `--npc` fights with the foes, `Troll{side=foes}`
keeps his sheet, a side can change in the fight (logged, undoable), and whom a fighter attacks by
default is the first hostile fighter able to act. The initiative tie rules read the side and whether
a fighter is a PC (GURPS-CMB-02, CMB-03: same-side NPCs keep the GM's order, a PC among the tied
goes by DX); an old campaign without sides keeps its meaning."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamekernel import Session
from gamekernel.errors import UsageError
from gamekernel.gurps.rules.characters import Character
from gamekernel.gurps.rules.combat.sides import FOES, NEUTRAL, PARTY, default_target, hostile, side_key
from gamekernel.testing import run

DATA = Path(__file__).parent / "data"
TROLL = DATA / "gcs" / "troll.gcs"
AIKO = DATA / "aiko.gcs"


def _table(*, npc: bool = True) -> Session:
    s = Session(seed=2)
    s.gurps.char_import(TROLL, side="foes" if npc else "")
    s.gurps.char_import(AIKO)
    return s


def test_gurps_cmb_03_a_gcs_monster_loaded_as_npc_fights_with_the_foes_and_keeps_its_sheet():
    s = _table()
    assert s.gurps.character("Troll").side == FOES
    s.combat.start("Troll Aiko")
    troll = s.combat.state.get("Troll")
    assert (troll.side, troll.pc, troll.hp_max) == (FOES, False, 20)  # the sheet's HP, not quick stats
    aiko = s.combat.state.get("Aiko")
    assert (aiko.side, aiko.pc) == (PARTY, True)
    assert s.combat.default_target("Troll") == "Aiko Tanaka"
    assert s.combat.default_target("Aiko") == "Troll"


def test_a_monster_loaded_without_a_side_is_the_partys_as_before():
    s = _table(npc=False)
    s.combat.start("Troll Aiko")
    assert s.combat.state.get("Troll").side == PARTY
    assert s.combat.default_target("Troll") == ""  # nobody hostile: the GM picks


@pytest.mark.parametrize("spec, side, pc", [("Troll{side=foes}", FOES, False), ("Troll{pc=0}", FOES, False),
                                            ("Troll{side=neutral}", NEUTRAL, False),
                                            ("Troll{side=Crown}", "Crown", False)])
def test_braces_that_name_only_a_side_keep_the_characters_sheet(spec, side, pc):
    s = _table(npc=False)
    s.combat.start(f"{spec} Aiko")
    troll = s.combat.state.get("Troll")
    assert (troll.side, troll.pc, troll.hp_max, troll.stand_in) == (side, pc, 20, False)
    assert troll.weapons[0].name == "Small Knife"  # the sheet's weapons


def test_braces_with_stats_still_make_a_stand_in():
    s = _table(npc=False)
    s.combat.start("Troll{ST=10,side=foes} Aiko")
    troll = s.combat.state.get("Troll")
    assert (troll.hp_max, troll.stand_in, troll.side) == (10, True, FOES)


def test_char_load_npc_and_side_flags_through_the_magic(ip, tmp_path):
    out = run(ip, "char", f"load {TROLL} --npc")
    assert "Troll" in repr(out)
    from gamekernel.magics import current_session

    s = current_session()
    assert s.gurps.character("Troll").side == FOES
    run(ip, "char", f"load {AIKO} --side=neutral")
    assert s.gurps.character("Aiko").side == NEUTRAL
    run(ip, "char", f"load {AIKO} --side=party")
    assert s.gurps.character("Aiko").side == ""  # the party is a sheet's default: stored as none


def test_a_side_survives_the_characters_json_file(tmp_path):
    s = _table()
    path = tmp_path / "troll.json"
    s.gurps.char_save("Troll", path)
    again = Session(seed=1)
    again.gurps.char_import(path)
    assert again.gurps.character("Troll").side == FOES
    assert Character.from_dict({"name": "Old"}).side == ""  # a file of today's schema: no side, the party's


def test_changing_sides_in_the_fight_is_logged_and_undone(ip):
    run(ip, "combat", "start Aiko{DX=12,pc=1} Orc{DX=11} Goblin{DX=10}")
    from gamekernel.magics import current_session

    s = current_session()
    assert s.combat.default_target("Aiko") == "Orc"  # quick NPCs are foes, pc=1 the party
    out = run(ip, "combat", "side Aiko foes")
    assert "Aiko fights for the foes" in repr(out)
    assert s.log[-1].kind == "combat.side" and s.log[-1].data["args"] == {"name": "Aiko", "side": FOES}
    assert s.combat.default_target("Aiko") == ""
    run(ip, "combat", "side Orc neutral")
    run(ip, "combat", "side Goblin party")
    assert s.combat.default_target("Aiko") == "Goblin"  # the neutral Orc is passed over
    assert "Goblin fights for the party" in str(s.log_view()).splitlines()[-1]
    run(ip, "undo")
    run(ip, "undo")
    run(ip, "undo")
    assert s.combat.state.get("Aiko").side == PARTY and s.combat.default_target("Aiko") == "Orc"
    assert "error" in repr(run(ip, "combat", "side Aiko"))


def test_side_words_in_either_language_and_a_bad_side():
    assert [side_key(w) for w in ("party", "PCs", "味方", "foes", "enemies", "敵", "neutral", "中立", "Crown")] == [
        PARTY, PARTY, PARTY, FOES, FOES, FOES, NEUTRAL, NEUTRAL, "Crown"]
    with pytest.raises(UsageError, match="side"):
        side_key("  ")
    with pytest.raises(UsageError, match="side"):
        side_key("x" * 41)


def test_default_target_prefers_an_able_hostile_fighter_and_never_a_neutral_one():
    assert hostile(PARTY, FOES) and not hostile(PARTY, PARTY) and not hostile(NEUTRAL, FOES)
    others = [("Ally", PARTY, True), ("Dead Orc", FOES, False), ("Bystander", NEUTRAL, True), ("Orc", FOES, True)]
    assert default_target(("Aiko", PARTY), others) == "Orc"
    assert default_target(("Aiko", PARTY), others[:2]) == "Dead Orc"  # nobody able: the first hostile one
    assert default_target(("Aiko", PARTY), others[:1]) == ""


def test_gurps_cmb_02_old_fighters_without_a_side_keep_their_meaning():
    """A combatant stored by an older version (`side` "pcs" for every PC, "foes" for NPCs) reads back
    with the same side words the new code uses."""
    from gamekernel.gurps.rules.combat import Combatant

    old = Combatant.from_dict({"name": "Bren", "pc": True, "side": "pcs", "weapons": []})
    assert old.side == PARTY
    assert Combatant.from_dict({"name": "Orc", "weapons": []}).side == FOES
