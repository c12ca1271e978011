"""request_state records: a token report (the inspector's findings) and the tamper experiment's results.

Spec context: the SDK docs' "Protecting requestState" and "On verification failure". A sealed token is
`v1.` + base64url(kid | nonce | ciphertext+tag); the boundary opens it, then checks version, issued-at,
expiry, request binding, audience and principal in that order, and logs the reason of the first failure
while the wire always says `-32602 Invalid or expired requestState`. The report holds what the lab can
say for the server's owner -- anatomy, claims, resolver questions, each check, the verdict -- with key
ids and ring slots only, never key material; the token itself is embedded clipped when it is huge.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, field_serializer
from pydantic.config import JsonDict

from mcp_lab.records.base import Clipped, Model, Record, clip, clip_json

__all__ = [
    "CheckRecord",
    "ClaimRowRecord",
    "QuestionRecord",
    "SegmentRecord",
    "TamperCaseRecord",
    "TamperRecord",
    "TokenRecord",
]

_EMBEDDED_DEFAULT: JsonDict = {"default": None}
_FreeObject = dict[str, Any]
"""Claims as the token carries them: any JSON (the exported schema says so)."""

OWNER_NOTE = "the server owner's view: a client must never parse requestState (it is the server's opaque token)"


class SegmentRecord(Model):
    """One coloured part of the token string: characters [start, end)."""

    part: str
    """prefix | kid | nonce | sealed | payload | dot | signature | body"""
    label: str
    start: int
    end: int
    size: int | None = None
    note: str = ""


class CheckRecord(Model):
    """One step of the server's boundary check."""

    model_config = ConfigDict(frozen=True)  # the steps that read the same every time are shared by all reports

    step: str
    status: Literal["pass", "fail", "unknown", "not reached", "skipped"]
    reason: str | None = None
    """The exact reason the server logs when this step fails."""
    detail: str = ""


class ClaimRowRecord(Model):
    claim: str
    value: Any = None
    meaning: str
    status: Literal["ok", "mismatch", "unknown", "info"] = "info"
    note: str = ""
    stable: str
    """The value as the text view shows it: nothing that changes from run to run."""


class QuestionRecord(Model):
    """One resolver question recorded in the SDK's inner state (v3)."""

    key: str
    asked: str | None = None
    answered: bool = False
    action: str | None = None
    data: Any = None
    pinned: str | None = None
    question: str | None = None


class TokenRecord(Record):
    # What the inspector found, as its views draw it. The inspector holds the token, the inner state and
    # the claims whole; they are embedded clipped when the record is dumped (the serializers below), and a
    # dumped record reads back as it was. `_EMBEDDED_DEFAULT` keeps the defaults in the exported schema,
    # which pydantic leaves out for a field with a serializer.

    kind: Literal["token"] = "token"
    version: Literal[1] = 1
    owner_note: str = OWNER_NOTE
    token: str | Clipped | None = Field(default=None, json_schema_extra=_EMBEDDED_DEFAULT)
    length: int
    format: str
    format_label: str
    structure: str
    """The format and its parts in order, e.g. `SDK AES-256-GCM v1: prefix | key id | nonce | ciphertext+tag`."""
    prefix: str | None = None
    key_id: str | None = None
    nonce: str | None = None
    sealed_bytes: int | None = None
    problem: str | None = None
    confidential: bool | None = None
    segments: list[SegmentRecord] = []
    server: str | None = None
    opener: str
    """ring | codec | keyless | unprotected | none: what was used to open the token."""
    opened_by: str
    """The opener in words (`with server 'demo' key ring (1 key(s), slot 0)`)."""
    can_open: str = ""
    ring_ids: list[str] = []
    slot: int | None = None
    opened: bool = False
    verified: bool = False
    claims: _FreeObject | None = Field(default=None, json_schema_extra=_EMBEDDED_DEFAULT)
    claim_rows: list[ClaimRowRecord] = []
    expected: _FreeObject = Field(default_factory=dict, json_schema_extra={"default": {}})
    ttl: float | None = None
    ttl_left: float | None = None
    issued_at: str | None = None
    expires_at: str | None = None
    inner_state: str | Clipped | None = Field(default=None, json_schema_extra=_EMBEDDED_DEFAULT)
    inner_kind: Literal["resolver", "handmade"] | None = None
    questions: list[QuestionRecord] = []
    checks: list[CheckRecord] = []
    verdict: str
    """"ok", the reason the server logs, or "unknown" when the lab cannot tell."""
    verdict_tone: Literal["ok", "err", "unknown"]
    verdict_title: Literal["Accepted", "Rejected", "Undetermined"]
    verdict_detail: str = ""
    cannot_know: list[str] = []
    notes: list[str] = []
    danger: str | None = None

    @field_serializer("token", "inner_state")
    def _embedded(self, text: str | Clipped | None) -> str | Clipped | None:
        return clip(text) if text is not None else None

    @field_serializer("claims")
    def _embedded_claims(self, claims: _FreeObject | None) -> _FreeObject | None:
        return clip_json(claims) if claims is not None else None

    @field_serializer("expected")
    def _embedded_expected(self, expected: _FreeObject) -> _FreeObject:
        return dict(clip_json(expected))


class TamperCaseRecord(Model):
    """One variant: what changed, what the wire said, what the server logged, what was predicted."""

    case: str
    changed: str
    expected: str
    wire: str
    logged: str | None = None
    predicted: str
    agree: bool
    note: str = ""


class TamperRecord(Record):
    kind: Literal["tamper"] = "tamper"
    version: Literal[1] = 1
    server: str
    method: str
    target: str
    agreed: int
    cases: list[TamperCaseRecord] = []
    notes: list[str] = []
