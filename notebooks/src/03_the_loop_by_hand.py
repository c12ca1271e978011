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

# %% id=step-one
flow = await %mcp_call tickets book_ticket event=Tosca --step
flow

# %% [markdown]
# The question's key is the resolver's `module:qualname`; mcp_lab lets you answer it by the bare name
# after the colon. The token is sealed (`v1.` + key id + nonce + ciphertext): the client only echoes it.

# %% id=pending-keys
print(list(flow.pending_requests))
print(flow.rounds[0].request_state[:3], len(flow.rounds[0].request_state) > 100)

# %% [markdown]
# Each `await flow.step(...)` answers the pending questions and sends the next leg, with the token echoed
# byte for byte. The answer to the first question unlocks the second question.

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

# %% id=write-down
with open("tickets_flow.json", "w") as f:
    f.write(flow.to_json())
print(flow.status, len(flow.rounds), "rounds written down")

# %% [markdown]
# Now a **separate Python process** -- think of another worker of a distributed client -- loads the file,
# runs the same server code with the same key, answers the remaining question and finishes the call.

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

# %% id=lab-round-cap
capped = await mcp_lab.call("tickets", "nag", answers={"again": {"yes": True}}, max_rounds=3)
print(capped.status, "after", len(capped.rounds), "legs")
print(capped.stop_reason)

# %% [markdown]
# ## State-only rounds back off
#
# An `InputRequiredResult` may carry only `request_state` -- "not done yet". The client then waits before
# retrying: 50 ms, doubling up to 250 ms, exactly as the SDK's driver does, so it does not busy-poll.

# %% id=lab-backoff
polled = await mcp_lab.call("tickets", "warm_up")
print(polled.text)
print([int(r.backoff * 1000) for r in polled.rounds])

# %% [markdown]
# ## A wall-clock limit
#
# Rounds are not the only budget: `timeout=` stops the flow after that many seconds, cleanly, with the
# last token still in hand -- so it can be resumed later.

# %% id=wall-clock
slow = await mcp_lab.call("tickets", "warm_up", timeout=0.1)
print(slow.status, "-", slow.stop_reason.split(" after")[0])
await mcp_lab.resume(slow)
print(slow.status, "-", slow.text)

# %% [markdown]
# The SDK docs put it in their own words: with the manual loop, wrap it in `anyio.fail_after(...)`
# instead of relying on `input_required_max_rounds`. The same, bare:

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
