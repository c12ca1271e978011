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

# %%
%load_ext mcp_lab
import mcp_lab

# %% [markdown]
# ## The Briefing server
#
# The prompt is the docs' example, verbatim (`%%mcp_server Briefing` creates `mcp = MCPServer("Briefing")`
# for the cell). We add a template resource, `report://{quarter}`, that asks in the same way and also sets
# a `request_state` of its own, and a static resource, `doc://handbook`.

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

# %%
mcp_lab.forms.unattended(audience={"audience": "the board"})

# %%
prompt_flow = await %mcp_prompt Briefing briefing

# %% [markdown]
# On the retry `ctx.input_responses` holds the answer under the same key, `"audience"`, and the function
# returns its usual result -- for a prompt, the prompt's messages. (The docs' prompt sets no
# `request_state`: `input_requests` alone is a valid `InputRequiredResult`, so there is no token to echo.)

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

# %% id=resource-sealed
token = report_flow.rounds[0].request_state
print("client held a sealed token:", token.startswith("v1."), "| plain text visible:", "2026-Q3" in token)
print("the function read:", states_read)

# %% [markdown]
# And the seal is **checked** when the token comes back. Start a read of `report://2026-Q4`, but echo the
# token issued for Q3: the server refuses the round with its one frozen error, `-32602 Invalid or expired
# requestState`; the real reason goes only to its log (mcp_lab owns the server, so it shows it). Notebook 6
# takes the seal apart.

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

# %% id=static-resource
static = await %mcp_read Briefing doc://handbook
static

# %% [markdown]
# Try to give a static resource a `Context` and the SDK refuses at registration:

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
