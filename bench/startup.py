"""Start-up cost of the lab in a fresh kernel, against the SDK and ipywidgets imported alone.

Spec context: none of the protocol's -- this is the price a notebook pays before its first cell runs:
`%load_ext mcp_lab` versus `import mcp.server.mcpserver, ipywidgets` (the lab cannot be cheaper than the
SDK it wraps), then the first `mcp_lab.call` after loading (the SDK's lazy jsonschema import and the
client's start land here; the lab keeps jsonschema from importing rfc3987-syntax, whose grammar takes seconds to build).

Run: python -m bench.startup [ROUNDS, default 9]   (goals: median ratio <= 1.15; first call < 0.3 s)
"""

from __future__ import annotations

import os
import statistics
import sys
from typing import Any

from jupyter_client.manager import start_new_kernel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernel_env() -> dict[str, str]:
    """This checkout first on the kernel's import path (as the kernel tests run it)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH", "")) if p)
    return env


LOAD = "import time as _t\n_s = _t.perf_counter()\n%load_ext mcp_lab\nprint(_t.perf_counter() - _s)"
BARE = (
    "import time as _t\n_s = _t.perf_counter()\nimport mcp.server.mcpserver, ipywidgets\nprint(_t.perf_counter() - _s)"
)
SERVER = """%%mcp_server demo
from typing import Annotated
from pydantic import BaseModel
from mcp.server.mcpserver import Elicit, Resolve
class Region(BaseModel):
    region: str
async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)
@mcp.tool()
async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
    return f"Booked {city} in {region.region}"
"""
FIRST_CALL = (
    "import mcp_lab\n_s = _t.perf_counter()\n"
    "_f = await mcp_lab.call('demo', 'book', {'city': 'P'}, answers={'ask_region': {'region': 'eu'}})\n"
    "assert _f.status == 'done'\nprint(_t.perf_counter() - _s)"
)


def _execute(client: Any, code: str) -> str:
    out: list[str] = []

    def hook(msg: dict[str, Any]) -> None:
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            raise RuntimeError(msg["content"]["evalue"])

    client.execute_interactive(code, output_hook=hook, timeout=120)
    return "".join(out).strip()


def _fresh(*cells: str) -> list[float]:
    km, kc = start_new_kernel(kernel_name="python3", env=kernel_env())
    try:
        return [float(_execute(kc, c)) if c is not SERVER else (_execute(kc, c) and 0.0) for c in cells]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def main(rounds: int) -> None:
    load: list[float] = []
    bare: list[float] = []
    first: list[float] = []
    for i in range(rounds):
        order = ("lab", "bare") if i % 2 == 0 else ("bare", "lab")  # alternate who starts first
        for which in order:
            if which == "lab":
                t_load, _, t_first = _fresh(LOAD, SERVER, FIRST_CALL)
                load.append(t_load)
                first.append(t_first)
            else:
                bare.append(_fresh(BARE)[0])
    median = {"lab": statistics.median(load), "bare": statistics.median(bare)}
    best = {"lab": min(load), "bare": min(bare)}
    # Bytecode: the SDK's site-packages carry .pyc files; with PYTHONDONTWRITEBYTECODE set (as on the shared
    # machine) a source checkout of mcp_lab is compiled at every start -- part of what this measures.
    compiled = "set: mcp_lab compiles at every start" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "unset"
    print(f"fresh kernels each: {rounds} (PYTHONDONTWRITEBYTECODE {compiled})")
    print(
        f"%load_ext mcp_lab                           median {median['lab'] * 1000:5.0f} ms  best {best['lab'] * 1000:5.0f} ms"
    )
    print(
        f"import mcp.server.mcpserver, ipywidgets     median {median['bare'] * 1000:5.0f} ms  best {best['bare'] * 1000:5.0f} ms"
    )
    paired = statistics.median(lab / plain for lab, plain in zip(load, bare, strict=True))
    print(
        f"ratio load_ext / bare imports: median {median['lab'] / median['bare']:.3f}, "
        f"best {best['lab'] / best['bare']:.3f}, median of the rounds' own ratios {paired:.3f}  (goal <= 1.15)"
    )
    print(
        f"first mcp_lab.call after loading: median {statistics.median(first) * 1000:.0f} ms, "
        f"worst {max(first) * 1000:.0f} ms  (goal < 300 ms)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 9)
