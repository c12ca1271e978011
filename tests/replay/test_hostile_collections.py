"""Hostile collections and the command-line tools (issue 22, items 3, 7 and 12), each through the surface a
user meets: `python -m mcp_lab replay|audit` runs (exit 2 and one line on stderr, never a traceback, never a
hang; all of them in one subprocess, tests/cli_batch.py, each through the real entry point) and `save_flows`
on a disk that fills up (a real tmpfs of a few KiB when this runs as root, and RLIMIT_FSIZE in a subprocess
everywhere): the collection that was there stays valid JSON.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import shlex
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab.flow.flow import Flow
from mcp_lab.servers.sandbox import sandbox
from tests.cli_batch import run_batch
from tests.sample_servers.booking import build, command

ROOT = Path(__file__).resolve().parents[2]
LONG = "X" * 6000
"""Over CLIP_CHARS (4096): the recorded argument that once crashed a replay."""
Result = tuple[int, str, str]
"""One command-line run: exit code, stdout, stderr."""


def one_line_exit_2(result: Result, expect: str) -> str:
    code, _, err = result
    assert code == 2, result
    line = err.strip()
    assert "\n" not in line and "Traceback" not in err, err
    assert expect in line, line
    return line


async def _long_collection(folder: Path) -> Path:
    """Two flows recorded in-process whose arguments are 6,000 characters long."""
    sandbox.add(build("A"), name="booking")
    try:
        flows = [
            await mcp_lab.call("booking", "echo", {"text": LONG}),
            await mcp_lab.call("booking", "book", {"city": LONG}, answers={"ask_region": {"region": "north"}}),
        ]
        assert [f.status for f in flows] == ["done", "done"]
        return mcp_lab.save_flows(folder / "long.json", flows)
    finally:
        await sandbox.stop_all()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Result]:
    """Every command-line case of this file, run as `python -m mcp_lab ARGS` in one interpreter
    (tests/cli_batch.py: the entry point per case, its exit code and its stdout and stderr): name -> result.
    What they test is what each run prints and exits with; the hang a FIFO could cause fails the batch's
    timeout."""
    from mcp_lab.audit.runner import CHECKS

    folder = tmp_path_factory.mktemp("hostile")
    long = str(asyncio.run(_long_collection(folder)))
    fifo = folder / "collection.fifo"
    os.mkfifo(fifo)
    deep = folder / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    empty = str(mcp_lab.save_flows(folder / "empty.json", []))
    unreachable = ["--server", "http://127.0.0.1:9/mcp", "--connect-timeout", "2"]
    a, b = shlex.join(command("A")), shlex.join(command("B"))
    cases: dict[str, list[str]] = {
        "long same": ["replay", long, "--stdio", a],
        "long changed": ["replay", long, "--stdio", b],
        "long changed json": ["replay", long, "--stdio", b, "--json"],
        "audit skip all": ["audit", empty, "--stdio", a, "--skip", ",".join(CHECKS)],
        "audit skip each": ["audit", empty, "--stdio", a, *[arg for check in CHECKS for arg in ("--skip", check)]],
        "replay cwd missing": ["replay", long, "--stdio", a, "--cwd", "/nonexistent/dir"],
        "audit cwd missing": ["audit", long, "--stdio", a, "--cwd", "/nonexistent/dir"],
        "cwd a file": ["replay", long, "--stdio", "python x.py", "--cwd", long],
    }
    for tool in ("replay", "audit"):
        cases[f"{tool} fifo"] = [tool, str(fifo), *unreachable]
        cases[f"{tool} deep"] = [tool, str(deep), *unreachable]
    return dict(zip(cases, run_batch(list(cases.values()), timeout=300), strict=True))


# ---- item 3: a long recorded argument ----------------------------------------------------------------
def test_replay_cli_of_a_long_argument_reports_instead_of_crashing(runs: dict[str, Result]) -> None:
    code, out, err = runs["long same"]
    assert code == 0 and "Traceback" not in err, out + err
    assert out.splitlines()[0].endswith(": 2 flow(s), no differences"), out
    assert max(len(line) for line in out.splitlines()) < 400  # a label is one short line
    code, out, err = runs["long changed"]
    assert code == 1 and "Traceback" not in err, out + err
    lines = out.splitlines()
    assert "1 different" in lines[0]
    assert any(".params.message: 'Which region for XXX" in line for line in lines), lines
    assert any(line.strip().startswith("- $.result.content[0].text: 'Booked XXX") for line in lines), lines
    assert max(len(line) for line in lines) < 400
    code, out, err = runs["long changed json"]
    assert code == 1, err
    report = json.loads(out)
    entry = report["entries"][1]
    assert isinstance(entry["label"], str) and entry["label"].startswith("tools/call book")
    assert all(isinstance(d["message"], str) for d in entry["differences"])
    recorded = entry["differences"][-1]["recorded"]
    assert recorded["clipped"] is True and recorded["length"] == len("Booked  in north") + len(LONG)


# ---- item 12: non-regular files ------------------------------------------------------------------------
@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "collection.fifo"
    os.mkfifo(path)
    yield path


def test_a_fifo_is_refused_by_both_clis_without_waiting(runs: dict[str, Result]) -> None:
    for tool in ("replay", "audit"):
        one_line_exit_2(runs[f"{tool} fifo"], "is a FIFO, not a regular file")


def test_a_fifo_is_refused_by_load_flows_and_save_flows(fifo: Path) -> None:
    with pytest.raises(mcp_lab.LabError, match="is a FIFO, not a regular file"):
        mcp_lab.load_flows(fifo)
    with pytest.raises(mcp_lab.LabError, match="is not a regular file \\(a FIFO\\)"):
        mcp_lab.save_flows(fifo, [])


def test_a_directory_and_a_device_are_refused(tmp_path: Path) -> None:
    with pytest.raises(mcp_lab.LabError, match="it is a directory"):
        mcp_lab.load_flows(tmp_path)
    with pytest.raises(mcp_lab.LabError, match="is a device, not a regular file"):
        mcp_lab.load_flows("/dev/zero")  # a regular read would never end
    with pytest.raises(mcp_lab.LabError, match="is a directory"):
        mcp_lab.save_flows(tmp_path, [])


def test_a_collection_nested_past_any_record_is_one_line_not_a_recursion_error(
    tmp_path: Path, runs: dict[str, Result]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(mcp_lab.LabError, match="nested deeper than"):
        mcp_lab.load_flows(deep)
    for tool in ("replay", "audit"):
        one_line_exit_2(runs[f"{tool} deep"], "nested deeper than")


def test_audit_skipping_every_check_exits_2_instead_of_claiming_nothing_broke(runs: dict[str, Result]) -> None:
    result = runs["audit skip all"]
    line = one_line_exit_2(result, "every check is left out")
    assert "no rule broken" not in result[1] + line
    one_line_exit_2(runs["audit skip each"], "every check is left out")


def test_a_missing_working_directory_is_named_as_such(runs: dict[str, Result]) -> None:
    for tool in ("replay", "audit"):
        line = one_line_exit_2(runs[f"{tool} cwd missing"], "the working directory '/nonexistent/dir' does not exist")
        assert "python" not in line
    one_line_exit_2(runs["cwd a file"], "is not a directory")


# ---- item 12: NaN arguments ----------------------------------------------------------------------------
async def test_a_nan_argument_is_saved_as_the_null_that_was_sent(tmp_path: Path) -> None:
    entry = sandbox.new_mcpserver("nan")

    @entry.server.tool()
    def seen(x: object = None, y: object = None) -> str:
        return json.dumps([x, y])

    sandbox.register(entry)
    try:
        flow = await mcp_lab.call("nan", "seen", {"x": math.nan, "y": [math.inf, -math.inf, 1.5]})
        assert flow.status == "done"
        assert json.loads(flow.last.result["content"][0]["text"]) == [None, [None, None, 1.5]]  # type: ignore[index]
        assert flow.arguments == {"x": None, "y": [None, None, 1.5]}  # recorded as sent
        path = mcp_lab.save_flows(tmp_path / "nan.json", [flow])
        text = path.read_text()
        json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in a saved collection"))
        assert "NaN" not in text and "Infinity" not in text
        assert mcp_lab.load_flows(path)[0].arguments == flow.arguments
        assert "NaN" not in flow.to_json()
        by_hand = Flow(server="s", method="tools/call", target="t", arguments={"x": math.nan}, status="done")
        assert json.loads(by_hand.to_json())["arguments"] == {"x": None}  # a Flow built by hand, too
        odd = Flow(server="s", method="tools/call", target="t", arguments={"x": object()}, status="done")
        with pytest.raises(mcp_lab.LabError, match="flow 0 cannot be saved as JSON"):
            mcp_lab.save_flows(tmp_path / "odd.json", [odd])
        assert not (tmp_path / "odd.json").exists()
    finally:
        await sandbox.stop_all()


# ---- item 7: atomic save_flows ---------------------------------------------------------------------------
_FILL = """
import json, os, resource, signal, sys
sys.path.insert(0, {root!r})
import mcp_lab
from mcp_lab.flow.flow import Flow

path = sys.argv[1]
small = [Flow(server="s", method="tools/call", target="t", arguments={{"n": 1}}, status="done")]
big = [Flow(server="s", method="tools/call", target="t", arguments={{"blob": "y" * 400_000}}, status="done")]
mcp_lab.save_flows(path, small)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the limit write() fails with EFBIG instead of killing us
resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))
try:
    mcp_lab.save_flows(path, big)
except mcp_lab.LabError as exc:
    print("REFUSED", exc)
print("AFTER", json.dumps(mcp_lab.load_flows(path)[0].arguments))
"""


def _left_behind(directory: Path, keep: str) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name != keep)


def test_save_flows_past_a_file_size_limit_keeps_the_old_collection(tmp_path: Path) -> None:
    script = tmp_path / "fill.py"
    script.write_text(textwrap.dedent(_FILL.format(root=str(ROOT))))
    target = tmp_path / "out" / "flows.json"
    target.parent.mkdir()
    result = subprocess.run(
        [sys.executable, str(script), str(target)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    refused, after = result.stdout.strip().splitlines()
    assert refused.startswith("REFUSED cannot write") and "nothing there was changed" in refused, refused
    assert after == 'AFTER {"n": 1}'
    json.loads(target.read_text())
    assert _left_behind(target.parent, "flows.json") == []  # the temporary file is gone too


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 32 KiB tmpfs (root only: elsewhere the RLIMIT_FSIZE test above covers the same path)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mountpoint = tmp_path / "tiny"
    mountpoint.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32k", "tmpfs", str(mountpoint)], check=False)
    if mounted.returncode != 0:
        pytest.skip("this container may not mount a tmpfs")
    try:
        yield mountpoint
    finally:
        subprocess.run(["umount", str(mountpoint)], check=True)


def test_save_flows_on_a_full_disk_keeps_the_old_collection(tiny_disk: Path) -> None:
    target = tiny_disk / "flows.json"
    old = [Flow(server="s", method="tools/call", target="t", arguments={"n": 1}, status="done")]
    mcp_lab.save_flows(target, old)
    os.chmod(target, 0o640)
    big = [Flow(server="s", method="tools/call", target="t", arguments={"blob": "y" * 200_000}, status="done")]
    with pytest.raises(mcp_lab.LabError) as refused:
        mcp_lab.save_flows(target, big)
    message = str(refused.value)
    assert "No space left on device" in message and "nothing there was changed" in message and "\n" not in message
    assert [f.arguments for f in mcp_lab.load_flows(target)] == [{"n": 1}]
    assert _left_behind(tiny_disk, "flows.json") == []
    fits = [Flow(server="s", method="tools/call", target="t", arguments={"n": 2}, status="done")]
    mcp_lab.save_flows(target, fits)  # a collection that fits replaces the old one, its permissions kept
    assert [f.arguments for f in mcp_lab.load_flows(target)] == [{"n": 2}]
    assert target.stat().st_mode & 0o777 == 0o640
