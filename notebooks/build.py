"""Build the tutorial notebooks from their sources, executing them so the saved outputs are real.

The sources (`notebooks/src/NN_name.py`) are plain Python with `# %%` cell markers and `# %% [markdown]`
cells whose lines start with `# `; they read well in review and diff cleanly. This script turns each into
`notebooks/NN_name.ipynb` and runs it in a real kernel (nbclient), so what GitHub shows is what the code
printed. nbval then re-runs the notebooks in the test suite and compares the outputs.

Exercises: a source marks an exercise's answer cell `# %% solution` and its check `# %% check`. The answer
cell holds the reference solution between nbgrader's `### BEGIN SOLUTION` / `### END SOLUTION` markers.
The notebook is executed WITH the solutions (so every output is real), then written for the reader: the
answer cells keep only what stands outside the markers (a comment saying what to write) and the check
cells lose their outputs, so the reader starts from an empty cell. Cells carry nbgrader metadata too.
`--reference DIR` writes the shipped notebooks with the solutions put back, for the test suite (nbval) to
prove every check against its reference solution (the Korean edition's in DIR/ko/); `--course DIR` writes
the same notebooks as an nbgrader course (source/NN_name/NN_name.ipynb plus class/nbgrader_config.py),
whose `nbgrader generate_assignment` gives back the shipped notebooks.

The Korean edition (notebooks/ko/NN_name.ipynb): each English markdown cell of a source is followed by its
`# %% [markdown ko]` cell; the Korean notebook is the executed English one with every markdown cell's source
replaced by its Korean counterpart (cell ids, code and outputs shared: nothing runs twice), the terms of
notebooks/glossary.ko.toml checked. A source with no Korean cell yet gets no Korean notebook (one line says
so); any other missing, stray or off-glossary Korean cell stops the build with one line naming it.

Run: python notebooks/build.py [NAME ...]   (all sources when no name is given; both editions)
     python notebooks/build.py --korean [NAME ...]   (notebooks/ko/ from the built English notebooks, no kernel)
     python notebooks/build.py --check [NAME ...]    (every Korean-cell problem, one line each)
     python notebooks/build.py --reference DIR
     python notebooks/build.py --course DIR
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
import sys
import tomllib
from pathlib import Path

# nbformat's validator imports jsonschema, which imports rfc3987_syntax when installed (JupyterLab pulls it
# in) and that module builds its grammars on import: ~2 CPU-s per run of this script (measured), for the
# "iri" formats the notebook schema never uses; jsonschema skips those formats on ImportError.
if "jsonschema" not in sys.modules:
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "src"
GLOSSARY = HERE / "glossary.ko.toml"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
EXERCISE_TAGS = ("solution", "check")
CELL_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""nbformat's cell id rule (4.5 schema); notebooks/CLAIMS.md cites cells as `notebook:cell-id`."""


def stable_ids(cells: list[nbformat.NotebookNode], requested: list[str | None]) -> None:
    """Give every cell an id that survives rebuilds (nbformat would draw a random one each time).

    `# %% id=NAME` in the source names a cell (the ledger cites it); any other cell gets a digest of its
    kind and text, so editing one cell leaves the others' ids alone.
    """
    taken: set[str] = set()
    for cell, name in zip(cells, requested, strict=True):
        if name is not None:
            if not CELL_ID.match(name) or name in taken:
                raise SystemExit(f"cell id {name!r}: letters, digits, '-' and '_' (at most 64), once per notebook")
        else:
            digest = hashlib.sha256(f"{cell.cell_type}\n{cell.source}".encode()).hexdigest()
            name, n = f"{cell.cell_type[:2]}-{digest[:8]}", 1
            while name in taken:
                n += 1
                name = f"{cell.cell_type[:2]}-{digest[:8]}-{n}"
        taken.add(name)
        cell.id = name


class SourceCell:
    """One `# %%` cell of a source as written: its kind, its marker's line number, and its lines.

    (A plain class: tests load this script by path, where a dataclass cannot find its module.)
    """

    def __init__(self, kind: str, line: int, tags: list[str], name: str | None) -> None:
        self.kind = kind  # "markdown", "korean" (`[markdown ko]`) or "code"
        self.line, self.tags, self.name = line, tags, name
        self.lines: list[str] = []

    @property
    def body(self) -> str:
        body = "\n".join(self.lines).strip("\n")
        if self.kind == "code":
            return body
        return "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#") for line in body.splitlines())


def source_cells(text: str) -> list[SourceCell]:
    cells: list[SourceCell] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("# %%"):
            words = line.split()[2:]
            # A `[markdown ko]` cell is the Korean rendering of the markdown cell before it (notebooks/ko/).
            kind = "korean" if "[markdown ko]" in line else "markdown" if "[markdown]" in line else "code"
            # "# %% nbval-ignore-output" tags the cell for nbval (a comment would break a leading %%magic).
            tags = [word for word in words if word.startswith("nbval-") or word in EXERCISE_TAGS]
            name = next((word[3:] for word in words if word.startswith("id=")), None)
            cells.append(SourceCell(kind, number, tags, name))
        elif cells:
            cells[-1].lines.append(line)
    return cells


def parse(text: str) -> list[nbformat.NotebookNode]:
    """The English edition's cells: every cell of the source but the Korean ones."""
    cells: list[nbformat.NotebookNode] = []
    names: list[str | None] = []
    for written in source_cells(text):
        if written.kind == "markdown":
            cells.append(nbformat.v4.new_markdown_cell(written.body))
            names.append(written.name)
        elif written.kind == "code" and written.body:
            cell = nbformat.v4.new_code_cell(written.body)
            if written.tags:
                cell.metadata["tags"] = list(written.tags)
            cells.append(cell)
            names.append(written.name)
    stable_ids(cells, names)
    return cells


def student_source(source: str) -> str:
    """What stands outside the solution markers: the reader's starting point."""
    kept, inside = [], False
    for line in source.splitlines():
        if line.strip() == BEGIN:
            inside = True
        elif line.strip() == END:
            inside = False
        elif not inside:
            kept.append(line)
    return "\n".join(kept).rstrip("\n")


def mark_exercises(nb: nbformat.NotebookNode, stem: str) -> None:
    """nbgrader metadata: answer cells are solution cells, checks are autograded test cells worth a point."""
    answers = 0
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if "solution" in tags:
            answers += 1
            cell.metadata["nbgrader"] = {
                "grade": False,
                "solution": True,
                "locked": False,
                "grade_id": f"{stem}-answer-{answers}",
                "schema_version": 3,
            }
        elif "check" in tags:
            cell.metadata["nbgrader"] = {
                "grade": True,
                "solution": False,
                "locked": True,
                "points": 1,
                "grade_id": f"{stem}-check",
                "schema_version": 3,
            }


def for_the_reader(nb: nbformat.NotebookNode) -> None:
    """Empty the exercise: answer cells keep their instructions only; checks keep no output."""
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if "solution" in tags or "check" in tags:
            cell.outputs, cell.execution_count = [], None
            if "solution" in tags:
                cell.source = student_source(cell.source)


def build(source: Path, execute: bool = True) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = parse(source.read_text())
    mark_exercises(nb, source.stem)
    target = HERE / f"{source.stem}.ipynb"
    if execute:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE.parent), env.get("PYTHONPATH", "")) if p)
        env["MCP_LAB_UNATTENDED"] = "1"  # nobody answers the forms: the sources' unattended(...) answers do
        client = NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(HERE)}})
        client.execute(env=env)
    for_the_reader(nb)
    nbformat.write(nb, target)
    return target


def with_solutions(source: Path) -> nbformat.NotebookNode:
    """The shipped notebook with its reference solutions put back: the instructor's version."""
    shipped = nbformat.read(HERE / f"{source.stem}.ipynb", as_version=4)
    solutions = iter(c.source for c in parse(source.read_text()) if "solution" in c.metadata.get("tags", []))
    for cell in shipped.cells:
        if "solution" in cell.metadata.get("tags", []):
            cell.source = next(solutions)
    return shipped


def reference(directory: Path) -> list[Path]:
    """The shipped notebooks with their solutions put back, for nbval: every check proved by its solution."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for source in sorted(SOURCES.glob("*.py")):
        nb = with_solutions(source)
        for cell in nb.cells:
            tags = cell.metadata.get("tags", [])
            if "solution" in tags or "check" in tags:
                cell.metadata["tags"] = [*tags, "nbval-ignore-output"]
        target = directory / f"{source.stem}.ipynb"
        nbformat.write(nb, target)
        written.append(target)
    return written


def course(directory: Path) -> list[Path]:
    """An nbgrader course: `source/NN_name/NN_name.ipynb` (one assignment per tutorial, with its reference
    solution) and class/nbgrader_config.py. `nbgrader generate_assignment NN_name` there writes the student
    version, which is the shipped notebook (tests/classroom/test_grading.py and test_grading_servers.py prove it)."""
    written = []
    for source in sorted(SOURCES.glob("*.py")):
        target = directory / "source" / source.stem / f"{source.stem}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(with_solutions(source), target)
        written.append(target)
    config = directory / "nbgrader_config.py"
    config.write_text((HERE.parent / "class" / "nbgrader_config.py").read_text())
    return [config, *written]


# ---- the Korean edition (see the module's docstring) -------------------------------------------------------

FENCED_CODE = re.compile(r"```.*?```|~~~.*?~~~", re.DOTALL)
INLINE_CODE = re.compile(r"``.*?``|`[^`]*`", re.DOTALL)  # a code span may run over a line break
LINK_TARGET = re.compile(r"\]\([^)\s]*\)")
QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”|\*[^*\n]+\*|<[^>\n]*>')
HANGUL = re.compile(r"[\uac00-\ud7a3]")
ENGLISH_RUN = re.compile(r"\b[A-Za-z]{4,}(?: [a-z]{3,}){3,}")
"""Four English words in a row: a sentence left untranslated (names and short phrases pass)."""


def prose(markdown: str) -> str:
    """A markdown cell's prose: code blocks, inline code and link targets left out (they stay as they are),
    on one line (a line break inside a paragraph is a space: "round\ntrip" is a round trip)."""
    markdown = FENCED_CODE.sub(" … ", markdown)  # "…" where code stood: no term runs across it
    return " ".join(LINK_TARGET.sub("]", INLINE_CODE.sub(" … ", markdown)).split())


def glossary(path: Path = GLOSSARY) -> list[tuple[re.Pattern[str], list[str]]]:
    """(English term, its accepted Korean renderings), from notebooks/glossary.ko.toml."""
    terms = tomllib.loads(path.read_text(encoding="utf-8"))["term"]
    return [(re.compile(term["en"], re.IGNORECASE), list(term["ko"])) for term in terms]


def glossary_misses(english: str, korean: str, terms: list[tuple[re.Pattern[str], list[str]]]) -> list[str]:
    """Each term the English cell's prose uses whose Korean rendering the Korean cell lacks, as 'term -> 번역'."""
    used = [(pattern.search(prose(english)), renderings) for pattern, renderings in terms]
    return [f"{m.group(0)!r} -> {' / '.join(map(repr, r))}" for m, r in used if m and not any(k in korean for k in r)]


def english_left(korean: str) -> list[str]:
    """English sentences still in a Korean cell's prose (quoted text, `code` and link targets left out)."""
    return ENGLISH_RUN.findall(QUOTED.sub(" ", prose(korean)))


def _shown(path: Path) -> str:  # a path as the build prints it: from the repository's root, if inside
    return str(path.relative_to(HERE.parent)) if path.is_relative_to(HERE.parent) else str(path)


def korean_problems(
    text: str, where: str, terms: list[tuple[re.Pattern[str], list[str]]]
) -> tuple[dict[str, str], list[str]]:
    """Pair each English markdown cell with the `[markdown ko]` cell right after it: (English cell id ->
    Korean markdown, one line per problem naming the file, the line and the cell)."""
    written = source_cells(text)
    ids = iter(cell.id for cell in parse(text) if cell.cell_type == "markdown")
    translated: dict[str, str] = {}
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("# %%") and "markdown" in line and not re.search(r"\[markdown( ko)?\]", line):
            problems.append(f"{where}:{number}: {line.strip()!r}: a cell marker is `# %% [markdown]` or `# %% [markdown ko]`")
    for i, cell in enumerate(written):
        after = written[i + 1] if i + 1 < len(written) else None
        if cell.kind == "markdown" and HANGUL.search(cell.body):
            problems.append(f"{where}:{cell.line}: an English markdown cell in Korean (its marker lacks ko?)")
            next(ids)
        elif cell.kind == "markdown":
            cell_id = next(ids)
            heading = cell.body.strip().splitlines()[0][:50] if cell.body.strip() else ""
            named = f"{where}:{cell.line}: English cell {cell_id} ({heading!r})"
            if after is None or after.kind != "korean":
                problems.append(f"{named} has no [markdown ko] cell after it")
            elif not after.body.strip():
                problems.append(f"{named}: its [markdown ko] cell (line {after.line}) is empty")
            else:
                translated[cell_id] = after.body
                misses = glossary_misses(cell.body, after.body, terms)
                if misses:
                    problems.append(f"{where}:{after.line}: the Korean cell of {cell_id} lacks {'; '.join(misses)}")
        elif cell.kind == "korean":
            if i == 0 or written[i - 1].kind != "markdown":
                problems.append(f"{where}:{cell.line}: a [markdown ko] cell that follows no English markdown cell")
            elif cell.name is not None:
                problems.append(f"{where}:{cell.line}: a [markdown ko] cell takes its English cell's id: drop id=")
    return translated, problems


def translations(source: Path) -> dict[str, str] | None:
    """`source`'s Korean markdown by cell id; None while it has no Korean cell at all (not translated yet).
    Any problem stops the build with one line naming the file and the cell."""
    text = source.read_text(encoding="utf-8")
    translated, problems = korean_problems(text, _shown(source), glossary())
    if not any(cell.kind == "korean" for cell in source_cells(text)):  # only Korean text elsewhere is wrong
        problems = [problem for problem in problems if "has no [markdown ko] cell" not in problem]
        if not problems:
            return None
    if problems:
        more = f" (and {len(problems) - 1} more: python notebooks/build.py --check)" if len(problems) > 1 else ""
        raise SystemExit(problems[0] + more)
    return translated


def korean_edition(english: nbformat.NotebookNode, translated: dict[str, str], where: str) -> nbformat.NotebookNode:
    """`english` (executed, as written for the reader) with each markdown cell's source in Korean."""
    notebook = copy.deepcopy(english)
    markdown = [cell for cell in notebook.cells if cell.cell_type == "markdown"]
    if sorted(cell.id for cell in markdown) != sorted(translated):
        stale = sorted(set(translated) ^ {cell.id for cell in markdown})[0]
        raise SystemExit(f"{where}: the built notebook's markdown cells are not its source's ({stale}): rebuild it first")
    for cell in markdown:
        cell.source = translated[cell.id]
    notebook.metadata["language"] = "ko"
    return notebook


def write_korean(source: Path, english: nbformat.NotebookNode, directory: Path) -> Path | None:
    """directory/ko/NN_name.ipynb from `english`, if `source` is translated (a line says so if not)."""
    translated = translations(source)
    if translated is None:
        print(f"no Korean edition of {source.stem} yet: its source has no [markdown ko] cell", file=sys.stderr)
        return None
    target = directory / "ko" / f"{source.stem}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(korean_edition(english, translated, _shown(source)), target)
    return target


def korean_reference(directory: Path) -> list[Path]:
    """DIR/ko/: the Korean edition of `reference(DIR)` (same solutions, same nbval-ignore tags)."""
    sources = sorted(SOURCES.glob("*.py"))
    written = [write_korean(s, nbformat.read(directory / f"{s.stem}.ipynb", as_version=4), directory) for s in sources]
    return [path for path in written if path is not None]


def check(sources: list[Path]) -> int:
    """Every problem of every source, one line each (English left in Korean cells as warnings); 1 if any."""
    terms, problems = glossary(), 0
    for source in sources:
        translated, found = korean_problems(source.read_text(encoding="utf-8"), _shown(source), terms)
        left = [f"{cell_id} still reads {words!r}" for cell_id, text in translated.items() for words in english_left(text)]
        for line in [*found, *(f"warning: {_shown(source)}: the Korean cell of {words}" for words in left)]:
            print(line)
        problems += len(found)
    return 1 if problems else 0


def main(names: list[str]) -> None:
    for option, write in (("--reference", reference), ("--course", course)):
        if names[:1] == [option]:
            if len(names) != 2:
                raise SystemExit(f"usage: python notebooks/build.py {option} DIR")
            for source in sorted(SOURCES.glob("*.py")) if option == "--reference" else []:
                translations(source)  # a problem in a Korean cell stops it before anything is written
            for path in write(Path(names[1])):
                print(option[2:], path)
            if option == "--reference":
                for path in korean_reference(Path(names[1])):
                    print("reference", path)
            return
    option = names.pop(0) if names[:1] in (["--korean"], ["--check"]) else None
    sources = [s for s in sorted(SOURCES.glob("*.py")) if not names or s.stem in names or s.name in names]
    if option == "--check":
        raise SystemExit(check(sources))
    for source in sources:
        translations(source)  # a problem in any Korean cell stops the build before anything runs
    for source in sources:
        # --korean: notebooks/ko/ from the English notebooks already built (no kernel, nothing executed)
        english = HERE / f"{source.stem}.ipynb" if option == "--korean" else build(source)
        built = [english] if option is None else []
        built.append(write_korean(source, nbformat.read(english, as_version=4), HERE))
        for path in filter(None, built):
            print("built", _shown(path))


if __name__ == "__main__":
    main(sys.argv[1:])
