"""`python -m tests.bytecode`: write the checkout's bytecode once, before `./dev test` starts its processes.

Why: with PYTHONDONTWRITEBYTECODE set (as on the shared machine) no process writes a `.pyc`, so in a fresh
clone every process the suite starts compiles the lab's and the tests' sources again: each kernel and server
process the modules of mcp_lab it imports, each pytest process every test module -- and pytest's assertion
rewriting (a parse, a rewrite and a compile per test module, ~2 CPU-s over the suite's files) runs again in
each of them, since it too caches only where bytecode may be written. `./dev test` writes bytecode for its
own runs (it unsets PYTHONDONTWRITEBYTECODE) and runs this first, so that the processes it starts side by
side find the caches made rather than all making them at once.

Only a cache: a stale or missing file is compiled again by the process that needs it (the plain `.pyc` is
checked against the source's mtime and size, pytest's against a hash of the source), so nothing here can
change what a test runs. pytest's cache is written with pytest's own rewrite; where that private API is gone
(another pytest), the step is skipped and pytest rewrites as before.
"""

from __future__ import annotations

import compileall
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("mcp_lab", "tests", "notebooks", "bench", "class")
SKIP = re.compile(r"node_modules|[\\/]\.|notebooks[\\/](src|ko|_reference)[\\/]")  # tutorials' sources: cells, not modules
PLUGINS = ("startup", "timing", "isolation")  # the `-p tests.X` plugins `./dev test` loads


def rewritten_by_pytest() -> list[Path]:
    """The files pytest rewrites: test modules (its default `test_*.py`), conftest files, `-p` plugins."""
    found: set[Path] = set()
    for folder in ("tests", "notebooks"):
        for path in (ROOT / folder).rglob("*.py"):
            if "node_modules" in path.parts:
                continue
            if path.name.startswith("test_") or path.name == "conftest.py":
                found.add(path)
    found.update(ROOT / "tests" / f"{name}.py" for name in PLUGINS)
    return sorted(found)


def write_plain() -> None:
    for folder in SOURCES:
        compileall.compile_dir(ROOT / folder, quiet=1, rx=SKIP)


def write_rewritten() -> int:
    if "enable_assertion_pass_hook" in (ROOT / "pyproject.toml").read_text():
        return 0  # rewritten without the ini here (config None): only right while that option keeps its default
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc_fp, get_cache_dir
    except ImportError:
        return 0
    written = 0
    for path in rewritten_by_pytest():
        try:
            source_hash, code = _rewrite_test(path, None)  # type: ignore[arg-type]  # no ini: the defaults
            cache = get_cache_dir(path)
            cache.mkdir(exist_ok=True)
            target = cache / (path.name[:-3] + PYC_TAIL)
            partial = target.with_name(f"{target.name}.{os.getpid()}")
            with open(partial, "wb") as out:
                _write_pyc_fp(out, source_hash, code)
            os.replace(partial, target)  # atomic: a pytest process reading it sees the old file or the new
            written += 1
        except (OSError, SyntaxError, TypeError, AttributeError):
            continue  # that file is rewritten by the process that imports it, as without this step
    return written


def main() -> None:
    write_plain()
    written = write_rewritten()
    if "-v" in sys.argv[1:]:
        print(f"bytecode written; {written} test modules rewritten for pytest")


if __name__ == "__main__":
    main()
