"""The audit's entry points: `mcp_lab.audit` is the function (not its package), `%load_ext` registers
`%mcp_audit` without loading the audit itself (only its record type, which every view's schema lists), and `python -m mcp_lab audit --help` lists every check.

Spec context: none of the protocol's -- a notebook pays for `%load_ext` before its first cell runs.
"""

from __future__ import annotations

import subprocess
import sys

from mcp_lab.audit.runner import CHECKS


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_load_ext_registers_the_magic_and_loads_no_check() -> None:
    code = (
        "import sys, mcp_lab\n"
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "mcp_lab.load_ipython_extension(shell)\n"
        "assert 'mcp_audit' in shell.magics_manager.magics['line']\n"
        "loaded = {m for m in sys.modules if m.startswith('mcp_lab.audit.')}\n"
        "print(sorted(loaded - {'mcp_lab.audit.model'}))\n"
    )
    assert _run("-c", code).strip() == "[]"


def test_the_public_audit_is_the_function_whichever_module_loads_first() -> None:
    code = (
        "import mcp_lab.audit.model, mcp_lab.record_schema, inspect, mcp_lab\n"
        "assert inspect.iscoroutinefunction(mcp_lab.audit), mcp_lab.audit\n"
        "assert 'audit' in mcp_lab.record_schema.KINDS\n"
        "from mcp_lab import AuditReport\n"
        "print(AuditReport.__module__)\n"
    )
    assert _run("-c", code).strip() == "mcp_lab.audit.report"


def test_the_command_lists_every_check() -> None:
    text = "".join(_run("-m", "mcp_lab", "audit", "--help").split())  # argparse wraps lines where it likes
    assert "Checks:" + ",".join(CHECKS) + "." in text
    assert "--serverURL" in text and '--stdio"COMMANDARGS"' in text and "--junitFILE" in text
