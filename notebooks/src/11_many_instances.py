# %% [markdown] id=intro
# # 11 · Many instances, one proxy
#
# Notebook 8 taught keys and rotation on a stand-in: several server objects inside this kernel behind a
# round-robin written in Python. This notebook does it for real. Every instance is **its own operating-system
# process** -- an ordinary `uvicorn` serving the server's `streamable_http_app()` on 127.0.0.1 -- and in front
# of them runs a **real reverse proxy**, Caddy, with a configuration file you could deploy as it is.
#
# Each instance adds one response header, `Mcp-Lab-Instance`, so every leg of a flow says which process
# answered it. Nothing else is simulated.
#
# In this notebook you will see:
#
# 1. **process-local keys** behind a load balancer: a retry on another instance (or another `--workers`
#    worker) is refused, and so is one that reaches a restarted process;
# 2. **shared keys** handed to every process: nothing is refused, across restarts too;
# 3. the proxy **routing on `Mcp-Param-Region`** to regional pools without reading the body, and what
#    the server does when the header lies;
# 4. a **rolling key rotation** on the processes under load, in the right and in the wrong order;
# 5. the **deployment check** you can point at your own fleet, from Python and from CI.
#
# About 15 minutes. Every process started here stops when the notebook's kernel stops, even if it is killed.

# %% [markdown ko]
# # 11 · 여러 인스턴스, 하나의 프록시
#
# 노트북 8에서는 키와 키 교체를 모의 환경에서 배웠습니다. 이 커널 안의 여러 서버 객체를 Python으로 작성한 라운드 로빈 뒤에
# 두는 방식이었습니다. 이 노트북에서는 이를 실제로 해 봅니다. 모든 인스턴스는 **각자의 운영 체제 프로세스**이며(서버의
# `streamable_http_app()`을 127.0.0.1에서 제공하는 평범한 `uvicorn`입니다), 그 앞에서는 **실제
# 리버스 프록시**인 Caddy가 그대로 배포해도 되는 설정 파일로 동작합니다.
#
# 각 인스턴스는 응답 헤더 `Mcp-Lab-Instance` 하나를 추가하므로, 흐름의 모든 구간에서 어느 프로세스가 응답했는지 알
# 수 있습니다. 그 밖에는 아무것도 흉내 내지 않습니다.
#
# 이 노트북에서 살펴볼 내용은 다음과 같습니다.
#
# 1. 로드 밸런서 뒤의 **프로세스 로컬 키**: 다른 인스턴스(또는 `--workers`의 다른 워커)로 간 재시도는 거부되며,
#    재시작된 프로세스에 도달한 재시도도 마찬가지입니다
# 2. 모든 프로세스에 건네준 **공유 키**: 재시작을 거쳐도 아무것도 거부되지 않습니다
# 3. 본문을 읽지 않고 **`Mcp-Param-Region`으로** 리전별 풀에 **라우팅하는** 프록시, 그리고 헤더가 거짓일
#    때 서버가 하는 일
# 4. 부하가 걸린 프로세스에서의 **롤링 키 교체**: 올바른 순서와 잘못된 순서
# 5. 자신의 플릿을 대상으로 Python과 CI에서 실행할 수 있는 **배포 검사**
#
# 약 15분 걸립니다. 여기서 시작한 모든 프로세스는 노트북의 커널이 멈추면, 커널이 강제 종료되더라도 함께 멈춥니다.

# %%
%load_ext mcp_lab
import asyncio
import sys
import tempfile
from pathlib import Path

import mcp_lab

ANSWER = {"ask_size": {"size": "42"}}


def legs(flow):
    """Which process served each leg, and what it answered (with the reason it logged)."""
    for rnd in flow.rounds:
        reason = f" ({rnd.error['reason']})" if rnd.error else ""
        print(f"  leg {rnd.index + 1} on {rnd.served_by}: {rnd.outcome}{reason}")
    print(" ", flow.summary())


def refused(flows):
    return sum(any(r.error and r.error.get("code") == -32602 for r in f.rounds) for f in flows)

# %% [markdown]
# ## The shop, as a cell
#
# The server is an ordinary `%%mcp_server` cell. To run it in other processes the lab writes the cell, as it
# is, into a module the instances import -- so the cell imports what it uses instead of relying on the
# notebook's variables. `order` asks one question (two legs); `forecast` marks `region` with `x-mcp-header`.

# %% [markdown ko]
# ## 셀 하나로 된 상점
#
# 서버는 평범한 `%%mcp_server` 셀입니다. 이 셀을 다른 프로세스에서 실행하기 위해 실습은 셀을 그대로 모듈로 써 내고,
# 인스턴스들이 그 모듈을 import합니다. 그래서 셀은 노트북의 변수에 기대지 않고 자신이 쓰는 것을 직접 import합니다.
# `order`는 질문을 하나 하고(두 구간), `forecast`는 `region`에 `x-mcp-header`를 표시합니다.

# %% id=shop-cell
%%mcp_server shop
from typing import Annotated

from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel, Field


class Size(BaseModel):
    size: str


async def ask_size(item: str) -> Elicit[Size]:
    return Elicit(f"Which size of {item}?", Size)


@mcp.tool()
async def order(item: str, size: Annotated[Size, Resolve(ask_size)]) -> str:
    return f"ordered {item} in size {size.size}"


@mcp.tool()
def forecast(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
    return f"sunny in {region}"

# %% [markdown]
# ## Three processes, their own keys, round-robin
#
# `mcp_lab.start_fleet("shop", instances=3)` starts three `uvicorn` processes of that cell and a Caddy in
# front. Without `keys=`, each process keeps the SDK's default: a random key made when it starts.

# %% [markdown ko]
# ## 프로세스 세 개, 각자의 키, 라운드 로빈
#
# `mcp_lab.start_fleet("shop", instances=3)`은 그 셀을 실행하는 `uvicorn` 프로세스 세
# 개와 그 앞의 Caddy를 시작합니다. `keys=`가 없으면 각 프로세스는 SDK의 기본값, 즉 시작할 때 만든 무작위 키를
# 그대로 씁니다.

# %% id=fleet-default
default = await mcp_lab.start_fleet("shop", instances=3)
default

# %% [markdown]
# This is the proxy's configuration, as written to disk: round-robin over the three instances, **no session
# affinity** -- exactly the set-up the SDK docs warn about. It listens on 127.0.0.1 only, and its admin
# endpoint is a unix socket in the fleet's private directory.

# %% [markdown ko]
# 디스크에 쓰인 그대로의 프록시 설정입니다. 세 인스턴스에 라운드 로빈으로 분배하며 **세션 어피니티가 없습니다**. SDK 문서가
# 경고하는 바로 그 구성입니다. 프록시는 127.0.0.1에서만 수신하며, 관리 엔드포인트는 플릿 전용 디렉터리 안의 유닉스
# 소켓입니다.

# %% id=caddyfile-round-robin
default.config

# %% [markdown]
# Now order boots through the proxy. Leg 1 asks for the size and seals the state; the retry carrying the
# answer goes to the *next* instance, which has never seen the first one's key:

# %% [markdown ko]
# 이제 프록시를 통해 부츠를 주문합니다. 구간 1은 사이즈를 묻고 상태를 봉인합니다. 답을 담은 재시도는 *다음* 인스턴스로
# 가는데, 이 인스턴스는 첫 번째 인스턴스의 키를 본 적이 없습니다.

# %% id=sibling-refused
boots = await mcp_lab.call(default.name, "order", {"item": "boots"}, answers=ANSWER)
legs(boots)
more = [await mcp_lab.call(default.name, "order", {"item": f"boots-{i}"}, answers=ANSWER) for i in range(5)]
print(f"{refused([boots, *more])} of 6 retries refused by a sibling")

# %% [markdown]
# The flow view shows the same thing, leg by leg, from the responses themselves (`served by ...`):

# %% [markdown ko]
# 흐름 뷰도 응답 자체를 근거로(`served by ...`) 구간마다 같은 내용을 보여 줍니다.

# %% id=flow-served-by
view = boots._repr_mimebundle_()["text/plain"].splitlines()
print("\n".join(line for line in view if not line.lstrip().startswith(("HTTP", "mcp-"))))

# %% [markdown]
# ## A restart between the legs
#
# The same happens to a single process that restarts while a question is open: the new process has a new
# key. Here the retry goes straight to instance 0 (`shop-fleet.0`), restarted in between. The SDK docs say
# the client then starts over; a flow with `start_over=True` does that, and finishes.

# %% [markdown ko]
# ## 구간 사이의 재시작
#
# 질문이 열려 있는 동안 재시작하는 단일 프로세스에서도 같은 일이 일어납니다. 새 프로세스에는 새 키가 있기 때문입니다. 여기서는
# 재시도가 그 사이에 재시작된 인스턴스 0(`shop-fleet.0`)으로 곧장 갑니다. SDK 문서는 이때 클라이언트가 흐름을
# 처음부터 다시 시작한다고 말합니다. `start_over=True`인 흐름은 그렇게 다시 시작하여 끝까지 완료됩니다.

# %% id=restart-default
pending = await mcp_lab.start("shop-fleet.0", "tools/call", "order", {"item": "socks"})
pending.start_over = True
await pending.step()
await default.restart(0)
await pending.run(answers=ANSWER)
legs(pending)

# %% [markdown]
# ## Another worker of one `uvicorn --workers 2`
#
# The SDK page's own case, "multi-worker uvicorn": one `uvicorn` with two worker processes on **one port**.
# The operating system hands each new connection to one of the workers; each worker is a process with its own
# default key.

# %% [markdown ko]
# ## 하나의 `uvicorn --workers 2` 안의 다른 워커
#
# SDK 문서가 말하는 "다중 워커 uvicorn" 그대로의 경우입니다. **하나의 포트**에서 워커 프로세스 두 개를 띄운
# `uvicorn` 하나입니다. 운영 체제는 새 연결을 받을 때마다 워커 중 하나에 넘겨주며, 각 워커는 자신만의 기본 키를 가진
# 프로세스입니다.

# %% id=workers
workers = await mcp_lab.start_fleet("shop", name="shop-workers", instances=1, workers=2, proxy=None)
print(" ".join(workers.processes[0].command()[3:]))
served = []
crossed = []
for _ in range(30):  # until some flow's retry reached the other worker (the kernel hands out connections)
    batch = await asyncio.gather(*(mcp_lab.call(workers.name, "order", {"item": f"hat-{i}"}, answers=ANSWER) for i in range(8)))
    served += batch
    crossed = [f for f in served if f.rounds[0].served_by != f.rounds[-1].served_by]
    if crossed:
        break
print("two workers answered:", len({r.served_by for f in served for r in f.rounds}) == 2)
print("every retry that reached the other worker was refused:", refused(crossed) == len(crossed) > 0)
await workers.stop()

# %% [markdown]
# ## Shared keys
#
# `keys="shared"` makes one ring and hands it to every process through a file that only this user can read
# (mode 0600, in a private directory) and that is removed as soon as the process has read it: the keys never
# appear on a command line, in an environment variable or in a log. Every instance now verifies what its
# siblings sealed -- and a restart no longer loses anything:

# %% [markdown ko]
# ## 공유 키
#
# `keys="shared"`는 키 목록 하나를 만들어, 현재 사용자만 읽을 수 있고(전용 디렉터리 안, 모드 0600) 프로세스가
# 읽는 즉시 삭제되는 파일을 통해 모든 프로세스에 건네줍니다. 키는 명령줄에도, 환경 변수에도, 로그에도 나타나지 않습니다. 이제
# 모든 인스턴스가 형제 인스턴스가 봉인한 것을 검증하며, 재시작해도 더 이상 잃는 것이 없습니다.

# %% id=fleet-shared
shared = await mcp_lab.start_fleet("shop", name="shop-shared", instances=3, keys="shared")
orders = [await mcp_lab.call(shared.name, "order", {"item": f"boots-{i}"}, answers=ANSWER) for i in range(6)]
legs(orders[0])
print(f"{refused(orders)} of 6 retries refused")
kept = await mcp_lab.start("shop-shared.0", "tools/call", "order", {"item": "socks"})
await kept.step()
await shared.restart(0)
await kept.run(answers=ANSWER)
legs(kept)

# %% [markdown]
# ## Routing on a header: regional pools
#
# Header parameters exist so that a proxy can route on a value **without parsing the JSON body**. Give
# `regions=` and the Caddyfile routes on `Mcp-Param-Region`: each region's instances form a pool, and a
# request with no header (or a region no pool serves) goes to the default pool, the first one.

# %% [markdown ko]
# ## 헤더로 라우팅하기: 리전별 풀
#
# 헤더 매개변수는 프록시가 **JSON 본문을 파싱하지 않고** 값으로 라우팅할 수 있도록 존재합니다. `regions=`를 주면
# Caddyfile이 `Mcp-Param-Region`으로 라우팅합니다. 각 리전의 인스턴스들은 하나의 풀 형태로 묶이고, 헤더가
# 없는 요청(또는 어느 풀도 맡지 않는 리전의 요청)은 기본 풀, 즉 첫 번째 풀로 갑니다.

# %% id=fleet-regions
geo = await mcp_lab.start_fleet("shop", name="shop-geo", regions={"eu-west": 2, "us-east": 1}, keys="shared")
geo.config

# %% id=routed
for region in ("eu-west", "eu-west", "us-east", "eu-west"):
    flow = await mcp_lab.call(geo.name, "forecast", {"region": region})
    print(f"{region:8} -> {flow.rounds[-1].served_by}: {flow.text}")

# %% [markdown]
# The gateway case the spec warns about: a client whose header says `us-east` while the body says `eu-west`.
# The proxy believes the header and sends it to the us-east pool; the instance there compares header and body
# and refuses the call (400, `-32020`). The flow shows both where it went and why it was refused (the client
# re-listed the tools and resent once, as the SDK does on `-32020`; the listing went to the default pool):

# %% [markdown ko]
# 사양이 경고하는 게이트웨이 사례입니다. 헤더는 `us-east`라고 하는데 본문은 `eu-west`라고 하는 클라이언트입니다.
# 프록시는 헤더를 믿고 요청을 us-east 풀로 보내고, 그곳의 인스턴스는 헤더와 본문을 비교해 호출을 거부합니다(400,
# `-32020`). 흐름은 요청이 어디로 갔는지와 왜 거부되었는지를 모두 보여 줍니다(SDK가 `-32020`을 받으면 하듯이
# 클라이언트는 도구 목록을 다시 조회하고 한 번 다시 보냈으며, 목록 조회는 기본 풀로 갔습니다).

# %% id=gateway-mismatch
liar = mcp_lab.lying_client(geo, "shop-geo-liar", {"Mcp-Param-Region": "us-east"})
lied = await mcp_lab.call(liar, "forecast", {"region": "eu-west"})
print("routed to:", lied.rounds[0].served_by.split(" then ")[0])
print(lied.summary())
await mcp_lab.disconnect("shop-geo-liar")

# %% [markdown]
# A client that never listed the tool sends no header at all. It lands on the default pool and is refused
# the same way (the header is missing but the body has `region`); the SDK's `Client.call_tool` then lists the
# tools and resends once -- now with the header, to the right pool:

# %% [markdown ko]
# 도구 목록을 조회한 적 없는 클라이언트는 헤더를 아예 보내지 않습니다. 이 요청은 기본 풀에 도착해 같은 방식으로
# 거부됩니다(헤더는 없는데 본문에는 `region`이 있습니다). 그러면 SDK의 `Client.call_tool`이 도구 목록을
# 조회하고 한 번 다시 보냅니다. 이번에는 헤더를 담아 올바른 풀로 갑니다.

# %% id=no-header
print(await mcp_lab.unlisted_call(geo, "forecast", {"region": "us-east"}))

# %% [markdown]
# When the fleet changes, the lab rewrites the Caddyfile and runs `caddy reload`: graceful, no request in
# flight is cut, the proxy process stays the same. The new instance gets traffic only once it has answered
# the lab *as itself* on its port (its `Mcp-Lab-Instance` name): a port that merely accepts connections
# could belong to another process, and the proxy would send it the new instance's share.

# %% [markdown ko]
# 플릿이 바뀌면 실습은 Caddyfile을 다시 쓰고 `caddy reload`를 실행합니다. 설정은 무중단으로 다시 불러오므로 진행 중인
# 요청이 끊기지 않고, 프록시 프로세스도 그대로입니다. 새 인스턴스는 자기 포트에서 *자기 자신으로서*(자신의
# `Mcp-Lab-Instance` 이름으로) 실습에 응답한 뒤에야 트래픽을 받습니다. 연결을 받아 주기만 하는 포트는 다른
# 프로세스의 것일 수 있고, 그러면 프록시가 새 인스턴스 몫의 트래픽을 그 프로세스로 보내게 되기 때문입니다.

# %% id=graceful-reload
caddy = geo.proxy.pid
await geo.add_instance(region="us-east")
seen = {(await mcp_lab.call(geo.name, "forecast", {"region": "us-east"})).rounds[-1].served_by for _ in range(4)}
print("us-east pool now:", sorted(seen), "| same Caddy process:", geo.proxy.pid == caddy, "| reloads:", geo.proxy.reloads)
await geo.stop()

# %% [markdown]
# ## Rolling key rotation on the processes
#
# The rotation stepper of notebook 8 works on the real fleet. Its matrix is measured on the processes: a
# token minted under each phase's ring, sent to each instance.

# %% [markdown ko]
# ## 프로세스에서의 롤링 키 교체
#
# 노트북 8의 교체 스테퍼(`RotationStepper`)는 실제 플릿에서도 동작합니다. 그 행렬은 프로세스에서 측정합니다. 각
# 단계의 키 목록으로 발급한 토큰을 각 인스턴스에 보냅니다.

# %% id=real-matrix
stepper = mcp_lab.RotationStepper(shared, old=b"O" * 32, new=b"N" * 32)  # fixed keys: a stable matrix
await stepper.matrix()

# %% [markdown]
# `mcp_lab.rolling_rotation(fleet, "right")` rolls each phase **one instance at a time** -- the instance's keys
# file is replaced and the process reloads it (SIGHUP) -- while a batch of two-leg flows is in flight through
# Caddy: each batch mints its tokens, one instance takes the step, then the batch retries. With
# `ordered=True` each batch's legs go out one after another and the retries come back starting with the
# second flow, so every retry lands on the instance just before the one that minted it; nine flows a step
# give each of the three instances three tokens to mint, and the counts are the same on every run. Counted
# per phase:

# %% [markdown ko]
# `mcp_lab.rolling_rotation(fleet, "right")`은 두 구간짜리 흐름 한 묶음이 Caddy를 거쳐 진행
# 중인 동안 각 단계를 **한 번에 인스턴스 하나씩** 적용합니다. 인스턴스의 키 파일을 새 것으로 바꾸면 프로세스가 이를 다시
# 읽어 들입니다(SIGHUP). 각 묶음이 토큰을 발급하고, 인스턴스 하나가 단계를 적용한 뒤, 묶음이 재시도합니다.
# `ordered=True`이면 각 묶음의 구간이 하나씩 차례로 나가고 재시도는 두 번째 흐름부터 돌아오므로, 모든 재시도는 자신을
# 발급한 인스턴스의 바로 앞 인스턴스에 도착합니다. 단계마다 흐름이 아홉 개이므로 세 인스턴스가 각각 토큰을 세 개씩 발급하며,
# 횟수는 실행할 때마다 같습니다. 단계별로 센 결과입니다.

# %% id=rotation-right
right, phases = await mcp_lab.rolling_rotation(shared, "right", flows_per_step=9, stepper=stepper, ordered=True)
print(right.text())
for phase, counts in phases.items():
    print(f"  {phase:<11} {counts['flows']} flows, {counts['finished']} finished, {counts['lost']} lost")

# %% [markdown]
# The wrong order promotes NEW to seal first, skipping `[OLD, NEW]`. An instance that already seals with NEW
# hands out tokens its not-yet-updated siblings cannot verify -- and exactly those retries are lost, as the
# rings predict: while instance 1 is promoted, the three tokens instance 0 sealed with NEW come back to
# instance 2, still on `[OLD]`. Every other retry meets a ring that holds its key.

# %% [markdown ko]
# 잘못된 순서는 `[OLD, NEW]`를 건너뛰고 NEW를 먼저 봉인 키로 승격합니다. 이미 NEW로 봉인하는 인스턴스는 아직
# 갱신되지 않은 형제 인스턴스가 검증할 수 없는 토큰을 내주고, 키 목록이 예측한 대로 바로 그 재시도들이 유실됩니다. 인스턴스 1이
# 승격되는 동안, 인스턴스 0이 NEW로 봉인한 토큰 세 개가 아직 `[OLD]`인 인스턴스 2로 돌아옵니다. 나머지 재시도는 모두
# 자신의 키를 가진 키 목록을 만납니다.

# %% id=rotation-wrong
wrong, phases = await mcp_lab.rolling_rotation(shared, "wrong", flows_per_step=9, ordered=True)
print(wrong.text())
for phase, counts in phases.items():
    print(f"  {phase:<11} {counts['flows']} flows, {counts['finished']} finished, {counts['lost']} lost")

# %% [markdown]
# ## Check your own deployment
#
# `mcp_lab.check_deployment(url, collection)` replays flows you recorded (`mcp_lab.save_flows`) through a
# deployment the lab did not start, many times, and counts the retries each instance refused. With the
# instances' own URLs it also sends each flow's first leg to one instance and its retry to another, for every
# pair. The same check runs in CI: `python -m mcp_lab deploy-check URL COLLECTION` exits 0 when every retry
# was verified, 1 when some were refused, 2 when it could not run. (Its full report -- show `ok` -- also
# counts the responses each instance sent.)

# %% [markdown ko]
# ## 내 배포 검사하기
#
# `mcp_lab.check_deployment(url, collection)`은 기록해 둔
# 흐름(`mcp_lab.save_flows`)을 실습이 시작하지 않은 배포를 통해 여러 번 다시 실행하고, 인스턴스마다 거부한 재시도
# 수를 셉니다. 인스턴스 각각의 URL도 주면 모든 인스턴스 쌍에 대해 각 흐름의 첫 구간을 한 인스턴스로, 재시도를 다른
# 인스턴스로 보내 봅니다. 같은 검사가 CI에서도 실행됩니다.
# `python -m mcp_lab deploy-check URL COLLECTION`은 모든 재시도가 검증되면 0, 일부가
# 거부되면 1, 실행할 수 없으면 2로 종료합니다. (전체 보고서는 `ok`를 표시하면 볼 수 있으며, 인스턴스마다 보낸 응답 수도
# 셉니다.)

# %% id=own-deployment
collection = Path(tempfile.mkdtemp()) / "orders.json"
mcp_lab.save_flows(collection, orders[:1])
ok = await mcp_lab.check_deployment(shared.url, collection, instances=[p.url for p in shared.processes], times=3)
pairs = f"{sum(p['ok'] for p in ok.pairs)} of {len(ok.pairs)} verify each other"
print(ok.text().splitlines()[0], f"\n  {ok.verified} of {ok.flows} replays verified; instance pairs: {pairs}")
bad = await mcp_lab.check_deployment(default.url, collection, times=3)
print(bad.text().splitlines()[0], f"\n  {bad.refused} of {bad.flows} replays refused")

# %% id=deploy-check-cli
async def deploy_check(fleet):
    cli = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "mcp_lab", "deploy-check", fleet.url, str(collection), "--times", "2",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await cli.communicate()
    return f"{fleet.name}: exit {cli.returncode}: {out.decode().splitlines()[0]}"


for line in await asyncio.gather(deploy_check(shared), deploy_check(default)):  # both CI runs at once
    print(line)

# %% [markdown]
# ## Exercise
#
# Start a fleet `mine` of two instances of the `shop` cell that never refuses a retry, and send four orders
# through its proxy into a list `flows`. The check wants all four finished, both instances used, nothing
# refused.

# %% [markdown ko]
# ## 연습 문제
#
# `shop` 셀의 인스턴스 두 개로 이루어지고 재시도를 절대 거부하지 않는 플릿 `mine`을 시작한 뒤, 그 프록시를 통해 주문
# 네 건을 보내 리스트 `flows`에 담으세요. 검사는 네 건이 모두 완료되었는지, 두 인스턴스가 모두 쓰였는지, 거부된 것이
# 없는지 확인합니다.

# %% solution
# Your answer: start `mine` and fill `flows`.
### BEGIN SOLUTION
mine = await mcp_lab.start_fleet("shop", name="mine", instances=2, keys="shared")
flows = [await mcp_lab.call(mine.name, "order", {"item": f"scarf-{i}"}, answers=ANSWER) for i in range(4)]
### END SOLUTION

# %% check
mcp_lab.exercise_needs(mine='your fleet of two processes', flows='four order flows through its proxy')
assert len(mine.processes) == 2, f"expected 2 instances, got {len(mine.processes)}"
assert len(flows) == 4 and all(f.status == "done" for f in flows), [f.summary() for f in flows]
assert refused(flows) == 0, "some retries were refused: do the instances share their keys?"
assert len({r.served_by for f in flows for r in f.rounds}) == 2, "the proxy should have used both instances"
print("✔ well done: 4 orders across 2 processes, every retry verified by the sibling that did not seal it")

# %% [markdown]
# ## Clean up
#
# `stop()` stops every process of a fleet (instances, workers, Caddy) and frees the ports. The kernel does the
# same on shutdown, and if it is killed the processes go with it.

# %% [markdown ko]
# ## 정리
#
# `stop()`은 플릿의 모든 프로세스(인스턴스, 워커, Caddy)를 멈추고 포트를 해제합니다. 커널도 종료할 때 같은 일을
# 하며, 커널이 강제 종료되면 프로세스도 함께 종료됩니다.

# %% id=stop
for fleet in mcp_lab.live_fleets():
    await fleet.stop()
print("fleets left:", len(mcp_lab.live_fleets()))
