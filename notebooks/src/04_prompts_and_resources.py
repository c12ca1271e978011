# %% [markdown]
# # 4 · Prompts and resources that ask
#
# `tools/call` is not special. On 2026-07-28 a server may answer `prompts/get` and `resources/read` with
# an `InputRequiredResult` too, and the client runs the very same loop. In `MCPServer`, an `@mcp.prompt()`
# function -- or an `@mcp.resource()` **template** function -- returns the `InputRequiredResult` itself
# and reads the retry's answers from its `Context`.
#
# In this notebook you will see:
#
# 1. the SDK docs' *Briefing* prompt asking who the briefing is for;
# 2. a template resource asking before it hands over its contents;
# 3. the `request_state` you set yourself sealed on the way out and checked on the way back;
# 4. the SDK's `Client` driving the loop for `get_prompt` and `read_resource`;
# 5. why a **static** resource cannot ask -- and what the SDK does if you try.
#
# About 12 minutes.

# %% [markdown ko]
# # 4 · 묻는 프롬프트와 리소스
#
# `tools/call`만 특별한 것은 아닙니다. 2026-07-28에서는 서버가 `prompts/get`과 `resources/read`에도
# `InputRequiredResult`로 응답할 수 있으며, 클라이언트는 똑같은 루프를 돌립니다. `MCPServer`에서는
# `@mcp.prompt()` 함수(또는 `@mcp.resource()` **템플릿** 함수)가 직접 `InputRequiredResult`를 반환하고,
# 재시도의 답을 `Context`에서 읽습니다.
#
# 이 노트북에서 살펴볼 내용은 다음과 같습니다.
#
# 1. SDK 문서의 *Briefing* 프롬프트가 브리핑 대상을 묻는 모습
# 2. 템플릿 리소스가 콘텐츠를 건네기 전에 먼저 묻는 모습
# 3. 직접 설정한 `request_state`가 나갈 때 봉인되고 돌아올 때 검사되는 과정
# 4. SDK의 `Client`가 `get_prompt`와 `read_resource`에서 루프를 구동하는 방식
# 5. **정적** 리소스가 물을 수 없는 이유와, 그래도 시도하면 SDK가 하는 일
#
# 약 12분 걸립니다.

# %%
%load_ext mcp_lab
import mcp_lab

# %% [markdown]
# ## The Briefing server
#
# The prompt is the docs' example, verbatim (`%%mcp_server Briefing` creates `mcp = MCPServer("Briefing")`
# for the cell). We add a template resource, `report://{quarter}`, that asks in the same way and also sets
# a `request_state` of its own, and a static resource, `doc://handbook`.

# %% [markdown ko]
# ## Briefing 서버
#
# 프롬프트는 문서의 예제를 그대로 가져왔습니다(`%%mcp_server Briefing`은 그 셀에서 쓸
# `mcp = MCPServer("Briefing")`을 만들어 줍니다). 여기에 같은 방식으로 묻고 자체 `request_state`도 설정하는
# 템플릿 리소스 `report://{quarter}`와, 정적 리소스 `doc://handbook`을 더합니다.

# %% id=briefing
%%mcp_server Briefing
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.prompts.base import UserMessage
from mcp.types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult

ASK_AUDIENCE = ElicitRequest(
    params=ElicitRequestFormParams(
        message="Who is the briefing for?",
        requested_schema={
            "type": "object",
            "properties": {"audience": {"type": "string"}},
            "required": ["audience"],
        },
    )
)


@mcp.prompt()
async def briefing(ctx: Context) -> list[UserMessage] | InputRequiredResult:
    """Draft a briefing tuned to its audience."""
    answer = (ctx.input_responses or {}).get("audience")
    if not isinstance(answer, ElicitResult) or answer.content is None:
        return InputRequiredResult(input_requests={"audience": ASK_AUDIENCE})
    return [UserMessage(f"Write a briefing for {answer.content['audience']}.")]


ASK_DETAIL = ElicitRequest(
    params=ElicitRequestFormParams(
        message="Summary or full report?",
        requested_schema={"type": "object", "properties": {"detail": {"type": "string"}}, "required": ["detail"]},
    )
)
states_read = []


@mcp.resource("report://{quarter}")
async def report(quarter: str, ctx: Context) -> str | InputRequiredResult:
    """A quarterly report, in the detail the reader wants."""
    answer = (ctx.input_responses or {}).get("detail")
    if not isinstance(answer, ElicitResult) or answer.content is None:
        return InputRequiredResult(input_requests={"detail": ASK_DETAIL}, request_state=f"report for {quarter}")
    states_read.append(ctx.request_state)
    return f"{quarter}: the {answer.content['detail']} report."


@mcp.resource("doc://handbook")
def handbook() -> str:
    """A static resource: no URI parameters."""
    return "The team handbook."

# %% [markdown]
# ## A prompt that asks
#
# `%mcp_prompt` gets a prompt the way `%mcp_call` calls a tool. The first round returns the
# `InputRequiredResult`; a form shows the question.
#
# In JupyterLab, answer the form yourself; the next cell answers it only when the notebook runs
# unattended (the test suite).

# %% [markdown ko]
# ## 묻는 프롬프트
#
# `%mcp_prompt`는 `%mcp_call`이 도구를 호출하는 것과 같은 방식으로 프롬프트를 가져옵니다. 첫 라운드는
# `InputRequiredResult`를 반환하고, 양식이 질문을 보여 줍니다.
#
# JupyterLab에서는 양식에 직접 답하세요. 다음 셀은 노트북이 사람 없이 실행될 때(테스트 스위트)에만 양식에
# 대신 답합니다.

# %%
mcp_lab.forms.unattended(audience={"audience": "the board"})

# %%
prompt_flow = await %mcp_prompt Briefing briefing

# %% [markdown]
# On the retry `ctx.input_responses` holds the answer under the same key, `"audience"`, and the function
# returns its usual result -- for a prompt, the prompt's messages. (The docs' prompt sets no
# `request_state`: `input_requests` alone is a valid `InputRequiredResult`, so there is no token to echo.)

# %% [markdown ko]
# 재시도에서는 `ctx.input_responses`가 같은 키 `"audience"` 아래에 답을 담고 있으며, 함수는 평소의 결과를
# 반환합니다. 프롬프트라면 그 결과는 프롬프트 메시지입니다. (문서의 프롬프트는 `request_state`를 설정하지
# 않습니다. `input_requests`만 있어도 유효한 `InputRequiredResult`이므로 되돌려 보낼 토큰이 없습니다.)

# %%
prompt_flow

# %% id=prompt-rounds
first = prompt_flow.rounds[0]
print(first.outcome, "->", list(first.input_requests), "| request_state:", first.request_state)
for message in prompt_flow.result.messages:
    print(message.role, ":", message.content.text)

# %% [markdown]
# ## A template resource that asks
#
# For a template resource the usual result is the resource's contents.

# %% [markdown ko]
# ## 묻는 템플릿 리소스
#
# 템플릿 리소스라면 평소의 결과는 리소스 콘텐츠입니다.

# %% id=resource-flow
report_flow = await %mcp_read Briefing report://2026-Q3 --answers '{"detail": {"detail": "summary"}}'
report_flow

# %% id=resource-contents
contents = report_flow.result.contents[0]
print(contents.uri, "|", contents.mime_type, "|", contents.text)

# %% [markdown]
# ## The state you set is sealed and checked
#
# `report` wrote `request_state="report for 2026-Q3"`. Like everything else the server sends, it was
# **sealed** before it left: the client only ever held an opaque `v1.` token. The function read back its
# own plain text.

# %% [markdown ko]
# ## 직접 설정한 상태도 봉인되고 검사됩니다
#
# `report`는 `request_state="report for 2026-Q3"`을 썼습니다. 서버가 보내는 다른 모든 것과 마찬가지로 이 값도
# 나가기 전에 **봉인**되었습니다. 클라이언트가 손에 쥔 것은 불투명한 `v1.` 토큰뿐이었고, 함수는 자신이 쓴
# 평문을 그대로 되읽었습니다.

# %% id=resource-sealed
token = report_flow.rounds[0].request_state
print("client held a sealed token:", token.startswith("v1."), "| plain text visible:", "2026-Q3" in token)
print("the function read:", states_read)

# %% [markdown]
# And the seal is **checked** when the token comes back. Start a read of `report://2026-Q4`, but echo the
# token issued for Q3: the server refuses the round with its one frozen error, `-32602 Invalid or expired
# requestState`; the real reason goes only to its log (mcp_lab owns the server, so it shows it). Notebook 6
# takes the seal apart.

# %% [markdown ko]
# 그리고 토큰이 돌아오면 봉인을 **검사**합니다. `report://2026-Q4` 읽기를 시작하되, Q3용으로 발급된 토큰을
# 되돌려 보내 보세요. 서버는 단 하나의 고정된 오류 `-32602 Invalid or expired requestState`로 그 라운드를
# 거부하고, 실제 이유는 로그에만 남깁니다(서버를 mcp_lab이 소유하므로 mcp_lab이 그 이유를 보여 줍니다).
# 봉인의 구성 요소는 노트북 6에서 하나씩 뜯어봅니다.

# %% id=resource-binding
q4 = await mcp_lab.start("Briefing", "resources/read", "report://2026-Q4")
await q4.step()
q4.rounds[-1].request_state = token  # the Q3 token, swapped in
refused = await q4.step(answers={"detail": {"detail": "summary"}})
print(refused.error["code"], refused.error["message"], "| server logged:", refused.error["reason"])

# %% [markdown]
# ## The SDK's `Client` drives the same loop
#
# `get_prompt` and `read_resource` on the SDK's `Client` answer through the same `elicitation_callback` and
# return the plain result, exactly like `call_tool`.

# %% [markdown ko]
# ## SDK의 `Client`도 같은 루프를 구동합니다
#
# SDK `Client`의 `get_prompt`와 `read_resource`는 같은 `elicitation_callback`을 통해 답하고, `call_tool`과
# 똑같이 평범한 결과를 반환합니다.

# %% id=sdk-prompt-resource
from mcp import Client
from mcp.client import ClientRequestContext
from mcp.types import ElicitRequestParams

ANSWERS = {"audience": "new hires", "detail": "full"}


async def handle_elicitation(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    field = next(iter(params.requested_schema["properties"]))
    return ElicitResult(action="accept", content={field: ANSWERS[field]})


async with Client(mcp, elicitation_callback=handle_elicitation) as client:
    prompt = await client.get_prompt("briefing")
    print(type(prompt).__name__, "|", prompt.messages[0].content.text)
    document = await client.read_resource("report://2026-Q4")
    print(type(document).__name__, "|", document.contents[0].text)

# %% [markdown]
# ## A static resource cannot ask
#
# A static resource -- a URI with no `{parameters}` -- takes no `Context`, so it would have no way to read
# a retry's answers. Reading one is always a single round:

# %% [markdown ko]
# ## 정적 리소스는 물을 수 없습니다
#
# 정적 리소스, 즉 `{parameters}`가 없는 URI는 `Context`를 받지 않으므로 재시도의 답을 읽을 방법이 없습니다.
# 그래서 정적 리소스 읽기는 언제나 한 라운드로 끝납니다.

# %% id=static-resource
static = await %mcp_read Briefing doc://handbook
static

# %% [markdown]
# Try to give a static resource a `Context` and the SDK refuses at registration:

# %% [markdown ko]
# 정적 리소스에 `Context`를 주려고 하면 SDK가 등록 시점에 거부합니다.

# %% id=static-context
try:

    @mcp.resource("doc://asking")
    async def asking(ctx: Context) -> str | InputRequiredResult:
        return InputRequiredResult(input_requests={"detail": ASK_DETAIL})

except ValueError as exc:
    print("ValueError:", exc)

# %% [markdown]
# And a static resource that returns an `InputRequiredResult` anyway (it can build one without a
# `Context`) fails when read: the client gets `-32603`, and the server's log says why -- only template
# functions take part in the multi round-trip flow.

# %% [markdown ko]
# 그리고 그래도 `InputRequiredResult`를 반환하는 정적 리소스는(`Context` 없이도 만들 수는 있습니다) 읽을 때
# 실패합니다. 클라이언트는 `-32603`을 받고, 서버 로그가 그 이유를 알려 줍니다. 다중 왕복 흐름에 참여하는 것은
# 템플릿 함수뿐입니다.

# %% id=static-returns
import logging


class OneLine(logging.Handler):
    """Show what the server logs in one line: the message and the root cause."""

    def emit(self, record):
        cause = record.exc_info[1] if record.exc_info else None
        while cause is not None and cause.__cause__ is not None:
            cause = cause.__cause__
        detail = f" <- {type(cause).__name__}: {str(cause).splitlines()[0]}" if cause else ""
        print(f"[server log] {record.getMessage()}{detail}")


server_log = logging.getLogger("mcp.server")
for stale in [h for h in server_log.handlers if type(h).__name__ == "OneLine"]:
    server_log.removeHandler(stale)  # run this cell again: its handler is replaced, not doubled
server_log.addHandler(OneLine())
server_log.propagate = False


@mcp.resource("doc://pushy")
def pushy() -> str | InputRequiredResult:
    return InputRequiredResult(input_requests={"detail": ASK_DETAIL})


pushed = await mcp_lab.read_resource("Briefing", "doc://pushy")
print(pushed.summary())

# %% [markdown]
# ## Older clients
#
# All of this exists only on protocol version 2026-07-28. A client that connected with 2025-11-25 cannot
# receive an `InputRequiredResult`, so the prompt's first round fails there with `-32603` -- the same rule
# as for tools (notebook 5).

# %% [markdown ko]
# ## 이전 버전 클라이언트
#
# 이 모든 것은 프로토콜 버전 2026-07-28에만 존재합니다. 2025-11-25로 연결한 클라이언트는
# `InputRequiredResult`를 받을 수 없으므로, 그 경우 프롬프트의 첫 라운드는 `-32603`으로 실패합니다. 도구와
# 같은 규칙입니다(노트북 5).

# %% id=prompt-legacy
old = await mcp_lab.get_prompt("Briefing", "briefing", legacy=True)
print(old.summary())

# %% [markdown]
# ## Exercise
#
# Add a template resource `menu://{day}` to the Briefing server (the `mcp` variable holds it) that asks
# *"Vegetarian?"* (a form with one boolean field `veg`) and then returns `"friday: vegetarian menu"` or
# `"friday: full menu"`. Read `menu://friday`, answering `veg=True`, and store the flow in `menu_flow`.
# The cell after it checks your flow.

# %% [markdown ko]
# ## 연습 문제
#
# Briefing 서버(`mcp` 변수에 들어 있습니다)에 템플릿 리소스 `menu://{day}`를 추가하세요. 이 리소스는
# 불리언 필드 `veg` 하나짜리 양식으로 *"Vegetarian?"* 하고 묻고, 답에 따라 `"friday: vegetarian menu"` 또는
# `"friday: full menu"`를 반환해야 합니다. `veg=True`로 답하면서 `menu://friday`를 읽고, 그 흐름을
# `menu_flow`에 저장하세요. 그다음 셀이 여러분의 흐름을 검사합니다.

# %% solution
# Your answer: add the `menu://{day}` template resource, read menu://friday, store the flow in `menu_flow`.
### BEGIN SOLUTION
ASK_VEG = ElicitRequest(
    params=ElicitRequestFormParams(
        message="Vegetarian?",
        requested_schema={"type": "object", "properties": {"veg": {"type": "boolean"}}, "required": ["veg"]},
    )
)


@mcp.resource("menu://{day}")
async def menu(day: str, ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("veg")
    if not isinstance(answer, ElicitResult) or answer.content is None:
        return InputRequiredResult(input_requests={"veg": ASK_VEG})
    return f"{day}: {'vegetarian' if answer.content['veg'] else 'full'} menu"


menu_flow = await mcp_lab.read_resource("Briefing", "menu://friday", answers={"veg": {"veg": True}})
### END SOLUTION

# %% check
mcp_lab.exercise_needs(menu_flow='the flow of your read of menu://friday')
assert menu_flow.method == "resources/read" and menu_flow.status == "done", (
    f"expected a finished resources/read, found {menu_flow.summary()}")
assert menu_flow.rounds[0].outcome == "input_required", f"expected the first leg to ask, found {menu_flow.rounds[0].outcome}"
assert len(menu_flow.rounds) == 2, f"expected two legs, found {len(menu_flow.rounds)}"
assert menu_flow.text == "friday: vegetarian menu", f"expected 'friday: vegetarian menu', found {menu_flow.text!r}"
print("✔ well done:", menu_flow.text)
