"""Nobody else calls the kernel's servers: a per-server bearer secret, refused origins, a secret never stored.

Real uvicorn on 127.0.0.1, real separate processes, raw HTTP from outside the lab's own client.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import pickle
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from IPython.core.interactiveshell import InteractiveShell

import mcp_lab
from mcp_lab.servers.access import AccessSecret, OpenServerWarning
from mcp_lab.servers.header_files import header_file
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import serve
from mcp_lab.servers.view import ServerList
from tests.conftest import build_demo

ROOT = Path(__file__).resolve().parents[2]
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}

OUTSIDER = """
import asyncio, json, os, sys
import httpx2

async def main():
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "vault", "arguments": {}, "_meta": json.loads(sys.argv[2])}}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
               "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "vault"}
    if os.environ.get("LAB_AUTHORIZATION"):
        headers["Authorization"] = os.environ["LAB_AUTHORIZATION"]
    async with httpx2.AsyncClient() as http:
        response = await http.post(sys.argv[1], json=body, headers=headers)
    print(json.dumps({"status": response.status_code, "body": response.text}))

asyncio.run(main())
"""


def build_vault(name: str = "vault") -> LabServer:
    entry = sandbox.new_mcpserver(name)

    @entry.server.tool()
    def vault() -> str:
        return "the notebook's private data"

    return sandbox.register(entry)


@pytest.fixture
async def vault() -> AsyncIterator[LabServer]:
    entry = build_vault()
    serve(entry)
    try:
        yield entry
    finally:
        await sandbox.stop_all()


async def _outsider(url: str, authorization: str | None) -> dict[str, Any]:
    """A separate Python process on this machine POSTs a tools/call: its HTTP status and body."""
    env = {k: v for k, v in os.environ.items() if k != "LAB_AUTHORIZATION"}
    if authorization is not None:
        env["LAB_AUTHORIZATION"] = authorization
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", OUTSIDER, url, json.dumps(ENVELOPE), env=env, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await process.communicate()
    assert process.returncode == 0
    result: dict[str, Any] = json.loads(out)
    return result


async def _post(url: str, **headers: str) -> httpx2.Response:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "vault", "_meta": ENVELOPE}}
    sent = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "vault",
        **{k.replace("_", "-"): v for k, v in headers.items()},
    }
    async with httpx2.AsyncClient() as http:
        return await http.post(url, json=body, headers=sent)


async def test_a_separate_process_without_the_secret_gets_401_and_with_it_succeeds(vault: LabServer) -> None:
    url = vault.url or ""
    refused = await _outsider(url, None)
    assert refused["status"] == 401
    assert json.loads(refused["body"]) == {"error": "invalid_token", "error_description": "Authentication required"}
    assert "private data" not in refused["body"]
    assert (await _outsider(url, "Bearer not-the-secret"))["status"] == 401
    allowed = await _outsider(url, mcp_lab.auth_headers("vault")["Authorization"])
    assert allowed["status"] == 200 and "the notebook's private data" in allowed["body"]
    # The lab's own client attaches the secret: its flows work as before.
    assert (await mcp_lab.call("vault", "vault")).text == "the notebook's private data"


async def test_a_page_from_another_local_origin_gets_403_unless_allowed(vault: LabServer) -> None:
    url, auth = vault.url or "", mcp_lab.auth_headers("vault")["Authorization"]
    page = await _post(url, Authorization=auth, Origin="http://localhost:3000")
    assert page.status_code == 403 and page.text == "Invalid Origin header"
    assert (await _post(url, Origin="http://localhost:3000")).status_code == 403  # refused before the secret is asked
    assert (await _post(url, Authorization=auth, Origin="http://127.0.0.1:8888")).status_code == 403
    assert (await _post(url, Authorization=auth)).status_code == 200  # no Origin: not a browser page
    await vault.stop_http()
    allowed_url = serve(vault, allow_origins=["http://localhost:3000"])
    auth = mcp_lab.auth_headers("vault")["Authorization"]
    assert (await _post(allowed_url, Authorization=auth, Origin="http://localhost:3000")).status_code == 200
    assert (await _post(allowed_url, Authorization=auth, Origin="http://localhost:3001")).status_code == 403


async def test_a_rebound_host_name_is_refused(vault: LabServer) -> None:
    auth = mcp_lab.auth_headers("vault")["Authorization"]
    rebound = await _post(vault.url or "", Authorization=auth, Host="attacker.example")
    assert rebound.status_code == 421


async def test_each_server_has_its_own_secret() -> None:
    build_vault("one")
    build_vault("two")
    try:
        serve("one")
        serve("two")
        one, two = mcp_lab.auth_headers("one"), mcp_lab.auth_headers("two")
        assert one != two and len(one["Authorization"]) > 40
        assert (await _post(sandbox.get("two").url or "", **one)).status_code == 401
        assert (await _post(sandbox.get("two").url or "", **two)).status_code == 200
    finally:
        await sandbox.stop_all()


async def test_a_restart_makes_a_new_secret_unless_asked_to_keep_it(vault: LabServer) -> None:
    old = mcp_lab.auth_headers("vault")
    await sandbox.restart("vault")
    assert vault.http is not None
    await vault.http.ready()
    new = mcp_lab.auth_headers("vault")
    assert new != old
    assert (await _post(vault.url or "", **old)).status_code == 401
    assert (await _post(vault.url or "", **new)).status_code == 200
    assert (await mcp_lab.call("vault", "vault")).status == "done"  # the lab's client follows the new secret
    await sandbox.restart("vault", keep_secret=True)
    assert vault.http is not None
    await vault.http.ready()
    assert mcp_lab.auth_headers("vault") == new
    assert (await _post(vault.url or "", **new)).status_code == 200


async def test_no_auth_is_an_explicit_choice_with_a_warning() -> None:
    entry = build_vault()
    try:
        with pytest.warns(OpenServerWarning, match="accepts calls without a secret"):
            url = serve(entry, auth=False)
        assert (await _post(url)).status_code == 200
        assert (await _post(url, Origin="http://localhost:3000")).status_code == 403  # origins still checked
        assert mcp_lab.auth_headers("vault") == {}
        assert "no auth: any local process" in ServerList.from_sandbox(sandbox)._repr_mimebundle_()["text/plain"]
        with pytest.raises(mcp_lab.LabError, match="stop serving it first"):
            serve(entry)  # asking for the secret on a server served open: not silently ignored
    finally:
        await sandbox.stop_all()


async def test_the_secret_never_appears_in_flows_collections_views_or_logs(vault: LabServer, tmp_path: Path) -> None:
    secret = mcp_lab.auth_headers("vault")["Authorization"].split()[1]
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    root, handler = logging.getLogger(), Keep(logging.DEBUG)
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        flow = await mcp_lab.call("vault", "vault")
        legacy = await mcp_lab.call("vault", "vault", legacy=True)
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    assert flow.status == legacy.status == "done"
    sent = [dict(e["request"]["headers"]) for f in (flow, legacy) for r in f.rounds for e in r.http]
    assert sent and all({k.lower(): v for k, v in h.items()}["authorization"] == "<redacted>" for h in sent)
    shown = [flow.to_json(), legacy.to_json(), json.dumps(flow._repr_mimebundle_(), default=str)]
    shown += [json.dumps(ServerList.from_sandbox(sandbox)._repr_mimebundle_(), default=str), repr(vault)]
    shown += [repr(vault.http.access) if vault.http else "", str(vault.http.access.secret) if vault.http else ""]
    shown += [mcp_lab.save_flows(tmp_path / "c.json", [flow, legacy]).read_text()]
    shown += [logging.Formatter().format(r) for r in records]
    assert records and not [text for text in shown if secret in text]
    assert vault.http is not None and vault.http.access.secret is not None
    fingerprint = vault.http.access.secret.fingerprint
    assert f"bearer secret {fingerprint}" in ServerList.from_sandbox(sandbox)._repr_mimebundle_()["text/plain"]
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(vault.http.access.secret)


async def test_tokens_sealed_over_http_bind_no_principal(vault: LabServer) -> None:
    """The secret gates the transport; it is nobody's identity: no `p` claim, and a flow may move between
    in-process and HTTP."""
    entry = build_demo("sealed")
    serve(entry)
    started = await mcp_lab.call("sealed", "handmade", {"x": 1}, max_rounds=0)
    assert started.status == "stopped" and started.request_state is not None
    report = mcp_lab.inspect_token(started, server="sealed")
    assert report.claims is not None and "p" not in report.claims
    await entry.stop_http()  # the same flow goes on in-process
    started.max_rounds = 10
    resumed = await mcp_lab.resume(started, answers={"q1": {"n": 1}})
    assert resumed.status == "done" and not resumed.rounds[-1].http


async def test_url_magic_shows_the_address_and_writes_the_header_to_a_private_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    shell = InteractiveShell.instance()
    mcp_lab.load_ipython_extension(shell)
    try:
        shell.run_cell_magic("mcp_server", "vault --http", "@mcp.tool()\ndef vault() -> str:\n    return 'v'\n")
        capsys.readouterr()
        shell.run_line_magic("mcp_server", "url vault")
        out = capsys.readouterr().out
        entry = sandbox.lab_server("vault")
        header = mcp_lab.auth_headers("vault")["Authorization"]
        assert f"'vault' is served at {entry.url}" in out
        secret = header.removeprefix("Bearer ")
        assert secret not in out  # the cell's output is saved with the notebook: the secret is not in it
        written = header_file("vault")  # this kernel's file for 'vault' (kernel id and pid in its name)
        assert written.parent == tmp_path / "runtime" / "mcp_lab"
        assert written.read_text() == f"Authorization: {header}\n"
        assert written.stat().st_mode & 0o777 == 0o600
        assert f'--header "$(cat {written})"' in out
        shell.run_line_magic("mcp_server", "stop vault")
        assert not written.exists()  # the file goes with the server
        shell.run_cell_magic("mcp_server", "vault --http", "@mcp.tool()\ndef vault() -> str:\n    return 'v'\n")
        shell.run_cell_magic("mcp_server", "open --http --no-auth", "pass\n")
        assert "warning: 'open' at" in capsys.readouterr().out
        shell.run_line_magic("mcp_server", "url open")
        assert "accepts calls without a secret" in capsys.readouterr().out
        shell.run_line_magic("mcp_server", "restart vault --keep-secret")
        assert "the same bearer secret" in capsys.readouterr().out
    finally:
        await sandbox.stop_all()
        mcp_lab.unload_ipython_extension(shell)


async def test_a_connection_sends_the_header_and_never_records_it(vault: LabServer) -> None:
    header = mcp_lab.auth_headers("vault")
    with pytest.raises(mcp_lab.LabError, match=r"requires a credential \(HTTP 401\)"):
        await mcp_lab.connect("outside", vault.url, timeout=10)
    entry = await mcp_lab.connect("outside", vault.url, headers=header)
    flow = await mcp_lab.call("outside", "vault")
    assert flow.text == "the notebook's private data"
    sent = [{k.lower(): v for k, v in e["request"]["headers"]} for r in flow.rounds for e in r.http]
    assert sent and all(h["authorization"] == "<redacted>" for h in sent)
    assert header["Authorization"] not in flow.to_json() + repr(entry)


def test_an_access_secret_shows_only_its_fingerprint() -> None:
    secret = AccessSecret()
    assert repr(secret) == f"AccessSecret({secret.fingerprint})" and len(secret.fingerprint) == 8
    assert secret.matches(secret.header_value().split()[1]) and not secret.matches("x")
    assert AccessSecret().fingerprint != secret.fingerprint


async def test_a_server_with_its_own_oauth_gets_no_lab_secret_in_the_way() -> None:
    from mcp.server.auth.provider import AccessToken
    from mcp.server.auth.settings import AuthSettings
    from mcp.server.mcpserver import MCPServer

    class Tokens:
        async def verify_token(self, token: str) -> AccessToken | None:
            return AccessToken(token=token, client_id="app", scopes=[]) if token == "user-token" else None

    server = MCPServer(
        "oauth",
        log_level="WARNING",
        token_verifier=Tokens(),
        auth=AuthSettings(issuer_url="https://id.example", resource_server_url=None),
    )

    @server.tool()
    def vault() -> str:
        return "behind OAuth"

    mcp_lab.sandbox.add(server)
    try:
        with pytest.raises(mcp_lab.LabError, match="authenticates its callers itself"):
            serve("oauth", auth=True)
        url = serve("oauth")  # no warning: the server checks its callers itself
        assert mcp_lab.auth_headers("oauth") == {}
        assert "the server's own authentication" in ServerList.from_sandbox(sandbox)._repr_mimebundle_()["text/plain"]
        assert (await _post(url)).status_code == 401  # the SDK's own OAuth check
        ok = await _post(url, Authorization="Bearer user-token")
        assert ok.status_code == 200 and "behind OAuth" in ok.text
        assert (await _post(url, Authorization="Bearer user-token", Origin="http://localhost:3000")).status_code == 403
    finally:
        await sandbox.stop_all()
