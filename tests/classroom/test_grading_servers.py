"""Tutorials 10 (audit your server) and 11 (many instances, one proxy) under nbgrader: released as shipped,
graded by their own checks.

What is checked and why: tests/classroom/grading.py. A file of their own, beside test_grading.py (tutorials
1 to 9): each grading run of tutorial 11 starts fifteen server processes and a proxy and takes as long as
several others together, so neither file holds a test worker for the whole course.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.classroom.grading import SERVERS, check_reference, check_release, check_untouched, grade

GRADED = SERVERS


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory, say: Callable[[str], None]) -> dict[str, Any]:
    return grade(tmp_path_factory, say, GRADED)


@pytest.mark.parametrize("name", GRADED)
def test_generate_assignment_gives_the_shipped_notebook(graded: dict[str, Any], name: str) -> None:
    check_release(graded, name)


def test_the_reference_answers_score_full_marks(graded: dict[str, Any], say: Callable[[str], None]) -> None:
    check_reference(graded, say)


def test_untouched_notebooks_score_zero_and_fail_only_their_checks(
    graded: dict[str, Any], say: Callable[[str], None]
) -> None:
    check_untouched(graded, say)
