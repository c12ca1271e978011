# %% [markdown] id=intro
# # 10 · Audit your own server
#
# The earlier notebooks showed what the 2026-07-28 rules for multi round-trip requests and header parameters
# say. This one checks a server against them. `mcp_lab.audit` (or `%mcp_audit NAME`) takes the calls you
# recorded against a server, sends them again -- changed the way each rule is about: a tampered
# `requestState`, a header that disagrees with the body, a client that declares no capabilities, a retry
# on a fresh connection -- and reports, rule by rule, what the server did.
#
# Every check quotes its rule (MUST or SHOULD, with the section of the specification it comes from), says
# what it sent and what came back, and gives a verdict: **kept**, **broken**, **warned**, or **not
# applicable**. The report starts with a summary, and its exit code is what a CI job gets: 0 when no MUST is
# broken, 1 when one is.
#
# The audit **only repeats calls you recorded**. A tool may charge a card or delete a file, so it never
# invents one; it only changes what a rule is about. (The one exception is listings such as `tools/list`,
# which are read-only.) Point it at a test deployment, not at production.
#
# In this notebook you will:
#
# 1. audit a server that keeps every rule, and read its report;
# 2. audit three servers with one flaw each -- a refund amount in a plaintext `requestState`, a header
#    parameter nobody checks, a question asked of a client that cannot answer -- and see each fail exactly
#    the rules it breaks;
# 3. bring in a server of your own, as it is, from its own module;
# 4. see the same audit as a CI step;
# 5. fix the third server yourself.
#
# About 15 minutes.

# %%
%load_ext mcp_lab
import mcp_lab

# %% [markdown]
# ## A server that keeps the rules
#
# A small shop: `refund` and `cancel` ask for a confirmation with a dependency (the SDK returns the
# `InputRequiredResult` and seals its state), and `stock` marks its `region` argument with `x-mcp-header`.
# It is served over Streamable HTTP, where header parameters and `Origin` exist. `--ttl 2` makes its sealed
# state expire after two seconds, so the audit can wait for a token to expire; with the default 600 s it
# would say it skipped that check.

# %% id=shop
%%mcp_server shop --http --ttl 2
from typing import Annotated

from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

AMOUNTS = {1: 25, 2: 40}


class Confirm(BaseModel):
    ok: bool


async def confirm(order: int) -> Elicit[Confirm]:
    return Elicit(f"Go ahead with order {order}?", Confirm)


@mcp.tool()
async def refund(order: int, ok: Annotated[Confirm, Resolve(confirm)]) -> str:
    return f"Refunded order {order} ({AMOUNTS[order]} EUR)" if ok.ok else f"order {order} left alone"


@mcp.tool()
async def cancel(order: int, ok: Annotated[Confirm, Resolve(confirm)]) -> str:
    return f"Cancelled order {order}" if ok.ok else f"order {order} left alone"


@mcp.tool()
def stock(title: str, region: Annotated[str, mcp_lab.header("Region")]) -> str:
    return f"{title}: 3 copies in {region}"

# %% [markdown]
# Record a few calls, as you would while trying the server out. Two refunds with different arguments let
# the audit carry one call's token over to the other; a second tool that asks lets it try a token on
# another tool.

# %% id=record-shop
yes = {"confirm": {"ok": True}}
for order in (1, 2):
    print((await mcp_lab.call("shop", "refund", {"order": order}, answers=yes)).text)
print((await mcp_lab.call("shop", "cancel", {"order": 1}, answers=yes)).text)
print((await mcp_lab.call("shop", "stock", {"title": "Dune", "region": "eu-west"})).text)

# %% [markdown]
# Now the audit. `%mcp_audit shop` repeats this kernel's recorded calls for `shop`. In JupyterLab the report
# opens with its summary; each rule below it expands to its words, its probes and their evidence. The text
# version (below, and in a CI log) lists every rule with its verdict, and shows the specification's words
# and every probe only for a rule that is broken or warned.

# %% id=audit-shop
report = await %mcp_audit shop
report

# %% [markdown]
# Sixteen rules kept. A report is data: the verdicts, the checks, and the flows each check sent. Here is what
# the integrity check sent -- the recorded refund, its first retry carrying a token with one bit flipped,
# cut short, spliced with another token -- and what the server said each time:

# %% id=read-a-check
check = report.check("state-integrity")
print(check.rule.level, check.rule.section)
print(check.rule.quote)
for probe in check.probes:
    print(f"- {probe.name}: {probe.came_back} => {probe.verdict}")
print(report.exit_code, report.failed())

# %% [markdown]
# `(server logged: seal)`: the lab owns this server, so beside the frozen wire error it shows the reason the
# server logged (notebook 6). A server you connected to with `%mcp_connect` gets the same audit, without
# that column.
#
# ## Broken server 1: the refund amount in a plaintext `requestState`
#
# A lowlevel `Server` seals nothing unless you add the boundary (notebook 7). This one writes the amount
# into its state and, on the retry, pays what the state says. Otherwise it behaves: it asks only a client
# that declared elicitation, asks again when the answer is missing, and refuses a state it cannot read.
# The handlers come from a function here, so the server can be defined twice below.

# %% id=till-handlers
import json

import mcp.types as T
from mcp import MCPError
from mcp_types import MISSING_REQUIRED_CLIENT_CAPABILITY

ORDER = {"type": "object", "properties": {"order": {"type": "integer"}}, "required": ["order"]}
CONFIRM = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def reply(text):
    return T.CallToolResult(content=[T.TextContent(type="text", text=text)])


def ask(ctx, key, message, schema):
    """The question, for a client that declared elicitation; -32021 for one that did not."""
    capabilities = ctx.session.client_capabilities
    if capabilities is None or capabilities.elicitation is None:
        raise MCPError(code=MISSING_REQUIRED_CLIENT_CAPABILITY, message="declare elicitation to use this tool")
    return {key: T.ElicitRequest(params=T.ElicitRequestFormParams(message=message, requested_schema=schema))}


def till():
    """The till's handlers (a fresh pair each time: `%%mcp_server` takes the handlers a cell defines)."""

    async def on_list_tools(ctx, params):
        return T.ListToolsResult(tools=[T.Tool(name="refund", input_schema=ORDER)])

    async def on_call_tool(ctx, params):
        order = params.arguments["order"]
        answer = (params.input_responses or {}).get("confirm")
        if answer is None or answer.content is None:
            state = json.dumps({"order": order, "amount": {1: 25, 2: 40}[order]})
            question = ask(ctx, "confirm", f"Refund order {order}?", CONFIRM)
            return T.InputRequiredResult(input_requests=question, request_state=state)
        try:
            amount = json.loads(params.request_state)["amount"]
        except (TypeError, ValueError, KeyError):
            raise MCPError(code=-32602, message="unreadable requestState") from None
        return reply(f"Refunded order {order} ({amount} EUR)")  # pays what the state says

    return on_list_tools, on_call_tool

# %% id=till
%%mcp_server till --lowlevel --http
on_list_tools, on_call_tool = till()

# %% [markdown]
# Record two refunds, then audit. The lab holds no key for this server, so it does not know how long its
# state lives: `lifetime=2` says "a token older than two seconds should be refused".

# %% id=audit-till
for order in (1, 2):
    print((await mcp_lab.call("till", "refund", {"order": order}, answers=yes)).text)
till_report = await mcp_lab.audit("till", lifetime=2)
till_report

# %% [markdown]
# Three rules broken -- integrity (a MUST: the exit code is 1), and the SHOULDs that a seal would have kept:
# bound to the request that minted it, and expiring -- and one warning: the state is readable. The report
# shows the probe that did the damage: the amount edited from 25 to 26 in the token, and the handler paid
# it. Its evidence is the flow the audit sent, leg by leg:

# %% id=till-evidence
print(till_report.failed())
till_report.flows("state-integrity")[-1]

# %% [markdown]
# The fix is the SDK's one-line opt-in, the sealing boundary (`--seal` here). The same handlers, the same
# recorded calls, audited again:

# %% id=till-sealed
%%mcp_server till --lowlevel --seal --ttl 2 --http
on_list_tools, on_call_tool = till()

# %% id=audit-till-sealed
sealed = await mcp_lab.audit("till")
print(sealed.record.headline)
print(sealed.exit_code, sealed.failed())

# %% [markdown]
# ## Broken server 2: a header parameter nobody checks
#
# A gateway routes `stock` by its `Mcp-Param-Region` header; the tool runs with the body's `region`. The
# SDK checks that the two agree -- when it finds the tool's schema. This lowlevel server "saves" the lookup:
# its `get_tool_input_schema` returns `None`, and the SDK lets every header through (fail-open).

# %% id=depot
%%mcp_server depot --lowlevel --seal --http
STOCK = T.Tool(name="stock", input_schema={
    "type": "object",
    "properties": {"title": {"type": "string"}, "region": {"type": "string", "x-mcp-header": "Region"}},
    "required": ["title", "region"],
})


async def on_list_tools(ctx, params):
    return T.ListToolsResult(tools=[STOCK])


async def on_call_tool(ctx, params):
    return reply(f"{params.arguments['title']}: 3 copies in {params.arguments['region']}")


def get_tool_input_schema(name):
    return None  # the flaw: no schema, so no header is checked

# %% id=audit-depot
print((await mcp_lab.call("depot", "stock", {"title": "Dune", "region": "eu-west"})).text)
depot_report = await %mcp_audit depot
print(depot_report.failed())
for probe in depot_report.check("header-mismatch").probes + depot_report.check("header-missing").probes:
    print(f"- {probe.name}: HTTP {probe.status}, {probe.came_back}")

# %% [markdown]
# The gateway was told `eu-west-other` (and, in the sentinel form, the same), or nothing at all, and the
# tool ran in `eu-west` each time. Both rules are MUSTs of Streamable HTTP; over stdio or in-process there
# are no headers and the audit says those checks do not apply.
#
# ## Broken server 3: a question for a client that cannot answer
#
# An `MCPServer` tool may return its own `InputRequiredResult` (notebook 4). The SDK seals its state; what
# it does not do is look at the client's capabilities -- its resolvers answer `-32021` to a client that did
# not declare elicitation, but a hand-made `InputRequiredResult` goes out as it is. The specification: a
# server MUST NOT send an input request the client has not declared support for.

# %% id=reminders
%%mcp_server reminders --http --ttl 2
from mcp.server.mcpserver import Context
from mcp.types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult

WHEN = ElicitRequest(params=ElicitRequestFormParams(
    message="When should I remind you?",
    requested_schema={"type": "object", "properties": {"when": {"type": "string"}}, "required": ["when"]},
))


@mcp.tool()
async def remind(note: str, ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("when")
    if answer is None or answer.content is None:
        return InputRequiredResult(input_requests={"when": WHEN}, request_state=note)  # asks everyone
    return f"I will remind you to {ctx.request_state} {answer.content['when']}"

# %% id=audit-reminders
at_six = {"when": {"when": "at 6"}}
print((await mcp_lab.call("reminders", "remind", {"note": "water the plants"}, answers=at_six)).text)
reminders_report = await mcp_lab.audit("reminders")
print(reminders_report.record.headline)
print(reminders_report.failed())
print(reminders_report.check("capabilities").probes[0].came_back)

# %% [markdown]
# ## Your own server, as it is
#
# The servers above were written in `%%mcp_server` cells. Yours lives in its own module, built your way,
# with its own `request_state` security. Bring it in as it is: `%mcp_server NAME --from module:attribute`
# (the attribute is the server object, or a function that builds it with no arguments), or
# `mcp_lab.adopt(server, name=...)` from Python. It keeps its own keys, token lifetime and audience: the lab
# swaps in a key ring of its own only when you ask (`--lab-keys`, `take_keys=True`). Because the server runs
# in this kernel, the lab can still reach its codec, so `inspect_token` opens its tokens. A server running in
# another process is connected instead (`%mcp_connect`), and then only the views that need no key work:
# flows with every HTTP exchange, the keyless token report, header tables and labs, `%mcp_describe`.
#
# The next cell writes a small ticketing server to a module of its own, as your file would be. Like many
# server modules, it calls `logging.basicConfig(level=logging.INFO)`.

# %% id=own-module
import pathlib
import sys
import tempfile

folder = pathlib.Path(tempfile.mkdtemp(prefix="my-server-"))
(folder / "ticketing.py").write_text('''
import logging
from typing import Annotated

from mcp.server.mcpserver import Elicit, MCPServer, RequestStateSecurity, Resolve
from pydantic import BaseModel, Field

logging.basicConfig(level=logging.INFO)
log = logging.getLogger("ticketing")


class Severity(BaseModel):
    level: str


async def ask_severity(title: str) -> Elicit[Severity]:
    return Elicit(f"How bad is {title!r}?", Severity)


def build_server() -> MCPServer:
    security = RequestStateSecurity.ephemeral(ttl=300, audience="tickets.example")
    server = MCPServer("ticketing", request_state_security=security)

    @server.tool()
    async def open_ticket(
        title: str,
        team: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Team"})],
        severity: Annotated[Severity, Resolve(ask_severity)],
    ) -> str:
        log.info("opening %s for %s", title, team)
        return f"{team} ticket {title!r} opened ({severity.level})"

    return server
''')
sys.path.insert(0, str(folder))

# %% [markdown]
# Adopt it. The line after says what the lab can see of its tokens.

# %% id=adopt-own
%mcp_server tickets --from ticketing:build_server

# %% [markdown]
# Call it, and open the token it sealed under its own key. The audience is its own (`tickets.example`), not
# the lab's name for it.

# %% id=call-own
flow = await mcp_lab.call("tickets", "open_ticket", {"title": "Printer", "team": "infra"},
                          answers={"ask_severity": {"level": "high"}})
report = mcp_lab.inspect_token(flow)
print(flow.text)
print(report.verdict, report.verified, report.expected["aud"])
print(report.can_open)

# %% [markdown]
# What does it offer? `%mcp_describe` shows what any client learns before calling anything: the server's
# name, its capabilities, the protocol version the lab negotiated, and every tool as a signature, with the
# `Mcp-Param-*` header each marked argument travels in (the HTML and JupyterLab views open each schema).

# %% id=describe-own
%mcp_describe tickets

# %% [markdown]
# The module's `logging.basicConfig(level=logging.INFO)` did not make the notebook print every HTTP request
# from here on: the lab took that set-up off the root logger, and keeps what the server logs in its own log,
# shown on request (`%mcp_server log tickets`). Its first line says what happened:

# %% id=log-own
print(mcp_lab.server_log("tickets").text.splitlines()[0])

# %% [markdown]
# ## In CI
#
# The same audit runs from the command line against a server a CI job starts, repeating a collection saved
# from the notebook (`mcp_lab.save_flows`: arguments and answers, no tokens):
#
# ```bash
# python -m mcp_lab audit shop.flows.json --server http://127.0.0.1:8000/mcp --junit audit.xml
# python -m mcp_lab audit shop.flows.json --stdio "python server.py" --json audit.json --skip state-lifetime
# ```
#
# It prints the text report, writes JSON and JUnit XML on request (each rule a test case; a broken rule a
# failure typed MUST or SHOULD; a rule that does not apply a skipped case), and exits 0 when no MUST is
# broken, 1 when one is, 2 when the audit could not run. The JUnit of the first broken server:

# %% id=junit
print(till_report.junit()[:600])

# %% [markdown]
# ## Exercise
#
# Give `reminders` a tool that keeps the rule: `remind_safely(note)` asks "When should I remind you?" (the
# `WHEN` question) only of a client whose `ctx.client_capabilities` declares elicitation, and otherwise
# raises `MCPError` with the code `MISSING_REQUIRED_CLIENT_CAPABILITY`. Add it to the running server
# (`mcp_lab.sandbox.get("reminders").server` is the `MCPServer`), record one call of it with the answer
# `at_six`, and audit `reminders` with only that call (`flows=[...]`), storing the report in `fixed`.

# %% solution
# Your answer: add `remind_safely`, call it once, and store the audit of that call in `fixed`.
### BEGIN SOLUTION
server = mcp_lab.sandbox.get("reminders").server


@server.tool()
async def remind_safely(note: str, ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("when")
    if answer is None or answer.content is None:
        capabilities = ctx.client_capabilities
        if capabilities is None or capabilities.elicitation is None:
            raise MCPError(code=MISSING_REQUIRED_CLIENT_CAPABILITY, message="remind_safely asks when: declare elicitation")
        return InputRequiredResult(input_requests={"when": WHEN}, request_state=note)
    return f"I will remind you to {ctx.request_state} {answer.content['when']}"


safely = await mcp_lab.call("reminders", "remind_safely", {"note": "water the plants"}, answers=at_six)
fixed = await mcp_lab.audit("reminders", [safely])
### END SOLUTION

# %% check
mcp_lab.exercise_needs(fixed="the audit of one remind_safely call")
expected = ['tools/call remind_safely {"note": "water the plants"}']
assert fixed.record.flows == expected, f"expected the audit of {expected}, found {fixed.record.flows}"
assert fixed.verdicts()["capabilities"] == "pass", (
    f"expected capabilities: pass, found {fixed.verdicts()['capabilities']}: {fixed.check('capabilities').probes[0].came_back}")
assert fixed.exit_code == 0 and fixed.failed() == [], f"expected no failed check, found {fixed.failed()}:\n{fixed.text()}"
print("✔ well done:", fixed.check("capabilities").probes[0].came_back)
