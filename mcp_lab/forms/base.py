"""One form for one input request: the values being answered, their validation, the future it resolves, its record.

Spec: 2026-07-28 multi round-trip requests. Every key of an `InputRequiredResult`'s `input_requests` needs
an `InputResponse`; a form is how a person gives one. A form is plain data -- its fields, the values typed
so far, the errors to fix, its state -- drawn by the round's widget (`panel.py`, `widget.py`). The same calls
serve a browser (its Submit message carries every value at once) and a headless notebook or test:
`fill(field=value, ...)`, `submit()`, `decline()`, `cancel()`.

Why the future is resolved with `loop.call_soon_threadsafe` on the loop captured when the form is shown:
on ipykernel >= 7.4 a button's message is handled on the main thread while the cell awaits, but under
JupyterLab's comms-over-subshells (ipykernel 7.0-7.3) it arrives on a subshell thread, and a plain
`future.set_result` from there would not wake the kernel's loop (it sleeps in
`select` until its self-pipe is written). Nothing here blocks.
"""

from __future__ import annotations

import asyncio
import html
import threading
from collections.abc import Callable, Mapping
from typing import ClassVar, Literal, NoReturn

import mcp.types as T

from mcp_lab.bounded_json import check_text, lone_surrogate
from mcp_lab.errors import LabError
from mcp_lab.flow.answers import AnswerContext, CallbackRefused, InputResponse
from mcp_lab.json_types import JsonObject, JsonValue
from mcp_lab.listeners import Listeners
from mcp_lab.markup import MimeBundle

__all__ = ["TRUST_NOTE", "Form", "State", "bare_name"]

State = Literal["open", "accepted", "declined", "cancelled", "timed out", "abandoned", "failed"]

_MAX_INT_BITS = 4096
"""Far below Python's own limit on turning an int into text (about 14,000 bits), which the form's view does."""

UNSENDABLE = "this holds a character no message can carry (a lone surrogate): retype it"

TRUST_NOTE = "Answer only what you would tell this server: everything you send goes to {server}."

_STATE_WORDS = {
    "accepted": "answered",
    "declined": "declined",
    "cancelled": "cancelled",
    "timed out": "timed out (sent as cancel)",
    "abandoned": "abandoned (the flow stopped waiting)",
    "failed": "not sent",
}


def bare_name(key: str) -> str:
    """A resolver key `module:outer.<locals>.ask_region` -> `ask_region` (what a person recognises)."""
    return key.rsplit(":", 1)[-1].rsplit(".", 1)[-1]


class Form:
    """Base of the four forms (elicitation, URL, sampling, roots)."""

    kind: ClassVar[str] = "input"
    """How the form names itself in its record text ("elicitation", "sampling", ...)."""
    record_kind: ClassVar[str] = "elicitation"
    """The front end's kind: elicitation | url | sampling | roots."""
    button_labels: ClassVar[tuple[str, str | None, str | None]] = ("Submit", "Decline", "Cancel")

    def __init__(self, key: str, request: T.InputRequest, context: AnswerContext) -> None:
        self.key = key
        self.request = request
        self.context = context
        self.state: State = "open"
        self.errors: dict[str, str] = {}
        """One message per field that must be fixed before the answer can be sent ("" = the whole form)."""
        self.values: JsonObject = self.initial_values()
        """What each field holds now: the person's last Submit (or draft), or a headless `fill()`."""
        self.values_version = 0
        """Bumped when the kernel sets `values` (defaults, `fill()`): the front end re-applies them only then."""
        self.response: InputResponse | None = None
        self.failure: BaseException | None = None
        self.timeout: float | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._future: asyncio.Future[None] | None = None
        self._settled: Listeners[[Form]] = Listeners()
        self._changes: Listeners[[Form]] = Listeners()
        self._lock = threading.Lock()

    # ---- identity --------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The key's bare name: the resolver's own name for a resolver key."""
        return bare_name(self.key)

    @property
    def server(self) -> str:
        return self.context.server

    @property
    def open(self) -> bool:
        return self.state == "open"

    # ---- what subclasses describe ------------------------------------------------------------------------
    def initial_values(self) -> JsonObject:
        return {}

    def fields(self) -> list[JsonObject]:
        """The FieldRecords the front end draws."""
        return []

    @property
    def field_names(self) -> list[str]:
        return [str(f["name"]) for f in self.fields()]

    def intro(self) -> str:
        return ""

    def message(self) -> str:
        return str(getattr(self.request.params, "message", "") or "")

    def details(self) -> list[JsonObject]:
        return []

    def link(self) -> dict[str, str] | None:
        return None

    def notes(self) -> list[str]:
        return []

    def display_values(self) -> JsonObject:
        """`values` as the front end shows them (JSON values)."""
        return dict(self.values)

    def check(self, values: Mapping[str, JsonValue]) -> tuple[InputResponse | None, dict[str, str]]:
        """Read and validate `values`: the response to send, or one message per field to fix."""
        raise NotImplementedError

    # ---- the headless API (the browser's messages call the same methods) ---------------------------------
    def _check_open(self) -> None:
        if not self.open:
            raise LabError(f"form {self.key!r} was already {_STATE_WORDS[self.state]}; it takes no more input")

    def fill(self, **values: JsonValue) -> Form:
        """Set field values as a person would type them; nothing is validated or sent yet."""
        self._check_open()
        names = self.field_names
        unknown = [name for name in values if name not in names]
        if unknown:
            known = ", ".join(names) or "none"
            raise LabError(f"form {self.key!r} has no field {', '.join(map(repr, unknown))} (fields: {known})")
        for name, value in values.items():
            check_text(value, f"the value for {name!r}")
            if isinstance(value, int) and value.bit_length() > _MAX_INT_BITS:
                raise LabError(f"the value for {name!r} is a {value.bit_length()}-bit integer; no field shows one that long")
        self.values.update(values)
        self.values_version += 1
        self._changed()
        return self

    def submit(self, values: Mapping[str, JsonValue] | None = None) -> bool:
        """Validate and send; False (with `errors`, shown inline) if something must be fixed.

        `values` is what the browser sent with Submit: every field at once (see widget.py for why).
        """
        if not self.open:
            return False
        unsendable = self.take(values, "values are") if values is not None else {}
        response, errors = (None, unsendable) if unsendable else self.check(self.values)
        self.errors = errors
        if errors or response is None:
            self._changed()
            return False
        return self.settle("accepted", response=response)

    def decline(self) -> bool:
        return self.settle("declined")

    def cancel(self) -> bool:
        return self.settle("cancelled")

    def keep_draft(self, values: Mapping[str, JsonValue]) -> None:
        """What the person has typed so far (not sent): shown again if the page reloads.

        An error shown since the last Submit goes away as soon as the draft makes that field valid (and
        follows what is still wrong with it otherwise); a field without an error gets none from a draft --
        the person is still typing.
        """
        if not self.open:
            return
        unsendable = self.take(values, "a draft is")
        if self.errors or unsendable:
            _response, now = self.check(self.values)
            still = {field: now[field] for field in self.errors if field in now}
            still.update(unsendable)  # text no message can carry: said at once, never stored
            if still != self.errors:
                self.errors = still
                self._changed()

    def take(self, values: Mapping[str, JsonValue], what: str) -> dict[str, str]:
        """Keep the values a front end sent for this form's fields -- except text no message (nor the widget's
        own update) can carry, a lone surrogate pasted in a browser: those fields keep their value and get
        an inline message, returned."""
        if not isinstance(values, Mapping):
            raise LabError(f"form {self.key!r}: {what} a dict of field name -> value, not {type(values).__name__}")
        names = set(self.field_names)
        given = {k: v for k, v in values.items() if k in names}
        unsendable = {k: UNSENDABLE for k, v in given.items() if lone_surrogate(v) is not None}
        self.values.update({k: v for k, v in given.items() if k not in unsendable})
        return unsendable

    # ---- settling --------------------------------------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> asyncio.Future[None]:
        """The future the answerer awaits; settled on `loop`, whatever thread the click came from."""
        self._loop = loop
        self._future = loop.create_future()
        if not self.open:
            self._future.set_result(None)
        return self._future

    def on_settled(self, listener: Callable[[Form], object]) -> Callable[[], None]:
        """Call `listener(form)` once the form has settled; returns the unsubscriber."""
        return self._settled.add(listener)

    def on_change(self, listener: Callable[[Form], object]) -> Callable[[], None]:
        """Call `listener(form)` when values, errors or state change (the round's widget redraws); returns
        the unsubscriber."""
        return self._changes.add(listener)

    def _changed(self) -> None:
        self._changes.notify(self)

    def settle(
        self, state: State, *, response: InputResponse | None = None, failure: BaseException | None = None
    ) -> bool:
        """End this form in `state` (once: later calls return False); the panel settles a round's forms
        together after checking them all."""
        with self._lock:
            if self.state != "open":
                return False
            self.state, self.response, self.failure = state, response, failure
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._resolve)
        else:
            self._resolve()
        return True

    def _resolve(self) -> None:
        if self._future is not None and not self._future.done():
            self._future.set_result(None)
        self._changed()
        self._settled.notify(self)

    def expire(self) -> bool:
        return self.settle("timed out")

    def abandon(self) -> bool:
        return self.settle("abandoned")

    def fail(self, error: BaseException) -> bool:
        return self.settle("failed", failure=error)

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
        """A stable one-line text: kind, resolver name, server, and what was answered."""
        head = f"{self.kind} form {self.name!r} from {self.server!r}"
        if self.open:
            return f"{head}: waiting for an answer"
        detail = self.answer_text() if self.state == "accepted" else ""
        reason = f" ({self.failure})" if self.state == "failed" and self.failure is not None else ""
        return f"{head}: {_STATE_WORDS[self.state]}{reason}" + (f" {detail}" if detail else "")

    def record(self) -> JsonObject:
        """The FormRecord the front end draws (labextension/src/forms/types.ts)."""
        submit, decline, cancel = self.button_labels
        return {
            "key": self.key,
            "name": self.name,
            "kind": self.record_kind,
            "state": self.state,
            "summary": self.summary(),
            "server": self.server,
            "trust": TRUST_NOTE.format(server=repr(self.server)),
            "intro": self.intro(),
            "message": self.message(),
            "details": self.details(),
            "link": self.link(),
            "notes": self.notes(),
            "fields": self.fields(),
            "buttons": {"submit": submit, "decline": decline, "cancel": cancel},
            "errors": dict(self.errors),
            "values": self.display_values(),
            "values_version": self.values_version,
        }

    def record_html(self) -> str:
        mark = "&#10003;" if self.state == "accepted" else ("&#8230;" if self.open else "&#10007;")
        return f"<div class='mcp-lab-form-record'>{mark} {html.escape(self.summary())}</div>"

    def __repr__(self) -> str:
        return f"<{self.summary()}>"

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        return {"text/plain": self.summary(), "text/html": self.record_html()}
