"""Pre-arranged answers: a tutorial with live forms still runs headless (nbval, CI, a script).

Spec context: 2026-07-28 multi round-trip requests answered by a person. Under nbval there is no person,
so a notebook says beforehand what the person would answer::

    mcp_lab.forms.prearrange(ask_region={"region": "eu-west"})          # by the question's key (bare name)
    mcp_lab.forms.prearrange({"n": 3}, mcp_lab.decline())                # or in the order forms appear
    mcp_lab.forms.prearrange(keyed={"__main__:ask_ok": {"ok": True}})    # a full resolver key
    mcp_lab.forms.unattended(ask_region={"region": "eu-west"})          # only when nobody is there (tests)

When a form is shown it consults this queue and, if an answer is there, fills and submits it through the
very `fill()` / `submit()` / `decline()` / `cancel()` the buttons use -- right after showing it, never by
waiting. The form is still rendered and validated and leaves its record; an invalid pre-arranged answer
ends the flow with one clear error instead of hanging or reaching the server.

What each kind accepts: elicitation -- a dict of fields; URL mode -- `True` or `{}` (I've finished);
sampling -- the reply text or a dict of reply / model / stop_reason; roots -- a list of file:// URIs,
Paths or dicts. `mcp_lab.decline()` / `mcp_lab.cancel()` decline or cancel any kind.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Mapping
from typing import Any

import mcp.types as T

from mcp_lab.errors import LabError
from mcp_lab.forms.base import Form
from mcp_lab.forms.board import board
from mcp_lab.json_types import JsonValue

__all__ = ["UNATTENDED", "apply", "clear_prearranged", "prearrange", "prearranged", "take", "unattended"]

UNATTENDED = "MCP_LAB_UNATTENDED"
"""Set to 1 by the README's test command (and notebooks/build.py): nobody is there to answer a form."""

_NOTHING = object()


def prearrange(*in_order: object, keyed: Mapping[str, JsonValue] | None = None, **by_name: object) -> None:
    """Queue answers for forms not shown yet: by key (or bare resolver name), or in order of appearance."""
    if keyed is not None and not isinstance(keyed, Mapping):
        raise LabError(f"keyed= is a dict of form key (or resolver name) -> answer, not {type(keyed).__name__}")
    if any(not isinstance(key, str) for key in keyed or {}):
        raise LabError("keyed= answers are keyed by form key or resolver name (a string)")
    for key, value in {**(keyed or {}), **by_name}.items():
        board.prearranged_keyed.setdefault(key, deque()).append(value)
    board.prearranged_in_order.extend(in_order)


def unattended(*in_order: object, keyed: Mapping[str, JsonValue] | None = None, **by_name: object) -> None:
    """`prearrange(...)` only when the notebook runs unattended (MCP_LAB_UNATTENDED=1).

    A tutorial says what its reader would answer, so the test suite can run it; in JupyterLab the same cell
    does nothing and the form waits for the reader, also under Run All.
    """
    if os.environ.get(UNATTENDED) == "1":
        prearrange(*in_order, keyed=keyed, **by_name)


def prearranged() -> dict[str, object]:
    """What is still queued (keyed answers and the in-order ones)."""
    return {
        "keyed": {k: list(v) for k, v in board.prearranged_keyed.items() if v},
        "in_order": list(board.prearranged_in_order),
    }


def clear_prearranged() -> None:
    board.clear_prearranged()


def take(form: Form) -> object:
    """The queued answer for this form (removed from the queue), or `_NOTHING`."""
    for name in (form.key, form.name):
        queue = board.prearranged_keyed.get(name)
        if queue:
            return queue.popleft()
    if board.prearranged_in_order:
        return board.prearranged_in_order.popleft()
    if form.context.backchannel:
        # A 2025-11-25 request names no question, only a JSON-RPC id: use the keyed answers in order,
        # as ScriptedAnswerer does.
        for queue in board.prearranged_keyed.values():
            if queue:
                return queue.popleft()
    return _NOTHING


def apply(form: Form, value: Any) -> None:
    """Fill and submit `form` with a pre-arranged answer; an unusable answer fails the form, loudly."""
    from mcp_lab.forms.elicit import ElicitForm
    from mcp_lab.forms.roots import RootsForm
    from mcp_lab.forms.sampling import SamplingForm

    if not form.open:
        return
    try:
        if isinstance(value, T.ElicitResult) and value.action in ("decline", "cancel"):
            form.decline() if value.action == "decline" else form.cancel()
            return
        if isinstance(form, ElicitForm):
            if isinstance(value, T.ElicitResult):
                value = value.content or {}
            if not isinstance(value, Mapping):
                raise LabError(f"a dict of fields, mcp_lab.decline() or mcp_lab.cancel(), not {value!r}")
            form.fill(**value)
        elif isinstance(form, SamplingForm):
            form.fill(**value) if isinstance(value, Mapping) else form.fill(reply=value)
        elif isinstance(form, RootsForm):
            form.fill(roots=value)
        elif value not in (True, {}) and not isinstance(value, T.ElicitResult):
            raise LabError(f"True (I've finished), mcp_lab.decline() or mcp_lab.cancel(), not {value!r}")
        if not form.submit():
            problems = "; ".join(f"{k or 'answer'}: {v}" for k, v in form.errors.items())
            raise LabError(problems)
    except LabError as exc:
        form.fail(LabError(f"pre-arranged answer for {form.key!r} is invalid: {exc}"))


def autofill(form: Form) -> bool:
    """Apply the queued answer for `form`, if any; True when there was one."""
    value = take(form)
    if value is _NOTHING:
        return False
    apply(form, value)
    return True
