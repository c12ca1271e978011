"""`FormAnswerer`: a person answers each input request in a live form while the cell waits.

Spec: 2026-07-28 multi round-trip requests -- the flow engine hands every `input_requests` key to an
`Answerer`; this one shows a form per key (elicitation form or URL mode, sampling, roots), one panel per
round, and returns what the person sent. `%load_ext mcp_lab` registers it as the flows' fallback, after
any scripted answers, in a kernel only: a plain script has no one to ask and stops with "no answer for".

Waiting. On ipykernel >= 7.4 widget messages are dispatched while an
async cell awaits, so `flow = await mcp_lab.call(...)` simply awaits the form's future ("live" mode). A
kernel that cannot do that (ipykernel < 7.4 with no comm subshells in use) would deadlock, so there the
answerer switches to "deferred" mode, announced in one line: the flow stops, the cell returns, and when the
person has answered every form of the round the flow continues as a task whose output goes through an
`Output` widget's `append_*` (output printed by a task after its cell ended would be lost). Force a mode
with `MCP_LAB_FORMS_MODE=live|deferred` (or `mcp_lab.forms.board.board.force_mode`); an optional timeout
(`FormAnswerer(timeout=...)` or `MCP_LAB_FORMS_TIMEOUT`) ends an unanswered wait as a cancel.

A tool whose question lands here::

    @mcp.tool()
    async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str: ...

    flow = await mcp_lab.call("demo", "book", {"city": "Oslo"})   # the form appears; the cell waits
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Protocol

import mcp.types as T

from mcp_lab.background import background
from mcp_lab.flow.answers import AnswerContext, InputResponse, Unanswered
from mcp_lab.forms.board import board

if TYPE_CHECKING:  # imported when the first form is shown: `%load_ext` only creates the answerer
    from mcp_lab.flow.flow import Flow
    from mcp_lab.forms.base import Form
    from mcp_lab.forms.panel import Panel

__all__ = ["FormAnswerer", "current", "detect_mode", "last", "make_form", "recent"]

DEFERRED_NOTICE = (
    "This kernel cannot deliver widget events while a cell waits (ipykernel < 7.4): "
    "the cell returns now and the flow continues when you answer."
)


class _Sink(Protocol):
    """Where a deferred flow's output goes once its cell has ended: an `ipywidgets.Output` (its `append_*`)."""

    def append_stdout(self, text: str) -> None: ...

    def append_display_data(self, display_object: object) -> None: ...


def current() -> Panel | None:
    """The most recently shown round of forms (drive it headless: `current().fill(...).submit()`)."""
    panel: Panel | None = board.recent_panels[-1] if board.recent_panels else None
    return panel


def last() -> Form | None:
    """The most recently shown form."""
    form: Form | None = board.last_form
    return form


def recent() -> list[Panel]:
    """The rounds of forms shown in this kernel, oldest first (at most 50)."""
    return list(board.recent_panels)


def _kernel() -> object:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is a dependency
        return None
    return getattr(get_ipython(), "kernel", None)


def _version(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


def detect_mode() -> str:
    """`live` when a widget click can reach a waiting cell, else `deferred`."""
    forced = board.force_mode or os.environ.get("MCP_LAB_FORMS_MODE")
    if forced in ("live", "deferred"):
        return forced
    kernel = _kernel()
    if kernel is None:
        return "live"  # no kernel: nobody clicks; tests and scripts drive forms themselves
    import ipykernel

    if _version(str(getattr(ipykernel, "__version__", "0"))) >= (7, 4):
        return "live"
    # ipykernel 7.0-7.3: JupyterLab >= 4.4 routes widget comms to subshells, which the loop-safe
    # resolution handles; seeing a subshell is the sign the frontend does that.
    manager = getattr(getattr(kernel, "shell_channel_thread", None), "manager", None)
    try:
        if manager is not None and manager.list_subshell():
            return "live"
    except Exception:
        pass
    return "deferred"


def make_form(key: str, request: T.InputRequest, context: AnswerContext) -> Form:
    """The form for one input request, by kind."""
    if isinstance(request, T.ElicitRequest):
        if isinstance(request.params, T.ElicitRequestURLParams):
            from mcp_lab.forms.url import UrlForm

            return UrlForm(key, request, context)
        from mcp_lab.forms.elicit import ElicitForm

        return ElicitForm(key, request, context)
    if isinstance(request, T.CreateMessageRequest):
        from mcp_lab.forms.sampling import SamplingForm

        return SamplingForm(key, request, context)
    from mcp_lab.forms.roots import RootsForm

    return RootsForm(key, request, context)


def _shell_ready() -> bool:
    from IPython.core.interactiveshell import InteractiveShell

    return bool(InteractiveShell.initialized())


def _env_timeout() -> float | None:
    raw = os.environ.get("MCP_LAB_FORMS_TIMEOUT")
    try:
        return float(raw) if raw else None
    except ValueError:
        return None


class FormAnswerer:
    """Answers input requests through live ipywidgets forms (a person, or a `model=` for sampling)."""

    label = "form"

    def __init__(self, *, timeout: float | None = None, model: object = None, mode: str | None = None) -> None:
        self.timeout = timeout if timeout is not None else _env_timeout()
        """Seconds to wait for a person; then the form ends as a cancel. None waits as long as it takes."""
        self.model = model
        """A callable answering sampling requests instead of a person (e.g. `echo_model`)."""
        self.mode = mode
        """`live` / `deferred`, or None to detect per question."""
        self._panels: dict[tuple[str, int], Panel] = {}
        self._deferred: dict[tuple[str, int, str], Form] = {}
        self._sinks: dict[str, _Sink] = {}

    def __repr__(self) -> str:
        return f"FormAnswerer(timeout={self.timeout}, model={getattr(self.model, '__name__', self.model)})"

    async def answer(self, key: str, request: T.InputRequest, context: AnswerContext) -> InputResponse:
        if self.model is not None and isinstance(request, T.CreateMessageRequest):
            from mcp_lab.forms.sampling import model_reply

            return await model_reply(self.model, request.params)
        flow = context.flow
        if (self.mode or detect_mode()) == "deferred" and flow is not None:
            return self._answer_later(key, request, context, flow)
        loop = asyncio.get_running_loop()
        form = make_form(key, request, context)
        form.timeout = self.timeout
        future = form.attach(loop)
        self._show(form, context, sink=None)
        try:
            await asyncio.wait_for(asyncio.shield(future), self.timeout)
        except TimeoutError:
            form.expire()
        except asyncio.CancelledError:
            form.abandon()  # Interrupt or Stop: the form becomes a record saying so
            raise
        return form.outcome()

    # ---- showing -----------------------------------------------------------------------------------------
    def _show(self, form: Form, context: AnswerContext, sink: _Sink | None) -> Panel:
        flow = context.flow
        owner = flow.id if flow is not None else f"{context.server}|{context.method}|{context.target}"
        slot = (owner, context.round_index)
        panel = self._panels.get(slot)
        fresh = panel is None or panel.settled
        if fresh:
            self._panels = {k: p for k, p in self._panels.items() if not p.settled}
            from mcp_lab.forms.panel import Panel

            panel = Panel(context.server, context.round_index, flow)
            self._panels[slot] = panel
            board.recent_panels.append(panel)
        assert panel is not None
        panel.add(form)
        board.last_form = form
        loop = asyncio.get_running_loop()
        if fresh:
            panel.bind_loop(loop)
            # Shown on the next turn of the loop, once every question of the round has joined the panel
            # (the flow starts all their answers together), so one panel holds the round.
            loop.call_soon(self._reveal, panel, sink)
        elif panel.revealed:
            loop.call_soon(_autofill, form)
        return panel

    def _reveal(self, panel: Panel, sink: _Sink | None) -> None:
        panel.revealed = True
        for form in panel.forms:
            _autofill(form)  # pre-arranged answers first: a headless notebook then shows only the record
        board.round_shown.notify(panel)
        if not _shell_ready():
            return
        from IPython.display import display

        if not panel.settled:
            board.round_opened(panel)  # the side panel lists it, also after a page reload
        if sink is None:  # a bare `%mcp_call` whose cell has ended: its live area reaches the page
            from mcp_lab.flow.live import LIVE_AREA

            area = LIVE_AREA.get()
            sink = area.forms if area is not None else None
        if sink is not None:
            sink.append_display_data(panel)
        else:
            panel.shown_text = panel.summary()
            panel.handle = display(panel, display_id=True)

    # ---- deferred mode -------------------------------------------------------------------------------------
    def _sink(self, flow: Flow) -> _Sink:
        sink = self._sinks.get(flow.id)
        if sink is None:
            import ipywidgets as W

            sink = W.Output()
            self._sinks[flow.id] = sink
            sink.append_stdout(DEFERRED_NOTICE + "\n")
            if _shell_ready():
                from IPython.display import display

                display(sink)
        return sink

    def _answer_later(self, key: str, request: T.InputRequest, context: AnswerContext, flow: Flow) -> InputResponse:
        slot = (flow.id, context.round_index, key)
        form = self._deferred.get(slot)
        if form is not None:
            if form.open:
                raise Unanswered(key)
            del self._deferred[slot]
            return form.outcome()
        loop = asyncio.get_running_loop()
        form = make_form(key, request, context)
        form.timeout = self.timeout
        form.attach(loop)
        self._deferred[slot] = form
        sink = self._sink(flow)
        panel = self._show(form, context, sink)
        panel.notice = DEFERRED_NOTICE
        form.on_settled(lambda _form: self._resume_when_ready(flow, panel, sink))
        if self.timeout is not None:
            loop.call_later(self.timeout, form.expire)
        raise Unanswered(key)

    def _resume_when_ready(self, flow: Flow, panel: Panel, sink: _Sink) -> None:
        """Once every form of the round is answered and the flow has stopped, continue it as a task."""
        if not panel.settled:
            return
        started = [False]

        def start(_flow: Flow | None = None) -> None:
            idle = flow.status == "input_required" and flow.stop_reason is not None
            if started[0] or not idle or flow.last is None or flow.last.index != panel.round_index:
                return
            started[0] = True
            background.keep(asyncio.get_running_loop().create_task(self._continue(flow, sink)))

        start()
        if not started[0] and not flow.done:
            flow.on_round(start)  # the cell's own run has not stopped yet: start when it does

    async def _continue(self, flow: Flow, sink: _Sink) -> None:
        from mcp_lab.flow import calls as api

        try:
            await api.run_flow(flow, None)
        except Exception as exc:  # one line in the notebook, never a traceback from a background task
            sink.append_stdout(f"flow {flow.id} could not continue: {type(exc).__name__}: {exc}\n")
            return
        if flow.done or flow.status == "stopped":
            self._sinks.pop(flow.id, None)
            if _shell_ready():
                sink.append_display_data(flow)
            else:
                sink.append_stdout(flow.summary() + "\n")


def _autofill(form: Form) -> None:
    """Consult the pre-arranged answers once per form."""
    if getattr(form, "_autofilled", False):
        return
    form._autofilled = True  # type: ignore[attr-defined]
    from mcp_lab.forms.autofill import autofill

    autofill(form)
