"""Server names are bounded (issue 22 item 8), and stopping a server ends its HTTP serving before the server
leaves the sandbox -- so a failure on the way (a header file that cannot be removed) never leaves a serving
thread no magic can reach (real uvicorn on loopback)."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab.servers import header_files
from mcp_lab.servers.lab_server import MAX_NAME, LabServer, check_name, shown_name
from mcp_lab.servers.sandbox import sandbox
from tests.ports import listening_ports


@pytest.mark.parametrize("name", ["a" * (MAX_NAME + 1), "b" * 300, "c" * 10_000])
def test_long_names_are_refused_in_one_short_line(name: str) -> None:
    with pytest.raises(mcp_lab.LabError, match=f"at most {MAX_NAME} characters") as caught:
        check_name(name)
    assert len(str(caught.value)) < 160 and f"({len(name)} characters)" in str(caught.value)


@pytest.mark.parametrize("name", ["", "a/b", "a b", "..", "x\x00y", 5, None])
def test_other_names_are_refused(name: object) -> None:
    with pytest.raises(mcp_lab.LabError, match="server name"):
        check_name(name)  # type: ignore[arg-type]


def test_the_longest_names_still_make_a_short_header_file() -> None:
    check_name("a" * MAX_NAME)
    check_name("名" * MAX_NAME)  # letters of any script; its file name is then a digest
    for name in ("a" * MAX_NAME, "名" * MAX_NAME, "𝔸" * MAX_NAME):
        assert len(header_files.header_file(name).name.encode()) <= 200
    assert header_files.header_file("shop").name.startswith("shop.")
    assert shown_name("z" * 10_000).endswith("...' (10000 characters)")


def _serving_threads(name: str) -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith(f"mcp_lab http {name}:")]


async def test_stop_ends_serving_first_even_when_its_header_file_cannot_go(
    http_demo: LabServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert http_demo.http is not None
    port = http_demo.http.port
    # A header file path the file system refuses (the ENAMETOOLONG a 300-character name used to reach).
    monkeypatch.setattr(header_files, "header_file", lambda name: tmp_path / ("x" * 300 + ".header"))
    sandbox.retire(http_demo)
    assert "demo" not in sandbox.servers and http_demo.http is None
    for _ in range(200):
        if not _serving_threads("demo"):
            break
        await asyncio.sleep(0.05)
    assert _serving_threads("demo") == []
    assert port not in listening_ports([os.getpid()])
