"""`%campaign order`: the GM puts two forked sessions (two that follow the same event, as after a
git merge) in the order wanted; the index keeps it, so every later open numbers them so, and every
event of both stays. Refusals change nothing."""

from __future__ import annotations

import errno
import json
import shutil

import pytest

from gamekernel import Session
from gamekernel.errors import StorageError, UsageError


def play(folder, *texts) -> None:
    session = Session(seed=7)
    session.campaign_open(folder)
    for text in texts:
        session.note(text)
    session.campaign_close()


def notes(session) -> list[str]:
    return [e.data["text"] for e in session.active if e.kind == "note"]


def forked(tmp_path):
    """A campaign whose second and third sessions both follow the first (copied as a branch would be)."""
    folder = tmp_path / "crypt"
    play(folder, "common")
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    play(folder, "first a", "first b")
    play(copy, "second a")
    for log in (copy / "sessions").glob("*.jsonl"):
        if not (folder / "sessions" / log.name).exists():
            shutil.copy(log, folder / "sessions" / log.name)
    return folder


def fork_names(status) -> tuple[str, str]:
    notice = next(n for n in status.notices if "both follow event" in n)
    first, second = notice.split(" and ", 1)[0], notice.split(" and ", 1)[1].split(" both ", 1)[0]
    return first, second


def test_order_puts_the_later_fork_first_and_reopening_keeps_it(tmp_path):
    folder = forked(tmp_path)
    session = Session()
    status = session.campaign_open(folder)
    assert notes(session) == ["common", "first a", "first b", "second a"]
    first, second = fork_names(status)
    status = session.campaign_order([second, first])
    assert notes(session) == ["common", "second a", "first a", "first b"]
    assert [e.seq for e in session.log] == list(range(1, len(session.log) + 1))
    assert fork_names(status) == (second, first)
    assert sum("chosen with %campaign order" in n for n in session.campaign_status().notices) == 1
    session.note("after the order")
    session.campaign_close()
    assert json.loads((folder / "campaign.json").read_text())["fork_order"] == [
        second.removeprefix("sessions/"), first.removeprefix("sessions/")]
    again = Session()
    again.campaign_open(folder)
    assert notes(again) == ["common", "second a", "first a", "first b", "after the order"]
    again.campaign_close()


def test_order_renumbers_undo_references_of_the_moved_session(tmp_path):
    folder = tmp_path / "crypt"
    play(folder, "common")
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    play(folder, "first a")
    session = Session(seed=7)
    session.campaign_open(copy)
    session.note("second kept")
    session.note("second undone")
    session.undo()
    session.campaign_close()
    for log in (copy / "sessions").glob("*.jsonl"):
        shutil.copy(log, folder / "sessions" / log.name)
    session = Session()
    _first, second = fork_names(session.campaign_open(folder))
    assert notes(session) == ["common", "first a", "second kept"]
    session.campaign_order([second])
    assert notes(session) == ["common", "second kept", "first a"]  # the undo still names the undone note
    session.campaign_close()


@pytest.mark.parametrize(("names", "why"), [(["sessions/session-nope.jsonl"], "has no session"),
                                           (["FIRST", "FIRST"], "named twice"),
                                           (["FIRST", "COMMON"], "not sessions that fork from one event")])
def test_refusals_change_nothing(tmp_path, names, why):
    folder = forked(tmp_path)
    session = Session()
    status = session.campaign_open(folder)
    first, _second = fork_names(status)
    common = next(n for n in json.loads((folder / "campaign.json").read_text())["sessions"]
                  if f"sessions/{n}" not in fork_names(status))
    names = [{"FIRST": first, "COMMON": common}.get(n, n) for n in names]
    index = (folder / "campaign.json").read_bytes()
    before = notes(session)
    with pytest.raises(UsageError, match=r"^%campaign order: .*nothing changed$") as error:
        session.campaign_order(names)
    assert why in str(error.value) and "\n" not in str(error.value)
    assert (folder / "campaign.json").read_bytes() == index
    assert notes(session) == before
    session.campaign_close()


def test_order_refused_when_later_events_name_the_forks_events(tmp_path):
    folder = forked(tmp_path)
    session = Session()
    first, second = fork_names(session.campaign_open(folder))
    session.undo()  # the campaign.open event is not undoable: undo reaches "second a"
    index = (folder / "campaign.json").read_bytes()
    with pytest.raises(UsageError, match="renumbering would change what it means"):
        session.campaign_order([second, first])
    assert (folder / "campaign.json").read_bytes() == index
    session.campaign_close()


def test_order_without_an_open_campaign_is_refused():
    with pytest.raises(UsageError, match="no campaign is open"):
        Session().campaign_order(["sessions/x.jsonl"])


def test_the_magic_orders_forks_as_the_notice_names_them(ip, tmp_path):
    folder = forked(tmp_path)
    status = ip.run_line_magic("campaign", f"open {folder}")
    first, second = fork_names(status)
    shown = repr(ip.run_line_magic("campaign", f"order {second} {first}"))
    assert f"{second} and {first} both follow event" in shown and "chosen with %campaign order" in shown
    assert "chosen with %campaign order" in repr(ip.run_line_magic("campaign", "status"))
    ip.run_line_magic("campaign", "close")


def test_order_on_a_read_only_campaign_is_refused(tmp_path, monkeypatch):
    from tests.campaign.test_read_only_campaign import files, read_only

    folder = forked(tmp_path)
    before = files(folder)
    read_only(monkeypatch, errno.EROFS)
    session = Session()
    first, second = fork_names(session.campaign_open(folder))
    with pytest.raises(StorageError, match="read-only") as error:
        session.campaign_order([second, first])
    assert "\n" not in str(error.value)
    assert notes(session) == ["common", "first a", "first b", "second a"]
    session.campaign_close()
    monkeypatch.undo()
    assert files(folder) == before


def test_a_repair_keeps_the_chosen_order(tmp_path):
    folder = forked(tmp_path)
    session = Session()
    first, second = fork_names(session.campaign_open(folder))
    session.campaign_order([second, first])
    chosen = notes(session)
    session.campaign_close()
    Session().campaign_repair(folder, confirm=True)
    again = Session()
    again.campaign_open(folder)
    assert notes(again) == chosen
    again.campaign_close()


@pytest.mark.parametrize(("raw", "disputed"), [
    (b'"fork_order": [\n  "a.jsonl",\n  "b.jsonl"\n  "b.jsonl",\n  "a.jsonl"\n ],', True),  # a union merge
    (b'{"fork_order": ["a.jsonl", "b.jsonl"], "fork_order": ["b.jsonl", "a.jsonl"]}', True),  # a key twice
    (b'"fork_order": [\n  "a.jsonl",\n  "b.jsonl"\n  "a.jsonl",\n  "b.jsonl"\n ],', False),  # the same choice
    (b'"fork_order": ["b.jsonl", "a.jsonl", "c.jsonl", "b.jsonl", "c.jsonl"]', False),  # never opposite
    (b'"fork_order": ["a.jsonl", "b.jsonl", "x.jsonl", "y.jsonl", "b.jsonl", "a.jsonl"]', True),
    (b'"fork_order": ["a.jsonl", "x.jsonl", "y.jsonl", "b.jsonl", "y.jsonl", "x.jsonl"]', False),  # another fork
])
def test_opposite_choices_are_told_from_a_repeated_one(raw, disputed):
    from gamekernel.campaign_chain import fork_order_runs, order_disputes

    forks = {"a.jsonl": (3, 4, 5), "b.jsonl": (3, 6, 6), "c.jsonl": (3, 7, 7)}
    said = order_disputes(fork_order_runs(raw), forks, ["a.jsonl", "b.jsonl", "c.jsonl"])
    assert len(said) == disputed
    if disputed:
        assert said[0].startswith("sessions/a.jsonl, sessions/b.jsonl, sessions/c.jsonl follow the same event (3)")


def _merge_logs(into, other) -> None:
    for log in (other / "sessions").glob("*.jsonl"):
        if not (into / "sessions" / log.name).exists():
            shutil.copy(log, into / "sessions" / log.name)


def _play_undoing(folder, *texts) -> None:
    session = Session(seed=7)
    session.campaign_open(folder)
    for text in texts:
        session.note(text)
    session.undo()  # the last note still standing, named by its number in this branch
    session.campaign_close()


@pytest.mark.parametrize(("plays", "standing", "continued"), [
    # the other branch (B, then C and D continuing it) played first: B first, A after it, C and D after A
    ([("other", "b1", "b2"), ("other", "c1", "undo"), ("other", "undo"), ("main", "a1", "a2", "a3")],
     ["common", "b1", "a1", "a2", "a3"], 1),
    # A played first: B renumbered after it, and C and D continue B there: D's undo still names b2
    ([("main", "a1", "a2", "a3"), ("other", "b1", "b2"), ("other", "c1", "undo"), ("other", "undo")],
     ["common", "a1", "a2", "a3", "b1"], 0),
    # both branches go on: B first; A renumbered; C continues B and A2 continues A, each after the other
    ([("other", "b1", "b2"), ("main", "a1", "a2", "a3"), ("other", "c1"), ("main", "undo")],
     ["common", "b1", "b2", "a1", "a2", "c1"], 2),
])
def test_sessions_that_continue_a_forked_branch_keep_what_their_numbers_name(tmp_path, plays, standing, continued):
    """A branch of several sessions merged: each session continuing one of its branch (renumbered or with
    the other branch's sessions put in between) opens, its undo naming the event it named in its branch,
    and the GM is told in one line for each session that another branch's sessions came before it."""
    main, other = tmp_path / "main", tmp_path / "other"
    play(main, "common")
    shutil.copytree(main, other)
    for folder, *texts in plays:
        if texts[-1] == "undo":
            _play_undoing(tmp_path / folder, *texts[:-1])
        else:
            play(tmp_path / folder, *texts)
    _merge_logs(main, other)
    session = Session()
    status = session.campaign_open(main)
    assert notes(session) == standing
    assert [e.seq for e in session.log] == list(range(1, len(session.log) + 1))
    said = [n for n in status.notices if "come between them here" in n]
    assert len(said) == continued and all("\n" not in n and " continues sessions/" in n for n in said)
    assert sum("both follow event 3 " in n for n in status.notices) == 1  # the one fork, said once
    session.note("after the merge")
    session.undo()  # names the note by its number here
    session.campaign_close()
    again = Session()
    again.campaign_open(main)
    assert notes(again) == standing  # the session played after the merge keeps its numbers as they are
    again.campaign_close()
