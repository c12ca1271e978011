"""`python -m mcp_lab replay` on bad input: exit 2 and one line saying why, for every unusable collection or option.

The table runs `main()` in this process (the CLI's own code, argv in, exit code and stderr out); two real
subprocesses then replay a collection recorded against a lab server served with its bearer secret: refused
without `--header`, the same as the recording with it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import mcp_lab
from mcp_lab.__main__ import EXIT_BAD_INPUT, main
from mcp_lab.replay.collection import FORMAT
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import serve
from tests.conftest import build_demo
from tests.replay.test_cli import _cli

GOOD_FLOW: dict[str, Any] = {
    "server": "demo",
    "method": "tools/call",
    "target": "handmade",
    "arguments": {"x": 1},
    "status": "done",
    "rounds": [],
}


def _collection(flows: Any = None, **document: Any) -> str:
    return json.dumps({"format": FORMAT, "version": 1, "flows": [GOOD_FLOW] if flows is None else flows, **document})


def _flow(**changes: Any) -> str:
    return _collection([{**GOOD_FLOW, **changes}])


def _round(**fields: Any) -> str:
    return _flow(rounds=[{"index": 0, "outcome": "input_required", **fields}])


@dataclass(frozen=True)
class Bad:
    name: str
    content: str | bytes | None
    """The collection file's content (None: no file is written; `DIR`: a directory)."""
    options: tuple[str, ...]
    expect: str


SERVER = ("--server", "http://127.0.0.1:1/mcp", "--connect-timeout", "2")
DIR = "<a directory>"

CASES = [
    Bad("missing file", None, SERVER, "no such collection"),
    Bad("a directory", DIR, SERVER, "cannot read"),
    Bad("not JSON", "{oops", SERVER, "is not JSON"),
    Bad("invalid UTF-8", b"\xff\xfe\x00garbage", SERVER, "cannot read"),
    Bad("a JSON list", "[1, 2]", SERVER, "is not an mcp_lab collection"),
    Bad("another format", json.dumps({"format": "x", "version": 1, "flows": []}), SERVER, "not an mcp_lab collection"),
    Bad("another version", json.dumps({"format": FORMAT, "version": 9, "flows": []}), SERVER, "collection version 9"),
    Bad("flows is text", _collection("abc"), SERVER, "'flows' must be a list of flows, not str"),
    Bad("flows is an object", _collection({"a": 1}), SERVER, "'flows' must be a list of flows, not dict"),
    Bad("no flows", _collection([]), SERVER, "holds no flows"),
    Bad("a flow is a number", _collection([5]), SERVER, "flow 0 lacks server, method or target"),
    Bad("a flow without target", _collection([{"server": "s", "method": "tools/call"}]), SERVER, "flow 0 lacks"),
    Bad("rounds is text", _flow(rounds="abc"), SERVER, "'rounds' must be a list, not str"),
    Bad("a round is a number", _flow(rounds=[3]), SERVER, "round 0 must be an object, not int"),
    Bad("an input request is a number", _round(input_requests={"q": 5}), SERVER, "input requests are malformed"),
    Bad("an input request of no kind", _round(input_requests={"q": {"method": "nope"}}), SERVER, "malformed"),
    Bad("input requests are a list", _round(input_requests=[1]), SERVER, "'input_requests' must be dict or null"),
    Bad("an unknown outcome", _round(outcome="maybe"), SERVER, "outcome must be one of"),
    Bad("a numeric token", _round(request_state=5), SERVER, "'request_state' must be str or null, not int"),
    Bad("an answer that is text", _round(sent_input_responses={"q": "x"}), SERVER, "answer sent for 'q'"),
    Bad("a bool index", _round(index=True), SERVER, "'index' must be int, not bool"),
    Bad("an unknown method", _flow(method="tools/frob"), SERVER, "method must be one of"),
    Bad("an unknown status", _flow(status="finished"), SERVER, "status must be one of"),
    Bad("arguments are a list", _flow(arguments=[1]), SERVER, "'arguments' must be dict, not list"),
    Bad("an unknown era", _flow(era="2020-01-01"), SERVER, "era must be"),
    Bad("a negative round cap", _flow(max_rounds=-1), SERVER, "max_rounds must be >= 0"),
    Bad("tools is a list", _collection(tools=[1]), SERVER, "'tools' must map server -> tool -> {inputSchema, headers}"),
    Bad("a server's tools are text", _collection(tools={"demo": "x"}), SERVER, "'tools' must map server"),
    Bad("a tool is a number", _collection(tools={"demo": {"t": 3}}), SERVER, "tool 't' of 'demo' is not"),
    Bad("a schema is text", _collection(tools={"demo": {"t": {"inputSchema": "x"}}}), SERVER, "tool 't' of 'demo'"),
    Bad(
        "headers are a list", _collection(tools={"demo": {"t": {"inputSchema": {}, "headers": []}}}), SERVER, "headers"
    ),
    Bad("--timeout 0", _collection(), (*SERVER, "--timeout", "0"), "timeouts must be positive numbers of seconds"),
    Bad("--timeout nan", _collection(), (*SERVER, "--timeout", "nan"), "timeouts must be positive"),
    Bad("--connect-timeout -1", _collection(), ("--server", "http://x/mcp", "--connect-timeout", "-1"), "positive"),
    Bad("--header without a colon", _collection(), (*SERVER, "--header", "nocolon"), '--header takes "Name: value"'),
    Bad("--header for stdio", _collection(), ("--stdio", "python", "--header", "A: b"), "--header is for --server"),
    Bad("an ftp URL", _collection(), ("--server", "ftp://127.0.0.1/mcp"), "not an http(s) URL"),
    Bad("nothing answers", _collection(), SERVER, "cannot connect 'replay-target'"),
    Bad("no such command", _collection(), ("--stdio", "no-such-command-xyz"), "cannot start 'no-such-command-xyz'"),
    Bad("--env without =", _collection(), ("--stdio", "python", "--env", "NOEQUALS"), "--env takes KEY=VALUE"),
    Bad("no target", _collection(), (), "one of the arguments --server --stdio is required"),
    Bad("both targets", _collection(), ("--server", "http://x/mcp", "--stdio", "python"), "not allowed with"),
    Bad("an unknown option", _collection(), (*SERVER, "--frob"), "unrecognized arguments: --frob"),
    Bad("--timeout abc", _collection(), (*SERVER, "--timeout", "abc"), "invalid float value: 'abc'"),
]


def _argv(case: Bad, tmp_path: Path) -> list[str]:
    path = tmp_path / "collection.json"
    if case.content == DIR:
        path.mkdir()
    elif isinstance(case.content, bytes):
        path.write_bytes(case.content)
    elif case.content is not None:
        path.write_text(case.content, encoding="utf-8")
    return ["replay", str(path), *case.options]


def _run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exit_:  # argparse's usage errors
        return int(exit_.code or 0)


def test_the_table_is_big_enough() -> None:
    assert len(CASES) >= 35 and len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_an_unusable_collection_or_option_exits_2_with_one_line(
    case: Bad, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = _run(_argv(case, tmp_path))
    captured = capsys.readouterr()
    assert code == EXIT_BAD_INPUT, (case.name, captured.out, captured.err)
    assert "Traceback" not in captured.err and captured.out == ""
    lines = captured.err.strip().splitlines()
    if lines[0].startswith("usage:"):  # argparse: the usage, then its one error line
        error_lines = [line for line in lines if ": error: " in line]
        assert len(error_lines) == 1 and case.expect in error_lines[0], (case.name, captured.err)
    else:
        assert len(lines) == 1 and lines[0].startswith("mcp_lab replay: error: "), (case.name, captured.err)
        assert case.expect in lines[0], (case.name, lines[0])


async def test_replay_against_a_lab_server_needs_its_secret(tmp_path: Path) -> None:
    """A separate process replays a collection recorded against a lab server: refused (exit 2, one line)
    without the server's secret, the same as the recording with it -- and the secret is not in the file."""
    entry = build_demo()
    try:
        serve(entry)
        flow = await mcp_lab.call("demo", "handmade", {"x": 4}, answers={"q1": {"n": 2}})
        assert flow.status == "done"
        path = mcp_lab.save_flows(tmp_path / "ci.json", [flow])
        header = mcp_lab.auth_headers("demo")["Authorization"]
        assert header.split()[1] not in path.read_text()
        code, out, err = await _cli("replay", str(path), "--server", entry.url or "", "--connect-timeout", "10")
        assert code == EXIT_BAD_INPUT and out == "", out + err
        assert (
            len(err.strip().splitlines()) == 1 and "requires a credential (HTTP 401)" in err and "Traceback" not in err
        ), err
        code, out, err = await _cli(
            "replay", str(path), "--server", entry.url or "", "--header", f"Authorization: {header}"
        )
        assert code == 0, out + err
        assert "no differences" in out.splitlines()[0] and header.split()[1] not in out + err
    finally:
        await sandbox.stop_all()
