"""inspect_token on real tokens: anatomy, ring slots, claims, resolver questions, codecs, plaintext servers."""

from __future__ import annotations

import json
import os
import time
from types import SimpleNamespace

import mcp.types as T
import pytest

import mcp_lab
from mcp_lab import EnvelopeCodec, HMACSignOnlyCodec, TokenReport, inspect_token, use_codec
from mcp_lab.protocol.anatomy import keyless_anatomy
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox

from .helpers import forge, observed, send


async def booked_twice(entry: LabServer) -> mcp_lab.Flow:
    flow = await mcp_lab.start(entry.name, "tools/call", "book", {"city": "Paris"})
    await flow.step()
    await flow.step(answers={"ask_region": {"region": "eu"}})
    return flow


@pytest.mark.parametrize(
    ("token", "problem"),
    [
        ("", "empty"),
        ("v1.", "too short: 0 bytes"),
        ("v1.AAAA", "too short: 3 bytes"),
        ("v1.AAA=", "padding '=' at position 6"),
        ("v1.ab+c", "'+' at position 5 is standard base64"),
        ("v1.ab c", "character ' ' at position 5"),
        ("v1.AAAAA", "length ≡ 1 mod 4"),
        ("v1.AB", "non-canonical base64url"),
        ("v1.é", "character 'é' at position 3"),
    ],
)
def test_malformed_tokens_are_explained_without_a_key(token: str, problem: str) -> None:
    report = inspect_token(token)
    assert report.verdict == "malformed"
    assert report.problem is not None and problem in report.problem
    assert report.checks[0].status == "fail" and report.checks[0].reason == "malformed"


def test_non_string_and_absent_state() -> None:
    absent = inspect_token(None)
    assert absent.verdict == "ok" and "absent" in absent.verdict_detail
    number = inspect_token(42)
    assert number.verdict == "non-string requestState" and number.format == "non-string"


async def test_keyless_anatomy_of_a_real_token(demo: LabServer) -> None:
    flow = await booked_twice(demo)
    token = flow.request_state
    assert token is not None
    report = inspect_token(token)
    assert report.format == "aes-gcm-v1" and report.prefix == "v1."
    assert report.key_id == demo.ring.ids[0]  # type: ignore[union-attr]
    assert report.nonce is not None and len(report.nonce) == 24
    assert [s.part for s in report.segments] == ["prefix", "kid", "nonce", "sealed"]
    assert report.segments[-1].end == len(token) and report.segments[0].start == 0
    assert report.claims is None and report.verdict == "unknown"
    assert any("encrypted" in c for c in report.cannot_know)


async def test_server_owner_sees_claims_and_questions(demo: LabServer) -> None:
    flow = await booked_twice(demo)
    report = inspect_token(flow)  # the flow names its token, its call and its server
    assert report.verdict == "ok" and report.slot == 0 and report.verified
    claims = report.claims or {}
    assert (claims["m"], claims["t"], claims["aud"]) == ("tools/call", "book", "demo")
    assert report.ttl == 600 and report.ttl_left is not None and 590 < report.ttl_left <= 600
    assert report.issued_at is not None and report.issued_at.endswith("Z")
    assert [c.step for c in report.checks] == [
        "codec",
        "version",
        "issued-at",
        "expiry",
        "request binding",
        "audience",
        "principal",
    ]
    assert all(c.status == "pass" for c in report.checks)
    assert report.inner_kind == "resolver"
    region, ok = report.questions
    assert (region.key, region.answered, region.action, region.data) == (
        "tests.conftest:ask_region",
        True,
        "accept",
        {"region": "eu"},
    )
    assert region.question == "Which region for Paris?" and region.pinned is not None
    assert (ok.key, ok.answered, ok.question) == ("tests.conftest:ask_ok", False, "Proceed in eu?")
    assert ok.asked is not None
    json.loads(report.to_json())  # plain data all the way down


async def test_call_forms_and_argument_mismatch(demo: LabServer) -> None:
    flow = await mcp_lab.start("demo", "tools/call", "handmade", {"x": 3})
    await flow.step()
    token = flow.request_state
    for call in (
        flow,
        ("tools/call", "handmade", {"x": 3}),
        {"method": "tools/call", "name": "handmade", "arguments": {"x": 3}},
    ):
        assert inspect_token(token, server="demo", call=call).verdict == "ok"
    wrong = inspect_token(token, server="demo", call=("tools/call", "handmade", {"x": 4}))
    assert wrong.verdict == "request binding"
    assert {r.claim: r.status for r in wrong.claim_rows}["a"] == "mismatch"
    unchecked = inspect_token(token, server="demo")
    assert unchecked.verdict == "unknown" and unchecked.check("request binding").status == "unknown"  # type: ignore[union-attr]
    assert unchecked.inner_state == '{"x": 3}' and unchecked.inner_kind == "handmade"


async def test_ring_slot_after_rotation(demo: LabServer) -> None:
    old = demo.ring
    assert old is not None
    token = await send(demo, None)
    demo.install_ring(old.rotated())  # a new key in front: slot 0 seals now, the old key is slot 1
    report = inspect_token(token.request_state, server="demo", call=("tools/call", "handmade", {"x": 1}))
    assert report.slot == 1 and report.verdict == "ok"
    assert observed(await send(demo, token.request_state)) == "ok"
    retired = inspect_token(token.request_state, ring=mcp_lab.KeyRing.fresh())
    assert retired.verdict == "unknown key" and retired.slot is None


async def test_ring_without_server_says_what_it_cannot_know(demo: LabServer) -> None:
    token = forge(demo)
    report = inspect_token(token, ring=demo.ring)
    assert report.opened and report.verdict == "unknown"
    assert report.check("audience").status == "unknown"  # type: ignore[union-attr]
    assert report.check("principal").status == "pass"  # type: ignore[union-attr]
    full = inspect_token(token, ring=demo.ring, call=("tools/call", "handmade", {"x": 1}), audience="demo")
    assert full.verdict == "ok"
    assert (
        inspect_token(token, ring=demo.ring, call=("tools/call", "handmade", {"x": 1}), audience="other").verdict
        == "audience"
    )


async def test_expiry_uses_the_given_clock(demo: LabServer) -> None:
    token = forge(demo)
    call = ("tools/call", "handmade", {"x": 1})
    assert inspect_token(token, server="demo", call=call, now=time.time() + 601).verdict == "expired"
    assert inspect_token(token, server="demo", call=call, now=time.time() - 61).verdict == "minted in the future"


async def test_principal_binding_with_the_lab_identity(demo: LabServer) -> None:
    demo.install_ring(demo.ring, bind_principal=mcp_lab.lab_principal)  # type: ignore[arg-type]
    mcp_lab.set_principal("alice")
    flow = await mcp_lab.start("demo", "tools/call", "handmade", {"x": 1})
    await flow.step()
    report = inspect_token(flow)
    assert report.verdict == "ok" and isinstance((report.claims or {}).get("p"), str)
    assert "alice" not in json.dumps(report.claims)  # a salted tag, never the name
    assert inspect_token(flow, principal="bob").verdict == "principal"
    mcp_lab.set_principal("bob")
    assert inspect_token(flow).verdict == "principal"
    await flow.step(answers={"q1": {"n": 1}})
    assert flow.status == "error" and (flow.error or {}).get("reason") == "principal"
    await sandbox.restart("demo")  # a restart swaps the key but keeps the principal policy
    assert demo.policy["bind_principal"] is mcp_lab.lab_principal


def test_header_principal_reads_the_request() -> None:
    bind = mcp_lab.header_principal("X-Lab-User")

    ctx = SimpleNamespace(request=SimpleNamespace(headers={"x-lab-user": "carol"}))
    assert bind(ctx) == "carol" and bind(object()) is None
    with pytest.raises(mcp_lab.LabError):
        mcp_lab.set_principal("")


async def test_sign_only_codec_is_readable_without_its_key(demo: LabServer) -> None:
    codec = HMACSignOnlyCodec(os.urandom(32))
    use_codec(demo, codec)
    flow = await mcp_lab.start("demo", "tools/call", "handmade", {"x": 5})
    await flow.step()
    token = flow.request_state or ""
    assert token.startswith("hs1.")
    keyless = inspect_token(token, call=flow)
    assert keyless.format == "hmac-sign-only" and keyless.confidential is False
    assert keyless.opened and not keyless.verified and keyless.inner_state == '{"x": 5}'
    assert keyless.check("codec").status == "unknown"  # type: ignore[union-attr]
    owner = inspect_token(flow)
    assert owner.verified and owner.verdict == "ok" and "sign-only" in owner.can_open
    forged = token.replace(token.split(".")[1], token.split(".")[1][:-2] + "AA")
    assert inspect_token(forged, codec=codec).verdict in ("seal", "malformed")


async def test_envelope_codec_opens_its_own_format_only(demo: LabServer) -> None:
    codec = EnvelopeCodec(EnvelopeCodec.unwrap_data_key())
    use_codec(demo, codec)
    flow = await mcp_lab.start("demo", "tools/call", "handmade", {"x": 6})
    await flow.step()
    token = flow.request_state or ""
    assert token.startswith("kms1.")
    assert keyless_anatomy(token).format == "envelope"
    keyless = inspect_token(token)
    assert not keyless.opened and keyless.verdict == "unknown" and keyless.nonce is not None
    assert inspect_token(flow).verdict == "ok"
    other = inspect_token(token, codec=HMACSignOnlyCodec(os.urandom(32)))
    assert other.verdict == "malformed" and any("cannot open that format" in n for n in other.notes)
    tampered = token[:-1] + ("0" if token[-1] != "0" else "1")
    assert inspect_token(tampered, server="demo").verdict == "token failed verification"
    assert observed(await send(demo, tampered, arguments={"x": 6})) == "token failed verification"
    assert "key" not in repr(codec).replace("(key ", "")


async def test_plaintext_state_on_a_lowlevel_server_is_flagged() -> None:
    async def call_tool(ctx: object, params: T.CallToolRequestParams) -> T.CallToolResult | T.InputRequiredResult:
        if params.request_state is None:
            return T.InputRequiredResult(request_state='{"admin": false}')
        return T.CallToolResult(content=[T.TextContent(type="text", text=params.request_state)])

    async def list_tools(ctx: object, params: object) -> T.ListToolsResult:
        return T.ListToolsResult(tools=[T.Tool(name="naive", input_schema={"type": "object"})])

    low = sandbox.register(sandbox.new_lowlevel("low", {"on_call_tool": call_tool, "on_list_tools": list_tools}))
    try:
        rnd = await send(low, None, target="naive", arguments={})
        report = inspect_token(rnd.request_state, server="low")
        assert report.opener == "unprotected" and report.verdict == "ok"
        assert report.inner_state == '{"admin": false}'
        assert report.danger is not None and "attacker-controlled" in report.danger
        assert all(c.status == "skipped" for c in report.checks)
        forged = await send(low, '{"admin": true}', target="naive", arguments={})
        assert forged.outcome == "result"  # nothing checks it: the handler believes the client
        assert forged.result is not None and forged.result["content"][0]["text"] == '{"admin": true}'
    finally:
        await sandbox.stop_all()


def test_bad_arguments_are_one_clear_error() -> None:
    with pytest.raises(mcp_lab.LabError, match="no server named"):
        inspect_token("v1.x", server="nope")
    with pytest.raises(mcp_lab.LabError, match="call="):
        inspect_token("v1.x", call=42)
    with pytest.raises(mcp_lab.LabError, match="codec="):
        inspect_token("v1.x", codec=object())
    assert isinstance(inspect_token("v1.x", ring=[os.urandom(32)]), TokenReport)


@pytest.mark.parametrize(
    ("method", "target", "arguments"),
    [
        ("tools/call", "t", {}),
        ("tools/call", "t", None),
        ("tools/call", "t", {"b": [1, 2.5, None], "a": {"z": "é", "y": True}}),
        ("tools/call", "t", {"s": "\ud800 lone surrogate"}),
        ("prompts/get", "p", {"n": "7"}),
        ("resources/read", "doc://1", {"ignored": 1}),
    ],
)
def test_arguments_digest_is_the_sdks(method: str, target: str, arguments: dict[str, object] | None) -> None:
    from mcp.server.request_state import _request_identity

    from mcp_lab.tokens.claims import request_identity

    params = {"uri": target} if method == "resources/read" else {"name": target, "arguments": arguments}
    assert request_identity(method, target, arguments) == _request_identity(method, params)


def test_unserializable_arguments_leave_binding_unchecked() -> None:
    report = inspect_token("v1.x", call=("tools/call", "t", {"when": object()}))
    assert any("not JSON" in n for n in report.notes)
