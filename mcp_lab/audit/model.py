"""The audit's records: rules, checks, probes and the report, as plain pydantic data.

Spec context: the 2026-07-28 rules for multi round-trip requests (`InputRequiredResult`, `requestState`) and
header parameters (`x-mcp-header`, `Mcp-Param-*`) that `mcp_lab.audit` checks against a server. Why records:
the report is shown in a notebook (text, HTML, and the `application/vnd.mcp-lab.audit+json` output the
JupyterLab extension draws), printed in CI logs, and written as JSON and JUnit XML -- every one of them made
from this one record, so they cannot disagree. Each probe says what was sent and what came back in one
stable line (no times, no tokens, no ports) and carries its evidence: the flow that was sent, in the lab's
own flow record, and for HTTP probes outside a flow the exchanges themselves.
`mcp_lab.record_schema.KINDS` lists `AuditRecord` under the kind `audit`.
"""

from __future__ import annotations

from typing import Literal

from mcp_lab.exchanges.record import HttpExchange
from mcp_lab.flow.record import FlowRecord
from mcp_lab.records.base import Model, Record

__all__ = [
    "LEVELS",
    "VERDICTS",
    "AuditCheck",
    "AuditProbe",
    "AuditRecord",
    "AuditRule",
    "AuditSummary",
    "Level",
    "Transport",
    "Verdict",
]

Verdict = Literal["pass", "fail", "warn", "n/a"]
"""pass: the rule is kept; fail: broken; warn: kept in letter but worth a look (or flagged); n/a: not checked."""
Level = Literal["MUST", "MUST NOT", "SHOULD", "SHOULD NOT"]
Transport = Literal["in-process", "http", "stdio"]
VERDICTS: tuple[Verdict, ...] = ("fail", "warn", "pass", "n/a")
"""Worst first: a check's verdict is the worst of its probes' (n/a only when nothing was probed)."""
LEVELS: tuple[Level, ...] = ("MUST", "MUST NOT", "SHOULD", "SHOULD NOT")


class AuditRule(Model):
    """One rule, quoted from its source."""

    id: str
    level: Level
    title: str
    section: str
    source: str
    """The file the quote comes from (the specification repository's path, or the SDK docs)."""
    url: str
    quote: str
    transports: list[Transport]
    """Where the rule can be observed (header parameters and Origin exist only on Streamable HTTP)."""

    @property
    def must(self) -> bool:
        return self.level in ("MUST", "MUST NOT")


class AuditProbe(Model):
    """One request the audit sent for a check, and what came back."""

    name: str
    sent: str
    """One stable line: the recorded call and what the audit changed in it."""
    came_back: str
    verdict: Verdict
    note: str = ""
    status: int | None = None
    """The HTTP status of the probe's request (Streamable HTTP only)."""
    evidence: FlowRecord | None = None
    """The flow that was sent, leg by leg, when the probe broke or warned (every probe's flow, replayable:
    `AuditReport.flows(check)`)."""
    exchanges: list[HttpExchange] = []
    """HTTP exchanges of a probe that is not a flow (a listing, the Origin probe)."""


class AuditCheck(Model):
    """One rule checked: its verdict, why, and every probe."""

    rule: AuditRule
    verdict: Verdict
    summary: str
    """One line: why this verdict (stable)."""
    probes: list[AuditProbe] = []
    notes: list[str] = []


class AuditSummary(Model):
    kept: int
    broken: int
    broken_must: int
    warned: int
    not_applicable: int


class AuditRecord(Record):
    """A server audited against the 2026-07-28 rules: the summary first, then each check."""

    kind: Literal["audit"] = "audit"
    version: Literal[1] = 1
    server: str
    transport: Transport
    where: str
    """The URL, the stdio command, or "in-process" (a view may show it; the text view leaves out ports)."""
    protocol_version: str | None = None
    flows: list[str] = []
    """The recorded calls the audit repeated (one label each)."""
    headline: str
    summary: AuditSummary
    exit_code: Literal[0, 1]
    """0 when no MUST rule is broken, 1 when one is (2, "could not run", never produces a record)."""
    checks: list[AuditCheck] = []
    notes: list[str] = []
