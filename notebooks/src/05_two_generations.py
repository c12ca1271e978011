# %% [markdown]
# # 5 · Two generations
#
# Before protocol version 2026-07-28, a server that needed something in the middle of a call **called
# back**: while it was still handling `tools/call` it opened its own requests to the client --
# `elicitation/create`, `sampling/createMessage`, `roots/list` -- over a back channel. The 2026-07-28
# specification abolishes that back channel: the server **returns** an `InputRequiredResult` instead, and
# every leg is a plain client-to-server request.
#
# Servers and clients of both generations will meet for a while. In this notebook you will see:
#
# 1. one server, called by a **2025-11-25** client (back-channel requests) and by a **2026-07-28** client
#    (`InputRequiredResult` rounds);
# 2. **one set of SDK callbacks** answering both;
# 3. how a client learns which generation it got: `client.protocol_version`, and `mode="auto"`;
# 4. what does not cross the line: a hand-made `InputRequiredResult` on a 2025-11-25 session (`-32603`),
#    and `ctx.elicit()` on 2026-07-28 (`-32600`).
#
# About 15 minutes.

# %% [markdown ko]
# # 5 · 두 세대
#
# 프로토콜 버전 2026-07-28 이전에는 호출 도중 무언가가 필요한 서버가 **역방향으로 호출**했습니다. 아직
# `tools/call`을 처리하는 도중에 백채널을 통해 `elicitation/create`, `sampling/createMessage`, `roots/list` 같은
# 자체 요청을 클라이언트에게 여는 방식입니다. 2026-07-28 사양은 이 백채널을 폐지합니다. 서버는 그 대신
# `InputRequiredResult`를 **반환**하며, 모든 구간은 클라이언트가 서버로 보내는 평범한 요청입니다.
#
# 당분간은 두 세대의 서버와 클라이언트가 함께 쓰이게 됩니다. 이 노트북에서 살펴볼 내용은 다음과 같습니다.
#
# 1. 서버 하나를 **2025-11-25** 클라이언트(백채널 요청)와 **2026-07-28** 클라이언트(`InputRequiredResult`
#    라운드)가 각각 호출하는 모습
# 2. 두 경우 모두에 답하는 **한 벌의 SDK 콜백**
# 3. 클라이언트가 어느 세대로 연결되었는지 아는 방법: `client.protocol_version`과 `mode="auto"`
# 4. 세대의 경계를 넘지 못하는 것: 2025-11-25 세션에서 직접 만든 `InputRequiredResult`(`-32603`)와
#    2026-07-28에서의 `ctx.elicit()`(`-32600`)
#
# 약 15분 걸립니다.

# %%
%load_ext mcp_lab
import mcp_lab

# %% [markdown]
# ## One server
#
# `provision` depends on three things the client has: an answer from the user (`Elicit`), a text from the
# client's LLM (`Sample`) and the client's roots (`ListRoots`). `handmade` builds its
# `InputRequiredResult` itself. `old_style` uses the pre-2026 idiom, `await ctx.elicit(...)`.

# %% [markdown ko]
# ## 하나의 서버
#
# `provision`은 클라이언트가 가진 세 가지에 의존합니다. 사용자의 답(`Elicit`), 클라이언트 LLM이 만든
# 텍스트(`Sample`), 클라이언트의 루트(`ListRoots`)입니다. `handmade`는 자신의 `InputRequiredResult`를 직접
# 만듭니다. `old_style`은 2026 이전의 관용구인 `await ctx.elicit(...)`를 씁니다.

# %% id=warehouse
%%mcp_server Warehouse
from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import Context, Elicit, ListRoots, Resolve, Sample
from mcp.types import (
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    ListRootsResult,
    SamplingMessage,
    TextContent,
)


class Region(BaseModel):
    region: str


async def ask_region(name: str) -> Elicit[Region]:
    return Elicit(f"Which region for {name}?", Region)


def describe(name: str) -> Sample:
    prompt = TextContent(type="text", text=f"Describe a database called {name} in three words.")
    return Sample([SamplingMessage(role="user", content=prompt)], max_tokens=20)


def workspace() -> ListRoots:
    return ListRoots()


@mcp.tool()
async def provision(
    name: str,
    region: Annotated[Region, Resolve(ask_region)],
    blurb: Annotated[CreateMessageResult, Resolve(describe)],
    roots: Annotated[ListRootsResult, Resolve(workspace)],
) -> str:
    """Provision a database: asks the user, the client's LLM, and the client's roots."""
    return f"{name} in {region.region} ({blurb.content.text}), backups under {roots.roots[0].uri}"


ASK_REGION = ElicitRequest(
    params=ElicitRequestFormParams(
        message="Which region?",
        requested_schema={"type": "object", "properties": {"region": {"type": "string"}}, "required": ["region"]},
    )
)


@mcp.tool()
async def handmade(name: str, ctx: Context) -> str | InputRequiredResult:
    """Builds its InputRequiredResult by hand."""
    answer = (ctx.input_responses or {}).get("region")
    if not isinstance(answer, ElicitResult) or answer.content is None:
        return InputRequiredResult(input_requests={"region": ASK_REGION}, request_state="handmade-v1")
    return f"{name} in {answer.content['region']} (hand-made)"


@mcp.tool()
async def old_style(name: str, ctx: Context) -> str:
    """The pre-2026 way: a server-to-client request in the middle of the call."""
    outcome = await ctx.elicit(f"Which region for {name}?", Region)
    return f"{name} in {outcome.data.region} (old style)" if outcome.action == "accept" else outcome.action

# %% [markdown]
# ## One set of callbacks
#
# These are ordinary SDK client callbacks. Each records which request it answered: `context.request_id`.

# %% [markdown ko]
# ## 한 벌의 콜백
#
# 평범한 SDK 클라이언트 콜백입니다. 각 콜백은 자신이 어떤 요청에 답했는지를 `context.request_id`로
# 기록합니다.

# %% id=callbacks
from mcp.client import ClientRequestContext
from mcp.types import CreateMessageRequestParams, ElicitRequestParams, Root

answered = []


async def handle_elicitation(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    answered.append(("elicitation", context.request_id))
    return ElicitResult(action="accept", content={"region": "eu-west-1"})


async def handle_sampling(context: ClientRequestContext, params: CreateMessageRequestParams) -> CreateMessageResult:
    answered.append(("sampling", context.request_id))
    return CreateMessageResult(role="assistant", content=TextContent(type="text", text="fast, small, tidy"), model="m")


async def handle_roots(context: ClientRequestContext) -> ListRootsResult:
    answered.append(("roots", context.request_id))
    return ListRootsResult(roots=[Root(uri="file:///srv/backups")])


callbacks = mcp_lab.CallbackAnswerer(
    elicitation_callback=handle_elicitation, sampling_callback=handle_sampling, list_roots_callback=handle_roots
)

# %% [markdown]
# ## A 2026-07-28 client
#
# The default. The server *returns* its three questions in one `InputRequiredResult` (they are
# independent, so the SDK batches them); the client answers and retries. Two legs.

# %% [markdown ko]
# ## 2026-07-28 클라이언트
#
# 기본값입니다. 서버는 세 가지 질문을 하나의 `InputRequiredResult`에 담아 *반환*합니다(서로 독립적이므로
# SDK가 한 번에 묶습니다). 클라이언트는 답한 뒤 재시도합니다. 구간은 두 개입니다.

# %% id=embedded
answered.clear()
new = await mcp_lab.call("Warehouse", "provision", {"name": "orders"}, answers=callbacks)
new

# %% id=embedded-answers
new_answers = list(answered)
print(new_answers)

# %% [markdown]
# ## A 2025-11-25 client
#
# `legacy=True` (or `--legacy` on the magic) connects with protocol version 2025-11-25. Now there is **one
# leg**: while the server handles it, it sends three requests of its own back to the client --
# `elicitation/create`, `sampling/createMessage`, `roots/list`. mcp_lab records them in
# `round.backchannel`. The same callbacks answer them.

# %% [markdown ko]
# ## 2025-11-25 클라이언트
#
# `legacy=True`(매직에서는 `--legacy`)는 프로토콜 버전 2025-11-25로 연결합니다. 이번에는 **구간이 하나**뿐입니다.
# 서버는 그 구간을 처리하는 동안 `elicitation/create`, `sampling/createMessage`, `roots/list`라는 세 가지 자체
# 요청을 클라이언트에게 거꾸로 보냅니다. mcp_lab은 이를 `round.backchannel`에 기록합니다. 여기에 답하는 것도
# 같은 콜백입니다.

# %% id=back-channel
answered.clear()
old = await %mcp_call Warehouse provision name=orders --legacy --answers callbacks
old

# %% id=back-channel-answers
old_answers = list(answered)
print(old_answers)
for entry in old.rounds[0].backchannel:
    print(f"back-channel request {entry['key']}: {entry['request']['method']}")

# %% [markdown]
# Side by side. The *payloads* are the same three requests -- on 2026-07-28 they arrive inside
# `input_requests` instead of as standalone server-to-client calls -- so the same three callbacks serve
# both generations. Only `context.request_id` differs: the server's input-request key on 2026-07-28, the
# back-channel request's JSON-RPC id on 2025-11-25.

# %% [markdown ko]
# 나란히 놓고 비교해 봅니다. *페이로드*는 같은 세 요청입니다. 2026-07-28에서는 독립적인 서버->클라이언트 호출이
# 아니라 `input_requests` 안에 실려 올 뿐이므로, 같은 세 콜백이 두 세대를 모두 처리합니다. 다른 것은
# `context.request_id`뿐입니다. 2026-07-28에서는 서버가 정한 입력 요청 키이고, 2025-11-25에서는 백채널 요청의
# JSON-RPC id입니다.

# %% id=side-by-side
embedded = {request["method"]: request.get("params", {}) for request in new.rounds[0].input_requests.values()}
pushed = {entry["request"]["method"]: entry["request"].get("params", {}) for entry in old.rounds[0].backchannel}
print("same kinds of request:", sorted(embedded) == sorted(pushed), sorted(embedded))
print("same question:", embedded["elicitation/create"]["message"] == pushed["elicitation/create"]["message"])
print("same result:", new.text == old.text, "|", new.text)
print(f"{'':12}{'legs':>5}{'embedded':>10}{'back-channel':>14}  request ids")
for label, flow, ids in (("2026-07-28", new, new_answers), ("2025-11-25", old, old_answers)):
    embedded_count = sum(len(r.input_requests or {}) for r in flow.rounds)
    pushed_count = sum(len(r.backchannel) for r in flow.rounds)
    print(f"{label:12}{len(flow.rounds):>5}{embedded_count:>10}{pushed_count:>14}  {[i for _, i in ids]}")

# %% [markdown]
# ## The SDK's `Client`, both ways
#
# The SDK's own `Client` takes the same three callbacks in both modes. `client.protocol_version` says
# what was negotiated: in memory, `Client(server)` negotiates 2026-07-28 for you; `mode="legacy"` forces
# 2025-11-25.

# %% [markdown ko]
# ## SDK의 `Client`로 두 방식 모두
#
# SDK 자체의 `Client`도 두 모드에서 같은 세 콜백을 받습니다. 어떤 버전이 협상되었는지는
# `client.protocol_version`이 알려 줍니다. 인메모리에서는 `Client(server)`가 2026-07-28을 대신 협상하고,
# `mode="legacy"`는 2025-11-25를 강제합니다.

# %% id=sdk-in-memory
from mcp import Client

sdk_callbacks = dict(
    elicitation_callback=handle_elicitation, sampling_callback=handle_sampling, list_roots_callback=handle_roots
)
for mode in ("auto", "legacy"):
    async with Client(mcp, mode=mode, **sdk_callbacks) as client:
        result = await client.call_tool("provision", {"name": "billing"})
        print(f"mode={mode!r:9} protocol_version={client.protocol_version} -> {result.content[0].text}")

# %% [markdown]
# Over the network the client cannot know in advance. With the default `mode="auto"` it **discovers**
# 2026-07-28 when the server offers it. Serve the Warehouse over loopback HTTP and connect both ways:

# %% [markdown ko]
# 네트워크를 통할 때는 클라이언트가 미리 알 수 없습니다. 기본값인 `mode="auto"`에서는 서버가 2026-07-28을
# 제공하면 클라이언트가 이를 **발견**합니다. Warehouse를 루프백 HTTP로 제공하고 두 방식으로 연결해 보세요.

# %% id=sdk-over-http
mcp_lab.serve("Warehouse")
for mode in ("auto", "legacy"):  # the transport: the server's URL, with the secret it requires
    async with Client(mcp_lab.client_transport("Warehouse"), mode=mode, **sdk_callbacks) as client:
        result = await client.call_tool("provision", {"name": "search"})
        print(f"mode={mode!r:9} protocol_version={client.protocol_version} -> {result.content[0].text}")

# %% [markdown]
# On the HTTP wire the difference is plain. On 2026-07-28 each leg is one `POST` of a `tools/call`. On
# 2025-11-25 the client opens a session, and besides its `tools/call` it **POSTs responses** to the three
# requests the server pushed to it over the open stream.

# %% [markdown ko]
# HTTP 전송 구간을 보면 차이가 뚜렷합니다. 2026-07-28에서는 각 구간이 `tools/call` 하나를 담은 `POST`
# 한 번입니다. 2025-11-25에서는 클라이언트가 세션을 열고, 자신의 `tools/call` 외에도 서버가 열린 스트림으로
# 밀어 보낸 세 요청에 대한 **응답을 POST**합니다.

# %% id=posts
from collections import Counter

for flow in (
    await mcp_lab.call("Warehouse", "provision", {"name": "audit"}, answers=callbacks),
    await mcp_lab.call("Warehouse", "provision", {"name": "audit"}, answers=callbacks, legacy=True),
):
    posts = Counter(x["rpc"].split(" #")[0] for r in flow.rounds for x in r.http if x["method"] == "POST" and x["rpc"])
    print(flow.era, "| legs:", len(flow.rounds), "| POSTs:", dict(sorted(posts.items())))
await mcp_lab.sandbox.get("Warehouse").stop_http()

# %% [markdown]
# ## What does not cross the line
#
# **`InputRequiredResult` exists only in 2026-07-28.** A 2025-11-25 session has no such result type, so a
# tool that returns one by hand fails there with `-32603` (the server's log says why; we print it in one
# line). Only resolver-based tools like `provision` adapt to the older session -- by using its back
# channel.

# %% [markdown ko]
# ## 경계를 넘지 못하는 것
#
# **`InputRequiredResult`는 2026-07-28에만 존재합니다.** 2025-11-25 세션에는 그런 결과 타입이 없으므로, 이를
# 직접 만들어 반환하는 도구는 그 세션에서 `-32603`으로 실패합니다(이유는 서버 로그에 있으며, 여기서는 한 줄로
# 출력합니다). 이전 세션에 맞춰 동작하는 것은 `provision`처럼 리졸버에 기반한 도구뿐이며, 그 세션의 백채널을
# 사용해 적응합니다.

# %% id=handmade-generations
import logging


class OneLine(logging.Handler):
    """Show what the server logs in one line: the message and the root cause."""

    def emit(self, record):
        cause = record.exc_info[1] if record.exc_info else None
        detail = f" <- {type(cause).__name__}: {str(cause).splitlines()[0]}" if cause else ""
        print(f"[server log] {record.getMessage()}{detail}")


server_log = logging.getLogger("mcp.server")
for stale in [h for h in server_log.handlers if type(h).__name__ == "OneLine"]:
    server_log.removeHandler(stale)  # run this cell again: its handler is replaced, not doubled
server_log.addHandler(OneLine())
server_log.propagate = False


def outcome(flow):
    return f"{flow.summary()}: {flow.text!r}" if flow.status == "done" else flow.summary()


for legacy in (False, True):
    flow = await mcp_lab.call("Warehouse", "handmade", {"name": "orders"}, answers=callbacks, legacy=legacy)
    print(outcome(flow))

# %% [markdown]
# **The back channel is gone in 2026-07-28.** `ctx.elicit()` sends a server-to-client request. On a
# 2025-11-25 session that still works -- through the same `elicitation_callback`. On 2026-07-28 there is
# no channel to send it on, and the call fails with `-32600`; the flow's note says what to do. Use a
# dependency (`Resolve(Elicit)`) or a hand-made `InputRequiredResult` instead.

# %% [markdown ko]
# **2026-07-28에서는 백채널이 사라졌습니다.** `ctx.elicit()`는 서버->클라이언트 요청을 보냅니다. 2025-11-25
# 세션에서는 같은 `elicitation_callback`을 통해 여전히 동작합니다. 2026-07-28에는 그 요청을 보낼 채널이 없으므로
# 호출이 `-32600`으로 실패하며, 흐름에 남은 참고 사항(`note:`)이 어떻게 해야 하는지 알려 줍니다. 대신
# 의존성(`Resolve(Elicit)`)이나 직접 만든 `InputRequiredResult`를 쓰세요.

# %% id=ctx-elicit
for legacy in (True, False):
    flow = await mcp_lab.call("Warehouse", "old_style", {"name": "orders"}, answers=callbacks, legacy=legacy)
    print(outcome(flow))
print("note:", flow.notes[0])

# %% [markdown]
# That is the whole story: `InputRequiredResult` is the mechanism that replaces server-initiated sampling,
# elicitation and roots requests -- the push-style back channels -- and a client written against the SDK's
# callbacks does not have to care which generation it meets.
#
# ## Exercise
#
# Port `old_style` to 2026-07-28: add a tool `new_style(name)` to the Warehouse (the `mcp` variable holds
# it) that gets the region from a dependency on `ask_region` instead of `ctx.elicit()`, and returns
# `"orders in eu-west-1 (new style)"`. Call it with `callbacks` from **both** generations, storing the
# flows in `ported_new` (2026-07-28) and `ported_old` (2025-11-25). The cell after it checks them.

# %% [markdown ko]
# 이것이 전부입니다. `InputRequiredResult`는 서버 주도 샘플링, 엘리시테이션, 루트 요청, 즉 푸시 방식 백채널을
# 대체하는 메커니즘이며, SDK 콜백에 맞춰 작성한 클라이언트는 어느 세대를 만나든 신경 쓸 필요가 없습니다.
#
# ## 연습 문제
#
# `old_style`을 2026-07-28 방식으로 옮겨 보세요. Warehouse(`mcp` 변수에 들어 있습니다)에 도구 `new_style(name)`을
# 추가하되, 리전을 `ctx.elicit()` 대신 `ask_region`에 대한 의존성으로 얻고
# `"orders in eu-west-1 (new style)"`을 반환하게 합니다. **두** 세대 모두에서 `callbacks`로 호출하고, 흐름을 각각
# `ported_new`(2026-07-28)와 `ported_old`(2025-11-25)에 저장하세요. 그다음 셀이 두 흐름을 검사합니다.

# %% solution
# Your answer: add `new_style`, then call it on both generations, storing `ported_new` and `ported_old`.
### BEGIN SOLUTION
@mcp.tool()
async def new_style(name: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
    return f"{name} in {region.region} (new style)"


ported_new = await mcp_lab.call("Warehouse", "new_style", {"name": "orders"}, answers=callbacks)
ported_old = await mcp_lab.call("Warehouse", "new_style", {"name": "orders"}, answers=callbacks, legacy=True)
### END SOLUTION

# %% check
mcp_lab.exercise_needs(ported_new='the 2026-07-28 flow', ported_old='the 2025-11-25 flow')
assert ported_new.era == "2026-07-28" and ported_old.era == "2025-11-25", (
    f"expected eras 2026-07-28 and 2025-11-25, found {ported_new.era} and {ported_old.era}")
assert ported_new.text == ported_old.text == "orders in eu-west-1 (new style)", (
    f"expected 'orders in eu-west-1 (new style)' on both, found {ported_new.summary()} and {ported_old.summary()}")
assert ported_new.rounds[0].outcome == "input_required", f"expected 2026-07-28 to return its question, found {ported_new.rounds[0].outcome}"
assert len(ported_old.rounds) == 1 and len(ported_old.rounds[0].backchannel) == 1, f"expected 2025-11-25 to call back in one leg, found {len(ported_old.rounds)} leg(s)"
print("✔ well done:", ported_new.text, "-- on both generations")
