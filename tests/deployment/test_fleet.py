"""Real server processes behind a real Caddy: round-robin with default and shared keys, `--workers`, stop.

Each instance is its own uvicorn process on 127.0.0.1 serving tests/deployment/shop_server.py; every response
names its instance (`Mcp-Lab-Instance`), so each leg's `served_by` comes from the response itself.
"""

from __future__ import annotations

import asyncio
import stat
import time
from pathlib import Path

import mcp_lab
from mcp_lab.deployment.fleet import start_fleet
from mcp_lab.deployment.ports import answering_as, free_port
from mcp_lab.deployment.processes import InstanceProcess, session_pids, write_keys
from mcp_lab.flow.flow import Flow
from mcp_lab.flow.view import FLOW_MIME, flow_bundle
from tests.deployment.helpers import SERVER, SIZE, alive, no_process_left, orders, refused
from tests.deployment.late_worker_server import DELAY


async def test_round_robin_with_default_keys_refuses_retries_on_a_sibling_and_stops_clean() -> None:
    fleet = await start_fleet(SERVER, name="shop-rr", instances=3)
    try:
        pids, ports = fleet.pids(), fleet.ports()
        assert len(pids) == 4  # three uvicorn processes and Caddy
        assert "reverse_proxy 127.0.0.1:" in fleet.config_text() and "bind 127.0.0.1" in fleet.config_text()
        assert "lb_policy round_robin" in repr(fleet.config)
        flows = await orders(fleet, 6)
        legs = [[r.served_by for r in f.rounds] for f in flows]
        for first, second, *_ in legs:  # no affinity: the retry lands on the next instance
            assert first != second and first.startswith("shop-rr#") and second.startswith("shop-rr#")
        lost = [f for f in flows if refused(f)]
        assert len(lost) == 6, legs  # measured share of refused retries: 6 of 6, each on a sibling's token
        assert all("unknown key" in str(f.rounds[-1].error) for f in lost)
        text = flow_bundle(flows[0])["text/plain"]
        assert f"served by {legs[0][0]}" in text and f"served by {legs[0][1]}" in text
        bundle = flow_bundle(flows[0])
        assert "served by" in bundle["text/html"]
        assert [r["served_by"] for r in bundle[FLOW_MIME]["rounds"]] == legs[0]  # what the extension draws
        assert "each process's own key" in repr(fleet)
        assert "shop-rr#2" in fleet._repr_mimebundle_()["text/plain"]
    finally:
        await fleet.stop()
    assert no_process_left(pids, ports)


async def test_round_robin_with_shared_keys_loses_no_retry_and_the_keys_file_is_private() -> None:
    fleet = await start_fleet(SERVER, name="shop-shared", instances=3, keys="shared")
    try:
        # The keys were handed over in 0600 files that are gone once each process has read them.
        assert not list(fleet.directory.glob("keys-*")) and fleet.processes[0].state()["key_ids"] == fleet.ring.ids
        assert stat.S_IMODE(fleet.directory.stat().st_mode) == 0o700
        probe = fleet.directory / "probe.json"
        write_keys(probe, 1, [b"k" * 32])
        assert stat.S_IMODE(probe.stat().st_mode) == 0o600
        secret = fleet.ring.secret_keys()[0].hex() if fleet.ring else ""
        for process in fleet.processes:
            assert secret not in " ".join(process.command())
            assert secret not in process.log_path.read_text()
            environ = Path(f"/proc/{process.pid}/environ").read_bytes().decode(errors="replace")
            assert secret not in environ
        flows = await orders(fleet, 6)
        assert not [f for f in flows if refused(f)]
        assert all(f.status == "done" for f in flows), [f.summary() for f in flows]
        assert {f.rounds[0].served_by for f in flows} == {f"shop-shared#{i}" for i in range(3)}
        assert secret not in repr(fleet) and secret not in str(fleet._repr_mimebundle_())
    finally:
        await fleet.stop()


async def test_one_uvicorn_with_workers_on_one_port_has_process_local_keys_per_worker() -> None:
    fleet = await start_fleet(SERVER, name="shop-workers", instances=1, workers=2, proxy=None)
    try:
        assert "--workers 2" in " ".join(fleet.processes[0].command())
        pids = fleet.pids()
        assert len(pids) >= 3  # the supervisor and its two workers (and multiprocessing's helper), one port
        flows: list[Flow] = []
        for _ in range(6):  # concurrent flows open several connections: the kernel spreads them over the workers
            flows += await asyncio.gather(
                *(mcp_lab.call(fleet.name, "order", {"item": f"hat-{i}"}, answers=SIZE) for i in range(8))
            )
            if len({r.served_by for f in flows for r in f.rounds}) > 1:
                break
        servers = {r.served_by for f in flows for r in f.rounds}
        assert len(servers) == 2 and all(str(s).startswith("shop-workers#0/pid") for s in servers), servers
        crossed = [f for f in flows if f.rounds[0].served_by != f.rounds[-1].served_by]
        stayed = [f for f in flows if f.rounds[0].served_by == f.rounds[-1].served_by]
        assert all(refused(f) for f in crossed) and all(f.status == "done" for f in stayed)
    finally:
        await fleet.stop()


async def test_a_workers_instance_is_ready_only_once_every_worker_takes_connections(tmp_path: Path) -> None:
    """A worker writes its state file when it has built the app, before it accepts: an instance called ready
    then gave every first connection to the other worker, and a client keeps its connections (tutorial 11's
    workers cell once saw one worker only, under load). Ready means each worker answered a connection."""
    process = InstanceProcess(
        label="late#0", index=0, target="tests.deployment.late_worker_server:mcp", directory=tmp_path,
        port=free_port(), workers=2,
    )  # fmt: skip
    started = time.monotonic()
    await process.start()
    pids = session_pids(process.pid or 0)  # the supervisor and its workers
    try:
        assert len(list(tmp_path.glob("accepting.*"))) == 2  # the late worker too, DELAY seconds after the first
        assert time.monotonic() - started >= DELAY
        assert str(await answering_as(process.port, "late#0")).startswith("late#0/pid")
    finally:
        await process.stop()
    assert pids and not [pid for pid in pids if alive(pid)]
