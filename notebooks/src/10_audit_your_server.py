# %% [markdown] id=intro
# # 10 · Audit your own server
#
# The earlier notebooks showed what the 2026-07-28 rules for multi round-trip requests and header parameters
# say. This one checks a server against them. `mcp_lab.audit` (or `%mcp_audit NAME`) takes the calls you
# recorded against a server, sends them again -- changed the way each rule is about: a tampered
# `requestState`, a header that disagrees with the body, a client that declares no capabilities, a retry
# on a fresh connection -- and reports, rule by rule, what the server did.
#
# Every check quotes its rule (MUST or SHOULD, with the section of the specification it comes from), says
# what it sent and what came back, and gives a verdict: **kept**, **broken**, **warned**, or **not
# applicable**. The report starts with a summary, and its exit code is what a CI job gets: 0 when no MUST is
# broken, 1 when one is.
#
# The audit **only repeats calls you recorded**. A tool may charge a card or delete a file, so it never
# invents one; it only changes what a rule is about. (The one exception is listings such as `tools/list`,
# which are read-only.) Point it at a test deployment, not at production.
#
# In this notebook you will:
#
# 1. audit a server that keeps every rule, and read its report;
# 2. audit three servers with one flaw each -- a refund amount in a plaintext `requestState`, a header
#    parameter nobody checks, a question asked of a client that cannot answer -- and see each fail exactly
#    the rules it breaks;
# 3. bring in a server of your own, as it is, from its own module;
# 4. see the same audit as a CI step;
# 5. fix the third server yourself.
#
# About 15 minutes.

# %% [markdown ko]
# # 10 · 내 서버 감사하기
#
# 앞선 노트북들에서는 다중 왕복 요청과 헤더 매개변수에 대한 2026-07-28 규칙이 무엇을 말하는지 보았습니다. 이 노트북은
# 서버가 그 규칙을 지키는지 검사합니다. `mcp_lab.audit`(또는 `%mcp_audit NAME`)은 서버에 대해 기록해 둔 호출을 가져와,
# 각 규칙이 다루는 부분을 바꾸어 다시 보냅니다. 변조된 `requestState`, 본문과 맞지 않는 헤더, 기능을 하나도 선언하지 않은
# 클라이언트, 새 연결에서의 재시도 같은 것입니다. 그리고 서버가 무엇을 했는지 규칙별로 보고합니다.
#
# 모든 검사는 해당 규칙을 인용하고(MUST인지 SHOULD인지, 그리고 출처가 되는 사양의 절), 무엇을 보냈고 무엇이 돌아왔는지
# 밝힌 뒤 판정을 내립니다. 판정은 **지킴**(kept), **어김**(broken), **경고**(warned), **해당 없음**(not applicable) 중
# 하나입니다. 보고서는 요약으로 시작하며, 그 종료 코드가 CI 작업이 받는 값입니다. 어긴 MUST가 없으면 0, 하나라도 있으면
# 1입니다.
#
# 감사는 **기록해 둔 호출만 반복합니다**. 도구는 카드로 결제하거나 파일을 지울 수도 있으므로, 감사는 호출을 지어내지 않고
# 규칙이 다루는 부분만 바꿉니다. (유일한 예외는 `tools/list` 같은 목록 조회이며, 이는 읽기 전용입니다.) 운영 환경이 아니라
# 테스트 배포를 대상으로 실행하세요.
#
# 이 노트북에서는 다음을 해 봅니다.
#
# 1. 모든 규칙을 지키는 서버를 감사하고 그 보고서를 읽습니다.
# 2. 결함이 하나씩 있는 서버 세 개를 감사하고(평문 `requestState`에 담긴 환불 금액, 아무도 검사하지 않는 헤더 매개변수,
#    답할 수 없는 클라이언트에게 던지는 질문), 각 서버가 자신이 어긴 규칙에서만 정확히 실패하는 것을 봅니다.
# 3. 직접 만든 서버를 그 모듈에서 있는 그대로 들여옵니다.
# 4. 같은 감사를 CI 단계로 실행해 봅니다.
# 5. 세 번째 서버를 직접 고칩니다.
#
# 약 15분 걸립니다.

# %%
%load_ext mcp_lab
import mcp_lab

# %% [markdown]
# ## A server that keeps the rules
#
# A small shop: `refund` and `cancel` ask for a confirmation with a dependency (the SDK returns the
# `InputRequiredResult` and seals its state), and `stock` marks its `region` argument with `x-mcp-header`.
# It is served over Streamable HTTP, where header parameters and `Origin` exist. `--ttl 2` makes its sealed
# state expire after two seconds, so the audit can wait for a token to expire; with the default 600 s it
# would say it skipped that check.

# %% [markdown ko]
# ## 규칙을 지키는 서버
#
# 작은 상점입니다. `refund`와 `cancel`은 의존성으로 확인을 요청하고(SDK가 `InputRequiredResult`를 반환하고 그 상태를
# 봉인합니다), `stock`은 `region` 인수에 `x-mcp-header`를 표시합니다. 헤더 매개변수와 `Origin`이 존재하는 Streamable
# HTTP로 제공합니다. `--ttl 2`는 봉인된 상태가 2초 뒤에 만료되게 하므로, 감사가 토큰이 만료되기를 기다릴 수 있습니다.
# 기본값인 600초라면 감사는 그 검사를 건너뛰었다고 알립니다.

# %% id=shop
%%mcp_server shop --http --ttl 2
from typing import Annotated

from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

AMOUNTS = {1: 25, 2: 40}


class Confirm(BaseModel):
    ok: bool


async def confirm(order: int) -> Elicit[Confirm]:
    return Elicit(f"Go ahead with order {order}?", Confirm)


@mcp.tool()
async def refund(order: int, ok: Annotated[Confirm, Resolve(confirm)]) -> str:
    return f"Refunded order {order} ({AMOUNTS[order]} EUR)" if ok.ok else f"order {order} left alone"


@mcp.tool()
async def cancel(order: int, ok: Annotated[Confirm, Resolve(confirm)]) -> str:
    return f"Cancelled order {order}" if ok.ok else f"order {order} left alone"


@mcp.tool()
def stock(title: str, region: Annotated[str, mcp_lab.header("Region")]) -> str:
    return f"{title}: 3 copies in {region}"

# %% [markdown]
# Record a few calls, as you would while trying the server out. Two refunds with different arguments let
# the audit carry one call's token over to the other; a second tool that asks lets it try a token on
# another tool.

# %% [markdown ko]
# 서버를 시험해 볼 때처럼 호출 몇 개를 기록합니다. 인수가 다른 환불이 두 건 있으면 감사가 한 호출의 토큰을 다른 호출로
# 옮겨 볼 수 있고, 질문하는 도구가 하나 더 있으면 토큰을 다른 도구에 써 볼 수 있습니다.

# %% id=record-shop
yes = {"confirm": {"ok": True}}
for order in (1, 2):
    print((await mcp_lab.call("shop", "refund", {"order": order}, answers=yes)).text)
print((await mcp_lab.call("shop", "cancel", {"order": 1}, answers=yes)).text)
print((await mcp_lab.call("shop", "stock", {"title": "Dune", "region": "eu-west"})).text)

# %% [markdown]
# Now the audit. `%mcp_audit shop` repeats this kernel's recorded calls for `shop`. In JupyterLab the report
# opens with its summary; each rule below it expands to its words, its probes and their evidence. The text
# version (below, and in a CI log) lists every rule with its verdict, and shows the specification's words
# and every probe only for a rule that is broken or warned.

# %% [markdown ko]
# 이제 감사입니다. `%mcp_audit shop`은 이 커널에 기록된 `shop`의 호출을 반복합니다. JupyterLab에서는 보고서가 요약과 함께
# 열리고, 그 아래의 각 규칙을 펼치면 규칙의 문구와 검사, 그 증거가 나옵니다. 텍스트 버전(아래, 그리고 CI 로그)은 모든
# 규칙을 판정과 함께 나열하며, 사양의 문구와 모든 검사는 어겼거나 경고가 나온 규칙에만 보여 줍니다.

# %% id=audit-shop
report = await %mcp_audit shop
report

# %% [markdown]
# Sixteen rules kept. A report is data: the verdicts, the checks, and the flows each check sent. Here is what
# the integrity check sent -- the recorded refund, its first retry carrying a token with one bit flipped,
# cut short, spliced with another token -- and what the server said each time:

# %% [markdown ko]
# 16개 규칙을 지켰습니다. 보고서는 데이터입니다. 판정, 검사, 그리고 각 검사가 보낸 흐름이 담겨 있습니다. 다음은 무결성
# 검사가 보낸 것입니다. 기록된 환불 호출을 가져와 첫 재시도에 비트 하나를 뒤집은 토큰, 잘라 낸 토큰, 다른 토큰과 이어
# 붙인 토큰을 실어 보냈고, 그때마다 서버가 어떻게 답했는지 보여 줍니다.

# %% id=read-a-check
check = report.check("state-integrity")
print(check.rule.level, check.rule.section)
print(check.rule.quote)
for probe in check.probes:
    print(f"- {probe.name}: {probe.came_back} => {probe.verdict}")
print(report.exit_code, report.failed())

# %% [markdown]
# `(server logged: seal)`: the lab owns this server, so beside the frozen wire error it shows the reason the
# server logged (notebook 6). A server you connected to with `%mcp_connect` gets the same audit, without
# that column.
#
# ## Broken server 1: the refund amount in a plaintext `requestState`
#
# A lowlevel `Server` seals nothing unless you add the boundary (notebook 7). This one writes the amount
# into its state and, on the retry, pays what the state says. Otherwise it behaves: it asks only a client
# that declared elicitation, asks again when the answer is missing, and refuses a state it cannot read.
# The handlers come from a function here, so the server can be defined twice below.

# %% [markdown ko]
# `(server logged: seal)`: 이 서버는 실습이 소유하므로, 실습은 고정된 전송 구간 오류 옆에 서버가 로그에 남긴 이유도
# 보여 줍니다(노트북 6). `%mcp_connect`로 연결한 서버도 같은 감사를 받지만, 이 열은 없습니다.
#
# ## 결함 있는 서버 1: 평문 `requestState`에 담긴 환불 금액
#
# 저수준 `Server`는 경계를 덧붙이지 않으면 아무것도 봉인하지 않습니다(노트북 7). 이 서버는 상태에 금액을 써 넣고,
# 재시도에서는 상태에 적힌 금액을 지급합니다. 그 밖에는 제대로 동작합니다. 엘리시테이션을 선언한 클라이언트에게만 묻고,
# 답이 빠지면 다시 묻고, 읽을 수 없는 상태는 거부합니다. 핸들러는 여기서 함수로 만들어 두므로, 아래에서 서버를 두 번
# 정의할 수 있습니다.

# %% id=till-handlers
import json

import mcp.types as T
from mcp import MCPError
from mcp_types import MISSING_REQUIRED_CLIENT_CAPABILITY

ORDER = {"type": "object", "properties": {"order": {"type": "integer"}}, "required": ["order"]}
CONFIRM = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def reply(text):
    return T.CallToolResult(content=[T.TextContent(type="text", text=text)])


def ask(ctx, key, message, schema):
    """The question, for a client that declared elicitation; -32021 for one that did not."""
    capabilities = ctx.session.client_capabilities
    if capabilities is None or capabilities.elicitation is None:
        raise MCPError(code=MISSING_REQUIRED_CLIENT_CAPABILITY, message="declare elicitation to use this tool")
    return {key: T.ElicitRequest(params=T.ElicitRequestFormParams(message=message, requested_schema=schema))}


def till():
    """The till's handlers (a fresh pair each time: `%%mcp_server` takes the handlers a cell defines)."""

    async def on_list_tools(ctx, params):
        return T.ListToolsResult(tools=[T.Tool(name="refund", input_schema=ORDER)])

    async def on_call_tool(ctx, params):
        order = params.arguments["order"]
        answer = (params.input_responses or {}).get("confirm")
        if answer is None or answer.content is None:
            state = json.dumps({"order": order, "amount": {1: 25, 2: 40}[order]})
            question = ask(ctx, "confirm", f"Refund order {order}?", CONFIRM)
            return T.InputRequiredResult(input_requests=question, request_state=state)
        try:
            amount = json.loads(params.request_state)["amount"]
        except (TypeError, ValueError, KeyError):
            raise MCPError(code=-32602, message="unreadable requestState") from None
        return reply(f"Refunded order {order} ({amount} EUR)")  # pays what the state says

    return on_list_tools, on_call_tool

# %% id=till
%%mcp_server till --lowlevel --http
on_list_tools, on_call_tool = till()

# %% [markdown]
# Record two refunds, then audit. The lab holds no key for this server, so it does not know how long its
# state lives: `lifetime=2` says "a token older than two seconds should be refused".

# %% [markdown ko]
# 환불 두 건을 기록한 뒤 감사합니다. 실습은 이 서버의 키를 갖고 있지 않으므로 그 상태가 얼마나 오래 유효한지 알지
# 못합니다. `lifetime=2`는 "2초보다 오래된 토큰은 거부되어야 한다"는 뜻입니다.

# %% id=audit-till
for order in (1, 2):
    print((await mcp_lab.call("till", "refund", {"order": order}, answers=yes)).text)
till_report = await mcp_lab.audit("till", lifetime=2)
till_report

# %% [markdown]
# Three rules broken -- integrity (a MUST: the exit code is 1), and the SHOULDs that a seal would have kept:
# bound to the request that minted it, and expiring -- and one warning: the state is readable. The report
# shows the probe that did the damage: the amount edited from 25 to 26 in the token, and the handler paid
# it. Its evidence is the flow the audit sent, leg by leg:

# %% [markdown ko]
# 세 규칙을 어겼습니다. 무결성(MUST이므로 종료 코드는 1입니다)과, 봉인이 있었다면 지켰을 SHOULD 두 가지, 즉 상태를
# 발급한 요청에 묶이는 것과 만료되는 것입니다. 경고도 하나 있습니다. 상태를 읽을 수 있다는 것입니다. 보고서는 피해를 낸
# 검사를 보여 줍니다. 토큰의 금액을 25에서 26으로 고쳤더니 핸들러가 그 금액을 지급했습니다. 그 증거는 감사가 보낸
# 흐름이며, 구간별로 볼 수 있습니다.

# %% id=till-evidence
print(till_report.failed())
till_report.flows("state-integrity")[-1]

# %% [markdown]
# The fix is the SDK's one-line opt-in, the sealing boundary (`--seal` here). The same handlers, the same
# recorded calls, audited again:

# %% [markdown ko]
# 해결책은 SDK의 한 줄짜리 옵트인인 봉인 경계입니다(여기서는 `--seal`). 같은 핸들러와 같은 기록된 호출로 다시 감사합니다.

# %% id=till-sealed
%%mcp_server till --lowlevel --seal --ttl 2 --http
on_list_tools, on_call_tool = till()

# %% id=audit-till-sealed
sealed = await mcp_lab.audit("till")
print(sealed.record.headline)
print(sealed.exit_code, sealed.failed())

# %% [markdown]
# ## Broken server 2: a header parameter nobody checks
#
# A gateway routes `stock` by its `Mcp-Param-Region` header; the tool runs with the body's `region`. The
# SDK checks that the two agree -- when it finds the tool's schema. This lowlevel server "saves" the lookup:
# its `get_tool_input_schema` returns `None`, and the SDK lets every header through (fail-open).

# %% [markdown ko]
# ## 결함 있는 서버 2: 아무도 검사하지 않는 헤더 매개변수
#
# 게이트웨이는 `stock`을 `Mcp-Param-Region` 헤더로 라우팅하고, 도구는 본문의 `region`으로 실행됩니다. SDK는 도구의
# 스키마를 찾을 수 있으면 둘이 일치하는지 검사합니다. 이 저수준 서버는 그 조회를 "아낍니다". `get_tool_input_schema`가
# `None`을 반환하므로 SDK는 모든 헤더를 통과시킵니다(fail-open).

# %% id=depot
%%mcp_server depot --lowlevel --seal --http
STOCK = T.Tool(name="stock", input_schema={
    "type": "object",
    "properties": {"title": {"type": "string"}, "region": {"type": "string", "x-mcp-header": "Region"}},
    "required": ["title", "region"],
})


async def on_list_tools(ctx, params):
    return T.ListToolsResult(tools=[STOCK])


async def on_call_tool(ctx, params):
    return reply(f"{params.arguments['title']}: 3 copies in {params.arguments['region']}")


def get_tool_input_schema(name):
    return None  # the flaw: no schema, so no header is checked

# %% id=audit-depot
print((await mcp_lab.call("depot", "stock", {"title": "Dune", "region": "eu-west"})).text)
depot_report = await %mcp_audit depot
print(depot_report.failed())
for probe in depot_report.check("header-mismatch").probes + depot_report.check("header-missing").probes:
    print(f"- {probe.name}: HTTP {probe.status}, {probe.came_back}")

# %% [markdown]
# The gateway was told `eu-west-other` (and, in the sentinel form, the same), or nothing at all, and the
# tool ran in `eu-west` each time. Both rules are MUSTs of Streamable HTTP; over stdio or in-process there
# are no headers and the audit says those checks do not apply.
#
# ## Broken server 3: a question for a client that cannot answer
#
# An `MCPServer` tool may return its own `InputRequiredResult` (notebook 4). The SDK seals its state; what
# it does not do is look at the client's capabilities -- its resolvers answer `-32021` to a client that did
# not declare elicitation, but a hand-made `InputRequiredResult` goes out as it is. The specification: a
# server MUST NOT send an input request the client has not declared support for.

# %% [markdown ko]
# 게이트웨이가 받은 값은 `eu-west-other`였거나(Base64 센티널 형태로도 마찬가지였습니다) 아예 없었는데, 도구는 매번
# `eu-west`에서 실행되었습니다. 두 규칙 모두 Streamable HTTP의 MUST입니다. stdio나 인프로세스에서는 헤더가 없으므로,
# 감사는 그 검사들이 해당하지 않는다고 알립니다.
#
# ## 결함 있는 서버 3: 답할 수 없는 클라이언트에게 던지는 질문
#
# `MCPServer` 도구는 자체 `InputRequiredResult`를 반환할 수 있습니다(노트북 4). SDK는 그 상태를 봉인하지만, 클라이언트의
# 기능을 살펴보지는 않습니다. SDK의 리졸버는 엘리시테이션을 선언하지 않은 클라이언트에게 `-32021`로 답하지만, 직접 만든
# `InputRequiredResult`는 있는 그대로 나갑니다. 사양은 이렇게 말합니다. 서버는 클라이언트가 지원을 선언하지 않은 입력
# 요청을 보내서는 안 됩니다(MUST NOT).

# %% id=reminders
%%mcp_server reminders --http --ttl 2
from mcp.server.mcpserver import Context
from mcp.types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult

WHEN = ElicitRequest(params=ElicitRequestFormParams(
    message="When should I remind you?",
    requested_schema={"type": "object", "properties": {"when": {"type": "string"}}, "required": ["when"]},
))


@mcp.tool()
async def remind(note: str, ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("when")
    if answer is None or answer.content is None:
        return InputRequiredResult(input_requests={"when": WHEN}, request_state=note)  # asks everyone
    return f"I will remind you to {ctx.request_state} {answer.content['when']}"

# %% id=audit-reminders
at_six = {"when": {"when": "at 6"}}
print((await mcp_lab.call("reminders", "remind", {"note": "water the plants"}, answers=at_six)).text)
reminders_report = await mcp_lab.audit("reminders")
print(reminders_report.record.headline)
print(reminders_report.failed())
print(reminders_report.check("capabilities").probes[0].came_back)

# %% [markdown]
# ## Your own server, as it is
#
# The servers above were written in `%%mcp_server` cells. Yours lives in its own module, built your way,
# with its own `request_state` security. Bring it in as it is: `%mcp_server NAME --from module:attribute`
# (the attribute is the server object, or a function that builds it with no arguments), or
# `mcp_lab.adopt(server, name=...)` from Python. It keeps its own keys, token lifetime and audience: the lab
# swaps in a key ring of its own only when you ask (`--lab-keys`, `take_keys=True`). Because the server runs
# in this kernel, the lab can still reach its codec, so `inspect_token` opens its tokens. A server running in
# another process is connected instead (`%mcp_connect`), and then only the views that need no key work:
# flows with every HTTP exchange, the keyless token report, header tables and labs, `%mcp_describe`.
#
# The next cell writes a small ticketing server to a module of its own, as your file would be. Like many
# server modules, it calls `logging.basicConfig(level=logging.INFO)`.

# %% [markdown ko]
# ## 내 서버를 있는 그대로
#
# 위의 서버들은 `%%mcp_server` 셀에서 작성했습니다. 여러분의 서버는 자기 모듈에 있고, 여러분의 방식으로 만들어졌으며,
# 자체 `request_state` 보안 설정을 갖습니다. 있는 그대로 들여오세요. `%mcp_server NAME --from module:attribute`(attribute는
# 서버 객체이거나, 인수 없이 서버를 만드는 함수입니다)를 쓰거나, Python에서 `mcp_lab.adopt(server, name=...)`를 쓰면
# 됩니다. 서버는 자기 키, 토큰 수명, audience를 그대로 유지합니다. 실습은 요청할 때만(`--lab-keys`, `take_keys=True`)
# 자체 키 목록으로 바꿔 끼웁니다. 서버가 이 커널 안에서 실행되므로 실습은 여전히 그 코덱에 닿을 수 있고, 그래서
# `inspect_token`이 그 토큰을 열어 볼 수 있습니다. 다른 프로세스에서 실행 중인 서버는 대신 연결하며(`%mcp_connect`),
# 그때는 키가 필요 없는 뷰만 동작합니다. 모든 HTTP 교환이 담긴 흐름, 키 없는 토큰 보고서, 헤더 표와 헤더 실습,
# `%mcp_describe`입니다.
#
# 다음 셀은 실제 서버 파일처럼 작은 티켓 서버를 별도 모듈에 씁니다. 많은 서버 모듈이 그렇듯 이 모듈도
# `logging.basicConfig(level=logging.INFO)`를 호출합니다.

# %% id=own-module
import pathlib
import sys
import tempfile

folder = pathlib.Path(tempfile.mkdtemp(prefix="my-server-"))
(folder / "ticketing.py").write_text('''
import logging
from typing import Annotated

from mcp.server.mcpserver import Elicit, MCPServer, RequestStateSecurity, Resolve
from pydantic import BaseModel, Field

logging.basicConfig(level=logging.INFO)
log = logging.getLogger("ticketing")


class Severity(BaseModel):
    level: str


async def ask_severity(title: str) -> Elicit[Severity]:
    return Elicit(f"How bad is {title!r}?", Severity)


def build_server() -> MCPServer:
    security = RequestStateSecurity.ephemeral(ttl=300, audience="tickets.example")
    server = MCPServer("ticketing", request_state_security=security)

    @server.tool()
    async def open_ticket(
        title: str,
        team: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Team"})],
        severity: Annotated[Severity, Resolve(ask_severity)],
    ) -> str:
        log.info("opening %s for %s", title, team)
        return f"{team} ticket {title!r} opened ({severity.level})"

    return server
''')
sys.path.insert(0, str(folder))

# %% [markdown]
# Adopt it. The line after says what the lab can see of its tokens.

# %% [markdown ko]
# 서버를 들여옵니다(adopt). 그다음 줄은 실습이 이 서버의 토큰에서 무엇을 볼 수 있는지 알려 줍니다.

# %% id=adopt-own
%mcp_server tickets --from ticketing:build_server

# %% [markdown]
# Call it, and open the token it sealed under its own key. The audience is its own (`tickets.example`), not
# the lab's name for it.

# %% [markdown ko]
# 호출한 뒤, 서버가 자기 키로 봉인한 토큰을 열어 봅니다. audience는 실습이 붙인 이름이 아니라 서버 자신의
# 것(`tickets.example`)입니다.

# %% id=call-own
flow = await mcp_lab.call("tickets", "open_ticket", {"title": "Printer", "team": "infra"},
                          answers={"ask_severity": {"level": "high"}})
report = mcp_lab.inspect_token(flow)
print(flow.text)
print(report.verdict, report.verified, report.expected["aud"])
print(report.can_open)

# %% [markdown]
# What does it offer? `%mcp_describe` shows what any client learns before calling anything: the server's
# name, its capabilities, the protocol version the lab negotiated, and every tool as a signature, with the
# `Mcp-Param-*` header each marked argument travels in (the HTML and JupyterLab views open each schema).

# %% [markdown ko]
# 이 서버는 무엇을 제공할까요? `%mcp_describe`는 어떤 클라이언트든 아무것도 호출하기 전에 알게 되는 것을 보여 줍니다. 서버
# 이름, 기능, 실습이 협상한 프로토콜 버전, 그리고 모든 도구의 시그니처와 표시된 각 인수가 실려 가는 `Mcp-Param-*`
# 헤더입니다(HTML 뷰와 JupyterLab 뷰에서는 각 스키마를 펼쳐 볼 수 있습니다).

# %% id=describe-own
%mcp_describe tickets

# %% [markdown]
# The module's `logging.basicConfig(level=logging.INFO)` did not make the notebook print every HTTP request
# from here on: the lab took that set-up off the root logger, and keeps what the server logs in its own log,
# shown on request (`%mcp_server log tickets`). Its first line says what happened:

# %% [markdown ko]
# 모듈의 `logging.basicConfig(level=logging.INFO)` 때문에 이제부터 노트북이 HTTP 요청을 하나하나 출력하게 되지는
# 않았습니다. 실습이 그 설정을 루트 로거에서 떼어 냈고, 서버가 남기는 로그는 실습 자체의 로그에 보관했다가 요청하면
# 보여 줍니다(`%mcp_server log tickets`). 그 첫 줄이 무슨 일이 있었는지 알려 줍니다.

# %% id=log-own
print(mcp_lab.server_log("tickets").text.splitlines()[0])

# %% [markdown]
# ## In CI
#
# The same audit runs from the command line against a server a CI job starts, repeating a collection saved
# from the notebook (`mcp_lab.save_flows`: arguments and answers, no tokens):
#
# ```bash
# python -m mcp_lab audit shop.flows.json --server http://127.0.0.1:8000/mcp --junit audit.xml
# python -m mcp_lab audit shop.flows.json --stdio "python server.py" --json audit.json --skip state-lifetime
# ```
#
# It prints the text report, writes JSON and JUnit XML on request (each rule a test case; a broken rule a
# failure typed MUST or SHOULD; a rule that does not apply a skipped case), and exits 0 when no MUST is
# broken, 1 when one is, 2 when the audit could not run. The JUnit of the first broken server:

# %% [markdown ko]
# ## CI에서
#
# 같은 감사를 명령줄에서, CI 작업이 띄운 서버를 대상으로 실행할 수 있습니다. 노트북에서 저장한 호출
# 모음(`mcp_lab.save_flows`: 인수와 답만 담고 토큰은 담지 않습니다)을 반복합니다.
#
# ```bash
# python -m mcp_lab audit shop.flows.json --server http://127.0.0.1:8000/mcp --junit audit.xml
# python -m mcp_lab audit shop.flows.json --stdio "python server.py" --json audit.json --skip state-lifetime
# ```
#
# 텍스트 보고서를 출력하고, 요청하면 JSON과 JUnit XML을 씁니다(각 규칙이 테스트 케이스 하나이고, 어긴 규칙은 MUST 또는
# SHOULD 유형의 failure, 해당하지 않는 규칙은 skipped 케이스입니다). 종료 코드는 어긴 MUST가 없으면 0, 하나라도 있으면 1,
# 감사를 실행할 수 없었으면 2입니다. 첫 번째 결함 있는 서버의 JUnit은 다음과 같습니다.

# %% id=junit
print(till_report.junit()[:600])

# %% [markdown]
# ## Exercise
#
# Give `reminders` a tool that keeps the rule: `remind_safely(note)` asks "When should I remind you?" (the
# `WHEN` question) only of a client whose `ctx.client_capabilities` declares elicitation, and otherwise
# raises `MCPError` with the code `MISSING_REQUIRED_CLIENT_CAPABILITY`. Add it to the running server
# (`mcp_lab.sandbox.get("reminders").server` is the `MCPServer`), record one call of it with the answer
# `at_six`, and audit `reminders` with only that call (`flows=[...]`), storing the report in `fixed`.

# %% [markdown ko]
# ## 연습 문제
#
# `reminders`에 규칙을 지키는 도구를 추가하세요. `remind_safely(note)`는 `ctx.client_capabilities`가 엘리시테이션을 선언한
# 클라이언트에게만 "When should I remind you?"(`WHEN` 질문)를 묻고, 그렇지 않으면 코드
# `MISSING_REQUIRED_CLIENT_CAPABILITY`로 `MCPError`를 발생시킵니다. 이 도구를 실행 중인 서버에
# 추가하고(`mcp_lab.sandbox.get("reminders").server`가 그 `MCPServer`입니다), 답 `at_six`로 한 번 호출해 기록한 뒤,
# 그 호출만으로(`flows=[...]`) `reminders`를 감사하여 보고서를 `fixed`에 저장하세요.

# %% solution
# Your answer: add `remind_safely`, call it once, and store the audit of that call in `fixed`.
### BEGIN SOLUTION
server = mcp_lab.sandbox.get("reminders").server


@server.tool()
async def remind_safely(note: str, ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("when")
    if answer is None or answer.content is None:
        capabilities = ctx.client_capabilities
        if capabilities is None or capabilities.elicitation is None:
            raise MCPError(code=MISSING_REQUIRED_CLIENT_CAPABILITY, message="remind_safely asks when: declare elicitation")
        return InputRequiredResult(input_requests={"when": WHEN}, request_state=note)
    return f"I will remind you to {ctx.request_state} {answer.content['when']}"


safely = await mcp_lab.call("reminders", "remind_safely", {"note": "water the plants"}, answers=at_six)
fixed = await mcp_lab.audit("reminders", [safely])
### END SOLUTION

# %% check
mcp_lab.exercise_needs(fixed="the audit of one remind_safely call")
expected = ['tools/call remind_safely {"note": "water the plants"}']
assert fixed.record.flows == expected, f"expected the audit of {expected}, found {fixed.record.flows}"
assert fixed.verdicts()["capabilities"] == "pass", (
    f"expected capabilities: pass, found {fixed.verdicts()['capabilities']}: {fixed.check('capabilities').probes[0].came_back}")
assert fixed.exit_code == 0 and fixed.failed() == [], f"expected no failed check, found {fixed.failed()}:\n{fixed.text()}"
print("✔ well done:", fixed.check("capabilities").probes[0].came_back)
