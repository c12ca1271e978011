# %% [markdown]
# # 5 · Protecting requestState
#
# Between two legs of a multi round-trip call the client holds `request_state`: it writes it down,
# passes it to another worker, sends it back later. So what comes back to the server is **client input**.
# It may have been altered, it may have expired, or it may come from another call. The spec requires a
# server to protect the state's integrity whenever it can affect authorization, resource access or
# business logic, and to reject the round when the check fails.
#
# `MCPServer` does this without being asked. In this notebook you will see:
#
# 1. what the client holds (an opaque sealed token) and what the server's code reads (plaintext);
# 2. the four things a seal binds: a **time window**, the **principal**, the **original request**, and
#    the **exact question asked**;
# 3. the **tamper lab**: every altered token gets the same frozen `-32602` on the wire, while the real
#    reason goes only to the server log;
# 4. **your own codec**, in the envelope-encryption shape the SDK docs describe;
# 5. **hand-made state**, which is sealed too, except for one thing the SDK cannot check for you;
# 6. the **lowlevel server**, which sends its state in plaintext until you add the boundary.
#
# Keys and key rotation are the subject of notebook 6. About 20 minutes.

# %%
%load_ext mcp_lab
import json

import mcp_lab

# %% [markdown]
# ## A bank that asks
#
# `transfer` needs two answers from the user: a currency, then a confirmation that quotes the currency.
# The second question depends on the first, so the call takes three legs. The wording and the form of
# the first question are kept in a dictionary so that we can "redeploy" them later on. `approve` builds
# its `InputRequiredResult` by hand and writes its own plaintext state. `balance` never asks anything.

# %%
%%mcp_server bank
import json
from typing import Annotated

import mcp.types as T
from mcp.server.mcpserver import Context, Elicit, Resolve
from pydantic import BaseModel


class Currency(BaseModel):
    code: str


class Confirm(BaseModel):
    ok: bool


class CurrencyV2(Currency):
    note: str | None = None


QUESTION = {"wording": "Which currency should {account} pay in?", "form": Currency}


async def pick_currency(account: str) -> Elicit[Currency]:
    return Elicit(QUESTION["wording"].format(account=account), QUESTION["form"])


async def confirm(amount: int, currency: Annotated[Currency, Resolve(pick_currency)]) -> Elicit[Confirm]:
    return Elicit(f"Send {amount} {currency.code}?", Confirm)


@mcp.tool()
async def transfer(
    account: str,
    amount: int,
    currency: Annotated[Currency, Resolve(pick_currency)],
    ok: Annotated[Confirm, Resolve(confirm)],
) -> str:
    return f"Sent {amount} {currency.code} from {account}" if ok.ok else "Cancelled"


@mcp.tool()
def balance(account: str) -> str:
    return f"{account}: 1200 EUR"


@mcp.prompt()
def statement(account: str) -> str:
    return f"Summarise the statement of {account}."


@mcp.resource("bank://terms")
def terms() -> str:
    return "No overdrafts."


APPROVAL = {"id": "approve-v1", "text": "Approve ticket {ticket}?"}
YES_NO = {"type": "object", "properties": {"yes": {"type": "boolean"}}, "required": ["yes"]}


@mcp.tool()
async def approve(ticket: str, ctx: Context) -> str | T.InputRequiredResult:
    state = json.loads(ctx.request_state) if ctx.request_state else {}
    answer = (ctx.input_responses or {}).get("approve")
    # Our own question id rides in our own state: the SDK cannot tell which hand-made question an answer is for.
    if state.get("question") != APPROVAL["id"] or not isinstance(answer, T.ElicitResult) or not answer.content:
        ask = T.ElicitRequest(
            params=T.ElicitRequestFormParams(message=APPROVAL["text"].format(ticket=ticket), requested_schema=YES_NO)
        )
        return T.InputRequiredResult(input_requests={"approve": ask}, request_state=json.dumps({"question": APPROVAL["id"]}))
    verdict = "approved" if answer.content["yes"] else "refused"
    return f"{ticket} {verdict}; the handler read its state as {ctx.request_state}"

# %% [markdown]
# ## What travels, and what the server reads
#
# Take the first leg of a transfer. The client gets back a question and a token. The token starts with
# `v1.` (the SDK's AES-256-GCM format). Then come a 4-byte key id, a nonce, and ciphertext. Without the
# key, that is all anyone can see.
#
# (Like the SDK's default, the lab gives every server a random key of its own when it starts. The
# difference is that the lab keeps that key, so it can show you what is inside. Notebook 6 also runs the
# SDK's bare default.)

# %%
flow = await %mcp_call bank transfer account=acct-7 amount=100 --step
token = flow.rounds[0].request_state
print(token[:3], "...", "(a few hundred characters)" if len(token) > 200 else len(token))
mcp_lab.inspect_token(token)

# %% [markdown]
# The lab started `bank`, so it holds the server's key ring and can open the token the way the server
# does. Inside is a small set of **claims**, and in `s` is the state that the SDK's resolvers wrote
# (the question asked, waiting for its answer). Each claim is one of the bindings this notebook is about:
# `iat`/`exp` (time), `m`/`t`/`a` (method, target, arguments digest), `aud` (the server's name), and `p`
# (a principal, absent here).

# %%
mcp_lab.inspect_token(flow)

# %% [markdown]
# A hand-made state gets the same treatment, with no code change. `approve` writes the plaintext
# `{"question": "approve-v1"}`. On the wire it is a sealed `v1.` token. On the retry the handler reads
# its plaintext back from `ctx.request_state`.

# %%
approval = await mcp_lab.call("bank", "approve", {"ticket": "T-1"}, answers={"approve": {"yes": True}})
print(approval.rounds[0].request_state.startswith("v1."), "-", approval.text)

# %% [markdown]
# ## Bound to a time window
#
# Every round is sealed again with a fresh `iat` and `exp = iat + ttl` (600 s by default). So the ttl
# limits how long the user may think **per round**, not how long the whole flow may take. A clerk's
# server with a 0.5 s ttl asks three questions. The first two answers come 0.3 s after each question
# (0.6 s in all, longer than one ttl); the last one comes 0.6 s after its question.

# %%
%%mcp_server clerk --ttl 0.5
import mcp.types as T
from mcp.server.mcpserver import Context

FORM = {"type": "object", "properties": {"a": {"type": "string"}}}


@mcp.tool()
async def survey(ctx: Context) -> str | T.InputRequiredResult:
    step = int(ctx.request_state or "0")
    if step < 3:
        ask = T.ElicitRequest(params=T.ElicitRequestFormParams(message=f"Question {step + 1}?", requested_schema=FORM))
        return T.InputRequiredResult(input_requests={f"q{step + 1}": ask}, request_state=str(step + 1))
    return "survey complete"

# %%
import anyio

survey = await mcp_lab.start("clerk", "tools/call", "survey")
await survey.step()
for key, think in [("q1", 0.3), ("q2", 0.3), ("q3", 0.6)]:
    await anyio.sleep(think)  # the user thinks (never time.sleep: the kernel's loop keeps running)
    await survey.step(answers={key: {"a": "yes"}})
survey

# %% [markdown]
# The first two retries were accepted although the flow had been running longer than one ttl. The
# third was refused: its token expired while the user thought. Note the last line. The wire says only
# `-32602 Invalid or expired requestState`. The lab owns the server, so it can also show what the server
# **logged**: `expired`. The inspector shows that each round was sealed again with the same ttl:

# %%
for rnd in survey.rounds[:3]:
    claims = mcp_lab.inspect_token(rnd.request_state, server="clerk").claims
    print(f"round {rnd.index}: exp - iat = {claims['exp'] - claims['iat']:g} s, state {claims['s']!r}")

# %% [markdown]
# ## Bound to the original request
#
# The token records the method, the tool or prompt name (or resource URI), and a digest of the
# arguments. A saved flow is plain JSON, and the client holds it, so nothing stops a client from editing
# it. Here is a small forger: it loads a saved flow and changes what the next leg will ask for.

# %%
def forged(flow, state=None, **changes):
    """A saved flow, edited: what a careless or hostile client could send on its next leg."""
    data = json.loads(flow.to_json())
    data.update(changes)
    if state is not None:  # replace the token that the next leg echoes
        data["status"] = "input_required"
        data["rounds"][-1].update(outcome="input_required", request_state=state)
    return json.dumps(data)


same = dict(answers={"pick_currency": {"code": "EUR"}})
for label, change in [
    ("other arguments", dict(arguments={"account": "acct-7", "amount": 100000})),
    ("another tool", dict(target="balance", arguments={"account": "acct-7"})),
    ("another method", dict(method="prompts/get", target="statement", arguments={"account": "acct-7"})),
]:
    edited = await mcp_lab.resume(forged(flow, **change), **same)
    print(f"{label:16} -> {edited.summary().split(': ', 1)[1]}")

# %% [markdown]
# All three were rejected with the same frozen error, and the server logged `request binding` each time.
# The untouched flow is still good:

# %%
await mcp_lab.resume(flow, answers={"pick_currency": {"code": "EUR"}, "confirm": {"ok": True}})
print(flow.text)

# %% [markdown]
# ## Bound to the principal
#
# When a request carries an OAuth access token that the SDK verified, the state is bound to that
# token's **client, issuer and subject**. The SDK's default `bind_principal=authenticated_principal`
# computes this identity. You can call it yourself with the access tokens a verifier would produce:

# %%
from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.mcpserver import authenticated_principal


CLIENT = "https://notes.example/client.json"  # a URL-based OAuth client id, shared by every user of the app


def principal_of(user, *, verifier_gives_subject=True):
    """The principal the SDK binds for `user`'s verified access token (as AuthContextMiddleware sets it)."""
    access = AccessToken(token=f"token-of-{user}", client_id=CLIENT, scopes=[],
                         subject=user if verifier_gives_subject else None, claims={"iss": "https://id.example"})
    reset = auth_context_var.set(AuthenticatedUser(access))
    try:
        return authenticated_principal(None)
    finally:
        auth_context_var.reset(reset)


print("alice:", principal_of("alice"))
print("bob:  ", principal_of("bob"))
alice, bob = (principal_of(u, verifier_gives_subject=False) for u in ("alice", "bob"))
print("without a subject, alice:", alice)
print("alice and bob told apart without a subject?", alice != bob)

# %% [markdown]
# With a subject, Alice and Bob are different principals even though they share one OAuth client. If
# the verifier supplies no subject, the binding weakens to the client id. With a URL-based client id
# like this one, every user of that client software then shares the same principal.
#
# The lab's servers run in-process or over unauthenticated HTTP, so `authenticated_principal` returns
# `None` and there is nothing to bind. The check is then inactive, just as when authentication ends in a
# proxy in front of the server. The `bank` server binds no principal: a flow started "as Alice" finishes
# "as Bob" without complaint.

# %%
mcp_lab.set_principal("alice")
as_alice = await mcp_lab.start("bank", "tools/call", "approve", {"ticket": "T-2"})
await as_alice.step()
mcp_lab.set_principal("bob")
await as_alice.run(answers={"approve": {"yes": True}})
print(as_alice.status, "-", as_alice.text)

# %% [markdown]
# `RequestStateSecurity(bind_principal=...)` fixes that with your own identity signal. The lab's signal is
# `mcp_lab.lab_principal`, the user name set by `mcp_lab.set_principal(...)`. We re-seal `bank` with the
# same key ring and that binding. The token now carries `p`, a salted tag of the principal (never the name
# itself).

# %%
bank = mcp_lab.sandbox.lab_server("bank")
bank.install_ring(bank.ring, bind_principal=mcp_lab.lab_principal)

mcp_lab.set_principal("alice")
stolen = await mcp_lab.start("bank", "tools/call", "approve", {"ticket": "T-3"})
await stolen.step()
print("claim p present:", "p" in mcp_lab.inspect_token(stolen).claims)
mcp_lab.set_principal("bob")
await stolen.run(answers={"approve": {"yes": True}})
stolen

# %% [markdown]
# The identity signal has to be consistent. A signal that is present on one round and missing on the
# next changes the principal in the middle of the flow, and the round is rejected as `principal drift`.

# %%
mcp_lab.set_principal("alice")
drifting = await mcp_lab.start("bank", "tools/call", "approve", {"ticket": "T-4"})
await drifting.step()
mcp_lab.set_principal(None)
await drifting.run(answers={"approve": {"yes": True}})
print(drifting.error["message"], "| logged:", drifting.error["reason"])
mcp_lab.set_principal("alice")

# %% [markdown]
# ## Bound to the exact question asked
#
# Each resolver answer is pinned to a digest of the question as it was rendered for the client. The
# round-1 token records the digest of the question it **asked**. The round-2 token keeps the answer
# together with that same digest:

# %%
pinned = await mcp_lab.start("bank", "tools/call", "transfer", {"account": "acct-7", "amount": 5})
await pinned.step()
await pinned.step(answers={"pick_currency": {"code": "CHF"}})
asked = mcp_lab.inspect_token(pinned.rounds[0].request_state, server="bank", call=pinned).questions[0]
kept = mcp_lab.inspect_token(pinned, server="bank").questions[0]
print(f"round 1 asked {asked.key!r}: {asked.question!r}")
print(f"round 2 keeps {kept.key!r} = {kept.data}, pinned to the asked question: {kept.pinned == asked.asked}")

# %% [markdown]
# Now **redeploy** with new words for the currency question. Changing `QUESTION` does what a new release
# would do. The flow above already has the currency answer in its state, and the flow below is still
# waiting to send its answer. Neither answer is used: the server asks the reworded question again.

# %%
waiting = await mcp_lab.start("bank", "tools/call", "transfer", {"account": "acct-8", "amount": 9})
await waiting.step()

QUESTION["wording"] = "In which currency will {account} be charged?"  # the new release

await waiting.step(answers={"pick_currency": {"code": "USD"}})  # an answer to the old wording
await pinned.step(answers={"confirm": {"ok": True}})  # reuses the recorded answer to the old wording
display(waiting.rounds[-1], pinned.rounds[-1])
QUESTION["wording"] = "Which currency should {account} pay in?"

# %% [markdown]
# The words are not the only thing pinned. The digest covers the whole rendered question, so a release
# that changes only the **form** (here, a new optional `note` field) asks again too, with the very same
# message:

# %%
reform = await mcp_lab.start("bank", "tools/call", "transfer", {"account": "acct-9", "amount": 3})
await reform.step()
QUESTION["form"] = CurrencyV2  # same words, one more field in the form
await reform.step(answers={"pick_currency": {"code": "JPY"}})
display(reform.rounds[-1])
QUESTION["form"] = Currency

# %% [markdown]
# The same pinning works against you if a question is built from data that changes on every call, such as
# a timestamp or a live price. Each round renders a different question, so every recorded answer looks
# out of date. The server asks again until the client's round limit ends the call:

# %%
%%mcp_server ticker
import itertools
from typing import Annotated

from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

live_price = itertools.count(101)  # stands in for a live quote: different on every render


class Buy(BaseModel):
    ok: bool


async def ask_buy(symbol: str) -> Elicit[Buy]:
    return Elicit(f"Buy {symbol} at {next(live_price)}?", Buy)


@mcp.tool()
async def buy(symbol: str, ok: Annotated[Buy, Resolve(ask_buy)]) -> str:
    return f"bought {symbol}" if ok.ok else "no trade"

# %%
chasing = await mcp_lab.call("ticker", "buy", {"symbol": "ACME"}, answers={"ask_buy": {"ok": True}}, max_rounds=3)
print(chasing.status, "-", chasing.stop_reason)
print([r.requests()["__main__:ask_buy"].params.message for r in chasing.rounds])

# %% [markdown]
# The fix is the SDK docs' advice: build each message from the tool's **arguments**, which are the same on
# every leg, not from data that is fetched again on every call.
#
# ## The tamper lab: one frozen error, many reasons
#
# `tamper_lab` takes a real flow and sends altered versions of its token to the real server: one bit
# flipped, other arguments, another tool, a twin server with the same keys under another name, a token
# minted with a short ttl and retried late, a server restarted with a new key, other users, and the same
# valid token sent twice. Beside the wire answer it shows what the server logged and what the inspector
# predicted.

# %%
victim = await mcp_lab.start("bank", "tools/call", "approve", {"ticket": "T-5"})
await victim.step()
report = await mcp_lab.tamper_lab(victim)
report

# %% [markdown]
# Read the `wire:` column from top to bottom: `-32602 Invalid or expired requestState` every time. The
# wire never says which check failed. Only the server's log knows (`mcp.server.request_state`, at
# WARNING). Note also the last two rows: the seal stops forgery, not **replay**. A valid token can be
# sent again until it expires.

# %%
wire_answers = {case.wire for case in report.cases if case.logged}
print("distinct wire answers:", wire_answers)
print("distinct logged reasons:", sorted({case.logged for case in report.cases if case.logged}))

# %% [markdown]
# The check covers **every** `requestState` that arrives on `tools/call`, `prompts/get` or
# `resources/read`, even one sent to a handler that never issues state. A client that invents a plaintext
# state for `balance` is turned away before `balance` runs, and so is the same invention sent to the
# `statement` prompt or the static `bank://terms` resource:

# %%
plain = await mcp_lab.call("bank", "balance", {"account": "acct-7"})  # a plain result: balance never asks
invented = await mcp_lab.resume(forged(plain, state='{"role": "admin"}'))
display(invented.rounds[-1])
for method, target, arguments in [("prompts/get", "statement", {"account": "acct-7"}),
                                  ("resources/read", "bank://terms", {})]:
    elsewhere = await mcp_lab.resume(forged(plain, state='{"role": "admin"}', method=method, target=target,
                                            arguments=arguments))
    print(f"{method} {target}: {elsewhere.error['message']}; server log: {elsewhere.rounds[-1].server_log}")

# %% [markdown]
# ## Bringing your own codec
#
# `RequestStateSecurity(codec=...)` accepts any object with `seal(bytes) -> str` and `unseal(str) -> bytes`
# that raises `InvalidRequestState` for a token it did not issue. The usual shape is **envelope
# encryption** with a KMS: unwrap one data key when the process starts, then encrypt each token locally.
# `mcp_lab.EnvelopeCodec` follows the SDK docs' example: a `kms1.` prefix (bound under the GCM tag as
# associated data), then hex of nonce + ciphertext, accepted only in the exact spelling `seal()` wrote.

# %%
from mcp.server.mcpserver import InvalidRequestState

codec = mcp_lab.EnvelopeCodec(mcp_lab.EnvelopeCodec.unwrap_data_key())  # one "KMS call" at start-up
sealed = codec.seal(b'{"hello": "world"}')
print(sealed[:5], "...", codec.unseal(sealed))
for label, bad in [("an SDK v1. token", token), ("upper-case hex", sealed[:5] + sealed[5:].upper())]:
    try:
        codec.unseal(bad)
    except InvalidRequestState as exc:
        print(f"{label}: InvalidRequestState({exc})")

# %% [markdown]
# Install it on a server with `mcp_lab.use_codec(...)`, which builds
# `RequestStateSecurity(codec=codec, bind_principal=...)` for the server. The codec knows nothing about time, requests or principals. The SDK still stamps the
# claims into the payload before `seal()` and checks them after `unseal()`, for every codec:

# %%
%%mcp_server deployer
import mcp.types as T
from mcp.server.mcpserver import Context

ASK = T.ElicitRequest(params=T.ElicitRequestFormParams(
    message="Deploy to which stage?", requested_schema={"type": "object", "properties": {"stage": {"type": "string"}}}))


@mcp.tool()
async def deploy(service: str, ctx: Context) -> str | T.InputRequiredResult:
    if ctx.input_responses is None:
        return T.InputRequiredResult(input_requests={"stage": ASK}, request_state=f"deploy:{service}")
    return f"{service} deployed to {ctx.input_responses['stage'].content['stage']} ({ctx.request_state})"

# %%
mcp_lab.use_codec(mcp_lab.sandbox.lab_server("deployer"), codec, bind_principal=mcp_lab.lab_principal)
rollout = await mcp_lab.start("deployer", "tools/call", "deploy", {"service": "api"})
await rollout.step()
print(rollout.request_state[:5], "...")
mcp_lab.inspect_token(rollout)

# %%
codec_report = await mcp_lab.tamper_lab(rollout)
print({case.case: case.logged for case in codec_report.cases})
await mcp_lab.resume(rollout, answers={"stage": {"stage": "prod"}})
print(rollout.text)

# %% [markdown]
# The codec turned down the flipped token (`token failed verification`, its own message). Expiry, request
# binding, audience and the principal were checked by the SDK, around a codec that knows nothing about
# them. A codec
# owes integrity (raise on any tampering) and, ideally, confidentiality. Nothing more.
#
# ## Hand-made state: the question is yours to pin
#
# Everything above also applies to state you write yourself. One thing the SDK cannot do for hand-made
# questions is tell which question an answer in your state belongs to. That is why `approve` puts its own
# question id in its state and checks it on the retry. Ship a new version of the question while a flow is
# waiting, and the old answer is not used:

# %%
pending = await mcp_lab.start("bank", "tools/call", "approve", {"ticket": "T-6"})
await pending.step()
APPROVAL.update(id="approve-v2", text="Approve ticket {ticket} (now with a budget check)?")
await pending.step(answers={"approve": {"yes": True}})
pending.rounds[-1]

# %% [markdown]
# ## The lowlevel server: plaintext until you add the boundary
#
# The lowlevel `Server` has no built-in protection. Nothing is sealed until you append the
# `RequestStateBoundary` yourself. Until then `request_state` crosses the wire exactly as your handler
# wrote it. Here is a provisioner that keeps the customer's tier in its state. It is defined through a
# factory, so that the same handlers can be started twice.

# %%
import mcp.types as T

ASK_REGION = T.ElicitRequest(params=T.ElicitRequestFormParams(
    message="Which region should the database live in?",
    requested_schema={"type": "object", "properties": {"region": {"type": "string"}}, "required": ["region"]}))


def provisioner():
    async def list_tools(ctx, params) -> T.ListToolsResult:
        schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
        return T.ListToolsResult(tools=[T.Tool(name="provision", input_schema=schema)])

    async def call_tool(ctx, params: T.CallToolRequestParams) -> T.CallToolResult | T.InputRequiredResult:
        answer = (params.input_responses or {}).get("region")
        if not isinstance(answer, T.ElicitResult) or answer.content is None:
            state = json.dumps({"tier": "free"})  # decided by the server, from the caller's account
            return T.InputRequiredResult(input_requests={"region": ASK_REGION}, request_state=state)
        tier = json.loads(params.request_state)["tier"]
        text = f"Provisioned {params.arguments['name']!r} in {answer.content['region']} on the {tier} tier."
        return T.CallToolResult(content=[T.TextContent(type="text", text=text)])

    return list_tools, call_tool

# %%
%%mcp_server provisioner --lowlevel
on_list_tools, on_call_tool = provisioner()

# %%
db = await mcp_lab.start("provisioner", "tools/call", "provision", {"name": "orders"})
await db.step()
print("on the wire:", db.request_state)
cheat = await mcp_lab.resume(forged(db, state=db.request_state.replace("free", "enterprise")),
                             answers={"region": {"region": "eu-west-1"}})
print(cheat.text)
mcp_lab.inspect_token(db)

# %% [markdown]
# The client read the state and rewrote it, and the handler believed it. `--seal` adds the boundary
# (the SDK's one-line opt-in, `server.middleware.append(RequestStateBoundary(...))`, with a lab-held key):

# %%
%%mcp_server provisioner --lowlevel --seal --replace
on_list_tools, on_call_tool = provisioner()

# %%
print([type(m).__name__ for m in server.middleware])
db = await mcp_lab.start("provisioner", "tools/call", "provision", {"name": "orders"})
await db.step()
print("on the wire:", db.request_state[:3], "...")
cheat = await mcp_lab.resume(forged(db, state='{"tier": "enterprise"}'), answers={"region": {"region": "eu-west-1"}})
display(cheat.rounds[-1])
await mcp_lab.resume(db, answers={"region": {"region": "eu-west-1"}})
print(db.text)

# %% [markdown]
# ## Exercise
#
# A codec owes **integrity**, and confidentiality only "ideally". Write a **sign-only** codec: prefix
# `sig1.`, then the base64url payload, a `.`, and the base64url HMAC-SHA256 tag over prefix + payload. Its
# `unseal` must raise `InvalidRequestState` for anything it did not produce. Install it on `deployer` and
# run a `deploy` of service `web` to stage `test`. The cell after it checks that your tokens carry your
# prefix, that the flow finishes, and that a flipped character is refused. It also prints what a sign-only
# codec gives away: anyone holding the token can read its claims.

# %% solution
# Your answer: write the sign-only codec, install it on `deployer`, run the deploy and store it in `web`.
### BEGIN SOLUTION
import base64
import hashlib
import hmac
import secrets


class SignOnlyCodec:
    prefix = "sig1."

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _tag(self, payload: bytes) -> bytes:
        return hmac.new(self._key, self.prefix.encode() + payload, hashlib.sha256).digest()

    def seal(self, payload: bytes) -> str:
        encode = lambda raw: base64.urlsafe_b64encode(raw).decode()  # noqa: E731
        return f"{self.prefix}{encode(payload)}.{encode(self._tag(payload))}"

    def unseal(self, token: str) -> bytes:
        body, dot, tag = token.removeprefix(self.prefix).partition(".")
        try:
            if not token.startswith(self.prefix) or not dot:
                raise ValueError("not one of ours")
            payload = base64.urlsafe_b64decode(body)
            if not hmac.compare_digest(base64.urlsafe_b64decode(tag), self._tag(payload)):
                raise ValueError("bad tag")
        except ValueError as exc:
            raise InvalidRequestState("sign-only token failed verification") from exc
        return payload


mine = SignOnlyCodec(secrets.token_bytes(32))
mcp_lab.use_codec(mcp_lab.sandbox.lab_server("deployer"), mine)
web = await mcp_lab.start("deployer", "tools/call", "deploy", {"service": "web"})
await web.step()
await web.run(answers={"stage": {"stage": "test"}})
### END SOLUTION

# %% check
mcp_lab.exercise_needs(web='the flow of your deploy of web to test', mine='your codec')
minted = web.rounds[0].request_state
assert minted.startswith("sig1."), "tokens should carry your prefix"
assert web.status == "done" and web.text == "web deployed to test (deploy:web)", web.summary()
probe = await mcp_lab.start("deployer", "tools/call", "deploy", {"service": "web"})
await probe.step()
flip = probe.request_state[:-3] + ("A" if probe.request_state[-3] != "A" else "B") + probe.request_state[-2:]
refused = await mcp_lab.resume(forged(probe, state=flip), answers={"stage": {"stage": "x"}})
assert refused.rounds[-1].state_rejected, "a flipped character must be refused"
readable = json.loads(base64.urlsafe_b64decode(minted[5:].split(".")[0]))
print("✔ well done. What anyone holding your token can read:", sorted(readable))
