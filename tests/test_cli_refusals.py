"""`python -m mcp_lab` answers `--help` and refuses bad arguments without importing the SDK.

Why: the SDK costs about a CPU-second to import, and a CI job that mistypes an option (or a person asking for
`--help`) needs none of it. Every case runs the real entry point, `mcp_lab.__main__.main`, in one fresh
interpreter, one after another; after each, the interpreter's modules say whether the SDK was loaded (checked
by which modules are loaded, not by timing). Each refusal keeps its exit code (2) and its one line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mcp_lab.audit.runner import CHECKS

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("mcp", "mcp_types", "pydantic", "pydantic_core", "httpx", "httpx2", "asyncio")
"""Modules the refusals must not load: the SDK and what it stands on."""

URL = "http://127.0.0.1:9/mcp"
ALL_CHECKS = ",".join(CHECKS)
CASES: list[tuple[list[str], int, str]] = [
    # argv, exit code, what its help (stdout) holds or its error's last line (stderr) starts with
    (["--help"], 0, "deploy-check"),
    (["replay", "--help"], 0, "--header-file FILE"),
    (["audit", "--help"], 0, "--max-wait SECONDS"),
    (["deploy-check", "--help"], 0, "--instance URL"),
    ([], 2, "python -m mcp_lab: error: the following arguments are required: COMMAND"),
    (["bogus"], 2, "python -m mcp_lab: error: argument COMMAND: invalid choice"),
    (["replay", "c.json"], 2, "python -m mcp_lab replay: error: one of the arguments --server --stdio is required"),
    (["replay", "c.json", "--server", URL, "--timeout", "-1"], 2, "mcp_lab replay: error: timeouts must be positive"),
    (["replay", "c.json", "--stdio", "x", "--header", "A: b"], 2, "mcp_lab replay: error: --header is for --server"),
    (["replay", "c.json", "--server", URL, "--header", "Bearer s3cr3t"], 2, 'mcp_lab replay: error: --header takes "Name'),
    (["audit", "c.json", "--server", URL, "--only", "nope"], 2, "mcp_lab audit: error: no check named 'nope'"),
    (["audit", "c.json", "--server", URL, "--skip", ALL_CHECKS], 2, "mcp_lab audit: error: every check is left out"),
    (["audit", "c.json", "--server", URL, "--max-wait", "0"], 2, "mcp_lab audit: error: --max-wait must be a positive"),
    (["audit", "c.json", "--stdio", "x", "--header-file", "h"], 2, "mcp_lab audit: error: --header is for --server"),
    (["deploy-check", URL, "c.json", "--timeout", "0"], 2, "mcp_lab deploy-check: error: --timeout must be a positive"),
    (["deploy-check", URL, "c.json", "--header", "nocolon"], 2, 'mcp_lab deploy-check: error: --header takes "Name'),
    (["deploy-check", URL, "c.json", "--header", "Bearer s3cr3t"], 2, 'mcp_lab deploy-check: error: --header takes "Name'),
    (["deploy-check", URL, "c.json", "--times", "x"], 2, "python -m mcp_lab deploy-check: error: argument --times"),
]

DRIVER = """
import contextlib, io, json, sys
from mcp_lab.__main__ import main
results = []
for argv in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    heavy = sorted(m for m in json.loads(sys.argv[2]) if m in sys.modules)
    results.append({"code": code, "out": out.getvalue(), "err": err.getvalue(), "heavy": heavy})
print(json.dumps(results))
"""


def test_help_and_bad_arguments_load_no_sdk_and_keep_their_exit_codes_and_lines() -> None:
    argvs = [argv for argv, _, _ in CASES]
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(argvs), json.dumps(HEAVY)],
        capture_output=True, text=True, timeout=120, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    for (argv, code, last), result in zip(CASES, results, strict=True):
        assert result["heavy"] == [], f"{argv}: expected no SDK module loaded, found {result['heavy']}"
        assert result["code"] == code, f"{argv}: expected exit {code}, found {result['code']}: {result['err']!r}"
        if code == 0:
            assert last in result["out"] and result["err"] == "", f"{argv}: expected {last!r} in {result['out']!r}"
        else:
            lines = result["err"].strip().splitlines()
            assert lines and lines[-1].startswith(last), f"{argv}: expected a last line {last!r}, found {lines}"
            assert result["out"] == "", f"{argv}: expected nothing on stdout, found {result['out']!r}"
            assert "Traceback" not in result["err"] and "s3cr3t" not in result["err"], (argv, result["err"])
            if not last.startswith("python -m mcp_lab"):  # the lab's own refusals: one line, no usage
                assert len(lines) == 1, f"{argv}: expected one line, found {lines}"


def test_the_audit_names_the_checks_the_runner_runs() -> None:
    from mcp_lab.audit.runner import DEFAULT_MAX_WAIT as runner_default
    from mcp_lab.audit.selection import CHECK_IDS, DEFAULT_MAX_WAIT, select

    assert list(CHECK_IDS) == list(CHECKS) == select()
    assert runner_default == DEFAULT_MAX_WAIT
