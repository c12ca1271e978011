"""CPU a kernel costs to start and load the lab: exec'd as a user's is, and forked as the test processes' are.

Spec context: none of the protocol's -- on a shared 2-core machine the suite's wall time follows its CPU, and
it starts about a hundred kernels. Measured here, in CPU seconds of the kernel process itself (user + system
from /proc, read just before it is shut down, so a busy machine shifts the figures less than wall time
would), interleaved round by round (the order turned round each round):

- a bare ipykernel, exec'd (`python -m ipykernel_launcher`), ready and one empty cell run: the floor;
- the same kernel, then `%load_ext mcp_lab` (the cell every tutorial and kernel test starts with): what a
  user's kernel pays;
- the same two cells in a kernel forked by a test process's preloaded interpreter (tests/forked_kernels.py):
  what each kernel of the suite pays now; the fork server's own CPU, paid once per test process, is
  printed beside it.

Measured (6 rounds, the shared 2-core machine under load): bare 0.48, exec'd + load 1.57, forked + load
0.15 CPU-s (0.10 x exec'd: 1.4 CPU-s saved per kernel); the fork server 1.5 CPU-s once per test process.

Run: python -m bench.kernel_start [ROUNDS, default 6]
"""

from __future__ import annotations

import multiprocessing.forkserver
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLOCK = os.sysconf("SC_CLK_TCK")
LOAD = "%load_ext mcp_lab"
WAYS = {
    "bare ipykernel, exec'd": ("local-provisioner", "pass"),
    "exec'd + %load_ext mcp_lab": ("local-provisioner", LOAD),
    "forked + %load_ext mcp_lab": ("mcp-lab-test-forked", LOAD),
}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK


def one(provisioner: str, cell: str) -> float:
    from jupyter_client.manager import KernelManager
    from jupyter_client.provisioning.factory import KernelProvisionerFactory

    KernelProvisionerFactory.instance().default_provisioner_name = provisioner
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as `./dev test` runs
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(env=env, cwd=str(ROOT))
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        reply = client.execute_interactive(cell, timeout=120, output_hook=lambda message: None)
        assert reply["content"]["status"] == "ok", reply["content"]
        assert manager.provisioner is not None
        return cpu_seconds(manager.provisioner.pid)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def main(rounds: int) -> None:
    """Run where the test processes' provisioner is installed (see the bottom of this file)."""
    one("mcp-lab-test-forked", "pass")  # the fork server starts (and imports its libraries) once, not timed
    server = multiprocessing.forkserver._forkserver._forkserver_pid  # type: ignore[attr-defined]
    server_cpu = cpu_seconds(server)
    samples: dict[str, list[float]] = {way: [] for way in WAYS}
    for i in range(rounds):
        order = list(WAYS) if i % 2 == 0 else list(reversed(WAYS))
        for way in order:
            samples[way].append(one(*WAYS[way]))
    bare = statistics.median(samples["bare ipykernel, exec'd"])
    print(f"kernel CPU seconds to ready + one cell, median of {rounds} (min in brackets):")
    for way, values in samples.items():
        median = statistics.median(values)
        print(f"  {way:<28} {median:6.3f} ({min(values):.3f})  {median / bare:5.2f} x bare")
    exec_load = statistics.median(samples["exec'd + %load_ext mcp_lab"])
    forked_load = statistics.median(samples["forked + %load_ext mcp_lab"])
    print(f"  forked / exec'd with the lab loaded: {forked_load / exec_load:.3f}; saved per kernel {exec_load - forked_load:.3f} CPU-s")
    print(f"  fork server, once per test process: {server_cpu:.3f} CPU-s (pays for itself after {server_cpu / max(exec_load - forked_load, 1e-9):.1f} kernels)")


# The forked kernels are the test processes' own (tests/forked_kernels.py, which no bench imports): the bench runs
# in an interpreter that installs it first, as tests/isolation.py does in each test process.
MEASURE = "from tests import forked_kernels; forked_kernels.install(); from bench.kernel_start import main; main({})"

if __name__ == "__main__":
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    os.execv(sys.executable, [sys.executable, "-c", MEASURE.format(rounds)])
