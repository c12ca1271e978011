"""Live forms that let a person answer input requests while the cell awaits.

Spec: 2026-07-28 multi round-trip requests. When a flow meets an `InputRequiredResult` that no scripted
answer covers, each input request becomes a form: an elicitation (form mode: `requested_schema` as fields;
URL mode: a link and "I've finished"), a sampling request (the person writes the assistant's reply) or a
roots request (a roots editor). `%load_ext mcp_lab` registers `FormAnswerer` as the flows' fallback in a
kernel; `install()` / `uninstall()` do it by hand.

Headless (tests, nbval): `prearrange(...)` answers forms as they appear, through the same `fill()` /
`submit()` / `decline()` / `cancel()` the buttons call; `unattended(...)` does so only when the notebook runs
unattended (the test command sets MCP_LAB_UNATTENDED=1), so a tutorial asks its reader in JupyterLab;
`current()` and `last()` return the forms shown last, so a cell can drive them.

Importing this package is cheap: ipywidgets and jsonschema are imported when a form is first shown.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from mcp_lab.forms.answerer import FormAnswerer

if TYPE_CHECKING:
    from mcp_lab.forms.answerer import current, detect_mode, last, make_form, recent
    from mcp_lab.forms.autofill import clear_prearranged, prearrange, prearranged, unattended
    from mcp_lab.forms.base import Form
    from mcp_lab.forms.panel import Panel
    from mcp_lab.forms.sampling import echo_model

# `%load_ext` needs only `install()` and FormAnswerer; the rest is imported on first use (PEP 562).
_SOURCES = {
    "Form": "base",
    "Panel": "panel",
    "clear_prearranged": "autofill",
    "current": "answerer",
    "detect_mode": "answerer",
    "echo_model": "sampling",
    "last": "answerer",
    "make_form": "answerer",
    "prearrange": "autofill",
    "prearranged": "autofill",
    "recent": "answerer",
    "unattended": "autofill",
}

__all__ = [
    "Form",
    "FormAnswerer",
    "Panel",
    "clear_prearranged",
    "current",
    "detect_mode",
    "echo_model",
    "install",
    "installed",
    "last",
    "make_form",
    "prearrange",
    "prearranged",
    "recent",
    "unattended",
    "uninstall",
]


if not TYPE_CHECKING:  # type checkers see the imports above

    def __getattr__(name: str) -> Any:
        source = _SOURCES.get(name)
        if source is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{__name__}.{source}"), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def installed() -> FormAnswerer | None:
    """The FormAnswerer registered as the flows' fallback, if any."""
    from mcp_lab.flow.history import history

    for answerer in history.fallback_answerers:
        if isinstance(answerer, FormAnswerer):
            return answerer
    return None


def install(
    ipython: object = None, *, timeout: float | None = None, model: object = None, mode: str | None = None
) -> FormAnswerer | None:
    """Register a FormAnswerer as the fallback -- only where a kernel (a frontend to click) exists.

    In a plain script or a terminal IPython there is nobody to show a form to, so nothing is registered
    and a flow stops with "no answer for ..." instead of hanging. The options are `FormAnswerer`'s.
    """
    from mcp_lab.flow.history import history

    if ipython is None:
        from IPython import get_ipython

        ipython = get_ipython()
    kernel = getattr(ipython, "kernel", None)
    if kernel is None:
        return None
    from mcp_lab.forms.waiting import register

    register(kernel)  # the side panel finds waiting questions, also after a page reload
    existing = installed()
    if existing is not None:
        return existing
    answerer = FormAnswerer(timeout=timeout, model=model, mode=mode)
    history.fallback_answerers.append(answerer)
    return answerer


def uninstall(ipython: object = None) -> None:
    """Remove the form fallback (flows then stop with "no answer for ...") and the side panel's comm target."""
    from mcp_lab.flow.history import history

    history.fallback_answerers[:] = [a for a in history.fallback_answerers if not isinstance(a, FormAnswerer)]
    if ipython is None:
        from IPython import get_ipython

        ipython = get_ipython()
    kernel = getattr(ipython, "kernel", None)
    if kernel is not None:
        from mcp_lab.forms.waiting import unregister

        unregister(kernel)
