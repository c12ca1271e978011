"""The JupyterLab extension is built at install time and JupyterLab sees it enabled.

Why: the richer views (`application/vnd.mcp-lab.*+json`) exist only if `pip install` -- including the
editable install `./dev test` and CI make from a fresh clone -- built `labextension/` into
`mcp_lab/labextension` and installed it where JupyterLab looks (share/jupyter/labextensions/mcp-lab).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import mcp_lab
from tests.jupyter_servers import server_main

BUILT = Path(mcp_lab.__file__).parent / "labextension"
HINT = "`pip install -e .` builds and installs it (or: cd labextension && jlpm install && jlpm build)"


def test_labextension_paths_point_at_the_built_bundle() -> None:
    paths = mcp_lab._jupyter_labextension_paths()
    assert paths == [{"src": "labextension", "dest": "mcp-lab"}]
    assert (BUILT / "package.json").is_file(), f"the extension is not built at {BUILT}: {HINT}"
    package = json.loads((BUILT / "package.json").read_text())
    assert package["name"] == "mcp-lab"
    assert package["version"] == mcp_lab.__version__, "labextension/package.json and mcp_lab.__version__ differ"
    assert package["jupyterlab"]["mimeExtension"], package["jupyterlab"]
    assert (BUILT / package["jupyterlab"]["_build"]["load"]).is_file()


# `jupyter labextension list` runs jupyterlab.labextensions:main; run that entry point directly, minus the
# seconds jsonschema spends building rfc3987_syntax's grammar for formats the listing never checks, and
# minus the three `node yarn.js config --json` runs (~1.4 CPU-s) whose answer is known (tests/jupyter_servers.py).
LABEXTENSION_MAIN = server_main("jupyterlab.labextensions", before="sys.modules['rfc3987_syntax'] = None; ")


def test_jupyterlab_lists_the_extension_enabled_and_ok() -> None:
    listing = subprocess.run(
        [sys.executable, "-c", LABEXTENSION_MAIN, "list"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = listing.stdout + listing.stderr
    line = next((entry for entry in output.splitlines() if re.search(r"\bmcp-lab\b", entry)), None)
    assert line is not None, f"JupyterLab does not list mcp-lab: {HINT}\n{output}"
    assert re.search(rf"mcp-lab v{re.escape(mcp_lab.__version__)} .*enabled.*OK", line), line
