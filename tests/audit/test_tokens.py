"""What a client can do to a token without a key: flip one bit, cut, splice, read and edit what is readable.

Spec context: requestState is attacker-controlled input (Multi Round-Trip Requests, Server Requirements item
4); the SDK docs' token is opaque. These functions know no format but the common encodings.
"""

from __future__ import annotations

import base64
import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp.server.request_state import AESGCMRequestStateCodec, InvalidRequestState

from mcp_lab.audit.tokens import edits, flip_bit, reveal, splice, truncate


def _bits(a: bytes, b: bytes) -> int:
    return sum(bin(x ^ y).count("1") for x, y in zip(a, b, strict=True))


@given(st.binary(min_size=8, max_size=400))
def test_a_bit_flip_changes_one_bit_of_the_decoded_bytes(blob: bytes) -> None:
    token = "v1." + base64.urlsafe_b64encode(blob).decode().rstrip("=")
    flipped, how = flip_bit(token)
    assert flipped != token and flipped.startswith("v1.")
    body = flipped[3:]
    decoded = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    assert _bits(decoded, blob) == 1, how


def test_plaintext_gets_one_character_flipped_and_stays_printable() -> None:
    flipped, how = flip_bit('{"order":1,"amount":25}')
    assert len(flipped) == 23 and flipped.isprintable() and how.startswith("bit 0 of character")
    assert sum(a != b for a, b in zip(flipped, '{"order":1,"amount":25}', strict=True)) == 1


def test_truncate_and_splice() -> None:
    assert truncate("abcdefgh") == ("abcdef", "the last 2 of 8 characters cut off")
    assert truncate("a")[0] == ""
    assert splice("aaaaaaaa", "bbbbbbbb")[0] == "aaaabbbb"


def test_what_a_token_reveals() -> None:
    sealed = "v1." + base64.urlsafe_b64encode(os.urandom(300)).decode().rstrip("=")
    assert reveal(sealed) is None
    assert reveal(os.urandom(16).hex()) is None  # a random handle reads as nothing
    plain = reveal('{"order": 1, "amount": 25}')
    assert plain is not None and plain.describe() == 'readable plain JSON: {"order": 1, "amount": 25}'
    claims = base64.urlsafe_b64encode(json.dumps({"sub": "alice", "amt": 5}).encode()).decode().rstrip("=")
    signed = reveal(f"hs1.{claims}.{base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip('=')}")
    assert signed is not None and signed.form == "base64url JSON (segment 2 of 3)" and signed.value["sub"] == "alice"
    text = reveal("provision-v1")
    assert text is not None and text.form == "plain text"


def test_readable_values_are_edited_one_at_a_time_in_their_own_encoding() -> None:
    assert [how for _, how in edits('{"order":1,"amount":25,"who":"bob"}')] == [
        "order 1 raised by one",
        "amount 25 raised by one",
        "who 'bob' changed",
    ]
    claims = base64.urlsafe_b64encode(b'{"amt":5}').decode().rstrip("=")
    (token, how), *_ = edits(f"hs1.{claims}.c2lnbmF0dXJlLWJ5dGVz")
    body = token.split(".")[1]
    assert json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))) == {"amt": 6}
    assert token.endswith(".c2lnbmF0dXJlLWJ5dGVz") and how == "amt 5 raised by one"
    assert edits("round=1;q=z") == [("round=2;q=z", "the number 1 raised by one")]
    assert edits("v1." + base64.urlsafe_b64encode(os.urandom(64)).decode()) == []


def test_truncating_a_long_token_leaves_whole_base64_quads() -> None:
    """So the refusal reason (what is left no longer opens, rather than no longer decodes) is the same each run."""
    for length in range(16, 200):
        token = "v1." + "A" * (length - 3)
        cut_token, _how = truncate(token)
        assert (len(cut_token) - 3) % 4 == 0 and len(cut_token) < len(token)


def test_a_truncated_sdk_token_is_refused_for_its_seal_whatever_its_length() -> None:
    """The SDK's own codec, payloads of every length modulo 3: the refusal reason never varies (it once said
    `malformed` or `seal` depending on how many bytes the claims took, which a tutorial's saved output showed)."""
    codec = AESGCMRequestStateCodec([os.urandom(32)])
    reasons = set()
    for size in range(100, 160):
        cut_token, _how = truncate(codec.seal(os.urandom(size)))
        with pytest.raises(InvalidRequestState) as refused:
            codec.unseal(cut_token)
        reasons.add(str(refused.value))
    assert reasons == {"seal"}
