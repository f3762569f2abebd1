"""The sheet widget shows the character's weapons, live and in its static snapshot: name, level (from
the skill, so it follows the sheet), damage, reach, Parry = level/2 + 3 + bonuses (GURPS-CMB-46)."""

from gamekernel import Session
from gamekernel.gurps.widgets.sheet import SheetWidget


def test_gurps_cmb_46_sheet_widget_lists_weapons_live_and_in_snapshot():
    s = Session(seed=2)
    s.gurps.char_new("Aiko", dx=12, iq=12, ht=11, traits=["Combat Reflexes"])
    widget = SheetWidget(s, "Aiko")
    try:
        assert widget.weapons == []
        s.gurps.char_add_weapon("Broadsword:DX:sw+1 cut:reach=1")
        assert widget.weapons == [{"name": "Broadsword", "level": "12", "damage": "sw+1 cut", "reach": "1",
                                   "parry": "10"}]  # 12/2 + 3 + Combat Reflexes
        s.gurps.char_set("Aiko", dx=14)  # the level follows DX, Parry with it
        assert (widget.weapons[0]["level"], widget.weapons[0]["parry"]) == ("14", "11")
        s.gurps.char_add_weapon("Bow:DX-1:1d+1 imp:ranged:parry=no")
        assert widget.weapons[1] == {"name": "Bow", "level": "13", "damage": "1d+1 imp", "reach": "—", "parry": "—"}
        html = widget.snapshot_html()
        assert "gk-sheet-weapons" in html and "Broadsword" in html and "sw+1 cut" in html and "Bow" in html
        assert widget.labels["weapon"] == "Weapon" and widget.labels["parry"] == "Parry"
    finally:
        widget.close()
