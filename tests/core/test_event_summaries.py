"""Events store outcomes, never prose; every log line and export line is drawn when viewed, in the
current language (DESIGN "Events, log, persistence").

A table plays a little of everything in English with Japanese names (so that any ASCII word left in
a Japanese line is a leak of English prose, not a name), switches to Japanese, and every `%log` row
and every export line must follow. Old logs, whose events carried their text (a combat `summary`, a
roll's `breakdown`), still open and read, from their facts where the event kept them.
"""

from __future__ import annotations

import html as html_module
import json
import re
from pathlib import Path

import pytest

from gamekernel import Session, i18n
from gamekernel.display import SUMMARIES, summarize
from gamekernel.events import EVENT_KINDS, kind_word
from gamekernel.render.log import export_html, export_markdown, log_rows

DECK = "4 Forest\n3 Elvish Mystic\n2 Ornithopter\n2 Serra Angel\n2 Plains\n"
# ASCII words a Japanese line may hold: notation and abbreviations the Japanese catalogs use on purpose
# (CP, NPC, GM, HP ...), damage types of a damage spec the user typed, and user data that is English
# by nature (a weapon's name, the MtG card names and the decklist's file name).
ALLOWED = {"CP", "NPC", "GM", "HP", "FP", "DR", "cut", "imp", "cr", "sw", "thr", "Broadsword", "Spear", "Punch",
           "friends", "txt", "Forest", "Plains", "Elvish", "Mystic", "Ornithopter", "Serra", "Angel"}


def _english_words(line: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]{2,}", line)) - ALLOWED


@pytest.fixture
def table() -> Session:
    """Every kind of event a table makes in a short evening, recorded in English."""
    s = Session(seed=5)
    s.reseed(7)
    s.roll("3d6+2")
    s.roll("3d6 <= 12")
    s.note("宿屋の主人は怪しい")
    s.gurps.char_new("アイコ", dx=12, iq=12, ht=11, skills=[("Stealth", 4), ("First Aid", 2)])
    s.gurps.char_new("ブレン", st=12, dx=11, activate=False)
    s.gurps.char_add_skill("Broadsword", 4, name="ブレン")
    s.gurps.char_add_trait("Combat Reflexes", name="ブレン")
    s.gurps.char_add_weapon("Broadsword:13:sw+1 cut", name="ブレン")
    s.gurps.char_set("アイコ", dx=13)
    s.gurps.char_use("アイコ")
    s.gurps.check("Stealth")
    s.gurps.contest("アイコ:Stealth", "ブレン:DX")
    s.gurps.react()
    s.gurps.damage("2d cut", target="ブレン")
    s.combat.npc("ゴブリン", "ST=9 DX=12 weapon=Spear:11:thr+2 imp")
    s.combat.add("ブレン", {"st": 12}, pc=True)
    s.combat.start("アイコ ゴブリン")
    attacker = s.combat.state.current.name
    target = "ゴブリン" if attacker == "アイコ" else "アイコ"
    s.combat.maneuver(attacker, "all_out_attack", option="strong")
    s.combat.attack(attacker, target, s.combat.state.current.weapons[0].name)
    if s.combat.state.pending is not None:
        s.combat.defend(target, "dodge")
    s.combat.damage(target, "1d cut")
    s.combat.next()
    s.combat.end()
    s.combat.hazard("fall", "アイコ", metres=3)
    s.combat.rest("アイコ", "30 min")
    s.undo()
    s.redo()
    s.cards.zone("山札", "deck")
    s.cards.create("山札", ["a", "b", "c"])
    s.cards.shuffle("山札")
    s.cards.zone("手札", "hand")
    s.cards.draw("山札", "手札", 2)
    s.gw.character("リン", new=True, level=2)
    s.gw.draw("リン")
    s.gw.encounter_start()
    s.gw.encounter_end()
    s.mtg.library_load("ミラ", "friends.txt", text=DECK)
    s.mtg.check("green", 2, actor="ミラ")
    s.mtg.scene()
    return s


@pytest.fixture
def japanese():
    yield
    i18n.set_language("en")


def test_the_table_made_every_kind_the_issue_names(table):
    kinds = {e.kind for e in table.log}
    assert {"combat.npc", "combat.add", "combat.start", "combat.attack", "combat.damage", "combat.next",
            "gurps.char.set", "gurps.char.update", "roll", "cards.batch", "gw.draw", "mtg.check"} <= kinds
    assert len(kinds) >= 30


def test_no_event_keeps_prose(table):
    """What is stored is facts: no combat `summary`, no roll `breakdown`, no sheet `description`."""
    for event in table.log:
        assert not {"summary", "description"} & set(event.data), event.kind
        assert "breakdown" not in event.data.get("result", {}), event.kind


def test_every_log_and_export_line_follows_the_language(table, japanese):
    english = [row[2] for row in log_rows(table.log_view(show_secrets=True))]
    i18n.set_language("ja")
    rows = log_rows(table.log_view(show_secrets=True))
    leaks = {f"{kind}: {line}": _english_words(line) for _, kind, line in rows if _english_words(line)}
    assert not leaks
    changed = [(en, row[2]) for en, row in zip(english, rows, strict=True) if en != row[2]]
    # every line with words changed; the ones left alike are pure data (dice working, names)
    alike = [en for en, row in zip(english, rows, strict=True) if en == row[2]]
    assert all(not re.search(r"[A-Za-z]{3,}", line) for line in alike), alike
    assert len(changed) > 38  # a line that repeated its kind word (seed 7) is now its data alone, alike in both
    words = {kind_word(kind) for kind in EVENT_KINDS}  # each entry is headed by its kind's word, as in %log
    markdown = export_markdown(table.log)
    for line in markdown.splitlines():
        head = re.match(r"\d+\. \*\*(.+?)\*\*", line)
        assert head is None or head.group(1).replace("\\", "") in words, line
        text = line[head.end():] if head else line
        assert not _english_words(text.replace("\\", "")), line
    html = export_html(table.log)
    heads = re.findall(r'<li value="\d+"><b>(.*?)</b>', html)
    assert heads and all(html_module.unescape(head) in words for head in heads), heads
    body = re.sub(r'<li value="\d+"><b>.*?</b>', " ", html.split("<body", 1)[1].split(">", 1)[1])
    body = html_module.unescape(re.sub(r"<[^>]+>", " ", body))
    assert not _english_words(body), _english_words(body)


def test_combat_log_lines_render_from_facts(table, japanese):
    lines = {e.kind: e.summary() for e in table.log if e.kind.startswith("combat.")}
    assert lines["combat.npc"] == "NPC template ゴブリン"
    assert lines["combat.maneuver"].endswith(": All-Out Attack")
    assert lines["combat.hazard"] == "アイコ: fall: damage 1d-2 [5]-2=3 cr → injury 3"  # GURPS-HAZ-05
    i18n.set_language("ja")
    lines = {e.kind: e.summary() for e in table.log if e.kind.startswith("combat.")}
    assert lines["combat.npc"] == "NPCテンプレート ゴブリン"
    assert lines["combat.add"] == "ブレンが戦闘員に加わった"
    assert lines["combat.maneuver"].endswith("の行動：全力攻撃")
    assert lines["combat.hazard"] == "アイコ：危険（落下）：ダメージ 1d-2 [5]-2=3 cr → 負傷 3"


def test_adding_a_character_to_the_fight_says_it_joined_not_npc_template():
    """The bug: `%combat add Bren` logged "NPC template Bren"."""
    s = Session(seed=1)
    shown = s.combat.add("Bren", {"st": 12}, pc=True)
    assert s.log[-1].summary() == "Bren joins the roster"
    assert repr(shown) == "Bren joins the roster" and "NPC" not in shown._repr_html_()
    assert "NPC" not in log_rows(s.log_view())[-1][2]


def test_every_event_kind_has_a_renderer():
    """No kind falls back to its stored text or its bare name."""
    summarize("seed", {"seed": 1})  # loads the render layer
    missing = [k for k in EVENT_KINDS if k not in SUMMARIES and f"{k.partition('.')[0]}.*" not in SUMMARIES]
    assert not missing


# ---------------------------------------------------------------- old logs


def _play_and_age(s: Session) -> None:
    """A short fight and two rolls; afterwards the log file is rewritten the way earlier versions
    wrote it (combat events with their English `summary`, no `outcome` and no `facts`, so they replay
    by rerunning the operation on their dice; rolls with `breakdown`)."""
    s.roll("3d6 <= 12")
    s.combat.npc("Goblin", "ST=9 DX=12 weapon=Spear:11:thr+2 imp")
    s.combat.add("Bren", {"st": 12}, pc=True)
    s.combat.start("Bren Goblin")
    s.combat.next()


OLD_TEXT = {"combat.npc": "NPC template Goblin", "combat.add": "NPC template Bren",
            "combat.start": "fight: Bren, Goblin", "combat.next": "next turn: Goblin (after Bren)"}


def _age(path: Path) -> None:
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(raw)
        data = record["data"]
        if record["kind"] in OLD_TEXT:
            data["summary"] = OLD_TEXT[record["kind"]]
            data.pop("outcome", None)
        if record["kind"].startswith("combat."):
            data.pop("facts", None)
        if record["kind"] == "roll":
            data["result"]["breakdown"] = "3d6 <= 12 = [1, 1, 1] = 3 <= 12: success (margin +9)"
        lines.append(json.dumps(record, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _lines(s: Session) -> dict[str, str]:
    return {e.kind: e.summary() for e in s.log if e.kind in OLD_TEXT or e.kind == "roll"}


@pytest.mark.parametrize("layout", ["schema 1 log.jsonl", "schema 2 campaign"])
def test_an_old_log_still_opens_and_reads(tmp_path, japanese, layout):
    folder = tmp_path / "old"
    if layout == "schema 1 log.jsonl":
        old = Session(seed=5, log_path=folder / "log.jsonl")
        _play_and_age(old)
        old.close()
        _age(folder / "log.jsonl")
    else:  # a campaign folder as the schema-2 version wrote it: an index, one log, no headers
        played = tmp_path / "played.jsonl"
        old = Session(seed=5, log_path=played)
        _play_and_age(old)
        old.close()
        _age(played)
        (folder / "sessions").mkdir(parents=True)
        played.rename(folder / "sessions" / "session-001.jsonl")
        (folder / "campaign.json").write_text(json.dumps(
            {"schema": 2, "name": "old", "sessions": ["session-001.jsonl"], "snapshot_seq": 0}))
    s = Session()
    s.campaign_open(folder)
    try:
        assert s.combat.state is not None and s.combat.state.round >= 1  # the old events replay
        english = _lines(s)
        assert english["combat.add"] == "Bren joins the roster"  # drawn from its facts: the old bug is gone
        assert english["combat.npc"] == "NPC template Goblin"
        assert english["combat.next"] == "next turn: Goblin (after Bren)"  # no outcome kept: its stored text
        roll = r"3d6 = \[\d, \d, \d\] = \d+ <= 12: (success|failure) \(margin [+-]\d+\)"  # the comparison once
        assert re.fullmatch(roll, english["roll"])
        assert english["roll"] != "3d6 = [1, 1, 1] = 3 <= 12: success (margin +9)"  # faces, not the text
        i18n.set_language("ja")
        japanese_lines = _lines(s)
        assert japanese_lines["combat.npc"] == "NPCテンプレート Goblin"
        assert japanese_lines["combat.add"] == "Brenが戦闘員に加わった"
        assert japanese_lines["combat.start"] == "戦闘開始：Bren, Goblin"
        assert japanese_lines["combat.next"] == "next turn: Goblin (after Bren)"
        assert "成功" in japanese_lines["roll"] or "失敗" in japanese_lines["roll"]
    finally:
        s.campaign_close()


def test_an_old_roll_whose_notation_no_longer_reads_shows_its_stored_text():
    data = {"result": {"text": "3d6 >>> 12", "label": "", "total": 9, "dice": [{"sides": 6, "rolls": [3, 3, 3]}],
                       "comparison": None, "success": None, "margin": None, "breakdown": "3d6 >>> 12 = 9"}}
    assert summarize("roll", data) == "3d6 >>> 12 = 9"
