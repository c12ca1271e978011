"""The plain data `inspect_token` returns: anatomy, claims, inner state, the boundary's checklist, a verdict.

Spec context: the SDK docs' "Protecting requestState" and "On verification failure". The checklist steps
and reason strings are the ones `RequestStateBoundary._unseal` (mcp 2.3.0) checks and logs, in its order;
the wire only ever says `-32602 Invalid or expired requestState`. Everything here is JSON-serializable
and holds no key material -- only key ids (public fingerprints) and ring slots.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from typing import Literal

from pydantic import PrivateAttr

from mcp_lab.json_types import JsonObject
from mcp_lab.markup import MimeBundle
from mcp_lab.protocol.anatomy import keyless_anatomy
from mcp_lab.protocol.token_parts import Anatomy
from mcp_lab.records.base import clip_json, fitted
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


class TokenReport(TokenRecord):
    """Everything the lab can say about one request_state value (for the server's owner).

    The report is its record: the inspector fills these fields as it checks, `settle` derives the rest (the
    structure, the segments, the claim rows, the questions, the verdict's tone), and the views draw it and
    the vendor JSON is its dump. What inspection needs besides -- the anatomy, the questions' texts -- is
    kept aside, in private attributes that are never dumped.
    """

    _anatomy: Anatomy | None = PrivateAttr(default=None)
    _question_texts: dict[str, str] = PrivateAttr(default_factory=dict)

    @classmethod
    def begin(
        cls, *, token: str | None, length: int, format: str, format_label: str, server: str | None = None, opener: str = "none"
    ) -> TokenReport:
        """A report before inspection: nothing opened, nothing checked, the verdict unknown."""
        return cls(
            token=token,
            length=length,
            format=format,
            format_label=format_label,
            server=server,
            opener=opener,
            structure=format_label,
            opened_by="",
            verdict="unknown",
            verdict_tone="unknown",
            verdict_title="Undetermined",
        )

    @property
    def accepted(self) -> bool:
        return self.verdict == "ok"

    @property
    def anatomy(self) -> Anatomy | None:
        """The keyless anatomy (segments, nonce, sizes); computed again only if inspection skipped it."""
        if self._anatomy is None and isinstance(self.token, str):
            self._anatomy = keyless_anatomy(self.token)
        return self._anatomy

    @anatomy.setter
    def anatomy(self, anatomy: Anatomy) -> None:
        self._anatomy = anatomy

    @property
    def question_texts(self) -> dict[str, str]:
        """Question text by input-request key, from the flow that carried the token."""
        return self._question_texts

    @question_texts.setter
    def question_texts(self, texts: dict[str, str]) -> None:
        self._question_texts = texts

    def check(self, step: str) -> CheckRecord | None:
        return next((c for c in self.checks if c.step == step), None)

    def settle(self) -> TokenReport:
        """Derive the fields the views read from what inspection found (once it is over)."""
        anatomy = self.anatomy
        tone: Literal["ok", "err", "unknown"] = (
            "ok" if self.verdict == "ok" else ("unknown" if self.verdict == "unknown" else "err")
        )
        self.verdict_tone, self.verdict_title = tone, _TITLES[tone]
        self.nonce = anatomy.nonce if anatomy is not None else None
        self.sealed_bytes = anatomy.sealed_bytes if anatomy is not None else None
        self.segments = [
            SegmentRecord(part=s.part, label=PART_NAMES.get(s.part, s.part), start=s.start, end=s.end, size=s.size, note=s.note)
            for s in (anatomy.segments if anatomy is not None else [])
        ]
        self.structure = _structure(self)
        self.opened_by = _opened_by(self)
        if self.ttl is not None and not math.isfinite(self.ttl):
            self.ttl = None
        if self.ttl_left is not None and not math.isfinite(self.ttl_left):
            self.ttl_left = None
        claims = self.claims if isinstance(self.claims, dict) else None
        self.issued_at = when(claims.get("iat")) if claims is not None else None
        self.expires_at = when(claims.get("exp")) if claims is not None else None
        inner = self.inner_state if isinstance(self.inner_state, str) else None
        inner_kind, questions = decode_inner(inner, self._question_texts)
        self.inner_kind = inner_kind  # type: ignore[assignment]
        self.questions = [fitted(QuestionRecord, asdict(q)) for q in questions]
        rows = claim_rows(claims, self.expected) if claims is not None else []
        self.claim_rows = [
            ClaimRowRecord(
                claim=r.claim, value=clip_json(r.value), meaning=r.meaning, status=r.status, note=r.note, stable=_stable_claim(r, self)
            )
            for r in rows
        ]
        return self

    def record(self) -> TokenRecord:
        """The record the views draw: the report itself (kept for code written when they were two)."""
        return self

    def to_dict(self) -> JsonObject:
        return self.dump()

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def __repr__(self) -> str:
        where = f" slot {self.slot}" if self.slot is not None else ""
        return f"<TokenReport {self.format_label}{where}: verdict {self.verdict!r}>"

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        from mcp_lab.tokens.view import token_bundle

        return token_bundle(self)


_TITLES: dict[str, Literal["Accepted", "Rejected", "Undetermined"]] = {
    "ok": "Accepted",
    "err": "Rejected",
    "unknown": "Undetermined",
}


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
