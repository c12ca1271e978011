"""Loaded first by every pytest run of `./dev test` (`-p tests.startup`): what a test process goes without.

jsonschema imports rfc3987_syntax when it is installed (JupyterLab pulls it in), and that module builds
its grammars on import: 1.8 CPU-s (measured), paid by every process that imports nbformat -- each pytest
process (nbval's plugin imports it before any conftest), each xdist worker, each nbgrader run. It adds only
jsonschema's "iri" formats, which nothing here checks; the lab's kernels (mcp_lab/__init__.py) and the
JupyterLab of tests/browser (tests/browser/harness.py) already go without it. `-p` plugins are imported
before the installed ones (nbval), so this comes first; jsonschema then skips those formats on ImportError.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Generator

import pytest

if "jsonschema" not in sys.modules:
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]

BLOCK = "import sys; sys.modules.setdefault('rfc3987_syntax', None); "
"""The same, at the start of a `python -c` command line, for the Python tools a test starts (nbgrader)."""


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session: pytest.Session) -> Generator[None, object, object]:
    """With MCP_LAB_TEST_GATE set, a pytest process collects, then runs nothing until that file exists.

    `./dev test` starts step 2's runs (the xdist workers, the tutorials' nbval) while the tests that must
    run alone still run, so that their start and collection (seconds of CPU each: every test module or
    notebook read) use the cores those leave idle. Collecting starts no process and binds no port, which
    is all those tests need of a neighbour; kernels, servers and browsers start with the first test."""
    gate = os.environ.get("MCP_LAB_TEST_GATE")
    if gate:
        while not os.path.exists(gate):
            time.sleep(0.2)
    return (yield)
