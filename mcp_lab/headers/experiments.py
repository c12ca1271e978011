"""Three header-parameter experiments over real loopback HTTP, each returning plain data with a view.

Spec context: 2026-07-28 header parameters (the SDK page "Header parameters"):
- `mismatch_lab`: the server rejects a `tools/call` whose `Mcp-Param-*` header disagrees with the body or
  is missing (HTTP 400, JSON-RPC -32020), and the other routing-header checks the SDK makes beside it:
  `Mcp-Name`, and `MCP-Protocol-Version` against the body's `_meta` (-32020) or unsupported (-32022). A
  header naming 2025-11-25 is no check at all: the SDK routes it to the session transport (-32600).
  Raw POSTs with a proper `_meta` envelope, sent with httpx2 and recorded from both ends.
- `list_first_lab`: a client that never listed tools has never seen the marks, so it sends no header and
  is rejected. The SDK's `Client.call_tool` re-lists and resends (three POSTs), `session.call_tool` raises,
  and the lab's flow engine re-lists and resends once (`Round.relisted`), like `Client`.
- `schema_lookup_lab`: a lowlevel server needs each tool's input schema to check the headers; without
  `get_tool_input_schema` it runs its `on_list_tools` handler for every call with arguments.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import mcp.types as T
from mcp import Client, MCPError
from mcp.client import Transport
from mcp.shared.inbound import find_invalid_x_mcp_header, x_mcp_header_map
from mcp_types import CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY

from mcp_lab.errors import LabError
from mcp_lab.exchanges.client_tls import tls_context
from mcp_lab.exchanges.record import LegCapture
from mcp_lab.exchanges.recorder import SchemaBook, http_hooks, leg_scope
from mcp_lab.flow.answers import AnswerContext, InputResponse, ScriptedAnswerer
from mcp_lab.flow.flow import Flow
from mcp_lab.headers.experiment_results import (
    ListFirstExperiment,
    MismatchExperiment,
    Probe,
    Scenario,
    SchemaLookupExperiment,
)
from mcp_lab.json_types import JsonObject, JsonValue
from mcp_lab.protocol.eras import LEGACY, MODERN
from mcp_lab.protocol.header_values import header_text, other_value
from mcp_lab.servers.backchannel import Backchannel, backchannel_callbacks
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.listing import raw_tool_listing
from mcp_lab.servers.outside import OutsideServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import serve
from mcp_lab.servers.transports import http_transport

__all__ = ["list_first_lab", "mismatch_lab", "schema_lookup_lab"]

_SAMPLES: dict[str, JsonValue] = {"string": "eu-west", "integer": 7, "boolean": True}
_UNKNOWN = "2099-01-01"
"""A protocol version no server speaks: the version header's own checks, not the routing of a known one."""


def _entry(server: str | LabServer | OutsideServer) -> LabServer | OutsideServer:
    if isinstance(server, str):
        return sandbox.get(server)
    if not isinstance(server, LabServer | OutsideServer):
        raise LabError(f"the header labs take a server's name (str) or its entry, not {type(server).__name__}")
    return server


@dataclass
class _Http:
    """Where the experiments send their requests: the lab's own serving, or a connected server's URL."""

    url: str
    headers: dict[str, str]
    """The server's bearer secret (the lab's serving) or the connection's own headers: the experiments are its client."""
    book: SchemaBook
    transport: Callable[[], Transport]
    """A fresh SDK client transport that records each exchange."""
    tag: bool
    """Tag requests for the lab's own ASGI wrapper (never for an outside server)."""


def _http_of(entry: LabServer | OutsideServer, notes: list[str]) -> _Http:
    if isinstance(entry, OutsideServer):
        url = entry.url
        if entry.transport != "http" or url is None:
            raise LabError(
                f"{entry.name!r} is a stdio connection: header parameters travel in HTTP headers, so it has none "
                "to check (connect to it over Streamable HTTP; header_table lists its marks)"
            )
        if entry.legacy_only:
            raise LabError(f"{entry.name!r} was connected with --legacy (2025-11-25): it sends no Mcp-Param-* headers")
        book, headers = entry.schema_book, dict(entry.headers)
        return _Http(url, headers, book, lambda: http_transport(url, book, headers), tag=False)
    if entry.http is None:
        serve(entry)
        notes.append(f"{entry.name!r} was not served over HTTP; the lab now serves it (%mcp_server list shows where)")
    serving = entry.http
    assert serving is not None
    return _Http(serving.url, serving.access.headers(), serving.book, serving.transport, tag=True)


async def _ready(entry: LabServer | OutsideServer) -> None:
    if isinstance(entry, OutsideServer):
        await entry.ready()
    elif entry.http is not None:
        await entry.http.ready()


async def _marked_tool(entry: LabServer | OutsideServer, tool: str | None) -> tuple[str, JsonObject]:
    _, _, tools = await raw_tool_listing(entry)
    marked = [t for t in tools if x_mcp_header_map(t.get("inputSchema")) and (tool is None or t["name"] == tool)]
    if tool is not None and not any(t["name"] == tool for t in tools):
        raise LabError(f"server {entry.name!r} has no tool {tool!r}")
    if not marked:
        where = f"tool {tool!r}" if tool else f"server {entry.name!r}"
        raise LabError(f"{where} has no argument marked x-mcp-header; mark one with mcp_lab.header('Name')")
    found = marked[0].get("inputSchema")
    schema: JsonObject = dict(found) if isinstance(found, Mapping) else {}
    reason = find_invalid_x_mcp_header(schema)
    if reason is not None:
        raise LabError(
            f"tool {marked[0]['name']!r} has an invalid mark ({reason}): clients drop it, servers check nothing"
        )
    return str(marked[0]["name"]), schema


def _object(value: JsonValue) -> Mapping[str, JsonValue]:
    """A schema's sub-object (an empty one where the schema has something else there)."""
    return value if isinstance(value, Mapping) else {}


def _required(schema: Mapping[str, JsonValue]) -> list[str]:
    names = schema.get("required")
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def _arguments(schema: Mapping[str, JsonValue], given: Mapping[str, JsonValue] | None) -> JsonObject:
    if given is not None:
        return dict(given)
    arguments: JsonObject = {}
    props = _object(schema.get("properties"))
    for name in _required(schema):
        kind = _object(props.get(name)).get("type")
        if not isinstance(kind, str) or kind not in _SAMPLES:
            raise LabError(
                f"pass arguments=...: cannot invent a value for the required {kind or '?'} argument {name!r}"
            )
        arguments[name] = _SAMPLES[kind]
    for path in x_mcp_header_map(schema):
        if len(path) == 1 and path[0] not in arguments:
            prop = _object(props.get(path[0]))
            default = prop.get("default")
            arguments[path[0]] = default if default is not None else _SAMPLES.get(str(prop.get("type")), "x")
    return arguments


def _envelope(version: str = MODERN) -> JsonObject:
    return {PROTOCOL_VERSION_META_KEY: version, CLIENT_CAPABILITIES_META_KEY: {}}


async def mismatch_lab(
    server: str | LabServer | OutsideServer, tool: str | None = None, arguments: Mapping[str, JsonValue] | None = None
) -> MismatchExperiment:
    """Raw `tools/call` POSTs whose routing headers agree, disagree or are missing; what the server says.

    Works on the lab's servers and on a server connected over Streamable HTTP (the probes are its client)."""
    import httpx2

    entry = _entry(server)
    notes: list[str] = []
    target = _http_of(entry, notes)
    name, schema = await _marked_tool(entry, tool)
    args = _arguments(schema, arguments)
    path, token = next(iter(x_mcp_header_map(schema).items()))
    argument = ".".join(path)
    value: object = args
    for key in path:
        value = value.get(key) if isinstance(value, Mapping) else None
    if value is None:
        raise LabError(f"arguments must include the marked argument {argument!r}")
    header = f"Mcp-Param-{token}"
    good = header_text(value)
    sentinel = f"=?base64?{base64.b64encode(good.encode()).decode()}?="
    base = {"Mcp-Method": "tools/call", "Mcp-Name": name, header: good}
    without_arg = {k: v for k, v in args.items() if k != argument}
    optional = len(path) == 1 and argument not in _required(schema)
    cases: list[tuple[str, str, dict[str, str | None], JsonObject | None, JsonObject]] = [
        ("match", f"{header} equals the body's {argument!r}", {}, _envelope(), args),
        ("mismatch", f"{header} disagrees with the body", {header: header_text(other_value(value))}, _envelope(), args),
        ("missing", f"{header} left out", {header: None}, _envelope(), args),
        ("base64", "the same value in the base64 sentinel form", {header: sentinel}, _envelope(), args),
        ("name", "Mcp-Name names another tool", {"Mcp-Name": f"{name}-other"}, _envelope(), args),
        ("envelope", "the body's _meta says 2025-11-25", {}, _envelope("2025-11-25"), args),
        (
            "version",
            f"MCP-Protocol-Version: {_UNKNOWN}, not the _meta's",
            {"MCP-Protocol-Version": _UNKNOWN},
            _envelope(),
            args,
        ),
        (
            "unsupported",
            f"header and _meta both {_UNKNOWN}",
            {"MCP-Protocol-Version": _UNKNOWN},
            _envelope(_UNKNOWN),
            args,
        ),
        (
            "legacy",
            f"MCP-Protocol-Version: {LEGACY} (routed to the session transport)",
            {"MCP-Protocol-Version": LEGACY},
            _envelope(),
            args,
        ),
        ("no-meta", "no _meta envelope in the body", {}, None, args),
    ]
    if optional:
        cases.append(("extra", f"{header} sent, {argument!r} absent from the body", {}, _envelope(), without_arg))
    experiment = MismatchExperiment(server=entry.name, tool=name, argument=argument, header=header, arguments=args, notes=notes)
    await _ready(entry)
    hooks = http_hooks(target.book, tag=target.tag)
    async with httpx2.AsyncClient(event_hooks=hooks, timeout=30.0, headers=target.headers, verify=tls_context()) as client:
        for i, (case, description, changes, meta, body_args) in enumerate(cases, start=1):
            headers: dict[str, str] = {
                "Accept": "application/json, text/event-stream",
                "Content-Type": "application/json",
                "MCP-Protocol-Version": MODERN,
                **base,
            }
            for key, new in changes.items():
                headers.pop(key, None)
                if new is not None:
                    headers[key] = new
            params: JsonObject = {"name": name, "arguments": body_args}
            if meta is not None:
                params["_meta"] = meta
            body = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params}
            with leg_scope(LegCapture()) as capture:
                await client.post(target.url, json=body, headers=headers)
            experiment.probes.append(Probe.from_exchange(case, description, capture.http[-1]))
    return experiment


def _answer_fn(entry: LabServer | OutsideServer, tool: str, answers: Mapping[str, JsonValue] | None) -> Backchannel:
    if not answers:
        return Backchannel()
    scripted = ScriptedAnswerer(answers)

    async def answer(key: str, request: T.InputRequest) -> InputResponse:
        return await scripted.answer(key, request, AnswerContext(entry.name, "tools/call", tool, 0))

    return backchannel_callbacks(answer)


async def _sdk_scenario(
    target: _Http, tool: str, args: JsonObject, callbacks: Backchannel, how: str
) -> Scenario:
    descriptions = {
        "client": "SDK Client.call_tool, tools never listed",
        "session": "SDK client.session.call_tool, tools never listed",
        "listed": "SDK Client.call_tool after list_tools()",
    }
    scenario = Scenario(name=how, description=descriptions[how])
    with leg_scope(LegCapture()) as connect:
        client = Client(target.transport(), cache=None, **callbacks)
        await client.__aenter__()
    try:
        scenario.connect = connect.http
        with leg_scope(LegCapture()) as capture:
            try:
                if how == "listed":
                    await client.list_tools()
                if how == "session":
                    result = await client.session.call_tool(tool, args)
                else:
                    result = await client.call_tool(tool, args)
                scenario.outcome = "result: " + " ".join(c.text for c in result.content if isinstance(c, T.TextContent))
            except MCPError as exc:
                scenario.outcome = f"raised MCPError {exc.error.code}: {exc.error.message}"
        scenario.exchanges = capture.http
    finally:
        await client.__aexit__(None, None, None)
    return scenario


async def list_first_lab(
    server: str | LabServer | OutsideServer,
    tool: str | None = None,
    arguments: Mapping[str, JsonValue] | None = None,
    *,
    answers: Mapping[str, JsonValue] | None = None,
) -> ListFirstExperiment:
    """What a client that never listed tools goes through: SDK Client, bare session, the lab's flow engine."""
    entry = _entry(server)
    notes: list[str] = []
    target = _http_of(entry, notes)
    name, schema = await _marked_tool(entry, tool)
    args = _arguments(schema, arguments)
    callbacks = _answer_fn(entry, name, answers)
    experiment = ListFirstExperiment(server=entry.name, tool=name, arguments=args, notes=notes)
    for how in ("client", "session"):
        experiment.scenarios.append(await _sdk_scenario(target, name, args, callbacks, how))
    # The lab's engine on a fresh connection that has not listed either (mcp_lab.call lists first; this skips it).
    await entry.close_clients()
    with leg_scope(LegCapture()) as connect:
        await entry.session(MODERN)
    answerer = ScriptedAnswerer(answers) if answers else None
    flow = Flow(server=entry.name, method="tools/call", target=name, arguments=args).bind(entry, answerer)
    await flow.run()
    first = flow.rounds[0] if flow.rounds else None
    experiment.scenarios.append(
        Scenario(
            name="flow",
            description="mcp_lab flow engine, tools never listed",
            exchanges=[e for r in flow.rounds for e in r.http],
            outcome=flow.summary(),
            relisted=bool(first and first.relisted),
            connect=connect.http,
        )
    )
    experiment.scenarios.append(await _sdk_scenario(target, name, args, callbacks, "listed"))
    return experiment


_BOOK_TOOL = T.Tool(
    name="check_stock",
    description="Count the copies of a book in one region's warehouses.",
    input_schema={
        "type": "object",
        "properties": {"title": {"type": "string"}, "region": {"type": "string", "x-mcp-header": "Region"}},
        "required": ["title", "region"],
    },
)


async def schema_lookup_lab(calls: int = 10) -> SchemaLookupExperiment:
    """The seed's lowlevel Bookshop, served twice: without and with `get_tool_input_schema`. Each gets one
    `list_tools()` and `calls` calls; the lab counts how often `on_list_tools` ran."""
    if not isinstance(calls, int) or isinstance(calls, bool) or not 1 <= calls <= 1000:
        raise LabError("calls must be a whole number from 1 to 1000")
    experiment = SchemaLookupExperiment(calls=calls, tool=_BOOK_TOOL.name)
    for with_lookup in (False, True):
        count = 0

        async def on_list_tools(ctx: object, params: object) -> T.ListToolsResult:
            nonlocal count
            count += 1
            return T.ListToolsResult(tools=[_BOOK_TOOL])

        async def on_call_tool(ctx: object, params: T.CallToolRequestParams) -> T.CallToolResult:
            args = params.arguments or {}
            text = f"{args.get('title')}: 3 copies in {args.get('region')}."
            return T.CallToolResult(content=[T.TextContent(type="text", text=text)])

        def lookup(name: str) -> Mapping[str, JsonValue] | None:
            return _BOOK_TOOL.input_schema if name == _BOOK_TOOL.name else None

        handlers: dict[str, Callable[..., object]] = {"on_list_tools": on_list_tools, "on_call_tool": on_call_tool}
        if with_lookup:
            handlers["get_tool_input_schema"] = lookup
        entry = sandbox.new_lowlevel("Bookshop", handlers)
        serve(entry)
        assert entry.http is not None
        try:
            async with Client(entry.http.transport(), cache=None) as client:
                await client.list_tools()
                for i in range(calls):
                    await client.call_tool(_BOOK_TOOL.name, {"title": f"Dune {i}", "region": "eu-west"})
        finally:
            stopped = entry.stop_http()
            if stopped is not None:
                await stopped
        experiment.runs.append(
            {"get_tool_input_schema": with_lookup, "list_calls": 1, "tool_calls": calls, "on_list_tools": count}
        )
    return experiment
