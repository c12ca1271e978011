"""The client under test for the conformance suite's client scenarios: mcp_lab's own client engine.

`python -m tests.interop.conformance_client URL` -- the suite runs it with the URL of its mock server, the
scenario's name in MCP_CONFORMANCE_SCENARIO and extra context (JSON) in MCP_CONFORMANCE_CONTEXT. Every
request goes through what a notebook uses: `mcp_lab.connect` (era negotiation), `mcp_lab.call` /
`get_prompt` / `read_resource` (the flow engine: multi round-trip requests, echoed requestState, header
parameters), `mcp_lab.describe` (listings). Exit 0 when the scenario's calls ran, 1 (one line) otherwise.

Some of the suite's mocks answer neither `server/discover` nor a 2026-07-28 `initialize` (they implement only
the methods their scenario measures). As the TypeScript SDK's own conformance client does, this command then
answers the connect-time `server/discover` probe locally -- nothing the scenario measures passes through it.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx2
import mcp.types as T
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from pydantic import AnyUrl

import mcp_lab
from mcp_lab.flow.answers import AnswerContext
from mcp_lab.servers import transports

NAME = "under-test"
CIMD_URL = "https://conformance-test.local/client-metadata.json"
"""The client-id metadata document URL the suite's authorization server expects a client to present."""
LOCAL_DISCOVER = {
    "sep-2322-client-request-state",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
}


class Agreeable:
    """Answers every embedded question: accepts a form (confirmed), samples a fixed reply, lists no roots."""

    async def answer(self, key: str, request: T.InputRequest, context: AnswerContext) -> Any:
        if isinstance(request, T.ElicitRequest):
            return T.ElicitResult(action="accept", content={"confirmed": True})
        if isinstance(request, T.CreateMessageRequest):
            return T.CreateMessageResult(
                role="assistant", content=T.TextContent(type="text", text="ok"), model="lab", stop_reason="endTurn"
            )
        return T.ListRootsResult(roots=[])


def _with_client_options(**options: Any) -> None:
    """Every httpx2 client the lab's engine opens gets these options (a transport, an auth)."""
    original = httpx2.AsyncClient.__init__

    def init(self: httpx2.AsyncClient, *args: Any, **kwargs: Any) -> None:
        for key, value in options.items():
            kwargs.setdefault(key, value)
        original(self, *args, **kwargs)

    transports.httpx2.AsyncClient.__init__ = init  # type: ignore[method-assign]


class Memory(TokenStorage):
    """Tokens and the registered client, for this one run."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class Consent:
    """The user's browser, scripted: open the authorization URL, read the code from where it redirects."""

    def __init__(self) -> None:
        self.result: AuthorizationCodeResult | None = None

    async def open(self, url: str) -> None:
        async with httpx2.AsyncClient(auth=None) as http:  # the browser carries no token of the client
            response = await http.get(url, follow_redirects=False)
        query = parse_qs(urlsplit(response.headers.get("location", "")).query)
        if "code" not in query:
            raise RuntimeError(f"the authorization server answered {response.status_code} without a code")
        first = {key: values[0] for key, values in query.items()}
        self.result = AuthorizationCodeResult(code=first["code"], state=first.get("state"), iss=first.get("iss"))

    async def come_back(self) -> AuthorizationCodeResult:
        if self.result is None:
            raise RuntimeError("no authorization code: the redirect was never followed")
        return self.result


async def _oauth(url: str) -> OAuthClientProvider:
    """The SDK's OAuth client (authorization code + PKCE), as the lab's HTTP auth; pre-registered when the
    scenario gives a client id."""
    storage, consent = Memory(), Consent()
    given = _context()
    callback = [AnyUrl("http://localhost:3000/callback")]
    if given.get("client_id"):
        secret = given.get("client_secret")
        method = "client_secret_basic" if secret else "none"
        storage.client = OAuthClientInformationFull(
            client_id=given["client_id"], client_secret=secret, redirect_uris=callback, token_endpoint_auth_method=method
        )
    metadata = OAuthClientMetadata(
        client_name="mcp-lab", redirect_uris=callback, grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
    )  # fmt: skip
    return OAuthClientProvider(
        server_url=url, client_metadata=metadata, storage=storage, redirect_handler=consent.open,
        callback_handler=consent.come_back, client_metadata_url=CIMD_URL,
    )  # fmt: skip


def _discover_locally() -> None:
    """Answer `server/discover` in the client's HTTP layer (every other request reaches the mock)."""

    class Local(httpx2.AsyncBaseTransport):
        def __init__(self) -> None:
            self.inner = httpx2.AsyncHTTPTransport()

        async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
            try:
                message = json.loads(request.content or b"{}")
            except ValueError:
                message = {}
            if isinstance(message, dict) and message.get("method") == "server/discover":
                result = {
                    "supportedVersions": ["2026-07-28"],
                    "capabilities": {"tools": {"listChanged": True}, "resources": {}, "prompts": {}},
                    "resultType": "complete",
                    "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "mock", "version": "0"}},
                }
                body = {"jsonrpc": "2.0", "id": message.get("id"), "result": result}
                return httpx2.Response(200, json=body, request=request)
            return await self.inner.handle_async_request(request)

    _with_client_options(transport=Local())


def _context() -> dict[str, Any]:
    raw = os.environ.get("MCP_CONFORMANCE_CONTEXT")
    value = json.loads(raw) if raw else {}
    return value if isinstance(value, dict) else {}


async def _tools() -> list[str]:
    """The tools the SDK's client kept (it drops a tool with an invalid x-mcp-header)."""
    entry = mcp_lab.sandbox.get(NAME)
    return sorted(await entry.tool_names(refresh=True))  # type: ignore[union-attr]


async def run(scenario: str, url: str) -> None:
    if scenario in LOCAL_DISCOVER:
        _discover_locally()
    if scenario.startswith("auth/"):
        _with_client_options(auth=await _oauth(url), timeout=30.0)
    await mcp_lab.connect(NAME, url)
    answers = Agreeable()
    if scenario == "tools_call":
        if "add_numbers" in await _tools():
            (await mcp_lab.call(NAME, "add_numbers", {"a": 5, "b": 3})).raise_for_status()
    elif scenario == "request-metadata":
        await mcp_lab.call(NAME, "test_tool", {})  # the mock lists no tools and still expects the call
    elif scenario == "http-standard-headers":
        described = await mcp_lab.describe(NAME)
        record = described.record
        if record.tools:
            await mcp_lab.call(NAME, record.tools[0].name, {})
        if record.resources:
            await mcp_lab.read_resource(NAME, record.resources[0].uri)
        if record.prompts:
            await mcp_lab.get_prompt(NAME, record.prompts[0].name, {})
    elif scenario == "http-custom-headers":
        await _tools()
        for call in _context().get("toolCalls", []):
            await mcp_lab.call(NAME, call["name"], call.get("arguments") or {})
    elif scenario == "http-invalid-tool-headers":
        for tool in await _tools():
            await mcp_lab.call(NAME, tool, {"region": "us-west1"})
    elif scenario == "sep-2322-client-request-state":
        await _tools()
        for tool in ("test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"):
            await mcp_lab.call(NAME, tool, {}, answers=answers)
    elif scenario == "json-schema-ref-no-deref":
        await _tools()
    elif scenario.startswith("auth/"):  # authorized: list, then call the first tool
        tools = await _tools()
        if tools:
            await mcp_lab.call(NAME, tools[0], {})
    else:
        raise SystemExit(f"conformance_client: no script for scenario {scenario!r}")
    await mcp_lab.disconnect(NAME)


def main() -> int:
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    try:
        asyncio.run(run(scenario, sys.argv[-1]))
    except (mcp_lab.LabError, RuntimeError) as exc:  # a refused authorization is one line too
        print(f"conformance_client: {scenario}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
