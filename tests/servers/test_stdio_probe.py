"""The per-leg checks of a stdio connection, made cheap: the server's stderr log read through a descriptor
of its own (size by lseek, new lines by pread), with the same answers as the long way (lines written during
the leg only). The server process asked by one `waitid` (`child_running`) is tested beside `alive`, in
tests/servers/test_pids.py."""

from __future__ import annotations

from pathlib import Path

from mcp_lab.servers.transports import LegRecorder, StderrProbe


def test_a_leg_keeps_only_the_lines_written_during_it(tmp_path: Path) -> None:
    log = tmp_path / "server.stderr.log"
    log.write_text("started\n")
    probe = StderrProbe(log)
    with log.open("a") as server:  # the server's own handle, as its inherited stderr
        with LegRecorder(log, "", probe) as capture:
            server.write("asked for 'hi'\n\n")
            server.flush()
        assert capture.server_log == ["stderr: asked for 'hi'"]
        with LegRecorder(log, "", probe) as quiet:
            pass
        assert quiet.server_log == []
        server.write("between legs\n")
        server.flush()
        with LegRecorder(log, "", probe) as later:
            server.write("ünïcode ok\n")
            server.flush()
        assert later.server_log == ["stderr: ünïcode ok"]  # not the line written between legs
    # A recorder given only the path opens (and closes) its own probe.
    with LegRecorder(log) as own_probe, log.open("a") as server:
        server.write("by path\n")
        server.flush()
    assert own_probe.server_log == ["stderr: by path"]
    probe.close()
    probe.close()  # twice: nothing
    assert probe.size() == log.stat().st_size  # reopened on use


def test_a_missing_log_records_nothing(tmp_path: Path) -> None:
    with LegRecorder(tmp_path / "gone.log") as capture:
        pass
    assert capture.server_log == [] and StderrProbe(tmp_path / "gone.log").size() == 0
