"""One interpreter, loaded once, forked for each run of the client under test (tests/interop/conformance_client.py).

Why: the conformance suite starts the client command once per scenario, and a fresh interpreter spends most
of its CPU importing the SDK and the lab (about 1.5 CPU-s of the 2 a scenario costs) -- 32 times per suite
run, on the 2 cores the whole test suite shares. What the scenarios test is what the client sends, not how
its process starts, so each run is a fork of this process: a process of its own (fresh module state, its own
exit code, stdout and stderr), with the imports already done.

`python -m tests.interop.client_forks SOCKET LOG` listens on the Unix socket SOCKET; the command the suite
runs is tests/interop/forward_client.py, which connects, hands over its argv, environment and its stdout
and stderr (as file descriptors), and exits with the code the forked run exited with. At most `--at-once`
runs go at a time (the others wait their turn: on a busy machine 32 clients at once each time out before
they connect). A run whose scenario is not in `--only` is refused with exit 2 without forking: the suite's
frozen set also runs unscored scenarios this test does not claim. A run whose forwarder goes away (the suite
timed it out) is killed. Each finished run is appended to LOG as one JSON line (scenario, exit code).
Single-threaded on purpose: a fork is only safe from a process with no other thread.
"""

from __future__ import annotations

import argparse
import array
import contextlib
import json
import os
import selectors
import signal
import socket
import sys
import threading
from collections import deque
from dataclasses import dataclass, field

MAX_MESSAGE = 1 << 20


@dataclass
class Job:
    connection: socket.socket
    request: dict[str, object]
    fds: list[int]
    pid: int = 0
    pidfd: int = -1
    scenario: str = field(default="")
    watched: bool = False
    """Whether its connection is in the selector (until the forwarder goes or the run ends)."""


def _receive(connection: socket.socket) -> tuple[dict[str, object], list[int]]:
    fds = array.array("i")
    message, ancillary, _, _ = connection.recvmsg(MAX_MESSAGE, socket.CMSG_LEN(2 * fds.itemsize))
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - (len(data) % fds.itemsize)])
    request = json.loads(message.decode())
    assert isinstance(request, dict) and len(fds) == 2, (request, list(fds))
    return request, list(fds)


def _child(job: Job, inherited: list[int]) -> None:
    """In the fork: become the client's process (argv, environment, stdout/stderr) and run it."""
    code = 1
    try:
        for fd in inherited:  # the server's listener, selector and other runs' connections are not the client's
            os.close(fd)
        out, err = job.fds
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.close(out)
        os.close(err)
        job.connection.close()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        env = job.request["env"]
        assert isinstance(env, dict)
        os.environ.clear()
        os.environ.update(env)
        argv = job.request["argv"]
        assert isinstance(argv, list)
        sys.argv = ["conformance_client", *argv]
        from tests.interop.conformance_client import main

        code = main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
        if not isinstance(exc.code, int) and exc.code is not None:
            print(exc.code, file=sys.stderr)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _preload() -> None:
    """What every run imports, imported once here (the lab imports lazily, on first use)."""
    import mcp.client.streamable_http  # noqa: F401  (the transport every scenario connects with)

    import mcp_lab
    import tests.interop.conformance_client  # noqa: F401  (the SDK, httpx2, the SDK's OAuth client)

    for name in ("connect", "call", "describe", "get_prompt", "read_resource", "disconnect", "sandbox"):
        getattr(mcp_lab, name)


def serve(path: str, log: str, at_once: int, only: set[str]) -> None:
    _preload()
    assert threading.active_count() == 1, "a fork server must have no other thread"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    waiting: deque[Job] = deque()
    running: dict[int, Job] = {}  # pidfd -> job
    print("ready", flush=True)

    def start(job: Job) -> None:
        pid = os.fork()
        if pid == 0:
            # Other runs' connections, and the stdout/stderr of runs still waiting (a copy held here would keep
            # the suite waiting for their end of file).
            others = [j.connection.fileno() for j in [*running.values(), *waiting]]
            others += [fd for j in waiting for fd in j.fds]
            _child(job, [listener.fileno(), selector.fileno(), *running, *others])
        for fd in job.fds:
            os.close(fd)
        job.pid, job.pidfd = pid, os.pidfd_open(pid)
        running[job.pidfd] = job
        selector.register(job.pidfd, selectors.EVENT_READ, "exited")
        selector.register(job.connection, selectors.EVENT_READ, "gone")
        job.watched = True

    def finish(job: Job, code: int) -> None:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"scenario": job.scenario, "code": code}) + "\n")
        with contextlib.suppress(OSError):
            job.connection.sendall(json.dumps({"code": code}).encode())
        job.connection.close()

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while True:
            for key, _ in selector.select():
                if key.data == "accept":
                    connection, _ = listener.accept()
                    request, fds = _receive(connection)
                    env = request.get("env")
                    scenario = str(env.get("MCP_CONFORMANCE_SCENARIO", "")) if isinstance(env, dict) else ""
                    job = Job(connection, request, fds, scenario=scenario)
                    if only and scenario not in only:
                        os.write(fds[1], f"client_forks: {scenario!r} is not run here (not scored)\n".encode())
                        for fd in fds:
                            os.close(fd)
                        finish(job, 2)
                    else:
                        waiting.append(job)
                elif key.data == "exited":
                    job = running.pop(key.fd)
                    selector.unregister(job.pidfd)
                    if job.watched:
                        selector.unregister(job.connection)
                    _, status = os.waitpid(job.pid, 0)
                    os.close(job.pidfd)
                    finish(job, os.waitstatus_to_exitcode(status))
                elif key.data == "gone":  # the forwarder closed its end: the suite gave up on this run
                    job = next(j for j in running.values() if j.connection is key.fileobj)
                    selector.unregister(job.connection)
                    job.watched = False
                    os.kill(job.pid, signal.SIGKILL)
            while waiting and len(running) < at_once:
                start(waiting.popleft())
    finally:
        for job in running.values():
            os.kill(job.pid, signal.SIGKILL)
            os.waitpid(job.pid, 0)
        listener.close()
        os.unlink(path)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.interop.client_forks")
    parser.add_argument("socket")
    parser.add_argument("log")
    parser.add_argument("--at-once", type=int, default=4)
    parser.add_argument("--only", default="", help="comma-separated scenarios to run; others exit 2 at once")
    args = parser.parse_args()
    serve(args.socket, args.log, args.at_once, {s for s in args.only.split(",") if s})


if __name__ == "__main__":
    main()
