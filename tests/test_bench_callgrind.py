"""The callgrind benches read a run's totals from each file callgrind wrote: its instructions, and with the
caches simulated the cycles estimated from their misses."""

from __future__ import annotations

from pathlib import Path

from bench.callgrind import _summary


def _written(tmp_path: Path, events: str, summary: str) -> str:
    path = tmp_path / "cg.out"
    path.write_text(
        f"version: 1\ncreator: callgrind-3.19.0\nevents: {events}\n\nfn=x\n1 2\nsummary: {summary}\ntotals: {summary}\n"
    )
    return str(path)


def test_instructions_alone_are_their_own_estimate(tmp_path: Path) -> None:
    assert _summary(_written(tmp_path, "Ir", "123456")) == (123456, 123456)


def test_misses_weigh_ten_at_the_first_level_and_a_hundred_at_the_last(tmp_path: Path) -> None:
    # Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw, as callgrind --cache-sim=yes writes them
    path = _written(tmp_path, "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw", "1000 500 300 1 2 3 4 5 6")
    assert _summary(path) == (1000, 1000 + 10 * (1 + 2 + 3) + 100 * (4 + 5 + 6))


def test_a_file_without_totals_counts_nothing(tmp_path: Path) -> None:
    path = tmp_path / "cg.out"
    path.write_text("version: 1\n")
    assert _summary(str(path)) == (0, 0)
