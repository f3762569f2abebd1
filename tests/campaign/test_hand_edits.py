"""Hand edits are never dropped silently: a readable copy `state/*.json` or `snapshot.json` changed
by hand (their digest no longer matches) refuses the opening with a line saying what to do, and a
readable copy changed while the campaign is open is kept aside at the next save, with a notice."""

from __future__ import annotations

import json

import pytest

from gamekernel import Session
from gamekernel.campaign import CampaignDamagedError


def campaign(tmp_path):
    folder = tmp_path / "campaign"
    session = Session(seed=1)
    session.campaign_open(folder)
    session.gurps_char_new("Bren", st=12)
    session.note("first")
    return folder, session


def edit_json(path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def a_state_file(folder):
    return next(p for p in sorted((folder / "state").glob("*.json")) if "Bren" in p.read_text(encoding="utf-8"))


def test_an_edited_readable_copy_refuses_the_opening_and_says_what_to_do(tmp_path):
    folder, session = campaign(tmp_path)
    session.campaign_close()
    path = a_state_file(folder)
    edited = path.read_text(encoding="utf-8").replace('"Bren"', '"Brenna"')
    path.write_text(edited, encoding="utf-8")
    with pytest.raises(CampaignDamagedError) as error:
        Session().campaign_open(folder)
    message = str(error.value)
    assert "\n" not in message and f"state/{path.name} was changed by hand" in message
    assert "git checkout" in message and "command" in message
    assert path.read_text(encoding="utf-8") == edited  # the edit is still there
    path.unlink()  # the user drops the edit: the campaign opens again
    reopened = Session()
    reopened.campaign_open(folder)
    reopened.campaign_close()


def test_an_edited_snapshot_refuses_the_opening_instead_of_being_reverted_later(tmp_path):
    folder, session = campaign(tmp_path)
    session.campaign_close()
    edit_json(folder / "snapshot.json", lambda d: d["state"]["core"].update(seed=999))
    with pytest.raises(CampaignDamagedError, match=r"^snapshot.json was changed by hand"):
        Session().campaign_open(folder)


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
