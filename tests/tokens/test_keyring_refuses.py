"""Key rings refuse anything but a list (or tuple) of distinct keys of valid length (issue 22, item 2).

The weak-key case: `KeyRing(b"ABC...")` once iterated the bytes and built `bytes(65)`, `bytes(66)`, ... --
all-zero keys that seal tokens anyone can open. Every way into a ring (`KeyRing`, `coerce`, `rotated`,
`sandbox.new_mcpserver/new_lowlevel/add(keys=)`, `adopt(keys=)`, `Fleet(keys=)`, `Fleet.set_ring`,
`LabServer.install_ring`, `RotationStepper(old=, new=)`, `inspect_token(ring=)`) now goes through one check,
and a spy on the SDK's codec asserts that no ring with a repeated or all-zero key ever reaches it, whatever
hypothesis throws at those doors.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.server import request_state
from mcp.server.mcpserver import MCPServer

import mcp_lab
from mcp_lab import Fleet, KeyRing, LabError, RotationStepper
from mcp_lab.protocol.keys import MAX_KEY_BYTES, MAX_KEYS, MIN_KEY_BYTES, key_id
from mcp_lab.servers.sandbox import sandbox

GOOD = b"g" * 32
OTHER = b"o" * 32


@pytest.fixture
def sdk_rings(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[bytes]]]:
    """Every key list the SDK's AES-GCM codec is built from while the test runs."""
    seen: list[list[bytes]] = []
    original = request_state.AESGCMRequestStateCodec.__init__

    def spy(self: Any, keys: Any) -> None:
        seen.append([k.encode() if isinstance(k, str) else bytes(k) for k in keys])
        original(self, keys)

    monkeypatch.setattr(request_state.AESGCMRequestStateCodec, "__init__", spy)
    yield seen


def assert_strong(rings: list[list[bytes]]) -> None:
    for ring in rings:
        assert ring, "an empty ring reached the SDK"
        assert len({key_id(k) for k in ring}) == len(ring), "a ring with a repeated key reached the SDK"
        for key in ring:
            assert any(key), "an all-zero key reached the SDK"
            assert MIN_KEY_BYTES <= len(key) <= MAX_KEY_BYTES


REFUSED: list[tuple[Any, str]] = [
    (b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "give a list of keys, not one bytes object"),
    (bytearray(b"x" * 40), "give a list of keys, not one bytes object"),
    (memoryview(b"x" * 40), "give a list of keys, not one bytes object"),
    ("a-text-key-that-is-long-enough-for-a-key", "give a list of keys, not one str"),
    (None, "no keys given (None)"),
    (42, "keys must be a list of byte strings, not int"),
    (True, "keys must be a list of byte strings, not bool"),
    (3.5, "keys must be a list of byte strings, not float"),
    ({GOOD}, "not set (their order matters: keys[0] seals)"),
    ({"k": GOOD}, "not dict (their order matters"),
    (iter([GOOD]), "keys must be a list of byte strings, not list_iterator"),
    ((k for k in [GOOD]), "not generator"),
    ([], "a key ring needs at least one key"),
    ((), "a key ring needs at least one key"),
    ([GOOD] * 2, "keys[1] repeats keys[0]: every key of a ring must be different"),
    ([GOOD, OTHER, OTHER], "keys[2] repeats keys[1]"),
    ([GOOD, GOOD.decode()], "keys[1] repeats keys[0]"),
    ([bytes(32)], "keys[0] is all zeros"),
    ([GOOD, bytes(64)], "keys[1] is all zeros"),
    (["0" * 64], "keys[0] is all zeros"),
    (["\0" * 32], "keys[0] is all zeros"),
    ([b"short"], "keys[0] is 5 bytes; each key must be 32 to 1024 bytes"),
    ([GOOD, b"x" * 31], "keys[1] is 31 bytes; each key must be 32 to 1024 bytes"),
    ([b"x" * 1025], "keys[0] is 1025 bytes; each key must be 32 to 1024 bytes"),
    ([b""], "keys[0] is 0 bytes"),
    ([65, 66, 67], "keys[0] is int, not bytes"),
    ([GOOD, None], "keys[1] is NoneType, not bytes"),
    ([[GOOD]], "keys[0] is list, not bytes"),
    ([memoryview(GOOD)], "keys[0] is memoryview, not bytes"),
    ([os.urandom(32) for _ in range(MAX_KEYS + 1)], f"a key ring holds at most {MAX_KEYS} keys, not {MAX_KEYS + 1}"),
]


@pytest.mark.parametrize(("keys", "expect"), REFUSED, ids=[f"refused-{i}" for i in range(len(REFUSED))])
def test_a_bad_ring_is_one_line_saying_why(keys: Any, expect: str, sdk_rings: list[list[bytes]]) -> None:
    with pytest.raises(LabError) as caught:
        KeyRing(keys)
    message = str(caught.value)
    assert expect in message and "\n" not in message
    for secret in (GOOD, OTHER, b"ABCDEFGHIJKLMNOP"):  # the message names positions and sizes, never key bytes
        assert secret[:16].decode() not in message
    with pytest.raises(LabError) as again:
        KeyRing.coerce(keys)
    assert str(again.value) == message
    assert sdk_rings == []


def test_good_rings_build_as_before(sdk_rings: list[list[bytes]]) -> None:
    ring = KeyRing([GOOD, OTHER])
    assert ring.ids == [key_id(GOOD), key_id(OTHER)]
    assert KeyRing((GOOD,)).ids == [key_id(GOOD)]
    assert KeyRing([bytearray(GOOD)]) == KeyRing([GOOD])
    assert KeyRing(["t" * 64]).ids == [key_id(b"t" * 64)]  # the SDK's own hint: secrets.token_hex(32), a str
    assert KeyRing.coerce(ring) is ring
    assert len(KeyRing([os.urandom(32) for _ in range(MAX_KEYS)])) == MAX_KEYS
    assert len(KeyRing([b"x" * MAX_KEY_BYTES])) == 1
    ring.security()
    assert_strong(sdk_rings)


def test_rotated_refuses_a_key_it_holds_and_non_keys() -> None:
    ring = KeyRing([GOOD])
    with pytest.raises(LabError, match="the new key is already in the ring"):
        ring.rotated(GOOD)
    with pytest.raises(LabError, match="the new key is 5 bytes"):
        ring.rotated(b"short")
    with pytest.raises(LabError, match="the new key is one key \\(bytes\\), not a list"):
        ring.rotated([OTHER])
    with pytest.raises(LabError, match="the new key is int"):
        ring.rotated(5)
    with pytest.raises(LabError, match="the new key is all zeros"):
        ring.rotated(bytes(32))
    assert ring.rotated(OTHER).ids == [key_id(OTHER), key_id(GOOD)]


def test_key_id_refuses_what_is_not_a_key() -> None:
    with pytest.raises(LabError, match="key_id\\(\\) takes one key"):
        mcp_lab.key_id(5)  # once bytes(5): the id of five zero bytes
    with pytest.raises(LabError, match="key_id\\(\\) takes one key"):
        mcp_lab.key_id(None)


def _doors() -> list[tuple[str, Callable[[Any], Any]]]:
    """Every public way a ring is built from user-given keys."""
    base = sandbox.new_mcpserver("door-base")

    def fleet(keys: Any) -> Any:
        return Fleet("door-fleet", instances=1, keys=keys)

    def set_ring(keys: Any) -> Any:
        return Fleet("door-fleet2", instances=1).set_ring(0, keys)

    def stepper_old(keys: Any) -> Any:
        return RotationStepper(Fleet("door-step", instances=1), old=keys)

    return [
        ("KeyRing", KeyRing),
        ("KeyRing.coerce", KeyRing.coerce),
        ("new_mcpserver", lambda k: sandbox.new_mcpserver("door", keys=k)),
        ("new_lowlevel", lambda k: sandbox.new_lowlevel("door", {}, keys=k)),
        ("sandbox.add", lambda k: sandbox.add(MCPServer("door-add"), keys=k, name="door-add")),
        ("adopt", lambda k: mcp_lab.adopt(MCPServer("door-adopt"), name="door-adopt", keys=k)),
        ("install_ring", base.install_ring),
        ("Fleet", fleet),
        ("Fleet.set_ring", set_ring),
        ("RotationStepper(old=)", stepper_old),
        ("rotated", KeyRing([b"r" * 32]).rotated),
        ("inspect_token(ring=)", lambda k: mcp_lab.inspect_token("v1.AAAA", ring=k)),
    ]


_KEYS = st.one_of(
    st.binary(min_size=0, max_size=80),
    st.sampled_from([bytes(32), bytes(33), b"\0" * 31, GOOD, OTHER, "0" * 64]),
    st.text(min_size=0, max_size=48),
    st.integers(min_value=-1, max_value=300),
    st.none(),
)
_RINGS = st.one_of(
    st.lists(_KEYS, min_size=0, max_size=5),
    st.lists(_KEYS, min_size=1, max_size=3).map(lambda ks: ks + ks[:1]),  # a repeated key, on purpose
    st.lists(_KEYS, max_size=4).map(tuple),
    _KEYS,
    st.binary(min_size=32, max_size=64),  # one bytes object where a list belongs: the original bug
    st.sets(st.binary(min_size=32, max_size=40), max_size=2),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keys=_RINGS)
def test_no_door_ever_builds_a_weak_ring(keys: Any, sdk_rings: list[list[bytes]]) -> None:
    async def each_door() -> None:  # inside a loop: some doors register servers that close clients there
        for name, door in _doors():
            try:
                door(keys)
            except LabError as exc:
                assert "\n" not in str(exc), (name, str(exc))
            except BaseException as exc:  # pragma: no cover - the failure this test exists for
                raise AssertionError(f"{name}({keys!r}) raised {type(exc).__name__}: {exc}") from None
        for name in [n for n in list(sandbox.servers) if n.startswith("door")]:
            await sandbox.stop(name)

    sdk_rings.clear()
    asyncio.run(each_door())
    assert_strong(sdk_rings)
