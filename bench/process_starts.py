"""CPU each process the lab starts costs before it does anything: the command line's refusals, the guard.

Spec context: none of the protocol's -- on a shared machine every interpreter start is CPU. Measured here, in
CPU seconds (user + system of the reaped child, so a busy machine shifts the figures less than wall time
would), each against the bare interpreter in the same run:

- `python -m mcp_lab --help` and refused arguments (exit 2, one line): parsed without the SDK, so they cost
  a small multiple of a bare `python -c pass`; `import mcp` is printed beside them for scale (about what
  they cost before).
- the guard launcher (`guarded([...])`, exec'ing `/bin/true`): one interpreter start with `-I -S` and the
  standard library, against `python -m mcp_lab.deployment.guard`, the form that imports site and the package.

Run: python -m bench.process_starts [ROUNDS, default 10]
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys

from mcp_lab.deployment.guard import GUARD_MODULE, guarded

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable
URL = "http://127.0.0.1:9/mcp"
COMMANDS = {
    "python -c pass": [PY, "-c", "pass"],
    "python -c 'import mcp'": [PY, "-c", "import mcp"],
    "mcp_lab --help": [PY, "-m", "mcp_lab", "--help"],
    "mcp_lab audit --help": [PY, "-m", "mcp_lab", "audit", "--help"],
    "mcp_lab (no command)": [PY, "-m", "mcp_lab"],
    "replay --timeout -1": [PY, "-m", "mcp_lab", "replay", "c.json", "--server", URL, "--timeout", "-1"],
    "audit --only nope": [PY, "-m", "mcp_lab", "audit", "c.json", "--server", URL, "--only", "nope"],
    "deploy-check --timeout 0": [PY, "-m", "mcp_lab", "deploy-check", URL, "c.json", "--timeout", "0"],
    "guard, -m form": [PY, "-m", GUARD_MODULE, str(os.getpid()), "/bin/true"],
    "guard, guarded()": guarded(["/bin/true"]),
}


def cpu_of(command: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main(rounds: int) -> None:
    samples: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(rounds):  # interleaved, so a change in the machine's load touches every command alike
        for name, command in COMMANDS.items():
            samples[name].append(cpu_of(command))
    bare = statistics.median(samples["python -c pass"])
    print(f"CPU seconds per process, median of {rounds} (bare interpreter {bare * 1000:.0f} ms):")
    for name, values in samples.items():
        median = statistics.median(values)
        print(f"  {name:<28} {median * 1000:7.0f} ms  {median / bare:6.1f} x bare")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
