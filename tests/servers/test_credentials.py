"""Credentials given on a command line or in a magic (issue 25): parsed, sent, and never shown.

`--header "NAME: VALUE"` and `--header-file FILE` for `python -m mcp_lab replay`/`audit` and `%mcp_audit`;
argparse's own error lines with the typed words hidden; URLs with `user:password@` redacted; the header file
`%mcp_server url` writes (per kernel and server, 0600, never through a link). Two real kernels and the audit
CLI against a served server are in tests/servers/test_header_files_kernels.py.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

import mcp_lab
from mcp_lab.__main__ import main
from mcp_lab.errors import LabError
from mcp_lab.servers.credentials import header_arguments, read_header_file, redact, redact_url
from mcp_lab.servers.header_files import forget_all_header_files, header_file, write_header_file
from mcp_lab.servers.sandbox import sandbox

SECRET = "s3cr3t-b34r3r-v4lu3"


def test_urls_lose_their_password_and_header_values_their_text() -> None:
    assert redact_url("at http://ada:pw@127.0.0.1:9/mcp and https://x@h/") == "at http://***@127.0.0.1:9/mcp and https://***@h/"
    assert redact(f"Bearer {SECRET} at http://u:p@h/", [SECRET]) == "Bearer *** at http://***@h/"
    assert header_arguments([f"Authorization: Bearer {SECRET}", "X-Team:  blue "]) == {
        "Authorization": f"Bearer {SECRET}",
        "X-Team": "blue",
    }
    for bad in (SECRET, f"Bad Name: {SECRET}", f": {SECRET}"):
        with pytest.raises(LabError) as raised:
            header_arguments([bad])
        assert SECRET not in str(raised.value) and '--header takes "Name: value"' in str(raised.value)


def test_a_header_file_is_read_and_a_broken_one_named_without_its_text(tmp_path: Path) -> None:
    good = tmp_path / "h"
    good.write_text(f"# the lab's header file\nAuthorization: Bearer {SECRET}\n\nX-Team: blue\n")
    assert read_header_file(good) == {"Authorization": f"Bearer {SECRET}", "X-Team": "blue"}
    assert header_arguments(["X-Team: red"], [str(good)])["X-Team"] == "red"  # --header wins over a file
    broken = tmp_path / "broken"
    broken.write_text(f"Bearer {SECRET}\n")
    for path, expected in ((broken, "takes"), (tmp_path / "missing", "cannot read it"), (tmp_path, "cannot read")):
        with pytest.raises(LabError) as raised:
            read_header_file(path)
        assert expected in str(raised.value) and SECRET not in str(raised.value)


@pytest.mark.parametrize(
    "argv",
    [
        ["audit", "c.json", "--server", "http://127.0.0.1:9/mcp", "--header", "Authorization:", "Bearer", SECRET],
        ["replay", "c.json", "--server", "http://127.0.0.1:9/mcp", "--header", "Authorization:", "Bearer", SECRET],
        ["audit", "c.json", "--stdio", "x", "--header", f"Authorization: Bearer {SECRET}"],
        ["audit", "c.json", "--server", "http://127.0.0.1:9/mcp", "--header", SECRET],
        ["audit", "c.json", "--server", f"http://ada:{SECRET}@127.0.0.1:9/mcp", "--connect-timeout", "2"],
        ["audit", "c.json", "--server", "http://127.0.0.1:9/mcp", "--timeout", SECRET],
        ["replay", "c.json", f"--header={SECRET}"],
    ],
)
def test_no_error_line_repeats_a_secret(
    argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    collection = tmp_path / "c.json"
    collection.write_text('{"format": "mcp-lab/flows", "version": 1, "flows": []}')
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        raise SystemExit(main(argv))
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and err.strip() and "Traceback" not in err
    assert SECRET not in out + err, err


def test_header_files_are_per_process_private_and_replace_a_planted_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    path = write_header_file("shop", f"Bearer {SECRET}")
    assert path == header_file("shop") and path.name == f"shop.pid{os.getpid()}.{os.getpid()}.header"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    victim = tmp_path / "victim"
    victim.write_text("untouched")
    path.unlink()
    path.symlink_to(victim)
    os.chmod(victim, 0o644)
    write_header_file("shop", f"Bearer {SECRET}-2")
    assert not path.is_symlink() and victim.read_text() == "untouched"
    assert path.read_text() == f"Authorization: Bearer {SECRET}-2\n" and stat.S_IMODE(path.stat().st_mode) == 0o600
    dead = path.parent / "shop.kernel.999999999.header"  # a killed kernel's file: no such process
    dead.write_text("Authorization: Bearer old\n")
    write_header_file("cart", f"Bearer {SECRET}")
    assert not dead.exists() and path.exists()
    forget_all_header_files()  # what atexit and the kernel's shutdown hook run
    assert list(path.parent.iterdir()) == []


async def test_mcp_audit_takes_headers_and_never_echoes_them(capsys: pytest.CaptureFixture[str]) -> None:
    shell = InteractiveShell.instance()
    mcp_lab.load_ipython_extension(shell)
    try:
        shell.run_cell_magic("mcp_server", "desk", "@mcp.tool()\ndef ping() -> str:\n    return 'pong'\n")
        with pytest.raises(UsageError) as raised:
            shell.run_line_magic("mcp_audit", f"desk --header Authorization: Bearer {SECRET}")
        assert SECRET not in str(raised.value) and "unrecognized arguments" in str(raised.value)
        with pytest.raises(LabError, match="headers are for servers reached over HTTP"):
            await shell.run_line_magic("mcp_audit", f'desk --header "Authorization: Bearer {SECRET}"')
    finally:
        await sandbox.stop_all()
        mcp_lab.unload_ipython_extension(shell)
    assert SECRET not in capsys.readouterr().out
