"""Fixtures for the browser tests: one JupyterLab per session, a fresh Chromium profile per test.

Lab is always stopped in the fixture's finalizer (with its kernels, checked: no process it started remains);
after every test that used it, the kernels its notebooks opened are shut down (checked too); a failing
test leaves a screenshot
and Lab's log tail in `test-artifacts/`. Without Chromium the tests skip with the command that installs
it -- unless MCP_LAB_REQUIRE_BROWSER=1 (set by .ci/run), where a missing browser is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, sync_playwright

from tests.browser.harness import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, Lab, start_lab
from tests.browser.pages import safe_name

PAGE_TIMEOUT_MS = 30_000


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def chromium() -> Path:
    if not CHROMIUM.exists():
        message = f"Chromium not found at {CHROMIUM}: install it with `apt-get install -y chromium` (.ci/run does)"
        if os.environ.get("MCP_LAB_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(scope="session")
def lab(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    root = tmp_path_factory.mktemp("lab-root")
    home = tmp_path_factory.mktemp("lab-home")
    server = start_lab(root, home)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def kernels_shut_down(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test that used a Lab (passed or failed; the session's or a module's own), the kernels its
    notebooks opened are shut down, and their processes are gone (tests/browser/harness.py)."""
    yield
    for value in dict(getattr(request.node, "funcargs", {})).values():
        if isinstance(value, Lab):
            value.shut_down_kernels()


@pytest.fixture
def context(chromium: Path, tmp_path: Path) -> Iterator[BrowserContext]:
    with sync_playwright() as playwright:
        browser_context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),
            executable_path=str(chromium),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 1000},
        )
        try:
            yield browser_context
        finally:
            browser_context.close()


@pytest.fixture
def page(context: BrowserContext, lab: Lab, request: pytest.FixtureRequest) -> Iterator[Page]:
    tab = context.pages[0] if context.pages else context.new_page()
    tab.set_default_timeout(PAGE_TIMEOUT_MS)
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    yield tab
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = safe_name(request.node.name)
        try:
            tab.screenshot(path=str(ARTIFACTS / f"failed-{name}.png"))
        except Exception as exc:  # the page may be gone; the log below still helps
            problems.append(f"no screenshot: {exc}")
        (ARTIFACTS / f"failed-{name}.log").write_text("\n".join([*problems, "--- lab log ---", lab.log_tail(80)]))
