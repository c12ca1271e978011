"""A leg's capture (mcp_lab/servers/lab_server.py `LegCapturing`): the fields it starts with, and which legs
enter the recorder's `Leg` -- those whose requests cross HTTP, whose exchanges it attributes."""

from __future__ import annotations

from mcp_lab.exchanges.record import LegCapture
from mcp_lab.exchanges.recorder import current_capture
from mcp_lab.servers.lab_server import LegCapturing
from mcp_lab.servers.log_book import server_logs


def test_a_capture_starts_with_every_field_a_leg_capture_has_and_lists_of_its_own() -> None:
    plain, first, second = LegCapture(), LegCapturing("x", over_http=False), LegCapturing("y", over_http=True)
    for capture in (first, second):
        assert {k: v for k, v in vars(capture).items() if not k.startswith("_")} == vars(plain)
    assert first.server_log is not second.server_log


def test_only_a_leg_over_http_enters_the_recorders_leg_and_both_are_routed_log_lines_meanwhile() -> None:
    for over_http in (False, True):
        with LegCapturing("x", over_http=over_http) as capture:
            assert (current_capture() is capture) is over_http
            assert any(active is capture for active in server_logs.capturing)
        assert current_capture() is None
        assert not any(active is capture for active in server_logs.capturing)
