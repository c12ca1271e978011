# %% [markdown]
# # 7 · Codecs, hand-made state and the lowlevel Server
#
# Notebook 6 showed what a seal binds: time, principal, the original request, the exact question. All of
# it is the SDK's work, whatever seals the bytes. This notebook is about the parts you may write yourself:
#
# 1. **your own codec**, `RequestStateSecurity(codec=...)`, in the envelope-encryption shape the SDK docs
#    describe (a KMS unwraps one data key at start-up) -- and what the SDK still checks around it;
# 2. **hand-made state**, sealed like resolver state, except for one thing the SDK cannot check for you:
#    which of your questions an answer belongs to;
# 3. the **lowlevel server**, which sends its state in plaintext until you add the boundary -- one line.
#
# About 15 minutes.

# %%
%load_ext mcp_lab
import json
import logging

import mcp.types as T
from mcp import Client, MCPError
from mcp.server.mcpserver import Context

import mcp_lab

# %% [markdown]
# Two small tools first. The SDK logs the real reason for a refused `requestState` on its
# `mcp.server.request_state` logger (the wire only says `-32602`), so we listen to it. And a saved flow is
# plain JSON the client holds: `forged` edits one the way a careless or hostile client could.

# %% id=tools
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


def forged(flow, state=None, **changes):
    """A saved flow, edited: what a careless or hostile client could send on its next leg."""
    data = json.loads(flow.to_json())
    data.update(changes)
    if state is not None:  # replace the token that the next leg echoes
        data["status"] = "input_required"
        data["rounds"][-1].update(outcome="input_required", request_state=state)
    return json.dumps(data)

# %% [markdown]
# And the approval desk of notebook 6's bank: `approve` builds its `InputRequiredResult` by hand and keeps
# its own question id in its plaintext state (we come back to why). Its first leg gives us an SDK token to
# compare codecs with.

# %% id=desk
%%mcp_server desk
import json

import mcp.types as T
from mcp.server.mcpserver import Context

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

# %% id=sdk-token
first_leg = await mcp_lab.start("desk", "tools/call", "approve", {"ticket": "T-1"})
await first_leg.step()
token = first_leg.request_state
print("the SDK's own format:", token[:3], "...")

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
mcp_lab.set_principal("alice")  # the lab's identity signal of notebook 6, bound below with bind_principal=
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
# The fix is the one `approve` on `desk` carries: its own question id in its state, checked on the retry.
# The same redeploy, and the old answer is not used. The new question is asked instead:

# %% id=question-id
pending = await mcp_lab.start("desk", "tools/call", "approve", {"ticket": "T-6"})
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
saved = json.loads(probe.to_json())
saved["rounds"][-1]["request_state"] = flip  # the retry echoes the flipped token
refused = await mcp_lab.resume(json.dumps(saved), answers={"stage": {"stage": "x"}})
assert refused.rounds[-1].state_rejected, f"expected a flipped character to be refused, found {refused.summary()}"
readable = json.loads(base64.urlsafe_b64decode(minted[5:].split(".")[0]))
print("✔ well done. What anyone holding your token can read:", sorted(readable))
