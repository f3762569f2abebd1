"""Issue 7 deliver 2 (opening fast): the one-pass log decoder agrees with the careful per-line one."""

from __future__ import annotations

import gc
import json

import pytest

from gamekernel import Session
from gamekernel.errors import DataError
from gamekernel.events import Event, LogStore, _load_fast, gc_paused


def _mixed_log(path):
    session = Session(seed=3, log_path=path)
    session.gurps_char_new("Aiko", dx=12, skills=[("Stealth", 2)])
    session.gurps_check("Stealth", secret=True)
    session.roll("1d20+2", actor="Rin")
    session.note("ünïcödé «quotes» \"and\" \\ back", gm_only=True)
    session.mtg_library_load("Mira", "d.txt", text="4 Forest\n3 Elvish Mystic\n")
    session.mtg_check("green", 1)
    session.undo()
    session.close()
    return session


def test_fast_and_careful_loading_build_equal_events(tmp_path):
    session = _mixed_log(tmp_path / "log.jsonl")
    lines = (tmp_path / "log.jsonl").read_bytes().split(b"\n")
    fast = _load_fast(lines)
    careful = [Event.from_dict(json.loads(line)) for line in lines if line.strip()]
    assert fast == careful == session.log
    assert all(type(e) is Event for e in fast)
    assert [e.to_json() for e in fast] == [e.to_json() for e in session.log]


@pytest.mark.parametrize(("edit", "message"), [
    (lambda r: {**r, "kind": "frobnicate"}, r"log.jsonl:2: field 'kind' is 'frobnicate'"),
    (lambda r: {**r, "seq": 1}, r"log.jsonl:2: field 'seq' is 1, not after 1"),
    (lambda r: {**r, "actor": 7}, r"log.jsonl:2: field 'actor' must be a string"),
    (lambda r: {**r, "data": []}, r"log.jsonl:2: field 'data' must be an object"),
    (lambda r: {**r, "schema": 9}, r"log.jsonl:2: field 'schema' is 9"),
])
def test_a_bad_line_falls_back_to_the_careful_path_and_is_named(tmp_path, edit, message):
    _mixed_log(tmp_path / "log.jsonl")
    lines = (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()
    lines[1] = json.dumps(edit(json.loads(lines[1])))
    (tmp_path / "log.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=message):
        LogStore.load(tmp_path / "log.jsonl")


def test_loading_leaves_the_garbage_collector_as_it_found_it(tmp_path):
    _mixed_log(tmp_path / "log.jsonl")
    assert gc.isenabled()
    LogStore.load(tmp_path / "log.jsonl")
    assert gc.isenabled()
    gc.disable()
    try:
        LogStore.load(tmp_path / "log.jsonl")
        with gc_paused(keep=True):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(ZeroDivisionError), gc_paused():
        1 / 0  # noqa: B018
    assert gc.isenabled()
