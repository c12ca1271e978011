"""The course's tutorials 1 to 9 under nbgrader: released as shipped, graded by their own checks.

What is checked and why: tests/classroom/grading.py. Tutorials 10 and 11 are graded the same way in
test_grading_servers.py, beside this file (tutorial 11's fifteen server processes take as long as several
tutorials together).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.classroom.grading import (
    SERVERS,
    TUTORIALS,
    autograded,
    check_reference,
    check_release,
    check_untouched,
    grade,
)

GRADED = [name for name in TUTORIALS if name not in SERVERS]


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory, say: Callable[[str], None]) -> dict[str, Any]:
    return grade(tmp_path_factory, say, GRADED)


@pytest.mark.parametrize("name", GRADED)
def test_generate_assignment_gives_the_shipped_notebook(graded: dict[str, Any], name: str) -> None:
    check_release(graded, name)


def test_the_reference_answers_score_full_marks(graded: dict[str, Any], say: Callable[[str], None]) -> None:
    check_reference(graded, say)
    # The forms were answered by the tutorial's unattended(...) cell: the grading kernel saw MCP_LAB_UNATTENDED.
    first = autograded(graded, "reference", GRADED[0])
    (form,) = [
        c for c in first.cells if c.source.startswith("flow = await %mcp_call Provisioner provision name=orders")
    ]
    # One print can reach the notebook as several stream outputs (the kernel flushes when it likes): join them.
    assert "".join(o.get("text", "") for o in form.outputs if o.output_type == "stream") == (
        "Provisioned 'orders' in eu-west-1.\n"
    )
    records = [o.data.get("text/plain", "") for o in form.outputs if o.output_type == "display_data"]
    assert any("elicitation form 'region' from 'Provisioner': answered region='eu-west-1'" in r for r in records)


def test_untouched_notebooks_score_zero_and_fail_only_their_checks(
    graded: dict[str, Any], say: Callable[[str], None]
) -> None:
    check_untouched(graded, say)
