"""A Japanese GM's character sheet names the catalog's traits and skills in Japanese on every surface
(the HTML sheet, the sheet widget's rows): levels, options the catalog knows and what the user or their
GCS file wrote (a note, a specialization, an unknown trait) keep their own words."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from gamekernel.gurps.rules.traits import japanese_trait_label

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("label", "expected"), [
    ("Combat Reflexes", ("戦闘即応", "")),
    ("Acute Vision 6", ("鋭敏視覚", "6")),  # GURPS-CH-27: a leveled trait keeps its level
    ("Code of Honor (Pirate's)", ("名誉の掟", "（海賊の掟）")),  # GURPS-DIS-04: the catalog's option
    ("Phobia (Spiders (Arachnophobia))", ("恐怖症", "（クモ恐怖症）")),
    ("Phobia (clowns)", ("恐怖症", "（clowns）")),  # not an option of the catalog: as written
    ("Appearance (Attractive)", ("容貌", "（魅力的）")),  # GURPS-CH-14
    ("High TL +1", ("高TL", "+1")),
    ("Reputation -2", ("評判", "-2")),
    ("Language: Elvish", ("言語", "：Elvish")),
    ("Talent (Outdoorsman)", ("アウトドアの才", "")),
])
def test_catalog_trait_labels_have_their_japanese_name(label, expected):
    assert japanese_trait_label(label) == expected


@pytest.mark.parametrize("label", ["Gunslinger Touch", "Weapon Master (Swords)", "Increased Strength 2",
                                   "Vision 2", "Claws (Sharp)", ""])
def test_a_name_the_catalog_does_not_know_has_none(label):
    """A GCS file's own trait keeps the file's name."""
    assert japanese_trait_label(label) is None


def _cells(markup: str, table: str) -> list[str]:
    block = re.search(rf'{table}.*?</table>', markup, re.S)
    assert block, table
    return [html.unescape(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", block.group(0))]


def _aiko(session):
    return session.gurps.char_new(
        "Aiko", st=10, dx=12, iq=12, ht=11, budget=100, appearance="attractive",
        traits=["Combat Reflexes", ("Acute Vision", 2), "Bad Temper", ("Code of Honor", "pirates")],
        skills=[("Lockpicking", 1, 9), ("Stealth", 4)],
    )


def test_the_sheet_and_its_widget_name_traits_in_japanese_after_a_switch(ip):
    """GURPS-CH-27, GURPS-DIS-04: made in English, shown in Japanese; back in English unchanged."""
    from gamekernel.gurps.widgets.sheet import SheetWidget
    from gamekernel.magics import current_session

    session = current_session()
    _aiko(session)
    widget = SheetWidget(session, "Aiko")
    english = _cells(session.gurps.character("Aiko")._repr_html_(), "gk-sheet-traits")
    assert "Acute Vision 2" in english and "Code of Honor (Pirate's)" in english
    ip.run_cell("%config GameKernel.language = 'ja'")
    traits = _cells(session.gurps.character("Aiko")._repr_html_(), "gk-sheet-traits")[::2]
    assert traits == ["「容貌」（魅力的）", "「戦闘即応」", "「鋭敏視覚」2", "「短気」", "「名誉の掟」（海賊の掟）"]
    assert [row["name"] for row in widget.traits_rows] == traits
    ip.run_cell("%config GameKernel.language = 'en'")
    assert _cells(session.gurps.character("Aiko")._repr_html_(), "gk-sheet-traits") == english


def test_a_gcs_character_gets_the_catalog_names_and_keeps_its_own(ip, tmp_path):
    """A GCS trait or skill the catalog knows is named in Japanese, with its chosen modifier (GURPS-DIS-04:
    "Code of Honor (Pirate's)"); the file's own names stay."""
    from gamekernel.gurps.widgets.sheet import SheetWidget
    from gamekernel.magics import current_session

    data = json.loads((DATA / "aiko.gcs").read_text(encoding="utf-8"))
    data["traits"].append({"id": "T900", "name": "Code of Honor", "base_points": -5, "calc": {"points": -5},
                           "modifiers": [{"id": "M900", "name": "Pirate's", "cost": 0}]})
    (tmp_path / "aiko.gcs").write_text(json.dumps(data), encoding="utf-8")
    ip.run_cell(f"%char load {tmp_path / 'aiko.gcs'}")
    ip.run_cell("%config GameKernel.language = 'ja'")
    session = current_session()
    name = session.gurps.state.active
    markup = session.gurps.character(name)._repr_html_()
    traits = _cells(markup, "gk-sheet-traits")[::2]
    assert "「鋭敏視覚」" in traits and "「戦闘即応」" in traits and "Weirdness Magnet" in traits
    assert "「名誉の掟」（海賊の掟）" in traits
    assert not {"Acute Vision", "Combat Reflexes", "Bad Temper"} & set(traits)
    skills = _cells(markup, "gk-sheet-skills")[::4]
    assert skills[:3] == ["〈鍵開け〉", "〈登攀〉", "〈忍び〉"] and "Lockpicking" not in skills
    widget = SheetWidget(session, name)
    assert [row["name"] for row in widget.traits_rows] == traits
    assert [row["label"] for row in widget.skills] == skills


def test_a_specialized_skill_keeps_its_specialization_as_written(ip):
    """GURPS-STD-01: 〈生存（Woodlands）〉 on the sheet, `%check`'s line and `%char skill`'s answer."""
    from gamekernel.magics import current_session

    ip.run_cell("%char new Rin dx=12 iq=11 ht=11")
    ip.run_cell("%char skill Survival (Woodlands) 2")
    ip.run_cell("%config GameKernel.language = 'ja'")
    session = current_session()
    skills = _cells(session.gurps.character("Rin")._repr_html_(), "gk-sheet-skills")
    assert skills[0] == "〈生存（Woodlands）〉"
    check = ip.run_cell("%check Survival (Woodlands)").result
    assert "〈生存（Woodlands）〉" in str(check) and "Survival" not in str(check)
    changed = ip.run_cell("%char skill Survival (Woodlands) 4").result
    assert "〈生存（Woodlands）〉" in str(changed), changed


def test_validation_messages_are_worded_in_the_current_language():
    """GURPS-CH-03, CH-06, CH-29, STD-02: the sheet's issues, each with its field, in Japanese; the
    English wording unchanged."""
    from gamekernel import i18n
    from gamekernel.gurps.rules.characters import Character, Reputation, make_skill
    from gamekernel.gurps.rules.traits import make_trait

    character = Character("X", st=0, dx=22, iq=7, budget=10, skills=(make_skill("Stealth", 3),),
                          traits=(make_trait("Acute Hearing", level=2), make_trait("Hard of Hearing"),
                                  make_trait("Bloodlust")), reputations=(Reputation(5, "hero"),))
    english = [str(issue) for issue in character.validate()]
    assert "error: points: 92 points spent, 82 over the budget of 10" in english
    assert "warning: skill Stealth: 3 points is not a table spend (1, 2, 4, 8, 12...)" in english
    i18n.set_language("ja")
    japanese = [str(issue) for issue in character.validate()]
    assert japanese[0] == "エラー：CP：92CPを消費、上限10CPを82CP超過"
    assert "エラー：体力：0は人間の最低値1を下回っています" in japanese
    assert "注意：技能〈忍び〉：3CPは表にある消費CPではありません（1、2、4、8、12…）" in japanese
    assert "エラー：「難聴」：「鋭敏聴覚」と同時には取得できません（GURPS-CH-29）" in japanese
    assert "エラー：「評判」：+5は-4〜+4の範囲外です" in japanese
    assert len(japanese) == len(english)
    assert all(not re.search(r"[a-z]{2,}", line.replace("GURPS-CH-29", "")) for line in japanese), japanese
    i18n.set_language("en")
    assert [str(issue) for issue in character.validate()] == english


def test_a_trait_bonus_on_a_roll_is_named_in_japanese(ip):
    """GURPS-ADV-01 (Acute Vision's +1 to Vision rolls) and GURPS-CH-14 (Appearance on a reaction roll):
    the modifier's label follows the language."""
    from gamekernel.magics import current_session

    _aiko(current_session())
    ip.run_cell("%char new Guard budget=50\n%char use Aiko")
    ip.run_cell("%config GameKernel.language = 'ja'")
    vision = str(ip.run_cell("%check Vision").result)
    assert "+2（「鋭敏視覚」）" in vision and "Acute" not in vision, vision
    reaction = str(ip.run_cell("%react --npc=Guard").result)
    assert "+1（「容貌」（魅力的））" in reaction and "Appearance" not in reaction, reaction


def test_an_npc_template_line_reads_as_typed_in_each_language(ip):
    """`%combat npc`'s answer shows its weapon as `weapon=...` (as typed), not a Python list."""
    english = str(ip.run_cell("%combat npc Orc ST=16 HP=12 weapon=Greataxe:13:sw+3 cut").result)
    assert "weapon=Greataxe:13:sw+3 cut" in english and "[" not in english, english
    ip.run_cell("%config GameKernel.language = 'ja'")
    japanese = str(ip.run_cell("%combat npc Ogre ST=20 weapon=Club:12:sw+4 cr weapon=Rock:10:thr cr").result)
    assert "NPCテンプレート Ogre：" in japanese and "weapon=Club:12:sw+4 cr, weapon=Rock:10:thr cr" in japanese
    assert "[" not in japanese, japanese
