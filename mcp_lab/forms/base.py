"""One live form for one input request: its widgets, the future it resolves, its headless API, its record.

Spec: 2026-07-28 multi round-trip requests. Every key of an `InputRequiredResult`'s `input_requests` needs
an `InputResponse`; a form is how a person gives one. The same four calls serve a browser (the buttons
call them) and a headless notebook or test: `fill(field=value, ...)`, `submit()`, `decline()`, `cancel()`.

Why the future is resolved with `loop.call_soon_threadsafe` on the loop captured when the form is shown:
on ipykernel >= 7.4 a button click is handled on the main thread while the cell awaits, but under
JupyterLab's comms-over-subshells (ipykernel 7.0-7.3) it arrives on a subshell thread, and a plain
`future.set_result` from there would not wake the kernel's loop (jupyter-notes §4). Nothing here blocks.

Once answered, the form's children are replaced by an HTML record of the answer, and its `text/plain` is a
stable one-line summary, so a saved or nbval-checked notebook shows what was answered.
"""

from __future__ import annotations

import asyncio
import html
import threading
from collections.abc import Callable
from typing import Any, ClassVar, Literal, NoReturn

import mcp.types as T

from mcp_lab.answers import AnswerContext, CallbackRefused, InputResponse
from mcp_lab.errors import LabError

__all__ = ["TRUST_NOTE", "Form", "State"]

State = Literal["open", "accepted", "declined", "cancelled", "timed out", "abandoned", "failed"]

TRUST_NOTE = "Answer only what you would tell this server: everything you send goes to {server}."

_STATE_WORDS = {
    "accepted": "answered",
    "declined": "declined",
    "cancelled": "cancelled",
    "timed out": "timed out (sent as cancel)",
    "abandoned": "abandoned (the cell stopped waiting)",
    "failed": "not sent",
}


class Form:
    """Base of the four forms (elicitation, URL, sampling, roots)."""

    kind: ClassVar[str] = "input"
    button_labels: ClassVar[tuple[str, str, str]] = ("Submit", "Decline", "Cancel")

    def __init__(self, key: str, request: T.InputRequest, context: AnswerContext) -> None:
        self.key = key
        self.request = request
        self.context = context
        self.state: State = "open"
        self.errors: dict[str, str] = {}
        """One message per field that must be fixed before the answer can be sent."""
        self.response: InputResponse | None = None
        self.failure: BaseException | None = None
        self.timeout: float | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._future: asyncio.Future[None] | None = None
        self._listeners: list[Callable[[Form], None]] = []
        self._lock = threading.Lock()
        self._widget: Any = None
        self._status: Any = None

    # ---- identity --------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The key's bare name (a resolver key `module:qualname` -> `qualname`)."""
        return self.key.rsplit(":", 1)[-1]

    @property
    def server(self) -> str:
        return self.context.server

    @property
    def open(self) -> bool:
        return self.state == "open"

    # ---- widgets ---------------------------------------------------------------------------------------
    @property
    def widget(self) -> Any:
        """The form as an ipywidgets VBox (built on first use)."""
        if self._widget is None:
            import ipywidgets as W

            self._status = W.HTML("")
            buttons = self._buttons()
            self._widget = W.VBox(
                [W.HTML(self.header_html()), *self._build(), W.HBox(buttons), self._status],
                layout=W.Layout(border="1px solid #ccc", padding="6px", margin="4px 0"),
            )
            if not self.open:
                self._render_record()
        return self._widget

    def _buttons(self) -> list[Any]:
        import ipywidgets as W

        actions = (self.submit, self.decline, self.cancel)
        styles = ("primary", "", "")
        buttons = []
        for label, action, style in zip(self.button_labels, actions, styles, strict=True):
            if not label:
                continue
            button = W.Button(description=label, button_style=style)
            button.on_click(lambda _b, act=action: act())
            buttons.append(button)
        return buttons

    def header_html(self) -> str:
        server = html.escape(self.server)
        note = html.escape(TRUST_NOTE.format(server=repr(self.server)))
        return (
            f"<div><b>{server}</b> asks ({html.escape(self.kind)}, <code>{html.escape(self.key)}</code>):"
            f"<div style='margin:4px 0'>{self.message_html()}</div>"
            f"<small style='opacity:.75'>&#9888; {note}</small></div>"
        )

    def message_html(self) -> str:
        return html.escape(str(getattr(self.request.params, "message", "") or ""))

    def _build(self) -> list[Any]:
        return []

    # ---- the headless API (the buttons call the same methods) --------------------------------------------
    def _check_open(self) -> None:
        if not self.open:
            raise LabError(f"form {self.key!r} was already {_STATE_WORDS[self.state]}; it takes no more input")

    def fill(self, **values: Any) -> Form:
        """Set field values as a person would type them; nothing is validated or sent yet."""
        self._check_open()
        if values:
            raise LabError(f"this {self.kind} form has no fields to fill ({', '.join(values)})")
        return self

    def submit(self) -> bool:
        """Validate and send; False (with `errors` and inline messages) if something must be fixed."""
        if not self.open:
            return False
        self.widget  # noqa: B018 -- the fields live in the widgets, even headless
        response, errors = self._collect()
        self.errors = errors
        self._show_errors(errors)
        if errors or response is None:
            return False
        return self._settle("accepted", response=response)

    def decline(self) -> bool:
        return self._settle("declined")

    def cancel(self) -> bool:
        return self._settle("cancelled")

    def _collect(self) -> tuple[InputResponse | None, dict[str, str]]:
        raise NotImplementedError

    def _show_errors(self, errors: dict[str, str]) -> None:
        if self._status is not None:
            count = len(errors)
            text = f"{count} field{'s' if count != 1 else ''} to fix before sending" if count else ""
            self._status.value = f"<span style='color:#b00'>{text}</span>" if text else ""

    # ---- settling --------------------------------------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> asyncio.Future[None]:
        """The future the answerer awaits; settled on `loop`, whatever thread the click came from."""
        self._loop = loop
        self._future = loop.create_future()
        if not self.open:
            self._future.set_result(None)
        return self._future

    def on_settled(self, listener: Callable[[Form], None]) -> None:
        self._listeners.append(listener)

    def _settle(
        self, state: State, *, response: InputResponse | None = None, failure: BaseException | None = None
    ) -> bool:
        with self._lock:
            if self.state != "open":
                return False
            self.state, self.response, self.failure = state, response, failure
        self._render_record()
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._resolve)
        else:
            self._resolve()
        return True

    def _resolve(self) -> None:
        if self._future is not None and not self._future.done():
            self._future.set_result(None)
        for listener in list(self._listeners):
            listener(self)

    def expire(self) -> bool:
        return self._settle("timed out")

    def abandon(self) -> bool:
        return self._settle("abandoned")

    def fail(self, error: BaseException) -> bool:
        return self._settle("failed", failure=error)

    def outcome(self) -> InputResponse:
        """The InputResponse to send, or the refusal the flow records (never while open)."""
        if self.state == "accepted" and self.response is not None:
            return self.response
        if self.state == "failed":
            raise self.failure if self.failure is not None else LabError(f"form {self.key!r} failed")
        if self.state == "open":
            raise LabError(f"form {self.key!r} has not been answered yet")
        return self._refusal()

    def _refusal(self) -> InputResponse:
        """Decline / cancel / time-out as this kind of request expresses it."""
        if self.state == "declined":
            return T.ElicitResult(action="decline")
        return T.ElicitResult(action="cancel")

    def _refuse(self, message: str) -> NoReturn:
        raise CallbackRefused(self.key, T.ErrorData(code=-1, message=message))

    # ---- the record ------------------------------------------------------------------------------------
    def answer_text(self) -> str:
        """What was sent, in a few words (subclasses describe their content)."""
        return ""

    def summary(self) -> str:
        """A stable one-line text: kind, key, server, and what was answered."""
        head = f"{self.kind} form {self.key!r} from {self.server!r}"
        if self.open:
            return f"{head}: waiting for an answer"
        detail = self.answer_text() if self.state == "accepted" else ""
        reason = f" ({self.failure})" if self.state == "failed" and self.failure is not None else ""
        return f"{head}: {_STATE_WORDS[self.state]}{reason}" + (f" {detail}" if detail else "")

    def record_html(self) -> str:
        mark = "&#10003;" if self.state == "accepted" else "&#10007;"
        return f"<div style='border-left:3px solid #999;padding-left:6px'>{mark} {html.escape(self.summary())}</div>"

    def _render_record(self) -> None:
        if self._widget is not None:
            import ipywidgets as W

            self._widget.children = (W.HTML(self.record_html()),)

    def __repr__(self) -> str:
        return f"<{self.summary()}>"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle: dict[str, Any] = dict(self.widget._repr_mimebundle_())
        bundle["text/plain"] = self.summary()
        bundle["text/html"] = self.record_html()
        return bundle
