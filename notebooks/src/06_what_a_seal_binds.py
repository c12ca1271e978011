# %% [markdown]
# # 6 · What a seal binds
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
#    reason goes only to the server log.
#
# Your own codec, hand-made state and the lowlevel server are notebook 7; keys and key rotation are
# notebook 8. About 20 minutes.

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

# %% id=bank
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
# difference is that the lab keeps that key, so it can show you what is inside. Notebook 8 also runs the
# SDK's bare default.)

# %% id=keyless-view
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

# %% id=opened-token
mcp_lab.inspect_token(flow)

# %% [markdown]
# A hand-made state gets the same treatment, with no code change. `approve` writes the plaintext
# `{"question": "approve-v1"}`. On the wire it is a sealed `v1.` token. On the retry the handler reads
# its plaintext back from `ctx.request_state`.

# %% id=handmade-sealed
approval = await mcp_lab.call("bank", "approve", {"ticket": "T-1"}, answers={"approve": {"yes": True}})
print(approval.rounds[0].request_state.startswith("v1."), "-", approval.text)

# %% [markdown]
# ## Bound to a time window
#
# Every round is sealed again with a fresh `iat` and `exp = iat + ttl` (600 s by default). So the ttl
# limits how long the user may think **per round**, not how long the whole flow may take. A clerk's
# server with a 1.2 s ttl asks three questions. The first two answers come 0.6 s after each question
# (1.2 s in all, one whole ttl, and more with the legs themselves); the last one comes 1.8 s after its
# question.

# %% id=clerk
%%mcp_server clerk --ttl 1.2
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

# %% id=ttl-per-round
import anyio

survey = await mcp_lab.start("clerk", "tools/call", "survey")
await survey.step()
for key, think in [("q1", 0.6), ("q2", 0.6), ("q3", 1.8)]:  # each at least 0.6 s from the ttl
    await anyio.sleep(think)  # the user thinks (never time.sleep: the kernel's loop keeps running)
    await survey.step(answers={key: {"a": "yes"}})
survey

# %% [markdown]
# The first two retries were accepted although the flow had been running longer than one ttl. The
# third was refused: its token expired while the user thought. Note the last line. The wire says only
# `-32602 Invalid or expired requestState`. The lab owns the server, so it can also show what the server
# **logged**: `expired`. The inspector shows that each round was sealed again with the same ttl:

# %% id=resealed-each-round
for rnd in survey.rounds[:3]:
    claims = mcp_lab.inspect_token(rnd.request_state, server="clerk").claims
    print(f"leg {rnd.index + 1}: exp - iat = {claims['exp'] - claims['iat']:g} s, state {claims['s']!r}")

# %% [markdown]
# ## Bound to the original request
#
# The token records the method, the tool or prompt name (or resource URI), and a digest of the
# arguments. A saved flow is plain JSON, and the client holds it, so nothing stops a client from editing
# it. Here is a small forger: it loads a saved flow and changes what the next leg will ask for.

# %% id=request-binding
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

# %% id=untouched-flow
await mcp_lab.resume(flow, answers={"pick_currency": {"code": "EUR"}, "confirm": {"ok": True}})
print(flow.text)

# %% [markdown]
# ## Bound to the principal
#
# When a request carries an OAuth access token that the SDK verified, the state is bound to that
# token's **client, issuer and subject**. To see it, give a server real authentication, the SDK's own way:
# `MCPServer(..., token_verifier=..., auth=AuthSettings(...))`. For every HTTP request the SDK's bearer
# middleware hands the `Authorization: Bearer ...` token to the verifier, which answers with an
# `AccessToken` (client id, subject, and claims such as `iss`). The default
# `bind_principal=authenticated_principal` turns that into the principal the seal carries.
#
# Our verifier plays the authorization server's introspection endpoint. It knows four bearer tokens: Alice
# and Bob through the same notes app, Alice through another app, and Alice signed in at another issuer.
# `notes_server` builds a small server whose `delete_note` asks for a confirmation first; the lab adopts it
# (so that it can open its tokens) and serves it over loopback HTTP. Nothing of the lab's own identity
# helpers is involved: the policy is the SDK's default.

# %% id=principal-server
import mcp.types as T
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer, authenticated_principal

NOTES_APP = "https://notes.example/client.json"  # a URL-based OAuth client id: every user of the app has it
ISSUER = "https://id.example"
GRANTS = {  # bearer token -> (client id, issuer, subject), as the authorization server knows them
    "token-alice": (NOTES_APP, ISSUER, "alice"),
    "token-bob": (NOTES_APP, ISSUER, "bob"),
    "token-alice-other-app": ("https://other.example/client.json", ISSUER, "alice"),
    "token-alice-other-issuer": (NOTES_APP, "https://id.other.example", "alice"),
}


class Introspection:
    """A token verifier (the SDK's `TokenVerifier` protocol): what a bearer token stands for."""

    gives_subject = True  # some verifiers leave the subject out

    async def verify_token(self, token: str) -> AccessToken | None:
        if token not in GRANTS:
            return None
        client_id, issuer, subject = GRANTS[token]
        return AccessToken(token=token, client_id=client_id, scopes=[], claims={"iss": issuer},
                           subject=subject if self.gives_subject else None)


CONFIRM_FORM = {"type": "object", "properties": {"yes": {"type": "boolean"}}, "required": ["yes"]}


def notes_server(name: str, **auth) -> MCPServer:
    notes = MCPServer(name, log_level="WARNING", **auth)

    @notes.tool()
    async def delete_note(note: str, ctx: Context) -> str | T.InputRequiredResult:
        if ctx.input_responses is None:
            ask = T.ElicitRequest(params=T.ElicitRequestFormParams(message=f"Delete {note}?", requested_schema=CONFIRM_FORM))
            return T.InputRequiredResult(input_requests={"confirm": ask}, request_state=f"delete:{note}")
        return f"{note} deleted; the SDK's principal: {authenticated_principal(ctx.request_context)}"

    return notes


verifier = Introspection()
mcp_lab.sandbox.add(notes_server("notes", token_verifier=verifier,
                                 auth=AuthSettings(issuer_url=ISSUER, resource_server_url=None)))
notes_url = mcp_lab.serve("notes")

# %% [markdown]
# A leg is a plain SDK `Client` over HTTP whose requests carry one user's bearer token. The server's log
# (the SDK's `mcp.server.request_state` logger) is where a rejection's reason goes, so we listen to it.
# Alice starts a deletion; the token she holds now carries `p`, a salted tag of her principal:

# %% id=principal-first-leg
import logging

import httpx2
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client


class ServerLog(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.reasons = []

    def emit(self, record):
        self.reasons.append(record.getMessage().rsplit(": ", 1)[-1])


server_log = ServerLog()
reasons_logger = logging.getLogger("mcp.server.request_state")
for stale in [h for h in reasons_logger.handlers if type(h).__name__ == "ServerLog"]:
    reasons_logger.removeHandler(stale)  # run this cell again: its handler is replaced, not doubled
reasons_logger.addHandler(server_log)
CONFIRMED = {"confirm": T.ElicitResult(action="accept", content={"yes": True})}


async def leg(url, bearer, user=None, **retry):
    """One `tools/call delete_note` over HTTP with `Authorization: Bearer <bearer>`: a result or the wire error.

    `user`: the `X-Forwarded-User` header a proxy in front would add (used further down)."""
    headers = {"Authorization": f"Bearer {bearer}"} | ({"X-Forwarded-User": user} if user else {})
    async with httpx2.AsyncClient(headers=headers) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            try:
                return await client.session.call_tool("delete_note", {"note": "groceries"},
                                                       allow_input_required=True, **retry)
            except MCPError as exc:
                return exc


async def retry(url, bearer, state, user=None):
    """The second leg, confirmed: what the wire said, and what the server logged."""
    server_log.reasons.clear()
    outcome = await leg(url, bearer, user, input_responses=CONFIRMED, request_state=state)
    if isinstance(outcome, MCPError):
        return f"{outcome.error.code} {outcome.error.message} | server logged: {', '.join(server_log.reasons)}"
    return outcome.content[0].text


started = await leg(notes_url, "token-alice")
print(type(started).__name__, "| claims:", sorted(mcp_lab.inspect_token(started.request_state, server="notes").claims))

# %% [markdown]
# Now send Alice's token back: as Bob (same app, same issuer), as Alice through another app, as Alice from
# another issuer, as Alice after the verifier has stopped supplying her subject, and finally as Alice,
# unchanged:

# %% id=principal-retries
for label, bearer, with_subject in [
    ("bob, same app and issuer", "token-bob", True),
    ("alice, another app", "token-alice-other-app", True),
    ("alice, another issuer", "token-alice-other-issuer", True),
    ("alice, subject dropped", "token-alice", False),
    ("alice", "token-alice", True),
]:
    verifier.gives_subject = with_subject
    print(f"{label:25} -> {await retry(notes_url, bearer, started.request_state)}")

# %% [markdown]
# Each of the three components counts: changing any one of them (the subject, the client, the issuer) is
# a different principal, so the round is refused, with the same frozen error on the wire and `principal`
# in the log. A verifier that supplies the subject on one request and not on the next changes the
# principal in the middle of the flow, and the round in flight is refused the same way. The untouched
# token still works for Alice afterwards.
#
# If the verifier **never** supplies a subject, the binding weakens to the client id (and issuer). With a
# URL-based client id like this one, every user of the notes app then shares one principal: Bob can finish
# what Alice started. Another app still cannot.

# %% id=principal-no-subject
verifier.gives_subject = False
started = await leg(notes_url, "token-alice")
for label, bearer in [("bob, same app", "token-bob"), ("alice, another app", "token-alice-other-app")]:
    print(f"{label:19} -> {await retry(notes_url, bearer, started.request_state)}")
verifier.gives_subject = True

# %% [markdown]
# When authentication ends outside the SDK (a proxy in front) or the transport is unauthenticated, there
# is no principal to bind, and the check does nothing. Here is the same tool on a server without `auth`:
# the `Authorization` header still travels, but nothing in the SDK reads it. The token carries no `p`,
# and Bob finishes Alice's deletion.

# %% id=principal-unauthenticated
mcp_lab.sandbox.add(notes_server("notes-open"))
open_url = mcp_lab.serve("notes-open", auth=False)  # not even the lab's own secret: any local process may call
started = await leg(open_url, "token-alice")
print("claims:", sorted(mcp_lab.inspect_token(started.request_state, server="notes-open").claims))
print("bob ->", await retry(open_url, "token-bob", started.request_state))

# %% [markdown]
# `RequestStateSecurity(bind_principal=...)` fixes that with your own identity signal. Say the proxy in
# front signs users in and passes the name on in a header, `X-Forwarded-User`. `bind_principal` is called
# with the SDK's request context on every leg, both ways; here it reads that header. The docs' line, with
# our own keys (a configured policy takes exactly one of `keys=` or `codec=`):

# %% id=docs-bind-principal
import secrets

from mcp.server.mcpserver import RequestStateSecurity


def forwarded_user(ctx) -> str | None:
    """Your own identity signal: the user the proxy in front signed in (no request in-process: nobody)."""
    request = getattr(ctx, "request", None)
    return request.headers.get("x-forwarded-user") if request is not None else None


security = RequestStateSecurity(keys=[secrets.token_bytes(32)], bind_principal=forwarded_user)
mcp_lab.adopt(notes_server("notes-proxied", request_state_security=security))  # keeps its policy as written
proxied_url = mcp_lab.serve("notes-proxied", auth=False)
started = await leg(proxied_url, "token-alice", user="alice")
print("claims:", sorted(mcp_lab.inspect_token(started.request_state, server="notes-proxied").claims))
print("bob   ->", await retry(proxied_url, "token-bob", started.request_state, user="bob"))
print("alice ->", await retry(proxied_url, "token-alice", started.request_state, user="alice"))
for name in ("notes", "notes-open", "notes-proxied"):
    await mcp_lab.sandbox.stop(name)

# %% [markdown]
# The token carries `p` again, and Bob can no longer finish what Alice started.
#
# A convenience afterwards, not instead: the lab's own identity signal is `mcp_lab.lab_principal`, the user
# name set by `mcp_lab.set_principal(...)` (the lab's servers run in-process, where there is no request
# header and `authenticated_principal` finds nobody). `install_ring(ring, bind_principal=...)` re-seals a
# lab server with the same key ring and that binding -- the same `RequestStateSecurity(bind_principal=...)`
# underneath. Here on `bank`:

# %% id=bind-principal
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

# %% id=principal-drift
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

# %% id=question-digest
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

# %% id=reworded
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

# %% id=reformed
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

# %% id=ticker
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

# %% id=live-price
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

# %% id=tamper-lab
victim = await mcp_lab.start("bank", "tools/call", "approve", {"ticket": "T-5"})
await victim.step()
report = await mcp_lab.tamper_lab(victim)
report

# %% [markdown]
# Read the `wire:` column from top to bottom: `-32602 Invalid or expired requestState` every time. The
# wire never says which check failed. Only the server's log knows (`mcp.server.request_state`, at
# WARNING). Note also the last two rows: the seal stops forgery, not **replay**. A valid token can be
# sent again until it expires.

# %% id=one-wire-answer
wire_answers = {case.wire for case in report.cases if case.logged}
print("distinct wire answers:", wire_answers)
print("distinct logged reasons:", sorted({case.logged for case in report.cases if case.logged}))

# %% [markdown]
# The check covers **every** `requestState` that arrives on `tools/call`, `prompts/get` or
# `resources/read`, even one sent to a handler that never issues state. A client that invents a plaintext
# state for `balance` is turned away before `balance` runs, and so is the same invention sent to the
# `statement` prompt or the static `bank://terms` resource:

# %% id=every-method-checked
plain = await mcp_lab.call("bank", "balance", {"account": "acct-7"})  # a plain result: balance never asks
invented = await mcp_lab.resume(forged(plain, state='{"role": "admin"}'))
display(invented.rounds[-1])
for method, target, arguments in [("prompts/get", "statement", {"account": "acct-7"}),
                                  ("resources/read", "bank://terms", {})]:
    elsewhere = await mcp_lab.resume(forged(plain, state='{"role": "admin"}', method=method, target=target,
                                            arguments=arguments))
    print(f"{method} {target}: {elsewhere.error['message']}; server log: {elsewhere.rounds[-1].server_log}")


# %% [markdown]
# ## Exercise
#
# Write the configuration line yourself. Build an `MCPServer` called `vault` that seals with your own key
# and binds each token to the lab's identity signal:
# `RequestStateSecurity(keys=[...], bind_principal=mcp_lab.lab_principal)`. Give it a tool
# `open_box(box: str)` with a resolver `ask_open(box)` asking *"Open box B-2?"* (a model with `ok: bool`),
# returning `"box B-2 opened"` when confirmed. Bring it into the lab with `mcp_lab.adopt(vault)`. The check
# starts a call as Alice, tries to finish it as Bob, then finishes it as Alice.

# %% solution
# Your answer: build the MCPServer `vault` with its RequestStateSecurity and the tool, then adopt it.
### BEGIN SOLUTION
import secrets
from typing import Annotated

from mcp.server.mcpserver import Elicit, MCPServer, RequestStateSecurity, Resolve
from pydantic import BaseModel


class Open(BaseModel):
    ok: bool


async def ask_open(box: str) -> Elicit[Open]:
    return Elicit(f"Open box {box}?", Open)


vault = MCPServer("vault", log_level="WARNING", request_state_security=RequestStateSecurity(
    keys=[secrets.token_bytes(32)], bind_principal=mcp_lab.lab_principal))


@vault.tool()
async def open_box(box: str, ok: Annotated[Open, Resolve(ask_open)]) -> str:
    return f"box {box} opened" if ok.ok else f"box {box} stays shut"


mcp_lab.adopt(vault)
### END SOLUTION

# %% check
mcp_lab.exercise_needs(vault='your MCPServer "vault", adopted with mcp_lab.adopt(vault)')
mcp_lab.set_principal("alice")
box = await mcp_lab.start("vault", "tools/call", "open_box", {"box": "B-2"})
await box.step()
asked = [request["params"]["message"] for request in (box.rounds[0].input_requests or {}).values()]
assert asked == ["Open box B-2?"], f"expected one question 'Open box B-2?', found {asked}"
claims = mcp_lab.inspect_token(box).claims
assert "p" in claims, f"expected the token bound to a principal (claim p), found only {sorted(claims)}"
mcp_lab.set_principal("bob")
as_bob = await mcp_lab.resume(box.to_json(), answers={"ask_open": {"ok": True}})  # a copy of Alice's flow
reason = (as_bob.error or {}).get("reason")
assert reason == "principal", f"expected Bob's retry refused for 'principal', found {as_bob.summary()} (logged {reason!r})"
mcp_lab.set_principal("alice")
await mcp_lab.resume(box, answers={"ask_open": {"ok": True}})
assert box.text == "box B-2 opened", f"expected Alice's retry to give 'box B-2 opened', found {box.summary()}"
print("✔ well done: Bob was refused (principal), Alice finished:", box.text)
