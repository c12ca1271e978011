# %% [markdown]
# # 3 · The loop by hand
#
# The SDK's `Client.call_tool` hides the rounds of a multi round-trip request: it answers each
# `InputRequiredResult` through your callbacks and retries until a final result arrives. The SDK docs list
# three reasons to drive the loop yourself instead: **a distributed client** (the process that shows the
# question is not the one that called the tool), **auditing each round**, and **a wall-clock limit**
# rather than a round count.
#
# In this notebook you will:
#
# 1. step through a call one leg at a time and look at every round;
# 2. write the conversation down, and finish it **from another Python process**;
# 3. meet the round cap (10 by default, as in the SDK), state-only rounds and their backoff, and a
#    wall-clock limit.
#
# About 15 minutes.

# %% [markdown ko]
# # 3 · 루프 직접 구동
#
# SDK의 `Client.call_tool`은 다중 왕복 요청의 라운드를 감춥니다. 각 `InputRequiredResult`에 등록된 콜백으로
# 답하고, 최종 결과가 도착할 때까지 재시도합니다. SDK 문서는 루프를 직접 맡아야 할 이유로 세 가지를 듭니다.
# **분산된 클라이언트**(질문을 표시하는 프로세스가 도구를 호출한 프로세스와 다른 경우), **라운드마다
# 감사하기**, 그리고 라운드 수가 아니라 **실제 경과 시간으로 두는 한도**입니다.
#
# 이 노트북에서는 다음을 해 봅니다.
#
# 1. 호출을 한 구간씩 진행하며 모든 라운드를 살펴봅니다.
# 2. 대화를 기록해 두고, **다른 Python 프로세스에서** 마무리합니다.
# 3. 라운드 상한(SDK와 마찬가지로 기본값 10), 상태만 실린 라운드와 그 백오프, 그리고 경과 시간 한도를
#    알아봅니다.
#
# 약 15분 걸립니다.

# %%
%load_ext mcp_lab
import mcp_lab

# %% [markdown]
# ## A server that asks twice
#
# `book_ticket` depends on two questions, and the second depends on the first, so the SDK needs **two**
# `InputRequiredResult` rounds before the tool can run (three legs in total). The server's code lives in a
# file, because in a moment a second process will run the same server.
#
# The key ring is shared through an environment variable: both processes must seal and unseal with the
# same key, and the notebook never prints it (mcp_lab only ever shows key *ids*).

# %% [markdown ko]
# ## 두 번 묻는 서버
#
# `book_ticket`은 두 질문에 의존하고, 두 번째 질문은 첫 번째 질문에 의존합니다. 그래서 SDK는 도구를 실행하기
# 전에 `InputRequiredResult` 라운드가 **두 번** 필요합니다(구간은 모두 세 개). 곧 두 번째 프로세스가 같은
# 서버를 실행할 것이므로 서버 코드는 파일에 둡니다.
#
# 키 목록은 환경 변수로 공유합니다. 두 프로세스가 같은 키로 봉인하고 봉인을 풀어야 하기 때문입니다. 노트북은
# 키를 절대 출력하지 않습니다(mcp_lab이 보여 주는 것은 언제나 키 *ID*뿐입니다).

# %% nbval-ignore-output id=tickets-server
%%writefile tickets_server.py
"""The tutorial's ticket office: the same code runs in the notebook and in a second process."""
import os
from typing import Annotated

import mcp.types as T
from mcp.server.mcpserver import Context, Elicit, MCPServer, RequestStateSecurity, Resolve
from pydantic import BaseModel

import mcp_lab


class Seat(BaseModel):
    seat: str


class Confirm(BaseModel):
    ok: bool


async def ask_seat(event: str) -> Elicit[Seat]:
    return Elicit(f"Which seat for {event}?", Seat)


async def confirm(seat: Annotated[Seat, Resolve(ask_seat)]) -> Elicit[Confirm]:
    return Elicit(f"Book seat {seat.seat}?", Confirm)


PICK = T.ElicitRequest(params=T.ElicitRequestFormParams(
    message="Still there?", requested_schema={"type": "object", "properties": {"yes": {"type": "boolean"}}}))


def build():
    key = bytes.fromhex(os.environ["TICKETS_KEY"])
    # The docs' line: one shared secret key (>= 32 bytes), so a sibling process verifies what this one sealed.
    mcp = MCPServer("tickets", request_state_security=RequestStateSecurity(keys=[key]), log_level="WARNING")

    @mcp.tool()
    async def book_ticket(event: str, seat: Annotated[Seat, Resolve(ask_seat)],
                          ok: Annotated[Confirm, Resolve(confirm)]) -> str:
        return f"Booked {seat.seat} for {event}" if ok.ok else "Not booked"

    @mcp.tool()
    async def nag(ctx: Context) -> str | T.InputRequiredResult:
        """Never satisfied: asks again on every round."""
        return T.InputRequiredResult(input_requests={"again": PICK}, request_state="nagging")

    @mcp.tool()
    async def warm_up(ctx: Context) -> str | T.InputRequiredResult:
        """Not ready for a few rounds: returns only state, no questions."""
        seen = int(ctx.request_state or "0")
        if seen < 4:
            return T.InputRequiredResult(request_state=str(seen + 1))
        return f"warm after {seen} state-only rounds"

    return mcp_lab.adopt(mcp)  # into the lab as 'tickets', keeping its own keys

# %% id=tickets-built
import os
import secrets

os.environ["TICKETS_KEY"] = secrets.token_hex(32)  # a fresh shared key; never printed
import tickets_server

tickets_server.build()
%mcp_server list

# %% [markdown]
# ## One leg at a time
#
# `--step` performs only the first leg. The flow stops with the server's questions pending.

# %% [markdown ko]
# ## 한 번에 한 구간씩
#
# `--step`은 첫 구간만 수행합니다. 흐름은 서버의 질문이 답을 기다리는 상태로 멈춥니다.

# %% id=step-one
flow = await %mcp_call tickets book_ticket event=Tosca --step
flow

# %% [markdown]
# The question's key is the resolver's `module:qualname`; mcp_lab lets you answer it by the bare name
# after the colon. The token is sealed (`v1.` + key id + nonce + ciphertext): the client only echoes it.

# %% [markdown ko]
# 질문의 키는 리졸버의 `module:qualname`이며, mcp_lab에서는 콜론 뒤의 이름만으로 답할 수 있습니다. 토큰은
# 봉인되어 있으므로(`v1.` + 키 ID + 논스 + 암호문) 클라이언트는 이를 그대로 되돌려 보낼 뿐입니다.

# %% id=pending-keys
print(list(flow.pending_requests))
print(flow.rounds[0].request_state[:3], len(flow.rounds[0].request_state) > 100)

# %% [markdown]
# Each `await flow.step(...)` answers the pending questions and sends the next leg, with the token echoed
# byte for byte. The answer to the first question unlocks the second question.

# %% [markdown ko]
# `await flow.step(...)`을 호출할 때마다 대기 중인 질문에 답하고 다음 구간을 보내며, 토큰은 바이트 그대로
# 되돌려 보냅니다. 첫 번째 질문에 답해야 두 번째 질문이 나옵니다.

# %% id=step-two
second = await flow.step(answers={"ask_seat": {"seat": "A12"}})
second

# %% id=token-echoed
print(second.sent_request_state == flow.rounds[0].request_state)

# %% [markdown]
# ## The same loop with the SDK alone
#
# mcp_lab's `step()` is a thin recorder around the SDK's manual path. Here is that path bare, as in the
# SDK docs: `client.session.call_tool(..., allow_input_required=True)` widens the return type to
# `CallToolResult | InputRequiredResult`, and `isinstance` narrows it again. Every key of `input_requests`
# gets its `InputResponse` under the same key of `input_responses`; `fulfil` is where a UI would go.

# %% [markdown ko]
# ## SDK만으로 돌리는 같은 루프
#
# mcp_lab의 `step()`은 SDK의 수동 경로 위에 기록만 얹은 얇은 계층입니다. 아래는 SDK 문서에 나온 대로, 아무것도
# 감싸지 않은 그 경로입니다. `client.session.call_tool(..., allow_input_required=True)`는 반환 타입을
# `CallToolResult | InputRequiredResult`로 넓히고, 다시 좁히는 것은 `isinstance`입니다. `input_requests`의 모든
# 키에 대해 `input_responses`의 같은 키 아래에 `InputResponse`를 넣습니다. `fulfil`이 UI가 들어갈 자리입니다.

# %% id=sdk-manual-loop
from mcp import Client
from mcp.types import CallToolResult, ElicitRequest, ElicitResult, InputRequest, InputRequiredResult, InputResponse


def fulfil(key: str, request: InputRequest) -> InputResponse:
    if not isinstance(request, ElicitRequest):
        raise NotImplementedError(f"this client cannot answer a {request.method!r} request")
    answers = {"tickets_server:ask_seat": {"seat": "C3"}, "tickets_server:confirm": {"ok": True}}
    return ElicitResult(action="accept", content=answers[key])


async def noop(context, params):  # declares the elicitation capability; the manual loop answers itself
    return ElicitResult(action="cancel")


server = mcp_lab.sandbox.get("tickets").server
async with Client(server, elicitation_callback=noop) as client:
    result = await client.session.call_tool("book_ticket", {"event": "Carmen"}, allow_input_required=True)
    kinds = [type(result).__name__]
    while isinstance(result, InputRequiredResult):
        responses = {key: fulfil(key, request) for key, request in (result.input_requests or {}).items()}
        result = await client.session.call_tool(
            "book_ticket",
            {"event": "Carmen"},
            input_responses=responses,
            request_state=result.request_state,
            allow_input_required=True,
        )
        kinds.append(type(result).__name__)
print(" -> ".join(kinds))
print(isinstance(result, CallToolResult), result.content[0].text)

# %% [markdown]
# Our `fulfil` takes the key as well, to answer two different questions. The docs' own `fulfil` answers
# every elicitation with the same region and **refuses by kind**: anything that is not an `ElicitRequest`
# (a sampling or a roots request) raises. To run the docs' `fulfil` and `provision` as written, here is a
# `Provisioner` whose `provision` tool asks which region, of the user by elicitation, or for a database
# named `auto` of the client's LLM by sampling. The question's words are the same in both.

# %% [markdown ko]
# 여기서 쓴 `fulfil`은 서로 다른 두 질문에 답하기 위해 키도 받습니다. 문서의 `fulfil`은 모든 엘리시테이션에
# 같은 리전으로 답하고, **요청 종류에 따라 거부합니다**. `ElicitRequest`가 아닌 것(샘플링 요청이나 루트
# 요청)이 오면 예외를 일으킵니다. 문서의 `fulfil`과 `provision`을 쓰인 그대로 실행할 수 있도록, 어느 리전인지
# 묻는 `provision` 도구를 가진 `Provisioner`를 준비했습니다. 이 도구는 엘리시테이션으로 사용자에게 묻지만,
# 이름이 `auto`인 데이터베이스라면 샘플링으로 클라이언트의 LLM에게 묻습니다. 질문 문구는 두 경우 모두
# 같습니다.

# %% id=provisioner-two-kinds
%%mcp_server Provisioner
import mcp.types as T
from mcp.server.mcpserver import Context

QUESTION = "Which region should the database live in?"
REGION = {"type": "object", "properties": {"region": {"type": "string"}}, "required": ["region"]}


@mcp.tool()
async def provision(name: str, ctx: Context) -> str | T.InputRequiredResult:
    """Provision a database. Asks which region: the user, or (for `auto`) the client's LLM."""
    answer = (ctx.input_responses or {}).get("region")
    if answer is None:
        if name == "auto":
            text = T.TextContent(type="text", text=QUESTION)
            ask = T.CreateMessageRequest(params=T.CreateMessageRequestParams(
                messages=[T.SamplingMessage(role="user", content=text)], max_tokens=20))
        else:
            ask = T.ElicitRequest(params=T.ElicitRequestFormParams(message=QUESTION, requested_schema=REGION))
        return T.InputRequiredResult(input_requests={"region": ask}, request_state="provision-v1")
    region = answer.content["region"] if isinstance(answer, T.ElicitResult) else answer.content.text
    return f"Provisioned {name!r} in {region}."

# %% id=docs-fulfil
from mcp import Client
from mcp.types import CallToolResult, ElicitRequest, ElicitResult, InputRequest, InputRequiredResult, InputResponse


def fulfil(request: InputRequest) -> InputResponse:
    if not isinstance(request, ElicitRequest):
        raise NotImplementedError(f"this client cannot answer a {request.method!r} request")
    return ElicitResult(action="accept", content={"region": "eu-west-1"})


async def provision(client: Client, name: str) -> CallToolResult:
    result = await client.session.call_tool("provision", {"name": name}, allow_input_required=True)
    while isinstance(result, InputRequiredResult):
        responses = {key: fulfil(request) for key, request in (result.input_requests or {}).items()}
        result = await client.session.call_tool(
            "provision",
            {"name": name},
            input_responses=responses,
            request_state=result.request_state,
            allow_input_required=True,
        )
    return result

# %% [markdown]
# Both names, with the SDK's `Client` in memory. The first leg of each shows what was asked; then the
# docs' loop runs. The elicitation is answered and the call finishes; the sampling request, with the very
# same words, is refused because of its kind.

# %% [markdown ko]
# 두 이름으로, SDK의 `Client`를 인메모리로 연결해 호출합니다. 각각 첫 구간에서 무엇을 물었는지 보여 준 다음
# 문서의 루프를 실행합니다. 엘리시테이션에는 답이 가고 호출이 끝나지만, 문구가 똑같은 샘플링 요청은 종류
# 때문에 거부됩니다.

# %% id=docs-fulfil-run
async with Client(mcp_lab.sandbox.get("Provisioner").server) as client:
    for name in ("orders", "auto"):
        first = await client.session.call_tool("provision", {"name": name}, allow_input_required=True)
        asked = first.input_requests["region"]
        words = asked.params.message if isinstance(asked, ElicitRequest) else asked.params.messages[0].content.text
        print(f"{name}: asked {asked.method} {words!r}")
        try:
            print("   ->", (await provision(client, name)).content[0].text)
        except NotImplementedError as exc:
            print("   -> NotImplementedError:", exc)

# %% [markdown]
# ## A retry is the same request again
#
# Every leg repeats the original call: the same tool name, the same arguments; only `inputResponses` and
# `requestState` are added. A small server middleware shows what the server received on each leg.

# %% [markdown ko]
# ## 재시도는 같은 요청을 다시 보냅니다
#
# 모든 구간은 원래 호출을 반복합니다. 도구 이름도 인수도 같고, `inputResponses`와 `requestState`만 더해집니다.
# 작은 서버 미들웨어로 서버가 각 구간에서 받은 것을 확인합니다.

# %% id=same-request
received = []


async def record(ctx, call_next):
    if ctx.method == "tools/call":
        received.append((ctx.params["name"], ctx.params.get("arguments"), sorted(set(ctx.params) - {"_meta"})))
    return await call_next(ctx)


server.middleware.append(record)
await mcp_lab.call("tickets", "book_ticket", {"event": "Norma"}, answers={"ask_seat": {"seat": "D1"}, "confirm": {"ok": True}})
server.middleware.remove(record)
for leg in received:
    print(leg)

# %% [markdown]
# ## Auditing every round
#
# Driving the loop yourself also means you can log every question and refuse some kinds. An answerer is
# any object with `answer(key, request, context)`: this one records each question and refuses to answer a
# seat question for an event it does not like. mcp_lab stops the flow with the refusal, as the SDK does
# for a callback that returns `ErrorData`.

# %% [markdown ko]
# ## 모든 라운드 감사하기
#
# 루프를 직접 맡으면 모든 질문을 기록하고 특정 종류는 거부할 수도 있습니다. 답변자(answerer)는
# `answer(key, request, context)`를 가진 객체라면 무엇이든 됩니다. 아래 답변자는 질문을 하나하나 기록하고,
# 마음에 들지 않는 공연의 좌석 질문에는 답하기를 거부합니다. SDK가 `ErrorData`를 반환하는 콜백을 만났을 때와
# 마찬가지로, mcp_lab은 그 거부와 함께 흐름을 멈춥니다.

# %% id=auditor
from mcp.types import ElicitResult, ErrorData

audit_log = []


async def reply(ctx, params):  # the SDK's callback shape: returning ErrorData refuses, as under Client
    if "Wozzeck" in params.message:
        return ErrorData(code=-32000, message="not answering questions about Wozzeck")
    return ElicitResult(action="accept", content={"seat": "E5"} if ctx.request_id.endswith("ask_seat") else {"ok": True})


class Auditor:
    label = "auditor"
    sdk = mcp_lab.CallbackAnswerer(elicitation_callback=reply)

    async def answer(self, key, request, context):
        audit_log.append(f"round {context.round_index + 1}: {context.server} asks {key.split(':')[-1]}: {request.params.message}")
        return await self.sdk.answer(key, request, context)


ok = await mcp_lab.call("tickets", "book_ticket", {"event": "Fidelio"}, answers=Auditor())
refused = await mcp_lab.call("tickets", "book_ticket", {"event": "Wozzeck"}, answers=Auditor())
print("\n".join(audit_log))
print(ok.text, "|", refused.status, "-", refused.error["message"])

# %% [markdown]
# ## Writing the state down, finishing elsewhere
#
# A `Flow` is plain JSON. Write it to a file: it holds the arguments, every round, and the latest sealed
# token -- never a key.

# %% [markdown ko]
# ## 상태를 기록해 두고 다른 곳에서 마무리하기
#
# `Flow`는 평범한 JSON입니다. 파일에 쓰면 인수, 모든 라운드, 가장 최근에 봉인된 토큰이
# 담깁니다. 키는 절대 담기지 않습니다.

# %% id=write-down
with open("tickets_flow.json", "w") as f:
    f.write(flow.to_json())
print(flow.status, len(flow.rounds), "rounds written down")

# %% [markdown]
# Now a **separate Python process** -- think of another worker of a distributed client -- loads the file,
# runs the same server code with the same key, answers the remaining question and finishes the call.

# %% [markdown ko]
# 이제 **별도의 Python 프로세스**가(분산 클라이언트의 다른 워커라고 생각하세요) 파일을 불러오고, 같은 키로
# 같은 서버 코드를 실행하고, 남은 질문에 답한 뒤 호출을 마무리합니다.

# %% nbval-ignore-output id=finish-elsewhere-script
%%writefile finish_elsewhere.py
import asyncio
import sys

import mcp_lab
import tickets_server


async def main(path):
    tickets_server.build()
    flow = await mcp_lab.resume(open(path).read(), answers={"confirm": {"ok": True}})
    print(flow.summary())
    print(flow.text)

asyncio.run(main(sys.argv[1]))

# %% id=finished-elsewhere
import subprocess
import sys

done = subprocess.run([sys.executable, "finish_elsewhere.py", "tickets_flow.json"], capture_output=True, text=True)
print(done.stdout or done.stderr)

# %% [markdown]
# The other process verified the token this kernel's server sealed: same server name (the token's
# audience) and the same key. With the SDK's default process-local key it would have been rejected --
# notebook 8 shows that happening.
#
# ## The round cap
#
# A server that never stops asking is cut off: like the SDK's `input_required_max_rounds=10`, the flow
# stops once the server has asked more than `max_rounds` times.

# %% [markdown ko]
# 다른 프로세스가 이 커널의 서버가 봉인한 토큰을 검증했습니다. 서버 이름(토큰의 audience)이 같고 키도 같기
# 때문입니다. SDK 기본값인 프로세스 로컬 키였다면 거부되었을 것입니다. 노트북 8에서 실제로 그렇게 되는 것을
# 확인합니다.
#
# ## 라운드 상한
#
# 끝없이 묻기만 하는 서버는 중간에 끊깁니다. SDK의 `input_required_max_rounds=10`과 마찬가지로, 서버가
# `max_rounds`번보다 많이 물으면 흐름이 멈춥니다.

# %% id=lab-round-cap
capped = await mcp_lab.call("tickets", "nag", answers={"again": {"yes": True}}, max_rounds=3)
print(capped.status, "after", len(capped.rounds), "legs")
print(capped.stop_reason)

# %% [markdown]
# ## State-only rounds back off
#
# An `InputRequiredResult` may carry only `request_state` -- "not done yet". The client then waits before
# retrying: 50 ms, doubling up to 250 ms, exactly as the SDK's driver does, so it does not busy-poll.

# %% [markdown ko]
# ## 상태만 실린 라운드에는 백오프가 따릅니다
#
# `InputRequiredResult`에는 `request_state`만 실릴 수도 있습니다. "아직 끝나지 않았음"이라는 뜻입니다. 그러면
# 클라이언트는 재시도하기 전에 기다립니다. SDK의 드라이버와 똑같이 50 ms에서 시작해 250 ms까지 두 배씩
# 늘리므로 서버를 바쁘게 폴링하지 않습니다.

# %% id=lab-backoff
polled = await mcp_lab.call("tickets", "warm_up")
print(polled.text)
print([int(r.backoff * 1000) for r in polled.rounds])

# %% [markdown]
# ## A wall-clock limit
#
# Rounds are not the only budget: `timeout=` stops the flow after that many seconds, cleanly, with the
# last token still in hand -- so it can be resumed later.

# %% [markdown ko]
# ## 경과 시간 한도
#
# 한도를 라운드로만 정하는 것은 아닙니다. `timeout=`을 주면 그 초가 지난 뒤 흐름을 깔끔하게 멈춥니다. 마지막
# 토큰은 여전히 손에 남아 있으므로 나중에 재개할 수 있습니다.

# %% id=wall-clock
slow = await mcp_lab.call("tickets", "warm_up", timeout=0.1)
print(slow.status, "-", slow.stop_reason.split(" after")[0])
await mcp_lab.resume(slow)
print(slow.status, "-", slow.text)

# %% [markdown]
# The SDK docs put it in their own words: with the manual loop, wrap it in `anyio.fail_after(...)`
# instead of relying on `input_required_max_rounds`. The same, bare:

# %% [markdown ko]
# SDK 문서의 표현으로는 이렇습니다. "`input_required_max_rounds`에 기대는 대신 자체 루프를
# `anyio.fail_after(...)`로 감싸세요." 같은 일을 SDK만으로 해 보면 다음과 같습니다.

# %% id=fail-after
import anyio

async with Client(server, elicitation_callback=noop) as client:
    try:
        with anyio.fail_after(0.1):
            result = await client.session.call_tool("warm_up", allow_input_required=True)
            while isinstance(result, InputRequiredResult):
                await anyio.sleep(0.25)  # the SDK's own backoff cap; four rounds take 1 s, far past 0.1 s
                result = await client.session.call_tool(
                    "warm_up", request_state=result.request_state, allow_input_required=True
                )
    except TimeoutError:
        print("gave up after 0.1 s of wall-clock time")

# %% [markdown]
# ## Exercise
#
# Own the loop, as the SDK docs do. Book a ticket for the event `Aida` on the `tickets` server with
# `client.session.call_tool(..., allow_input_required=True)` and a `while isinstance(result,
# InputRequiredResult)` loop -- no mcp_lab calls. Choose seat `B7` and confirm. Keep an audit as you go:
# `rounds`, a list with one entry per `InputRequiredResult`, each the sorted list of its `input_requests`
# keys. Give the whole loop a wall-clock limit of 10 seconds with `anyio.fail_after`, and store the final
# `CallToolResult` in `booked`. (`server`, `Client` and the callback `noop` are defined above.)

# %% [markdown ko]
# ## 연습 문제
#
# SDK 문서처럼 루프를 직접 맡아 보세요. `client.session.call_tool(..., allow_input_required=True)`와
# `while isinstance(result, InputRequiredResult)` 루프로 `tickets` 서버에서 공연 `Aida`의 표를 예매합니다.
# mcp_lab 호출은 쓰지 않습니다. 좌석은 `B7`을 고르고 예매를 확인합니다. 진행하면서 감사 기록도 남기세요.
# `rounds`는 `InputRequiredResult`마다 항목이 하나씩 있는 리스트이며, 각 항목은 그 결과의 `input_requests`
# 키를 정렬한 리스트입니다. `anyio.fail_after`로 루프 전체에 10초의 경과 시간 한도를 두고, 최종
# `CallToolResult`를 `booked`에 저장하세요. (`server`, `Client`, 콜백 `noop`은 위에서 정의했습니다.)

# %% solution
# Your answer: the manual loop for Aida, recording each round's keys in `rounds`; the result in `booked`.
### BEGIN SOLUTION
SEAT_B7 = {"tickets_server:ask_seat": {"seat": "B7"}, "tickets_server:confirm": {"ok": True}}
rounds = []
async with Client(server, elicitation_callback=noop) as client:
    with anyio.fail_after(10):
        result = await client.session.call_tool("book_ticket", {"event": "Aida"}, allow_input_required=True)
        while isinstance(result, InputRequiredResult):
            rounds.append(sorted(result.input_requests or {}))
            responses = {key: ElicitResult(action="accept", content=SEAT_B7[key]) for key in result.input_requests or {}}
            result = await client.session.call_tool(
                "book_ticket",
                {"event": "Aida"},
                input_responses=responses,
                request_state=result.request_state,
                allow_input_required=True,
            )
booked = result
### END SOLUTION

# %% check
mcp_lab.exercise_needs(booked="the CallToolResult your loop ended with", rounds="the input_requests keys of each round")
text = booked.content[0].text if getattr(booked, "content", None) else None
assert type(booked).__name__ == "CallToolResult" and not booked.is_error, (
    f"expected a CallToolResult without isError, found {type(booked).__name__}"
    f"{' with isError' if getattr(booked, 'is_error', False) else ''}: {text!r}")
assert text == "Booked B7 for Aida", f"expected 'Booked B7 for Aida', found {text!r}"
expected = [["tickets_server:ask_seat"], ["tickets_server:confirm"]]
assert [sorted(keys) for keys in rounds] == expected, (
    f"expected two InputRequiredResult rounds asking {expected}, found {rounds}")
print("✔ well done:", text, "after", len(rounds), "rounds of questions:", rounds)
