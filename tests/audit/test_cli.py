"""`python -m mcp_lab audit COLLECTION --server URL | --stdio "CMD"`: exit 0 when no MUST is broken, 1 when
one is, 2 when the audit cannot run; the text report on stdout, JSON and JUnit XML written on request.

Spec context: the 2026-07-28 rules the audit checks, run as a CI step against a server started the way a CI
job starts one (a subprocess over stdio, or over HTTP), repeating a collection saved in a notebook.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import mcp_lab
from tests.audit.helpers import ROOT, command, http_subprocess, record, started
from tests.audit.servers import load
from tests.cli_batch import run_batch


async def _cli(*args: str) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "mcp_lab", "audit", *args, env=env, cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def _collection(name: str, path: Path) -> Path:
    """The module's calls, recorded in-process and saved as a notebook would (tokens not saved)."""
    module = load(name)
    async with started(module, "in-process") as connection:
        flows = await record(connection, module.CALLS)
    return mcp_lab.save_flows(path / f"{name}.flows.json", flows)


async def test_a_well_behaved_server_over_stdio_exits_0_and_writes_json_and_junit(tmp_path: Path) -> None:
    collection = await _collection("good_lowlevel", tmp_path)
    stdio = shlex.join(command(load("good_lowlevel"), "--stdio"))
    junit, report = tmp_path / "audit.xml", tmp_path / "audit.json"
    code, out, err = await _cli(str(collection), "--stdio", stdio, "--junit", str(junit), "--json", str(report))
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[0] == f"server: stdio: {stdio}"
    assert lines[1].startswith(
        "audit of 'good-lowlevel' (stdio, 2026-07-28): 10 rule(s) kept, 0 broken (0 MUST), 0 warned, 6"
    )
    assert lines[2] == "exit code 0: no rule broken"
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == "16" and suite.get("failures") == "0"
    assert suite.get("skipped") == "6"  # lifetime unknown, no affinity over stdio, four HTTP-only rules
    record_ = json.loads(report.read_text(encoding="utf-8"))
    assert record_["kind"] == "audit" and record_["exit_code"] == 0 and record_["server"] == "good-lowlevel"


async def test_a_broken_must_exits_1_with_the_rule_in_the_log(tmp_path: Path) -> None:
    collection = await _collection("refund_plaintext", tmp_path)
    stdio = shlex.join(command(load("refund_plaintext"), "--stdio"))
    junit = tmp_path / "audit.xml"
    code, out, err = await _cli(str(collection), "--stdio", stdio, "--junit", str(junit), "--skip", "state-lifetime")
    assert code == 1, out + err
    assert "exit code 1: broken: state-integrity (MUST), state-binding (SHOULD)" in out
    assert "FAIL  MUST      state-integrity" in out
    assert "came back: result 'Refunded order 1 (26 EUR)'" in out
    cases = {c.get("name", "").split(":")[0]: c for c in ET.parse(junit).getroot().iter("testcase")}
    assert "state-lifetime" not in cases
    assert cases["state-integrity"].find("failure").get("type") == "MUST"  # type: ignore[union-attr]
    assert cases["state-binding"].find("failure").get("type") == "SHOULD"  # type: ignore[union-attr]
    assert cases["state-readable"].find("system-out") is not None  # a warning: shown, not a failure


async def test_over_http_a_collection_recorded_in_process_is_repeated(tmp_path: Path) -> None:
    # Recorded in-process, the resolver's key names its module; served as a script it is __main__:confirm.
    collection = await _collection("any_param", tmp_path)
    async with http_subprocess(load("any_param")) as url:
        code, out, err = await _cli(str(collection), "--server", url, "--only", "header-mismatch,header-missing")
    assert code == 1, out + err
    assert "exit code 1: broken: header-mismatch (MUST), header-missing (MUST)" in out
    assert "came back: result 'Dune: 3 copies in eu-west'" in out  # the gateway's header said another region


async def test_resolver_keys_of_another_module_still_find_their_recorded_answers(tmp_path: Path) -> None:
    collection = await _collection("good_mcpserver", tmp_path)
    async with http_subprocess(load("good_mcpserver")) as url:
        code, out, err = await _cli(str(collection), "--server", url, "--skip", "state-lifetime")
    assert code == 0, out + err
    assert "15 rule(s) kept, 0 broken (0 MUST), 0 warned, 0 not applicable" in out


async def test_the_audit_cannot_run_exits_2_with_one_line(tmp_path: Path) -> None:
    collection = await _collection("good_lowlevel", tmp_path)
    cases = [
        ((str(tmp_path / "missing.json"), "--server", "http://127.0.0.1:9/mcp"), "no such collection"),
        ((str(collection), "--server", "http://127.0.0.1:9/mcp", "--only", "state-nonsense"), "no check named"),
        ((str(collection), "--server", "http://127.0.0.1:9/mcp", "--connect-timeout", "5"), "nothing answers at"),
        ((str(collection), "--stdio", "no-such-command-here"), "cannot start"),
        ((str(collection), "--server", "http://127.0.0.1:9/mcp", "--max-wait", "-1"), "--max-wait must be"),
    ]
    # All of them in one interpreter (tests/cli_batch.py: the real entry point per case, its exit code and its
    # stdout and stderr): what they test is the one line and the exit code, not the process start.
    runs = run_batch([["audit", *args] for args, _ in cases] + [["audit", str(collection)]])
    for (args, message), (code, out, err) in zip(cases, runs[:-1], strict=True):
        assert code == 2, (args, out, err)
        assert out == "" and len(err.strip().splitlines()) == 1 and message in err, (args, err)
    code, _, err = runs[-1]  # neither --server nor --stdio: argparse's usage error
    assert code == 2 and "one of the arguments --server --stdio is required" in err
