"""`python -m mcp_lab replay`: a recording as a CI regression test -- exit 0 same, 1 different, 2 bad input."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab.__main__ import main
from mcp_lab.servers.sandbox import sandbox
from tests.sample_servers.booking import build, command
from tests.sample_servers.loopback import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]


async def _cli(*args: str) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "mcp_lab", *args, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


@pytest.fixture
async def recording(tmp_path: Path) -> AsyncIterator[tuple[Path, str, str]]:
    """A collection recorded against variant A over HTTP; the URLs of variants A and B."""
    a = await LoopbackServer(build("A").streamable_http_app()).start()
    b = await LoopbackServer(build("B").streamable_http_app()).start()
    try:
        await mcp_lab.connect("rec", a.url)
        flows = [
            await mcp_lab.call("rec", "book", {"city": "Oslo"}, answers={"ask_region": {"region": "north"}}),
            await mcp_lab.call("rec", "handmade", {"x": 1}, answers={"q1": {"n": 7}}),
        ]
        await sandbox.stop_all()
        yield mcp_lab.save_flows(tmp_path / "ci.json", flows), a.url, b.url
    finally:
        await sandbox.stop_all()
        await a.stop()
        await b.stop()


async def test_same_server_exits_0_and_a_changed_one_exits_1_with_the_diff(recording: tuple[Path, str, str]) -> None:
    path, url_a, url_b = recording
    code, out, err = await _cli("replay", str(path), "--server", url_a)
    assert code == 0, out + err
    assert out.splitlines()[0] == f"replay against {url_a!r}: 2 flow(s), no differences"
    code, out, _ = await _cli("replay", str(path), "--server", url_b)
    assert code == 1
    assert out.splitlines() == [
        f"replay against {url_b!r}: 2 flow(s), 1 different, 1 stopped",
        '  DIFFERENT  tools/call book {"city": "Oslo"}',
        "      - $.rounds[0].inputRequests['tests.sample_servers.booking:ask_region'].params.message:"
        " 'Which region for Oslo?' -> 'In which region is Oslo?'",
        "      - $.result.content[0].text: 'Booked Oslo in north' -> 'Booked Oslo (north)'",
        "      - $.result.structuredContent.result: 'Booked Oslo in north' -> 'Booked Oslo (north)'",
        '  STOPPED    tools/call handmade {"x": 1}',
        "      - $.rounds[1].inputRequests.q2 (elicitation 'and another?'): not in the recording; replay stopped here",
    ]


async def test_stdio_target_and_json_output(recording: tuple[Path, str, str]) -> None:
    path, _, _ = recording
    code, out, _ = await _cli("replay", str(path), "--stdio", shlex.join(command("B")), "--json")
    assert code == 1
    report = json.loads(out)
    assert report["ok"] is False and [e["status"] for e in report["entries"]] == ["different", "stopped"]
    # Run as a script, the server names its resolver `__main__:ask_region`: the same resolver as the recording's
    # `tests.sample_servers.booking:ask_region` (only the module differs), so it is answered and compared as that one.
    assert [d["where"] for d in report["entries"][0]["differences"]] == [
        "$.rounds[0].inputRequests['tests.sample_servers.booking:ask_region'].params.message",
        "$.result.content[0].text",
        "$.result.structuredContent.result",
    ]


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "missing.json"), "--server", "http://127.0.0.1:9/mcp"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such collection" in err
    empty = tmp_path / "empty.json"
    empty.write_text('{"format": "mcp-lab/flows", "version": 1, "flows": []}')
    assert main(["replay", str(empty), "--server", "http://127.0.0.1:9/mcp"]) == 2
    assert "holds no flows" in capsys.readouterr().err
    for argv in ([], ["replay", str(empty)], ["replay", str(empty), "--server", "u", "--stdio", "c"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
    capsys.readouterr()


def test_an_unreachable_server_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    flows = tmp_path / "one.json"
    flows.write_text(
        '{"format": "mcp-lab/flows", "version": 1, "flows": [{"server": "s", "method": "tools/call", "target": "t"}]}'
    )
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert main(["replay", str(flows), "--server", f"http://127.0.0.1:{port}/mcp"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot connect 'replay-target': nothing answers at" in err
