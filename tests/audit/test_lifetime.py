"""The lifetime check: a token reused after its plausible lifetime is refused -- a bounded wait, skipped when
the wait would be too long, never a timed assertion (the verdicts are asserted, not the time it took).

Spec context: Multi Round-Trip Requests, Server Requirements item 5 (SHOULD: a short expiry, rejecting state
presented after it lapses).
"""

from __future__ import annotations

import pytest

import mcp_lab
from tests.audit.helpers import record, started
from tests.audit.servers import load


@pytest.mark.parametrize(
    ("name", "verdict"),
    [("good_lowlevel", "pass"), ("unbound_sealed", "pass"), ("refund_plaintext", "fail")],
)
async def test_a_token_past_the_lifetime_given(name: str, verdict: str) -> None:
    module = load(name)
    async with started(module, "in-process", ttl=0.5) as connection:
        flows = await record(connection, module.CALLS[:1])
        report = await mcp_lab.audit(connection.name, flows, only="state-lifetime", lifetime=0.5, max_wait=5)
    check = report.check("state-lifetime")
    assert check.verdict == verdict, report.text()
    assert check.probes[0].sent.endswith("first retry sent 1.5 s after its requestState was minted")
    evidence = report.flows("state-lifetime")
    assert len(evidence) == 1 and evidence[0].rounds[-1].sent_request_state is not None


async def test_the_lab_knows_the_lifetime_of_a_server_it_seals_for() -> None:
    module = load("good_mcpserver")
    async with started(module, "in-process") as entry:
        entry.install_ring(entry.ring, ttl=0.5)  # the lab holds the ring: it knows the tokens' ttl
        flows = await record(entry, module.CALLS[:1])
        report = await mcp_lab.audit(entry.name, flows, only="state-lifetime", max_wait=5)
    check = report.check("state-lifetime")
    assert check.verdict == "pass", report.text()
    assert check.probes[0].came_back.startswith(
        "error -32602 'Invalid or expired requestState' (server logged: expired"
    )


async def test_skipped_with_a_note_when_the_wait_is_too_long_or_the_lifetime_unknown() -> None:
    module = load("good_mcpserver")
    async with started(module, "in-process") as entry:  # the lab's default ttl: 600 s
        flows = await record(entry, module.CALLS[:1])
        long = await mcp_lab.audit(entry.name, flows, only="state-lifetime")
    assert long.check("state-lifetime").verdict == "n/a"
    assert long.check("state-lifetime").summary.startswith("skipped: a token 600 s plausibly lives would take a 660 s")
    module = load("good_lowlevel")
    async with started(module, "in-process") as entry:  # seals with its own key: the lab knows no ttl
        flows = await record(entry, module.CALLS[:1])
        unknown = await mcp_lab.audit(entry.name, flows, only="state-lifetime")
    assert unknown.check("state-lifetime").verdict == "n/a"
    assert "lifetime is unknown: give lifetime=SECONDS" in unknown.check("state-lifetime").summary
