"""Helpers for the Korean edition's tests: notebooks/build.py loaded by path, and synthetic Korean cells.

The synthetic cells stand in for a translation where a test needs a translated copy of a real tutorial
(its real code, outputs and relative files) before or regardless of the translators' work: each names, in
Korean, every glossary term its English cell uses, so the build's checks pass; the test never ships them.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SOURCES = sorted((NOTEBOOKS / "src").glob("*.py"))


def _build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("notebook_build_korean", NOTEBOOKS / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


build = _build_module()


def with_synthetic_korean(text: str) -> str:
    """`text` with a `[markdown ko]` cell after each English markdown cell that has none."""
    terms = build.glossary()
    cells = build.source_cells(text)
    lines = text.splitlines()
    ends = {}  # the line (1-based) after which each untranslated English cell's Korean cell goes
    for i, cell in enumerate(cells):
        after = cells[i + 1] if i + 1 < len(cells) else None
        if cell.kind == "markdown" and (after is None or after.kind != "korean"):
            last = (after.line - 1) if after else len(lines)
            while last > cell.line and not lines[last - 1].strip():
                last -= 1  # keep the blank line before the next marker
            words = [rendering[0] for pattern, rendering in terms if pattern.search(build.prose(cell.body))]
            ends[last] = f"# 합성 번역 {cell.line}: {' '.join(words)}".rstrip()
    out = []
    for number, line in enumerate(lines, start=1):
        out.append(line)
        if number in ends:
            out += ["", "# %% [markdown ko]", ends[number]]
    return "\n".join(out) + "\n"
