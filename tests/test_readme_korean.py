"""README.ko.md, the Korean getting-started page (issue 27): the same taste, every tutorial, the right commands.

Why: a Korean reader starts there; its code must be the English README's (one lab, one behaviour), its list
must reach every Korean notebook under the title that notebook carries, and the commands it gives must be
the ones `./dev` knows.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
KOREAN = (ROOT / "README.ko.md").read_text(encoding="utf-8")
ENGLISH = (ROOT / "README.md").read_text(encoding="utf-8")
SOURCES = sorted((ROOT / "notebooks" / "src").glob("*.py"))
LINK = re.compile(r"^\d+\. \[(?P<title>[^\]]+)\]\(notebooks/ko/(?P<name>\d\d_\w+)\.ipynb\)", re.MULTILINE)


def _section(text: str, heading: str) -> str:
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def _code(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def test_the_two_readmes_point_at_each_other() -> None:
    assert ENGLISH.splitlines()[2] == "한국어: [README.ko.md](README.ko.md)"
    assert "English: [README.md](README.md)" in KOREAN.splitlines()[:3]


def test_the_taste_is_the_english_readmes_code() -> None:
    assert _code(_section(KOREAN, "맛보기")) == _code(_section(ENGLISH, "A taste"))[:3]


def test_the_commands_are_the_ones_dev_knows() -> None:
    commands = re.findall(r"^\./dev [^#\n]*?(?=\s*(?:#|$))", _section(KOREAN, "새 컴퓨터에서 명령 두 개"), re.MULTILINE)
    assert commands == ["./dev lab --ko", "./dev lab", "./dev test"]
    dev = (ROOT / "dev").read_text(encoding="utf-8")
    assert "--ko" in dev.split("\n  lab)\n", 1)[1].split("\n    ;;", 1)[0], "./dev lab knows --ko"


def test_every_tutorial_is_listed_with_its_korean_title() -> None:
    listed = {match["name"]: match["title"] for match in LINK.finditer(_section(KOREAN, "튜토리얼"))}
    assert list(listed) == [source.stem for source in SOURCES]
    for name, title in listed.items():
        assert re.search(r"[\uac00-\ud7a3]", title), title
        built = ROOT / "notebooks" / "ko" / f"{name}.ipynb"
        if built.exists():  # the title the Korean notebook itself carries in its first heading
            heading = nbformat.read(built, as_version=4).cells[0].source.splitlines()[0]
            assert heading == f"# {int(name[:2])} · {title}", (name, heading)
