"""Any string at all -- random text, or a real token bent out of shape -- gets a TokenReport, never an exception.

10,000 strings in all: four tests of 500 Hypothesis examples, each example five strings (Hypothesis spends
a few ms on every example of its own, so batching keeps the suite quick). Mutations come from a drawn seed.
Each report must also render and serialize.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.server.mcpserver import AESGCMRequestStateCodec

import mcp_lab
from mcp_lab import EnvelopeCodec, HMACSignOnlyCodec, KeyRing, TokenReport, inspect_token
from mcp_lab.protocol.token_parts import b64u, b64u_decode_explained
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.tokens.report import STEPS
from mcp_lab.tokens.view import token_bundle
from tests.conftest import build_demo

from .helpers import send

BATCH = 5
FUZZ = settings(
    max_examples=500, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
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
    failed = [c for c in report.checks if c.status == "fail"]
    if failed:
        assert len(failed) == 1 and report.verdict == failed[0].reason
    else:
        assert report.verdict in ("ok", "unknown")
    bundle = token_bundle(report.record())
    json.dumps(bundle["application/vnd.mcp-lab.token+json"], allow_nan=False)
    assert bundle["text/plain"] and bundle["text/html"]


def mutate(token: str, seed: int) -> str:
    """1-4 random edits: replace, insert or delete characters, truncate, or flip a bit of the decoded body."""
    rng = random.Random(seed)
    alphabet = "AZaz09-_=+/.é\x00 v1."
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(token) + 1)
        kind = rng.randrange(5)
        if kind == 0:
            token = token[:at] + rng.choice(alphabet) + token[at + 1 :]
        elif kind == 1:
            token = token[:at] + "".join(rng.choices(alphabet, k=rng.randint(1, 3))) + token[at:]
        elif kind == 2:
            token = token[:at] + token[at + rng.randint(1, 8) :]
        elif kind == 3:
            token = token[:at]
        elif token.startswith("v1."):
            raw, _ = b64u_decode_explained(token[3:])
            if raw:
                i = rng.randrange(len(raw))
                token = "v1." + b64u(raw[:i] + bytes([raw[i] ^ (1 << rng.randrange(8))]) + raw[i + 1 :])
    return token


SEEDS = st.integers(0, 2**32 - 1)
B64U = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/", max_size=120)


@FUZZ
@given(texts=st.lists(st.text(max_size=160), min_size=BATCH, max_size=BATCH))
def test_random_text(material: Material, texts: list[str]) -> None:
    for text in texts:
        healthy(inspect_token(text))
        healthy(inspect_token(text, ring=material.ring, call=CALL, audience="fuzz"))


@FUZZ
@given(
    shapes=st.lists(
        st.tuples(st.sampled_from(["v1.", "hs1.", "kms1.", "v2.", ""]), B64U), min_size=BATCH, max_size=BATCH
    )
)
def test_random_token_shapes(material: Material, shapes: list[tuple[str, str]]) -> None:
    for prefix, body in shapes:
        healthy(inspect_token(prefix + body, ring=material.ring, call=CALL, audience="fuzz", principal="alice"))
        healthy(inspect_token(prefix + body, codec=HMAC))


@FUZZ
@given(seed=SEEDS)
def test_mutated_real_tokens_with_the_key(material: Material, seed: int) -> None:
    for i in range(BATCH):
        index = (seed + i) % 4
        token = mutate(material.tokens[index], seed + i)
        codec: Any = (None, None, HMAC, ENVELOPE)[index]
        if codec is None:
            healthy(inspect_token(token, ring=material.ring, call=CALL, audience="fuzz"))
        else:
            healthy(inspect_token(token, codec=codec, call=CALL, audience="fuzz"))


@FUZZ
@given(seed=SEEDS)
def test_mutated_real_tokens_without_a_key(material: Material, seed: int) -> None:
    for i in range(BATCH):
        healthy(inspect_token(mutate(material.tokens[(seed + i) % 4], seed + i), call=CALL))


def test_unmutated_tokens_open(material: Material) -> None:
    handmade, resolver, signed, enveloped = material.tokens
    assert inspect_token(handmade, ring=material.ring, call=CALL, audience="fuzz").verdict == "ok"
    assert inspect_token(resolver, ring=material.ring).inner_kind == "resolver"
    assert inspect_token(signed, codec=HMAC, call=CALL, audience="fuzz").verdict == "ok"
    assert inspect_token(enveloped, codec=ENVELOPE, call=CALL, audience="fuzz").verdict == "ok"
    assert mcp_lab.inspect_token(signed).opened  # sign-only: readable without the key
