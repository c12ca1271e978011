"""What a flow's last leg says of how it ended: its result, the error that ended it, and its text.

Spec context: a leg ends in a final result, an `InputRequiredResult` or a JSON-RPC error; a tool's own
failure is a final result with `isError: true`. A `Flow` reads its `result`, `error` and `text` from its last
leg here.
"""

from __future__ import annotations

import mcp.types as T

from mcp_lab.flow.leg_data import LegError
from mcp_lab.flow.round import Round
from mcp_lab.protocol.results import result_texts

__all__ = ["final_error", "final_result", "final_text"]

_RESULT_MODELS = {"tools/call": T.CallToolResult, "prompts/get": T.GetPromptResult, "resources/read": T.ReadResourceResult}


def final_result(method: str, last: Round | None) -> T.CallToolResult | T.GetPromptResult | T.ReadResourceResult | None:
    """The final result of a `method` flow whose last leg is `last`, as an SDK model (None: none came)."""
    if last is None or last.outcome != "result" or last.result is None:
        return None
    return _RESULT_MODELS[method].model_validate(last.result)  # type: ignore[attr-defined, no-any-return]


def final_error(last: Round | None) -> LegError | None:
    """The error that ended the flow whose last leg is `last`: a JSON-RPC error, or a tool's own result."""
    if last is not None and last.outcome == "result" and (last.result or {}).get("isError"):
        error: LegError = {"code": None, "message": final_text(last) or "the tool reported an error", "where": "tool"}
        if last.server_log:
            error["reason"] = last.server_log[-1]
        return error
    return last.error if last is not None and last.outcome == "error" else None


def final_text(last: Round | None) -> str:
    """The text parts of the final result, joined; for a flow that ended in an error instead (the server's,
    or a refusal in the client such as Reject), that error in one line."""
    if last is not None and last.outcome == "error" and (error := last.error) is not None:
        if error.get("where") == "client":
            return f"refused in the client, not sent: {error.get('message', '')}"
        code = f"{error['code']} " if error.get("code") is not None else ""
        logged = f" — server logged: {error['reason']}" if error.get("reason") else ""
        return f"error: {code}{error.get('message', '')}{logged}"
    data = last.result if last is not None and last.outcome == "result" else None
    return "\n".join(result_texts(data))
