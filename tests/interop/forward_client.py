"""The client command the conformance suite runs when tests/interop/client_forks.py serves the client.

Run as `python -S -I tests/interop/forward_client.py SOCKET URL` (standard library only, no site: it costs
milliseconds, not the SDK's imports): it hands its arguments, its environment (the scenario's name and
context) and its own stdout and stderr to the fork server at SOCKET, waits, and exits with the code the
forked client exited with -- to the suite it is the client's process. Killed, it closes the socket and the
server kills the run.
"""

import json
import os
import socket
import sys


def main() -> int:
    path, argv = sys.argv[1], sys.argv[2:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(path)
        request = json.dumps({"argv": argv, "env": dict(os.environ)}).encode()
        socket.send_fds(connection, [request], [1, 2])
        answer = b""
        while chunk := connection.recv(4096):
            answer += chunk
    if not answer:
        print("forward_client: the fork server closed without an exit code", file=sys.stderr)
        return 1
    code = int(json.loads(answer.decode())["code"])
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main())
