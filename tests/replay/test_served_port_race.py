"""`served` yields a URL only once its own process listens: a port another process took between the choice
and the bind is not mistaken for the server's (a replay would then talk to someone else's server)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from tests.sample_servers import changes


def test_a_server_that_lost_its_port_is_started_again_on_another(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        taken_port = taken.getsockname()[1]
        chosen = iter([taken_port])
        real = changes.free_port
        monkeypatch.setattr(changes, "free_port", lambda: next(chosen, None) or real())

        async def url() -> str:
            async with changes.served("-m", "tests.sample_servers.own.desk") as served_url:
                return served_url

        served_url = asyncio.run(url())
    assert f":{taken_port}/" not in served_url and served_url.startswith("http://127.0.0.1:")
