"""The audit report: its record, the flows its probes sent, and its renderings (notebook, CI text, JSON, JUnit).

Spec context: a verdict for each 2026-07-28 rule the audit checks (`mcp_lab.audit.rules`). Why an object
around the record: the record is plain data for every rendering, while the evidence -- the flows each probe
sent -- stays here as the lab's own `Flow`s, so they can be shown, saved (`mcp_lab.save_flows`) and replayed
(`mcp_lab.replay`, `python -m mcp_lab replay`). The exit code is the CI contract: 0 when no MUST rule is
broken, 1 when one is (2, the audit could not run, is the command's, with no report).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from mcp_lab.audit.model import AuditCheck, AuditRecord, AuditSummary
from mcp_lab.errors import LabError
from mcp_lab.json_types import JsonObject
from mcp_lab.markup import MimeBundle

if TYPE_CHECKING:
    from mcp_lab.audit.context import Context
    from mcp_lab.flow.flow import Flow

__all__ = ["AuditReport"]


class AuditReport:
    """What `await mcp_lab.audit(...)` returns; displays itself (summary first, then each check)."""

    def __init__(self, record: AuditRecord, evidence: dict[str, list[Flow]], replays: list[Flow]) -> None:
        self.record = record
        self.evidence = evidence
        """Check id -> the flows its probes sent."""
        self.replays = replays
        """The honest replay of every recorded call (each sent again, unchanged)."""

    @classmethod
    def build(cls, ctx: Context, checks: list[AuditCheck], notes: list[str], protocol: str | None) -> AuditReport:
        from mcp_lab.audit.context import label
        from mcp_lab.audit.view import headline

        summary = AuditSummary(
            kept=sum(c.verdict == "pass" for c in checks),
            broken=sum(c.verdict == "fail" for c in checks),
            broken_must=sum(c.verdict == "fail" and c.rule.must for c in checks),
            warned=sum(c.verdict == "warn" for c in checks),
            not_applicable=sum(c.verdict == "n/a" for c in checks),
        )
        record = AuditRecord(
            server=ctx.reach.name,
            transport=ctx.reach.transport,
            where=ctx.reach.where,
            protocol_version=protocol,
            flows=[label(f) for f in ctx.flows],
            headline="",
            summary=summary,
            exit_code=1 if summary.broken_must else 0,
            checks=checks,
            notes=notes,
        )
        record.headline = headline(record)
        return cls(record, ctx.evidence, [h.flow for h in ctx.honest])

    def rename(self, server: str) -> None:
        """Call the audited server `server` in every rendering (the CLI uses the name it reports itself)."""
        from mcp_lab.audit.view import headline

        self.record.server = server
        self.record.headline = headline(self.record)

    # ---- the verdicts ---------------------------------------------------------------------------------------
    @property
    def ok(self) -> bool:
        """No MUST rule broken."""
        return self.record.exit_code == 0

    @property
    def exit_code(self) -> int:
        return self.record.exit_code

    @property
    def checks(self) -> list[AuditCheck]:
        return self.record.checks

    def check(self, check_id: str) -> AuditCheck:
        for item in self.record.checks:
            if item.rule.id == check_id:
                return item
        ran = ", ".join(c.rule.id for c in self.record.checks)
        raise LabError(f"this audit has no check {check_id!r} (it ran: {ran})")

    def verdicts(self) -> dict[str, str]:
        """Check id -> verdict."""
        return {c.rule.id: c.verdict for c in self.record.checks}

    def failed(self) -> list[str]:
        """The ids of the rules broken (MUST and SHOULD)."""
        return [c.rule.id for c in self.record.checks if c.verdict == "fail"]

    def flows(self, check_id: str | None = None) -> list[Flow]:
        """The flows a check's probes sent (all checks' when None): show them, save them, replay them."""
        if check_id is None:
            return [f for flows in self.evidence.values() for f in flows]
        self.check(check_id)
        return list(self.evidence.get(check_id, []))

    # ---- renderings -----------------------------------------------------------------------------------------
    def text(self) -> str:
        from mcp_lab.audit.view import audit_text

        return audit_text(self.record)

    def to_dict(self) -> JsonObject:
        return self.record.dump()

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def junit(self) -> str:
        from mcp_lab.audit.view import audit_junit

        return audit_junit(self.record)

    def write(self, *, json_path: str | Path | None = None, junit_path: str | Path | None = None) -> None:
        """Write the JSON record and/or the JUnit XML (for CI systems)."""
        for path, text in ((json_path, self.to_json), (junit_path, self.junit)):
            if path is None:
                continue
            try:
                Path(path).write_text(text() + "\n", encoding="utf-8")
            except OSError as exc:
                raise LabError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None

    def __repr__(self) -> str:
        return f"<AuditReport {self.record.headline}>"

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        from mcp_lab.audit.view import audit_bundle

        return audit_bundle(self.record)
