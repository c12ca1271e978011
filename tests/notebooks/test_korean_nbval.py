"""A Korean notebook runs under nbval from its own folder, as `./dev test` runs notebooks/_reference/ko/.

Spec context: tutorial 03 drives the multi round-trip loop by hand and finishes a conversation in another
process: it writes tickets_server.py, finish_elsewhere.py and tickets_flow.json next to itself and reads
them back. The Korean edition lives one folder down (notebooks/ko/, and _reference/ko/ for nbval), so those
relative files must work there, with the same sanitize rules (notebooks/sanitize.cfg) and the same
comparison of text/plain only (notebooks/conftest.py). Tutorial 03 is translated here with synthetic
Korean cells (tests/notebooks/korean_sources.py), so this holds before and whatever the translators write:
nbval compares code cells' outputs, which are the English ones.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat

from tests.notebooks.korean_sources import NOTEBOOKS, ROOT, build, with_synthetic_korean

TUTORIAL = "03_the_loop_by_hand"


def test_the_korean_reference_of_tutorial_03_passes_nbval_in_its_own_folder(tmp_path: Path) -> None:
    source = tmp_path / "src" / f"{TUTORIAL}.py"
    source.parent.mkdir()
    source.write_text(with_synthetic_korean((NOTEBOOKS / "src" / f"{TUTORIAL}.py").read_text(encoding="utf-8")))
    reference = tmp_path / "_reference"
    (english,) = [path for path in build.reference(reference) if path.stem == TUTORIAL]
    korean = build.write_korean(source, nbformat.read(english, as_version=4), reference)
    assert korean == reference / "ko" / f"{TUTORIAL}.ipynb"
    env = {**os.environ, "MCP_LAB_UNATTENDED": "1", "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    command = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.isolation",
        "-p", "notebooks.conftest", "--rootdir", str(reference), "--nbval", str(korean),
        "--nbval-sanitize-with", str(NOTEBOOKS / "sanitize.cfg"), "--nbval-cell-timeout=120",
    ]  # fmt: skip
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
    # The files the tutorial writes landed beside the Korean notebook, not beside the English one.
    assert {"tickets_server.py", "finish_elsewhere.py", "tickets_flow.json"} <= {p.name for p in korean.parent.iterdir()}
