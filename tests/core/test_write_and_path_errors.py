"""The last write and path tracebacks: `%log export` and `%char save` to a bad path, a full disk or a
read-only folder, a name the file system cannot encode, a cache folder that cannot be written, and a
data file nested too deep. Each ends in one line naming the file, with nothing written or recorded."""

from __future__ import annotations

import errno
import json
import os
import stat

import pytest

import gamekernel.util
from gamekernel import Session
from gamekernel.errors import DataError, StorageError, UsageError
from gamekernel.mtg.rules.loaders import load_card_data

LONE = "\ud800"  # a lone surrogate: no file system encoding can store it


def refuse_writes(monkeypatch, code):
    """os.open of a new file fails the way a full disk (ENOSPC) or a read-only folder (EROFS, EACCES) does."""
    real = gamekernel.util.os.open

    def failing(path, flags, *args, **kwargs):
        if flags & os.O_CREAT:
            raise OSError(code, os.strerror(code), str(path))
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(gamekernel.util.os, "open", failing)


def one_line(error):
    text = str(error)
    assert "\n" not in text and "Traceback" not in text
    return text


@pytest.fixture
def session():
    session = Session(seed=1)
    session.gurps.char_new("Bren", st=12)
    session.note("first")
    return session


def log_length(session):
    return len(session.log)


@pytest.mark.parametrize("code, reason", [(errno.ENOSPC, "No space left"), (errno.EROFS, "Read-only"),
                                          (errno.EACCES, "Permission denied")])
def test_log_export_on_a_failed_write_is_one_line_naming_the_file(session, tmp_path, monkeypatch, code, reason):
    refuse_writes(monkeypatch, code)
    with pytest.raises(StorageError) as caught:
        session.log_write(tmp_path / "log.md")
    assert reason in one_line(caught.value) and "log.md" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_log_export_through_a_file_or_onto_a_folder_is_one_line(session, tmp_path):
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(StorageError) as caught:
        session.log_write(tmp_path / "notes.txt" / "log.md")
    assert "notes.txt" in one_line(caught.value) and "a file where a folder is needed" in str(caught.value)
    (tmp_path / "folder.md").mkdir()
    with pytest.raises(StorageError) as caught:
        session.log_write(tmp_path / "folder.md")
    assert "folder.md" in one_line(caught.value) and "a folder, not a file" in str(caught.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.md", "notes.txt"]  # no temp file left


def test_log_export_to_an_unencodable_name_is_one_line(session, tmp_path):
    with pytest.raises(StorageError) as caught:
        session.log_write(tmp_path / f"log{LONE}.md")
    text = one_line(caught.value)
    text.encode("utf-8")  # the message itself can be sent to the notebook
    assert "\\ud800" in text and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_char_save_on_a_failed_write_is_one_line_and_records_nothing(session, tmp_path, monkeypatch, code):
    name = "bren.json"
    before = log_length(session)
    refuse_writes(monkeypatch, code)
    with pytest.raises(StorageError) as caught:
        session.gurps.char_save("Bren", tmp_path / name)
    assert name in one_line(caught.value)
    assert log_length(session) == before
    assert not (tmp_path / name).exists() and not list(tmp_path.glob(".*.tmp"))


def test_char_save_to_an_unencodable_name_is_one_line(session, tmp_path):
    before = log_length(session)
    with pytest.raises(UsageError) as caught:
        session.gurps.char_save("Bren", str(tmp_path / f"b{LONE}.json"))
    assert "U+D800" in one_line(caught.value)
    assert log_length(session) == before and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_char_save_respects_the_umask_like_the_exports(session, tmp_path, mask):
    old = os.umask(mask)
    try:
        saved = session.gurps.char_save("Bren", str(tmp_path / "bren.json"))
        exported = session.log_write(tmp_path / "log.md")
    finally:
        os.umask(old)
    mode = stat.S_IMODE(os.stat(saved.path).st_mode)
    assert mode == 0o666 & ~mask == stat.S_IMODE(os.stat(exported.path).st_mode)


def test_deck_load_of_an_unencodable_name_is_one_line():
    session = Session(seed=1)
    with pytest.raises(UsageError) as caught:
        session.mtg.library_load("Mira", f"deck{LONE}.txt")
    assert "U+D800" in one_line(caught.value)


ATOMIC = {"meta": {"version": "5"}, "data": {"Elvish Mystic": [
    {"name": "Elvish Mystic", "manaValue": 1, "colors": ["G"], "types": ["Creature"], "subtypes": ["Elf", "Druid"],
     "supertypes": [], "layout": "normal"}]}}


def test_card_data_loads_when_the_cache_folder_cannot_be_written(tmp_path, monkeypatch):
    source = tmp_path / "AtomicCards.json"
    source.write_text(json.dumps(ATOMIC), encoding="utf-8")
    cache = tmp_path / "cache"
    cache.mkdir()
    real = open

    def refusing(path, mode="r", *args, **kwargs):
        if "w" in mode and str(path).startswith(str(cache)):
            raise OSError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", refusing)
    index = load_card_data(source, cache=cache)
    assert "Elvish Mystic" in index and list(cache.iterdir()) == []


def test_a_card_data_file_nested_too_deep_says_so_not_binary(tmp_path, monkeypatch):
    source = tmp_path / "AtomicCards.json"
    source.write_text('{"meta": {}, "data": {"X": [' + "[" * 5000 + "]" * 5000 + "]}}", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_card_data(source, use_cache=False)
    text = one_line(caught.value)
    assert "nested too deep" in text and "binary" not in text


@pytest.mark.parametrize("code", [None, errno.EACCES, errno.EROFS, errno.ENOSPC])
def test_a_gurps_library_indexes_when_its_cache_folder_cannot_be_written(tmp_path, monkeypatch, code):
    from gamekernel.gurps.rules.gcs.library import index_library

    folder = tmp_path / "library"
    folder.mkdir()
    (folder / "fine.skl").write_text(json.dumps({"rows": [{"name": "Stealth", "difficulty": "dx/a"}]}),
                                     encoding="utf-8")
    cache = tmp_path / "cache"
    if code is None:  # the cache folder's place is taken by a file: no folder can be made there
        (tmp_path / "file").write_text("x", encoding="utf-8")
        cache = tmp_path / "file" / "cache"
    else:
        refuse_writes(monkeypatch, code)
    index = index_library(folder, cache=cache)
    assert [e.name for e in index.entries] == ["Stealth"] and not index.from_cache
