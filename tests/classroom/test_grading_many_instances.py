"""Tutorial 11 (many instances, one proxy) under nbgrader: released as shipped, graded by its own check.

What is checked and why: tests/classroom/grading.py. A file of its own: each of its two grading runs starts
fifteen server processes and a proxy, as long as tutorials 1 to 10 together (test_grading.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.classroom.grading import MANY_INSTANCES, check_reference, check_release, check_untouched, grade

GRADED = [MANY_INSTANCES]


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory, say: Callable[[str], None]) -> dict[str, Any]:
    return grade(tmp_path_factory, say, GRADED)


def test_generate_assignment_gives_the_shipped_notebook(graded: dict[str, Any]) -> None:
    check_release(graded, MANY_INSTANCES)


def test_the_reference_answers_score_full_marks(graded: dict[str, Any], say: Callable[[str], None]) -> None:
    check_reference(graded, say)


def test_untouched_notebook_scores_zero_and_fails_only_its_check(
    graded: dict[str, Any], say: Callable[[str], None]
) -> None:
    check_untouched(graded, say)
