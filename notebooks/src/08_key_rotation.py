# %% [markdown]
# # 8 · Keys and key rotation
#
# Notebook 6 showed what a sealed `request_state` binds. This one is about the key that seals it. By
# default `MCPServer` makes a random key when its process starts. Nothing needs to be configured, and that
# is fine for a single process. It is also the one thing to understand before you run more than one.
#
# In this notebook you will see:
#
# 1. **process-local keys**: two instances behind a load balancer reject each other's tokens, and a
#    restart invalidates every token in flight. A flow that gets the frozen `-32602` starts over;
# 2. **shared keys**, `RequestStateSecurity(keys=[...])`: every instance verifies what its siblings
#    sealed, across restarts too;
# 3. **rotation in three phases**, measured on real instances after every phase;
# 4. **the wrong order**, and exactly which in-flight rounds it drops, and **retiring the old key too
#    early**;
# 5. **audience**: the server's name in every token keeps two services that share a key apart.
#
# About 15 minutes.

# %% [markdown ko]
# # 8 · 키와 키 교체
#
# 노트북 6에서는 봉인된 `request_state`가 무엇에 묶이는지 보았습니다. 이 노트북은 그것을 봉인하는 키를 다룹니다.
# 기본적으로 `MCPServer`는 프로세스가 시작될 때 무작위 키를 만듭니다. 아무것도 설정할 필요가 없고, 단일 프로세스에는
# 그것으로 충분합니다. 프로세스를 둘 이상 실행하기 전에 반드시 알아야 할 한 가지가 바로 이것이기도 합니다.
#
# 이 노트북에서 살펴볼 내용은 다음과 같습니다.
#
# 1. **프로세스 로컬 키**: 로드 밸런서 뒤의 두 인스턴스는 서로의 토큰을 거부하고, 재시작하면 진행 중인 모든 토큰이
#    무효가 됩니다. 고정된 `-32602`를 받은 흐름은 처음부터 다시 시작합니다.
# 2. **공유 키** `RequestStateSecurity(keys=[...])`: 모든 인스턴스가 형제 인스턴스가 봉인한 것을 검증하며, 재시작을
#    거쳐도 마찬가지입니다.
# 3. **세 단계에 걸친 교체**: 단계마다 실제 인스턴스에서 측정합니다.
# 4. **잘못된 순서**: 그 순서가 진행 중인 라운드 중 정확히 어느 것을 버리는지, 그리고 **이전 키를 너무 일찍
#    폐기하는 경우**를 봅니다.
# 5. **audience**: 모든 토큰에 담긴 서버 이름이 키를 공유하는 두 서비스를 서로 구분합니다.
#
# 약 15분 걸립니다.

# %%
%load_ext mcp_lab
import json
import secrets

import anyio
import mcp_lab

# %% [markdown]
# ## A shop, several times over
#
# `mcp_lab.Fleet(name, define, instances=N, keys=...)` starts N real `MCPServer` instances of one server
# (`define` adds the tools to each one) behind a router. The router is a plain round-robin load balancer
# **without session affinity**: every leg of a flow, and so every retry that carries `request_state`, goes
# to the next instance. This is the situation the SDK docs warn about. The instances all have the same
# name. Only their keys differ.

# %% [markdown ko]
# ## 여러 벌로 띄운 상점
#
# `mcp_lab.Fleet(name, define, instances=N, keys=...)`은 한 서버의 실제 `MCPServer` 인스턴스 N개를 라우터 뒤에
# 띄웁니다(`define`이 각 인스턴스에 도구를 추가합니다). 라우터는 **세션 어피니티가 없는** 평범한 라운드 로빈
# 로드 밸런서입니다. 흐름의 모든 구간이, 따라서 `request_state`를 실은 모든 재시도가 다음 인스턴스로 갑니다. SDK 문서가
# 경고하는 바로 그 상황입니다. 인스턴스의 이름은 모두 같고, 다른 것은 키뿐입니다.

# %% id=shop
from typing import Annotated

from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel


class Size(BaseModel):
    size: str


async def ask_size(item: str) -> Elicit[Size]:
    return Elicit(f"Which size of {item}?", Size)


def shop(mcp):
    @mcp.tool()
    async def order(item: str, size: Annotated[Size, Resolve(ask_size)]) -> str:
        return f"ordered {item} in size {size.size}"


def legs(flow):
    """Which instance served each leg, and what it answered (with the reason it logged)."""
    for rnd in flow.rounds:
        reason = f" ({rnd.error['reason']})" if rnd.error else ""
        again = " [started over]" if rnd.started_over else ""
        print(f"  leg {rnd.index + 1} on {rnd.served_by}: {rnd.outcome}{reason}{again}")
    print(" ", flow.summary())

# %% [markdown]
# ## Process-local keys
#
# Without `keys=`, each instance gets its own random key, just as separate processes running
# `MCPServer("shop")` with no policy would. The lab makes these keys itself so that it can show their ids.

# %% [markdown ko]
# ## 프로세스 로컬 키
#
# `keys=`가 없으면 각 인스턴스는 자기만의 무작위 키를 얻습니다. 정책 없이 `MCPServer("shop")`을 실행하는 별개의
# 프로세스들과 똑같습니다. 실습은 키 ID를 보여 줄 수 있도록 이 키들을 직접 만듭니다.

# %% id=process-local-keys
ephemeral = mcp_lab.Fleet("shop", shop, instances=2)
print(ephemeral)
order = await mcp_lab.call(ephemeral, "order", {"item": "boots"}, answers={"ask_size": {"size": "42"}})
legs(order)

# %% [markdown]
# Instance #0 asked the question and sealed the state. The retry went to #1, which does not have #0's
# key: `unknown key`. The lab made these keys, but the SDK's own default behaves the same way. Two bare
# `MCPServer("shop")` objects, with no policy at all, each make a key of their own when they are created:

# %% [markdown ko]
# 인스턴스 #0이 질문하고 상태를 봉인했습니다. 재시도는 #0의 키를 갖고 있지 않은 #1로 갔고, 결과는 `unknown key`입니다.
# 이 키들은 실습이 만들었지만 SDK 자체의 기본값도 똑같이 동작합니다. 정책이 전혀 없는 맨 `MCPServer("shop")` 객체 두
# 개는 생성될 때 각자 자기 키를 만듭니다.

# %% id=bare-default
import mcp.types as T
from mcp import Client, MCPError
from mcp.server.mcpserver import MCPServer


def bare_shop():
    server = MCPServer("shop", log_level="WARNING")  # no request_state_security: the SDK's process-local key
    shop(server)
    return server


async def size_42(ctx, params):
    return T.ElicitResult(action="accept", content={"size": "42"})


first, second = bare_shop(), bare_shop()
async with Client(first, elicitation_callback=size_42) as one, Client(second, elicitation_callback=size_42) as two:
    asked = await one.session.call_tool("order", {"item": "boots"}, allow_input_required=True)
    retry = dict(input_responses={"__main__:ask_size": await size_42(None, None)}, request_state=asked.request_state)
    try:
        await two.session.call_tool("order", {"item": "boots"}, allow_input_required=True, **retry)
    except MCPError as exc:
        print("retry on the second server:", exc.error.code, exc.error.message)
    done = await one.session.call_tool("order", {"item": "boots"}, allow_input_required=True, **retry)
    print("retry on the first server: ", done.content[0].text)

# %% [markdown]
# On the wire this is the same frozen `-32602 Invalid or expired requestState` that a forged token gets,
# and the SDK docs tell the client to **start the flow over**. A flow with `start_over=True` does that
# once. Behind the lab's balancer, though, it fails the same way again:

# %% [markdown ko]
# 전송 구간에서는 이것도 위조된 토큰이 받는 것과 같은 고정된 `-32602 Invalid or expired requestState`이며, SDK 문서는
# 클라이언트에게 **흐름을 처음부터 다시 시작하라**고 안내합니다. `start_over=True`인 흐름은 그렇게 한 번 다시
# 시작합니다. 하지만 실습의 밸런서 뒤에서는 똑같이 다시 실패합니다.

# %% id=start-over
again = await mcp_lab.start(ephemeral, "tools/call", "order", {"item": "boots"})
again.start_over = True
await again.run(answers={"ask_size": {"size": "42"}})
legs(again)

# %% [markdown]
# A restart does the same thing to a single server, since the new process gets a new key. This is the
# rejection you will meet most often in practice. It does not come from an attacker: a retry sealed
# before the restart arrives after it. Below, a one-instance server is restarted while a question is
# open. The answer comes back to a process that has never seen that key, and the flow starts over:

# %% [markdown ko]
# 재시작은 단일 서버에도 같은 일을 합니다. 새 프로세스는 새 키를 얻기 때문입니다. 실제로 가장 자주 만나는 거부가 바로
# 이것입니다. 공격자 때문이 아니라, 재시작 전에 봉인된 재시도가 재시작 후에 도착하기 때문입니다. 아래에서는 질문이
# 열려 있는 동안 인스턴스 하나짜리 서버를 재시작합니다. 답은 그 키를 본 적 없는 프로세스로 돌아오고, 흐름은 처음부터
# 다시 시작합니다.

# %%
%%mcp_server till
shop(mcp)

# %% id=restart
pending = await mcp_lab.start("till", "tools/call", "order", {"item": "socks"})
pending.start_over = True
await pending.step()
before = mcp_lab.sandbox.lab_server("till").ring.ids
await mcp_lab.sandbox.restart("till")  # what %mcp_server restart till does
print("new key after the restart:", mcp_lab.sandbox.lab_server("till").ring.ids != before)
await pending.run(answers={"ask_size": {"size": "M"}})
pending

# %% [markdown]
# The second leg was refused (`unknown key`). The third sent the original request again without any
# state, the question was asked again, and the fourth leg finished. The user had to answer twice.
#
# ## Shared keys
#
# The fix is `RequestStateSecurity(keys=[...])`: your own secret, the same on every instance, instead of
# one made at start-up. It is the same mechanism with a secret you supply. Each key must be at least 32
# bytes:

# %% [markdown ko]
# 두 번째 구간은 거부되었습니다(`unknown key`). 세 번째 구간은 상태 없이 원래 요청을 다시 보냈고, 질문을 다시 받았으며,
# 네 번째 구간에서 끝났습니다. 사용자는 두 번 답해야 했습니다.
#
# ## 공유 키
#
# 해결책은 `RequestStateSecurity(keys=[...])`입니다. 시작할 때 만든 키 대신, 모든 인스턴스에서 똑같은 자체 비밀을
# 씁니다. 같은 장치이되, 직접 제공한 비밀을 쓰는 것입니다. 각 키는 최소 32바이트여야 합니다.

# %% id=key-size
from mcp.server.mcpserver import RequestStateSecurity

try:
    RequestStateSecurity(keys=[secrets.token_bytes(16)])
except ValueError as exc:
    print("ValueError:", str(exc).split(";")[0])

shop_keys = [secrets.token_bytes(32)]  # generated here, never printed: only key ids are ever shown
policy = RequestStateSecurity(keys=shop_keys)
print(MCPServer("shop", request_state_security=policy).name, "accepts a 32-byte key; default ttl", policy.ttl, "s")

# %% [markdown]
# The same fleet with shared keys. Every leg still lands on the other instance, and every leg is accepted.
# All instances are restarted in the middle of a flow and it goes on as if nothing happened:

# %% [markdown ko]
# 공유 키를 쓰는 같은 플릿입니다. 모든 구간이 여전히 다른 인스턴스에 도착하지만, 모든 구간이 받아들여집니다. 흐름
# 도중에 모든 인스턴스를 재시작해도 흐름은 아무 일도 없었다는 듯이 이어집니다.

# %% id=shared-keys
shared = mcp_lab.Fleet("shop", shop, instances=2, keys=shop_keys)
print(shared)
order = await mcp_lab.call(shared, "order", {"item": "boots"}, answers={"ask_size": {"size": "42"}})
legs(order)

survivor = await mcp_lab.start(shared, "tools/call", "order", {"item": "hat"})
await survivor.step()
for i in range(2):
    await shared.restart(i)
await survivor.run(answers={"ask_size": {"size": "L"}})
legs(survivor)

# %% [markdown]
# ## Rotating the key in three phases
#
# In `keys=[...]`, `keys[0]` **seals** new state and **every** key in the list can **verify**. A rotation
# without downtime therefore takes three phases. Each phase must be fully deployed before the next begins:
#
# ```python
# RequestStateSecurity(keys=[OLD, NEW])  # 1: every instance learns to verify NEW; OLD still seals
# RequestStateSecurity(keys=[NEW, OLD])  # 2: NEW seals; OLD state still in flight keeps verifying
# RequestStateSecurity(keys=[NEW])       # 3: one ttl after phase 2 is fully out, retire OLD
# ```
#
# `mcp_lab.RotationStepper(fleet)` makes an OLD and a NEW key and puts every instance on `[OLD]`.
# `await stepper.matrix()` then measures which instance accepts a token from which phase. For each of the
# four phases, a server holding that phase's ring seals a real token, and each instance is asked to accept
# it. A cell is that instance's real answer: ✔, or ✘ with the reason it logged.

# %% [markdown ko]
# ## 세 단계로 키 교체하기
#
# `keys=[...]`에서 `keys[0]`은 새 상태를 **봉인**하고, 목록의 **모든** 키가 **검증**에 쓰입니다. 그래서 무중단 교체는
# 세 단계를 거칩니다. 각 단계는 다음 단계가 시작되기 전에 완전히 배포되어야 합니다.
#
# ```python
# RequestStateSecurity(keys=[OLD, NEW])  # 1: every instance learns to verify NEW; OLD still seals
# RequestStateSecurity(keys=[NEW, OLD])  # 2: NEW seals; OLD state still in flight keeps verifying
# RequestStateSecurity(keys=[NEW])       # 3: one ttl after phase 2 is fully out, retire OLD
# ```
#
# `mcp_lab.RotationStepper(fleet)`는 OLD 키와 NEW 키를 만들고 모든 인스턴스를 `[OLD]`에 둡니다. 그다음
# `await stepper.matrix()`가 어느 인스턴스가 어느 단계의 토큰을 받아들이는지 측정합니다. 네 단계 각각에 대해 그 단계의
# 키 목록을 가진 서버가 실제 토큰을 봉인하고, 각 인스턴스에 그 토큰을 받아들이라고 요청합니다. 각 칸은 그 인스턴스의
# 실제 답입니다. ✔이거나, 인스턴스가 로그에 남긴 이유가 붙은 ✘입니다.

# %% id=rotation-before
fleet = mcp_lab.Fleet("shop", shop, instances=4, keys=shop_keys)
stepper = mcp_lab.RotationStepper(fleet)
await stepper.matrix("before: every instance on [OLD]")

# %% [markdown]
# `await stepper.start_flows(n)` starts n flows through the router. Each stops after its first leg, with a
# token in hand, as a user who has not answered yet. `await stepper.next_phase()` rolls the next phase out
# to every instance, sends the retries of the flows that are in flight, and measures the matrix again.
# Before each phase we start three flows. With four instances behind the round-robin, each retry reaches
# a different instance than the one that sealed its state:

# %% [markdown ko]
# `await stepper.start_flows(n)`은 라우터를 거쳐 흐름 n개를 시작합니다. 각 흐름은 아직 답하지 않은 사용자처럼 첫 구간
# 뒤에 토큰을 쥔 채 멈춥니다. `await stepper.next_phase()`는 다음 단계를 모든 인스턴스에 배포하고, 진행 중인 흐름의
# 재시도를 보낸 뒤, 행렬을 다시 측정합니다. 각 단계 전에 흐름 세 개를 시작합니다. 라운드 로빈 뒤에 인스턴스가
# 넷이므로, 각 재시도는 상태를 봉인한 인스턴스가 아닌 다른 인스턴스에 도착합니다.

# %% id=phase-1
def in_flight_report(stepper):
    outcomes = stepper.history[-1]["in_flight"]
    for o in outcomes:
        print(f"  flow sealed on {o['minted_by']}, retried on {o['retried_on']}: {o['outcome']}"
              + (f" ({o['reason']})" if o["reason"] else ""))


await stepper.start_flows(3)
matrix = await stepper.next_phase()
in_flight_report(stepper)
matrix

# %% [markdown]
# Phase 1: every instance can now verify NEW, but OLD still seals: what the instances seal now looks like
# the two left-hand columns. Nothing changed for tokens in flight.

# %% [markdown ko]
# 1단계: 이제 모든 인스턴스가 NEW를 검증할 수 있지만 봉인은 여전히 OLD로 합니다. 지금 인스턴스들이 봉인하는 토큰은
# 왼쪽 두 열에 해당합니다. 진행 중인 토큰에는 아무것도 달라지지 않았습니다.

# %% id=phase-2
await stepper.start_flows(3)
matrix = await stepper.next_phase()
in_flight_report(stepper)
matrix

# %% [markdown]
# Phase 2: NEW seals. OLD tokens still in flight keep verifying, so the three flows started in phase 1
# finished on whichever instance their retry reached. Flows started from now on carry tokens sealed with NEW.

# %% [markdown ko]
# 2단계: NEW로 봉인합니다. 진행 중인 OLD 토큰도 계속 검증되므로, 1단계에서 시작한 흐름 세 개는 재시도가 어느 인스턴스에
# 도착했든 모두 끝났습니다. 이제부터 시작하는 흐름은 NEW로 봉인된 토큰을 받습니다.

# %% id=phase-3
await stepper.start_flows(3)
matrix = await stepper.next_phase()
in_flight_report(stepper)
print("rotation complete:", stepper.done)
matrix

# %% [markdown]
# Phase 3: OLD is retired. Now only tokens sealed with OLD (the first two columns) are refused, and none
# of those is still in flight. No flow was dropped during the whole rotation:

# %% [markdown ko]
# 3단계: OLD를 폐기했습니다. 이제 OLD로 봉인된 토큰(처음 두 열)만 거부되며, 그중 아직 진행 중인 것은 하나도 없습니다.
# 교체 전체에 걸쳐 버려진 흐름은 하나도 없습니다.

# %% id=none-dropped
dropped = [o for step in stepper.history for o in step["in_flight"] if o["outcome"] == "dropped"]
print(len(stepper.in_flight), "flows in flight across the rotation,", len(dropped), "dropped")

# %% [markdown]
# ## The wrong order: promoting the sealing key first
#
# "Don't promote the minting key first", the docs say. Suppose the deploy of phase 2 (`[NEW, OLD]`)
# reaches instance #0 before the other instances have seen NEW at all, so phase 1 was skipped. Four
# instances again, so that each retry reaches a different instance than the one that sealed it:

# %% [markdown ko]
# ## 잘못된 순서: 봉인 키를 먼저 승격하기
#
# 문서는 "발급 키를 먼저 승격하지 마세요"라고 말합니다. 다른 인스턴스들이 NEW를 아직 전혀 보지 못했는데
# 2단계(`[NEW, OLD]`) 배포가 인스턴스 #0에 먼저 도달했다고 가정해 봅시다. 1단계를 건너뛴 것입니다. 이번에도 인스턴스를 넷
# 두어, 각 재시도가 상태를 봉인한 인스턴스가 아닌 다른 인스턴스에 도착하게 합니다.

# %% id=rushed-matrix
rushed = mcp_lab.RotationStepper(mcp_lab.Fleet("shop", shop, instances=4, keys=shop_keys))
rushed.set_phase(2, instance=0)  # only #0 has the new release: it seals with NEW
await rushed.matrix("mid-deploy: #0 on [NEW, OLD], the others still on [OLD]")

# %% [markdown]
# Column three is what #0 seals now. Instances #1 to #3 cannot verify it. Three flows start on #0, #1 and
# #2, and their retries reach #3, #0 and #1:

# %% [markdown ko]
# 세 번째 열이 지금 #0이 봉인하는 토큰입니다. 인스턴스 #1부터 #3까지는 이를 검증할 수 없습니다.
# 흐름 세 개가 #0, #1, #2에서 시작하고, 재시도는 각각 #3, #0, #1에 도착합니다.

# %% id=rushed-dropped
await rushed.start_flows(3)
for o in await rushed.continue_flows():
    print(f"sealed on {o['minted_by']}, retried on {o['retried_on']}: {o['outcome']}"
          + (f" ({o['reason']})" if o["reason"] else ""))

# %% [markdown]
# The one dropped round is exactly the one the matrix predicts. Its state was sealed with NEW by the
# promoted instance #0, and its retry reached #3, which does not know NEW yet. The flow started on #1 was
# sealed with OLD, so it was fine on #0, which still verifies OLD. With a real load balancer and real
# traffic, *every* flow whose state #0 seals during the deploy and whose retry reaches an instance that
# has not been updated is dropped. Phase 1 exists to prevent exactly this.
#
# ## Retiring OLD too early
#
# Phase 3 waits "one ttl after phase 2 is fully out". Until then, a user may still be thinking about a
# question whose state was sealed with OLD just before phase 2. Here is a fleet with a 1 s ttl. In each
# run, two flows are sealed with OLD (phase 1) and phase 2 goes out. Then the users answer: either OLD has
# just been retired, or it is kept, with the answers coming at once or only after one ttl:

# %% [markdown ko]
# 버려진 라운드 하나는 정확히 행렬이 예측한 그 라운드입니다. 그 상태는 승격된 인스턴스 #0이 NEW로 봉인했고, 재시도는
# 아직 NEW를 모르는 #3에 도착했습니다. #1에서 시작한 흐름은 OLD로 봉인되었으므로, 여전히 OLD를 검증하는 #0에서 문제가
# 없었습니다. 실제 로드 밸런서와 실제 트래픽에서는 배포 도중 #0이 상태를 봉인했고 재시도가 아직 업데이트되지 않은
# 인스턴스에 도착한 흐름이 *모두* 버려집니다. 1단계는 바로 이것을 막기 위해 있습니다.
#
# ## OLD를 너무 일찍 폐기하기
#
# 3단계는 "2단계가 완전히 배포된 뒤 ttl 한 번만큼" 기다립니다. 그때까지는 2단계 직전에 OLD로 봉인된 상태의 질문을
# 사용자가 아직 고민하고 있을 수 있습니다. 다음은 ttl이 1초인 플릿입니다. 매번 흐름 두 개를 OLD로 봉인하고(1단계)
# 2단계를 배포한 뒤 사용자가 답합니다. 세 가지 경우를 봅니다. OLD를 방금 폐기하고 곧바로 답하는 경우, OLD를 유지하고
# 곧바로 답하는 경우, OLD를 유지하고 ttl 한 번이 지난 뒤에야 답하는 경우입니다.

# %% id=retire-after-ttl
quick = mcp_lab.Fleet("shop", shop, instances=2, keys=shop_keys, ttl=1.0)


async def old_state_answered(*, retire, wait):
    rotation = mcp_lab.RotationStepper(quick)
    rotation.set_phase(1)
    await rotation.start_flows(2)  # the users are looking at questions sealed with OLD
    rotation.set_phase(2)
    if retire:
        rotation.set_phase(3)  # OLD retired right after phase 2
    await anyio.sleep(wait)
    return [(o["outcome"], o["reason"]) for o in await rotation.continue_flows()]


print("OLD retired, answered at once:    ", await old_state_answered(retire=True, wait=0))
print("OLD kept, answered at once:       ", await old_state_answered(retire=False, wait=0))
print("OLD kept, answered one ttl later: ", await old_state_answered(retire=False, wait=1.5))

# %% [markdown]
# Retired at once, OLD took two live conversations with it (`unknown key`): the users answered in time,
# and the rotation threw their answers away. With OLD kept, the same answers went through. One ttl later,
# the OLD-sealed tokens had expired even with OLD still in the ring. From then on, retiring OLD costs
# nothing: no state it sealed can still be accepted.
#
# ## A stepper to click
#
# Roll the rotation yourself: **run the next cell again and again**. Each run starts four flows, rolls
# the next phase out to every instance (or, with `instance=0`, to that one instance only: a rolling
# deploy), and shows the matrix and what happened to the flows in flight. Try moving one instance two
# phases ahead of the others. (The notebook's checked outputs do not depend on your runs.)
#
# In a live notebook, `mcp_lab.StepperWidget(playground)` puts the same step behind a button.

# %% [markdown ko]
# 곧바로 폐기하자 OLD는 살아 있는 대화 두 개를 함께 가져가 버렸습니다(`unknown key`). 사용자는 제때 답했는데 교체가 그
# 답을 버린 것입니다. OLD를 유지하자 같은 답이 통과했습니다. ttl 한 번이 지난 뒤에는 OLD가 아직 키 목록에 있는데도 OLD로
# 봉인된 토큰이 만료되었습니다. 그때부터는 OLD를 폐기해도 잃을 것이 없습니다. OLD가 봉인한 상태는 더 이상 받아들여질 수
# 없기 때문입니다.
#
# ## 직접 눌러 보는 스테퍼
#
# 교체를 직접 진행해 보세요. **다음 셀을 몇 번이고 다시 실행**하면 됩니다. 실행할 때마다 흐름 네 개를 시작하고, 다음
# 단계를 모든 인스턴스에 배포하고(`instance=0`을 주면 그 인스턴스 하나에만 배포합니다. 롤링 배포입니다), 행렬과
# 진행 중인 흐름에 일어난 일을 보여 줍니다. 인스턴스 하나를 다른 인스턴스보다 두 단계 앞서게 해 보세요. (노트북에
# 저장되어 검사되는 출력은 직접 실행한 결과에 영향을 받지 않습니다.)
#
# 라이브 노트북에서는 `mcp_lab.StepperWidget(playground)`로 같은 단계를 버튼 하나로 진행할 수 있습니다.

# %%
playground = mcp_lab.RotationStepper(mcp_lab.Fleet("shop", shop, instances=3, keys=shop_keys))

# %% nbval-ignore-output
if playground.done:
    print("rotation complete:", playground.describe(), "-- run the cell above to start over")
else:
    await playground.start_flows(4)
    matrix = await playground.next_phase(instance=None)
    in_flight = playground.history[-1]["in_flight"]
    print(playground.describe(), "|", sum(o["outcome"] != "dropped" for o in in_flight), "in-flight flows finished")
    display(matrix)

# %% [markdown]
# ## Audience: one key, one service
#
# A key belongs to one service. The sealed envelope also carries the server's name as the **audience**
# claim (`aud`), so a token sealed by another service that happens to have the same secret is refused
# anyway. `billing` and `shipping` below share a key ring and have the same `order` tool:

# %% [markdown ko]
# ## audience: 키 하나에 서비스 하나
#
# 키는 하나의 서비스에 한정됩니다. 봉인된 봉투에는 서버 이름도 **audience** 클레임(`aud`)으로 담기므로, 우연히 같은
# 비밀을 가진 다른 서비스가 봉인한 토큰은 어차피 거부됩니다. 아래의 `billing`과 `shipping`은 키 목록을 공유하고 같은
# `order` 도구를 가집니다.

# %%
service_keys = [secrets.token_bytes(32)]

# %%
%%mcp_server billing --keys service_keys
shop(mcp)

# %%
%%mcp_server shipping --keys service_keys
shop(mcp)

# %% id=audience
bill = await mcp_lab.start("billing", "tools/call", "order", {"item": "invoice"})
await bill.step()
print("aud:", mcp_lab.inspect_token(bill).claims["aud"])
to_shipping = json.dumps({**json.loads(bill.to_json()), "server": "shipping"})  # billing's token, sent to shipping
crossed = await mcp_lab.resume(to_shipping, answers={"ask_size": {"size": "A4"}})
crossed

# %% [markdown]
# The claim only tells services apart as well as their names do. That is why the SDK insists on a real
# name once you configure a policy: a server without a name would stamp a placeholder that every other
# nameless server shares. It raises when it is constructed, unless you set `audience=` yourself:

# %% [markdown ko]
# 클레임의 변별력은 이름만큼입니다. 그래서 정책을 설정하면 SDK는 실제 이름을 요구합니다. 이름 없는 서버는 이름 없는 다른
# 모든 서버와 똑같은 자리 표시자를 찍어 넣게 되기 때문입니다. `audience=`를 직접 설정하지 않는 한, 이름 없는 서버는
# 생성 시점에 예외를 일으킵니다.

# %% id=nameless
try:
    MCPServer(request_state_security=RequestStateSecurity(keys=shop_keys))
except ValueError as exc:
    print("ValueError:", str(exc).split(".")[0])
MCPServer(request_state_security=RequestStateSecurity(keys=shop_keys, audience="shop"))
print("nameless, with audience='shop': constructed")
MCPServer()
print("nameless, no policy at all: constructed")

# %% [markdown]
# The last line is the exception the docs make: with no configuration the key never leaves the process,
# so there is no other service that could hold it, and the audience claim has nothing to add.
#
# `audience=` is also the switch for a topology where one service is *meant* to accept another's state.
# The docs' setting, written out: `shipping` again, with the same keys and its own name, but the audience
# `billing`. `mcp_lab.adopt` puts it in the lab in place of the old `shipping`, keeping its policy as
# written. The crossed-over flow now goes through:

# %% [markdown ko]
# 마지막 줄은 문서가 두는 예외입니다. 설정이 없으면 키가 프로세스를 떠나지 않으므로 그 키를 가질 수 있는 다른 서비스가
# 없고, audience 클레임이 더할 것이 없습니다.
#
# `audience=`는 한 서비스가 다른 서비스의 상태를 *의도적으로* 받아들이는 토폴로지를 위한 스위치이기도 합니다. 문서의
# 설정을 실제로 적어 보면 이렇습니다. `shipping`을 다시 만들되, 같은 키와 자기 이름을 쓰고 audience만 `billing`으로
# 둡니다. `mcp_lab.adopt`는 이 서버를 기존 `shipping` 대신 실습에 넣고, 정책은 작성한 그대로 유지합니다. 이제
# `billing`에서 `shipping`으로 넘긴 흐름이 통과합니다.

# %% id=shared-audience
shipping = MCPServer(
    "shipping", log_level="WARNING", request_state_security=RequestStateSecurity(keys=service_keys, audience="billing")
)
shop(shipping)
mcp_lab.adopt(shipping)
crossed = await mcp_lab.resume(to_shipping, answers={"ask_size": {"size": "A4"}})
print(crossed.summary(), "-", crossed.text)

# %% [markdown]
# A shared audience is shared by the services you name, nobody else. The tamper lab's "another server" is a
# twin of `shipping` with the same keys under another name, and so with an audience of its own: it still
# refuses the token.

# %% [markdown ko]
# 공유 audience는 지정한 서비스들끼리만 공유되며, 그 밖의 누구와도 공유되지 않습니다. 변조 실습의 "another server"는
# 같은 키를 다른 이름으로 가진 `shipping`의 쌍둥이이므로 자기만의 audience를 가지며, 여전히 토큰을 거부합니다.

# %% id=shared-audience-twin
parcel = await mcp_lab.start("shipping", "tools/call", "order", {"item": "parcel"})
await parcel.step()
twin = (await mcp_lab.tamper_lab(parcel)).case("another server")
print("aud:", mcp_lab.inspect_token(parcel).claims["aud"], "|", twin.changed, "->", twin.wire, "| server logged:", twin.logged)

# %% [markdown]
# (The lab's convenience for the same setting, on a server it started: `mcp_lab.sandbox.lab_server(NAME)
# .install_ring(ring, audience="billing")` -- the same `RequestStateSecurity(audience=...)` underneath.)

# %% [markdown ko]
# (실습이 시작한 서버에서 같은 설정을 쓰는 편의 기능은
# `mcp_lab.sandbox.lab_server(NAME).install_ring(ring, audience="billing")`입니다. 내부적으로는 같은
# `RequestStateSecurity(audience=...)`를 씁니다.)

# %% [markdown]
# ## Exercise
#
# Rotate a three-instance fleet to a new key as a **rolling deploy**, one instance at a time. Each phase
# goes to #0, then #1, then #2, and the next phase starts only when all three have it. After each single
# instance is updated, start two flows and send the retries of everything in flight. Use
# `stepper.set_phase(phase, instance=i)`, `await stepper.start_flows(2)` and
# `await stepper.continue_flows()`. The check below wants the rotation complete and no flow dropped.

# %% [markdown ko]
# ## 연습 문제
#
# 인스턴스 세 개짜리 플릿을 **롤링 배포**로, 한 번에 인스턴스 하나씩 새 키로 교체하세요. 각 단계는 #0, #1, #2 순서로
# 배포하고, 세 인스턴스 모두에 배포된 뒤에야 다음 단계를 시작합니다. 인스턴스 하나를 업데이트할 때마다 흐름 두 개를
# 시작하고 진행 중인 모든 흐름의 재시도를 보내세요. `stepper.set_phase(phase, instance=i)`,
# `await stepper.start_flows(2)`, `await stepper.continue_flows()`를 쓰면 됩니다. 아래 검사는 교체가 완료되고 버려진
# 흐름이 하나도 없는지 확인합니다.

# %% solution
# Your answer: roll the rotation out one instance at a time on a fresh stepper `rolling`, collecting
# every retry outcome in `outcomes`.
### BEGIN SOLUTION
rolling = mcp_lab.RotationStepper(mcp_lab.Fleet("shop", shop, instances=3, keys=shop_keys))
outcomes = []
for phase in (1, 2, 3):
    for i in range(3):
        rolling.set_phase(phase, instance=i)
        await rolling.start_flows(2)
        outcomes += await rolling.continue_flows()
### END SOLUTION

# %% check
mcp_lab.exercise_needs(rolling='your RotationStepper', outcomes='the retry outcomes of every flow in flight')
assert rolling.done, f"expected the rotation complete (phase 3 on every instance), found {rolling.describe()}"
assert len(outcomes) == 18, f"expected 18 retries (2 flows after each of 9 updates), got {len(outcomes)}"
lost = [o for o in outcomes if o["outcome"] == "dropped"]
assert not lost, f"expected no flow dropped, found {len(lost)} dropped: {lost}"
print(f"✔ well done: {len(outcomes)} flows crossed a rolling rotation, none dropped ({rolling.describe()})")
