"""A Python 3 kernel spec that starts the environment's own ipykernel without what no test uses.

`write_spec(folder)` writes `folder/kernels/python3/kernel.json`: the environment's installed Python 3 kernel
spec with its command line replaced by what `python -m ipykernel_launcher` runs (the working folder off
sys.path while ipykernel loads; the kernel puts it back), started without

- debugpy: ipykernel imports it at start only to offer Jupyter's debugger (on ImportError it offers none,
  `metadata.debugger` false says so, and the kernel runs as before). ~0.2 of a kernel start's ~0.7 CPU-s
  before the lab is loaded (measured), paid by every kernel; nothing here debugs;
- the grammar module jsonschema would build on import (tests/startup.py's BLOCK; the lab blocks it as well
  when it is imported first).

A process puts `folder` at the front of JUPYTER_PATH for the kernels it starts (jupyter_client finds a
`python3` spec there before the environment's own). Used by the grading tests (tests/classroom/grading.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.startup import BLOCK

__all__ = ["KERNEL", "write_spec"]

KERNEL = BLOCK + (
    "del sys.path[0]; sys.modules['debugpy'] = None; from ipykernel import kernelapp; kernelapp.launch_new_instance()"
)
"""The kernel's `python -c` code."""


def write_spec(folder: Path) -> Path:
    """`folder/kernels/python3/kernel.json` as above; `folder`, for the front of JUPYTER_PATH."""
    installed = Path(sys.prefix) / "share" / "jupyter" / "kernels" / "python3" / "kernel.json"
    spec = json.loads(installed.read_text())
    assert spec["argv"][1:3] == ["-m", "ipykernel_launcher"], spec["argv"]  # the start this replaces
    spec["argv"] = [sys.executable, "-c", KERNEL, *spec["argv"][3:]]
    spec["metadata"] = {**spec.get("metadata", {}), "debugger": False}
    (folder / "kernels" / "python3").mkdir(parents=True, exist_ok=True)
    (folder / "kernels" / "python3" / "kernel.json").write_text(json.dumps(spec, indent=1))
    return folder
