"""A class on a real JupyterHub: three students run tutorial 1 at once, each in their own server.

Spec context: the 2026-07-28 features are taught by running real servers in the reader's kernel. On a
shared hub every student's kernel serves its own MCP servers on the machine's one loopback
(SimpleLocalProcessSpawner, as in class/jupyterhub_config.py), so what one student's kernel does must stay
its own: its results, its servers (the per-server bearer secret), its ports once the server stops.

The hub is the real thing: JupyterHub from PyPI with configurable-http-proxy from npm
(class/package.json), the dummy authenticator and the simple local-process spawner, everything on
127.0.0.1. The students act through the hub's REST API and their own tokens, and run the tutorial's cells
through the proxy, over the kernel websocket, as JupyterLab does. Times go to the log; none is asserted.

It runs beside the rest of the suite: after a stop, a port counts as still held only when a process of
this hub holds it (tests/classroom/hub.py `still_listening`), not when the OS has given the freed port to a
neighbour.
"""

from __future__ import annotations

import asyncio
import configparser
import json
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import nbformat
import psutil
import pytest
import requests

from tests.classroom.hub import ROOT, Hub, process_tree, running_hub, still_listening, wait_for
from tests.classroom.remote_kernel import CellRun, RemoteKernel
from tests.ports import listening_ports

sys.path.insert(0, str(ROOT / "notebooks"))
from build import SOURCES, with_solutions

STUDENTS = ("ada", "grace", "linus")
TUTORIAL = "01_first_round_trip"
WIDGET = "application/vnd.jupyter.widget-view+json"
MEASURED = {"backoff"}
"""Cells that print what they measured (the client's waits, rounded down to 50 ms steps): three students on
two cores stretch a wait by more than a step, so only their other lines are compared."""


# ---------------------------------------------------------------- comparing what a student saw


def sanitizers() -> list[tuple[re.Pattern[str], str]]:
    """notebooks/sanitize.cfg, the rules nbval compares the tutorials with (times, tokens, ports)."""
    parser = configparser.ConfigParser()
    parser.read(ROOT / "notebooks" / "sanitize.cfg")
    return [(re.compile(parser[s]["regex"]), parser[s]["replace"]) for s in parser.sections()]


def comparable(outputs: list[dict[str, Any]], rules: list[tuple[re.Pattern[str], str]]) -> list[tuple[str, str]]:
    """Each output's stable text, as nbval compares it: streams merged by name, `text/plain`, error names."""
    items: list[tuple[str, str]] = []
    for output in outputs:
        kind = output["output_type"]
        if kind == "stream":
            if items and items[-1][0] == output["name"]:
                items[-1] = (output["name"], items[-1][1] + output["text"])
            else:
                items.append((output["name"], output["text"]))
        elif kind in ("execute_result", "display_data") and WIDGET not in output["data"]:
            text = output["data"].get("text/plain")
            if text is not None:
                items.append(("text/plain", "".join(text) if isinstance(text, list) else text))
        elif kind == "error":
            items.append(("error", output["ename"]))
    cleaned = []
    for name, text in items:
        for pattern, replacement in rules:
            text = pattern.sub(replacement, text)
        cleaned.append((name, text))
    return cleaned


# ---------------------------------------------------------------- the class


def start_servers(hub: Hub) -> dict[str, str]:
    """Create the students, start their servers through the REST API at once, give each their own token."""
    tokens = {}
    for name in STUDENTS:
        assert hub.api("POST", f"/users/{name}").status_code in (201, 409)
        reply = hub.api("POST", f"/users/{name}/tokens", json={"note": "classroom test", "expires_in": 3600})
        reply.raise_for_status()
        tokens[name] = reply.json()["token"]
    # As three students pressing "Start My Server" at the same moment, each with their own token. One at a time
    # they would not be: the hub answers such a request only once the server is up or after its
    # slow_spawn_timeout (10 s), so each would wait for the one before.
    with ThreadPoolExecutor(len(STUDENTS)) as pool:
        pressed = pool.map(lambda name: hub.api("POST", f"/users/{name}/server", token=tokens[name]), STUDENTS)
        for name, reply in zip(STUDENTS, pressed, strict=True):
            assert reply.status_code in (201, 202), (name, reply.status_code, reply.text)
    for name in STUDENTS:
        wait_for(f"{name}'s server", lambda name=name: hub.user(name)["servers"].get("", {}).get("ready"), 180)
        # "ready" can come a moment before the proxy routes /user/<name> to the server (a request then meets
        # the hub's 404): the student's first request waits for the route, as a browser's retry would.
        wait_for(f"{name}'s route", lambda name=name: _routed(hub, name, tokens[name]), 60)
    return tokens


def _routed(hub: Hub, name: str, token: str) -> bool:
    reply = requests.get(f"{hub.url}/user/{name}/api/status", headers={"Authorization": f"token {token}"}, timeout=10)
    return reply.status_code == 200


def open_notebook(hub: Hub, name: str, token: str) -> tuple[str, nbformat.NotebookNode]:
    """The student opens tutorial 1 on their own server, through the proxy: the notebook the hub put in
    their home, and a session whose kernel's websocket URL comes back."""
    base = f"{hub.url}/user/{name}"
    headers = {"Authorization": f"token {token}"}
    opened = requests.get(f"{base}/api/contents/{TUTORIAL}.ipynb", headers=headers, timeout=60)
    opened.raise_for_status()
    notebook = nbformat.from_dict(opened.json()["content"])
    body = {"path": f"{TUTORIAL}.ipynb", "type": "notebook", "name": "", "kernel": {"name": "python3"}}
    session = requests.post(f"{base}/api/sessions", headers=headers, json=body, timeout=60)
    session.raise_for_status()
    kernel = session.json()["kernel"]["id"]
    return f"{base.replace('http://', 'ws://')}/api/kernels/{kernel}/channels", notebook


STUDENT_OWN = """
import json, os
mine = await mcp_lab.call("Provisioner", "provision", {{"name": "db-of-{name}"}}, answers={{"region": {{"region": "{name}-land"}}}})
print(json.dumps({{"text": mine.text, "flows": len(mcp_lab.flows), "user": os.environ.get("JUPYTERHUB_USER"), "cwd": os.getcwd()}}))
"""

SERVE = """
import json
url = mcp_lab.serve("Provisioner")
print(json.dumps({"url": url, "secret": hasattr(mcp_lab, "auth_headers")}))
"""

KNOCK = """
import json
import httpx
import mcp.types

async def knock(url, headers):
    hello = {{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {{
        "protocolVersion": mcp.types.LATEST_PROTOCOL_VERSION, "capabilities": {{}},
        "clientInfo": {{"name": "knock", "version": "1"}}}}}}
    accept = {{"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}}
    async with httpx.AsyncClient() as client:
        return (await client.post(url, json=hello, headers={{**accept, **headers}})).status_code

own = mcp_lab.auth_headers("Provisioner") if hasattr(mcp_lab, "auth_headers") else {{}}
print(json.dumps({{
    "without credentials": await knock({url!r}, {{}}),
    "with my own server's secret": await knock({url!r}, own),
    "with my hub token": await knock({url!r}, {{"Authorization": "Bearer {hub_token}"}}),
}}))
"""

OWNER_KNOCK = """
secret = mcp_lab.auth_headers("Provisioner")
print(json.dumps([await knock({url!r}, secret), await knock({url!r}, {{**secret, "Origin": {origin!r}}})]))
"""


def last_json(run: CellRun) -> Any:
    assert run.status == "ok", run.error
    text = "".join(o["text"] for o in run.outputs if o["output_type"] == "stream" and o["name"] == "stdout")
    return json.loads(text.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory, say: Callable[[str], None]) -> Iterator[dict[str, Any]]:
    """The hub, the three students' servers and an open kernel each; the hub stops at the end."""
    directory = tmp_path_factory.mktemp("hub")
    log = say
    started = time.perf_counter()
    with running_hub(directory) as hub:
        log(f"hub and proxy up in {time.perf_counter() - started:.1f} s at {hub.url}")
        t0 = time.perf_counter()
        tokens = start_servers(hub)
        log(f"{len(STUDENTS)} servers started through the REST API in {time.perf_counter() - t0:.1f} s")
        state: dict[str, Any] = {"say": say, "hub": hub, "tokens": tokens, "kernels": {}, "notebooks": {}, "served": {}}
        loop = asyncio.new_event_loop()
        state["loop"] = loop

        async def connect_all() -> None:
            for name in STUDENTS:
                url, state["notebooks"][name] = open_notebook(hub, name, tokens[name])
                state["kernels"][name] = await RemoteKernel.connect(url, tokens[name], name)

        loop.run_until_complete(connect_all())
        try:
            yield state
        finally:
            for kernel in state["kernels"].values():
                kernel.close()
            loop.close()


def run(state: dict[str, Any], name: str, source: str) -> CellRun:
    kernel: RemoteKernel = state["kernels"][name]
    result: CellRun = state["loop"].run_until_complete(kernel.execute(source))
    return result


def test_three_students_run_tutorial_1_at_once_each_with_their_own_results(classroom: dict[str, Any]) -> None:
    log = classroom["say"]
    hub: Hub = classroom["hub"]
    shipped = nbformat.read(ROOT / "notebooks" / f"{TUTORIAL}.ipynb", as_version=4)
    # What each student runs: the notebook the hub gave them, the exercise answered (with the reference).
    answers = {c.id: c.source for c in with_solutions(SOURCES / f"{TUTORIAL}.py").cells}
    code = {}
    for name, notebook in classroom["notebooks"].items():
        assert [c.id for c in notebook.cells] == [c.id for c in shipped.cells], "the hub gave the course"
        code[name] = [c for c in notebook.cells if c.cell_type == "code"]
        for cell in code[name]:
            if "solution" in cell.metadata.get("tags", []):
                cell.source = answers[cell.id]

    async def everyone() -> dict[str, list[CellRun]]:
        kernels: dict[str, RemoteKernel] = classroom["kernels"]

        async def student(name: str) -> list[CellRun]:
            began = time.perf_counter()
            runs = await kernels[name].run_cells([cell.source for cell in code[name]])
            log(f"{name}: {len(runs)} cells of tutorial 1 in {time.perf_counter() - began:.1f} s")
            return runs

        results = await asyncio.gather(*(student(name) for name in STUDENTS))
        return dict(zip(STUDENTS, results, strict=True))

    began = time.perf_counter()
    runs = classroom["loop"].run_until_complete(everyone())
    log(f"tutorial 1 by {len(STUDENTS)} students at once: {time.perf_counter() - began:.1f} s")

    rules = sanitizers()
    expected = {cell.id: comparable(cell.outputs, rules) for cell in shipped.cells if cell.cell_type == "code"}
    for name, cells in runs.items():
        assert len(cells) == len(code[name]), f"{name} stopped at: {cells[-1].source[:80]!r}: {cells[-1].error}"
        for cell, result in zip(code[name], cells, strict=True):
            assert result.status == "ok", f"{name}, cell {cell.id}: {result.error}"
            tags = cell.metadata.get("tags", [])
            if "solution" in tags or "check" in tags or "nbval-ignore-output" in tags:
                continue
            got = comparable(result.outputs, rules)
            if cell.id in MEASURED:  # only the line that is not a measurement
                got, want = got[0][1].splitlines()[0], expected[cell.id][0][1].splitlines()[0]
                assert got == want, f"{name}, cell {cell.id}"
                continue
            assert got == expected[cell.id], f"{name}, cell {cell.id}"
        assert "well done: Provisioned 'ledger' in ap-southeast-2." in cells[-1].outputs[-1]["text"]
    log(
        f"{len(STUDENTS)} students x {len(code['ada'])} cells: outputs as in the shipped notebook (sanitized as nbval does)"
    )

    # Each kernel is the student's own: their user, their home, their flows only, their answers.
    flows = {}
    for name in STUDENTS:
        seen = last_json(run(classroom, name, STUDENT_OWN.format(name=name)))
        assert seen["text"] == f"Provisioned 'db-of-{name}' in {name}-land."
        assert seen["user"] == name and Path(seen["cwd"]).name == name
        flows[name] = seen["flows"]
    assert len(set(flows.values())) == 1, f"one kernel's flows leaked into another's: {flows}"
    assert hub.process.poll() is None


def test_a_students_server_refuses_other_students(classroom: dict[str, Any]) -> None:
    """ada serves the Provisioner over HTTP; grace calls it without credentials, with her own server's
    secret and with her hub token; ada calls it from a page of the hub (Origin). Only ada's secret, sent by
    her own code, gets in (checked once the lab has per-server secrets: `mcp_lab.auth_headers`)."""
    log = classroom["say"]
    hub: Hub = classroom["hub"]
    # The hub's own wall first: grace's token opens only grace's server.
    knocked = requests.get(
        f"{hub.url}/user/ada/api/contents",
        headers={"Authorization": f"token {classroom['tokens']['grace']}"},
        timeout=60,
        allow_redirects=False,
    )
    assert knocked.status_code == 403, knocked.status_code
    served = {name: last_json(run(classroom, name, SERVE)) for name in STUDENTS}
    classroom["served"] = served
    ports = {name: int(s["url"].rsplit(":", 1)[1].split("/")[0]) for name, s in served.items()}
    assert len(set(ports.values())) == len(STUDENTS), "each student's server has its own port"
    if not served["ada"]["secret"]:
        pytest.skip("this mcp_lab has no per-server secret yet (mcp_lab.auth_headers): any local process may call")
    url = served["ada"]["url"]
    statuses = last_json(run(classroom, "grace", KNOCK.format(url=url, hub_token=classroom["tokens"]["grace"])))
    run(classroom, "ada", KNOCK.format(url=url, hub_token=""))  # defines knock() in ada's kernel too
    # A page served by the hub (another student's notebook output, say) sends the hub's Origin: refused even
    # when it carries the owner's secret.
    owner, from_a_page = last_json(run(classroom, "ada", OWNER_KNOCK.format(url=url, origin=classroom["hub"].url)))
    statuses["from its owner"], statuses["from its owner, in a page of the hub"] = owner, from_a_page
    log(f"calls to ada's Provisioner: {statuses}")
    assert statuses == {
        "without credentials": 401,
        "with my own server's secret": 401,
        "with my hub token": 401,
        "from its owner": 200,
        "from its owner, in a page of the hub": 403,
    }


def test_stopping_a_students_server_frees_its_ports(classroom: dict[str, Any]) -> None:
    log = classroom["say"]
    hub: Hub = classroom["hub"]
    name = "linus"
    pids = process_tree(hub.server_pid(name))
    ports = listening_ports(pids)
    served = classroom["served"].get(name)
    if served:
        served_port = int(served["url"].rsplit(":", 1)[1].split("/")[0])
        assert served_port in ports, "the kernel's MCP server listens in the student's process tree"
    log(f"{name}'s server: {len(pids)} processes listening on {len(ports)} ports")
    classroom["kernels"].pop(name).close()
    began = time.perf_counter()
    assert hub.api("DELETE", f"/users/{name}/server", token=classroom["tokens"][name]).status_code in (202, 204)
    wait_for(f"{name}'s server to stop", lambda: "" not in hub.user(name)["servers"], 60)
    wait_for(f"{name}'s processes to end", lambda: not any(psutil.pid_exists(p) for p in pids), 30)
    log(f"{name}'s server stopped in {time.perf_counter() - began:.1f} s")
    assert listening_ports(pids) == set()
    left = still_listening(ports, pids, hub.directory)
    assert left == {}, f"ports still listening after the server stopped: {left}"
    for other in STUDENTS:
        if other != name:
            assert hub.user(other)["servers"][""]["ready"], "the other students' servers keep running"


def test_the_hub_and_proxy_stop_cleanly(classroom: dict[str, Any]) -> None:
    log = classroom["say"]
    hub: Hub = classroom["hub"]
    proxy = hub.proxy_pid()
    servers = set().union(*(process_tree(hub.server_pid(n)) for n in STUDENTS if n != "linus"))
    everything = {hub.process.pid, proxy, *servers}
    ports = set(hub.ports.values()) | listening_ports(everything)
    for kernel in classroom["kernels"].values():
        kernel.close()
    classroom["kernels"].clear()
    began = time.perf_counter()
    hub.process.send_signal(signal.SIGTERM)
    code = hub.process.wait(timeout=60)
    wait_for(
        "the proxy and the students' servers to end", lambda: not any(psutil.pid_exists(p) for p in everything), 30
    )
    log(f"hub, proxy and {len(STUDENTS) - 1} servers stopped in {time.perf_counter() - began:.1f} s (exit {code})")
    assert code == 0, hub.log_tail()
    left = still_listening(ports, everything, hub.directory)
    assert left == {}, f"ports still listening: {left}"
    assert "Traceback" not in hub.log.read_text(errors="replace"), hub.log_tail()
