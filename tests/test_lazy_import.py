"""`import mcp_lab` and `%load_ext mcp_lab` load the flow engine only; the rest loads on first use.

Why: a notebook pays for `%load_ext` before its first cell runs (bench/startup.py). Checked in a fresh
interpreter, by which modules are loaded -- not by timing.
"""

from __future__ import annotations

import subprocess
import sys

OPTIONAL = (
    "ipywidgets",
    "mcp_lab.servers.connect",
    "mcp_lab.servers.serving",
    "mcp_lab.replay.run",
    "mcp_lab.rotation.fleet",
    "mcp_lab.headers.experiments",
    "mcp_lab.tokens.inspector",
    "mcp_lab.tokens.tamper",
    "mcp_lab.flow.view",
    "mcp_lab.forms.base",
    "mcp_lab.forms.elicit",
)


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_load_ext_imports_no_optional_module() -> None:
    code = (
        "import sys, mcp_lab\n"
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "mcp_lab.load_ipython_extension(shell)\n"
        "assert 'mcp_call' in shell.magics_manager.magics['line']\n"
        "assert 'mcp_connect' in shell.magics_manager.magics['line']\n"
        f"print(sorted(m for m in {OPTIONAL!r} if m in sys.modules))\n"
    )
    assert run(code) == "[]"


def test_public_objects_win_over_their_modules_of_the_same_name() -> None:
    code = (
        "import mcp_lab, mcp_lab.replay.run, mcp_lab.servers.connect, mcp_lab.servers.serving\n"
        "from mcp_lab.servers.sandbox import Sandbox\n"
        "assert isinstance(mcp_lab.sandbox, Sandbox), mcp_lab.sandbox\n"
        "assert callable(mcp_lab.connect) and callable(mcp_lab.serve) and callable(mcp_lab.replay)\n"
        "from mcp_lab import connect, forms, replay, sandbox, serve\n"
        "assert sandbox is mcp_lab.sandbox and connect is mcp_lab.connect and serve is mcp_lab.serve\n"
        "assert replay is mcp_lab.replay and replay.__module__ == 'mcp_lab.replay.run'\n"
        "assert forms.FormAnswerer.__name__ == 'FormAnswerer' and callable(forms.prearrange)\n"
        "assert set(mcp_lab.__all__) <= set(dir(mcp_lab))\n"
        "print('ok')\n"
    )
    assert run(code) == "ok"
