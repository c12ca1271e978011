"""How every bench says lab against bare SDK: the same figures, the same goal, and the machine's load.

A shared 2-core machine is noisy: one slow spell moves a median by more than the 2% asked for. So each
bench times lab and bare interleaved call by call, wall clock and this process's CPU time, and reports
- the ratio of the medians, and the median of the per-iteration ratios (each lab call over the bare call
  made next to it, so a slow spell hits both);
- the ratio of trimmed means (the slowest and fastest tenth of each side left out), wall and CPU;
- the trimmed mean of the per-pair CPU ratios, with the middle half of them and its standard error (the
  figure that tells 2% apart on a busy machine: each pair is two calls made back to back);
- the ratio of total CPU time: everything each side spent, its rare full garbage collections included
  (a trimmed mean leaves exactly those out, and what a side keeps alive is part of what it costs);
- the load average, so a reader can tell a quiet run from a busy one.
CPU time is the least disturbed by other processes (they can slow it, through shared caches, but not
add waiting to it).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

__all__ = ["GOAL", "Samples", "load", "pair_ratios", "report", "spread", "timed"]

GOAL = 1.02
"""Issue 23: the engine within 2% of the bare SDK on the same work."""


@dataclass
class Samples:
    """Per-call wall-clock and process CPU seconds of one side (no CPU figures where none can be taken)."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def add(self, wall: float, cpu: float) -> None:
        self.wall.append(wall)
        self.cpu.append(cpu)

    def clear(self) -> None:
        self.wall.clear()
        self.cpu.clear()


async def timed(samples: Samples, call: Callable[[], Awaitable[object]]) -> object:
    """Await `call()`, adding its wall-clock and CPU seconds to `samples`; its result."""
    c0, t0 = time.process_time(), time.perf_counter()
    result = await call()
    samples.add(time.perf_counter() - t0, time.process_time() - c0)
    return result


def trimmed_mean(values: list[float], cut: float = 0.1) -> float:
    ordered = sorted(values)
    drop = int(len(ordered) * cut)
    return statistics.fmean(ordered[drop : len(ordered) - drop] or ordered)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} (on {os.cpu_count()} cores)"


def ratios(lab: Samples, bare: Samples) -> dict[str, float]:
    """The ratios lab/bare that `report` prints, by name."""
    out = {
        "median": statistics.median(lab.wall) / statistics.median(bare.wall),
        "trimmed mean": trimmed_mean(lab.wall) / trimmed_mean(bare.wall),
    }
    if lab.cpu and bare.cpu:
        out["CPU total"] = sum(lab.cpu) / sum(bare.cpu)
        out["CPU trimmed mean"] = trimmed_mean(lab.cpu) / trimmed_mean(bare.cpu)
    if len(lab.wall) == len(bare.wall):
        out["per-iteration median"] = statistics.median(a / b for a, b in zip(lab.wall, bare.wall, strict=True))
        if lab.cpu and bare.cpu:
            out["per-pair CPU trimmed mean"] = trimmed_mean(pair_ratios(lab.cpu, bare.cpu))
    return out


def pair_ratios(lab: list[float], bare: list[float]) -> list[float]:
    """Each lab call over the bare call made next to it (a pair shares whatever the machine did then)."""
    return [a / b for a, b in zip(lab, bare, strict=True) if b > 0]


def spread(values: list[float]) -> str:
    """How far the per-pair ratios scatter, and how well their trimmed mean is known: the middle half of
    them, and the standard error of the trimmed mean (a 2% difference is told apart when it is several
    standard errors wide)."""
    ordered = sorted(values)
    n = len(ordered)
    if n < 4:
        return "too few pairs for a spread"
    drop = int(n * 0.1)
    kept = ordered[drop : n - drop]
    error = statistics.stdev(kept) / len(kept) ** 0.5 if len(kept) > 1 else float("nan")
    return (
        f"per-pair CPU ratio: middle half {ordered[n // 4]:.3f} .. {ordered[(3 * n) // 4]:.3f}, "
        f"trimmed mean {statistics.fmean(kept):.3f} +- {error:.3f} (standard error, {n} pairs)"
    )


def report(label: str, lab: Samples, bare: Samples) -> dict[str, float]:
    """Print one comparison: the times, every ratio, the goal and the load. Returns the ratios."""
    found = ratios(lab, bare)

    def side(samples: Samples) -> str:
        cpu = f" (CPU {trimmed_mean(samples.cpu) * 1000:.3f} ms)" if samples.cpu else ""
        return f"median {statistics.median(samples.wall) * 1000:.3f} ms{cpu}"

    print(f"{label}: {len(lab.wall)} calls each; bare {side(bare)}, lab {side(lab)}")
    shown = ", ".join(f"{name} {value:.3f}" for name, value in found.items())
    print(f"  ratio lab/bare: {shown}  (goal <= {GOAL})")
    if lab.cpu and bare.cpu and len(lab.cpu) == len(bare.cpu):
        print(f"  {spread(pair_ratios(lab.cpu, bare.cpu))}")
    print(f"  {load()}")
    return found
