"""The plain data `inspect_token` returns: anatomy, claims, inner state, the boundary's checklist, a verdict.

Spec context: the SDK docs' "Protecting requestState" and "On verification failure". The checklist steps
and reason strings are the ones `RequestStateBoundary._unseal` (mcp 2.3.0) checks and logs, in its order;
the wire only ever says `-32602 Invalid or expired requestState`. Everything here is JSON-serializable
and holds no key material -- only key ids (public fingerprints) and ring slots.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Literal

from mcp_lab.json_types import JsonObject
from mcp_lab.markup import MimeBundle
from mcp_lab.protocol.anatomy import keyless_anatomy
from mcp_lab.protocol.token_parts import Anatomy, Segment
from mcp_lab.records.base import clip, clip_json, fitted
from mcp_lab.tokens.record import CheckRecord, ClaimRowRecord, QuestionRecord, SegmentRecord, TokenRecord
from mcp_lab.tokens.rows import ClaimRow, QuestionRow, Status, claim_rows, decode_inner, when

__all__ = ["REASONS", "STEPS", "ClaimRow", "QuestionRow", "Status", "TokenReport", "plain"]

STEPS = ("codec", "version", "issued-at", "expiry", "request binding", "audience", "principal")
"""The boundary's checks, in the order it makes them."""

REASONS = (
    "malformed",
    "unknown key",
    "seal",
    "minted in the future",
    "expired",
    "request binding",
    "audience",
    "principal drift",
    "principal",
)
"""The reasons `mcp.server.request_state` logs ("requestState rejected on <method>: <reason>")."""


@dataclass
class TokenReport:
    """Everything the lab can say about one request_state value (for the server's owner)."""

    token: str | None
    length: int
    format: str
    format_label: str
    prefix: str | None = None
    key_id: str | None = None
    problem: str | None = None
    confidential: bool | None = None
    server: str | None = None
    opener: str = "none"
    """ring | codec | keyless | unprotected: what was used to open the token."""
    can_open: str = ""
    ring_ids: list[str] = field(default_factory=list)
    slot: int | None = None
    opened: bool = False
    verified: bool = False
    claims: JsonObject | None = None
    expected: JsonObject = field(default_factory=dict)
    """What the server expects of m, t, a and aud, for the ones the lab knows."""
    ttl: float | None = None
    ttl_left: float | None = None
    inner_state: str | None = None
    question_texts: dict[str, str] = field(default_factory=dict)
    """Question text by input-request key, from the flow that carried the token."""
    checks: list[CheckRecord] = field(default_factory=list)
    verdict: str = "unknown"
    """"ok", the reason the server logs, or "unknown" when the lab cannot tell."""
    verdict_detail: str = ""
    cannot_know: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    danger: str | None = None

    @property
    def accepted(self) -> bool:
        return self.verdict == "ok"

    # Presentation, derived on first use: inspecting stays cheap when only the verdict is wanted.
    @cached_property
    def anatomy(self) -> Anatomy | None:
        """The keyless anatomy (segments, nonce, sizes); computed again only if inspection skipped it."""
        return keyless_anatomy(self.token) if self.token is not None else None

    @property
    def segments(self) -> list[Segment]:
        return self.anatomy.segments if self.anatomy is not None else []

    @property
    def nonce(self) -> str | None:
        return self.anatomy.nonce if self.anatomy is not None else None

    @property
    def sealed_bytes(self) -> int | None:
        return self.anatomy.sealed_bytes if self.anatomy is not None else None

    @cached_property
    def claim_rows(self) -> list[ClaimRow]:
        return claim_rows(self.claims, self.expected) if isinstance(self.claims, dict) else []

    @cached_property
    def _inner(self) -> tuple[str | None, list[QuestionRow]]:
        return decode_inner(self.inner_state, self.question_texts)

    @property
    def inner_kind(self) -> str | None:
        """resolver (the SDK's v3 JSON) | handmade | None"""
        return self._inner[0]

    @property
    def questions(self) -> list[QuestionRow]:
        return self._inner[1]

    @property
    def issued_at(self) -> str | None:
        return when(self.claims.get("iat")) if isinstance(self.claims, dict) else None

    @property
    def expires_at(self) -> str | None:
        return when(self.claims.get("exp")) if isinstance(self.claims, dict) else None

    def check(self, step: str) -> CheckRecord | None:
        return next((c for c in self.checks if c.step == step), None)

    def record(self) -> TokenRecord:
        """The report as its views show it (the vendor JSON is this record's dump)."""
        tone: Literal["ok", "err", "unknown"] = (
            "ok" if self.verdict == "ok" else ("unknown" if self.verdict == "unknown" else "err")
        )
        titles: dict[str, Literal["Accepted", "Rejected", "Undetermined"]] = {
            "ok": "Accepted",
            "err": "Rejected",
            "unknown": "Undetermined",
        }
        return TokenRecord(
            token=clip(self.token) if self.token is not None else None,
            length=self.length,
            format=self.format,
            format_label=self.format_label,
            structure=_structure(self),
            prefix=self.prefix,
            key_id=self.key_id,
            nonce=self.nonce,
            sealed_bytes=self.sealed_bytes,
            problem=self.problem,
            confidential=self.confidential,
            segments=[
                SegmentRecord(
                    part=s.part,
                    label=PART_NAMES.get(s.part, s.part),
                    start=s.start,
                    end=s.end,
                    size=s.size,
                    note=s.note,
                )
                for s in self.segments
            ],
            server=self.server,
            opener=self.opener,
            opened_by=_opened_by(self),
            can_open=self.can_open,
            ring_ids=list(self.ring_ids),
            slot=self.slot,
            opened=self.opened,
            verified=self.verified,
            claims=clip_json(self.claims) if isinstance(self.claims, dict) else None,
            claim_rows=[
                ClaimRowRecord(
                    claim=r.claim,
                    value=clip_json(r.value),
                    meaning=r.meaning,
                    status=r.status,
                    note=r.note,
                    stable=_stable_claim(r, self),
                )
                for r in self.claim_rows
            ],
            expected=clip_json(self.expected),
            ttl=self.ttl if self.ttl is not None and math.isfinite(self.ttl) else None,
            ttl_left=self.ttl_left if self.ttl_left is not None and math.isfinite(self.ttl_left) else None,
            issued_at=self.issued_at,
            expires_at=self.expires_at,
            inner_state=clip(self.inner_state) if self.inner_state is not None else None,
            inner_kind=self.inner_kind,  # type: ignore[arg-type]
            questions=[fitted(QuestionRecord, asdict(q)) for q in self.questions],
            checks=list(self.checks),
            verdict=self.verdict,
            verdict_tone=tone,
            verdict_title=titles[tone],
            verdict_detail=self.verdict_detail,
            cannot_know=list(self.cannot_know),
            notes=list(self.notes),
            danger=self.danger,
        )

    def to_dict(self) -> JsonObject:
        return self.record().dump()

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def __repr__(self) -> str:
        where = f" slot {self.slot}" if self.slot is not None else ""
        return f"<TokenReport {self.format_label}{where}: verdict {self.verdict!r}>"

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        from mcp_lab.tokens.view import token_bundle

        return token_bundle(self.record())


def plain(value: object, depth: int = 0) -> object:
    """JSON-safe copy: dataclasses become dicts, non-finite floats strings, odd objects their repr."""
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if depth > 40:
        return "…"
    if isinstance(value, dict):
        return {str(k): plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v, depth + 1) for v in value]
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is not None and not isinstance(value, type):
        return {name: plain(getattr(value, name), depth + 1) for name in fields}
    return repr(value)


PART_NAMES = {
    "prefix": "prefix",
    "kid": "key id",
    "nonce": "nonce",
    "sealed": "ciphertext+tag",
    "payload": "payload (readable)",
    "dot": "'.'",
    "signature": "signature",
    "body": "body",
}


def _short(value: object, limit: int = 70) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _stable_claim(row: ClaimRow, report: TokenReport) -> str:
    """A claim's value as text/plain shows it: nothing that changes from run to run."""
    if row.claim == "iat":
        return "<time>"
    if row.claim == "exp":
        return f"iat + {report.ttl:g} s" if report.ttl is not None else "<time>"
    if row.claim == "p":
        return "(absent)" if row.value is None else "<salted tag>"
    if row.claim == "aud" and row.value is None:
        return "(absent)"
    if row.claim == "s" and report.inner_kind == "resolver":
        answered = sum(1 for q in report.questions if q.answered)
        return f"resolver state (SDK v3): {answered} answered, {len(report.questions) - answered} awaiting"
    return _short(row.value) if isinstance(row.value, str) and row.claim == "s" else _short(repr(row.value), 200)


def _opened_by(report: TokenReport) -> str:
    where = f"server {report.server!r}" if report.server else "the given"
    if report.opener == "ring":
        slot = f", slot {report.slot}" if report.slot is not None else ""
        return f"with {where} key ring ({len(report.ring_ids)} key(s){slot})"
    if report.opener == "codec":
        return f"with {where} codec"
    if report.opener == "unprotected":
        return f"nothing to open: {where} has no RequestStateBoundary"
    return "no key given: " + (report.can_open or "keyless look only")


def _structure(report: TokenReport) -> str:
    parts = " | ".join(PART_NAMES.get(s.part, s.part) for s in report.segments)
    return f"{report.format_label}" + (f": {parts}" if parts else "")
