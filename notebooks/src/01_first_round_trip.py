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

# %%
mcp_lab.forms.unattended(region={"region": "eu-west-1"})

# %%
flow = await %mcp_call Provisioner provision name=orders
print(flow.text)

# %% [markdown]
# The call took **two legs**. `flow` is the record of both; it displays as a timeline (in JupyterLab with
# the mcp_lab extension, as a table with the sealed-token details and timings).

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

# %% id=leg-two
second = flow.rounds[1]
print(list(second.sent_input_responses), second.sent_input_responses["region"])
print("token echoed unchanged:", second.sent_request_state == first.request_state)
print(second.outcome, flow.result.content[0].text)

# %% [markdown]
# And from the server's side -- the `legs_seen` line we added. On the first leg `params.input_responses`
# is `None`, so the guard fires and the handler *asks* instead of answering. On the retry the client's
# `ElicitResult` sits under the key the server used in `input_requests`, `"region"`.

# %% id=legs-seen
for number, seen in enumerate(legs_seen, 1):
    print(f"leg {number}: input_responses = {seen!r}")

# %% [markdown]
# ## Answer it by a script
#
# A form needs a person. A script says beforehand what to answer, keyed by the input-request key: a dict
# is an accepted elicitation's content. The magic takes `--answers` as JSON; the Python API takes a dict.

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
