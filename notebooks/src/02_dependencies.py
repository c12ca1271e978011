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
