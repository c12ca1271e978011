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

# %%
%load_ext mcp_lab
import mcp_lab

# %% [markdown]
# ## One server
#
# `provision` depends on three things the client has: an answer from the user (`Elicit`), a text from the
# client's LLM (`Sample`) and the client's roots (`ListRoots`). `handmade` builds its
# `InputRequiredResult` itself. `old_style` uses the pre-2026 idiom, `await ctx.elicit(...)`.

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
