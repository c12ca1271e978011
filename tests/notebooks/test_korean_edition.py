"""The Korean edition of the tutorials (issue 27): one source per tutorial carrying both languages.

Spec context: the course's readers come from the SDK documentation's Korean pages (다중 왕복 요청, 헤더
매개변수). Each English markdown cell of notebooks/src/NN_name.py is followed by its `# %% [markdown ko]`
cell; notebooks/build.py makes notebooks/ko/NN_name.ipynb from the executed English notebook by replacing
each markdown cell's source with its Korean counterpart, so code, outputs and cell ids are the English
ones, and checks the glossary (notebooks/glossary.ko.toml: a term the English prose uses must appear in its
one Korean rendering). The first three tests read the real sources and fail, naming what is missing per
file, until every tutorial is translated; the rest check the build's rules on synthetic cells.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tests.notebooks.korean_sources import NOTEBOOKS, SOURCES, build, with_synthetic_korean

TERMS = build.glossary()


def _problems(source: Path) -> tuple[dict[str, str], list[str]]:
    return build.korean_problems(source.read_text(encoding="utf-8"), source.name, TERMS)


# ---- the real sources -------------------------------------------------------------------------------------


def test_every_english_markdown_cell_has_its_korean_counterpart() -> None:
    missing = []
    for source in SOURCES:
        lines = [line for line in _problems(source)[1] if "lacks" not in line]
        if lines:
            total = sum(cell.kind == "markdown" for cell in build.source_cells(source.read_text(encoding="utf-8")))
            untranslated = sum("has no [markdown ko]" in line for line in lines)
            first = lines[0].split(":", 1)[1]  # the line number on
            missing.append(f"{source.name}: {untranslated} of {total} English cells untranslated; first: line {first}")
    assert not missing, "\n".join(missing)


def test_the_glossary_holds_for_every_pair() -> None:
    broken = [line for source in SOURCES for line in _problems(source)[1] if "lacks" in line]
    assert not broken, "\n".join(broken)


def test_no_korean_cell_keeps_an_english_sentence() -> None:
    left = [
        f"{source.name}: {cell_id}: {words!r}"
        for source in SOURCES
        for cell_id, korean in _problems(source)[0].items()
        for words in build.english_left(korean)
    ]
    assert not left, "\n".join(left)


def test_the_english_edition_ignores_the_korean_cells() -> None:
    for source in SOURCES:
        text = source.read_text(encoding="utf-8")
        english_only = re.sub(r"^# %% \[markdown ko\]\n(?:(?!# %%).*\n)*", "", text, flags=re.MULTILINE)
        assert [dict(c) for c in build.parse(text)] == [dict(c) for c in build.parse(english_only)], source.name


LINK = re.compile(r"\]\((?P<notebook>\d\d_\w+\.ipynb)?#(?P<anchor>[^)\s]+)\)")


def heading_anchors(markdown: str) -> set[str]:
    """The anchors JupyterLab gives a cell's headings: the heading's text, spaces as '-'."""
    headings = re.findall(r"^#{1,6} +(.+?) *$", markdown, flags=re.MULTILINE)
    return {re.sub(r"[`*]", "", heading).replace(" ", "-") for heading in headings}


def test_every_link_in_a_korean_cell_reaches_a_korean_heading() -> None:
    korean = {source.name.replace(".py", ".ipynb"): _problems(source)[0] for source in SOURCES}
    anchors = {name: set().union(*map(heading_anchors, cells.values())) for name, cells in korean.items()}
    broken = [
        f"{name}: {cell_id}: {link.group(0)}"
        for name, cells in korean.items()
        for cell_id, text in cells.items()
        for link in LINK.finditer(text)
        if link["anchor"] not in anchors.get(link["notebook"] or name, set())
    ]
    assert not broken, "\n".join(broken)


def test_heading_anchors_are_jupyterlabs() -> None:
    assert heading_anchors("## 첫 번째 왕복\n\n본문\n### `request_state` 봉인") == {"첫-번째-왕복", "request_state-봉인"}


def _translated() -> list[Path]:
    return [source for source in SOURCES if build.translations(source) is not None]


@pytest.mark.parametrize("source", SOURCES, ids=[s.stem for s in SOURCES])
def test_the_korean_notebook_is_the_english_one_with_korean_prose(source: Path) -> None:
    translated = build.translations(source)
    korean_path = NOTEBOOKS / "ko" / f"{source.stem}.ipynb"
    if translated is None:
        assert not korean_path.exists(), f"{korean_path.name} has no Korean source cells any more"
        pytest.skip(f"{source.name} is not translated yet (see the counterpart test)")
    assert korean_path.exists(), f"notebooks/ko/{korean_path.name} not built: python notebooks/build.py --korean"
    english = nbformat.read(NOTEBOOKS / f"{source.stem}.ipynb", as_version=4)
    korean = nbformat.read(korean_path, as_version=4)
    assert korean.metadata == {**english.metadata, "language": "ko"}
    assert [c.id for c in korean.cells] == [c.id for c in english.cells], "the same cells, the same ids"
    for en, ko in zip(english.cells, korean.cells, strict=True):
        assert (ko.cell_type, ko.metadata) == (en.cell_type, en.metadata), en.id
        if en.cell_type == "code":
            assert (ko.source, ko.outputs, ko.execution_count) == (en.source, en.outputs, en.execution_count), en.id
        else:
            assert ko.source == translated[en.id], f"{en.id}: stale: python notebooks/build.py --korean"
            assert ko.source != en.source or not re.search(r"[A-Za-z]{3}", build.prose(en.source)), en.id
    rebuilt = nbformat.writes(build.korean_edition(english, translated, source.name))
    assert korean_path.read_text(encoding="utf-8") == rebuilt + "\n" or korean_path.read_text(
        encoding="utf-8"
    ) == rebuilt, "stale: python notebooks/build.py --korean"


def test_no_korean_notebook_without_its_source() -> None:
    built = {path.stem for path in (NOTEBOOKS / "ko").glob("*.ipynb")}
    assert built <= {source.stem for source in _translated()}


def test_the_reference_edition_has_its_korean_twin(tmp_path: Path) -> None:
    english = {path.name: path for path in build.reference(tmp_path)}
    korean = build.korean_reference(tmp_path)
    assert {path.name for path in korean} == {f"{source.stem}.ipynb" for source in _translated()}
    for path in korean:
        assert path.parent == tmp_path / "ko"
        en, ko = (nbformat.read(p, as_version=4) for p in (english[path.name], path))
        # the solutions are back and tagged for nbval the same way in both editions
        assert [(c.id, c.source, c.metadata) for c in ko.cells if c.cell_type == "code"] == [
            (c.id, c.source, c.metadata) for c in en.cells if c.cell_type == "code"
        ]


# ---- the build's rules, on synthetic sources ---------------------------------------------------------------

PAIRED = """# %% [markdown] id=intro
# ## The first round trip
#
# A tool that needs something only the user has answers with a question: one more round.

# %% [markdown ko]
# ## 첫 번째 왕복
#
# 사용자만 가진 무언가가 필요한 도구는 질문으로 답합니다: 라운드가 하나 더 생깁니다.

# %%
print("code stays")

# %% [markdown]
# The server seals `request_state` and retries are yours.

# %% [markdown ko]
# 서버가 `request_state`를 봉인하고, 재시도는 여러분의 몫입니다.
"""


def test_a_paired_source_gives_each_english_cell_its_korean_text(tmp_path: Path) -> None:
    translated, problems = build.korean_problems(PAIRED, "t.py", TERMS)
    assert problems == []
    assert list(translated) == [c.id for c in build.parse(PAIRED) if c.cell_type == "markdown"]
    assert translated["intro"].startswith("## 첫 번째 왕복\n\n사용자만")
    source = tmp_path / "t.py"
    source.write_text(PAIRED, encoding="utf-8")
    assert build.translations(source) == translated
    english = nbformat.v4.new_notebook(cells=build.parse(PAIRED))
    korean = build.korean_edition(english, translated, "t.py")
    assert [c.source for c in korean.cells] == [translated["intro"], 'print("code stays")', translated[korean.cells[2].id]]
    assert korean.metadata["language"] == "ko" and "language" not in english.metadata


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (PAIRED.replace("# %% [markdown ko]\n# ## 첫", "# %%\n# ## 첫"), r"^t\.py:1: English cell intro \('## The first round trip'\) has no \[markdown ko\] cell after it$"),
        (PAIRED + "\n# %% [markdown ko]\n# 또 하나\n", r"^t\.py:20: a \[markdown ko\] cell that follows no English markdown cell$"),
        ("# %% [markdown ko]\n# 처음\n" + PAIRED, r"^t\.py:1: a \[markdown ko\] cell that follows no English markdown cell$"),
        (PAIRED.replace("# 서버가 `request_state`를 봉인하고, 재시도는 여러분의 몫입니다.", "#"), r"^t\.py:14: English cell ma-\w+ \('The server seals .*'\): its \[markdown ko\] cell \(line 17\) is empty$"),
        (PAIRED.replace("# %% [markdown ko]\n# ## 첫", "# %% [markdown ko] id=intro\n# ## 첫"), r"^t\.py:6: a \[markdown ko\] cell takes its English cell's id: drop id=$"),
        (PAIRED.replace("봉인하고", "닫고"), r"^t\.py:17: the Korean cell of ma-\w+ lacks 'seals' -> '봉인'$"),
        (PAIRED + "\n# %% [markdown]\n# 한국어\n", r"^t\.py:20: an English markdown cell in Korean \(its marker lacks ko\?\)$"),
        (PAIRED.replace("# %% [markdown ko]\n# 서버가", "# %% [markdown  ko]\n# 서버가"), r"^t\.py:17: '# %% \[markdown  ko\]': a cell marker is `# %% \[markdown\]` or `# %% \[markdown ko\]`$"),
    ],
    ids=["missing", "after-code", "first", "empty", "own-id", "glossary", "korean-as-english", "bad-marker"],
)
def test_each_problem_is_one_line_naming_file_line_and_cell(source: str, expected: str, tmp_path: Path) -> None:
    _, problems = build.korean_problems(source, "t.py", TERMS)
    # (a misspelled marker also leaves the English cell before it without its Korean cell: two lines)
    assert len(problems) == 1 + ("a cell marker is" in expected) and re.match(expected, problems[0]), problems
    path = tmp_path / "t.py"
    path.write_text(source, encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        build.translations(path)
    assert "\n" not in str(stopped.value) and problems[0].split(":", 1)[1] in str(stopped.value)


def test_a_source_not_translated_yet_has_no_korean_edition(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(re.sub(r"# %% \[markdown ko\]\n(?:(?!# %%).*\n)*", "", PAIRED), encoding="utf-8")
    assert build.translations(path) is None
    assert build.write_korean(path, nbformat.v4.new_notebook(), tmp_path) is None
    assert not (tmp_path / "ko").exists()
    # ... but Korean text under an English marker, with no Korean cell anywhere, still stops it
    path.write_text("# %% [markdown]\n# 한국어\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"t\.py:1: an English markdown cell in Korean"):
        build.translations(path)


def test_several_problems_stop_the_build_with_the_first_and_a_count(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(PAIRED.replace("봉인하고", "닫고").replace("라운드가", "차례가"), encoding="utf-8")
    with pytest.raises(SystemExit, match=r"lacks 'round' -> '라운드' \(and 1 more: python notebooks/build.py --check\)$"):
        build.translations(path)


def test_a_stale_english_notebook_is_named_not_mixed(tmp_path: Path) -> None:
    translated, _ = build.korean_problems(PAIRED, "t.py", TERMS)
    english = nbformat.v4.new_notebook(cells=build.parse(PAIRED.replace("retries are yours", "retries are mine")))
    with pytest.raises(SystemExit, match=r"^t\.py: the built notebook's markdown cells are not its source's \(ma-\w+\): rebuild it first$"):
        build.korean_edition(english, translated, "t.py")


def _misses(english: str, korean: str) -> list[str]:
    return build.glossary_misses(english, korean, TERMS)


def test_the_glossary_asks_for_a_term_the_english_prose_uses() -> None:
    assert _misses("The server seals the state.", "서버가 상태를 봉인합니다.") == []
    assert _misses("The server seals the state.", "서버가 상태를 닫습니다.") == ["'seals' -> '봉인'"]
    assert _misses("Nothing here needs a term.", "용어가 없습니다.") == []


@pytest.mark.parametrize(
    ("english", "needed"),
    [
        ("A SEALED state.", "봉인"),  # case-insensitive
        ("Sealing it twice.", "봉인"),
        ("Two rounds, then a result.", "라운드"),
        ("It retried once.", "재시도"),
        ("Multi round-trip requests return.", "다중 왕복 요청"),
        ("The header parameter travels.", "헤더 매개변수"),
        ("Keys rotate weekly.", "교체"),
        ("A state that expired.", "만료"),
    ],
)
def test_inflections_and_case_are_the_same_term(english: str, needed: str) -> None:
    assert any(needed in miss for miss in _misses(english, "아무 것도 없습니다."))
    assert _misses(english, f"여기에 {needed}이 있습니다.") == []


def test_a_round_trip_is_not_a_round() -> None:
    assert _misses("One round trip.", "한 번의 왕복.") == []
    assert _misses("It saves a round\ntrip.", "왕복 한 번을 아낍니다.") == []  # a line break inside a paragraph
    assert _misses("One round-trip and a round.", "한 번의 왕복.") == ["'round' -> '라운드'"]


def test_either_accepted_rendering_is_enough() -> None:
    assert _misses("The client retries.", "클라이언트가 다시 시도합니다.") == []
    assert _misses("The client retries.", "클라이언트가 재시도합니다.") == []


def test_code_and_link_targets_are_not_prose() -> None:
    assert _misses("Call `seal()` and `mcp_lab.rounds`.", "`seal()`과 `mcp_lab.rounds`를 호출합니다.") == []
    assert _misses("See ``a `seal` b``.", "보세요.") == []
    assert _misses("Look:\n\n```python\ntoken = seal(state)\n```\n", "보세요:\n\n```python\ntoken = seal(state)\n```\n") == []
    assert _misses("Read [the next one](06_what_a_seal_binds.ipynb).", "[다음 노트북](06_what_a_seal_binds.ipynb)을 읽으세요.") == []
    # a code span may run over a line break in markdown
    assert _misses("It says `-32602 Invalid or expired\nrequestState` once.", "한 번 말합니다.") == []
    assert _misses("Read [the seal](x.ipynb).", "[이것](x.ipynb)을 읽으세요.") == ["'seal' -> '봉인'"]
    # after a code block, inline code is still code
    assert _misses("Phases:\n\n```python\nkeys=[OLD]\n```\n\n`Stepper(fleet)` steps.", "단계: `Stepper(fleet)`.") == []
    # a term does not run across the code between its words
    assert _misses("The static `bank://terms` resource.", "정적 `bank://terms` 리소스.") == []


def test_english_left_in_a_korean_cell_is_found() -> None:
    assert build.english_left("서버가 답합니다. The server returns its answer here.") == ["server returns its answer here"]
    assert build.english_left("`the server returns its answer` 그대로 둡니다.") == []
    assert build.english_left('질문은 "Which region should the database live in?"입니다.') == []
    assert build.english_left("질문은 *Which region should the database live in?* 입니다.") == []
    assert build.english_left("[the server returns its answer](https://example.com/its/own/long/path)를 보세요.") == [
        "server returns its answer"
    ]
    assert build.english_left("Streamable HTTP와 MCP Python SDK로 서버를 씁니다.") == []


def test_a_synthetic_translation_passes_the_build_and_changes_no_english_cell() -> None:
    for source in SOURCES[:3]:
        text = source.read_text(encoding="utf-8")
        synthetic = with_synthetic_korean(text)
        translated, problems = build.korean_problems(synthetic, source.name, TERMS)
        assert problems == [] and len(translated) == sum(c.cell_type == "markdown" for c in build.parse(text))
        assert [dict(c) for c in build.parse(synthetic)] == [dict(c) for c in build.parse(text)]
