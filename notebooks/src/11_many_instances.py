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

# %% id=fleet-default
default = await mcp_lab.start_fleet("shop", instances=3)
default

# %% [markdown]
# This is the proxy's configuration, as written to disk: round-robin over the three instances, **no session
# affinity** -- exactly the set-up the SDK docs warn about. It listens on 127.0.0.1 only, and its admin
# endpoint is a unix socket in the fleet's private directory.

# %% id=caddyfile-round-robin
default.config

# %% [markdown]
# Now order boots through the proxy. Leg 1 asks for the size and seals the state; the retry carrying the
# answer goes to the *next* instance, which has never seen the first one's key:

# %% id=sibling-refused
boots = await mcp_lab.call(default.name, "order", {"item": "boots"}, answers=ANSWER)
legs(boots)
more = [await mcp_lab.call(default.name, "order", {"item": f"boots-{i}"}, answers=ANSWER) for i in range(5)]
print(f"{refused([boots, *more])} of 6 retries refused by a sibling")

# %% [markdown]
# The flow view shows the same thing, leg by leg, from the responses themselves (`served by ...`):

# %% id=flow-served-by
view = boots._repr_mimebundle_()["text/plain"].splitlines()
print("\n".join(line for line in view if not line.lstrip().startswith(("HTTP", "mcp-"))))

# %% [markdown]
# ## A restart between the legs
#
# The same happens to a single process that restarts while a question is open: the new process has a new
# key. Here the retry goes straight to instance 0 (`shop-fleet.0`), restarted in between. The SDK docs say
# the client then starts over; a flow with `start_over=True` does that, and finishes.

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
# The seeds' literal case: one `uvicorn` with two worker processes on **one port**. The operating system hands
# each new connection to one of the workers; each worker is a process with its own default key.

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

# %% id=no-header
print(await mcp_lab.unlisted_call(geo, "forecast", {"region": "us-east"}))

# %% [markdown]
# When the fleet changes, the lab rewrites the Caddyfile and runs `caddy reload`: graceful, no request in
# flight is cut, the proxy process stays the same. The new instance gets traffic only once it has answered
# the lab *as itself* on its port (its `Mcp-Lab-Instance` name): a port that merely accepts connections
# could belong to another process, and the proxy would send it the new instance's share.

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

# %% id=stop
for fleet in mcp_lab.live_fleets():
    await fleet.stop()
print("fleets left:", len(mcp_lab.live_fleets()))
