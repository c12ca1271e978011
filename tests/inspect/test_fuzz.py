"""Any string at all -- random text, or a real token bent out of shape -- gets a TokenReport, never an exception.

10,000 examples in all, split over four tests; each report must also render and serialize.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.server.mcpserver import AESGCMRequestStateCodec

import mcp_lab
from mcp_lab import EnvelopeCodec, HMACSignOnlyCodec, KeyRing, TokenReport, inspect_token
from mcp_lab.inspect.report import STEPS
from mcp_lab.sandbox import sandbox
from mcp_lab.views.tokens import token_bundle
from tests.conftest import build_demo

from .helpers import send

FUZZ = settings(
    max_examples=2500, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
HMAC = HMACSignOnlyCodec(os.urandom(32))
ENVELOPE = EnvelopeCodec(os.urandom(32))
CALL = ("tools/call", "handmade", {"x": 1})


class Material:
    ring: KeyRing
    tokens: list[str]


@pytest.fixture(scope="module")
def material() -> Iterator[Material]:
    """Real tokens from a real server (plus the same claims under the two lab codecs)."""

    async def mint() -> Material:
        entry = build_demo("fuzz")
        try:
            found = Material()
            assert entry.ring is not None
            found.ring = entry.ring
            handmade = (await send(entry, None)).request_state
            resolver = (await send(entry, None, target="book", arguments={"city": "Rome"})).request_state
            assert handmade is not None and resolver is not None
            claims = AESGCMRequestStateCodec(entry.ring.secret_keys()).unseal(handmade)
            found.tokens = [handmade, resolver, HMAC.seal(claims), ENVELOPE.seal(claims)]
            return found
        finally:
            await sandbox.stop("fuzz")

    yield asyncio.run(mint())


def healthy(report: TokenReport) -> None:
    assert isinstance(report, TokenReport)
    assert not any(n.startswith("inspector error") for n in report.notes), report.notes
    assert [c.step for c in report.checks] in ([], list(STEPS))
    assert report.verdict in ("ok", "unknown") or report.checks and any(c.status == "fail" for c in report.checks)
    bundle = token_bundle(report)
    json.dumps(bundle["application/vnd.mcp-lab.token+json"], allow_nan=False)
    assert bundle["text/plain"] and bundle["text/html"]


def mutate(token: str, ops: list[tuple[int, int, str]]) -> str:
    for kind, position, text in ops:
        at = position % (len(token) + 1)
        if kind == 0:
            token = token[:at] + text + token[at + 1 :]
        elif kind == 1:
            token = token[:at] + text + token[at:]
        elif kind == 2:
            token = token[:at] + token[at + 1 + len(text) :]
        else:
            token = token[:at]
    return token


OPS = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10_000), st.text(max_size=3)), min_size=1, max_size=4)
B64U = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/", max_size=120)


@FUZZ
@given(text=st.text(max_size=300))
def test_random_text(material: Material, text: str) -> None:
    healthy(inspect_token(text))
    healthy(inspect_token(text, ring=material.ring, call=CALL, audience="fuzz"))


@FUZZ
@given(body=B64U, prefix=st.sampled_from(["v1.", "hs1.", "kms1.", "v2.", ""]))
def test_random_token_shapes(material: Material, body: str, prefix: str) -> None:
    healthy(inspect_token(prefix + body, ring=material.ring, call=CALL, audience="fuzz", principal="alice"))
    healthy(inspect_token(prefix + body, codec=HMAC))


@FUZZ
@given(index=st.integers(0, 3), ops=OPS)
def test_mutated_real_tokens_with_the_key(material: Material, index: int, ops: list[tuple[int, int, str]]) -> None:
    token = mutate(material.tokens[index], ops)
    codec: Any = (None, None, HMAC, ENVELOPE)[index]
    if codec is None:
        healthy(inspect_token(token, ring=material.ring, call=CALL, audience="fuzz"))
    else:
        healthy(inspect_token(token, codec=codec, call=CALL, audience="fuzz"))


@FUZZ
@given(index=st.integers(0, 3), ops=OPS)
def test_mutated_real_tokens_without_a_key(material: Material, index: int, ops: list[tuple[int, int, str]]) -> None:
    healthy(inspect_token(mutate(material.tokens[index], ops), call=CALL))


def test_unmutated_tokens_open(material: Material) -> None:
    handmade, resolver, signed, enveloped = material.tokens
    assert inspect_token(handmade, ring=material.ring, call=CALL, audience="fuzz").verdict == "ok"
    assert inspect_token(resolver, ring=material.ring).inner_kind == "resolver"
    assert inspect_token(signed, codec=HMAC, call=CALL, audience="fuzz").verdict == "ok"
    assert inspect_token(enveloped, codec=ENVELOPE, call=CALL, audience="fuzz").verdict == "ok"
    assert mcp_lab.inspect_token(signed).opened  # sign-only: readable without the key
