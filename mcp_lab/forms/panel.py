"""One panel per round: every question a server asked in one InputRequiredResult, shown together.

Spec: 2026-07-28 multi round-trip requests. Independent questions arrive together in one
`InputRequiredResult` (the SDK batches independent resolvers) and all their answers travel together in
the next request's `input_responses`, so the lab shows them as one panel and the round is sent once every
form in it is answered. "Submit all" submits each open form, and only if every one of them is valid.

The panel is displayed once, with a display id; when the last form is answered the display is updated so
its `text/plain` and `text/html` become the record of the whole round (stable text, for nbval and for a
saved notebook) while the widget view shows each form's own record.
"""

from __future__ import annotations

import html
from typing import Any

from mcp_lab.errors import LabError
from mcp_lab.forms.base import Form

__all__ = ["Panel"]


class Panel:
    """The forms of one round of one flow."""

    def __init__(self, server: str, round_index: int) -> None:
        self.server = server
        self.round_index = round_index
        self.forms: list[Form] = []
        self.notice: str | None = None
        """A one-line notice shown above the forms (e.g. that the cell will not wait)."""
        self._widget: Any = None
        self._title: Any = None
        self._submit_all: Any = None
        self.handle: Any = None
        """The IPython DisplayHandle, when the panel was displayed in a cell."""
        self.shown_text: str | None = None
        """The text/plain the display carries now (updated only when the record says something new)."""
        self.revealed = False

    # ---- building --------------------------------------------------------------------------------------
    def add(self, form: Form) -> Form:
        self.forms.append(form)
        form.on_settled(self._settled)
        if self._widget is not None:
            self._refresh()
        return form

    @property
    def widget(self) -> Any:
        if self._widget is None:
            import ipywidgets as W

            self._title = W.HTML("")
            self._submit_all = W.Button(description="Submit all", button_style="primary")
            self._submit_all.on_click(lambda _b: self.submit_all())
            self._widget = W.VBox([])
            self._refresh()
        return self._widget

    def _title_html(self) -> str:
        count = len(self.forms)
        waiting = sum(1 for f in self.forms if f.open)
        state = f"{waiting} waiting" if waiting else "all answered"
        notice = f"<div style='color:#8a5300'>{html.escape(self.notice)}</div>" if self.notice else ""
        return (
            f"{notice}<b>Round {self.round_index + 1}</b>: {count} question{'s' if count != 1 else ''} "
            f"from <b>{html.escape(self.server)}</b> ({state})"
        )

    def _refresh(self) -> None:
        if self._widget is None:
            return
        self._title.value = self._title_html()
        children = [self._title, *(f.widget for f in self.forms)]
        if sum(1 for f in self.forms if f.open) > 1:
            children.append(self._submit_all)
        self._widget.children = tuple(children)

    def _settled(self, form: Form) -> None:
        self._refresh()
        if self.settled and self.handle is not None and self.shown_text != self.summary():
            self.shown_text = self.summary()
            self.handle.update(self)

    @property
    def settled(self) -> bool:
        return bool(self.forms) and not any(f.open for f in self.forms)

    # ---- the headless API --------------------------------------------------------------------------------
    def __getitem__(self, which: int | str) -> Form:
        if isinstance(which, int):
            return self.forms[which]
        for form in self.forms:
            if which in (form.key, form.name):
                return form
        raise LabError(f"no form {which!r} in this round (keys: {', '.join(f.key for f in self.forms)})")

    def __len__(self) -> int:
        return len(self.forms)

    def __iter__(self) -> Any:
        return iter(self.forms)

    def _only(self) -> Form:
        waiting = [f for f in self.forms if f.open] or self.forms
        if len(waiting) != 1:
            keys = ", ".join(repr(f.name) for f in waiting)
            raise LabError(f"this round has {len(waiting)} open forms ({keys}); pick one: panel[NAME]")
        return waiting[0]

    def fill(self, **values: Any) -> Form:
        return self._only().fill(**values)

    def submit(self) -> bool:
        return self._only().submit()

    def decline(self) -> bool:
        return self._only().decline()

    def cancel(self) -> bool:
        return self._only().cancel()

    def submit_all(self) -> bool:
        """Submit every open form, but only if all of them are valid (else none is sent)."""
        waiting = [f for f in self.forms if f.open]
        for form in waiting:
            form.widget  # noqa: B018 -- headless too, the fields live in the widgets
        checks = [(f, f._collect()) for f in waiting]
        problems = False
        for form, (_, errors) in checks:
            form.errors = errors
            form._show_errors(errors)
            problems = problems or bool(errors)
        if problems:
            return False
        return all(form._settle("accepted", response=response) for form, (response, _) in checks)

    # ---- views -------------------------------------------------------------------------------------------
    def summary(self) -> str:
        lines = [f"round {self.round_index + 1} from {self.server!r}:"]
        lines += [f"  {form.summary()}" for form in self.forms]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.summary()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle: dict[str, Any] = dict(self.widget._repr_mimebundle_())
        bundle["text/plain"] = self.summary()
        bundle["text/html"] = "".join(f"<div>{html.escape(line)}</div>" for line in self.summary().splitlines())
        return bundle
