"""Hand edits are never dropped silently: a readable copy `state/*.json` or `snapshot.json` changed
by hand (its digest missing or no longer matching) is kept as `<name>.edited`, named in one notice, and
not used (the state comes from the session logs); a readable copy changed while the campaign is open
is kept aside at the next save, with a notice."""

from __future__ import annotations

import json

import pytest

from gamekernel import Session


def campaign(tmp_path):
    folder = tmp_path / "campaign"
    session = Session(seed=1)
    session.campaign_open(folder)
    session.gurps.char_new("Bren", st=12)
    session.note("first")
    return folder, session


def edit_json(path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def a_state_file(folder):
    return next(p for p in sorted((folder / "state").glob("*.json")) if "Bren" in p.read_text(encoding="utf-8"))


def test_an_edited_readable_copy_is_kept_aside_at_the_opening_and_named(tmp_path):
    folder, session = campaign(tmp_path)
    session.campaign_close()
    path = a_state_file(folder)
    edited = path.read_text(encoding="utf-8").replace('"Bren"', '"Brenna"')
    path.write_text(edited, encoding="utf-8")
    reopened = Session()
    status = reopened.campaign_open(folder)
    kept = path.with_name(path.name + ".edited")
    said = [n for n in status.notices if f"state/{path.name} had been changed by hand" in n]
    assert len(said) == 1 and f"state/{path.name}.edited" in said[0] and "command" in said[0]
    assert kept.read_text(encoding="utf-8") == edited  # the edit is still there, under its new name
    assert "Bren" in reopened.state["gurps"].characters  # the state comes from the logs
    reopened.campaign_close()
    assert '"Bren"' in path.read_text(encoding="utf-8")  # written again
    again = Session()
    assert again.campaign_open(folder).notices == ()
    again.campaign_close()


def test_an_edited_snapshot_is_not_used_and_kept_aside(tmp_path):
    folder, session = campaign(tmp_path)
    session.campaign_close()
    edit_json(folder / "snapshot.json", lambda d: d["state"]["core"].update(seed=999))
    reopened = Session()
    status = reopened.campaign_open(folder)
    assert any(n.startswith("snapshot.json had been changed by hand") for n in status.notices), status.notices
    assert reopened.state["core"].seed == 1 and (folder / "snapshot.json.edited").exists()
    reopened.campaign_close()


def test_removing_the_digest_does_not_pass_an_edit_off_as_the_kernels(tmp_path):
    folder, session = campaign(tmp_path)
    session.campaign_close()
    edit_json(folder / "snapshot.json", lambda d: (d["state"]["core"].update(seed=999), d.pop("digest")))
    path = a_state_file(folder)
    edit_json(path, lambda d: d.pop("digest"))
    reopened = Session()
    status = reopened.campaign_open(folder)
    assert reopened.state["core"].seed == 1  # the edited snapshot is not trusted
    assert sum("had been changed by hand" in n for n in status.notices) == 2, status.notices
    assert (folder / "snapshot.json.edited").exists() and path.with_name(path.name + ".edited").exists()
    reopened.campaign_close()


def test_an_earlier_edit_kept_aside_is_never_overwritten(tmp_path):
    folder, session = campaign(tmp_path)
    session.campaign_close()
    path = a_state_file(folder)
    for number in (1, 2):
        path.write_text(f'{{"edit": {number}}}', encoding="utf-8")
        reopened = Session()
        reopened.campaign_open(folder)
        reopened.campaign_close()
    assert path.with_name(path.name + ".edited").read_text() == '{"edit": 1}'
    assert path.with_name(path.name + ".edited-2").read_text() == '{"edit": 2}'


def test_a_file_of_the_gm_in_state_is_left_alone(tmp_path):
    folder, session = campaign(tmp_path)
    session.campaign_close()
    (folder / "state" / "notes.json").write_text('{"todo": "ask about the bridge"}', encoding="utf-8")
    reopened = Session()
    assert reopened.campaign_open(folder).notices == ()
    reopened.campaign_close()
    assert (folder / "state" / "notes.json").read_text() == '{"todo": "ask about the bridge"}'


def test_an_edit_made_while_the_campaign_is_open_is_kept_aside_at_the_save(tmp_path):
    folder, session = campaign(tmp_path)
    session.campaign_save()
    path = a_state_file(folder)
    edited = path.read_text(encoding="utf-8").replace('"Bren"', '"Brenna"')
    path.write_text(edited, encoding="utf-8")
    status = session.campaign_close()
    kept = path.with_name(path.name + ".edited")
    assert kept.read_text(encoding="utf-8") == edited
    assert any(f"state/{path.name} had been changed by hand" in n for n in status.notices)
    reopened = Session()
    reopened.campaign_open(folder)  # the copy written again matches its digest
    reopened.campaign_close()


def test_copies_written_by_the_kernel_open_without_a_word(tmp_path):
    folder, session = campaign(tmp_path)
    assert session.campaign_save().notices == ()
    session.campaign_close()
    reopened = Session()
    assert reopened.campaign_open(folder).notices == ()
    reopened.campaign_close()


def test_campaign_load_does_not_warn_that_the_campaigns_own_events_are_left_out(tmp_path):
    _folder, session = campaign(tmp_path)
    seeds = sum(e.kind == "seed" for e in session.log)
    status = session.campaign_load()
    assert not any("not part of it" in n for n in status.notices), status.notices
    assert sum(e.kind == "seed" for e in session.log) == seeds  # no seed recorded again
    session.campaign_close()


def test_campaign_load_reports_an_edit_kept_aside_by_its_close(tmp_path):
    folder, session = campaign(tmp_path)
    session.campaign_save()
    path = a_state_file(folder)
    path.write_text(path.read_text(encoding="utf-8").replace('"Bren"', '"Brenna"'), encoding="utf-8")
    status = session.campaign_load()
    assert any("had been changed by hand" in n for n in status.notices), status.notices
    session.campaign_close()


BROKEN = {"a broken hand edit": b'{"schema": 2, "campaign": ', "a union merge": None}


def _broken(path, how):
    """The bytes a derived file holds after a broken hand edit, or after git's union merge of two sides."""
    if BROKEN[how] is not None:
        return BROKEN[how]
    lines = path.read_bytes().splitlines(keepends=True)
    return b"".join([*lines[:2], b'  "theirs": 1\n', *lines[1:]])  # both sides' lines: no longer JSON


@pytest.mark.parametrize("how", list(BROKEN))
@pytest.mark.parametrize("target", ["campaign.json", "snapshot.json", "state"])
def test_a_derived_file_that_is_not_json_is_kept_as_edited_and_rebuilt(tmp_path, target, how):
    """Like every hand edit, a derived file that no longer reads as JSON is kept as `<name>.edited`
    (byte for byte) and named in one notice; the campaign opens from its logs and writes the file again."""
    folder, session = campaign(tmp_path)
    session.campaign_close()
    path = a_state_file(folder) if target == "state" else folder / target
    where = path.relative_to(folder).as_posix()
    broken = _broken(path, how)
    path.write_bytes(broken)
    reopened = Session()
    status = reopened.campaign_open(folder)
    said = [n for n in status.notices if n.startswith(f"{where} is not JSON")]
    assert len(said) == 1 and f"kept as {where}.edited" in said[0], status.notices
    assert path.with_name(path.name + ".edited").read_bytes() == broken
    assert "Bren" in reopened.state["gurps"].characters and len(reopened.log) >= 3
    reopened.campaign_close()
    json.loads(path.read_bytes())  # written again, whole
    again = Session()
    assert again.campaign_open(folder).notices == ()  # said once: the copy is not named again
    again.campaign_close()


def test_a_derived_file_broken_while_the_campaign_is_open_is_kept_at_the_save(tmp_path):
    folder, session = campaign(tmp_path)
    session.campaign_save()
    path = a_state_file(folder)
    path.write_bytes(b"<<<<<<< HEAD\n{}\n")
    notices = session.campaign_save().notices
    where = path.relative_to(folder).as_posix()
    assert any(n.startswith(f"{where} was not JSON") and f"{where}.edited" in n for n in notices), notices
    assert path.with_name(path.name + ".edited").read_bytes() == b"<<<<<<< HEAD\n{}\n"
    json.loads(path.read_bytes())
    session.campaign_close()


def test_a_read_only_campaign_names_a_file_that_is_not_json_and_leaves_it(tmp_path, monkeypatch):
    import errno

    from tests.campaign.test_read_only_campaign import files, read_only

    folder, session = campaign(tmp_path)
    session.campaign_close()
    (folder / "snapshot.json").write_bytes(b"{cut")
    before = files(folder)
    read_only(monkeypatch, errno.EROFS)
    status = Session().campaign_open(folder)
    monkeypatch.undo()
    said = [n for n in status.notices if n.startswith("snapshot.json is not JSON")]
    assert len(said) == 1 and "read-only" in said[0], status.notices
    assert files(folder) == before  # nothing renamed, nothing written
