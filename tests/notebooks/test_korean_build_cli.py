"""notebooks/build.py as its users run it, on a synthetic course: both editions from one run, `--korean`,
`--check`, `--reference DIR`, and a Korean cell that breaks a rule stopping the build with one line.

The script is copied with the glossary into a temporary `notebooks/` (it builds what lies beside it), with
one source whose code cell prints, so the English notebook is executed by a real kernel once and the
Korean one carries its outputs.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tests.notebooks.korean_sources import NOTEBOOKS, ROOT

SOURCE = """# %% [markdown] id=intro
# # A round trip
#
# Each round is one leg.

# %% [markdown ko]
# # 왕복
#
# 라운드마다 구간이 하나입니다.

# %% id=hello
print("printed once, in English:", 6 * 7)

# %% [markdown]
# The token is sealed: `v1.` and more.

# %% [markdown ko]
# 토큰은 봉인되어 있습니다: `v1.` 그리고 나머지.
"""


@pytest.fixture
def course(tmp_path: Path) -> Path:
    here = tmp_path / "notebooks"
    (here / "src").mkdir(parents=True)
    shutil.copy(NOTEBOOKS / "build.py", here / "build.py")
    shutil.copy(NOTEBOOKS / "glossary.ko.toml", here / "glossary.ko.toml")
    (here / "src" / "01_tiny.py").write_text(SOURCE, encoding="utf-8")
    return here


def _run(course: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(course / "build.py"), *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_one_build_makes_both_editions_and_each_option_works(course: Path) -> None:
    built = _run(course)  # executes the English notebook once; the Korean one takes its outputs
    assert built.returncode == 0, built.stderr
    assert built.stdout.splitlines() == ["built notebooks/01_tiny.ipynb", "built notebooks/ko/01_tiny.ipynb"]
    english = nbformat.read(course / "01_tiny.ipynb", as_version=4)
    korean = nbformat.read(course / "ko" / "01_tiny.ipynb", as_version=4)
    assert [c.id for c in english.cells] == [c.id for c in korean.cells] == ["intro", "hello", korean.cells[2].id]
    assert english.cells[1].outputs[0].text == "printed once, in English: 42\n"
    assert korean.cells[1] == english.cells[1]
    assert [c.source for c in korean.cells if c.cell_type == "markdown"] == [
        "# 왕복\n\n라운드마다 구간이 하나입니다.",
        "토큰은 봉인되어 있습니다: `v1.` 그리고 나머지.",
    ]
    assert "왕복" not in nbformat.writes(english), "the English edition carries no Korean cell"

    (course / "ko" / "01_tiny.ipynb").unlink()
    again = _run(course, "--korean")  # no kernel: from the English notebook already built
    assert again.returncode == 0 and again.stdout.strip() == "built notebooks/ko/01_tiny.ipynb", again.stderr
    assert nbformat.read(course / "ko" / "01_tiny.ipynb", as_version=4) == korean

    checked = _run(course, "--check")
    assert (checked.returncode, checked.stdout) == (0, "")

    reference = course / "_reference"
    written = _run(course, "--reference", str(reference))
    assert written.returncode == 0, written.stderr
    assert written.stdout.splitlines() == [f"reference {reference / '01_tiny.ipynb'}", f"reference {reference / 'ko' / '01_tiny.ipynb'}"]


def test_a_korean_cell_off_the_glossary_stops_the_build_with_one_line(course: Path) -> None:
    (course / "src" / "01_tiny.py").write_text(SOURCE.replace("봉인되어", "잠겨"), encoding="utf-8")
    for args in ([], ["--korean"], ["--reference", str(course / "_reference")]):
        stopped = _run(course, *args)
        assert stopped.returncode == 1 and stopped.stdout == "", (args, stopped.stdout)
        (line,) = stopped.stderr.splitlines()
        assert line.startswith("notebooks/src/01_tiny.py:17: the Korean cell of ma-"), line
        assert line.endswith(" lacks 'sealed' -> '봉인'"), line
    assert not (course / "01_tiny.ipynb").exists() and not (course / "_reference").exists(), "nothing was written"
    checked = _run(course, "--check")
    assert checked.returncode == 1 and len(checked.stdout.splitlines()) == 1


def test_an_untranslated_source_builds_its_english_edition_and_says_so(course: Path) -> None:
    (course / "src" / "01_tiny.py").write_text(
        "# %% [markdown]\n# # Nothing translated yet\n\n# %%\nprint(1)\n", encoding="utf-8"
    )
    built = _run(course)
    assert built.returncode == 0, built.stderr
    assert built.stdout.strip() == "built notebooks/01_tiny.ipynb"
    # (the kernel may warn on stderr too; the build's own line is the last)
    assert built.stderr.splitlines()[-1] == "no Korean edition of 01_tiny yet: its source has no [markdown ko] cell"
    assert not (course / "ko").exists()
