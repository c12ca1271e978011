"""Every vendor MIME kind, produced by the real Python producers against real servers.

Why: renderer tests and schema tests must see what the lab really emits, never a hand-written payload.
`produce_all()` runs the producers a learner runs -- flows in memory, over the lab's own HTTP serving, to a
connected server over Streamable HTTP and over stdio, on both protocol eras; token reports for every
verdict plus keyless and foreign formats and a 5 MB token; header tables and every header lab; the tamper
lab; a rotation matrix and a rotation under load; the server list; descriptions of the own servers and of a
connected one; a server's log; a replay; audits of a well-behaved server
over the lab's HTTP serving and of a broken one -- and returns each display bundle with a label. It stops
every server it started.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import mcp_lab
from mcp_lab.rotation.fleet import Fleet
from mcp_lab.rotation.load import WRONG_ORDER, run_rotation_load
from mcp_lab.rotation.stepper import RotationStepper
from mcp_lab.servers.connect import connection_log
from mcp_lab.servers.connection_view import ConnectionLog, connection_bundle
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import serve
from mcp_lab.servers.view import ServerList
from tests.conftest import build_demo
from tests.sample_servers.booking import build, command
from tests.sample_servers.loopback import LoopbackServer

ANSWERS = {"ask_region": {"region": "eu-west"}, "ask_ok": {"ok": True}}


@dataclass
class Produced:
    kind: str
    label: str
    bundle: dict[str, Any]

    @property
    def record(self) -> dict[str, Any]:
        return dict(self.bundle[f"application/vnd.mcp-lab.{self.kind}+json"])


def _bundle(obj: Any) -> dict[str, Any]:
    return dict(json.loads(json.dumps(obj._repr_mimebundle_(), allow_nan=False)))


def _add_weather(name: str) -> None:
    entry = sandbox.new_mcpserver(name)
    mcp = entry.server

    @mcp.tool()  # type: ignore[union-attr]
    def forecast(
        region: Annotated[str, mcp_lab.header("Region")], days: Annotated[int, mcp_lab.header("Days")] = 3
    ) -> str:
        return f"sunny in {region} for {days} days"

    @mcp.tool()  # type: ignore[union-attr]
    def stock(title: str, region: Annotated[str, mcp_lab.header("Region")] = "eu") -> str:
        return f"{title} in {region}"

    sandbox.register(entry)


async def _flows(out: list[Produced]) -> Any:
    build_demo("demo")
    done = await mcp_lab.call("demo", "book", {"city": "Paris"}, answers=ANSWERS)
    out.append(Produced("flow", "in memory: two questions, three legs, done", _bundle(done)))
    legacy = await mcp_lab.call("demo", "book", {"city": "Oslo"}, answers=ANSWERS, legacy=True)
    out.append(Produced("flow", "2025-11-25 era: back-channel requests", _bundle(legacy)))
    stopped = await mcp_lab.call("demo", "forever", answers={"again": {"n": 1}}, max_rounds=1)
    out.append(Produced("flow", "stopped at the round cap", _bundle(stopped)))
    huge = await mcp_lab.call("demo", "handmade", {"x": 1}, answers={"q1": {"n": 2}})
    huge.arguments["note"] = "A" * 100_000  # what a learner might paste: embedded clipped
    out.append(Produced("flow", "a 100 kB argument, clipped", _bundle(huge)))
    waiting = await mcp_lab.start("demo", "tools/call", "handmade", {"x": 3})
    await waiting.step()
    out.append(Produced("flow", "waiting for answers", _bundle(waiting)))
    _add_weather("weather")
    serve("weather")
    web = await mcp_lab.call("weather", "forecast", {"region": "São Paulo", "days": 2})
    out.append(Produced("flow", "over the lab's HTTP serving with Mcp-Param headers", _bundle(web)))
    build_demo("webdemo")
    serve("webdemo")
    webdemo = await mcp_lab.call("webdemo", "book", {"city": "Lima"}, answers=ANSWERS)
    out.append(Produced("flow", "multi round-trip over HTTP", _bundle(webdemo)))
    return done, waiting


async def _tokens(out: list[Produced], done: Any, waiting: Any) -> None:
    report = mcp_lab.inspect_token(waiting)
    out.append(Produced("token", "verdict ok (the owner's ring)", _bundle(report)))
    token = waiting.request_state
    assert token is not None
    call = ("tools/call", "handmade", {"x": 3})
    cases: list[tuple[str, Any]] = [
        (
            "verdict seal (a flipped byte)",
            mcp_lab.inspect_token(token[:-2] + ("AA" if token[-2:] != "AA" else "BB"), server="demo", call=call),
        ),
        ("verdict expired", mcp_lab.inspect_token(token, server="demo", call=call, now=time.time() + 10_000)),
        (
            "verdict minted in the future",
            mcp_lab.inspect_token(token, server="demo", call=call, now=time.time() - 10_000),
        ),
        (
            "verdict request binding",
            mcp_lab.inspect_token(token, server="demo", call=("tools/call", "handmade", {"x": 4})),
        ),
        ("verdict audience", mcp_lab.inspect_token(token, server="demo", call=call, audience="other")),
        ("verdict principal drift", mcp_lab.inspect_token(token, server="demo", call=call, principal="alice")),
        ("verdict unknown key", mcp_lab.inspect_token(token, ring=[os.urandom(32)], call=call)),
        ("verdict malformed", mcp_lab.inspect_token("v1.ab+c", server="demo")),
        ("keyless: sealed, no key given", mcp_lab.inspect_token(token)),
        ("keyless: plaintext", mcp_lab.inspect_token("round=1;q=z")),
        ("a 5 MB token, clipped", mcp_lab.inspect_token("v1." + "A" * 5_000_000)),
    ]
    for label, item in cases:
        out.append(Produced("token", label, _bundle(item)))
    build_demo("signed")
    mcp_lab.use_codec(sandbox.get("signed"), mcp_lab.HMACSignOnlyCodec(os.urandom(32)))
    signed = await mcp_lab.start("signed", "tools/call", "handmade", {"x": 5})
    await signed.step()
    out.append(
        Produced(
            "token",
            "foreign format: sign-only, keyless",
            _bundle(mcp_lab.inspect_token(signed.request_state, call=signed)),
        )
    )
    out.append(Produced("token", "foreign format: sign-only, by its codec", _bundle(mcp_lab.inspect_token(signed))))
    tamper = await mcp_lab.tamper_lab(waiting)
    out.append(Produced("tamper", "tamper lab on a real flow", _bundle(tamper)))


async def _headers(out: list[Produced]) -> None:
    out.append(Produced("headers", "header table of a served server", _bundle(await mcp_lab.header_table("weather"))))
    out.append(Produced("header-mismatch", "mismatch lab", _bundle(await mcp_lab.mismatch_lab("weather", "stock"))))
    out.append(
        Produced(
            "list-first",
            "list-before-call lab",
            _bundle(await mcp_lab.list_first_lab("weather", "forecast", {"region": "eu-west"})),
        )
    )
    out.append(Produced("schema-lookups", "schema lookup lab", _bundle(await mcp_lab.schema_lookup_lab(calls=2))))
    from tests.sample_servers.own import desk, shop

    mcp_lab.adopt(shop.mcp, name="own-shop")
    mcp_lab.adopt(desk.server, name="own-desk")
    for name in ("own-shop", "own-desk"):
        described = await mcp_lab.describe(name)
        out.append(Produced("server-description", f"description of {name}", _bundle(described)))


async def _rotation(out: list[Produced]) -> None:
    fleet = Fleet("svc", instances=2, keys=[b"s" * 32])
    try:
        stepper = RotationStepper(fleet, old=b"O" * 32, new=b"N" * 32)
        out.append(Produced("rotation", "rotation matrix, phase 1", _bundle(await stepper.matrix())))
        stepper.set_phase(3, 0)
        out.append(
            Produced("rotation", "rotation matrix, one instance retired OLD early", _bundle(await stepper.matrix()))
        )
        load = await run_rotation_load(RotationStepper(fleet), WRONG_ORDER, flows_per_step=4, order="wrong order")
        out.append(Produced("rotation-load", "rotation under load, wrong order", _bundle(load)))
    finally:
        await fleet.close()


async def _connections(out: list[Produced], tmp: Path) -> None:
    loop = await LoopbackServer(build("A").streamable_http_app()).start()
    try:
        entry = await mcp_lab.connect("remote", loop.url)
        out.append(Produced("connection", "connected over Streamable HTTP", _bundle_of(connection_bundle(entry))))
        flow = await mcp_lab.call("remote", "book", {"city": "Oslo"}, answers={"ask_region": {"region": "north"}})
        out.append(Produced("flow", "a connected server over HTTP", _bundle(flow)))
        stdio = await mcp_lab.connect("local", stdio=command("A"))
        recorded = await mcp_lab.call("local", "book", {"city": "Rome"}, answers={"ask_region": {"region": "south"}})
        out.append(Produced("flow", "a connected server over stdio", _bundle(recorded)))
        out.append(Produced("connection", "connected over stdio", _bundle_of(connection_bundle(stdio))))
        out.append(
            Produced(
                "connection-log", "a stdio server's stderr", _bundle(ConnectionLog("local", connection_log("local")))
            )
        )
        path = mcp_lab.save_flows(tmp / "recorded.flows.json", [recorded])
        out.append(Produced("replay", "replay, same server", _bundle(await mcp_lab.replay(path, server="local"))))
        changed = await mcp_lab.connect("changed", stdio=command("B"))
        out.append(Produced("replay", "replay, a changed server", _bundle(await mcp_lab.replay(path, server=changed))))
        out.append(Produced("servers", "the server list", _bundle(ServerList.from_sandbox(sandbox))))
        described = await mcp_lab.describe("remote")
        out.append(Produced("server-description", "description of a connected server", _bundle(described)))
        out.append(Produced("connection-log", "a server's log", _bundle(mcp_lab.server_log("local"))))
    finally:
        await sandbox.stop_all()
        await loop.stop()


async def produce_audits(out: list[Produced]) -> None:
    """Audits of a well-behaved MCPServer over the lab's HTTP serving and of a broken server (in-process)."""
    from tests.audit.helpers import record
    from tests.audit.servers import load

    good = load("good_mcpserver")
    entry = sandbox.add(good.build())
    serve(entry.name)
    flows = await record(entry, good.CALLS)
    report = await mcp_lab.audit(entry.name, flows)  # its tokens live 600 s: the lifetime check says it skipped
    out.append(Produced("audit", "audit of a well-behaved MCPServer over HTTP", _bundle(report)))
    broken = load("refund_plaintext")
    entry = sandbox.add(broken.build())
    flows = await record(entry, broken.CALLS)
    report = await mcp_lab.audit(entry.name, flows, lifetime=0.5, max_wait=5)
    out.append(Produced("audit", "audit of a server with a plaintext refund amount", _bundle(report)))


def _bundle_of(bundle: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(json.dumps(bundle, allow_nan=False)))


async def produce_all(tmp: Path) -> list[Produced]:
    out: list[Produced] = []
    try:
        done, waiting = await _flows(out)
        await _tokens(out, done, waiting)
        await _headers(out)
        await _rotation(out)
        await _connections(out, tmp)
        await produce_audits(out)
    finally:
        await sandbox.stop_all()
    return out
