"""A campaign's status (`%campaign`, opening, saving, closing) as text and html."""

from __future__ import annotations

from gamekernel.campaign_repair import RepairReport
from gamekernel.display import TEXT, renders
from gamekernel.display.html import esc, panel
from gamekernel.i18n import t
from gamekernel.results import CampaignStatus
from gamekernel.text import visible


@renders(CampaignStatus, TEXT)
def campaign_text(status: CampaignStatus) -> str:
    key = "campaign.status.open"
    if status.closed:
        key = "campaign.status.closed_read_only" if status.read_only else "campaign.status.closed"
    lines = [t(key, name=status.name, sessions=status.sessions, events=status.events, snapshot=status.snapshot_seq)]
    lines += [f"⚠ {notice}" for notice in status.notices]
    return "\n".join(map(visible, lines))  # a folder or file name's bidi controls never reorder the line


@renders(CampaignStatus)
def campaign_html(status: CampaignStatus) -> str:
    lines = campaign_text(status).split("\n")
    body = esc(lines[0]) + "".join(f"<div class='gk-notice'>{esc(line)}</div>" for line in lines[1:])
    return panel("campaign", body, tone="muted" if status.closed else "good")


@renders(RepairReport, TEXT)
def repair_text(report: RepairReport) -> str:
    key = "campaign.repair.done" if report.done else "campaign.repair.plan"
    lines = [t(key, folder=report.folder, events=report.events, found=report.found)]
    lines += [f"· {step}" for step in report.steps]
    if not report.done:
        lines.append(t("campaign.repair.confirm"))
    return "\n".join(map(visible, lines))


@renders(RepairReport)
def repair_html(report: RepairReport) -> str:
    lines = repair_text(report).split("\n")
    body = esc(lines[0]) + "".join(f"<div class='gk-notice'>{esc(line)}</div>" for line in lines[1:])
    return panel("campaign", body, tone="good" if report.done else "muted")
