"""How the tests start Jupyter servers -- JupyterLab and Notebook 7 (tests/browser/harness.py), the hub's
single-user servers (tests/classroom/hub.py), and JupyterLab's `labextension list` (tests/test_labextension.py):
`python -c server_main(app)`, the app's own main after two answers given in advance.

Every server start runs Node.js twice (~0.7 CPU-s, and the test run is bound by CPU):
- JupyterLab computes its npm registry when its server module is imported: with node on PATH it runs `node
  yarn.js config --json` (~0.5 CPU-s), whose output (Yarn 3's format) it does not parse, so the registry is
  always its default -- the configuration a server without node has. Given here as that empty configuration.
- The language-server extension (jupyter_lsp) runs `npm prefix -g` (~0.2 CPU-s) for where to look for
  language servers: asked here once per test process (npm_prefix()) and given to each server.
Nothing else changes: the same app, arguments, environment and extensions.
"""

from __future__ import annotations

import contextlib
import functools
import shutil
import subprocess

_NODE_ANSWERS = (
    "import jupyterlab.commands as lab; "
    "lab._yarn_config = lambda logger: {{'yarn config': {{}}, 'npm config': {{}}}}; "
    "import jupyter_lsp.types as lsp; lsp.LanguageServerManagerAPI._npm_prefix = lambda self, npm: {npm_prefix!r}; "
)


@functools.cache
def npm_prefix() -> str | None:
    """What `npm prefix -g` prints (None without npm: jupyter_lsp then looks under no npm prefix either)."""
    npm = shutil.which("npm")
    if npm is None:
        return None
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        return subprocess.run([npm, "prefix", "-g"], check=True, capture_output=True).stdout.decode().strip()
    return None


def server_main(app: str, before: str = "") -> str:
    """Python source for `python -c`: `before` (statements, each ending in `; `), the node answers, then the
    module `app`'s main, whose exit status is the process's."""
    answers = _NODE_ANSWERS.format(npm_prefix=npm_prefix())
    return f"import sys; {before}{answers}from {app} import main; sys.exit(main())"
