"""Token and tamper views: stable text, coloured HTML, plain vendor JSON -- and never a byte of key material."""

from __future__ import annotations

import base64
import json
import os
import pickle
from collections.abc import Iterable
from typing import Any

import mcp.types as T
import pytest
from mcp.server.request_state import _derive_key

import mcp_lab
from mcp_lab import EnvelopeCodec, HMACSignOnlyCodec, inspect_token, tamper_lab, use_codec
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.tokens.tamper import flip_byte
from mcp_lab.tokens.view import OWNER_NOTE, TOKEN_MIME
from tests.conftest import build_demo


async def booked(server: str) -> mcp_lab.Flow:
    flow = await mcp_lab.start(server, "tools/call", "book", {"city": "Paris"})
    await flow.step()
    await flow.step(answers={"ask_region": {"region": "eu"}})
    return flow


def spellings(key: bytes) -> list[str]:
    """Every way a key could leak into text: raw, hex, base64 and base64url, padded or not."""
    forms = [key.hex(), key.hex().upper(), key.decode("latin-1"), repr(key)[2:-1]]
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        text = encode(key).decode()
        forms += [text, text.rstrip("=")]
    return forms


def assert_no_keys(texts: Iterable[str], keys: Iterable[bytes]) -> None:
    corpus = "\n".join(texts)
    for key in keys:
        for material in (key, _derive_key(key)):  # the operator secret and the AES key derived from it
            for form in spellings(material):
                assert form not in corpus, "key material in a rendering"


def rendered(obj: Any) -> list[str]:
    bundle = obj._repr_mimebundle_()
    return [repr(obj), str(obj), *(v if isinstance(v, str) else json.dumps(v) for v in bundle.values())]


async def test_bundle_is_a_jwt_debugger(demo: LabServer) -> None:
    flow = await booked("demo")
    report = inspect_token(flow)
    bundle = report._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", TOKEN_MIME}
    text, page, data = bundle["text/plain"], bundle["text/html"], bundle[TOKEN_MIME]
    assert text.startswith(f"requestState inspector — {OWNER_NOTE}")
    assert "verdict  ✔ ok" in text and "✔ codec" in text and "Which region for Paris?" in text
    assert "answered: accept" in text and "asked, awaiting an answer" in text
    for part in ("prefix", "kid", "nonce", "sealed"):
        segment = next(s for s in data["segments"] if s["part"] == part)
        assert f"title='{segment['label']}" in page and segment["end"] > segment["start"]
    assert "Accepted" in page and report.key_id is not None and report.key_id in page
    assert data["verdict"] == "ok" and data["claims"]["t"] == "book"
    assert json.loads(json.dumps(data, allow_nan=False)) == data


async def test_text_plain_is_stable_across_keys_nonces_and_times() -> None:
    texts = []
    for _ in range(2):  # a fresh server each time: new key, new nonces, new times
        build_demo()
        try:
            flow = await booked("demo")
            report = inspect_token(flow)
            assert report.token is not None
            text = report._repr_mimebundle_()["text/plain"]
            assert report.token not in text and report.key_id not in text  # type: ignore[operator]
            assert report.nonce not in text and (report.issued_at or "?")[:16] not in text  # type: ignore[operator]
            texts.append(text)
        finally:
            await sandbox.stop_all()
    assert texts[0] == texts[1]


async def test_malformed_and_rejected_views(demo: LabServer) -> None:
    text = inspect_token("v1.ab+c", server="demo")._repr_mimebundle_()["text/plain"]
    assert "problem  '+' at position 5 is standard base64" in text
    assert "✘ codec            malformed" in text and "verdict  ✘ malformed" in text
    page = inspect_token("v1.ab+c")._repr_mimebundle_()["text/html"]
    assert "Rejected" in page and "malformed" in page


async def test_wire_error_sits_beside_the_logged_reason(demo: LabServer) -> None:
    flow = await mcp_lab.start("demo", "tools/call", "handmade", {"x": 1})
    await flow.step()
    flow.rounds[-1].request_state = flip_byte(flow.rounds[-1].request_state or "")
    await flow.step(answers={"q1": {"n": 1}})
    assert flow.status == "error" and (flow.error or {})["reason"] == "seal"
    text = flow._repr_mimebundle_()["text/plain"]
    assert "wire: -32602 Invalid or expired requestState — server logged: seal" in text


async def test_no_key_material_in_any_rendering(demo: LabServer) -> None:
    assert demo.ring is not None
    keys = list(demo.ring.secret_keys())
    texts: list[str] = []
    flow = await booked("demo")
    token = flow.request_state
    for report in (
        inspect_token(flow),
        inspect_token(token),
        inspect_token(token, ring=demo.ring),
        inspect_token(flip_byte(token or ""), server="demo", call=flow),
        inspect_token(token, ring=mcp_lab.KeyRing.fresh()),
        inspect_token("v1.AAAA", server="demo"),
    ):
        texts += rendered(report)
    texts += rendered(await tamper_lab(flow))
    texts += [repr(demo.ring), str(demo.ring), repr(demo), flow.to_json()]

    for codec, key in ((HMACSignOnlyCodec, os.urandom(32)), (EnvelopeCodec, os.urandom(32))):
        instance = codec(key)
        keys.append(key)
        use_codec(demo, instance)
        sealed = await mcp_lab.start("demo", "tools/call", "handmade", {"x": 1})
        await sealed.step()
        texts += rendered(inspect_token(sealed)) + rendered(inspect_token(sealed.request_state))
        texts += [*rendered(await tamper_lab(sealed)), repr(instance), str(instance)]
        with pytest.raises(TypeError, match="cannot be pickled"):
            pickle.dumps(instance)
    assert_no_keys(texts, keys)


async def test_plaintext_view_warns(demo: LabServer) -> None:
    async def call_tool(ctx: object, params: T.CallToolRequestParams) -> T.InputRequiredResult:
        return T.InputRequiredResult(request_state='{"admin": false}')

    sandbox.register(sandbox.new_lowlevel("low", {"on_call_tool": call_tool}))
    text = inspect_token('{"admin": false}', server="low")._repr_mimebundle_()["text/plain"]
    assert "DANGER   requestState is attacker-controlled" in text
    assert 'state    {"admin": false} (plaintext, exactly as the client holds it)' in text


async def test_tamper_view_text_is_stable(demo: LabServer) -> None:
    flow = await mcp_lab.start("demo", "tools/call", "handmade", {"x": 1})
    await flow.step()
    report = await tamper_lab(flow)
    bundle = report._repr_mimebundle_()
    text = bundle["text/plain"]
    assert text.splitlines()[0] == "Tamper lab: tools/call 'handmade' on 'demo' — 8/8 predictions agree with the server"
    assert "wire: -32602 Invalid or expired requestState — server logged: seal — predicted: seal" in text
    assert (flow.request_state or "") not in text
    assert bundle["application/vnd.mcp-lab.tamper+json"]["cases"][0]["case"] == "flipped byte"
    assert "<table>" in bundle["text/html"]
