"""`python -m mcp_lab audit COLLECTION --server URL | --stdio "CMD"`: exit 0 when no MUST is broken, 1 when
one is, 2 when the audit cannot run; the text report on stdout, JSON and JUnit XML written on request.

Spec context: the 2026-07-28 rules the audit checks, run as a CI step against a server started the way a CI
job starts one (a subprocess over stdio, or over HTTP), repeating a collection saved in a notebook. Every
run of this file goes through the real entry point in one interpreter (tests/cli_batch.py: each run's exit
code, stdout and stderr; tests/audit/test_entry_points.py starts `python -m mcp_lab audit` as a process of
its own): what they test is the report and the exit code, not the process start. Each server is a process
of its own (started by the audit over stdio, or serving HTTP).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import mcp_lab
from tests.audit.helpers import command, http_subprocess, record, started
from tests.audit.servers import load
from tests.cli_batch import run_batch

Result = tuple[int, str, str]
"""One command-line run: exit code, stdout, stderr."""


async def _collection(name: str, path: Path) -> Path:
    """The module's calls, recorded in-process and saved as a notebook would (tokens not saved)."""
    module = load(name)
    async with started(module, "in-process") as connection:
        flows = await record(connection, module.CALLS)
    return mcp_lab.save_flows(path / f"{name}.flows.json", flows)


def _stdio(name: str) -> str:
    return shlex.join(command(load(name), "--stdio"))


async def _every_run(folder: Path) -> dict[str, Result]:
    names = ("good_lowlevel", "refund_plaintext", "any_param", "good_mcpserver")
    good, refund, any_param, good_mcp = [str(await _collection(name, folder)) for name in names]
    unreachable = "http://127.0.0.1:9/mcp"
    cases: dict[str, list[str]] = {
        "stdio good": [good, "--stdio", _stdio("good_lowlevel"), "--junit", str(folder / "good.xml"),
                       "--json", str(folder / "good.json")],
        "stdio broken must": [refund, "--stdio", _stdio("refund_plaintext"), "--junit", str(folder / "refund.xml"),
                              "--skip", "state-lifetime"],
        "no such collection": [str(folder / "missing.json"), "--server", unreachable],
        "no check named": [good, "--server", unreachable, "--only", "state-nonsense"],
        "nothing answers at": [good, "--server", unreachable, "--connect-timeout", "5"],
        "cannot start": [good, "--stdio", "no-such-command-here"],
        "--max-wait must be": [good, "--server", unreachable, "--max-wait", "-1"],
        "usage": [good],  # neither --server nor --stdio
    }  # fmt: skip
    async with contextlib.AsyncExitStack() as servers:
        any_url, good_url = await asyncio.gather(
            servers.enter_async_context(http_subprocess(load("any_param"))),
            servers.enter_async_context(http_subprocess(load("good_mcpserver"))),
        )
        cases["http any param"] = [any_param, "--server", any_url, "--only", "header-mismatch,header-missing"]
        cases["http good mcpserver"] = [good_mcp, "--server", good_url, "--skip", "state-lifetime"]
        results = await asyncio.to_thread(run_batch, [["audit", *args] for args in cases.values()])
    return dict(zip(cases, results, strict=True))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("audit-cli")


@pytest.fixture(scope="module")
def runs(folder: Path) -> dict[str, Result]:
    """Every run of this file by name: its exit code, stdout and stderr."""
    return asyncio.run(_every_run(folder))


def test_a_well_behaved_server_over_stdio_exits_0_and_writes_json_and_junit(
    runs: dict[str, Result], folder: Path
) -> None:
    code, out, err = runs["stdio good"]
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[0] == f"server: stdio: {_stdio('good_lowlevel')}"
    assert lines[1].startswith(
        "audit of 'good-lowlevel' (stdio, 2026-07-28): 10 rule(s) kept, 0 broken (0 MUST), 0 warned, 6"
    )
    assert lines[2] == "exit code 0: no rule broken"
    suite = ET.parse(folder / "good.xml").getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == "16" and suite.get("failures") == "0"
    assert suite.get("skipped") == "6"  # lifetime unknown, no affinity over stdio, four HTTP-only rules
    record_ = json.loads((folder / "good.json").read_text(encoding="utf-8"))
    assert record_["kind"] == "audit" and record_["exit_code"] == 0 and record_["server"] == "good-lowlevel"


def test_a_broken_must_exits_1_with_the_rule_in_the_log(runs: dict[str, Result], folder: Path) -> None:
    code, out, err = runs["stdio broken must"]
    assert code == 1, out + err
    assert "exit code 1: broken: state-integrity (MUST), state-binding (SHOULD)" in out
    assert "FAIL  MUST      state-integrity" in out
    assert "came back: result 'Refunded order 1 (26 EUR)'" in out
    cases = {c.get("name", "").split(":")[0]: c for c in ET.parse(folder / "refund.xml").getroot().iter("testcase")}
    assert "state-lifetime" not in cases
    assert cases["state-integrity"].find("failure").get("type") == "MUST"  # type: ignore[union-attr]
    assert cases["state-binding"].find("failure").get("type") == "SHOULD"  # type: ignore[union-attr]
    assert cases["state-readable"].find("system-out") is not None  # a warning: shown, not a failure


def test_over_http_a_collection_recorded_in_process_is_repeated(runs: dict[str, Result]) -> None:
    # Recorded in-process, the resolver's key names its module; served as a script it is __main__:confirm.
    code, out, err = runs["http any param"]
    assert code == 1, out + err
    assert "exit code 1: broken: header-mismatch (MUST), header-missing (MUST)" in out
    assert "came back: result 'Dune: 3 copies in eu-west'" in out  # the gateway's header said another region


def test_resolver_keys_of_another_module_still_find_their_recorded_answers(runs: dict[str, Result]) -> None:
    code, out, err = runs["http good mcpserver"]
    assert code == 0, out + err
    assert "15 rule(s) kept, 0 broken (0 MUST), 0 warned, 0 not applicable" in out


def test_the_audit_cannot_run_exits_2_with_one_line(runs: dict[str, Result]) -> None:
    for message in ("no such collection", "no check named", "nothing answers at", "cannot start", "--max-wait must be"):
        code, out, err = runs[message]
        assert code == 2, (message, out, err)
        assert out == "" and len(err.strip().splitlines()) == 1 and message in err, (message, err)
    code, _, err = runs["usage"]  # argparse's usage error
    assert code == 2 and "one of the arguments --server --stdio is required" in err
