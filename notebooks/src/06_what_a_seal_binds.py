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

# %% [markdown ko]
# # 6 · 봉인이 묶는 것
#
# 다중 왕복 호출의 두 구간 사이에서 `request_state`를 보관하는 것은 클라이언트입니다. 클라이언트는 이를 기록해
# 두고, 다른 워커에 넘기고, 나중에 되돌려 보냅니다. 따라서 서버로 돌아오는 것은 **클라이언트가 제공한 입력**입니다.
# 변조되었을 수도, 만료되었을 수도, 아예 다른 호출에서 가져온 것일 수도 있습니다. 사양은 상태가 인가, 리소스
# 접근, 비즈니스 로직에 영향을 줄 수 있는 경우 서버가 상태의 무결성을 보호하고, 검사에 실패하면 라운드를
# 거부할 것을 요구합니다.
#
# `MCPServer`는 따로 설정하지 않아도 이를 해 줍니다. 이 노트북에서 살펴볼 내용은 다음과 같습니다.
#
# 1. 클라이언트가 보관하는 것(불투명한 봉인 토큰)과 서버 코드가 읽는 것(평문)
# 2. 봉인이 묶는 네 가지: **시간 창**, **주체**, **원래 요청**, **질문한 내용 그대로**
# 3. **변조 실습**: 변조된 토큰은 모두 전송 구간에서 똑같이 고정된 `-32602`를 받고, 실제 이유는 서버 로그에만
#    남습니다.
#
# 자체 코덱, 직접 만든 상태, 저수준 서버는 노트북 7에서, 키와 키 교체는 노트북 8에서 다룹니다. 약 20분 걸립니다.

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

# %% [markdown ko]
# ## 묻는 은행
#
# `transfer`는 사용자에게서 두 가지 답을 받아야 합니다. 먼저 통화를 묻고, 그다음 그 통화를 넣은 문구로 확인을
# 받습니다. 두 번째 질문이 첫 번째 답에 의존하므로 호출은 세 구간에 걸칩니다. 첫 번째 질문의 문구와 양식은
# 나중에 "재배포"할 수 있도록 딕셔너리에 넣어 둡니다. `approve`는 `InputRequiredResult`를 직접 만들고 자체 평문
# 상태를 씁니다. `balance`는 아무것도 묻지 않습니다.

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

# %% [markdown ko]
# ## 전송되는 것과 서버가 읽는 것
#
# 송금의 첫 구간을 실행해 봅니다. 클라이언트는 질문 하나와 토큰 하나를 돌려받습니다. 토큰은 `v1.`(SDK의
# AES-256-GCM 형식)으로 시작하고, 그 뒤에 4바이트 키 ID, 논스, 암호문이 이어집니다. 키가 없으면 누구든 볼 수
# 있는 것은 이것이 전부입니다.
#
# (SDK의 기본값과 마찬가지로 실습은 서버가 시작될 때 서버마다 고유한 무작위 키를 줍니다. 다른 점은 실습이 그
# 키를 보관하므로 안에 무엇이 들어 있는지 보여 줄 수 있다는 것입니다. 노트북 8에서는 SDK의 순수한 기본값도
# 실행해 봅니다.)

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

# %% [markdown ko]
# `bank`를 시작한 것은 실습이므로, 실습은 서버의 키 목록을 갖고 있고 서버와 같은 방식으로 토큰을 열 수 있습니다.
# 안에는 작은 **클레임** 집합이 있고, `s`에는 SDK의 리졸버가 쓴 상태(질문한 내용과, 그 답을 기다리는 중이라는
# 사실)가 들어 있습니다. 각 클레임은 이 노트북에서 다루는 바인딩 하나에 해당합니다. `iat`/`exp`(시간),
# `m`/`t`/`a`(메서드, 대상, 인수 다이제스트), `aud`(서버 이름), `p`(주체, 여기서는 없음)입니다.

# %% id=opened-token
mcp_lab.inspect_token(flow)

# %% [markdown]
# A hand-made state gets the same treatment, with no code change. `approve` writes the plaintext
# `{"question": "approve-v1"}`. On the wire it is a sealed `v1.` token. On the retry the handler reads
# its plaintext back from `ctx.request_state`.

# %% [markdown ko]
# 직접 만든 상태도 코드 변경 없이 같은 처리를 받습니다. `approve`는 평문 `{"question": "approve-v1"}`을 씁니다.
# 전송 구간에서는 봉인된 `v1.` 토큰이며, 재시도에서 핸들러는 `ctx.request_state`로 자신의 평문을 다시 읽습니다.

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

# %% [markdown ko]
# ## 시간 창에 묶기
#
# 모든 라운드는 새 `iat`와 `exp = iat + ttl`(기본 600초)로 다시 봉인됩니다. 따라서 ttl은 전체 흐름에 걸리는
# 시간이 아니라 **라운드별로** 사용자가 생각할 수 있는 시간을 제한합니다. ttl이 1.2초인 clerk 서버가 세 가지
# 질문을 합니다. 처음 두 답은 각각 질문 후 0.6초 만에 도착하고(합쳐서 1.2초로 ttl 한 번 분량이며, 구간 자체에
# 걸리는 시간을 더하면 그 이상입니다), 마지막 답은 질문 후 1.8초 만에 도착합니다.

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

# %% [markdown ko]
# 흐름이 ttl 한 번보다 오래 실행되었는데도 처음 두 재시도는 받아들여졌습니다. 세 번째는 거부되었습니다.
# 사용자가 생각하는 동안 토큰이 만료되었기 때문입니다. 마지막 줄을 보세요. 전송 구간에서 보이는 것은
# `-32602 Invalid or expired requestState`뿐입니다. 서버를 실습이 소유하므로, 실습은 서버가 **로그에 남긴**
# 이유인 `expired`도 보여 줄 수 있습니다. 검사기를 보면 각 라운드가 같은 ttl로 다시 봉인되었음을 알 수 있습니다.

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

# %% [markdown ko]
# ## 원래 요청에 묶기
#
# 토큰에는 메서드, 도구 또는 프롬프트 이름(또는 리소스 URI), 그리고 인수의 다이제스트가 기록됩니다. 저장된 흐름은
# 평범한 JSON이고 클라이언트가 보관하므로, 클라이언트가 이를 편집하는 것을 막을 방법은 없습니다. 여기 작은 위조
# 함수가 있습니다. 저장된 흐름을 불러와 다음 구간이 요청할 내용을 바꿉니다.

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

# %% [markdown ko]
# 세 가지 모두 같은 고정된 오류로 거부되었고, 서버는 매번 `request binding`을 로그에 남겼습니다. 손대지 않은
# 흐름은 여전히 유효합니다.

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

# %% [markdown ko]
# ## 주체에 묶기
#
# 요청이 SDK가 검증한 OAuth 액세스 토큰을 지니고 있으면 상태는 그 토큰의 **클라이언트, 발급자(issuer), 사용자
# 식별자(subject)** 세 가지에 묶입니다. 이를 확인하려면 SDK 고유의 방식으로 서버에 실제 인증을 붙입니다.
# `MCPServer(..., token_verifier=..., auth=AuthSettings(...))`입니다. SDK의 bearer 미들웨어는 모든 HTTP 요청의
# `Authorization: Bearer ...` 토큰을 검증기에 넘기고, 검증기는 `AccessToken`(클라이언트 ID, subject, `iss` 같은
# 클레임)으로 응답합니다. 기본값인 `bind_principal=authenticated_principal`이 이를 봉인에 담길 주체로 바꿉니다.
#
# 여기서 검증기는 인가 서버의 인트로스펙션 엔드포인트 역할을 합니다. 검증기가 아는 bearer 토큰은 네 개입니다.
# 같은 메모 앱을 쓰는 Alice와 Bob, 다른 앱을 쓰는 Alice, 다른 발급자에서 로그인한 Alice입니다. `notes_server`는
# `delete_note`가 먼저 확인을 요청하는 작은 서버를 만듭니다. 실습은 그 서버를 들여와(토큰을 열어 볼 수 있도록)
# 루프백 HTTP로 제공합니다. 실습 자체의 ID 헬퍼는 전혀 쓰이지 않으며, 정책은 SDK의 기본값입니다.

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

# %% [markdown ko]
# 각 구간은 평범한 SDK `Client`가 HTTP로 보내는 요청이며, 그 요청에는 한 사용자의 bearer 토큰이 실립니다. 거부
# 이유는 서버 로그(SDK의 `mcp.server.request_state` 로거)로 가므로 그 로그를 받아 봅니다. Alice가 삭제를 시작합니다. 이제
# Alice가 가진 토큰에는 그 주체를 솔트와 함께 태그로 만든 `p`가 들어 있습니다.

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

# %% [markdown ko]
# 이제 Alice의 토큰을 되돌려 보냅니다. Bob으로(같은 앱, 같은 발급자), 다른 앱을 쓰는 Alice로, 다른 발급자의
# Alice로, 검증기가 subject를 더 이상 제공하지 않게 된 뒤의 Alice로, 마지막으로 아무것도 바꾸지 않은 Alice로
# 보냅니다.

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

# %% [markdown ko]
# 세 구성 요소는 하나하나가 모두 중요합니다. 그중 하나(subject, 클라이언트, 발급자)라도 바뀌면 다른 주체이므로 라운드는
# 거부되며, 전송 구간에는 같은 고정된 오류가, 로그에는 `principal`이 남습니다. 어떤 요청에서는 subject를
# 제공하고 다음 요청에서는 빼는 검증기는 흐름 도중에 주체를 바꾸는 셈이므로, 진행 중인 라운드가 같은 방식으로
# 거부됩니다. 손대지 않은 토큰은 그 뒤에도 Alice에게 여전히 유효합니다.
#
# 검증기가 subject를 **한 번도** 제공하지 않으면 바인딩은 클라이언트 ID(와 발급자)로 약해집니다. 이 예처럼 URL
# 기반 클라이언트 ID라면 메모 앱의 모든 사용자가 하나의 주체를 공유하게 되므로, Alice가 시작한 것을 Bob이 끝낼 수
# 있습니다. 다른 앱은 여전히 끝낼 수 없습니다.

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

# %% [markdown ko]
# 인증이 SDK 바깥(앞단 프록시)에서 끝나거나 트랜스포트가 인증되지 않은 경우에는 묶을 주체가 없으므로 이 검사는
# 아무 일도 하지 않습니다. 다음은 `auth` 없는 서버에 올린 같은 도구입니다. `Authorization` 헤더는 여전히
# 전달되지만 SDK에서 그것을 읽는 곳은 없습니다. 토큰에는 `p`가 없으며, Bob이 Alice의 삭제를 끝냅니다.

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

# %% [markdown ko]
# `RequestStateSecurity(bind_principal=...)`는 자체 ID 신호로 이 문제를 해결합니다. 앞단 프록시가 사용자를
# 로그인시키고 그 이름을 `X-Forwarded-User` 헤더로 넘겨준다고 해 봅시다. `bind_principal`은 모든 구간에서,
# 나갈 때와 들어올 때 모두 SDK의 요청 컨텍스트를 받아 호출되며, 여기서는 그 헤더를 읽습니다. 문서에 나오는 그 한
# 줄을 우리 키와 함께 씁니다(설정된 정책은 `keys=`와 `codec=` 중 정확히 하나를 받습니다).

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

# %% [markdown ko]
# 토큰에 다시 `p`가 들어 있고, 이제 Bob은 Alice가 시작한 것을 끝낼 수 없습니다.
#
# 다음은 위의 방식을 대신하는 것이 아니라, 위의 방식을 익힌 뒤에 쓰는 편의 기능입니다. 실습 자체의 ID 신호는
# `mcp_lab.lab_principal`이며, `mcp_lab.set_principal(...)`로 설정한 사용자 이름입니다(실습의 서버는 프로세스
# 안에서 실행되므로 요청 헤더가 없고, `authenticated_principal`은 아무도 찾지 못합니다).
# `install_ring(ring, bind_principal=...)`은 같은 키 목록과 그 바인딩으로 실습 서버의 봉인을 다시 설정하며, 내부적으로는
# 같은 `RequestStateSecurity(bind_principal=...)`입니다. 여기서는 `bank`에 적용합니다.

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

# %% [markdown ko]
# ID 신호는 일관되어야 합니다. 어떤 라운드에는 있고 다음 라운드에는 없는 신호는 흐름 도중에 주체를 바꾸는
# 셈이므로, 그 라운드는 `principal drift`로 거부됩니다.

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

# %% [markdown ko]
# ## 질문한 내용 그대로 묶기
#
# 모든 리졸버 답은 클라이언트에게 표시된, 렌더링된 질문의 다이제스트에 고정됩니다. 라운드 1의 토큰에는 그
# 라운드가 **질문한** 내용의 다이제스트가 기록됩니다. 라운드 2의 토큰은 답을 바로 그 다이제스트와 함께
# 보관합니다.

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

# %% [markdown ko]
# 이제 통화 질문의 문구를 바꿔 **재배포**합니다. `QUESTION`을 바꾸는 것은 새 릴리스가 하는 일과 같습니다. 위의
# 흐름은 이미 상태에 통화 답을 갖고 있고, 아래 흐름은 아직 답을 보내려고 기다리는 중입니다. 어느 답도 쓰이지
# 않습니다. 서버는 바뀐 문구로 질문을 다시 합니다.

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

# %% [markdown ko]
# 고정되는 것은 문구만이 아닙니다. 다이제스트는 렌더링된 질문 전체를 대상으로 하므로, **양식**만 바꾼 릴리스(여기서는
# 선택적 `note` 필드 하나를 추가)도 똑같은 메시지로 다시 묻습니다.

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

# %% [markdown ko]
# 같은 고정은 반대로도 작용합니다. 타임스탬프나 실시간 시세처럼 호출마다 바뀌는 데이터로 질문을 만들면 라운드마다
# 다른 질문이 렌더링되므로, 기록된 모든 답이 오래된 것으로 보입니다. 서버는 클라이언트의 라운드 한도가 호출을
# 끝낼 때까지 계속 다시 묻습니다.

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

# %% [markdown ko]
# 해결책은 SDK 문서의 조언 그대로입니다. 호출마다 다시 가져오는 데이터가 아니라, 모든 구간에서 값이 같은
# 도구의 **인수**로 메시지를 만드세요.
#
# ## 변조 실습: 고정된 오류 하나, 여러 가지 이유
#
# `tamper_lab`은 실제 흐름을 받아 그 토큰을 변조한 여러 버전을 실제 서버로 보냅니다. 비트 하나를 뒤집은 것, 다른
# 인수, 다른 도구, 같은 키를 쓰지만 이름이 다른 쌍둥이 서버, 짧은 ttl로 발급한 뒤 늦게 재시도한 토큰, 새 키로
# 재시작한 서버, 다른 사용자, 그리고 같은 유효 토큰을 두 번 보내는 경우입니다. 전송 구간의 응답 옆에 서버가 로그에
# 남긴 것과 검사기가 예측한 것을 함께 보여 줍니다.

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

# %% [markdown ko]
# `wire:` 열을 위에서 아래로 읽어 보세요. 매번 `-32602 Invalid or expired requestState`입니다. 전송 구간은 어떤
# 검사가 실패했는지 결코 알려 주지 않습니다. 그것을 아는 것은 서버 로그(`mcp.server.request_state`, WARNING
# 수준)뿐입니다. 마지막 두 행도 눈여겨보세요. 봉인은 위조를 막을 뿐 **재전송**(replay)은 막지 못합니다. 유효한
# 토큰은 만료될 때까지 다시 보낼 수 있습니다.

# %% id=one-wire-answer
wire_answers = {case.wire for case in report.cases if case.logged}
print("distinct wire answers:", wire_answers)
print("distinct logged reasons:", sorted({case.logged for case in report.cases if case.logged}))

# %% [markdown]
# The check covers **every** `requestState` that arrives on `tools/call`, `prompts/get` or
# `resources/read`, even one sent to a handler that never issues state. A client that invents a plaintext
# state for `balance` is turned away before `balance` runs, and so is the same invention sent to the
# `statement` prompt or the static `bank://terms` resource:

# %% [markdown ko]
# 이 검사는 `tools/call`, `prompts/get`, `resources/read`로 들어오는 **모든** `requestState`에 적용되며, 상태를
# 발급한 적이 없는 핸들러로 보낸 것도 예외가 아닙니다. `balance`용 평문 상태를 지어낸 클라이언트는 `balance`가
# 실행되기도 전에 돌려보내지며, 같은 조작을 `statement` 프롬프트나 정적 `bank://terms` 리소스로 보내도
# 마찬가지입니다.

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

# %% [markdown ko]
# ## 연습 문제
#
# 설정 한 줄을 직접 작성해 보세요. 자체 키로 봉인하고 각 토큰을 실습의 ID 신호에 묶는 `vault`라는 `MCPServer`를
# 만듭니다. 그 한 줄은 `RequestStateSecurity(keys=[...], bind_principal=mcp_lab.lab_principal)`입니다. 여기에
# 도구 `open_box(box: str)`를 추가하세요. 이 도구는 리졸버 `ask_open(box)`로 *"Open box B-2?"* 하고 묻고(`ok: bool`
# 필드를 가진 모델), 확인되면 `"box B-2 opened"`를 반환합니다. `mcp_lab.adopt(vault)`로 실습에 들여오세요. 검사
# 셀은 Alice로 호출을 시작하고, Bob으로 끝내려고 시도한 뒤, Alice로 끝냅니다.

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
