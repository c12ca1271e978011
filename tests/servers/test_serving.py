"""Loopback Streamable HTTP serving: lifecycle, errors, and what each leg records (real uvicorn, httpx2)."""

from __future__ import annotations

import asyncio
import os
import socket

import pytest

import mcp_lab
from mcp_lab.deployment.ports import free_port
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import HOST, live_servings, serve
from tests.conftest import build_demo
from tests.http_records import request_json, response_messages, sent_headers
from tests.ports import listening_ports

ANSWERS = {"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}}


async def test_serve_gives_a_loopback_url_and_flows_record_both_ends(http_demo: LabServer) -> None:
    assert (
        http_demo.url is not None and http_demo.url.startswith("http://127.0.0.1:") and http_demo.url.endswith("/mcp")
    )
    flow = await mcp_lab.call("demo", "book", {"city": "Paris"}, answers=ANSWERS)
    assert flow.status == "done" and flow.text == "Booked Paris in eu (ok=True)"
    for rnd in flow.rounds:
        assert len(rnd.http) == 1
        exchange = rnd.http[0]
        assert exchange["method"] == "POST" and exchange["path"] == "/mcp" and exchange["rpc"] == "tools/call"
        assert exchange["seen_by"] == ["client", "server"]
        assert exchange["response"]["status"] == 200
        headers = sent_headers(exchange)
        assert headers["mcp-method"] == "tools/call" and headers["mcp-name"] == "book"
        assert headers["mcp-protocol-version"] == "2026-07-28"
        assert "x-mcp-lab-exchange" not in headers  # the lab's correlation tag is not shown as sent
        assert request_json(exchange)["params"]["arguments"] == {"city": "Paris"}
    # The server's body is recorded completely: the sealed token it sent is the one the round holds.
    first = flow.rounds[0]
    assert response_messages(first.http[0])[0]["result"]["requestState"] == first.request_state
    assert request_json(flow.rounds[1].http[0])["params"]["requestState"] == first.request_state


async def test_prompt_resource_step_and_legacy_over_http(http_demo: LabServer) -> None:
    prompt = await mcp_lab.get_prompt("demo", "briefing", answers={"audience": {"n": 7}})
    # The first leg also carries the connection's server/discover: it crossed the wire during that leg.
    rpcs = [e["rpc"] for r in prompt.rounds for e in r.http]
    assert prompt.status == "done" and rpcs == ["server/discover", "prompts/get", "prompts/get"]
    resource = await mcp_lab.read_resource("demo", "doc://42", answers={"why": {"n": 1}})
    assert resource.text == "doc 42 for reason 1"
    headers = sent_headers(resource.rounds[0].http[0])
    assert headers["mcp-name"] == "doc://42"
    flow = await mcp_lab.start("demo", "tools/call", "handmade", {"x": 1})
    await flow.step()
    assert len(flow.rounds[0].http) == 1
    await flow.step(answers={"q1": {"n": 2}})
    assert flow.text == 'x=1 n=2 state={"x": 1}'
    legacy = await mcp_lab.call("demo", "book", {"city": "Rome"}, answers=ANSWERS, legacy=True)
    assert legacy.status == "done"
    methods = [e["rpc"] for e in legacy.rounds[0].http]
    assert methods[0] == "initialize" and "tools/call" in methods


async def test_concurrent_flows_keep_their_own_exchanges(http_demo: LabServer) -> None:
    cities = [f"City{i}" for i in range(6)]
    flows = await asyncio.gather(*(mcp_lab.call("demo", "book", {"city": c}, answers=ANSWERS) for c in cities))
    for city, flow in zip(cities, flows, strict=True):
        assert flow.status == "done" and flow.text.startswith(f"Booked {city} ")
        for rnd in flow.rounds:
            assert len(rnd.http) == 1
            assert request_json(rnd.http[0])["params"]["arguments"] == {"city": city}
            assert response_messages(rnd.http[0])[0]["id"] == request_json(rnd.http[0])["id"] == rnd.http[0]["rpc_id"]


async def test_server_log_reaches_only_the_leg_it_belongs_to(http_demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "handmade", {"x": 1})
    saved = flow.to_json().replace(flow.rounds[0].request_state or "", "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
    healthy, tampered = await asyncio.gather(
        mcp_lab.call("demo", "handmade", {"x": 2}, answers={"q1": {"n": 1}}),
        mcp_lab.resume(saved, answers={"q1": {"n": 1}}),
    )
    assert healthy.status == "done" and all(not r.server_log for r in healthy.rounds)
    assert tampered.status == "error"
    assert tampered.rounds[-1].http[0]["response"]["status"] == 400
    assert any("requestState rejected" in line for line in tampered.rounds[-1].server_log)


async def test_stop_frees_the_port_and_restart_keeps_it(http_demo: LabServer) -> None:
    assert http_demo.http is not None
    port = http_demo.http.port
    assert port in listening_ports([os.getpid()])
    await sandbox.restart("demo")
    assert http_demo.http is not None and http_demo.http.port == port
    flow = await mcp_lab.call("demo", "handmade", {"x": 5}, answers={"q1": {"n": 1}})
    assert flow.status == "done" and flow.rounds[0].http
    stopped = http_demo.stop_http()
    assert stopped is not None
    await stopped
    assert port not in listening_ports([os.getpid()]) and http_demo.url is None
    in_process = await mcp_lab.call("demo", "handmade", {"x": 5}, answers={"q1": {"n": 1}})
    assert in_process.status == "done" and not in_process.rounds[0].http


async def test_serving_twice_and_moving(http_demo: LabServer) -> None:
    assert serve("demo") == http_demo.url
    with pytest.raises(mcp_lab.LabError, match="already served"):
        serve("demo", port=free_port())


async def test_serving_the_app_the_callers_code_built() -> None:
    """`serve(entry, app=...)` serves that very app object (the docs' `app = server.streamable_http_app()`)."""
    import httpx2
    from starlette.responses import PlainTextResponse

    entry = build_demo()
    app = entry.server.streamable_http_app()
    app.add_route("/built-by-caller", lambda request: PlainTextResponse("the caller's app"))
    try:
        url = serve(entry, app=app)
        flow = await mcp_lab.call("demo", "handmade", {"x": 5}, answers={"q1": {"n": 1}})
        assert flow.status == "done" and flow.rounds[0].http
        async with httpx2.AsyncClient() as client:
            # The caller's own routes sit behind the same secret as its MCP endpoint.
            assert (await client.get(url.replace("/mcp", "/built-by-caller"))).status_code == 401
            client.headers.update(mcp_lab.auth_headers("demo"))
            assert (await client.get(url.replace("/mcp", "/built-by-caller"))).text == "the caller's app"
            with pytest.raises(mcp_lab.LabError, match="stop it first to serve your app"):
                serve(entry, app=entry.server.streamable_http_app())
            await sandbox.restart("demo")  # a restarted process builds its app afresh
            assert entry.url is not None
            flow = await mcp_lab.call("demo", "handmade", {"x": 5}, answers={"q1": {"n": 1}})
            assert flow.status == "done"
            client.headers.update(mcp_lab.auth_headers("demo"))  # a restart makes a new secret
            assert (await client.get(entry.url.replace("/mcp", "/built-by-caller"))).status_code == 404
    finally:
        await sandbox.stop_all()


async def test_a_port_in_use_and_invalid_ports_are_one_line_errors() -> None:
    build_demo()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
            busy.bind((HOST, 0))
            busy.listen(1)
            port = busy.getsockname()[1]
            with pytest.raises(mcp_lab.LabError, match=f"port {port} on 127.0.0.1 is in use"):
                serve("demo", port=port)
        for bad in (-1, 70000, "http", 1.5):
            with pytest.raises(mcp_lab.LabError, match="invalid port"):
                serve("demo", port=bad)  # type: ignore[arg-type]
        assert sandbox.get("demo").http is None
    finally:
        await sandbox.stop_all()


async def test_restarting_on_the_same_port_without_waiting() -> None:
    """A stop returns at once; serving again on that port waits for the old thread inside the new one."""
    port = free_port()
    entry = build_demo()
    try:
        for _ in range(3):
            serve(entry, port=port)
            entry.stop_http()
        url = serve(entry, port=port)
        flow = await mcp_lab.call("demo", "handmade", {"x": 1}, answers={"q1": {"n": 1}})
        assert flow.status == "done" and url.endswith(f":{port}/mcp")
    finally:
        await sandbox.stop_all()
    for serving in live_servings():
        await serving.stop()
    assert not live_servings()
