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

# %% [markdown ko]
# # 9 · 헤더 매개변수
#
# 대부분의 서버에는 이 노트북이 필요 없습니다. 이 노트북은 **본문을 파싱하지 않고** 읽을 수 있는 정보만으로 라우팅하는
# 게이트웨이나 로드 밸런서 뒤에 놓인 서버를 위한 것입니다. 2026-07-28에서는 이런 중간 장치가 도구 인수로 라우팅할 수
# 있습니다. 도구의 입력 스키마에서 인수에 `x-mcp-header`를 표시하면, 모든 2026-07-28 클라이언트가 그 값을
# HTTP 헤더 `Mcp-Param-<Name>`으로도 보냅니다.
#
# 이 노트북에서 살펴볼 내용은 다음과 같습니다.
#
# 1. 인수를 **표시하는** 방법: `MCPServer` 도구의 `Field(json_schema_extra=...)`, 실습의
#    `mcp_lab.header(...)`, `WithJsonSchema`를 쓰는 선택적 인수, 직접 작성한 저수준 스키마
# 2. 실제 루프백 HTTP에서 포착한, **전송 구간의** `Mcp-Param-*` 헤더
# 3. 헤더와 본문이 일치하지 않는 호출을 서버가 **거부하는** 모습
# 4. 클라이언트가 **호출하기 전에 도구 목록을 조회해야 하는** 이유와, 조회하지 않았을 때 SDK의 `Client`가 하는 일
# 5. **표시할 수 있는 타입**과, 그 밖의 타입에 대해 `InvalidSignature`가 알려 주는 내용
# 6. **잘못된** 표시가 있는 저수준 서버: 아무것도 이를 검사하지 않으며, 클라이언트는 그 도구를 목록에서 제외합니다
# 7. `get_tool_input_schema`, 그리고 이것이 없을 때 저수준 서버가 `on_list_tools`를 얼마나 자주
#    실행하는지
#
# 약 15분 걸립니다.

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

# %% [markdown ko]
# ## 인수 표시하기
#
# 표시는 인수의 JSON Schema에 추가하는 키 하나입니다. `MCPServer` 도구에서는 pydantic의 `Field`가
# 이 키를 넣어 줍니다. 아래의 `check_stock`은 SDK 문서의 예제입니다. `reserve`는
# `mcp_lab.header("Name")`으로 `int` 인수와 `bool` 인수를 표시합니다. `mcp_lab.header`는
# 같은 키를 써 넣고, 실수가 있으면 한 줄로 설명해 줍니다. `find`에는 **선택적** 표시 인수가 있습니다.
# Pydantic은 `str | None`을 `anyOf`로 기술하는데, 이는 단일 타입이 아니므로 `WithJsonSchema`로
# 스키마를 직접 명시해야 합니다. `ship`은 질문도 하므로, 다중 왕복 호출의 모든 구간에 헤더가 함께 실려 가는 모습을 볼 수
# 있습니다.
#
# `--http`는 서버를 127.0.0.1의 빈 포트에서 Streamable HTTP로 제공합니다. 헤더는 이 경우에만
# 존재합니다.

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

# %% [markdown ko]
# 서버가 목록에 싣는 그대로의 표시입니다. `mcp_lab.header_table`은 가공하지 않은 도구 목록을 읽고, 표시된
# 인수마다 그 인수가 어떤 헤더가 되는지, 몇 가지 예시 값이 어떻게 쓰이는지 보여 줍니다.

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

# %% [markdown ko]
# ## 전송 구간의 `Mcp-Param-*`
#
# HTTP를 통한 호출입니다. 흐름 뷰는 각 구간의 모든 HTTP 교환을 `Mcp-*` 요청 헤더와 함께 나열하고, 어떤 인수가
# 어떤 헤더에 들어갔는지, 그 헤더가 본문과 일치하는지 알려 줍니다. 도구 함수 자체는 바뀌지 않았습니다. `region`은 여전히
# 평범한 인수로 전달됩니다.

# %% id=header-on-wire
flow = await %mcp_call bookshop check_stock title=Dune region=eu-west
flow

# %% [markdown]
# A value that is not plain printable ASCII travels in the SDK's base64 form, `=?base64?...?=`, and the
# server decodes it before comparing. Integers are sent as digits and booleans as `true`/`false`.
# An optional marked argument that is left out sends no header at all:

# %% [markdown ko]
# 출력 가능한 일반 ASCII가 아닌 값은 SDK의 base64 형태 `=?base64?...?=`로 전달되며, 서버는 비교하기
# 전에 이를 디코딩합니다. 정수는 숫자 그대로, 불리언은 `true`/`false`로 보냅니다. 생략된 선택적 표시 인수는 헤더를
# 아예 보내지 않습니다.

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

# %% [markdown ko]
# 다중 왕복 호출에서 모든 구간은 같은 인수를 담은 완전한 `tools/call`이므로, 모든 구간에 같은 헤더가 실립니다.

# %% id=every-leg
shipped = await mcp_lab.call("bookshop", "ship", {"title": "Dune", "region": "eu-west"},
                             answers={"ask_address": {"street": "1 Main St"}})
shipped

# %% [markdown]
# Every other kind of connection ignores the marks. A 2025-11-25 client sends no `Mcp-Param-*` header
# (its protocol has none), and the server does not ask for one. An in-process (or stdio) connection has no
# HTTP headers at all:

# %% [markdown ko]
# 그 밖의 모든 연결은 표시를 무시합니다. 2025-11-25 클라이언트는 `Mcp-Param-*` 헤더를 보내지 않으며(그
# 프로토콜에는 이런 헤더가 없습니다), 서버도 헤더를 요구하지 않습니다. 인프로세스(또는 stdio) 연결에는 HTTP 헤더가 아예
# 없습니다.

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

# %% [markdown ko]
# ## 서버는 불일치를 거부합니다
#
# 게이트웨이는 헤더를 믿고 도구는 본문을 믿으므로, 둘은 반드시 일치해야 합니다. `mcp_lab.mismatch_lab`은 헤더가
# 올바르거나, 틀리거나, 빠진 가공하지 않은 `tools/call` POST를 보내고 서버가 어떻게 응답하는지 기록합니다.
# `Mcp-Param-Region` 말고도 다른 라우팅 헤더인 `Mcp-Name`과 `MCP-Protocol-Version`이 같은
# 검사를 받습니다. `MCP-Protocol-Version`은 본문 `_meta`의 버전을 가리켜야 하며, 그 버전은 서버가
# 지원하는 것이어야 합니다. 2025-11-25를 가리키는 헤더는 아예 검사하지 않습니다. 서버는 그 요청을 2025-11-25
# 트랜스포트로 넘기고, 이 트랜스포트는 먼저 세션을 요구합니다(`legacy` 행).

# %% id=mismatch
await mcp_lab.mismatch_lab("bookshop", "check_stock", {"title": "Dune", "region": "eu-west"})

# %% [markdown]
# ## List before you call
#
# A client learns about the marks from `tools/list`. A client that calls a tool it has never listed has
# not seen the mark, sends no header, and is rejected (`-32020`, header missing). The SDK's `Client`
# handles this. It lists the tools and sends the call **once** more, so listing first only saves a round
# trip. The bare session does not retry. `mcp_lab.list_first_lab` tries each client on a fresh connection:

# %% [markdown ko]
# ## 호출하기 전에 목록 조회하기
#
# 클라이언트는 `tools/list`에서 표시를 알게 됩니다. 목록을 조회한 적 없는 도구를 호출하는 클라이언트는 표시를 본 적이
# 없으므로 헤더를 보내지 않고, 호출은 거부됩니다(`-32020`, 헤더 누락). SDK의 `Client`는 이 경우를 처리합니다.
# 도구 목록을 조회한 뒤 호출을 **한 번** 다시 보내므로, 목록을 먼저 조회해도 왕복 한 번을 아낄 뿐입니다.
# `client.session.call_tool`처럼 세션을 직접 호출하면 재시도하지 않습니다. `mcp_lab.list_first_lab`은
# 클라이언트마다 새 연결에서 호출해 봅니다.

# %% id=list-first
await mcp_lab.list_first_lab("bookshop", "check_stock", {"title": "Dune", "region": "eu-west"})

# %% [markdown]
# ## What may be marked
#
# Only `str`, `int` and `bool` arguments. Anything else is refused with `InvalidSignature` when the tool
# is registered, at `@mcp.tool()`. Here are the SDK's own messages for a float, a plain `str | None`
# (without `WithJsonSchema`), a list, a header name that is not an HTTP token, and two marks that differ
# only in case. The last tool, with one mark of each allowed type, is accepted:

# %% [markdown ko]
# ## 표시할 수 있는 대상
#
# `str`, `int`, `bool` 인수뿐입니다. 그 밖의 타입은 도구를 등록할 때, 즉 `@mcp.tool()` 시점에
# `InvalidSignature`로 거부됩니다. 아래는 float, `WithJsonSchema` 없이 쓴 그냥
# `str | None`, 리스트, HTTP 토큰이 아닌 헤더 이름, 대소문자만 다른 두 표시에 대해 SDK가 직접 내놓는
# 메시지입니다. 허용되는 타입마다 표시를 하나씩 가진 마지막 도구는 받아들여집니다.

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

# %% [markdown ko]
# `mcp_lab.header(...)`는 같은 규칙을 적용하고, 대신 무엇을 해야 하는지 알려 줍니다.

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

# %% [markdown ko]
# ## 저수준 서버: 표시는 직접 작성한 스키마에 들어갑니다
#
# 저수준 `Server`는 직접 작성한 `input_schema`를 그대로 받으므로, 키도 직접 넣습니다. 아래는 문서의 저수준
# `server.py`로, 마지막 줄 `app = server.streamable_http_app()`까지 문서에 적힌
# 그대로입니다. `mcp_lab.serve(..., app=app)`는 바로 그 app 객체를 127.0.0.1에서
# 제공합니다(`uvicorn server:app`이 하듯이 스레드 안의 uvicorn으로). `bookshop`이라는 이름은 이미
# 쓰이고 있으므로, 실습은 이 서버를 `bookshop-lowlevel`이라는 이름으로 들여옵니다.

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

# %% [markdown ko]
# 위의 `MCPServer`와 똑같이, HTTP를 통한 호출에는 헤더가 실리고, 헤더가 본문과 일치하지 않는 가공하지 않은
# POST는 거부됩니다(`mismatch_lab`의 처음 세 행).

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

# %% [markdown ko]
# ## 저수준 서버는 아무것도 검사하지 않습니다
#
# 직접 작성한 표시는 아무것도 검사해 주지 않습니다. 아래에서 `check_stock`은 다시 문서의 저수준 예제이고, `pay`는
# 허용되지 않는 **number** 타입 인수를 표시합니다. 그래도 서버는 `pay`를 목록에 싣습니다. 2026-07-28
# 클라이언트는 이 도구를 자신의 도구 목록에서 제외하고 경고를 로그에 남깁니다.

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

# %% [markdown ko]
# ## 이름으로 스키마 찾기: `get_tool_input_schema`
#
# 호출의 헤더를 검사하려면 서버는 도구를 실행하기 **전에** 그 도구의 입력 스키마가 필요합니다. `MCPServer`는 자신의
# 도구를 알고 있습니다. 저수준 서버에는 `on_list_tools` 핸들러밖에 없으므로, 도움이 없으면 SDK는 표시된 도구가
# 있든 없든 **인수가 있는 모든 호출마다** 그 핸들러를 실행합니다.
# `Server(..., get_tool_input_schema=...)`는 이미 가지고 있는 정보로 답하며, 검사할 것이 없는
# 도구에는 `None`을 반환합니다. `schema_lookup_lab`은 문서의 저수준 Bookshop을 조회 함수 없이 한 번,
# 조회 함수와 함께 한 번 제공하고, 각각 `list_tools()` 한 번과 호출 열 번을 보낸 뒤 `on_list_tools`가
# 몇 번 실행되었는지 셉니다.

# %% id=lookup-counts
await mcp_lab.schema_lookup_lab(calls=10)

# %% [markdown]
# The lookup runs whether a tool is marked or not. Here is a lowlevel `echo` server with **no** marks at
# all, served twice. The first copy has no lookup. The second defines `get_tool_input_schema` next to its
# handlers and returns `None` for every tool, which means "nothing to check here". Each gets five calls
# with arguments and one without:

# %% [markdown ko]
# 이 조회는 표시된 도구가 있든 없든 일어납니다. 아래는 표시가 **하나도** 없는 저수준 `echo` 서버로, 두 번 띄웁니다.
# 첫 번째 사본에는 조회 함수가 없습니다. 두 번째 사본은 핸들러 옆에 `get_tool_input_schema`를 정의하고 모든
# 도구에 대해 `None`, 즉 "여기에는 검사할 것이 없음"을 반환합니다. 각 서버는 인수가 있는 호출 다섯 번과 인수가 없는
# 호출 한 번을 받습니다.

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

# %% [markdown ko]
# 조회 함수가 없을 때 `on_list_tools`는 실습 자체의 목록 조회에서 한 번, 인수가 있는 호출 다섯 번에서 한 번씩
# 실행되었고, 인수가 없는 호출에서는 실행되지 않았습니다. 조회 함수가 있을 때는 목록 조회에서만 실행되었고, 호출은 그래도 잘
# 동작했습니다.
#
# 문서의 Bookshop 조회 함수는 서버의 도구를 담은 dict에서 찾는 같은 함수입니다. 아래가 그 `server.py`이며,
# 이번에도 문서에 적힌 그대로입니다.

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

# %% [markdown ko]
# 조회 함수는 이름으로 답합니다. `check_stock`에는 표시가 들어 있는 스키마를, 없는 도구에는 `None`을 반환합니다.
# 이 서버를 띄우면 서버는 조회 함수가 반환한 스키마로 헤더를 검사합니다. 그리고 SDK가 따르는 것은 조회 함수의 답뿐입니다.
# 핸들러는 같고 조회 함수만 `check_stock`에 `None`을 반환하면 비교할 기준이 없으므로, 일치하지 않는 헤더도
# **받아들여집니다**. `None`은 표시가 없는 도구에만 반환하세요.

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

# %% [markdown ko]
# ### SDK `Client`는 목록을 **한 번만** 다시 조회하고 포기합니다
#
# `Client`는 목록 재조회와 재전송을 한 번만 합니다. 두 서버로 확인해 봅니다. `bookshop-relisted`는 위에서
# 본 문서의 조회 함수 서버입니다. 클라이언트가 목록을 조회한 적이 없으므로 첫 호출에는 헤더가 없습니다. 클라이언트는 목록을 다시
# 조회하고 `Mcp-Param-Region`을 담아 다시 보내며, 호출은 처리됩니다. `bookshop-stuck`은 목록에는
# `Region`을 싣지만 `Area`를 검사하므로, 다시 보낸 호출도 거부됩니다. 이때 클라이언트는 목록을 또 조회하지 않고 두
# 번째 `-32020`을 예외로 일으킵니다. 횟수는 서버가 직접 센 것으로, 처리한 `tools/list` 수와 수행한 헤더 검사
# 수입니다(조회 함수는 호출마다 한 번 실행됩니다). 목록을 두 번 다시 조회하는 클라이언트였다면 막힌 서버에서
# `listings 2, header checks 3`이 나왔을 것입니다.

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

# %% [markdown ko]
# ## 연습 문제
#
# HTTP로 제공되는 새 서버 `library`에 도구 `locate(title, shelf)`를 추가하세요. `shelf`는 헤더
# `Shelf`로 전달되는 **선택적** `str`입니다. `shelf="B2"`를 주어 한 번, 주지 않고 한 번 호출하세요.
# 아래 검사는 첫 호출에 `Mcp-Param-Shelf: B2`가 있는지, 두 번째 호출에는 그런 헤더가 없는지, 헤더 표에 올바른
# 항목이 있는지 확인합니다. 마지막 셀은 이 노트북이 시작한 HTTP 서버를 중지하므로, 다시 실행해도 깨끗한 상태에서 시작합니다.

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
