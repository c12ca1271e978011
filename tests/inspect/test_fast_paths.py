"""The inspector's shortcuts give exactly what the plain path gives: JSON, the args digest, the key id.

`inspect_token` runs once per token in the tamper and rotation labs, so its hot path skips work the SDK codec
has already done (bench/inspect.py measures it). Each shortcut is checked here against the plain function
it stands in for, on the inputs where the two could part ways.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp.server.mcpserver import AESGCMRequestStateCodec
from mcp.server.request_state import _request_identity

from mcp_lab import KeyRing, inspect_token
from mcp_lab.inspect.anatomy import b64u, quick_key_id
from mcp_lab.inspect.claims import _loads, request_identity
from mcp_lab.inspect.context import RingFacts

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


def outcome(parse: Any, payload: bytes) -> Any:
    try:
        return ("value", parse(payload))
    except Exception as exc:
        return ("error", type(exc))


@settings(max_examples=300, deadline=None, database=None)
@given(st.dictionaries(st.text(), JSON, max_size=5), st.sampled_from(["", " ", "\n", "x", "}", ", 1"]))
def test_payload_parsing_is_json_loads(claims: dict[str, Any], tail: str) -> None:
    for text in (json.dumps(claims), json.dumps(claims, ensure_ascii=False) + tail, " " + json.dumps(claims)):
        payload = text.encode("utf-8", "surrogatepass")
        assert outcome(_loads, payload) == outcome(json.loads, payload)


@settings(max_examples=300, deadline=None, database=None)
@given(st.binary(max_size=40))
def test_payload_parsing_of_any_bytes_is_json_loads(raw: bytes) -> None:
    for payload in (raw, b'{"' + raw, b'{"a":' + raw + b"}", "\ufeff".encode() + b'{"a":1}'):
        assert outcome(_loads, payload) == outcome(json.loads, payload)


def test_payload_parsing_keeps_exact_floats_and_duplicates() -> None:
    payload = b'{"iat":1800000000.1234567,"a":1,"a":2,"n":NaN}'
    assert repr(_loads(payload)) == repr(json.loads(payload))


def test_args_digest_survives_a_failed_encoding() -> None:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    with pytest.raises(ValueError):
        request_identity("tools/call", "t", loop)
    with pytest.raises(TypeError):
        request_identity("tools/call", "t", {"when": object()})
    arguments = {"b": [1, {"c": 2}], "a": "é"}
    assert request_identity("tools/call", "t", arguments) == _request_identity(
        "tools/call", {"name": "t", "arguments": arguments}
    )


def test_token_heads_name_the_key_and_slot() -> None:
    ring = KeyRing([os.urandom(32) for _ in range(3)])
    facts = RingFacts(ring.ids)
    for slot, key in enumerate(ring.secret_keys()):
        for _ in range(20):
            token = AESGCMRequestStateCodec([key]).seal(os.urandom(8))
            assert facts.by_head[token[3:9]] == (quick_key_id(token), slot)
    stranger = "v1." + b64u(os.urandom(40))
    known = facts.by_head.get(stranger[3:9])
    assert known is None or known[0] == quick_key_id(stranger)


def test_ring_fast_path_matches_a_full_look() -> None:
    ring = KeyRing([os.urandom(32), os.urandom(32)])
    token = AESGCMRequestStateCodec([ring.secret_keys()[1]]).seal(b'{"v":1,"iat":0,"exp":1e300,"s":"x"}')
    report = inspect_token(token, ring=ring, now=10.0)
    assert report.verdict == "unknown" and report.verified and report.slot == 1
    assert report.key_id == ring.ids[1] == quick_key_id(token)
    assert report.anatomy is not None and report.anatomy.key_id == report.key_id
    assert [s.part for s in report.segments] == ["prefix", "kid", "nonce", "sealed"]
