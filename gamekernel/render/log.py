"""Displays of the core commands (notes, the log table, undo, errors, secrets) and log exports."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from gamekernel.display import TEXT, Hide, renders, summarize_hiding
from gamekernel.display.html import FONT, esc, panel, table
from gamekernel.events import Event, kind_word, named_line
from gamekernel.i18n import t
from gamekernel.results import (
    EventLines,
    ExportResult,
    LogView,
    NoteResult,
    SeedResult,
    SessionDate,
    TableNotice,
    UndoResult,
)


@renders(SeedResult, TEXT)
def seed_text(result: SeedResult) -> str:
    return t("core.seed", seed=result.seed)


@renders(SeedResult)
def seed_html(result: SeedResult) -> str:
    return panel("seed", esc(seed_text(result)), tone="muted")


@renders(TableNotice, TEXT)
def table_notice_text(notice: TableNotice) -> str:
    return notice.text


@renders(TableNotice)
def table_notice_html(notice: TableNotice) -> str:
    return panel("table", esc(notice.text), tone="neutral")


@renders(ExportResult, TEXT)
def export_text(result: ExportResult) -> str:
    key = "core.log.exported_story" if result.story else "core.log.exported"
    return t(key, count=result.count, path=result.path)


@renders(ExportResult)
def export_result_html(result: ExportResult) -> str:
    return panel("export", esc(export_text(result)), tone="good")


def _note_title(note: NoteResult) -> str:
    return t("core.gm_note") if note.gm_only else t("core.note")


@renders(NoteResult, TEXT)
def note_text(note: NoteResult) -> str:
    return f"{_note_title(note)}: {note.text}"


@renders(NoteResult)
def note_html(note: NoteResult) -> str:
    body = f"<b>{esc(_note_title(note))}:</b> {esc(note.text)}"
    return panel("note", body, tone="warn" if note.gm_only else "neutral")


@renders(SessionDate, TEXT)
def session_date_text(date: SessionDate) -> str:
    return t("core.session_date", date=date.date)


@renders(SessionDate)
def session_date_html(date: SessionDate) -> str:
    return panel("note", esc(session_date_text(date)), tone="neutral")


@renders(UndoResult, TEXT)
def undo_text(result: UndoResult) -> str:
    if not result.events:
        return t(f"core.{result.action}.nothing")
    summary = "; ".join(_event_line(e, show_secrets=False) for e in result.events)
    return t(f"core.{result.action}.done", count=len(result.events), summary=summary)


@renders(UndoResult)
def undo_html(result: UndoResult) -> str:
    return panel(result.action, esc(undo_text(result)), tone="warn")


def _event_line(event: Event, *, show_secrets: bool, hide: Hide = None) -> str:
    """`hide`: the fighters whose roll numbers stay out of the line (those the GM hides, GURPS-SR-09)."""
    if event.secret and not show_secrets:
        return t("core.log.secret")
    summary = event.summary() if hide is None else summarize_hiding(event.kind, event.data, hide)
    line = named_line(event.actor, summary)
    return line if event.by is None else line + " " + t("core.log.by", user=event.by)


def _hide(view: LogView) -> Hide:
    """Whether a fighter's roll numbers stay out of the players' log: one the GM hides (None: the GM's
    own view, or nobody hidden)."""
    if view.show_secrets or not view.hidden:
        return None
    from gamekernel.hiding import is_hidden
    from gamekernel.text import match_key

    keys = frozenset(match_key(n) for n in view.hidden)
    return lambda name: is_hidden(name, keys)


def undone_seqs(log: Sequence[Event]) -> set[int]:
    """The events taken back by an undo and not put back by a later redo."""
    undone: set[int] = set()
    for event in log:
        if event.kind == "undo":
            undone.update(event.data["seqs"])
        elif event.kind == "redo":
            undone.difference_update(event.data["seqs"])
    return undone


def _log_line(event: Event, view: LogView, by_seq: Mapping[int, Event], undone: set[int]) -> str:
    """An event's %log line: an undo or redo names the events it took back or put back, an event
    taken back is marked undone."""
    hide = _hide(view)
    line = _event_line(event, show_secrets=view.show_secrets, hide=hide)
    if event.kind in {"undo", "redo"}:
        named = [by_seq[s] for s in event.data["seqs"] if s in by_seq]
        line = t(f"core.log.{event.kind}_of", seqs=", ".join(
            f"{e.seq} ({_event_line(e, show_secrets=view.show_secrets, hide=hide)})" for e in named))
    return line + (" " + t("core.log.undone") if event.seq in undone else "")


_NUMBER = re.compile(r"[+-]?\d+")


def beside_kind(kind: str, line: str) -> str:
    """An event's line shown beside its kind word, without saying the kind twice: "seed  7", not
    "seed  seed 7"; "combat: next turn  Al (after Bob)"; "note  The party enters". Only a repeat
    followed by `:` or by a number alone goes ("undo  undo of 2" stays a sentence)."""
    folded = line.casefold()
    for word in dict.fromkeys((kind, kind.rpartition(": ")[2])):
        head = word.casefold()
        if not (head and folded.startswith(head)):
            continue
        rest = line[len(head):]
        if rest.startswith(":") and rest[1:].strip():
            return rest[1:].strip()
        if rest.startswith(" ") and _NUMBER.fullmatch(rest.strip()):
            return rest.strip()
    return line


def log_rows(view: LogView) -> list[tuple[str, str, str]]:
    """(seq, kind, line) of each event shown: a secret event is marked, and its line hidden unless
    the GM asked for the details; the kind is a word, never the internal id. Without the details a
    line naming a fighter the GM hides says "someone" (or is hidden whole), and whom he hid is his."""
    by_seq = {e.seq: e for e in view.log or view.events}
    undone = undone_seqs(view.log or view.events)
    return [
        (str(e.seq), kind_word(e.kind) + (" " + t("core.log.secret") if e.secret else ""),
         beside_kind(kind_word(e.kind), _players_line(e, _log_line(e, view, by_seq, undone), view)))
        for e in view.events
    ]


def _players_line(event: Event, line: str, view: LogView) -> str:
    if view.show_secrets or not view.hidden:
        return line
    from gamekernel.hiding import scrub_names

    if event.kind == "table.hide":
        return t("core.log.secret")
    op = event.data.get("op") if event.kind.startswith("combat.") else None
    if op == "next" and scrub_names(line, view.hidden) != line:  # a hidden fighter's turn is never announced
        return t("core.log.secret")
    return scrub_names(line, view.hidden, heading=op in ("start", "add")) or t("core.log.secret")


def more_line(view: LogView) -> str:
    """How to see the events left out (empty when every event is shown)."""
    if view.total <= len(view.events):
        return ""
    return t("core.log.more", shown=len(view.events), total=view.total, more=min(view.total, len(view.events) * 10))


@renders(LogView, TEXT)
def log_text(view: LogView) -> str:
    gm = [t("table.gm_view")] if view.show_secrets else []  # `--gm`: the truth, marked as the GM's
    if not view.events:
        return "\n".join([*gm, t("core.log.empty")])
    rows = log_rows(view)
    width = max(len(kind) for _, kind, _ in rows)
    lines = [f"{seq:>4}  {kind:<{width}} {line}" for seq, kind, line in rows]
    return "\n".join([*gm, more_line(view), *lines] if more_line(view) else [*gm, *lines])


@renders(LogView)
def log_html(view: LogView) -> str:
    title = t("core.log.title") + (f" · {t('table.gm_view')}" if view.show_secrets else "")
    if not view.events:
        return panel("log", esc(t("core.log.empty")), title_html=esc(title) if view.show_secrets else "")
    headers = (t("core.log.col.seq"), t("core.log.col.kind"), t("core.log.col.summary"))
    more = f"<div class='gk-notice'>{esc(more_line(view))}</div>" if more_line(view) else ""
    return panel("log", more + table(headers, log_rows(view)), title_html=esc(title))


# -- exports --------------------------------------------------------------------------------

@renders(EventLines, TEXT)
def event_lines_text(lines: EventLines) -> str:
    return "\n".join(lines.lines)


@renders(EventLines)
def event_lines_html(lines: EventLines) -> str:
    return "".join(f"<div>{esc(line)}</div>" for line in lines.lines)


def visible_events(log: Sequence[Event], *, players: bool) -> list[Event]:
    """The events an export shows: for the players, nothing secret and no trace of it.

    An undo/redo is shown to the players only for the public events it names that are in `log`
    (an event of an earlier session, outside `log`, might have been secret).
    """
    if not players:
        return list(log)
    public = {e.seq for e in log if not e.secret}
    return [
        event for event in log
        if not event.secret and (event.kind not in {"undo", "redo"} or public.intersection(event.data["seqs"]))
    ]


def _export_line(event: Event, log_by_seq: dict[int, Event], *, players: bool) -> str:
    if event.kind in {"undo", "redo"}:
        named = [log_by_seq[s] for s in event.data["seqs"] if s in log_by_seq]
        if players:
            named = [e for e in named if not e.secret]
        count = len(named) if players else len(event.data["seqs"])
        head = t(f"core.event.{event.kind}", count=count)
        return f"{head}: " + "; ".join(_event_line(e, show_secrets=True) for e in named)
    return _event_line(event, show_secrets=True)


def _numbered(log: Sequence[Event], *, players: bool) -> list[tuple[int, Event]]:
    """Events with the number an export shows: the log's own for the GM, a plain count for the
    players (so a gap cannot hint at a hidden event)."""
    shown = visible_events(log, players=players)
    if players:
        return list(enumerate(shown, start=1))
    return [(event.seq, event) for event in shown]


def export_markdown(log: Sequence[Event], *, players: bool = False) -> str:
    """The log as readable Markdown: rolls with their working, notes as quotes, in order."""
    by_seq = {e.seq: e for e in log}
    lines = [f"# {t('core.log.export_title')}", ""]
    for number, event in _numbered(log, players=players):
        if event.kind == "note":
            label = t("core.gm_note") if event.data.get("gm_only") else t("core.note")
            lines.append(f"> **{label}:** {md_escape(event.data['text'])}")
            lines.append("")
            continue
        secret = f" *{t('core.log.secret')}*" if event.secret else ""
        text = md_escape(beside_kind(kind_word(event.kind), _export_line(event, by_seq, players=players)))
        lines.append(f"{number}. **{md_escape(kind_word(event.kind))}**{secret} — {text}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def md_escape(text: str) -> str:
    """Keep user text literal in Markdown (no accidental emphasis, links or raw HTML)."""
    out = []
    for ch in text:
        if ch in "\\`*_[]<|":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def export_html(log: Sequence[Event], *, players: bool = False) -> str:
    """The log as one self-contained HTML page (no scripts, no external assets, all escaped)."""
    by_seq = {e.seq: e for e in log}
    items = []
    for number, event in _numbered(log, players=players):
        if event.kind == "note":
            label = t("core.gm_note") if event.data.get("gm_only") else t("core.note")
            items.append(
                f'<li class="gk-note"><blockquote><b>{esc(label)}:</b> {esc(event.data["text"])}'
                "</blockquote></li>"
            )
            continue
        secret = f" <i>{esc(t('core.log.secret'))}</i>" if event.secret else ""
        items.append(
            f'<li value="{number}"><b>{esc(kind_word(event.kind))}</b>{secret} — '
            f"{esc(beside_kind(kind_word(event.kind), _export_line(event, by_seq, players=players)))}</li>"
        )
    title = esc(t("core.log.export_title"))
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{title}</title></head>"
        f'<body style="{FONT};max-width:60em;margin:2em auto"><h1>{title}</h1>'
        f"<ol>{''.join(items)}</ol></body></html>\n"
    )
