"""The class tests print their times and scores to the terminal as they go (CI's log), past pytest's capture."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest


@pytest.fixture(scope="session")
def say(pytestconfig: pytest.Config) -> Callable[[str], None]:
    capture = pytestconfig.pluginmanager.get_plugin("capturemanager")

    def write(message: str) -> None:
        # What capsys.disabled() does: the line reaches the real terminal even while output is captured.
        with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
            print(f"\n[class] {message}", flush=True)

    return write
