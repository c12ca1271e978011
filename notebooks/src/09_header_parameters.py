# %% [markdown] id=intro
# # 9 · Header parameters
#
# Most servers never need this notebook. It is for servers that sit behind a gateway or a load balancer
# that routes on what it can read **without parsing the body**. In 2026-07-28 such an intermediary can
# route by tool argument: mark an argument with `x-mcp-header` in the tool's input schema, and every
# 2026-07-28 client also sends its value as an HTTP header, `Mcp-Param-<Name>`.
#
# In this notebook you will see:
#
# 1. how to **mark** an argument: `Field(json_schema_extra=...)` on an `MCPServer` tool, the lab's
#    `mcp_lab.header(...)`, an optional argument with `WithJsonSchema`, and a lowlevel schema written by hand;
# 2. the `Mcp-Param-*` headers **on the wire**, captured from real loopback HTTP;
# 3. the server **rejecting** a call whose header and body disagree;
# 4. why a client must **list tools before calling**, and what the SDK's `Client` does when it has not;
# 5. **which types** may be marked, and what `InvalidSignature` says about the rest;
# 6. a lowlevel server with an **invalid** mark: nothing checks it, and clients drop the tool;
# 7. `get_tool_input_schema`, and how often a lowlevel server runs `on_list_tools` without it.
#
# About 15 minutes.

# %%
%load_ext mcp_lab
import logging
from typing import Annotated

import json

import mcp_lab
from pydantic import Field, WithJsonSchema


def param_usage_lines(usage):
    """One line per marked argument of an HTTP exchange (`rnd.http[-1]["param_headers"]`): its value, the
    header the client sent for it (with the decoded value when it was encoded), and the lab's verdict."""
    lines = []
    for used in usage:
        value = "(absent)" if used["value"] is None else json.dumps(used["value"], ensure_ascii=False)
        sent = "(not sent)" if used["sent"] is None else used["sent"]
        if used["sent"] is not None and used["decoded"] not in (None, used["sent"]):
            sent += f" (decoded {json.dumps(used['decoded'], ensure_ascii=False)})"
        reason = f" {used['reason']}" if used.get("reason") else ""
        lines.append(f"{used['argument']}={value} -> {used['header']}: {sent} [{used['verdict']}]{reason}")
    return lines

# %% [markdown]
# ## Marking arguments
#
# A mark is a single key in the argument's JSON Schema. On an `MCPServer` tool, pydantic's `Field`
# puts it there. `check_stock` below is the SDK docs' example. `reserve` marks an `int` and a `bool` with
# `mcp_lab.header("Name")`, which writes the same key and explains a mistake in one line. `find` has an
# **optional** marked argument. Pydantic describes `str | None` as an `anyOf`, which is not a single type,
# so the schema must be written out with `WithJsonSchema`. `ship` asks a question as well, so we can watch
# a header go along on every leg of a multi round-trip call.
#
# `--http` serves the server over Streamable HTTP on 127.0.0.1, on a free port. Headers exist only there.

# %% id=bookshop
%%mcp_server bookshop --http
from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel


@mcp.tool()
def check_stock(
    title: str,
    region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})],
) -> str:
    """Count the copies of a book in one region's warehouses."""
    return f"{title}: 3 copies in {region}."


@mcp.tool()
def reserve(title: str, copies: Annotated[int, mcp_lab.header("Copies")],
            gift: Annotated[bool, mcp_lab.header("Gift")] = False) -> str:
    return f"reserved {copies} x {title}" + (" (gift wrapped)" if gift else "")


@mcp.tool()
def find(title: str, region: Annotated[str | None, WithJsonSchema({"type": "string", "x-mcp-header": "Region"})] = None) -> str:
    return f"{title}: found in {region or 'every region'}"


class Address(BaseModel):
    street: str


async def ask_address(title: str) -> Elicit[Address]:
    return Elicit(f"Where should we send {title}?", Address)


@mcp.tool()
async def ship(title: str, region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})],
               address: Annotated[Address, Resolve(ask_address)]) -> str:
    return f"{title} ships from {region} to {address.street}"

# %% [markdown]
# The marks as the server lists them. `mcp_lab.header_table` reads the raw listing and shows, for each
# marked argument, the header it becomes and how a few sample values would be written:

# %% id=marks-listed
tools = {tool.name: tool for tool in await mcp.list_tools()}
print(tools["check_stock"].input_schema["properties"]["region"])
print(tools["find"].input_schema["properties"]["region"])
await mcp_lab.header_table("bookshop")

# %% [markdown]
# ## `Mcp-Param-*` on the wire
#
# A call over HTTP. The flow view lists every HTTP exchange of each leg with its `Mcp-*` request headers,
# and says which argument went into which header and whether the header matches the body. The tool
# function itself has not changed: `region` still reaches it as an ordinary argument.

# %% id=header-on-wire
flow = await %mcp_call bookshop check_stock title=Dune region=eu-west
flow

# %% [markdown]
# A value that is not plain printable ASCII travels in the SDK's base64 form, `=?base64?...?=`, and the
# server decodes it before comparing. Integers are sent as digits and booleans as `true`/`false`.
# An optional marked argument that is left out sends no header at all:

# %% id=header-encodings
for tool, arguments in [
    ("check_stock", {"title": "Dune", "region": "São Paulo"}),
    ("reserve", {"title": "Dune", "copies": 2, "gift": True}),
    ("find", {"title": "Dune"}),
]:
    call = await mcp_lab.call("bookshop", tool, arguments)
    print(call.text)
    for line in param_usage_lines(call.rounds[-1].http[-1]["param_headers"]):
        print("   ", line)

# %% [markdown]
# In a multi round-trip call every leg is a complete `tools/call` with the same arguments, so every leg
# carries the same header:

# %% id=every-leg
shipped = await mcp_lab.call("bookshop", "ship", {"title": "Dune", "region": "eu-west"},
                             answers={"ask_address": {"street": "1 Main St"}})
shipped

# %% [markdown]
# Every other kind of connection ignores the marks. A 2025-11-25 client sends no `Mcp-Param-*` header
# (its protocol has none), and the server does not ask for one. An in-process (or stdio) connection has no
# HTTP headers at all:

# %% id=other-connections
from mcp import Client

old = await mcp_lab.call("bookshop", "check_stock", {"title": "Dune", "region": "eu-west"}, legacy=True)
print("2025-11-25 over HTTP:", old.text)
sent = [name for exchange in old.rounds[0].http for name, _ in exchange["request"]["headers"]]
print("  Mcp-Param headers it sent:", [n for n in sent if n.lower().startswith("mcp-param")])
async with Client(mcp) as local:  # the same server object, in-process
    result = await local.call_tool("check_stock", {"title": "Dune", "region": "eu-west"})
print("2026-07-28 in-process:", result.content[0].text)

# %% [markdown]
# ## The server rejects a mismatch
#
# A gateway trusts the header, and the tool trusts the body, so the two must agree. `mcp_lab.mismatch_lab`
# sends raw `tools/call` POSTs with the headers right, wrong, or missing, and records what the server
# answers. Next to `Mcp-Param-Region`, the same check covers the other routing headers: `Mcp-Name`, and
# `MCP-Protocol-Version`, which must name the version of the body's `_meta` (and one the server speaks).
# A header naming 2025-11-25 is not checked at all: the server hands the request to its 2025-11-25
# transport, which wants a session first (the `legacy` row).

# %% id=mismatch
await mcp_lab.mismatch_lab("bookshop", "check_stock", {"title": "Dune", "region": "eu-west"})

# %% [markdown]
# ## List before you call
#
# A client learns about the marks from `tools/list`. A client that calls a tool it has never listed has
# not seen the mark, sends no header, and is rejected (`-32020`, header missing). The SDK's `Client`
# handles this. It lists the tools and sends the call **once** more, so listing first only saves a round
# trip. The bare session does not retry. `mcp_lab.list_first_lab` tries each client on a fresh connection:

# %% id=list-first
await mcp_lab.list_first_lab("bookshop", "check_stock", {"title": "Dune", "region": "eu-west"})

# %% [markdown]
# ## What may be marked
#
# Only `str`, `int` and `bool` arguments. Anything else is refused with `InvalidSignature` when the tool
# is registered, at `@mcp.tool()`. Here are the SDK's own messages for a float, a plain `str | None`
# (without `WithJsonSchema`), a list, a header name that is not an HTTP token, and two marks that differ
# only in case. The last tool, with one mark of each allowed type, is accepted:

# %% id=invalid-signature
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import InvalidSignature


def mark(name):
    return Field(json_schema_extra={"x-mcp-header": name})


scratch = MCPServer("scratch")


def register(tool):
    try:
        scratch.tool()(tool)
        print(f"{tool.__name__}: accepted")
    except InvalidSignature as exc:
        print(f"{tool.__name__}: InvalidSignature: {exc}")


def by_price(price: Annotated[float, mark("Price")]) -> str: ...
def by_optional_region(region: Annotated[str | None, mark("Region")] = None) -> str: ...
def by_tags(tags: Annotated[list[str], mark("Tags")]) -> str: ...
def by_bad_name(region: Annotated[str, mark("Bad Name")]) -> str: ...
def by_twins(a: Annotated[str, mark("Dup")], b: Annotated[str, mark("dup")]) -> str: ...
def by_all_three(title: Annotated[str, mark("Title")], copies: Annotated[int, mark("Copies")],
                 gift: Annotated[bool, mark("Gift")]) -> str: ...


for tool in (by_price, by_optional_region, by_tags, by_bad_name, by_twins, by_all_three):
    register(tool)

# %% [markdown]
# `mcp_lab.header(...)` applies the same rules and says what to do instead:

# %% id=lab-header-error
try:
    @scratch.tool()
    def price(amount: Annotated[float, mcp_lab.header("Amount")]) -> str:
        return str(amount)
except Exception as exc:
    print(type(exc).__name__, "-", exc)

# %% [markdown]
# ## The lowlevel server: the mark goes into your schema
#
# A lowlevel `Server` takes the `input_schema` you write, so you put the key in yourself. Here is the
# docs' lowlevel `server.py`, exactly as written, down to its last line, `app = server.streamable_http_app()`.
# `mcp_lab.serve(..., app=app)` serves that very app object on 127.0.0.1 (uvicorn in a thread, as
# `uvicorn server:app` would). The lab adopts the server as `bookshop-lowlevel`, since `bookshop` is taken.

# %% id=docs-lowlevel-bookshop
from mcp.server import Server, ServerRequestContext
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)

CHECK_STOCK = Tool(
    name="check_stock",
    description="Count the copies of a book in one region's warehouses.",
    input_schema={
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "region": {"type": "string", "x-mcp-header": "Region"},
        },
        "required": ["title", "region"],
    },
)


async def list_tools(ctx: ServerRequestContext, params: PaginatedRequestParams | None) -> ListToolsResult:
    return ListToolsResult(tools=[CHECK_STOCK])


async def call_tool(ctx: ServerRequestContext, params: CallToolRequestParams) -> CallToolResult:
    args = params.arguments or {}
    text = f"{args['title']}: 3 copies in {args['region']}."
    return CallToolResult(content=[TextContent(type="text", text=text)])


server = Server("Bookshop", on_list_tools=list_tools, on_call_tool=call_tool)
app = server.streamable_http_app()

# %% [markdown]
# A call over HTTP carries the header, and a raw POST whose header disagrees with the body is rejected,
# exactly as for the `MCPServer` above (the first three rows of `mismatch_lab`):

# %% id=docs-lowlevel-served
def first_probes(lab, cases=("match", "mismatch", "missing")):
    for probe in lab.probes:
        if probe.case in cases:
            answer = f"{probe.code} {probe.message}" if probe.code else "accepted"
            print(f"  {probe.case}: {probe.description} -> {probe.status} {answer}")


mcp_lab.sandbox.add(server, name="bookshop-lowlevel")
mcp_lab.serve("bookshop-lowlevel", app=app)
stock = await mcp_lab.call("bookshop-lowlevel", "check_stock", {"title": "Dune", "region": "eu-west"})
print(stock.text)
for line in param_usage_lines(stock.rounds[-1].http[-1]["param_headers"]):
    print("   ", line)
first_probes(await mcp_lab.mismatch_lab("bookshop-lowlevel", "check_stock", {"title": "Dune", "region": "eu-west"}))
await mcp_lab.sandbox.stop("bookshop-lowlevel")

# %% [markdown]
# ## The lowlevel server checks nothing
#
# Nothing checks the marks you write. Below, `check_stock` is the docs' lowlevel example again, and `pay`
# marks a **number**, which is not allowed. The server lists `pay` anyway. A 2026-07-28 client drops it
# from its tool list and logs a warning:

# %% id=warehouse
%%mcp_server warehouse --lowlevel --http
import mcp.types as T

CHECK_STOCK = T.Tool(
    name="check_stock",
    description="Count the copies of a book in one region's warehouses.",
    input_schema={
        "type": "object",
        "properties": {"title": {"type": "string"}, "region": {"type": "string", "x-mcp-header": "Region"}},
        "required": ["title", "region"],
    },
)
PAY = T.Tool(
    name="pay",
    input_schema={"type": "object", "properties": {"amount": {"type": "number", "x-mcp-header": "Amount"}}},
)


async def on_list_tools(ctx, params) -> T.ListToolsResult:
    return T.ListToolsResult(tools=[CHECK_STOCK, PAY])


async def on_call_tool(ctx, params: T.CallToolRequestParams) -> T.CallToolResult:
    args = params.arguments or {}
    text = f"{args['title']}: 3 copies in {args['region']}." if params.name == "check_stock" else f"paid {args['amount']}"
    return T.CallToolResult(content=[T.TextContent(type="text", text=text)])

# %% id=client-drops
class Remember(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


client_logger = logging.getLogger("client")  # the SDK client's logger
client_log = Remember()
for stale in [h for h in client_logger.handlers if type(h).__name__ == "Remember"]:
    client_logger.removeHandler(stale)  # run this cell again: its handler is replaced, not doubled
client_logger.addHandler(client_log)
client_logger.propagate = False  # keep the warning for the print below, not the cell's stderr
async with Client(mcp_lab.client_transport("warehouse")) as client:  # its URL, with the server's secret
    listed = await client.list_tools()
client_logger.removeHandler(client_log)
client_logger.propagate = True
print("the client keeps:", [tool.name for tool in listed.tools])
print("the client logged:", client_log.lines)
await mcp_lab.header_table("warehouse")

# %% [markdown]
# ## Looking up a schema by name: `get_tool_input_schema`
#
# To check the headers of a call, the server needs the tool's input schema **before** it runs the tool.
# An `MCPServer` knows its tools. A lowlevel server has only its `on_list_tools` handler, so without help
# the SDK runs that handler for **every call that has arguments**, whether any tool is marked or not.
# `Server(..., get_tool_input_schema=...)` answers from what you already have, and returns `None` for a
# tool with nothing to check. `schema_lookup_lab` serves the docs' lowlevel Bookshop twice, without and
# with the lookup, makes one `list_tools()` and ten calls, and counts how often `on_list_tools` ran:

# %% id=lookup-counts
await mcp_lab.schema_lookup_lab(calls=10)

# %% [markdown]
# The lookup runs whether a tool is marked or not. Here is a lowlevel `echo` server with **no** marks at
# all, served twice. The first copy has no lookup. The second defines `get_tool_input_schema` next to its
# handlers and returns `None` for every tool, which means "nothing to check here". Each gets five calls
# with arguments and one without:

# %%
import mcp.types as T

ECHO = T.Tool(name="echo", input_schema={"type": "object", "properties": {"text": {"type": "string"}}})


def echo_handlers():
    runs = {"on_list_tools": 0}

    async def list_tools(ctx, params) -> T.ListToolsResult:
        runs["on_list_tools"] += 1
        return T.ListToolsResult(tools=[ECHO])

    async def call_tool(ctx, params: T.CallToolRequestParams) -> T.CallToolResult:
        text = str((params.arguments or {}).get("text", "(no arguments)"))
        return T.CallToolResult(content=[T.TextContent(type="text", text=text)])

    return list_tools, call_tool, runs


async def five_calls_and_one_bare(server):
    texts = [(await mcp_lab.call(server, "echo", {"text": f"hi {i}"})).text for i in range(5)]
    texts.append((await mcp_lab.call(server, "echo")).text)
    return texts

# %%
%%mcp_server echo --lowlevel --http
on_list_tools, on_call_tool, echo_runs = echo_handlers()

# %%
%%mcp_server echo-lookup --lowlevel --http
on_list_tools, on_call_tool, lookup_runs = echo_handlers()


def get_tool_input_schema(name):
    return None  # no tool of this server has a header to check

# %% id=echo-counts
print("without a lookup:", await five_calls_and_one_bare("echo"), echo_runs)
print("with a lookup:   ", await five_calls_and_one_bare("echo-lookup"), lookup_runs)

# %% [markdown]
# Without the lookup, `on_list_tools` ran once for the lab's own listing and once for each of the five
# calls with arguments, but not for the call without arguments. With the lookup it ran only for the
# listing, and the calls still worked.
#
# The docs' Bookshop lookup is the same function over a dict of the server's tools. Here is that
# `server.py`, again exactly as written:

# %% id=docs-schema-lookup
from typing import Any

from mcp.server import Server, ServerRequestContext
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)

CHECK_STOCK = Tool(
    name="check_stock",
    description="Count the copies of a book in one region's warehouses.",
    input_schema={
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "region": {"type": "string", "x-mcp-header": "Region"},
        },
        "required": ["title", "region"],
    },
)

TOOLS = {CHECK_STOCK.name: CHECK_STOCK}


async def list_tools(ctx: ServerRequestContext, params: PaginatedRequestParams | None) -> ListToolsResult:
    return ListToolsResult(tools=list(TOOLS.values()))


async def call_tool(ctx: ServerRequestContext, params: CallToolRequestParams) -> CallToolResult:
    args = params.arguments or {}
    text = f"{args['title']}: 3 copies in {args['region']}."
    return CallToolResult(content=[TextContent(type="text", text=text)])


def tool_input_schema(name: str) -> dict[str, Any] | None:
    tool = TOOLS.get(name)
    return tool.input_schema if tool else None


server = Server(
    "Bookshop",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    get_tool_input_schema=tool_input_schema,
)
app = server.streamable_http_app()

# %% [markdown]
# The lookup answers by name: the marked schema for `check_stock`, `None` for a tool it does not have.
# Served, the server checks the header with what the lookup returned. And the lookup's answer is all the
# SDK goes by: the same handlers with a lookup that returns `None` for `check_stock` have nothing to check
# against, so the mismatched header is **accepted**. Return `None` only for tools without marks.

# %% id=docs-schema-lookup-run
print("tool_input_schema('check_stock'):", tool_input_schema("check_stock"))
print("tool_input_schema('restock'):    ", tool_input_schema("restock"))
mcp_lab.sandbox.add(server, name="bookshop-lookup")
mcp_lab.serve("bookshop-lookup", app=app)
mcp_lab.sandbox.add(Server("Bookshop", on_list_tools=list_tools, on_call_tool=call_tool,
                           get_tool_input_schema=lambda name: None), name="bookshop-no-schema")
for name in ("bookshop-lookup", "bookshop-no-schema"):
    print(name)
    first_probes(await mcp_lab.mismatch_lab(name, "check_stock", {"title": "Dune", "region": "eu-west"}),
                 cases=("match", "mismatch"))
    await mcp_lab.sandbox.stop(name)

# %% [markdown]
# ### The SDK `Client` re-lists **once**, then gives up
#
# The `Client` re-lists and resends only once. Two servers show it. `bookshop-relisted` is the docs' lookup
# server above: the client never listed, so its first call carries no header; it re-lists, resends with
# `Mcp-Param-Region`, and is served. `bookshop-stuck` lists `Region` but checks `Area`, so the resent call
# is still rejected, and the client raises that second `-32020` instead of re-listing again. The counts
# are the server's own: `tools/list` handled and header checks made (the lookup runs once per call).
# A client that re-listed twice would show `listings 2, header checks 3` for the stuck server.

# %% id=relist-once
from mcp import Client
from mcp.shared.exceptions import MCPError

seen = {}


def counting(name, checked_as):
    seen[name] = {"listings": 0, "header checks": 0}

    async def listing(ctx, params):
        seen[name]["listings"] += 1
        return ListToolsResult(tools=[CHECK_STOCK])

    def lookup(tool):
        seen[name]["header checks"] += 1
        schema = dict(CHECK_STOCK.input_schema, properties=dict(CHECK_STOCK.input_schema["properties"]))
        schema["properties"]["region"] = {"type": "string", "x-mcp-header": checked_as}
        return schema

    return Server("Bookshop", on_list_tools=listing, on_call_tool=call_tool, get_tool_input_schema=lookup)


for name, checked_as in (("bookshop-relisted", "Region"), ("bookshop-stuck", "Area")):
    mcp_lab.sandbox.add(counting(name, checked_as), name=name)
    mcp_lab.serve(name)
    async with Client(mcp_lab.client_transport(name), cache=None) as client:
        try:
            result = await client.call_tool("check_stock", {"title": "Dune", "region": "eu-west"})
            outcome = "served: " + result.content[0].text
        except MCPError as exc:
            outcome = f"raised MCPError {exc.error.code}: {exc.error.message}"
    print(f"{name}: listings {seen[name]['listings']}, header checks {seen[name]['header checks']} -> {outcome}")
    await mcp_lab.sandbox.stop(name)
assert seen["bookshop-stuck"] == {"listings": 1, "header checks": 2}, (
    f"expected one re-list and two sends to the stuck server, found {seen['bookshop-stuck']}")

# %% [markdown]
# ## Exercise
#
# Add a tool `locate(title, shelf)` to a new server `library`, served over HTTP. `shelf` is an
# **optional** `str` that travels in the header `Shelf`. Call it once with `shelf="B2"` and once without.
# The check below looks for `Mcp-Param-Shelf: B2` on the first call, no such header on the second, and a
# valid entry in the header table. The last cell stops the HTTP servers this notebook started, so that a
# re-run starts clean.

# %% solution
%%mcp_server library --http
# Your answer: the `locate` tool, with `shelf` travelling in the header Shelf.
### BEGIN SOLUTION
@mcp.tool()
def locate(title: str, shelf: Annotated[str | None, WithJsonSchema({"type": "string", "x-mcp-header": "Shelf"})] = None) -> str:
    return f"{title} is on shelf {shelf or 'unknown'}"
### END SOLUTION

# %% solution
# Your answer: call `locate` with and without a shelf, storing `with_shelf` and `without_shelf`.
### BEGIN SOLUTION
with_shelf = await mcp_lab.call("library", "locate", {"title": "Dune", "shelf": "B2"})
without_shelf = await mcp_lab.call("library", "locate", {"title": "Dune"})
### END SOLUTION

# %% check
mcp_lab.exercise_needs(with_shelf="the flow of locate with shelf B2", without_shelf="the flow of locate without a shelf")


def mcp_param_headers(flow):
    exchange = flow.rounds[-1].http[-1]
    return {k.lower(): v for k, v in exchange["request"]["headers"] if k.lower().startswith("mcp-param-")}


assert mcp_param_headers(with_shelf) == {"mcp-param-shelf": "B2"}, (
    f"expected the header Mcp-Param-Shelf: B2, found {mcp_param_headers(with_shelf)}")
assert mcp_param_headers(without_shelf) == {}, (
    f"expected no Mcp-Param header without a shelf, found {mcp_param_headers(without_shelf)}")
table = await mcp_lab.header_table("library")
assert len(table.rows) == 1, f"expected one marked argument on library, found {[r.argument for r in table.rows]}"
row = table.rows[0]
assert (row.argument, row.header, row.valid) == ("shelf", "Mcp-Param-Shelf", True), (
    f"expected shelf marked as a valid Mcp-Param-Shelf, found {(row.argument, row.header, row.valid)}")
print("✔ well done:", with_shelf.text, "|", without_shelf.text)

# %%
%mcp_server stop bookshop
%mcp_server stop warehouse
%mcp_server stop echo
%mcp_server stop echo-lookup
%mcp_server stop library
