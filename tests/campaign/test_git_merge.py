"""A campaign in git: two GMs play a session each from the same commit, and git merges the two
branches without a conflict (each session log has a name of its own; the derived files merge as a
union of lines and are rebuilt from the logs); the merged campaign opens with every event of both
sessions, ordered as documented (the fork said in one notice), and play goes on after it."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from gamekernel import Session

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(folder, *args) -> subprocess.CompletedProcess:
    command = ["git", "-c", "user.name=GM", "-c", "user.email=gm@example.invalid", "-c", "commit.gpgsign=false",
               "-c", "init.defaultBranch=main", *args]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)


def play(folder, *notes) -> None:
    session = Session(seed=7)
    session.campaign_open(folder)
    for text in notes:
        session.note(text)
    session.gurps.char_new(notes[0].replace(" ", "")[:12], st=10)
    session.campaign_close()


def notes(session):
    return [e.data["text"] for e in session.active if e.kind == "note"]


def test_two_branches_played_from_one_commit_merge_and_open_with_every_event(tmp_path):
    folder = tmp_path / "crypt"
    play(folder, "common one", "common two")
    assert git(folder, "init").returncode == 0
    git(folder, "add", "-A")
    assert git(folder, "commit", "-m", "session one").returncode == 0
    git(folder, "checkout", "-b", "other")
    play(folder, "other GM a", "other GM b", "other GM c")
    git(folder, "add", "-A")
    git(folder, "commit", "-m", "the other GM's session")
    git(folder, "checkout", "main")
    play(folder, "main GM a", "main GM b")
    git(folder, "add", "-A")
    git(folder, "commit", "-m", "the main GM's session")
    merged = git(folder, "merge", "--no-edit", "other")
    assert merged.returncode == 0, merged.stdout + merged.stderr  # no conflict to resolve
    session = Session()
    status = session.campaign_open(folder)
    found = notes(session)
    assert found[:2] == ["common one", "common two"]
    assert sorted(found[2:]) == sorted(["other GM a", "other GM b", "other GM c", "main GM a", "main GM b"])
    forks = [n for n in status.notices if "both follow event" in n]
    assert len(forks) == 1 and "\n" not in forks[0], status.notices
    assert [e.seq for e in session.log] == list(range(1, len(session.log) + 1))
    session.note("after the merge")
    session.campaign_close()
    git(folder, "add", "-A")
    git(folder, "commit", "-m", "played after the merge")
    again = Session()
    status = again.campaign_open(folder)
    assert notes(again) == [*found, "after the merge"]  # the same order every time
    assert sum("both follow event" in n for n in status.notices) == 1
    assert again.campaign_status().notices == tuple(n for n in status.notices if "both follow event" in n)
    again.campaign_close()


def test_conflict_markers_in_a_log_are_named_as_what_they_are(tmp_path):
    folder = tmp_path / "c"
    play(folder, "one")
    log = next((folder / "sessions").glob("*.jsonl"))
    lines = log.read_bytes().split(b"\n")
    log.write_bytes(b"\n".join([*lines[:2], b"<<<<<<< HEAD", *lines[2:3], b"=======", b">>>>>>> other", *lines[3:]]))
    with pytest.raises(Exception, match=r"holds git conflict markers .*a merge was left unresolved") as error:
        Session().campaign_open(folder)
    assert "\n" not in str(error.value)


def test_the_order_a_gm_chose_for_a_fork_survives_a_later_merge(tmp_path):
    """`%campaign order` is kept in campaign.json; a later merge of two branches that both played on
    leaves that file a union of lines (rebuilt from the logs), and the chosen order is still read."""
    folder = tmp_path / "crypt"
    play(folder, "common one")
    git(folder, "init")
    git(folder, "add", "-A")
    git(folder, "commit", "-m", "one")
    git(folder, "checkout", "-b", "other")
    play(folder, "other GM a", "other GM b")
    git(folder, "add", "-A")
    git(folder, "commit", "-m", "other")
    git(folder, "checkout", "main")
    play(folder, "main GM a")
    git(folder, "add", "-A")
    git(folder, "commit", "-m", "main")
    assert git(folder, "merge", "--no-edit", "other").returncode == 0
    session = Session()
    fork = next(n for n in session.campaign_open(folder).notices if "both follow event" in n)
    first, second = fork.split(" and ", 1)[0], fork.split(" and ", 1)[1].split(" both ", 1)[0]
    stamped = notes(session)
    session.campaign_order([second, first])
    chosen = notes(session)
    assert chosen[0] == "common one" and chosen[1] != stamped[1] and sorted(chosen) == sorted(stamped)
    session.campaign_close()
    git(folder, "add", "-A")
    git(folder, "commit", "-m", "ordered")
    git(folder, "checkout", "-b", "later")
    play(folder, "later side")
    git(folder, "add", "-A")
    git(folder, "commit", "-m", "later side")
    git(folder, "checkout", "main")
    play(folder, "main again")
    git(folder, "add", "-A")
    git(folder, "commit", "-m", "main again")
    assert git(folder, "merge", "--no-edit", "later").returncode == 0
    again = Session()
    status = again.campaign_open(folder)
    assert any("campaign.json" in n for n in status.notices)  # the union of lines was rebuilt
    assert notes(again)[:len(chosen)] == chosen
    assert any("chosen with %campaign order" in n for n in status.notices)
    again.campaign_close()


def commit(folder, message) -> None:
    git(folder, "add", "-A")
    assert git(folder, "commit", "-m", message).returncode == 0


def test_opposite_orders_chosen_on_two_branches_are_said_in_one_line(tmp_path):
    """Two branches each `%campaign order` the same fork, oppositely; merged, the index holds both
    choices: the open says in one line which order it used and how to choose, and once the GM has
    chosen the line is gone."""
    folder = tmp_path / "crypt"
    play(folder, "common one")
    git(folder, "init")
    commit(folder, "one")
    git(folder, "checkout", "-b", "other")
    play(folder, "other GM")
    commit(folder, "other")
    git(folder, "checkout", "main")
    play(folder, "main GM")
    commit(folder, "main")
    assert git(folder, "merge", "--no-edit", "other").returncode == 0
    session = Session()
    fork = next(n for n in session.campaign_open(folder).notices if "both follow event" in n)
    first, second = fork.split(" and ", 1)[0], fork.split(" and ", 1)[1].split(" both ", 1)[0]
    session.campaign_close()
    commit(folder, "merged")
    git(folder, "checkout", "-b", "left")
    for branch, chosen in (("left", [second, first]), ("main", [first, second])):
        git(folder, "checkout", branch)
        session = Session()
        session.campaign_open(folder)
        session.campaign_order(chosen)
        session.campaign_close()
        commit(folder, f"ordered on {branch}")
    assert git(folder, "merge", "--no-edit", "left").returncode == 0
    session = Session()
    status = session.campaign_open(folder)
    said = [n for n in status.notices if "chose opposite orders" in n]
    assert len(said) == 1 and "\n" not in said[0], status.notices
    used = said[0].split(": used ", 1)[1].split(" in that order", 1)[0].split(", ")
    assert sorted(used) == sorted([first, second]) and "%campaign order " + " ".join(reversed(used)) in said[0]
    in_order = notes(session)
    held = {name: "main GM" if "main GM" in (folder / name).read_text(encoding="utf-8") else "other GM"
            for name in used}
    assert in_order.index(held[used[0]]) < in_order.index(held[used[1]])  # the order the events are in
    assert said == [n for n in session.campaign_status().notices if "chose opposite orders" in n]
    session.campaign_order(list(reversed(used)))
    assert not any("chose opposite orders" in n for n in session.campaign_status().notices)
    session.campaign_close()
    again = Session()
    assert not any("chose opposite orders" in n for n in again.campaign_open(folder).notices)
    again.campaign_close()
