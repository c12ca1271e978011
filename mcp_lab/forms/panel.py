"""One panel per round: every question a server asked in one InputRequiredResult, shown and answered together.

Spec: 2026-07-28 multi round-trip requests. Independent questions arrive together in one
`InputRequiredResult` (the SDK batches independent resolvers) and all their answers travel together in
the next request's `input_responses`, so the lab shows them as one panel and the round is sent once every
form in it is answered. "Submit all" submits each open form, and only if every one of them is valid.

While the round waits it is one live widget (`widget.py`) and is listed on the forms' board (board.py), where the
JupyterLab side panel finds it after a page reload (`waiting.py`). Once every form is settled, the display
is replaced by a static record -- text/plain and HTML, no widget model -- so a saved notebook reopened
without its kernel shows what was answered, never "model not found".
"""

from __future__ import annotations

import asyncio
import html
import threading
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from mcp_lab.errors import LabError
from mcp_lab.flow.history import history
from mcp_lab.forms.base import Form
from mcp_lab.json_types import JsonObject, JsonValue
from mcp_lab.listeners import Listeners
from mcp_lab.markup import WIDGET_VIEW_MIME, MimeBundle, widget_view

if TYPE_CHECKING:
    from IPython.display import DisplayHandle

    from mcp_lab.forms.widget import RoundWidget

__all__ = ["ROUND_MIME", "Panel"]

ROUND_MIME = "application/vnd.mcp-lab.round+json"
"""The round record in a live form's output (read by the labextension when the widget's model is gone)."""


class Panel:
    """The forms of one round of one flow."""

    def __init__(self, server: str, round_index: int, flow: object = None) -> None:
        self.server = server
        self.round_index = round_index
        self.flow = flow
        self.forms: list[Form] = []
        self.notice: str | None = None
        """A one-line notice shown above the forms (e.g. that the cell will not wait)."""
        self.handle: DisplayHandle | None = None
        """The IPython DisplayHandle, when the panel was displayed in a cell."""
        self.shown_text: str | None = None
        """The text/plain the display carries now (updated only when the record says something new)."""
        self.revealed = False
        self.changed: Listeners[[Panel]] = Listeners()
        """Told when a form of the round changes or settles (the forms' board relays it to the side panel)."""
        self._widget: RoundWidget | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None

    # ---- building --------------------------------------------------------------------------------------
    def add(self, form: Form) -> Form:
        self.forms.append(form)
        form.on_settled(self._settled)
        form.on_change(lambda _form: self.refresh())
        self.refresh()
        return form

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """The kernel's loop: messages from another thread (comm subshells) are handled there."""
        self._loop, self._thread = loop, threading.get_ident()

    @property
    def widget(self) -> RoundWidget:
        """The live widget (built on first use)."""
        if self._widget is None:
            from mcp_lab.forms.widget import RoundWidget

            self._widget = RoundWidget(round=self.record())
            self._widget.on_msg(lambda _w, content, _buffers: self.receive(content))
        return self._widget

    def refresh(self) -> None:
        if self._widget is not None:
            self._widget.round = self.record()
        self.changed.notify(self)

    # ---- the record ------------------------------------------------------------------------------------
    @property
    def flow_id(self) -> str | None:
        return getattr(self.flow, "id", None)

    def record(self) -> JsonObject:
        """The RoundRecord the front end draws (labextension/src/forms/types.ts)."""
        flow = self.flow
        return {
            "version": 1,
            "flow": {
                "id": self.flow_id or "",
                "server": self.server,
                "method": getattr(flow, "method", ""),
                "target": getattr(flow, "target", ""),
            },
            "round": self.round_index + 1,
            "state": "settled" if self.settled else "open",
            "notice": self.notice,
            "stoppable": self.flow_id is not None and self.flow_id in history.running,
            "forms": [form.record() for form in self.forms],
        }

    # ---- messages from the front end (the widget, or the side panel) --------------------------------------
    def receive(self, content: object) -> None:
        """One message from a front end; handled on the kernel's loop, whatever thread it arrived on."""
        loop = self._loop
        if loop is not None and threading.get_ident() != self._thread and not loop.is_closed():
            loop.call_soon_threadsafe(self.handle_event, content)
        else:
            self.handle_event(content)

    def handle_event(self, content: object) -> None:
        if not isinstance(content, Mapping):
            return
        event, key = content.get("event"), content.get("key")
        values = content.get("values")
        try:
            if event == "submit_all":
                self.submit_all(values if isinstance(values, Mapping) else None)
            elif event == "stop":
                from mcp_lab.flow.interrupts import stop

                if self.flow_id is not None:
                    stop(self.flow_id, "stopped (Stop flow pressed)")
            elif isinstance(key, str) and event in ("submit", "decline", "cancel", "draft"):
                form = self[key]
                if event == "submit":
                    form.submit(values if isinstance(values, Mapping) else None)
                elif event == "draft" and isinstance(values, Mapping):
                    form.keep_draft(values)
                elif event == "decline":
                    form.decline()
                elif event == "cancel":
                    form.cancel()
        except LabError:
            pass  # a message about a form that is gone (an old page): nothing to do

    def _settled(self, form: Form) -> None:
        self.refresh()  # the board takes a settled round off the waiting list
        if not self.settled:
            return
        if self.handle is not None and self.shown_text != self.summary():
            self.shown_text = self.summary()
            self.handle.update(self)  # the live widget becomes a static record in the notebook

    @property
    def settled(self) -> bool:
        return bool(self.forms) and not any(f.open for f in self.forms)

    # ---- the headless API --------------------------------------------------------------------------------
    def __getitem__(self, which: int | str) -> Form:
        if isinstance(which, int) and not isinstance(which, bool):
            if not -len(self.forms) <= which < len(self.forms):
                raise LabError(f"no form {which} in this round: it has {len(self.forms)} (0 to {len(self.forms) - 1})")
            return self.forms[which]
        if not isinstance(which, str):
            raise LabError(f"pick a form by its index or name (a str), not {type(which).__name__}")
        for form in self.forms:
            if which in (form.key, form.name):
                return form
        raise LabError(f"no form {which!r} in this round (keys: {', '.join(f.key for f in self.forms)})")

    def __len__(self) -> int:
        return len(self.forms)

    def __iter__(self) -> Iterator[Form]:
        return iter(self.forms)

    def _only(self) -> Form:
        waiting = [f for f in self.forms if f.open] or self.forms
        if len(waiting) != 1:
            keys = ", ".join(repr(f.name) for f in waiting)
            raise LabError(f"this round has {len(waiting)} open forms ({keys}); pick one: panel[NAME]")
        return waiting[0]

    def fill(self, **values: JsonValue) -> Form:
        return self._only().fill(**values)

    def submit(self) -> bool:
        return self._only().submit()

    def decline(self) -> bool:
        return self._only().decline()

    def cancel(self) -> bool:
        return self._only().cancel()

    def submit_all(self, values: Mapping[str, JsonValue] | None = None) -> bool:
        """Submit every open form, but only if all of them are valid (else none is sent).

        `values` (from the browser) maps each form's key to all its field values.
        """
        if values is not None and not isinstance(values, Mapping):
            raise LabError(
                f"submit_all takes a dict of form key -> that form's field values (or nothing), not {type(values).__name__}"
            )
        waiting = [f for f in self.forms if f.open]
        checks = []
        for form in waiting:
            given = values.get(form.key) if values is not None else None
            unsendable = form.take(given, "values are") if isinstance(given, Mapping) and form.open else {}
            response, errors = (None, unsendable) if unsendable else form.check(form.values)
            form.errors = errors
            checks.append((form, response))
        if any(form.errors for form in waiting):
            self.refresh()
            return False
        return all(form.settle("accepted", response=response) for form, response in checks)

    # ---- views -------------------------------------------------------------------------------------------
    def summary(self) -> str:
        lines = [f"round {self.round_index + 1} from {self.server!r}:"]
        lines += [f"  {form.summary()}" for form in self.forms]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.summary()

    def record_html(self) -> str:
        rows = "".join(form.record_html() for form in self.forms)
        title = f"Round {self.round_index + 1} from <b>{html.escape(self.server)}</b>"
        return f"<div class='mcp-lab-round-record'><div>{title}</div>{rows}</div>"

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        bundle: JsonObject = {"text/plain": self.summary(), "text/html": self.record_html()}
        if not self.settled:
            bundle[WIDGET_VIEW_MIME] = widget_view(self.widget)
            bundle[ROUND_MIME] = self.saved_record()
        return bundle

    def saved_record(self) -> JsonObject:
        """The round as a saved notebook keeps it beside the live widget: the questions, nothing typed.

        A notebook saved while the round waits holds a widget view whose model dies with the kernel; the
        labextension draws this record there instead (labextension/src/forms/saved.ts): what was asked,
        and that it was not answered. Values and errors are left out -- a draft is the person's, not the
        notebook's.
        """
        return {**self.record(), "forms": [{**form.record(), "values": {}, "errors": {}} for form in self.forms]}
