"""Test servers run as `python -m MODULE ARGS` / `python FILE ARGS` would run them, forked from one
interpreter per test process that has imported the SDK and uvicorn already.

Why: every such server process used to pay for importing the SDK, pydantic and uvicorn (about 1.2 CPU-s,
measured) before it could answer, and a test file that serves each of nine servers over HTTP paid that nine
times. Here multiprocessing's fork server imports them once (the first server a test process starts pays
for it), and each server is a fork of it: a process of its own, its own pid, port, event loop and key,
with the module (or file) run as `__main__` exactly as the interpreter runs it -- `__main__:...` resolvers
included -- its working directory, environment and command line as asked, its stdout and stderr on pipes
the test reads. Only where the server's process start is not what a test is about: a server the lab or a
CLI starts itself (stdio) is still exec'd by them. Each server gets SIGTERM when the fork server goes,
which goes with the test process.
"""

from __future__ import annotations

import asyncio
import atexit
import multiprocessing
import multiprocessing.connection
import multiprocessing.util
import os
import runpy
import sys
from pathlib import Path

PRELOAD = [
    "mcp.server.mcpserver",
    "mcp.server.lowlevel",
    "mcp.server.stdio",
    "mcp.server.streamable_http",
    "mcp.server.streamable_http_manager",
    "uvicorn.config",
    "uvicorn.server",
    "uvicorn.lifespan.on",
    "uvicorn.loops.auto",
    "uvicorn.protocols.http.auto",
    "uvicorn.protocols.websockets.auto",
    "pydantic",
    "anyio",
    # The test processes' kernels are forked here too (tests/forked_kernels.py): ipykernel, IPython and what
    # `%load_ext mcp_lab` imports of the SDK (`mcp` and its protocol models) -- never mcp_lab itself.
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "ipykernel.zmqshell",
    "ipykernel.iostream",
    "ipykernel.comm",
    "ipykernel.debugger",  # and debugpy, which it imports when a kernel starts
    "IPython.core.interactiveshell",
    "IPython.core.completer",
    "IPython.core.completerlib",
    "IPython.core.debugger",
    "IPython.core.logger",
    "IPython.core.oinspect",
    "IPython.extensions.storemagic",
    "sqlite3",
    "tornado.platform.asyncio",
    "tornado.queues",
    "tornado.locks",
    "mcp",
    "mcp.client",
    "ctypes",
]
"""Libraries only: no server is built, no key drawn, no kernel made and no thread started in the fork server
(each server and kernel does that itself)."""

CONTEXT = multiprocessing.get_context("forkserver")
CONTEXT.set_forkserver_preload(PRELOAD)
# multiprocessing stops what is left and removes its temp folder (the fork server's socket) at exit; run that
# before tests/isolation.py removes the process's temp root (registered earlier, so it would run first and
# leave multiprocessing a folder that is gone). Later calls find nothing left to do.
atexit.register(multiprocessing.util._exit_function)  # type: ignore[attr-defined]


def _serve(
    argv: list[str],
    cwd: str,
    env: dict[str, str],
    stdout: multiprocessing.connection.Connection,
    stderr: multiprocessing.connection.Connection,
) -> None:
    """In the forked child: become `python ARGV...` (argv[0] a file, or "-m" and a module)."""
    from mcp_lab.deployment.guard import die_with_parent

    die_with_parent(os.getppid())  # the fork server goes with the test process; this server follows it
    os.dup2(stdout.fileno(), 1)
    os.dup2(stderr.fileno(), 2)
    stdout.close()
    stderr.close()
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    try:
        if argv[0] == "-m":
            sys.argv = [argv[1], *argv[2:]]
            sys.path.insert(0, cwd)  # what `python -m` puts first: the working directory
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(argv)
            sys.path.insert(0, str(Path(argv[0]).resolve().parent))  # what `python FILE` puts first
            runpy.run_path(argv[0], run_name="__main__")
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()


class Server:
    """A forked server process: its pid, its stdout and stderr as asyncio readers, terminate, wait."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str] | None) -> None:
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        child_out = multiprocessing.connection.Connection(out_write, readable=False)
        child_err = multiprocessing.connection.Connection(err_write, readable=False)
        self.process = CONTEXT.Process(
            target=_serve,
            args=(argv, str(cwd), dict(os.environ if env is None else env), child_out, child_err),
            daemon=True,  # a test process that ends stops what is left, rather than waiting for it
        )
        try:
            self.process.start()
        finally:
            child_out.close()
            child_err.close()
        self.pid = self.process.pid
        self._pipes = (out_read, err_read)
        self.stdout = asyncio.StreamReader()
        self.stderr = asyncio.StreamReader()

    async def _attach(self) -> None:
        loop = asyncio.get_running_loop()
        for fd, reader in zip(self._pipes, (self.stdout, self.stderr), strict=True):
            pipe = os.fdopen(fd, "rb", buffering=0)
            await loop.connect_read_pipe(lambda reader=reader: asyncio.StreamReaderProtocol(reader), pipe)

    @property
    def returncode(self) -> int | None:
        return self.process.exitcode

    def terminate(self) -> None:
        if self.process.exitcode is None:
            self.process.terminate()

    async def wait(self) -> int:
        await asyncio.to_thread(self.process.join)
        code = self.process.exitcode
        assert code is not None
        return code


async def start(argv: list[str], *, cwd: Path, env: dict[str, str] | None = None) -> Server:
    """`python ARGV...` (argv[0] a file, or "-m" and a module) as a fork of the preloaded interpreter."""
    server = Server(argv, cwd, env)
    await server._attach()
    return server
