# %% [markdown] id=intro
# # 2 · Dependencies
#
# In notebook 1 a tool built its `InputRequiredResult` by hand. With `MCPServer` you rarely do: you
# declare a parameter as a **dependency** -- ask the user (`Elicit`), sample the client's LLM (`Sample`),
# or list the client's roots (`ListRoots`) -- and the SDK returns the `InputRequiredResult` for you,
# seals its state, and calls your tool only once every answer is in.
#
# In this notebook you will see:
#
# 1. the three kinds of dependency, and the three kinds of input request they put on the wire;
# 2. independent questions **batched into one round**, and dependent ones **adding rounds**;
# 3. *decline* and *cancel*: as a tool error, or as an outcome your tool inspects;
# 4. the signatures the SDK refuses when you register the tool (`InvalidSignature`), and the one mistake
#    it can only catch when the tool runs.
#
# About 15 minutes.

# %% [markdown ko]
# # 2 · 의존성
#
# 노트북 1에서는 도구가 `InputRequiredResult`를 직접 만들었습니다. `MCPServer`에서는 그럴 일이 거의
# 없습니다. 매개변수를 **의존성**으로 선언하면, 즉 사용자에게 묻거나(`Elicit`), 클라이언트의 LLM을
# 샘플링하거나(`Sample`), 클라이언트의 루트를 나열하는(`ListRoots`) 의존성을 선언하면 SDK가 대신
# `InputRequiredResult`를 반환하고, 그 상태를 봉인하며, 모든 답이 모인 뒤에야 도구를 호출합니다.
#
# 이 노트북에서 살펴볼 내용은 다음과 같습니다.
#
# 1. 세 가지 의존성과, 각 의존성이 전송 구간에 싣는 세 가지 입력 요청
# 2. **한 라운드에 묶이는** 독립적인 질문과, **라운드를 더하는** 의존적인 질문
# 3. *decline*(거절)과 *cancel*(취소): 도구 오류로 끝나는 경우와, 도구가 결과를 직접 살펴보는 경우
# 4. 도구를 등록할 때 SDK가 거부하는 시그니처(`InvalidSignature`)와, 도구가 실행될 때에야 잡을 수 있는
#    실수 하나
#
# 약 15분 걸립니다.

# %%
%load_ext mcp_lab
import mcp_lab

# %% [markdown]
# ## A travel agent with questions
#
# A *resolver* is a plain function returning the question: `Elicit(message, Model)`, `Sample(messages,
# max_tokens=...)` or `ListRoots()`. A tool parameter annotated `Annotated[T, Resolve(resolver)]` receives
# the answer. A resolver may take the tool's arguments **by name** (`city` below), a `Context`, or other
# resolved values -- which makes it *depend* on them. Sync resolvers are fine too (they run in a thread).

# %% [markdown ko]
# ## 질문하는 여행사
#
# *리졸버*는 질문을 반환하는 평범한 함수입니다. `Elicit(message, Model)`, `Sample(messages, max_tokens=...)`,
# `ListRoots()` 중 하나를 반환합니다. `Annotated[T, Resolve(resolver)]`로 애너테이션한 도구 매개변수가 그
# 답을 받습니다. 리졸버는 도구의 인수를 **이름으로**(아래의 `city`) 받을 수도 있고, `Context`나 이미 구한
# 다른 값을 받을 수도 있습니다. 다른 값을 받으면 리졸버는 그 값에 *의존*하게 됩니다. 동기 리졸버도
# 괜찮습니다(스레드에서 실행됩니다).

# %% id=travel
%%mcp_server Travel
from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import Elicit, ElicitationResult, ListRoots, Resolve, Sample
from mcp.types import CreateMessageResult, ListRootsResult, SamplingMessage, TextContent


class Region(BaseModel):
    region: str


class Stay(BaseModel):
    nights: int


class Room(BaseModel):
    room: str


class Confirm(BaseModel):
    ok: bool


async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which part of {city}?", Region)


async def ask_nights(city: str) -> Elicit[Stay]:
    return Elicit(f"How many nights in {city}?", Stay)


async def ask_room(region: Annotated[Region, Resolve(ask_region)]) -> Elicit[Room]:
    return Elicit(f"Which room type in {region.region}?", Room)


def write_postcard(city: str) -> Sample:
    prompt = TextContent(type="text", text=f"Write a one-line postcard from {city}.")
    return Sample([SamplingMessage(role="user", content=prompt)], max_tokens=60)


def where_to_save() -> ListRoots:
    return ListRoots()


async def ask_confirm(city: str) -> Elicit[Confirm]:
    return Elicit(f"Really book {city}?", Confirm)


@mcp.tool()
async def book(
    city: str,
    region: Annotated[Region, Resolve(ask_region)],
    stay: Annotated[Stay, Resolve(ask_nights)],
) -> str:
    """Two independent questions."""
    return f"Booked {stay.nights} night(s) in {region.region}, {city}."


@mcp.tool()
async def upgrade(city: str, room: Annotated[Room, Resolve(ask_room)]) -> str:
    """A question that needs another question's answer first."""
    return f"Upgraded to a {room.room} room in {city}."


@mcp.tool()
async def postcard(
    city: str,
    text: Annotated[CreateMessageResult, Resolve(write_postcard)],
    roots: Annotated[ListRootsResult, Resolve(where_to_save)],
) -> str:
    """Asks the client's LLM for a text, and the client for its roots."""
    reply = text.content.text if isinstance(text.content, TextContent) else "?"
    return f"{reply!r} saved under {roots.roots[0].uri}"


@mcp.tool()
async def careful_book(city: str, ok: Annotated[ElicitationResult[Confirm], Resolve(ask_confirm)]) -> str:
    """Sees the whole outcome of its question, not just accepted content."""
    if ok.action == "accept":
        return f"Booked {city}." if ok.data.ok else f"Not booked: the user unticked 'ok'."
    return f"Not booked: the user chose {ok.action}."

# %% [markdown]
# Resolved parameters are the server's business: they do not appear in the tools' `inputSchema`. A
# client sees only the real arguments.

# %% [markdown ko]
# 리졸버로 채우는 매개변수는 서버 내부의 일이므로 도구의 `inputSchema`에 나타나지 않습니다. 클라이언트에게는
# 실제 인수만 보입니다.

# %% id=input-schemas
from mcp import Client

async with Client(mcp) as client:
    for tool in (await client.list_tools()).tools:
        print(f"{tool.name:13}", list(tool.input_schema["properties"]))

# %% [markdown]
# ## Independent questions arrive together
#
# `book` needs a region and a number of nights. Neither needs the other, so the SDK asks **both in one
# `InputRequiredResult`**: one round, two input requests, and the client answers them together (mcp_lab
# shows them as one panel of forms; the SDK's `Client` runs the callbacks concurrently).
#
# The keys are the SDK's: the resolver's `module:qualname`. mcp_lab lets you answer by the bare name.
#
# In JupyterLab, fill in both forms yourself (**Submit all** sends both answers together); the next cell
# answers them only when the notebook runs unattended (the test suite).

# %% [markdown ko]
# ## 독립적인 질문은 함께 도착합니다
#
# `book`에는 지역과 숙박 일수가 필요합니다. 둘은 서로를 필요로 하지 않으므로 SDK는 **둘을 하나의
# `InputRequiredResult`로** 묻습니다. 라운드 하나에 입력 요청 두 개이며, 클라이언트는 둘에 함께 답합니다
# (mcp_lab은 이를 양식 패널 하나로 보여 주고, SDK의 `Client`는 콜백을 동시에 실행합니다).
#
# 키는 SDK가 정한 것으로, 리졸버의 `module:qualname`입니다. mcp_lab에서는 리졸버 이름만으로도 답할 수
# 있습니다.
#
# JupyterLab에서는 두 양식을 직접 채우세요(**모두 제출**(Submit all)을 누르면 두 답이 함께 전송됩니다).
# 다음 셀은 노트북이 사람 없이 실행될 때(테스트 스위트)에만 답을 채웁니다.

# %%
mcp_lab.forms.unattended(ask_region={"region": "Kreuzberg"}, ask_nights={"nights": 3})

# %%
flow = await %mcp_call Travel book city=Berlin

# %%
flow

# %% id=one-round
print("legs:", len(flow.rounds), "| questions in the one round:", list(flow.rounds[0].input_requests))

# %% [markdown]
# ## Dependent questions add rounds
#
# `upgrade` needs a room type, and the room question needs the region first (its message even uses the
# answer). The SDK cannot ask both at once, so a second `InputRequiredResult` follows the first: three legs.

# %% [markdown ko]
# ## 의존적인 질문은 라운드를 늘립니다
#
# `upgrade`에는 객실 유형이 필요한데, 객실 질문에는 먼저 지역이 필요합니다(질문 메시지에 그 답이 들어가기까지
# 합니다). SDK는 둘을 한꺼번에 물을 수 없으므로 첫 번째 `InputRequiredResult` 뒤에 두 번째가 이어집니다.
# 그래서 구간은 세 개입니다.

# %% id=dependent
deep = await mcp_lab.call(
    "Travel", "upgrade", {"city": "Berlin"}, answers={"ask_region": {"region": "Mitte"}, "ask_room": {"room": "suite"}}
)
deep

# %% id=dependent-legs
for rnd in deep.rounds:
    asked = [request["params"]["message"] for request in (rnd.input_requests or {}).values()]
    print(f"leg {rnd.index + 1}: {rnd.outcome:14}", asked or deep.text)

# %% [markdown]
# ## Sampling and roots
#
# `postcard` depends on a `Sample` and a `ListRoots` -- independent again, so one round carries a
# `CreateMessageRequest` and a `ListRootsRequest` side by side. A script answers sampling with the
# assistant's reply (a string) and roots with a list of `file://` URIs.

# %% [markdown ko]
# ## 샘플링과 루트
#
# `postcard`는 `Sample`과 `ListRoots`에 의존합니다. 이번에도 둘은 독립적이므로 한 라운드에
# `CreateMessageRequest`와 `ListRootsRequest`가 나란히 실립니다. 스크립트로 답할 때는 샘플링에 어시스턴트의
# 응답(문자열)을, 루트에 `file://` URI 목록을 줍니다.

# %% id=sample-and-roots
card = await mcp_lab.call(
    "Travel", "postcard", {"city": "Lisbon"},
    answers={"write_postcard": "Tiles, trams and light.", "where_to_save": ["file:///home/me/trips"]},
)
for key, request in card.rounds[0].input_requests.items():
    print(f"{key:28} -> {request['method']}")
print(card.text)

# %% [markdown]
# A real client answers these through the SDK's `sampling_callback` and `list_roots_callback` -- the
# same two callbacks a pre-2026 server would have called over its back channel (notebook 5).

# %% [markdown ko]
# 실제 클라이언트는 SDK의 `sampling_callback`과 `list_roots_callback`으로 이 요청들에 답합니다. 2026 이전
# 서버라면 백채널을 통해 호출했을 바로 그 두 콜백입니다(노트북 5).

# %% id=sdk-callbacks
from mcp.client import ClientRequestContext
from mcp.types import CreateMessageRequestParams, CreateMessageResult, ListRootsResult, Root


async def handle_sampling(context: ClientRequestContext, params: CreateMessageRequestParams) -> CreateMessageResult:
    return CreateMessageResult(
        role="assistant", content=TextContent(type="text", text="Wish you were here."), model="postcard-model"
    )


async def handle_roots(context: ClientRequestContext) -> ListRootsResult:
    return ListRootsResult(roots=[Root(uri="file:///home/me/postcards", name="postcards")])


callbacks = mcp_lab.CallbackAnswerer(sampling_callback=handle_sampling, list_roots_callback=handle_roots)
card = await mcp_lab.call("Travel", "postcard", {"city": "Porto"}, answers=callbacks)
print(card.text, "| answered by:", sorted(set(card.rounds[1].answered_by.values())))

# %% [markdown]
# ## Decline and cancel
#
# A person may say no (*decline*) or dismiss the question (*cancel*). What the tool sees depends on its
# annotation:
#
# - `Annotated[Region, Resolve(ask_region)]` -- the tool wants the **content**. With no content there is
#   nothing to call it with, so the call ends as a tool error (`isError`), naming the parameter and the
#   action.
# - `Annotated[ElicitationResult[Confirm], Resolve(ask_confirm)]` -- the tool receives the **whole
#   outcome** (`AcceptedElicitation`, `DeclinedElicitation` or `CancelledElicitation`) and decides.

# %% [markdown ko]
# ## 거절과 취소
#
# 사람은 거절할 수도 있고(*decline*) 질문을 닫아 버릴 수도 있습니다(*cancel*). 도구가 무엇을 받는지는
# 애너테이션에 달려 있습니다.
#
# - `Annotated[Region, Resolve(ask_region)]`: 도구는 **콘텐츠**를 원합니다. 콘텐츠가 없으면 도구를 호출할
#   값이 없으므로, 호출은 매개변수와 액션을 밝힌 도구 오류(`isError`)로 끝납니다.
# - `Annotated[ElicitationResult[Confirm], Resolve(ask_confirm)]`: 도구는 **결과 전체**(`AcceptedElicitation`,
#   `DeclinedElicitation`, `CancelledElicitation` 중 하나)를 받아 직접 판단합니다.

# %% id=unwrapped-refusal
for action in (mcp_lab.decline(), mcp_lab.cancel()):
    refused = await mcp_lab.call("Travel", "book", {"city": "Rome"}, answers={"ask_region": action, "ask_nights": {"nights": 2}})
    print(f"{action.action:8} isError={refused.result.is_error}: {refused.text}")

# %% id=elicitation-result
for action in (mcp_lab.decline(), mcp_lab.cancel(), {"ok": True}):
    outcome = await mcp_lab.call("Travel", "careful_book", {"city": "Rome"}, answers={"ask_confirm": action})
    print(f"isError={outcome.result.is_error}: {outcome.text}")

# %% [markdown]
# A client that cannot answer at all -- here the SDK's `Client` with no `elicitation_callback` -- does not
# even get a question: the server refuses the call, naming the capability the resolver needs.

# %% [markdown ko]
# 아예 답할 수 없는 클라이언트(여기서는 `elicitation_callback`이 없는 SDK의 `Client`)는 질문조차 받지
# 못합니다. 서버는 리졸버에 필요한 기능(capability)을 밝히며 호출을 거부합니다.

# %% id=missing-capability
from mcp import MCPError

async with Client(mcp) as client:
    try:
        await client.call_tool("book", {"city": "Rome"})
    except MCPError as exc:
        print(exc.error.code, exc.error.message)
        print(exc.error.data)

# %% [markdown]
# ## Signatures the SDK refuses
#
# Some mistakes are caught when the tool is **registered**: `@mcp.tool()` raises `InvalidSignature`. We
# try each on a scratch server and print the error (the same error would stop a `%%mcp_server` cell, as
# one line).

# %% [markdown ko]
# ## SDK가 거부하는 시그니처
#
# 어떤 실수는 도구를 **등록**할 때 잡힙니다. `@mcp.tool()`이 `InvalidSignature`를 일으킵니다. 아래에서는 각
# 실수를 임시 서버에서 시도해 보고 오류를 출력합니다(`%%mcp_server` 셀이었다면 같은 오류가 한 줄로 표시되며
# 셀이 멈춥니다).

# %%
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import InvalidSignature
from mcp.types import InputRequiredResult


def try_register(label, define):
    scratch = MCPServer("scratch", log_level="WARNING")
    try:
        define(scratch)
    except InvalidSignature as exc:
        print(f"{label}:\n  InvalidSignature: {exc}")
    else:
        print(f"{label}: registered")

# %% [markdown]
# **The two forms do not mix.** A call has only one `input_responses` / `request_state` channel, so a tool
# with `Resolve(...)` parameters cannot also return an `InputRequiredResult` from its body. Declaring that
# return type is refused at registration:

# %% [markdown ko]
# **두 형태는 섞어 쓸 수 없습니다.** 호출 하나에는 `input_responses` / `request_state` 채널이 하나뿐이므로,
# `Resolve(...)` 매개변수를 쓰는 도구는 본문에서 `InputRequiredResult`를 함께 반환할 수 없습니다. 그런 반환
# 타입을 선언하면 등록 시점에 거부됩니다.

# %% id=resolve-and-return
def resolvers_and_a_handmade_return(server):
    @server.tool()
    async def provision(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str | InputRequiredResult:
        return f"{city} in {region.region}"


try_register("Resolve parameters + an InputRequiredResult return", resolvers_and_a_handmade_return)

# %% [markdown]
# And the other rules about resolvers: a resolved parameter must not be wrapped in a union; every resolver
# parameter must be a `Context`, another dependency, or a tool argument by name; dependencies must not go
# round in a circle; and a resolver asks exactly one question.

# %% [markdown ko]
# 리졸버에 관한 나머지 규칙은 다음과 같습니다. 리졸버로 채우는 매개변수를 유니언으로 감싸서는 안 됩니다.
# 리졸버의 모든 매개변수는 `Context`, 다른 의존성, 또는 이름으로 받는 도구 인수여야 합니다. 의존성이 서로
# 물고 도는 순환을 이루어서도 안 됩니다. 그리고 리졸버 하나는 정확히 질문 하나만 합니다.

# %% id=invalid-signatures
def optional_dependency(server):
    @server.tool()
    async def maybe(city: str, region: Annotated[Region, Resolve(ask_region)] | None = None) -> str:
        return city


async def ask_with_unknown(country: str) -> Elicit[Region]:
    return Elicit(f"Which part of {country}?", Region)


def unknown_resolver_parameter(server):
    @server.tool()
    async def lost(city: str, region: Annotated[Region, Resolve(ask_with_unknown)]) -> str:
        return city


async def ask_chicken(egg: "Annotated[Region, Resolve(ask_egg)]") -> Elicit[Region]:
    return Elicit("Which came first?", Region)


async def ask_egg(chicken: Annotated[Region, Resolve(ask_chicken)]) -> Elicit[Region]:
    return Elicit("No, really?", Region)


def cycle(server):
    @server.tool()
    async def riddle(answer: Annotated[Region, Resolve(ask_chicken)]) -> str:
        return answer.region


async def ask_or_sample(city: str) -> Elicit[Region] | Sample:
    return Elicit(f"Which part of {city}?", Region)


def two_questions_in_one_resolver(server):
    @server.tool()
    async def greedy(city: str, region: Annotated[Region, Resolve(ask_or_sample)]) -> str:
        return city


try_register("Optional[Annotated[T, Resolve(...)]]", optional_dependency)
try_register("a resolver parameter that is nothing known", unknown_resolver_parameter)
try_register("resolvers depending on each other", cycle)
try_register("a resolver returning Elicit | Sample", two_questions_in_one_resolver)

# %% [markdown]
# **The mistake only a run can catch.** A tool with `Resolve(...)` parameters that does *not* declare an
# `InputRequiredResult` return registers fine -- and if its body returns one anyway, the call fails at run
# time. The client gets only `Error executing tool ...` with `isError`; the reason stays in the server's
# log, which we print here, one line per record.

# %% [markdown ko]
# **실행해야만 잡히는 실수.** `Resolve(...)` 매개변수를 쓰면서 `InputRequiredResult` 반환을 선언하지 *않은*
# 도구는 문제없이 등록됩니다. 그런데 본문이 그래도 `InputRequiredResult`를 반환하면 호출은 런타임에
# 실패합니다. 클라이언트는 `isError`와 함께 `Error executing tool ...`만 받고, 실제 이유는 서버 로그에
# 남습니다. 여기서는 그 로그를 레코드마다 한 줄씩 출력합니다.

# %% id=sneaky-return
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


@mcp.tool()
async def sneaky(city: str, region: Annotated[Region, Resolve(ask_region)]):
    return InputRequiredResult(request_state="one more thing")


caught = await mcp_lab.call("Travel", "sneaky", {"city": "Oslo"}, answers={"ask_region": {"region": "Grünerløkka"}})
print(f"isError={caught.result.is_error}: {caught.text}")

# %% [markdown]
# ## Exercise
#
# Add a tool `dinner(city)` to the Travel server (the `mcp` variable still holds it) whose second question
# **depends** on the first: a resolver `ask_guests(city)` asks *"How many guests in Lisbon?"* (a model
# with `guests: int`), and a resolver `ask_time` that takes that answer asks *"Dinner for 4 at what
# time?"* (a model with `time: str`). The tool returns `"Table for 4 at 19:30 in Lisbon."`.
#
# Then answer it the way an SDK client does, without mcp_lab: `Client(mcp, elicitation_callback=...)` and
# `await client.call_tool("dinner", {"city": "Lisbon"})`. Your callback gets each question's key as
# `context.request_id` (`'__main__:ask_guests'`, ...) and its text as `params.message`: append every message
# to a list `asked`, answer 4 guests at 19:30, and store the `CallToolResult` in `dinner_result`.

# %% [markdown ko]
# ## 연습 문제
#
# Travel 서버에(`mcp` 변수가 아직 이 서버를 가리킵니다) 두 번째 질문이 첫 번째 질문에 **의존**하는 도구
# `dinner(city)`를 추가하세요. 리졸버 `ask_guests(city)`는 *"How many guests in Lisbon?"*(`guests: int`
# 필드를 가진 모델)을 묻고, 그 답을 받는 리졸버 `ask_time`은 *"Dinner for 4 at what time?"*(`time: str`
# 필드를 가진 모델)을 묻습니다. 도구는 `"Table for 4 at 19:30 in Lisbon."`을 반환합니다.
#
# 그다음 mcp_lab 없이 SDK 클라이언트가 하는 방식으로 답하세요. `Client(mcp, elicitation_callback=...)`와
# `await client.call_tool("dinner", {"city": "Lisbon"})`을 사용합니다. 콜백은 각 질문의 키를
# `context.request_id`(`'__main__:ask_guests'`, ...)로, 질문 텍스트를 `params.message`로 받습니다. 모든
# 메시지를 리스트 `asked`에 추가하고, 손님 4명과 19:30으로 답한 뒤, `CallToolResult`를 `dinner_result`에
# 저장하세요.

# %% solution
# Your answer: add `dinner` and its two resolvers, then call it through the SDK's Client with your callback.
### BEGIN SOLUTION
from mcp.types import ElicitResult


class Guests(BaseModel):
    guests: int


class Time(BaseModel):
    time: str


async def ask_guests(city: str) -> Elicit[Guests]:
    return Elicit(f"How many guests in {city}?", Guests)


async def ask_time(party: Annotated[Guests, Resolve(ask_guests)]) -> Elicit[Time]:
    return Elicit(f"Dinner for {party.guests} at what time?", Time)


@mcp.tool()
async def dinner(city: str, party: Annotated[Guests, Resolve(ask_guests)],
                 when: Annotated[Time, Resolve(ask_time)]) -> str:
    return f"Table for {party.guests} at {when.time} in {city}."


asked = []


async def answer_dinner(context: ClientRequestContext, params) -> ElicitResult:
    asked.append(params.message)
    content = {"__main__:ask_guests": {"guests": 4}, "__main__:ask_time": {"time": "19:30"}}[context.request_id]
    return ElicitResult(action="accept", content=content)


async with Client(mcp, elicitation_callback=answer_dinner) as client:
    dinner_result = await client.call_tool("dinner", {"city": "Lisbon"})
### END SOLUTION

# %% check
mcp_lab.exercise_needs(dinner_result="the CallToolResult of your Client's dinner call", asked="the messages your callback saw")
text = dinner_result.content[0].text if getattr(dinner_result, "content", None) else None
assert type(dinner_result).__name__ == "CallToolResult" and not dinner_result.is_error, (
    f"expected a CallToolResult without isError, found {type(dinner_result).__name__}"
    f"{' with isError' if getattr(dinner_result, 'is_error', False) else ''}: {text!r}")
assert text == "Table for 4 at 19:30 in Lisbon.", f"expected 'Table for 4 at 19:30 in Lisbon.', found {text!r}"
expected = ["How many guests in Lisbon?", "Dinner for 4 at what time?"]
assert asked[-2:] == expected, f"expected your callback to see {expected} (in that order), found {asked}"
# The same tool, driven by mcp_lab: a dependent question is one more round (three legs).
probe = await mcp_lab.call("Travel", "dinner", {"city": "Porto"},
                           answers={"ask_guests": {"guests": 2}, "ask_time": {"time": "20:00"}})
legs = [rnd.outcome for rnd in probe.rounds]
assert legs == ["input_required", "input_required", "result"], (
    f"expected three legs (the time question needs the guests first), found {legs}: {probe.summary()}")
print("✔ well done:", text, "| asked, one round each:", expected)
