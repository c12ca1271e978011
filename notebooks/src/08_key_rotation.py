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

# %% id=process-local-keys
ephemeral = mcp_lab.Fleet("shop", shop, instances=2)
print(ephemeral)
order = await mcp_lab.call(ephemeral, "order", {"item": "boots"}, answers={"ask_size": {"size": "42"}})
legs(order)

# %% [markdown]
# Instance #0 asked the question and sealed the state. The retry went to #1, which does not have #0's
# key: `unknown key`. The lab made these keys, but the SDK's own default behaves the same way. Two bare
# `MCPServer("shop")` objects, with no policy at all, each make a key of their own when they are created:

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

# %% id=phase-2
await stepper.start_flows(3)
matrix = await stepper.next_phase()
in_flight_report(stepper)
matrix

# %% [markdown]
# Phase 2: NEW seals. OLD tokens still in flight keep verifying, so the three flows started in phase 1
# finished on whichever instance their retry reached. Their last round was sealed again, now with NEW.

# %% id=phase-3
await stepper.start_flows(3)
matrix = await stepper.next_phase()
in_flight_report(stepper)
print("rotation complete:", stepper.done)
matrix

# %% [markdown]
# Phase 3: OLD is retired. Now only tokens sealed with OLD (the first two columns) are refused, and none
# of those is still in flight. No flow was dropped during the whole rotation:

# %% id=none-dropped
dropped = [o for step in stepper.history for o in step["in_flight"] if o["outcome"] == "dropped"]
print(len(stepper.in_flight), "flows in flight across the rotation,", len(dropped), "dropped")

# %% [markdown]
# ## The wrong order: promoting the sealing key first
#
# "Don't promote the minting key first", the docs say. Suppose the deploy of phase 2 (`[NEW, OLD]`)
# reaches instance #0 before the other instances have seen NEW at all, so phase 1 was skipped. Four
# instances again, so that each retry reaches a different instance than the one that sealed it:

# %% id=rushed-matrix
rushed = mcp_lab.RotationStepper(mcp_lab.Fleet("shop", shop, instances=4, keys=shop_keys))
rushed.set_phase(2, instance=0)  # only #0 has the new release: it seals with NEW
await rushed.matrix("mid-deploy: #0 on [NEW, OLD], the others still on [OLD]")

# %% [markdown]
# Column three is what #0 seals now. Instances #1 to #3 cannot verify it. Three flows start on #0, #1 and
# #2, and their retries reach #3, #0 and #1:

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

# %% id=shared-audience-twin
parcel = await mcp_lab.start("shipping", "tools/call", "order", {"item": "parcel"})
await parcel.step()
twin = (await mcp_lab.tamper_lab(parcel)).case("another server")
print("aud:", mcp_lab.inspect_token(parcel).claims["aud"], "|", twin.changed, "->", twin.wire, "| server logged:", twin.logged)

# %% [markdown]
# (The lab's convenience for the same setting, on a server it started: `mcp_lab.sandbox.lab_server(NAME)
# .install_ring(ring, audience="billing")` -- the same `RequestStateSecurity(audience=...)` underneath.)

# %% [markdown]
# ## Exercise
#
# Rotate a three-instance fleet to a new key as a **rolling deploy**, one instance at a time. Each phase
# goes to #0, then #1, then #2, and the next phase starts only when all three have it. After each single
# instance is updated, start two flows and send the retries of everything in flight. Use
# `stepper.set_phase(phase, instance=i)`, `await stepper.start_flows(2)` and
# `await stepper.continue_flows()`. The check below wants the rotation complete and no flow dropped.

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
