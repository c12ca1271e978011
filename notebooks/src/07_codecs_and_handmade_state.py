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

# %% [markdown ko]
# # 7 · 코덱, 직접 만든 상태, 저수준 Server
#
# 노트북 6에서는 봉인이 토큰을 무엇에 묶는지 보았습니다. 시간, 주체, 원래 요청, 질문한 내용 그대로입니다. 바이트를
# 무엇으로 봉인하든 이 모든 것은 SDK의 일입니다. 이 노트북은 직접 작성할 수 있는 부분을 다룹니다.
#
# 1. **자체 코덱**: `RequestStateSecurity(codec=...)`. SDK 문서가 설명하는 봉투 암호화 형태(시작할 때 KMS가 데이터
#    키 하나를 풉니다)로 만들고, 그 코덱을 둘러싸고 SDK가 여전히 검사하는 것을 살펴봅니다.
# 2. **직접 만든 상태**: 리졸버 상태와 똑같이 봉인되지만, SDK가 대신 확인할 수 없는 것이 하나 있습니다. 답이 직접
#    만든 질문 중 어느 것에 속하는지입니다.
# 3. **저수준 서버**: 경계를 덧붙이기 전까지 상태를 평문으로 보냅니다. 경계를 덧붙이는 데는 한 줄이면 됩니다.
#
# 약 15분 걸립니다.

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

# %% [markdown ko]
# 먼저 작은 도구 두 개를 준비합니다. SDK는 `requestState`를 거부한 실제 이유를 `mcp.server.request_state` 로거에
# 남기므로(전송 구간에는 `-32602`만 나갑니다) 이 로거에 핸들러를 달아 그 이유를 받아 봅니다. 그리고 저장된 흐름은 클라이언트가 들고 있는 평범한
# JSON입니다. `forged`는 부주의하거나 악의적인 클라이언트가 할 법한 방식으로 저장된 흐름을 고칩니다.

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

# %% [markdown ko]
# 그리고 노트북 6의 은행에 있던 승인 창구입니다. `approve`는 `InputRequiredResult`를 직접 만들고, 평문 상태에 자체
# 질문 식별자를 담아 둡니다(이유는 뒤에서 다시 다룹니다). 이 도구의 첫 구간에서 코덱을 비교하는 데 쓸 SDK 토큰을
# 얻습니다.

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

# %% [markdown ko]
# ## 자체 코덱 사용
#
# `RequestStateSecurity(codec=...)`에는 `seal(bytes) -> str`과 `unseal(str) -> bytes`를 갖추고 자신이 발급하지 않은
# 토큰에 대해 `InvalidRequestState`를 발생시키는 객체라면 무엇이든 전달할 수 있습니다. 전형적인 형태는 KMS를 이용한
# **봉투 암호화**입니다. 프로세스가 시작될 때 데이터 키를 한 번 풀고, 그 뒤로는 토큰마다 로컬에서 암호화합니다.
# `mcp_lab.EnvelopeCodec`은 SDK 문서의 예제를 따릅니다. `kms1.` 접두사(연관 데이터로 GCM 태그 아래에 묶입니다) 뒤에
# 논스 + 암호문의 16진수가 오며, `seal()`이 쓴 표기와 정확히 같을 때만 받아들입니다.

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

# %% [markdown ko]
# 형태는 이렇습니다. 이제 문서의 코드를 쓰인 그대로 실행합니다. 이 코드는 코덱을 설치하는 생성자
# `MCPServer("Deployer", request_state_security=RequestStateSecurity(codec=...))`로 끝납니다.

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

# %% [markdown ko]
# 이 서버에 직접 만든 질문 하나를 주고 SDK의 `Client`로 인메모리에서 구동합니다. 전송 구간의 토큰은 문서 코덱의
# 형식(`kms1.` + 16진수)입니다. 16진수 한 자리를 바꾼 재시도도, 같은 토큰을 대문자로 바꾼 재시도도 거부되고(로그에는
# 코덱 자신의 이유가 남습니다), 봉인된 그대로의 토큰은 호출을 끝냅니다. 토큰을 몇 개 봉인하고 열든 KMS는 시작할 때
# 한 번만 호출되었습니다. 그리고 접두사도 묶여 있습니다. 토큰의 바이트는 연관 데이터 `kms1.`로는 열리고 그 밖의
# 값으로는 실패합니다.

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

# %% [markdown ko]
# 실습의 코덱을 서버에 설치할 때는 `mcp_lab.use_codec(...)`을 씁니다. 이 함수가 그 서버에 맞는
# `RequestStateSecurity(codec=codec, bind_principal=...)`를 만들어 줍니다. 코덱은 시간도, 요청도, 주체도 알지
# 못합니다. 그래도 SDK는 어떤 코덱이든 `seal()` 전에 클레임을 페이로드에 찍어 넣고 `unseal()` 후에 검사합니다.

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

# %% [markdown ko]
# `flipped byte` 사례의 토큰은 코덱이 거부했습니다(코덱 자신의 메시지인 `token failed verification`). 만료, 요청 바인딩,
# audience, 주체는 이런 것을 전혀 모르는 코덱을 둘러싸고 SDK가 검사했습니다. 코덱의 의무는 무결성(변조되었으면 예외를
# 발생시킴)과, 가능하면 기밀성뿐입니다. 그 이상은 없습니다.
#
# ## 직접 만든 상태: 질문 고정은 직접 해야 합니다
#
# 위의 내용은 모두 직접 작성한 상태에도 적용됩니다. 직접 만든 질문에 대해 SDK가 해 줄 수 없는 일이 하나 있는데, 상태에
# 담긴 답이 어느 질문에 속하는지 가려내는 일입니다. 먼저 결함부터 봅니다. 아래의 `approvals`는 질문 식별자가 없는
# `approve`이며, 상태에는 물었다는 사실만 담깁니다. 흐름이 기다리는 동안 질문의 새 버전을 배포하면 **이전** 질문에 준
# 답이 새 질문의 답으로 받아들여집니다. SDK는 상태를 봉인하고 검증했으며, 실패한 것은 아무것도 없습니다.

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

# %% [markdown ko]
# 해결책은 `desk`의 `approve`가 이미 갖추고 있는 것입니다. 자체 질문 식별자를 상태에 넣고 재시도에서 확인합니다. 똑같이
# 재배포해도 이번에는 이전 답이 쓰이지 않고, 대신 새 질문을 묻습니다.

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

# %% [markdown ko]
# ## 저수준 서버: 경계를 덧붙이기 전까지는 평문
#
# 저수준 `Server`에는 기본 제공 보호 기능이 없습니다. `RequestStateBoundary`를 직접 덧붙이기 전까지는 아무것도
# 봉인되지 않으며, 그때까지 `request_state`는 핸들러가 작성한 그대로 전송 구간을 건너갑니다. 다음은 고객의 요금제
# 등급을 상태에 담아 두는 프로비저너입니다. 같은 핸들러로 서버를 두 번 시작할 수 있도록 팩토리로 정의합니다.

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

# %% [markdown ko]
# 클라이언트가 상태를 읽고 고쳐 썼는데 핸들러는 그 내용을 그대로 믿었습니다. SDK의 옵트인은 한 줄입니다. 저수준 서버의
# 미들웨어에 `RequestStateBoundary`를 덧붙이면 됩니다. 아래는 같은 핸들러를 다시 띄우고 그 한 줄을 문서에 쓰인 그대로
# 적은 것입니다(여기서는 프로세스 로컬 키를 쓰며, 플릿이라면 `RequestStateSecurity(keys=[...])`를 씁니다).

# %% id=lowlevel-seal
%%mcp_server provisioner --lowlevel --replace
on_list_tools, on_call_tool = provisioner()

# %% id=lowlevel-opt-in
from mcp.server.mcpserver import RequestStateBoundary, RequestStateSecurity

server.middleware.append(RequestStateBoundary(RequestStateSecurity.ephemeral(), default_audience=server.name))

# %% [markdown]
# (A convenience afterwards, not instead: `%%mcp_server NAME --lowlevel --seal` appends the same boundary
# with a key ring the lab holds, so the lab's token views can open what it sealed.)

# %% [markdown ko]
# (그 한 줄을 익힌 다음에 쓰는 편의 기능이지, 그 한 줄을 대신하는 것은 아닙니다. `%%mcp_server NAME --lowlevel --seal`은
# 실습이 보관하는 키 목록으로 같은 경계를 덧붙이므로, 실습의 토큰 뷰가 봉인된 것을 열어 볼 수 있습니다.)

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

# %% [markdown ko]
# ## 연습 문제
#
# 코덱의 의무는 **무결성**이고, 기밀성은 "가능하면"일 뿐입니다. **서명만 하는** 코덱을 작성해 보세요. 접두사 `sig1.`
# 뒤에 base64url 페이로드, `.`, 그리고 접두사 + 페이로드에 대한 base64url HMAC-SHA256 태그가 옵니다. `unseal`은 자신이
# 만들지 않은 것이면 무엇에든 `InvalidRequestState`를 발생시켜야 합니다. 이 코덱을 `deployer`에 설치하고, 서비스 `web`을
# 스테이지 `test`로 배포하는 `deploy`를 실행하세요. 그다음 셀은 토큰에 작성한 접두사가 붙었는지, 흐름이 끝나는지, 문자
# 하나를 바꾼 토큰이 거부되는지 검사합니다. 또한 서명만 하는 코덱이 무엇을 내주는지도 출력합니다. 토큰을 가진
# 사람이라면 누구나 그 클레임을 읽을 수 있습니다.

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
