"""Drawing the results every adapter shares around another result (gamekernel/display/results.py):
a one-line error, a secret's notice, who made a result, the notices the rules raised by themselves."""

from __future__ import annotations

from gamekernel.display import TEXT, renders
from gamekernel.display.html import chip, esc, panel
from gamekernel.display.results import Attributed, ErrorResult, GmView, SecretNotice, WithNotices
from gamekernel.i18n import t


def html_of(result: object) -> str:
    """The inner result's html, or its text in a <pre> when it has none."""
    method = getattr(result, "_repr_html_", None)
    return method() if callable(method) else f"<pre>{esc(repr(result))}</pre>"


@renders(ErrorResult, TEXT)
def error_text(error: ErrorResult) -> str:
    return t("core.error", message=error.message)


@renders(ErrorResult)
def error_html(error: ErrorResult) -> str:
    return panel("error", esc(error_text(error)), tone="bad")


@renders(SecretNotice, TEXT)
def secret_text(notice: SecretNotice) -> str:
    return t("core.secret_result", kind=notice.kind)


@renders(SecretNotice)
def secret_html(notice: SecretNotice) -> str:
    return panel("secret", esc(secret_text(notice)), tone="muted")


@renders(Attributed, TEXT)
def attributed_text(attributed: Attributed) -> str:
    return f"{attributed.actor} · {attributed.result!r}"


@renders(Attributed)
def attributed_html(attributed: Attributed) -> str:
    return (f'<div class="gk-attributed"><div class="gk-actor" style="font-weight:600;font-size:12px;'
            f'margin:2px 0 0 2px">{esc(attributed.actor)}</div>{html_of(attributed.result)}</div>')


@renders(GmView, TEXT)
def gm_view_text(view: GmView) -> str:
    return f"{t('table.gm_view')}\n{view.result!r}"


@renders(GmView)
def gm_view_html(view: GmView) -> str:
    return f'<div class="gk-gm-view"><div>{chip(t("table.gm_view"), "warn")}</div>{html_of(view.result)}</div>'


@renders(WithNotices, TEXT)
def with_notices_text(result: WithNotices) -> str:
    lines = [repr(result.result)] + [f"⚠ {e.summary()}" for e in result.notices]
    return "\n".join(lines)


@renders(WithNotices)
def with_notices_html(result: WithNotices) -> str:
    inner = html_of(result.result)
    notes = "".join(
        f'<div class="gk-notice">{chip("⚠", "warn")} {esc(e.summary())}</div>' for e in result.notices
    )
    return f'<div class="gk-with-notices">{inner}{panel("notices", notes, tone="warn")}</div>'
