"""Audit a server against the 2026-07-28 rules for multi round-trip requests and header parameters.

Spec context: Multi Round-Trip Requests (`InputRequiredResult`, `requestState`: server requirements, error
handling, security considerations) and Streamable HTTP (request metadata headers, `Mcp-Param-*`, the Base64
sentinel, `x-mcp-header` constraints, Origin validation). Why: no tool judges a server against these rules
(the conformance suite stops at 2025-11-25; the Inspector shows traffic but judges nothing), and a server
developer wants one command that says which rules their server keeps -- in a notebook while building it, and
in CI afterwards.

The audit only repeats calls the user recorded (this kernel's flows, or a saved collection): tools have side
effects, so it never invents a call. Listings (`tools/list`, ...) are the exception: they are read-only.

    report = await mcp_lab.audit("shop")                 # this kernel's flows against "shop"
    report = await mcp_lab.audit("shop", flows="calls.flows.json", only=["state-integrity"])
    %mcp_audit shop calls.flows.json
    python -m mcp_lab audit calls.flows.json --server http://127.0.0.1:8000/mcp --junit audit.xml

Layout: `rules` (the catalogue, quoted), `model` (records), `reach` (how the audit talks to a server),
`legs` (recorded calls sent again, changed), `checks_*` (one function per rule), `selection` (the check
ids and choosing among them, light enough for the command line's refusals), `lab` (the run),
`report` and `view` (renderings), `cli` and `magics` (entry points).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_lab.audit.report import AuditReport
    from mcp_lab.audit.runner import audit

__all__ = ["AuditReport", "audit"]


def __getattr__(name: str) -> Any:
    """`audit` and `AuditReport` load on first use: the records import this package for their type only."""
    if name == "audit":
        from mcp_lab.audit.runner import audit

        return audit
    if name == "AuditReport":
        from mcp_lab.audit.report import AuditReport

        return AuditReport
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
