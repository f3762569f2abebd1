"""Displays of the core commands (notes, the log table, undo, errors, secrets) and log exports."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gamekernel.display import Displayable
from gamekernel.display.html import FONT, esc, panel, table
from gamekernel.events import Event
from gamekernel.i18n import t


@dataclass(frozen=True)
class NoteResult(Displayable):
    text: str
    gm_only: bool = False

    def _title(self) -> str:
        return t("core.gm_note") if self.gm_only else t("core.note")

    def __repr__(self) -> str:
        return f"{self._title()}: {self.text}"

    def _repr_html_(self) -> str:
        body = f"<b>{esc(self._title())}:</b> {esc(self.text)}"
        return panel("note", body, tone="warn" if self.gm_only else "neutral")


@dataclass(frozen=True)
class SessionDate(Displayable):
    """The date the GM gave this session (`%campaign date`)."""

    date: str

    def __repr__(self) -> str:
        return t("core.session_date", date=self.date)

    def _repr_html_(self) -> str:
        return panel("note", esc(repr(self)), tone="neutral")


@dataclass(frozen=True)
class UndoResult(Displayable):
    action: str
    events: tuple[Event, ...]

    def __repr__(self) -> str:
        if not self.events:
            return t(f"core.{self.action}.nothing")
        summary = "; ".join(_event_line(e, show_secrets=False) for e in self.events)
        return t(f"core.{self.action}.done", count=len(self.events), summary=summary)

    def _repr_html_(self) -> str:
        return panel(self.action, esc(repr(self)), tone="warn")


def _event_line(event: Event, *, show_secrets: bool) -> str:
    if event.secret and not show_secrets:
        return t("core.log.secret")
    summary = event.summary()
    if not event.actor or summary.startswith(event.actor):
        return summary
    return f"{event.actor}: {summary}"


@dataclass(frozen=True)
class LogView(Displayable):
    events: tuple[Event, ...]
    show_secrets: bool = False
    total: int = 0  # events in the whole log: more than shown adds a line saying how to see them

    def more_line(self) -> str:
        """How to see the events left out (empty when every event is shown)."""
        if self.total <= len(self.events):
            return ""
        return t("core.log.more", shown=len(self.events), total=self.total, more=min(self.total, len(self.events) * 10))

    def rows(self) -> list[tuple[str, str, str]]:
        return [
            (str(e.seq), e.kind + (" " + t("core.log.secret") if e.secret else ""),
             _event_line(e, show_secrets=self.show_secrets))
            for e in self.events
        ]

    def __repr__(self) -> str:
        if not self.events:
            return t("core.log.empty")
        lines = [f"{seq:>4}  {kind:<12} {line}" for seq, kind, line in self.rows()]
        return "\n".join([self.more_line(), *lines] if self.more_line() else lines)

    def _repr_html_(self) -> str:
        if not self.events:
            return panel("log", esc(t("core.log.empty")))
        headers = (t("core.log.col.seq"), t("core.log.col.kind"), t("core.log.col.summary"))
        more = f"<div class='gk-notice'>{esc(self.more_line())}</div>" if self.more_line() else ""
        return panel("log", more + table(headers, self.rows()), title_html=esc(t("core.log.title")))


# -- exports --------------------------------------------------------------------------------

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
            lines.append(f"> **{label}:** {_md_escape(event.data['text'])}")
            lines.append("")
            continue
        secret = f" *{t('core.log.secret')}*" if event.secret else ""
        text = _md_escape(_export_line(event, by_seq, players=players))
        lines.append(f"{number}. **{event.kind}**{secret} — {text}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _md_escape(text: str) -> str:
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
            f'<li value="{number}"><b>{esc(event.kind)}</b>{secret} — '
            f"{esc(_export_line(event, by_seq, players=players))}</li>"
        )
    title = esc(t("core.log.export_title"))
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{title}</title></head>"
        f'<body style="{FONT};max-width:60em;margin:2em auto"><h1>{title}</h1>'
        f"<ol>{''.join(items)}</ol></body></html>\n"
    )


def notices_html(events: Iterable[Event]) -> str:
    return "".join(f"<div>{esc(e.summary())}</div>" for e in events)
