"""A fight run by mouse with the tracker's default picks only, in a real JupyterLab + Chromium: a GCS
monster (loaded with `--npc`) and two GCS characters (one whose file lists his shield before his
sword) through two turns each. Nobody picks a weapon, a target or a defense: the monster attacks the
party (its default target is the other side), each character attacks with his main weapon, never
the shield bash listed first (GURPS-CMB-30, CMB-31), a hit is answered with the defense offered
first, and every die the tracker's results panel showed is in the session's log, in the order
shown (events store the faces they rolled); every roll the panel showed inside a step (knockdown,
death check, stay conscious) is in `%log`'s text on that step's line, with its dice, and so is every
die of the attack roll, the defense roll and the damage roll, with what each was rolled against.
[GURPS-CMB-02, CMB-14, CMB-25, CMB-26, CMB-40, CMB-46, DMG-04, INJ-02, INJ-03, INJ-07]"""

import json
import re
from collections import Counter
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

W = ".gk-tracker-widget"
KERNEL = "from gamekernel.magics import current_session as cs\ns = cs()\n"
DATA = Path(__file__).parents[1] / "gurps" / "data"
BRANNOC = Path(__file__).parents[2] / "example_notebooks" / "brannoc.gcs"


def _shield_first(root: Path) -> Path:
    """Brannoc's file with the Medium Shield listed before his Broadsword."""
    doc = json.loads(BRANNOC.read_text())
    doc["equipment"] = [doc["equipment"][1], doc["equipment"][0], *doc["equipment"][2:]]
    path = root / "brannoc-shield-first.gcs"
    path.write_text(json.dumps(doc))
    return path


def _subsequence(shown: list[int], recorded: list[int]) -> bool:
    it = iter(recorded)
    return all(any(face == f for f in it) for face in shown)


def test_a_gcs_monster_and_two_characters_fight_two_turns_with_default_picks(lab):
    brannoc = _shield_first(lab.root)
    page = lab.open("tracker-fight.ipynb", [
        "%load_ext gamekernel\n%seed 70",
        f"%char load {DATA / 'gcs' / 'troll.gcs'} --npc\n%char load {DATA / 'aiko.gcs'}\n%char load {brannoc}",
        "%combat start Troll Aiko Brannoc",
        "%combat tracker",
    ], timeout_ms=120_000)
    tracker = page.locator(W).first
    tracker.locator(".gk-combatant.gk-active").wait_for()
    order = tracker.locator(".gk-combatant").evaluate_all("rows => rows.map(r => r.dataset.name)")
    assert sorted(order) == ["Aiko Tanaka", "Brannoc", "Troll"]
    for side_of in order:  # the sheet's side: the monster the foes', the characters the party's
        row = tracker.locator(f'.gk-combatant[data-name="{side_of}"] .gk-side-picker')
        assert row.input_value() == ("foes" if side_of == "Troll" else "pcs")

    attacks: list[tuple[str, str, str]] = []
    nested: list[list[str]] = []
    panel: list[tuple[list[int], list[int], bool]] = []  # each step's panel faces, its events, an attack rolled
    defenses = 0
    for step in range(2 * len(order)):
        active = tracker.locator(".gk-combatant.gk-active").get_attribute("data-name")
        picked = tracker.locator(".gk-weapon-picker").input_value()
        target = tracker.locator(".gk-target-picker").input_value()
        attacks.append((active, picked, target))
        before = lab.run(page, KERNEL + f"print('EVENTS{step}a', len(s.log))", expect=f"EVENTS{step}a")
        tracker.locator(".gk-attack").click()
        chooser = tracker.locator(".gk-defense-picker")
        after = lab.run(page, KERNEL + f"print('STEP{step}', len(s.log) > {before.split()[-1]}, "
                                       "s.combat.state.pending is not None)", expect=f"STEP{step} True")
        if after.split()[-1] == "True":  # a hit waits: the first defense offered answers it
            chooser.wait_for()
            assert chooser.input_value() == chooser.locator("option").first.get_attribute("value")
            tracker.locator(".gk-defend").click()
            chooser.wait_for(state="detached")
            defenses += 1
        shown = tracker.locator(".gk-tracker-results-body .gk-die").all_inner_texts()
        faces = [int(text.strip("[] ")) for text in shown]
        assert len(faces) >= 3  # the attack roll at least
        recorded = lab.run(page, KERNEL + "import json\nexchange, seqs = [], []\n"
                                          "for e in s.log[::-1]:\n"
                                          "    exchange[:0] = e.data.get('faces', [])\n"
                                          "    seqs.append(e.seq)\n"
                                          "    if e.kind == 'combat.attack': break\n"
                                          "rolled = 'roll' in e.data['outcome']\n"
                                          f"print('FACES{step}', json.dumps([exchange, seqs, rolled]))",
                           expect=f"FACES{step}")
        exchange, seqs, rolled = json.loads(recorded.split(" ", 1)[1])
        assert _subsequence(faces, exchange), (faces, recorded)
        panel.append((faces, seqs, rolled))
        # the rolls made inside the step (stay conscious, knockdown, death checks): a check with no title
        nested += tracker.locator(".gk-tracker-results-body .gk-gurps-check").evaluate_all(
            "els => els.filter(e => !e.querySelector('.gk-title')).map(e => "
            "[e.querySelector('.gk-working')?.innerText.trim() || '', "
            "[...e.querySelectorAll('.gk-die')].map(d => d.innerText.trim()).join(',')])")
        name = f'.gk-combatant.gk-active[data-name="{active}"]'
        tracker.locator(".gk-next").click()
        tracker.locator(name).wait_for(state="detached")

    by = {who: (weapon, target) for who, weapon, target in attacks}
    assert by["Troll"][0] == "Axe" and by["Troll"][1] in ("Aiko Tanaka", "Brannoc")  # the monster attacks the party
    assert by["Aiko Tanaka"] == ("Broadsword", "Troll")
    assert by["Brannoc"] == ("Broadsword", "Troll")  # his main weapon, not the Medium Shield listed first
    logged = lab.run(page, KERNEL + "print('ATTACKS', sorted({(e.data['args']['attacker'], e.data['args']['weapon'], "
                                    "e.data['args']['target']) for e in s.log if e.kind == 'combat.attack'}))",
                     expect="ATTACKS")
    for who, weapon, target in attacks:
        assert repr((who, weapon, target)) in logged
    defended = lab.run(page, KERNEL + "print('DEFENDED', sum(e.kind == 'combat.defend' for e in s.log))",
                       expect="DEFENDED")
    assert int(defended.split()[-1]) == defenses >= 1  # every hit that waited was answered by the default pick
    log_text = lab.run(page, "%log 200", expect="combat")
    assert log_text.count("Troll") >= 2
    # every roll the panel showed inside a step is in the log's text, on its step's line, with its dice
    # (GURPS-INJ-02 stay conscious, INJ-07 knockdown, INJ-03 death checks)
    # seed 70: the Troll's hit is a major wound (knockdown), takes a fighter below 0 HP (death check), who
    # then rolls to stay conscious at his turn: each shown in the panel, each in the log
    kinds = {re.match(r"[^\d−+-]*", working).group().strip() for working, _faces in nested}
    assert {"knockdown", "death check", "stay conscious"} <= kinds, nested
    lines = log_text.splitlines()
    for working, faces in nested:
        assert any(working in line and f"[{faces}]" in line for line in lines), (working, faces, log_text)
    # every die the panel showed for a step, the attack and defense rolls and the damage dice too
    # (GURPS-CMB-26, CMB-40, DMG-04), is in that step's %log lines, inside a roll's brackets
    by_seq = {int(m.group(1)): line for line in lines if (m := re.match(r"\s*(\d+)\s", line))}
    assert sum(rolled for _faces, _seqs, rolled in panel) >= 4
    for faces, seqs, rolled in panel:
        text = " ".join(by_seq[seq] for seq in seqs)
        logged_faces = Counter(int(f) for group in re.findall(r"\[([\d,]+)\]", text) for f in group.split(","))
        assert not Counter(faces) - logged_faces, (faces, text)
        if rolled:  # not when the attacker fell unconscious before attacking (GURPS-INJ-02)
            assert re.search(r"3d6 \[\d,\d,\d\]=\d+ vs \d+, (hit|miss)", text), text  # the roll and its target

    # the distance box and its step, then the side picker: each a logged session call (GURPS-CMB-14)
    active = tracker.locator(".gk-combatant.gk-active").get_attribute("data-name")
    target = tracker.locator(".gk-target-picker").input_value()
    box = tracker.locator(".gk-range")
    box.fill("3")
    box.press("Enter")
    page.wait_for_function("() => document.querySelector('.gk-tracker-widget .gk-range')?.value === '3'")
    tracker.locator(".gk-closer").click()
    page.wait_for_function("() => document.querySelector('.gk-tracker-widget .gk-range')?.value === '2'")
    lab.run(page, KERNEL + f"print('APART', s.combat.distance({active!r}, {target!r}), s.log[-1].kind)",
            expect="APART 2.0 combat.range")
    tracker.locator('.gk-combatant[data-name="Troll"] .gk-side-picker').select_option("neutral")
    lab.run(page, KERNEL + "print('SIDE', s.combat.state.get('Troll').side, s.log[-1].kind)",
            expect="SIDE neutral combat.side")
    lab.close_page(page)
