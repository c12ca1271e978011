# %% [markdown]
# # 1 · First round trip
#
# Some tools cannot finish in one request: they need something only the user has -- a choice, a
# confirmation, a credential. Before protocol version 2026-07-28 a server got it by *calling back*: in the
# middle of `tools/call` it opened its own `elicitation/create` request to the client. The 2026-07-28
# specification removes that back channel. **Instead, the server returns.** It answers `tools/call` with an
# `InputRequiredResult` that says what it still needs, the client answers and calls the same tool again,
# and only then does the server return the usual `CallToolResult`.
#
# In this notebook you will:
#
# 1. run the SDK documentation's own example -- a lowlevel `Server` called *Provisioner* whose tool asks
#    which region a new database should live in;
# 2. answer that question in a **live form**, then **by a script**, then with an **SDK-style callback**;
# 3. look at every leg: what the server asked, the token it handed out, and what came back;
# 4. see that `Client.call_tool` of the SDK runs the same loop for you -- with a round cap and a polite
#    backoff.
#
# About 15 minutes. Every leg you will see is an ordinary client-to-server request.

# %% [markdown ko]
# # 1 · 첫 번째 왕복
#
# 도구가 한 번의 요청으로 끝나지 않을 때가 있습니다. 선택, 확인, 자격 증명처럼 사용자만 가진 무언가가
# 필요한 경우입니다. 프로토콜 버전 2026-07-28 이전에는 서버가 *역방향 호출*로 이를 얻었습니다.
# `tools/call`을 처리하는 도중에 자체 `elicitation/create` 요청을 클라이언트에게 여는 방식입니다.
# 2026-07-28 사양은 이 백채널을 폐지합니다. **대신 서버는 반환합니다.** 서버는 `tools/call`에 아직
# 필요한 것을 밝힌 `InputRequiredResult`로 응답하고, 클라이언트는 이에 답한 뒤 같은 도구를 다시
# 호출합니다. 그제야 서버는 평소의 `CallToolResult`를 반환합니다.
#
# 이 노트북에서는 다음을 해 봅니다.
#
# 1. SDK 문서의 예제를 그대로 실행합니다. 새 데이터베이스를 어느 리전에 둘지 묻는 도구를 가진
#    *Provisioner*라는 저수준 `Server`입니다.
# 2. 그 질문에 **라이브 양식**으로, 이어서 **스크립트**로, 마지막으로 **SDK 방식의 콜백**으로 답합니다.
# 3. 모든 구간을 살펴봅니다. 서버가 무엇을 물었는지, 어떤 토큰을 내주었는지, 무엇이 돌아왔는지 확인합니다.
# 4. SDK의 `Client.call_tool`이 같은 루프를 대신 돌린다는 것을 확인합니다. 라운드 상한과, 서버를
#    재촉하지 않는 백오프도 함께 봅니다.
#
# 약 15분 걸립니다. 여기서 보게 될 구간은 모두 클라이언트가 서버로 보내는 평범한 요청입니다.

# %%
%load_ext mcp_lab
import mcp_lab

# %% [markdown]
# ## Four names you will meet
#
# - A **`Flow`** is one call and everything that happened to it: the request, its legs, how it ended.
#   `await %mcp_call SERVER TOOL key=value ...` and `await mcp_lab.call(...)` both return one.
# - A **`Round`** is one leg of it (`flow.rounds[0]`, `flow.rounds[1]`, ...): what the client sent, and
#   what came back -- the server's questions (`input_requests`) and its token (`request_state`), or the result.
# - **`answers=`** says how the questions get answered without a form: a dict keyed by question
#   (`{"region": {"region": "eu-west-1"}}` -- the fields of the form), or an object that answers
#   (`mcp_lab.CallbackAnswerer(elicitation_callback=...)`, the SDK's own callback shape).
#   Without it, a live form asks you in the cell.
# - **`%mcp_call?`** in a cell lists every option of the magic (`--step`, `--answers`, `--max-rounds`, ...).

# %% [markdown ko]
# ## 앞으로 만날 네 가지 이름
#
# - **`Flow`**(흐름): 호출 하나와 그 호출에 일어난 모든 일입니다. 요청, 그 요청의 구간들, 그리고 어떻게
#   끝났는지를 담습니다. `await %mcp_call SERVER TOOL key=value ...`와 `await mcp_lab.call(...)`은 둘 다
#   `Flow`를 반환합니다.
# - **`Round`**(라운드): 흐름의 한 구간입니다(`flow.rounds[0]`, `flow.rounds[1]`, ...). 클라이언트가 보낸
#   것과 돌아온 것, 즉 서버의 질문(`input_requests`)과 토큰(`request_state`), 또는 결과를 담습니다.
# - **`answers=`**: 양식 없이 질문에 어떻게 답할지 정합니다. 질문을 키로 하는 dict
#   (`{"region": {"region": "eu-west-1"}}`, 값은 양식의 필드들입니다)이거나, 답을 내는 객체
#   (`mcp_lab.CallbackAnswerer(elicitation_callback=...)`, SDK의 콜백 형태 그대로)입니다.
#   지정하지 않으면 셀 안에 라이브 양식이 나타나 직접 묻습니다.
# - **`%mcp_call?`**: 셀에서 실행하면 이 매직의 모든 옵션(`--step`, `--answers`, `--max-rounds`, ...)이
#   나열됩니다.

# %% id=four-names
print("Flow: ", mcp_lab.Flow.__doc__)
print("Round:", mcp_lab.Round.__doc__)

# %% [markdown]
# ## The Provisioner
#
# This is the SDK docs' lowlevel example with three changes. The handlers are named `on_list_tools` and
# `on_call_tool` (the docs call them `list_tools` and `call_tool`): those are the `Server` arguments they
# fill, and `%%mcp_server NAME --lowlevel` finds them by these names. The docs' last line,
# `server = Server("Provisioner", on_list_tools=list_tools, on_call_tool=call_tool)`, is what the magic
# runs for you; it also starts the server in the kernel. And two lines of ours record what each leg
# brought in (`legs_seen`).
#
# Everything in it is an ordinary lowlevel server -- an explicit `input_schema`, a hand-made
# `CallToolResult` -- except for the second return type of `on_call_tool`.

# %% [markdown ko]
# ## Provisioner 서버
#
# SDK 문서의 저수준 예제에서 세 군데를 바꾼 것입니다. 첫째, 핸들러 이름이 `on_list_tools`와
# `on_call_tool`입니다(문서에서는 `list_tools`와 `call_tool`). 핸들러가 채우는 `Server` 인수의 이름이
# 바로 이것이고, `%%mcp_server NAME --lowlevel`은 이 이름으로 핸들러를 찾습니다. 둘째, 문서의 마지막 줄
# `server = Server("Provisioner", on_list_tools=list_tools, on_call_tool=call_tool)`은 매직이 대신
# 실행하며, 커널 안에서 서버를 시작하는 일도 매직이 맡습니다. 셋째, 각 구간에 무엇이 들어왔는지 기록하는
# 두 줄(`legs_seen`)을 덧붙였습니다.
#
# `on_call_tool`의 두 번째 반환 타입을 빼면, 명시적인 `input_schema`와 직접 만든 `CallToolResult`까지
# 모두 평범한 저수준 서버입니다.

# %% id=provisioner
%%mcp_server Provisioner --lowlevel
from mcp.server import ServerRequestContext
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)

ASK_REGION = ElicitRequest(
    params=ElicitRequestFormParams(
        message="Which region should the database live in?",
        requested_schema={
            "type": "object",
            "properties": {"region": {"type": "string"}},
            "required": ["region"],
        },
    )
)

legs_seen = []  # what params.input_responses held on each leg (our addition, for the tutorial)


async def on_list_tools(ctx: ServerRequestContext, params: PaginatedRequestParams | None) -> ListToolsResult:
    return ListToolsResult(
        tools=[
            Tool(
                name="provision",
                description="Provision a database. Asks which region to put it in.",
                input_schema={
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"],
                },
            )
        ]
    )


async def on_call_tool(ctx: ServerRequestContext, params: CallToolRequestParams) -> CallToolResult | InputRequiredResult:
    legs_seen.append(params.input_responses)
    answer = (params.input_responses or {}).get("region")
    if not isinstance(answer, ElicitResult) or answer.content is None:
        return InputRequiredResult(input_requests={"region": ASK_REGION}, request_state="provision-v1")
    name = (params.arguments or {})["name"]
    text = f"Provisioned {name!r} in {answer.content['region']}."
    return CallToolResult(content=[TextContent(type="text", text=text)])

# %% [markdown]
# Returning the second type is the whole server-side API. The handler's annotation says so:

# %% [markdown ko]
# 두 번째 타입을 반환하는 것이 서버 측 API의 전부입니다. 핸들러의 애너테이션에서도 확인할 수 있습니다.

# %% id=return-type
import typing

returns = typing.get_type_hints(on_call_tool)["return"]
print("on_call_tool returns", " | ".join(t.__name__ for t in typing.get_args(returns)))
%mcp_server list

# %% [markdown]
# ## Answer it in a live form
#
# Call the tool. Nobody has scripted an answer, so mcp_lab shows the server's question as a form **inside
# the cell**, and the cell waits -- without blocking the kernel -- until the form is answered.
#
# **Answer it yourself**: type a region (say `eu-west-1`) into the *region* field and press **Submit**
# (or Enter). A wrong answer is refused in the form, before anything reaches the server. Changed your
# mind? **Stop flow**, or the notebook's Interrupt (■), ends the wait; `mcp_lab.last()` keeps the flow.
#
# The test suite runs this notebook with nobody at the keyboard. For that case only, the next cell
# pre-arranges the answer (through the very `fill()` / `submit()` the form's Submit calls); in JupyterLab
# it does nothing, and the form waits for you -- also under Run All.

# %% [markdown ko]
# ## 라이브 양식으로 답하기
#
# 도구를 호출해 봅니다. 미리 정해 둔 답이 없으므로 mcp_lab은 서버의 질문을 **셀 안에** 양식으로 보여
# 주고, 양식에 답할 때까지 셀은 기다립니다. 기다리는 동안에도 커널은 막히지 않습니다.
#
# **직접 답해 보세요**: *region* 필드에 리전(예: `eu-west-1`)을 입력하고 **제출**(Submit)을 누르거나
# Enter를 누릅니다. 잘못된 답은 서버에 닿기 전에 양식에서 거부됩니다. 마음이 바뀌었다면 **흐름
# 중지**(Stop flow)를 누르거나 노트북의 커널 중지(■, Interrupt)를 쓰면 기다림이 끝납니다. 흐름은 `mcp_lab.last()`에
# 남아 있습니다.
#
# 테스트 스위트는 키보드 앞에 아무도 없는 상태로 이 노트북을 실행합니다. 그 경우에만 다음 셀이 답을 미리
# 마련해 둡니다(양식의 제출 버튼이 호출하는 바로 그 `fill()` / `submit()`을 사용합니다). JupyterLab에서는
# 이 셀이 아무 일도 하지 않으므로, 모두 실행(Run All)으로 실행하더라도 양식은 여러분의 답을 기다립니다.

# %%
mcp_lab.forms.unattended(region={"region": "eu-west-1"})

# %%
flow = await %mcp_call Provisioner provision name=orders
print(flow.text)

# %% [markdown]
# The call took **two legs**. `flow` is the record of both; it displays as a timeline (in JupyterLab with
# the mcp_lab extension, as a table with each leg's token and timings).

# %% [markdown ko]
# 이 호출은 **두 구간**에 걸쳐 이루어졌습니다. `flow`는 두 구간의 기록이며 타임라인으로 표시됩니다
# (mcp_lab 확장이 설치된 JupyterLab에서는 구간마다 토큰과 소요 시간을 담은 표로 표시됩니다).

# %%
flow

# %% [markdown]
# ## What crossed the wire
#
# **Leg 1.** The client sent a plain `tools/call`. The server answered with an `InputRequiredResult`
# instead of a `CallToolResult`. Its two fields are the whole protocol:
#
# - `input_requests`: what the server still needs, as a dict keyed by names **the server chose** (here
#   `"region"`); each value is an `ElicitRequest`, a `CreateMessageRequest` or a `ListRootsRequest`;
# - `request_state`: a token the client must send back unchanged.

# %% [markdown ko]
# ## 전송 구간에서 오간 것
#
# **구간 1.** 클라이언트는 평범한 `tools/call`을 보냈습니다. 서버는 `CallToolResult` 대신
# `InputRequiredResult`로 응답했습니다. 프로토콜은 이 결과의 두 필드가 전부입니다.
#
# - `input_requests`: 서버에 아직 필요한 것으로, **서버가 고른** 이름(여기서는 `"region"`)을 키로 하는
#   dict입니다. 각 값은 `ElicitRequest`, `CreateMessageRequest`, `ListRootsRequest` 중 하나입니다.
# - `request_state`: 클라이언트가 그대로 되돌려 보내야 하는 토큰입니다.

# %% id=leg-one
first = flow.rounds[0]
print(first.outcome)
for key, request in first.input_requests.items():
    print(key, "->", request["method"], "|", request["params"]["message"])
print("request_state:", first.request_state)

# %% [markdown]
# **Leg 2.** The client answered each request and called **the same tool with the same arguments**
# again, adding its answers as `input_responses` -- under the same keys -- and echoing the token as
# `request_state`. Now the server had what it lacked and returned a normal `CallToolResult`.

# %% [markdown ko]
# **구간 2.** 클라이언트는 각 요청에 답한 뒤 **같은 도구를 같은 인수로** 다시 호출했습니다. 답은 같은 키
# 아래 `input_responses`에 담고, 토큰은 `request_state`로 그대로 되돌려 보냈습니다. 이제 서버는 부족했던
# 것을 갖추었으므로 일반적인 `CallToolResult`를 반환했습니다.

# %% id=leg-two
second = flow.rounds[1]
print(list(second.sent_input_responses), second.sent_input_responses["region"])
print("token echoed unchanged:", second.sent_request_state == first.request_state)
print(second.outcome, flow.result.content[0].text)

# %% [markdown]
# And from the server's side -- the `legs_seen` line we added. On the first leg `params.input_responses`
# is `None`, so the guard fires and the handler *asks* instead of answering. On the retry the client's
# `ElicitResult` sits under the key the server used in `input_requests`, `"region"`.

# %% [markdown ko]
# 이번에는 서버 쪽에서 봅니다. 앞서 덧붙인 `legs_seen` 줄이 기록한 내용입니다. 첫 구간에서
# `params.input_responses`는 `None`이므로 가드가 작동하여 핸들러는 답하는 대신 *묻습니다*. 재시도에서는
# 클라이언트가 보낸 `ElicitResult`가 서버가 `input_requests`에서 사용한 것과 같은 키 `"region"` 아래에
# 들어 있습니다.

# %% id=legs-seen
for number, seen in enumerate(legs_seen, 1):
    print(f"leg {number}: input_responses = {seen!r}")

# %% [markdown]
# ## Answer it by a script
#
# A form needs a person. A script says beforehand what to answer, keyed by the input-request key: a dict
# is an accepted elicitation's content. The magic takes `--answers` as JSON; the Python API takes a dict.

# %% [markdown ko]
# ## 스크립트로 답하기
#
# 양식에는 사람이 필요합니다. 스크립트는 무엇을 답할지 입력 요청의 키별로 미리 정해 둡니다. 이때 dict는
# 수락된 엘리시테이션의 콘텐츠입니다. 매직은 `--answers`를 JSON으로 받고, Python API는 dict로 받습니다.

# %%
flow = await %mcp_call Provisioner provision name=billing --answers '{"region": {"region": "us-east-1"}}'
flow

# %%
scripted = await mcp_lab.call("Provisioner", "provision", {"name": "audit"}, answers={"region": {"region": "ap-south-1"}})
print(scripted.text, "| answered by:", scripted.rounds[1].answered_by)

# %% [markdown]
# ### Nothing flows the other way
#
# Serve the Provisioner over loopback Streamable HTTP and call it again: every leg is one HTTP `POST` from
# the client, carrying a `tools/call`. The server never opens a request of its own.

# %% [markdown ko]
# ### 반대 방향으로 흐르는 것은 없습니다
#
# Provisioner를 루프백 주소의 Streamable HTTP로 제공하고 다시 호출해 봅니다. 모든 구간은 클라이언트가
# 보내는 HTTP `POST` 하나이며, 각각 `tools/call`을 싣고 있습니다. 서버는 자체 요청을 한 번도 열지 않습니다.

# %% id=over-http
url = mcp_lab.serve("Provisioner")
over_http = await mcp_lab.call("Provisioner", "provision", {"name": "search"}, answers={"region": {"region": "eu-north-1"}})
over_http

# %% id=over-http-posts
print([(x["method"], x["rpc"]) for r in over_http.rounds for x in r.http])
print("server-to-client requests:", sum(len(r.backchannel) for r in over_http.rounds))
await mcp_lab.sandbox.get("Provisioner").stop_http()

# %% [markdown]
# ## Answer it with an SDK-style callback
#
# A real client -- the SDK's `Client` -- answers through callbacks: `elicitation_callback`,
# `sampling_callback`, `list_roots_callback`. Here is the docs' callback, with one line added that records
# what it was asked. mcp_lab's `CallbackAnswerer` takes the SDK's own callbacks unchanged. The callback sees
# the input-request key as `context.request_id`.

# %% [markdown ko]
# ## SDK 방식의 콜백으로 답하기
#
# 실제 클라이언트인 SDK의 `Client`는 콜백(`elicitation_callback`, `sampling_callback`,
# `list_roots_callback`)으로 답합니다. 아래는 문서의 콜백에, 받은 질문을 기록하는 한 줄을 더한 것입니다.
# mcp_lab의 `CallbackAnswerer`는 SDK의 콜백을 고치지 않고 그대로 받습니다. 콜백에서 입력 요청의 키는
# `context.request_id`로 보입니다.

# %% id=docs-callback
from mcp.client import ClientRequestContext
from mcp.types import ElicitRequestParams, ElicitResult

asked = []


async def handle_elicitation(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    asked.append((context.request_id, params.message))
    return ElicitResult(action="accept", content={"region": "eu-west-1"})


by_callback = await mcp_lab.call(
    "Provisioner", "provision", {"name": "orders"}, answers=mcp_lab.CallbackAnswerer(elicitation_callback=handle_elicitation)
)
print(by_callback.text, "| answered by:", by_callback.rounds[1].answered_by)
print(asked)

# %% [markdown]
# ### The SDK's `Client` runs the loop for you
#
# Register the callback on the SDK's `Client` and just call the tool (here in memory, with the server
# object the magic left in `server`). When an `InputRequiredResult` arrives, `Client` sends each input
# request to the matching callback, retries with the answers and the token, and keeps going until a
# `CallToolResult` comes back. `call_tool` returns that plain result: the intermediate legs are invisible
# to the caller -- only the server's `legs_seen` shows there were two.

# %% [markdown ko]
# ### SDK의 `Client`가 루프를 대신 돌립니다
#
# SDK의 `Client`에 콜백을 등록하고 도구를 호출하기만 하면 됩니다(여기서는 매직이 `server`에 남겨 둔 서버
# 객체에 인메모리로 연결합니다). `InputRequiredResult`가 도착하면 `Client`는 각 입력 요청을 해당 콜백으로
# 보내고, 답과 토큰을 담아 재시도하며, `CallToolResult`가 돌아올 때까지 계속합니다. `call_tool`은 그
# 평범한 결과를 반환합니다. 중간 구간은 호출자에게 보이지 않으며, 구간이 두 개였다는 것은 서버의
# `legs_seen`만이 보여 줍니다.

# %% id=sdk-client-loop
from mcp import Client

legs_seen.clear()
async with Client(server, elicitation_callback=handle_elicitation) as client:
    result = await client.call_tool("provision", {"name": "orders"})
    print(result.content)
print(type(result).__name__, "| legs the server saw:", len(legs_seen))

# %% [markdown]
# ## The same tool in `MCPServer`
#
# With the high-level `MCPServer` you usually let *dependencies* ask (notebook 2). When that form does not
# fit, an `@mcp.tool()` function can return the result itself: annotate it `-> str | InputRequiredResult`
# and read the retry's answers from the `Context`.
#
# One difference shows at once: `MCPServer` **seals** the `request_state` it sends. The handler writes and
# reads plain text; on the wire travels an encrypted, authenticated token (`v1.` + key id + nonce +
# ciphertext) that only the server can read. The client just echoes it. (The lowlevel server above sent
# `provision-v1` in plain text: it has no sealing until you add it -- notebook 7.)

# %% [markdown ko]
# ## `MCPServer`로 만든 같은 도구
#
# 고수준 `MCPServer`에서는 보통 *의존성*이 대신 묻게 합니다(노트북 2). 그 형태가 맞지 않을 때는
# `@mcp.tool()` 함수가 결과를 직접 반환할 수도 있습니다. 반환 타입을 `-> str | InputRequiredResult`로
# 선언하고, 재시도에 담긴 답은 `Context`에서 읽습니다.
#
# 차이 하나가 바로 드러납니다. `MCPServer`는 자신이 보내는 `request_state`를 **봉인**합니다. 핸들러는
# 평문을 쓰고 평문을 읽지만, 전송 구간에는 서버만 읽을 수 있는 암호화되고 인증된 토큰(`v1.` + 키 ID +
# 논스 + 암호문)이 오갑니다. 클라이언트는 이를 그대로 되돌려 보낼 뿐입니다. (위의 저수준 서버는
# `provision-v1`을 평문으로 보냈습니다. 저수준 서버는 봉인을 직접 덧붙이기 전까지 아무것도 봉인하지
# 않습니다. 노트북 7에서 다룹니다.)

# %% id=databases
%%mcp_server Databases
from mcp.server.mcpserver import Context
from mcp.types import InputRequiredResult

states_read = []


@mcp.tool()
async def provision(name: str, ctx: Context) -> str | InputRequiredResult:
    """Provision a database. Asks which region to put it in."""
    answer = (ctx.input_responses or {}).get("region")
    if not isinstance(answer, ElicitResult) or answer.content is None:
        return InputRequiredResult(input_requests={"region": ASK_REGION}, request_state="provision-v1")
    states_read.append(ctx.request_state)
    return f"Provisioned {name!r} in {answer.content['region']}."

# %% id=sealed-token
sealed = await mcp_lab.call("Databases", "provision", {"name": "orders"}, answers={"region": {"region": "eu-west-1"}})
token = sealed.rounds[0].request_state
print(sealed.text)
print("the handler wrote and read back:", states_read)
print("on the wire:", token[:3] + "...", "(a few hundred characters)" if len(token) > 200 else len(token))

# %% [markdown]
# Is the token perhaps just the state in disguise? Its characters after `v1.` are base64url, so decode
# them and look for `provision-v1` everywhere it could hide: in the token's text, in its decoded bytes,
# and as base64 at any of the three possible alignments. The decoded bytes are not even text. Only the key
# holder can open the token; the lab holds this server's key ring, and inside is exactly the state the
# handler wrote.

# %% [markdown ko]
# 혹시 토큰은 상태를 겉모습만 바꾼 것이 아닐까요? `v1.` 뒤의 문자들은 base64url이므로 이를 디코딩하고,
# `provision-v1`이 숨어 있을 만한 곳을 모두 찾아봅니다. 토큰의 텍스트, 디코딩한 바이트, 그리고 가능한 세
# 가지 정렬 위치 각각의 base64 표현입니다. 디코딩한 바이트는 텍스트조차 아닙니다. 토큰을 열 수 있는 것은
# 키를 가진 쪽뿐입니다. 실습은 이 서버의 키 목록을 가지고 있으며, 열어 보면 안에는 핸들러가 쓴 상태가
# 정확히 들어 있습니다.

# %% id=token-opacity
import base64


def base64_forms(data: bytes) -> list[str]:
    """The base64url text `data` would show inside a longer base64url string, at each byte alignment."""
    forms = []
    for shift in range(3):  # 0, 1 or 2 bytes before it in the encoded stream
        encoded = base64.urlsafe_b64encode(bytes(shift) + data).decode()
        forms.append(encoded[-(-8 * shift // 6) : (shift + len(data)) * 8 // 6])  # characters made of data only
    return forms


state = "provision-v1"
body = token.removeprefix("v1.")
raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
print("after 'v1.', base64url that decodes to", "over a hundred bytes" if len(raw) > 100 else len(raw))
print("  the state in the token's text:    ", state in token)
print("  the state in the decoded bytes:   ", state.encode() in raw)
print("  the state's base64 in the token:  ", any(form in body for form in base64_forms(state.encode())))
try:
    print("  the decoded bytes as text:        ", raw.decode("utf-8"))
except UnicodeDecodeError:
    print("  the decoded bytes as text:         not UTF-8 (ciphertext)")
print("opened with the server's key, the state is:", repr(mcp_lab.inspect_token(token, server="Databases").claims["s"]))

# %% [markdown]
# ## The loop has limits
#
# `Client` gives up on a server that never stops asking: `input_required_max_rounds` defaults to **10**,
# and one more `InputRequiredResult` makes `call_tool` raise. And a round that carries only
# `request_state` -- no questions, just "not done yet" -- makes the client **wait** before retrying,
# 50 ms doubling up to 250 ms, so it does not busy-poll. (Notebook 3 shows both on mcp_lab's own loop.)

# %% [markdown ko]
# ## 루프에는 한도가 있습니다
#
# `Client`는 끝없이 묻기만 하는 서버를 포기합니다. `input_required_max_rounds`의 기본값은 **10**이며,
# 그다음에도 `InputRequiredResult`가 오면 `call_tool`이 예외를 일으킵니다. 또 질문 없이 `request_state`만
# 실린 라운드, 즉 그저 "아직 끝나지 않았음"을 알리는 라운드를 받으면 클라이언트는 재시도하기 전에
# **기다립니다**. 50 ms에서 시작해 250 ms 상한까지 두 배씩 늘어나므로 서버를 바쁘게 폴링하지 않습니다.
# (노트북 3에서는 mcp_lab 자체 루프로 두 가지를 모두 보여 줍니다.)

# %% id=limits
%%mcp_server Limits
import time

NUDGE = ElicitRequest(params=ElicitRequestFormParams(message="Still there?", requested_schema={"type": "object", "properties": {"yes": {"type": "boolean"}}}))
leg_times = []


@mcp.tool()
async def nag(ctx: Context) -> str | InputRequiredResult:
    """Never satisfied."""
    leg_times.append(time.perf_counter())
    return InputRequiredResult(input_requests={"again": NUDGE}, request_state="nagging")


@mcp.tool()
async def warm_up(ctx: Context) -> str | InputRequiredResult:
    """Not ready for five legs: returns state only."""
    leg_times.append(time.perf_counter())
    seen = int(ctx.request_state or "0")
    if seen < 5:
        return InputRequiredResult(request_state=str(seen + 1))
    return f"warm after {seen} state-only rounds"

# %% id=round-cap
import inspect

from mcp import InputRequiredRoundsExceededError


async def say_yes(context, params):
    return ElicitResult(action="accept", content={"yes": True})


print(inspect.signature(Client).parameters["input_required_max_rounds"])
limits = mcp_lab.sandbox.get("Limits").server
async with Client(limits, elicitation_callback=say_yes) as client:
    leg_times.clear()
    try:
        await client.call_tool("nag", {})
    except InputRequiredRoundsExceededError as exc:
        print(type(exc).__name__, "after", len(leg_times), "legs:", str(exc).split(";")[0])

# %% [markdown]
# Now the backoff. `warm_up` answers five legs with state only. Between two such legs the client waits,
# and how long it waits is what the client *asks* `anyio.sleep` for -- so that is what the cell records:
# every delay the SDK's round-trip loop passes to `anyio.sleep` (only its calls, found by the caller's
# module), while the call runs as usual. No clock is read, so a busy machine cannot blur the schedule:

# %% [markdown ko]
# 이제 백오프를 봅니다. `warm_up`은 다섯 구간 동안 상태만 담아 응답합니다. 그런 구간 사이마다 클라이언트는
# 기다리는데, 얼마나 기다리는지는 곧 클라이언트가 `anyio.sleep`에 *요청하는* 시간입니다. 그래서 이 셀은
# 호출을 평소대로 실행하면서 SDK의 왕복 루프가 `anyio.sleep`에 넘기는 지연 시간을 모두 기록합니다(호출한
# 쪽의 모듈로 가려내어 그 루프의 호출만 기록합니다). 시계를 읽지 않으므로 머신이 바빠도 일정이 흐트러져
# 보이지 않습니다.

# %% id=backoff
import sys

import anyio

asked_ms = []
real_sleep = anyio.sleep


async def recording_sleep(delay, *args, **kwargs):
    if sys._getframe(1).f_globals.get("__name__", "").startswith("mcp.client"):
        asked_ms.append(round(delay * 1000))
    await real_sleep(delay, *args, **kwargs)


anyio.sleep = recording_sleep
try:
    async with Client(limits) as client:
        result = await client.call_tool("warm_up", {})
finally:
    anyio.sleep = real_sleep
print(result.content[0].text)
print("the client asked to wait, in ms:", asked_ms)
print("doubling from 50 ms:", asked_ms[:3] == [50, 100, 200], "| capped at 250 ms:", asked_ms[3:] == [250, 250])

# %% [markdown]
# ## Exercise
#
# Write your own elicitation callback, `my_callback`, that answers the Provisioner's question with the
# region `ap-southeast-2`, and use it through `mcp_lab.CallbackAnswerer` to provision a database named
# `ledger`. Store the flow in `mine`. The cell after it checks your flow.

# %% [markdown ko]
# ## 연습 문제
#
# Provisioner의 질문에 리전 `ap-southeast-2`로 답하는 엘리시테이션 콜백 `my_callback`을 직접 작성하고,
# `mcp_lab.CallbackAnswerer`를 통해 이 콜백으로 `ledger`라는 데이터베이스를 프로비저닝하세요. 흐름은
# `mine`에 저장합니다. 그다음 셀이 여러분의 흐름을 검사합니다.

# %% solution
# Your answer: write `my_callback` and store the flow of your call in `mine`.
### BEGIN SOLUTION
async def my_callback(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    return ElicitResult(action="accept", content={"region": "ap-southeast-2"})


mine = await mcp_lab.call(
    "Provisioner", "provision", {"name": "ledger"}, answers=mcp_lab.CallbackAnswerer(elicitation_callback=my_callback)
)
### END SOLUTION

# %% check
mcp_lab.exercise_needs(mine='the flow of your call that provisions ledger through your callback')
assert mine.status == "done", f"expected the call done, found {mine.summary()}"
assert len(mine.rounds) == 2, f"expected two legs (one question), found {len(mine.rounds)}"
assert mine.rounds[1].answered_by == {"region": "callback"}, (
    f"expected the region answered by your callback, found {mine.rounds[1].answered_by}")
assert mine.text == "Provisioned 'ledger' in ap-southeast-2.", (
    f"expected \"Provisioned 'ledger' in ap-southeast-2.\", found {mine.text!r}")
print("✔ well done:", mine.text)
