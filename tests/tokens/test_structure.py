"""One keyless anatomy for every server's tokens, told apart by structure rather than by a prefix (issue 25).

Spec context: 2026-07-28 `requestState` is opaque to clients and attacker-controlled for servers; how it is
protected is the server's choice. Tokens here are made the way their makers make them: the Python SDK's own
codec, an HMAC-signed `v1.<base64url JSON>.<signature>` exactly as the TypeScript SDK's
`createRequestStateCodec` lays it out (a real one from the TypeScript server is in tests/interop), a JWT, a
JWE-shaped token, plain JSON and a random handle. For each: what the inspector says without a key, and
that the audit's reading (`audit.tokens.reveal`) is the same anatomy's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import time

import pytest
from mcp.server.mcpserver import AESGCMRequestStateCodec

import mcp_lab
from mcp_lab.audit.tokens import edits, reveal
from mcp_lab.flow.view import token_brief
from mcp_lab.protocol.anatomy import keyless_anatomy
from mcp_lab.protocol.keys import KeyRing

KEY = os.urandom(32)
JWE = ".".join(
    [base64.urlsafe_b64encode(b'{"alg":"dir","enc":"A256GCM"}').decode().rstrip("="), "", "aXZpdml2aXZpdml2", "Y2lwaGVy", "dGFn"]
)


def _b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def signed_v1(payload: dict[str, object]) -> str:
    """The TypeScript SDK's layout: `v1.` + b64u(JSON) + `.` + b64u(HMAC-SHA256 over "v1." + body)."""
    body = _b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"v1.{body}.{_b64u(hmac.new(KEY, f'v1.{body}'.encode(), hashlib.sha256).digest())}"


def jwt(header: dict[str, object], claims: dict[str, object]) -> str:
    head, body = _b64u(json.dumps(header).encode()), _b64u(json.dumps(claims).encode())
    return f"{head}.{body}.{_b64u(hmac.new(KEY, f'{head}.{body}'.encode(), hashlib.sha256).digest())}"


def test_a_signed_v1_token_is_readable_never_encrypted_and_names_its_claims() -> None:
    exp = int(time.time()) + 600
    token = signed_v1({"p": {"cart": ["tea"], "round": 1}, "exp": exp, "b": _b64u(os.urandom(16))})
    anatomy = keyless_anatomy(token)
    assert anatomy.format == "signed-v1" and anatomy.confidential is False and anatomy.problem is None
    assert anatomy.claims["p"] == {"cart": ["tea"], "round": 1}
    assert anatomy.carries[0].startswith(f"expiry: exp {exp} = ")
    assert anatomy.carries[1].startswith("binding: b = ")
    assert [s.part for s in anatomy.segments] == ["prefix", "payload", "dot", "signature"]
    report = mcp_lab.inspect_token(token)
    assert report.format == "signed-v1" and report.verdict == "unknown" and report.verdict != "malformed"
    assert "anyone holding this token can read its payload" in report.can_open
    assert "encrypted" not in report.can_open.replace("not encrypted", "")
    assert report.anatomy is not None and report.anatomy.claims["exp"] == exp and report.claim_rows == []
    assert any(n.startswith(f"expiry: exp {exp}") for n in report.notes)
    assert all(c.status == "unknown" for c in report.checks)
    shown = reveal(token)  # the audit's reading is the same anatomy's
    assert shown is not None and shown.value == anatomy.claims and shown.form == "base64url JSON (segment 2 of 3)"
    assert [how for _, how in edits(token)][:2] == ["p.cart[0] 'tea' changed", "p.round 1 raised by one"]
    assert token_brief(token).startswith("SIGNED, NOT ENCRYPTED (signed-v1")


def test_an_unbound_signed_token_says_any_holder_may_present_it() -> None:
    anatomy = keyless_anatomy(signed_v1({"p": "x", "exp": 1}))
    assert "binding: none (no binding claim: any holder may present it)" in anatomy.carries
    assert anatomy.carries[0].endswith("ago: expired)")


def test_the_python_sdk_envelope_stays_encrypted_and_its_broken_spellings_malformed() -> None:
    token = AESGCMRequestStateCodec(KeyRing.fresh().secret_keys()).seal(b'{"v":1}')
    anatomy = keyless_anatomy(token)
    assert anatomy.format == "aes-gcm-v1" and anatomy.confidential is True and anatomy.readable is None
    assert anatomy.statement is not None and anatomy.statement.startswith("encrypted (AES-256-GCM)")
    assert reveal(token) is None and token_brief(token).startswith("sealed v1, key ")
    assert mcp_lab.inspect_token("v1.AAA=").verdict == "malformed"  # the envelope's own rules still explain


@pytest.mark.parametrize(
    ("token", "kind", "confidential", "statement"),
    [
        (jwt({"alg": "HS256", "typ": "JWT"}, {"sub": "ada", "exp": 4102444800}), "jws", False, "signed, not encrypted"),
        (jwt({"alg": "none"}, {"sub": "ada"}), "jws", False, "unsigned (alg none)"),
        (JWE, "jwe", True, "encrypted (JWE)"),
        ('{"cart": ["tea"], "amount": 25}', "json", False, "not protected"),
        ("round=1;q=z", "plaintext", False, "readable by anyone holding it"),
        (os.urandom(24).hex(), "opaque", None, "nothing readable"),
        ("v1." + _b64u(os.urandom(40)) + "." + _b64u(os.urandom(40)), "opaque", None, "nothing readable"),
    ],
    # Named, not drawn from the random tokens: every pytest-xdist worker must collect the same test ids.
    ids=["jws", "jws-alg-none", "jwe", "json", "plaintext", "opaque-hex", "opaque-v1-lookalike"],
)
def test_other_servers_formats_by_structure(token: str, kind: str, confidential: bool | None, statement: str) -> None:
    anatomy = keyless_anatomy(token)
    assert anatomy.format == kind and anatomy.confidential is confidential
    assert anatomy.statement is not None and statement in anatomy.statement
    assert anatomy.problem is None  # another server's token is not "malformed": that server decides
    assert anatomy.sdk_refusal is not None and "Python SDK" in anatomy.sdk_refusal
    report = mcp_lab.inspect_token(token)
    assert report.verdict == "unknown" and report.problem is None
    assert (reveal(token) is None) == (anatomy.readable is None)
    if confidential is False and kind != "plaintext":
        assert anatomy.claims is not None
