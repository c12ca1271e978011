"""The lab's own error types: one clear, short message each, never a traceback from our internals.

`LabError` is an IPython `UsageError`, so whether it comes from a magic or from `await mcp_lab.call(...)`,
the notebook shows it as one line, without a traceback through mcp_lab's internals.
"""

from __future__ import annotations

from IPython.core.error import UsageError

__all__ = ["ConnectionFailed", "FlowError", "FlowInterrupted", "LabError"]


class LabError(UsageError):
    """Bad input to the lab (unknown server, malformed arguments, ...): the message says what to fix."""

    def _render_traceback_(self) -> list[str]:
        # IPython shows only `UsageError` itself without a traceback; subclasses get one line this way.
        return [f"{type(self).__name__}: {self}"]


class ConnectionFailed(LabError):
    """The server could not be reached (not serving, refused, disconnected): a leg that meets it is retryable."""


class FlowError(LabError):
    """A flow ended without a result (the server's error, a round cap, a time limit, a refused answer)."""


class FlowInterrupted(FlowError):
    """The person ended a waiting flow (Interrupt, or its Stop button); the flow itself is kept, resumable."""

    def __init__(self, flow: object, message: str) -> None:
        super().__init__(message)
        self.flow = flow

    def _render_traceback_(self) -> list[str]:
        return [str(self)]
