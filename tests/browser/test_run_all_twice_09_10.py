"""Run All twice in one kernel, tutorials 09-10, the forms answered on screen (tests/browser/tutorial_runs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.browser.harness import Lab
from tests.browser.tutorial_runs import run_all_twice, tutorials

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("stem", tutorials(9, 10))
def test_run_all_twice_in_one_kernel(lab: Lab, page: Page, tmp_path: Path, stem: str) -> None:
    run_all_twice(lab, page, tmp_path, stem)
