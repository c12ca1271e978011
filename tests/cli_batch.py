"""Many `python -m mcp_lab ARGS` runs in one interpreter, each as the command line runs it, for tests whose
subject is what a run prints and exits with, not how its process starts.

Why: a fresh interpreter per case costs what importing the SDK costs (about 1.3 CPU-s), which for a file of
CLI cases is most of its CPU on the 2 cores the suite shares. Each case here is still the real entry point:
`mcp_lab/__main__.py` executed as `__main__` (runpy, as `-m` does) with the case's argv, its exit code taken
from the SystemExit it ends with, and its stdout and stderr captured at the file-descriptor level (so what
a subprocess it starts, such as a stdio server, writes to stderr is captured too, as before). An exception
that escapes is printed as the interpreter would print it (a traceback on stderr, exit 1), so a test that
asserts "no traceback" still sees one. The cases run one after another.

`python -m tests.cli_batch CASES RESULTS`: CASES a JSON list of argv lists; RESULTS gets a JSON list of
{"code", "out", "err"} in the same order. From a test: `run_batch(cases)`.
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _one(argv: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        code: int
        argv_before = sys.argv
        try:
            sys.argv = ["python -m mcp_lab", *argv]
            try:
                runpy.run_module("mcp_lab", run_name="__main__", alter_sys=True)
                code = 0
            except SystemExit as exc:
                if exc.code is None or isinstance(exc.code, int):
                    code = exc.code or 0
                else:  # sys.exit("message"): printed to stderr, exit 1, as the interpreter does
                    print(exc.code, file=sys.stderr)
                    code = 1
            except BaseException:
                traceback.print_exc()
                code = 1
        finally:
            sys.argv = argv_before
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        out.seek(0)
        err.seek(0)
        return {"code": code, "out": out.read().decode(errors="replace"), "err": err.read().decode(errors="replace")}


def run_batch(cases: list[list[str]], timeout: float = 600) -> list[tuple[int, str, str]]:
    """Each argv in `cases` run as `python -m mcp_lab ARGV` in one subprocess: (exit code, stdout, stderr)."""
    with tempfile.TemporaryDirectory(prefix="cli-batch-") as folder:
        given, results = Path(folder) / "cases.json", Path(folder) / "results.json"
        given.write_text(json.dumps(cases), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        done = subprocess.run(
            [sys.executable, "-m", "tests.cli_batch", str(given), str(results)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        found = json.loads(results.read_text(encoding="utf-8"))
    assert len(found) == len(cases), found
    return [(r["code"], r["out"], r["err"]) for r in found]


def main() -> int:
    given, answers = Path(sys.argv[1]), Path(sys.argv[2])  # read before a case sets sys.argv
    cases = json.loads(given.read_text(encoding="utf-8"))
    results = [_one([str(a) for a in argv]) for argv in cases]
    answers.write_text(json.dumps(results), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
