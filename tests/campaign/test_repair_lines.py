"""Repair keeps every intact event: each kind of damage to a session log costs only the lines it
touched (a deleted line costs that line), never a whole session or the sessions after it. Each case
reports how many events the campaign holds before the damage and after the repair."""

from __future__ import annotations

import json

import pytest

from gamekernel import Session
from gamekernel.errors import GameKernelError


def make(folder):
    """Two sessions: notes, cards, a secret roll (its entropy line in the first log), an undo."""
    first = Session(seed=5)
    first.campaign_open(folder)
    first.cards.zone("deck")
    first.cards.create("deck", ["a", "b", "c"])
    first.roll("1d6", secret=True)
    for n in range(6):
        first.note(f"one {n}")
    first.undo()
    first.campaign_close()
    second = Session()
    second.campaign_open(folder)
    for n in range(4):
        second.note(f"two {n}")
    second.campaign_close()
    reader = Session()
    events = reader.campaign_open(folder).events - 1  # its own campaign.open is not counted
    reader.campaign.release()  # looked at, not played: no session of its own
    (folder / "sessions" / reader._store.path.name).unlink()
    return events


def first_log(folder):
    return sorted((folder / "sessions").glob("*.jsonl"))[0]


def edit_lines(folder, change):
    path = first_log(folder)
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(change(lines)))


def line_of(lines, kind):
    return next(i for i, line in enumerate(lines) if f'"kind":"{kind}"'.encode() in line)


def delete_entropy(lines):
    del lines[line_of(lines, "secret.entropy")]
    return lines


def delete_a_note(lines):
    del lines[line_of(lines, "note")]
    return lines


def swap_two(lines):
    i = line_of(lines, "note")
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return lines


def annotate(lines):
    i = line_of(lines, "note")
    note = {"schema": 1, "seq": 99, "kind": "gm.aside", "time": "", "data": {"text": "Aiko's turn next"}}
    return [*lines[:i], json.dumps(note).encode(), *lines[i:]]


def comment(lines):
    return [*lines[:3], b"# the party rested here", *lines[3:]]


def bad_byte(lines):
    i = line_of(lines, "note")
    lines[i] = lines[i].replace(b"one", b"o\xffe", 1)
    return lines


def conflict_markers(lines):
    return [*lines[:3], b"<<<<<<< HEAD", *lines[3:5], b"=======", b">>>>>>> theirs", *lines[5:]]


CASES = {  # damage -> events it costs
    "entropy line deleted": (delete_entropy, 1),
    "note line deleted": (delete_a_note, 1),
    "two lines swapped": (swap_two, 0),
    "line of unknown kind": (annotate, 0),
    "comment line": (comment, 0),
    "one non-UTF-8 byte": (bad_byte, 1),
    "conflict markers": (conflict_markers, 0),
}


@pytest.mark.parametrize("damage", list(CASES))
def test_each_damage_costs_only_the_lines_it_touched(tmp_path, damage, capsys):
    change, cost = CASES[damage]
    folder = tmp_path / "c"
    before = make(folder)
    edit_lines(folder, change)
    plan = Session().campaign_repair(folder)
    text = repr(plan)
    assert plan.events == before - cost, text
    if "deleted" in damage:
        assert "no log holds event" in text and "numbered again" in text, text
    elif damage != "two lines swapped":
        assert "set aside line sessions/" in text, text
    Session().campaign_repair(folder, confirm=True)
    reopened = Session()
    reopened.campaign_open(folder)
    notes = [e.data["text"] for e in reopened.log if e.kind == "note"]
    assert [n for n in notes if n.startswith("two")] == [f"two {n}" for n in range(4)]  # the later session whole
    assert [e.seq for e in reopened.log] == list(range(1, len(reopened.log) + 1))
    reopened.campaign_close()
    with capsys.disabled():
        print(f"\n{damage}: {before} events before, {plan.events} kept by the repair")


def test_cr_only_line_endings_keep_every_event(tmp_path):
    folder = tmp_path / "c"
    before = make(folder)
    path = first_log(folder)
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r"))
    with pytest.raises(GameKernelError):
        Session().campaign_open(folder)
    plan = Session().campaign_repair(folder, confirm=True)
    assert plan.events == before
    reopened = Session()
    reopened.campaign_open(folder)
    assert len([e for e in reopened.log if e.kind == "note"]) == 10
    reopened.campaign_close()


def test_an_undo_of_a_lost_event_is_set_aside_and_named(tmp_path):
    folder = tmp_path / "c"
    before = make(folder)

    def drop_undone(lines):
        undo = json.loads(lines[line_of(lines, "undo")])
        (seq,) = undo["data"]["seqs"]
        return [line for line in lines if f'"seq":{seq},'.encode() not in line]

    edit_lines(folder, drop_undone)
    plan = Session().campaign_repair(folder)
    assert plan.events == before - 2 and "undoes, redoes or reveals only events that were lost" in repr(plan)
