"""Every reason the boundary logs, provoked on a real SDK server: the inspector predicts exactly that reason."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from mcp.server.mcpserver import AESGCMRequestStateCodec
from mcp.server.request_state import compact_json

import mcp_lab
from mcp_lab.protocol.keys import KeyRing
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.tokens.principal import lab_principal, set_principal
from mcp_lab.tokens.report import REASONS
from mcp_lab.tokens.tamper import flip_byte
from tests.conftest import build_demo

from .helpers import forge, observed, send


@pytest.fixture
async def demo() -> AsyncIterator[LabServer]:
    entry = build_demo()
    try:
        yield entry
    finally:
        set_principal(None)
        await sandbox.stop_all()


async def real_token(entry: LabServer) -> str:
    rnd = await send(entry, None)
    assert rnd.outcome == "input_required" and rnd.request_state is not None
    return rnd.request_state


# Each case: (demo server) -> (server to send to, token, tool, arguments); the principal is set inside.
Case = Callable[[LabServer], Awaitable[tuple[LabServer, str, str, dict[str, Any]]]]


async def bad_base64(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    return entry, "v1.not*base64", "handmade", {"x": 1}


async def claims_version_2(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    return entry, forge(entry, v=2), "handmade", {"x": 1}


async def claims_without_s(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    return entry, forge(entry, s=None), "handmade", {"x": 1}


async def plaintext(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    return entry, '{"x": 1}', "handmade", {"x": 1}


async def unknown_key(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    token = await real_token(entry)
    claims = AESGCMRequestStateCodec(entry.ring.secret_keys()).unseal(token)  # type: ignore[union-attr]
    return entry, AESGCMRequestStateCodec(KeyRing.fresh().secret_keys()).seal(claims), "handmade", {"x": 1}


async def flipped(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    return entry, flip_byte(await real_token(entry)), "handmade", {"x": 1}


async def future(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    now = time.time()
    return entry, forge(entry, iat=now + 120, exp=now + 720), "handmade", {"x": 1}


async def expired(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    now = time.time()
    return entry, forge(entry, iat=now - 700, exp=now - 100), "handmade", {"x": 1}


async def other_arguments(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    return entry, await real_token(entry), "handmade", {"x": 2}


async def other_tool(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    return entry, await real_token(entry), "book", {"x": 1}


async def other_server(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    twin = build_demo("demo-twin", keys=entry.ring)
    return twin, await real_token(entry), "handmade", {"x": 1}


async def principal_dropped(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    entry.install_ring(entry.ring, bind_principal=lab_principal)  # type: ignore[arg-type]
    set_principal("alice")
    token = await real_token(entry)
    set_principal(None)
    return entry, token, "handmade", {"x": 1}


async def principal_appeared(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    entry.install_ring(entry.ring, bind_principal=lab_principal)  # type: ignore[arg-type]
    token = await real_token(entry)
    set_principal("alice")
    return entry, token, "handmade", {"x": 1}


async def other_user(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    entry.install_ring(entry.ring, bind_principal=lab_principal)  # type: ignore[arg-type]
    set_principal("alice")
    token = await real_token(entry)
    set_principal("bob")
    return entry, token, "handmade", {"x": 1}


async def valid(entry: LabServer) -> tuple[LabServer, str, str, dict[str, Any]]:
    return entry, await real_token(entry), "handmade", {"x": 1}


CASES: list[tuple[str, Case]] = [
    ("malformed", bad_base64),
    ("malformed", claims_version_2),
    ("malformed", claims_without_s),
    ("malformed", plaintext),
    ("unknown key", unknown_key),
    ("seal", flipped),
    ("minted in the future", future),
    ("expired", expired),
    ("request binding", other_arguments),
    ("request binding", other_tool),
    ("audience", other_server),
    ("principal drift", principal_dropped),
    ("principal drift", principal_appeared),
    ("principal", other_user),
    ("ok", valid),
]


def test_every_reason_is_covered() -> None:
    assert {reason for reason, _ in CASES} == {*REASONS, "ok"}


@pytest.mark.parametrize(("reason", "make"), CASES, ids=[f"{r}:{m.__name__}" for r, m in CASES])
async def test_server_logs_what_the_inspector_predicts(demo: LabServer, reason: str, make: Case) -> None:
    target_server, token, tool, arguments = await make(demo)
    report = mcp_lab.inspect_token(token, server=target_server, call=("tools/call", tool, arguments))
    rnd = await send(target_server, token, tool, arguments)
    assert observed(rnd) == report.verdict == reason
    if reason != "ok":
        failed = [c for c in report.checks if c.status == "fail"]
        assert len(failed) == 1 and failed[0].reason == reason
        after = report.checks[report.checks.index(failed[0]) + 1 :]
        assert all(c.status == "not reached" for c in after)


async def test_skew_tolerance_is_sixty_seconds(demo: LabServer) -> None:
    now = time.time()
    for ahead, reason in ((50, "ok"), (70, "minted in the future")):
        token = forge(demo, iat=now + ahead, exp=now + 600)
        report = mcp_lab.inspect_token(token, server=demo, call=("tools/call", "handmade", {"x": 1}))
        assert report.verdict == reason
        assert observed(await send(demo, token)) == reason


async def test_nan_and_bool_claims_fail_or_pass_as_in_the_sdk(demo: LabServer) -> None:
    assert demo.ring is not None
    codec = AESGCMRequestStateCodec(demo.ring.secret_keys())
    good = dict(mcp_lab.inspect_token(forge(demo), server=demo).claims or {})
    for change, reason in (
        ({"exp": float("nan")}, "expired"),
        ({"v": True}, "ok"),
        ({"iat": "now"}, "minted in the future"),
    ):
        token = codec.seal(compact_json({**good, **change}).encode())
        report = mcp_lab.inspect_token(token, server=demo, call=("tools/call", "handmade", {"x": 1}))
        assert report.verdict == reason, change
        assert observed(await send(demo, token)) == reason
