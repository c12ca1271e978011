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
# difference is that the lab keeps that key, so it can show you what is inside. Notebook 6 also runs the
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
logging.getLogger("mcp.server.request_state").addHandler(server_log)
CONFIRMED = {"confirm": T.ElicitResult(action="accept", content={"yes": True})}


async def leg(url, bearer, **retry):
    """One `tools/call delete_note` over HTTP with `Authorization: Bearer <bearer>`: a result or the wire error."""
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {bearer}"}) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            try:
                return await client.session.call_tool("delete_note", {"note": "groceries"},
                                                       allow_input_required=True, **retry)
            except MCPError as exc:
                return exc


async def retry(url, bearer, state):
    """The second leg, confirmed: what the wire said, and what the server logged."""
    server_log.reasons.clear()
    outcome = await leg(url, bearer, input_responses=CONFIRMED, request_state=state)
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
await mcp_lab.sandbox.stop("notes")
await mcp_lab.sandbox.stop("notes-open")

# %% [markdown]
# `RequestStateSecurity(bind_principal=...)` fixes that with your own identity signal. The lab's signal is
# `mcp_lab.lab_principal`, the user name set by `mcp_lab.set_principal(...)` (the lab's servers run
# in-process or over unauthenticated HTTP, where `authenticated_principal` finds nobody). We re-seal `bank`
# with the same key ring and that binding. The token now carries `p` again.

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
# ## Bringing your own codec
#
# `RequestStateSecurity(codec=...)` accepts any object with `seal(bytes) -> str` and `unseal(str) -> bytes`
# that raises `InvalidRequestState` for a token it did not issue. The usual shape is **envelope
# encryption** with a KMS: unwrap one data key when the process starts, then encrypt each token locally.
# `mcp_lab.EnvelopeCodec` follows the SDK docs' example: a `kms1.` prefix (bound under the GCM tag as
# associated data), then hex of nonce + ciphertext, accepted only in the exact spelling `seal()` wrote.

# %% id=lab-codec
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
# That is the shape; here are the docs' own lines, run exactly as written. They end with the constructor
# that installs a codec: `MCPServer("Deployer", request_state_security=RequestStateSecurity(codec=...))`.

# %% id=docs-codec-server
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from mcp.server import MCPServer
from mcp.server.mcpserver import InvalidRequestState, RequestStateSecurity

PREFIX = "kms1."  # format version; fed to GCM as associated data, so it is bound under the tag


kms_calls = 0  # counted here, to show below that tokens never reach the KMS


def unwrap_data_key() -> bytes:
    """One KMS call at process start, kms.decrypt(CiphertextBlob=...); every token after that is local crypto."""
    global kms_calls, data_key
    kms_calls += 1
    data_key = os.urandom(32)  # stand-in for the unwrapped 32-byte data key (kept to open a token by hand below)
    return data_key


class EnvelopeCodec:
    def __init__(self, data_key: bytes) -> None:
        self._aesgcm = AESGCM(data_key)

    def seal(self, payload: bytes) -> str:
        nonce = os.urandom(12)
        return PREFIX + (nonce + self._aesgcm.encrypt(nonce, payload, PREFIX.encode())).hex()

    def unseal(self, token: str) -> bytes:
        if not token.startswith(PREFIX):
            raise InvalidRequestState("unknown token format")
        body = token[len(PREFIX) :]
        try:
            raw = bytes.fromhex(body)
            if raw.hex() != body:  # only the exact string seal() produced verifies
                raise ValueError("non-canonical hex")
            return self._aesgcm.decrypt(raw[:12], raw[12:], PREFIX.encode())
        except (ValueError, InvalidTag) as exc:
            raise InvalidRequestState("token failed verification") from exc


mcp = MCPServer("Deployer", request_state_security=RequestStateSecurity(codec=EnvelopeCodec(unwrap_data_key())))

# %% [markdown]
# Give that server one hand-made question and drive it with the SDK's `Client`, in memory. The token on
# the wire is the docs' codec's (`kms1.` + hex). A retry with one hex digit changed, or with the same token
# in upper case, is refused (the log shows the codec's own reason); the token as sealed finishes the call.
# The KMS was called once, at start-up, however many tokens were sealed and opened; and the prefix is bound:
# the token's bytes open with the associated data `kms1.` and fail with any other.

# %% id=docs-codec-run
STAGE = T.ElicitRequest(params=T.ElicitRequestFormParams(
    message="Release to which stage?", requested_schema={"type": "object", "properties": {"stage": {"type": "string"}}}))


@mcp.tool()
async def release(version: str, ctx: Context) -> str | T.InputRequiredResult:
    if ctx.input_responses is None:
        return T.InputRequiredResult(input_requests={"stage": STAGE}, request_state=f"release:{version}")
    return f"{version} released to {ctx.input_responses['stage'].content['stage']} ({ctx.request_state})"


stage = {"stage": T.ElicitResult(action="accept", content={"stage": "prod"})}
async with Client(mcp) as client:
    first = await client.session.call_tool("release", {"version": "1.2"}, allow_input_required=True)
    token = first.request_state
    print("on the wire:", token[:5], "+ hex digits only:", all(c in "0123456789abcdef" for c in token[5:]))
    flipped = token[:-1] + ("0" if token[-1] != "0" else "1")
    for label, echoed in [("one digit changed", flipped), ("upper-case hex", PREFIX + token[5:].upper()), ("as sealed", token)]:
        server_log.reasons.clear()
        try:
            done = await client.session.call_tool("release", {"version": "1.2"}, input_responses=stage,
                                                  request_state=echoed, allow_input_required=True)
            print(f"{label:17} -> {done.content[0].text}")
        except MCPError as exc:
            print(f"{label:17} -> {exc.error.code} {exc.error.message} | server logged: {', '.join(server_log.reasons)}")
print("KMS calls for 1 token sealed and 3 opened:", kms_calls)
# The prefix is GCM's associated data: the same nonce and ciphertext open under "kms1." and under no other.
raw = bytes.fromhex(token[len(PREFIX) :])
for aad in (PREFIX, "kms2."):
    try:
        AESGCM(data_key).decrypt(raw[:12], raw[12:], aad.encode())
        print(f"associated data {aad!r}: opens")
    except InvalidTag:
        print(f"associated data {aad!r}: InvalidTag (the prefix is bound under the tag)")

# %% [markdown]
# Install the lab's codec on a server with `mcp_lab.use_codec(...)`, which builds
# `RequestStateSecurity(codec=codec, bind_principal=...)` for the server. The codec knows nothing about time, requests or principals. The SDK still stamps the
# claims into the payload before `seal()` and checks them after `unseal()`, for every codec:

# %% id=deployer
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

# %% id=codec-claims
mcp_lab.use_codec(mcp_lab.sandbox.lab_server("deployer"), codec, bind_principal=mcp_lab.lab_principal)
rollout = await mcp_lab.start("deployer", "tools/call", "deploy", {"service": "api"})
await rollout.step()
print(rollout.request_state[:5], "...")
mcp_lab.inspect_token(rollout)

# %% id=codec-tamper
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
# questions is tell which question an answer in your state belongs to. First the flaw: `approvals` below is
# `approve` without a question id, its state says only that it asked. Ship a new version of the question
# while a flow is waiting, and the answer given to the **old** question is taken for the new one. The SDK
# sealed and verified the state, and nothing failed:

# %% id=question-unpinned
%%mcp_server approvals
import json

import mcp.types as T
from mcp.server.mcpserver import Context

UNPINNED = {"text": "Approve ticket {ticket}?"}
YES_NO = {"type": "object", "properties": {"yes": {"type": "boolean"}}, "required": ["yes"]}


@mcp.tool()
async def approve(ticket: str, ctx: Context) -> str | T.InputRequiredResult:
    answer = (ctx.input_responses or {}).get("approve")
    if not ctx.request_state or not isinstance(answer, T.ElicitResult) or not answer.content:
        ask = T.ElicitRequest(
            params=T.ElicitRequestFormParams(message=UNPINNED["text"].format(ticket=ticket), requested_schema=YES_NO)
        )
        return T.InputRequiredResult(input_requests={"approve": ask}, request_state=json.dumps({"asked": True}))
    verdict = "approved" if answer.content["yes"] else "refused"
    return f"{ticket} {verdict}; the question now reads {UNPINNED['text'].format(ticket=ticket)!r}"

# %% id=question-unpinned-run
unpinned = await mcp_lab.start("approvals", "tools/call", "approve", {"ticket": "T-6"})
await unpinned.step()
print("the reader was asked:", unpinned.rounds[-1].requests()["approve"].params.message)
UNPINNED.update(text="Approve ticket {ticket} (now with a budget check)?")  # redeployed while the flow waits
await unpinned.step(answers={"approve": {"yes": True}})
print("legs:", len(unpinned.rounds), "|", unpinned.text)
assert "approved" in unpinned.text and len(unpinned.rounds) == 2, (
    f"expected the old answer to be used for the new question in 2 legs, found {len(unpinned.rounds)}: {unpinned.text!r}")
await mcp_lab.sandbox.stop("approvals")

# %% [markdown]
# The fix is the one `approve` on `bank` carries: its own question id in its state, checked on the retry.
# The same redeploy, and the old answer is not used. The new question is asked instead:

# %% id=question-id
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

# %% id=plaintext-provisioner
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

# %% id=lowlevel-plain
%%mcp_server provisioner --lowlevel
on_list_tools, on_call_tool = provisioner()

# %% id=plaintext-state
db = await mcp_lab.start("provisioner", "tools/call", "provision", {"name": "orders"})
await db.step()
print("on the wire:", db.request_state)
cheat = await mcp_lab.resume(forged(db, state=db.request_state.replace("free", "enterprise")),
                             answers={"region": {"region": "eu-west-1"}})
print(cheat.text)
mcp_lab.inspect_token(db)

# %% [markdown]
# The client read the state and rewrote it, and the handler believed it. The SDK's opt-in is one line:
# append the `RequestStateBoundary` to the lowlevel server's middleware. Below, the same handlers again,
# and that line as the docs write it (here with a process-local key; `RequestStateSecurity(keys=[...])`
# for a fleet):

# %% id=lowlevel-seal
%%mcp_server provisioner --lowlevel --replace
on_list_tools, on_call_tool = provisioner()

# %% id=lowlevel-opt-in
from mcp.server.mcpserver import RequestStateBoundary, RequestStateSecurity

server.middleware.append(RequestStateBoundary(RequestStateSecurity.ephemeral(), default_audience=server.name))

# %% [markdown]
# (A convenience afterwards, not instead: `%%mcp_server NAME --lowlevel --seal` appends the same boundary
# with a key ring the lab holds, so the lab's token views can open what it sealed.)

# %% id=boundary-added
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
import base64
import json

minted = web.rounds[0].request_state
assert minted.startswith("sig1."), f"expected your tokens to start with 'sig1.', found {minted[:12]!r}..."
assert web.status == "done" and web.text == "web deployed to test (deploy:web)", (
    f"expected done: 'web deployed to test (deploy:web)', found {web.status}: {web.text!r} ({web.summary()})")
probe = await mcp_lab.start("deployer", "tools/call", "deploy", {"service": "web"})
await probe.step()
flip = probe.request_state[:-3] + ("A" if probe.request_state[-3] != "A" else "B") + probe.request_state[-2:]
refused = await mcp_lab.resume(forged(probe, state=flip), answers={"stage": {"stage": "x"}})
assert refused.rounds[-1].state_rejected, f"expected a flipped character to be refused, found {refused.summary()}"
readable = json.loads(base64.urlsafe_b64decode(minted[5:].split(".")[0]))
print("✔ well done. What anyone holding your token can read:", sorted(readable))
