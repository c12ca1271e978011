"""Fixtures for the browser tests: one JupyterLab per session, one Chromium per worker, a fresh context per test.

Lab is always stopped in the fixture's finalizer (with its kernels, checked: no process it started remains);
after every test that used it, the kernels its notebooks opened are shut down (checked too); a failing
test leaves a screenshot
and Lab's log tail in `test-artifacts/`. Without Chromium the tests skip with the command that installs
it -- unless MCP_LAB_REQUIRE_BROWSER=1 (set by .ci/run), where a missing browser is a failure.

Chromium is started once per worker and given each test a browser context of its own (cookies, storage,
cache: nothing carries over from one test to the next); starting a browser and Playwright's driver for
every test cost seconds of CPU each (measured). It is stopped when the worker's next test is not a browser
test: Playwright's sync API keeps its event loop marked running on this thread while it is started, and
`asyncio.run` in a later test of the same worker would refuse to start.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Error, Page, Playwright, sync_playwright

from tests.browser.harness import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, Lab, start_lab
from tests.browser.pages import safe_name

PAGE_TIMEOUT_MS = 30_000
HERE = Path(__file__).resolve().parent


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


class SharedChromium:
    """This worker's Chromium, started at its first browser test and stopped after its last one in a row."""

    def __init__(self) -> None:
        self._driver: Playwright | None = None
        self._browser: Browser | None = None

    def browser(self, executable: Path) -> Browser:
        if self._browser is None or not self._browser.is_connected():
            self.stop()
            self._driver = sync_playwright().start()
            self._browser = self._driver.chromium.launch(
                executable_path=str(executable), headless=True, args=CHROMIUM_ARGS
            )
        return self._browser

    def stop(self) -> None:
        browser, driver = self._browser, self._driver
        self._browser = self._driver = None
        try:
            if browser is not None and browser.is_connected():
                browser.close()
        finally:
            if driver is not None:
                driver.stop()


_CHROMIUM = SharedChromium()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    try:
        return (yield)
    finally:
        if nextitem is None or HERE not in Path(nextitem.path).parents:
            _CHROMIUM.stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    _CHROMIUM.stop()


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
def context(chromium: Path) -> Iterator[BrowserContext]:
    browser_context = _CHROMIUM.browser(chromium).new_context(viewport={"width": 1280, "height": 1000})
    try:
        yield browser_context
    finally:
        browser_context.close()


@pytest.fixture
def page_lab(lab: Lab) -> Lab | None:
    """The Lab whose log a failing test's artifacts carry: the session's; a module with a Lab of its own
    (the Korean ones) overrides this fixture with it."""
    return lab


@pytest.fixture
def failing_page_error() -> Callable[[Error], bool]:
    """Which errors thrown in the page fail the test (all are written to a failing test's log): none by
    default; a module overrides this fixture to hold its pages to more."""
    return lambda error: False


@pytest.fixture
def page(
    context: BrowserContext,
    page_lab: Lab | None,
    failing_page_error: Callable[[Error], bool],
    request: pytest.FixtureRequest,
) -> Iterator[Page]:
    tab = context.pages[0] if context.pages else context.new_page()
    tab.set_default_timeout(PAGE_TIMEOUT_MS)
    problems: list[str] = []
    failing: list[str] = []

    def thrown(error: Error) -> None:
        problems.append(f"page error: {error}")
        if failing_page_error(error):
            failing.append(str(error.stack))

    tab.on("pageerror", thrown)
    yield tab
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = safe_name(request.node.name)
        try:
            tab.screenshot(path=str(ARTIFACTS / f"failed-{name}.png"))
        except Exception as exc:  # the page may be gone; the log below still helps
            problems.append(f"no screenshot: {exc}")
        log = page_lab.log_tail(80) if page_lab is not None else "(none)"
        (ARTIFACTS / f"failed-{name}.log").write_text("\n".join([*problems, "--- lab log ---", log]))
    assert not failing, failing
