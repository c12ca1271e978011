"""What every check shares: the server, the recorded calls and their honest replays, and how a probe reads.

Spec context: each 2026-07-28 rule the audit checks is observed on requests the user recorded (multi
round-trip calls) or on read-only listings. Before any rule is probed, every recorded call is sent once more
unchanged -- the honest replay -- so each probe compares what the changed request got with what the same
request got untouched, and so every `InputRequiredResult` the server sends is seen as it was sent. This
module turns rounds into the one-line "what was sent / what came back" a probe shows (no tokens, times or
ports: the text is stable for CI logs and nbval) and a check's probes into its verdict.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from mcp_lab.audit.legs import Replayed, Replayer, label
from mcp_lab.audit.model import VERDICTS, AuditCheck, AuditProbe, Verdict
from mcp_lab.audit.reach import Reach
from mcp_lab.audit.rules import rule
from mcp_lab.flow.flow import Flow, Round
from mcp_lab.flow.record import FlowRecord, flow_record
from mcp_lab.json_types import JsonObject
from mcp_lab.protocol.results import result_texts
from mcp_lab.records.base import Clipped

__all__ = ["Context", "came_back", "check", "evidence", "label", "not_applicable", "probe", "status_of", "worst"]


@dataclass
class Context:
    """One audit run: its reach, its recorded calls, their honest replays, its options, its evidence."""

    reach: Reach
    replayer: Replayer
    flows: list[Flow]
    lifetime: float | None = None
    """How long a requestState plausibly lives (seconds); None: not known (the lifetime check says so)."""
    max_wait: float = 30.0
    honest: list[Replayed] = field(default_factory=list)
    """The honest replay of each recorded call, in the order of `flows`."""
    tools: list[JsonObject] | None = None
    """The raw tools/list listing (None until listed, or when the listing failed: see `tools_error`)."""
    tools_error: str | None = None
    tools_http: list[JsonObject] = field(default_factory=list)
    """The listing's HTTP exchanges (Streamable HTTP only)."""
    evidence: dict[str, list[Flow]] = field(default_factory=dict)
    """Check id -> the flows its probes sent (replayable)."""

    @property
    def http(self) -> bool:
        return self.reach.transport == "http"

    def pick(self, keep: Callable[[Flow, Replayed], bool]) -> list[tuple[Flow, Replayed]]:
        """The recorded calls (with their honest replays) that `keep` accepts, in recording order."""
        return [(f, h) for f, h in zip(self.flows, self.honest, strict=True) if keep(f, h)]

    def keep(self, check_id: str, *flows: Flow) -> None:
        self.evidence.setdefault(check_id, []).extend(flows)


def status_of(rnd: Round | None) -> int | None:
    """The HTTP status of a leg's last exchange (Streamable HTTP only)."""
    if rnd is None or not rnd.http:
        return None
    response = rnd.http[-1].get("response")
    status = response.get("status") if isinstance(response, dict) else None
    return status if isinstance(status, int) else None


def came_back(rnd: Round | None) -> str:
    """What a leg got, in one stable line (its HTTP status is the probe's own field)."""
    if rnd is None:
        return "nothing was sent"
    if rnd.outcome == "error":
        err = rnd.error or {}
        code = f"{err.get('code')} " if err.get("code") is not None else ""
        reason = f" (server logged: {err['reason']})" if err.get("reason") else ""
        return f"error {code}{str(err.get('message', ''))!r}{reason}"
    if rnd.outcome == "input_required":
        keys = list(rnd.input_requests or {})
        if keys:
            asks = "asking " + ", ".join(keys)
            return f"InputRequiredResult {asks}" + (" with requestState" if rnd.request_state else "")
        return "InputRequiredResult with requestState only" if rnd.request_state else "an EMPTY InputRequiredResult"
    data = rnd.result or {}
    texts = " | ".join(repr(t) for t in result_texts(data) if t) or "(no text)"
    return f"result {texts}" + (" (isError)" if data.get("isError") else "")


def evidence(flow: Flow | None, http: bool = False) -> FlowRecord | None:
    """The display record of a probe's flow. HTTP exchanges are kept only when the probe is about HTTP (a
    header, a status), and then on its last leg only: a notebook keeps every output it shows."""
    if flow is None:
        return None
    record = flow_record(flow)
    for rnd in record.rounds if not http else record.rounds[:-1]:
        rnd.http = []
    for rnd in record.rounds:  # a token's kind, key id and length tell the story; its characters do not
        for brief in (rnd.token, rnd.sent_token):
            if brief is not None and isinstance(brief.text, str) and len(brief.text) > TOKEN_HEAD:
                brief.text = _head(brief.text)
    return record


TOKEN_HEAD = 24
"""How much of a token an evidence flow keeps (plaintext state stays whole up to this; the audit's readable
check shows what a token reveals)."""


def _head(text: str) -> Clipped:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return Clipped(head=text[:TOKEN_HEAD], length=len(text), sha256=digest)


def probe(
    name: str,
    sent: str,
    rnd: Round | None,
    verdict: Verdict,
    note: str = "",
    flow: Flow | None = None,
    *,
    http: bool = False,
) -> AuditProbe:
    """A probe's record. The flow it sent is embedded when the probe broke or warned (a notebook keeps every
    output it shows); every probe's flow stays on the report (`AuditReport.flows(check)`)."""
    return AuditProbe(
        name=name,
        sent=sent,
        came_back=came_back(rnd),
        verdict=verdict,
        note=note,
        status=status_of(rnd),
        evidence=evidence(flow, http) if verdict in ("fail", "warn") else None,
    )


def worst(verdicts: list[Verdict]) -> Verdict:
    for verdict in VERDICTS:
        if verdict in verdicts:
            return verdict
    return "n/a"


def check(check_id: str, probes: list[AuditProbe], summary: str, notes: list[str] | None = None) -> AuditCheck:
    """A check's record; its verdict is the worst of its probes' (n/a when none was applicable)."""
    verdict = worst([p.verdict for p in probes])
    return AuditCheck(rule=rule(check_id), verdict=verdict, summary=summary, probes=probes, notes=notes or [])


def not_applicable(check_id: str, why: str, notes: list[str] | None = None) -> AuditCheck:
    return AuditCheck(rule=rule(check_id), verdict="n/a", summary=why, notes=notes or [])
