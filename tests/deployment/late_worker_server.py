"""A server whose second `--workers` worker starts accepting late (`tests.deployment.late_worker_server:mcp`).

Under `uvicorn --workers N` each worker builds the app (the lab's factory writes the worker's state file
then), runs the app's startup, and only then accepts on the shared socket. Here every worker but the first
to start waits `DELAY` seconds in its startup, and each writes `accepting.<pid>` in its working directory
(the instance's folder) just before it accepts: a test can tell whether the lab called the instance ready
before every worker could take a connection.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from starlette.applications import Starlette

DELAY = 2.0


class LateWorkers(MCPServer):
    def streamable_http_app(self, *args: Any, **kwargs: Any) -> Starlette:
        app = super().streamable_http_app(*args, **kwargs)
        startup: Callable[[Starlette], AbstractAsyncContextManager[Any]] = app.router.lifespan_context

        @asynccontextmanager
        async def late(app: Starlette) -> AsyncIterator[Any]:
            async with startup(app) as state:
                try:
                    os.close(os.open("first-worker", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                except FileExistsError:
                    await anyio.sleep(DELAY)
                Path(f"accepting.{os.getpid()}").write_text("")
                yield state

        app.router.lifespan_context = late
        return app


mcp = LateWorkers("late", log_level="WARNING")


@mcp.tool()
def echo(text: str) -> str:
    return text
