"""Give a campaign's session logs the numbered names of before (`session-001.jsonl`, ...), in the
order of the index: campaigns saved that way must open unchanged, and tests name their files."""

from __future__ import annotations

import json


def number_sessions(folder) -> None:
    index_path = folder / "campaign.json"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    names = []
    for number, name in enumerate(index["sessions"], start=1):
        new = f"session-{number:03d}.jsonl"
        path = folder / "sessions" / name
        lines = path.read_bytes().split(b"\n", 1)
        header = json.loads(lines[0])
        header["file"] = new
        path.unlink()
        body = lines[1] if len(lines) > 1 else b""
        (folder / "sessions" / new).write_bytes(json.dumps(header, separators=(",", ":")).encode() + b"\n" + body)
        names.append(new)
    index["sessions"] = names
    index_path.write_text(json.dumps(index, indent=1), encoding="utf-8")
