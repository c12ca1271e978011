"""The URL-mode elicitation form: a link the person follows outside the notebook, then reports back.

Spec: elicitation URL mode (`ElicitRequestURLParams`: message + url; new in 2025-11-25, embedded in
`InputRequiredResult` on 2026-07-28). It is meant for what must not pass through the client -- OAuth
consent, payment, credentials. The client shows the URL and the server's reason, never opens it by
itself, and answers `accept` (the person says they finished), `decline` or `cancel`, without content.

The link is clickable only for http(s) URLs and the host is shown on its own, so a look-alike address is
easy to spot; any other scheme is shown as plain text.

A server-side example (a hand-made input request)::

    @mcp.tool()
    async def connect(ctx: Context) -> str | InputRequiredResult:
        if ctx.input_responses is None:
            ask = ElicitRequest(params=ElicitRequestURLParams(message="Authorize the calendar",
                                                              url="https://auth.example.com/start"))
            return InputRequiredResult(input_requests={"consent": ask})
        return f"consent: {ctx.input_responses['consent'].action}"

Headless: `form.submit()` (I've finished), `form.decline()`, `form.cancel()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar
from urllib.parse import urlsplit

import mcp.types as T

from mcp_lab.flow.answers import InputResponse
from mcp_lab.forms.base import Form
from mcp_lab.json_types import JsonValue

__all__ = ["UrlForm", "link_facts"]


def link_facts(url: str) -> dict[str, str]:
    """The link and its host spelled out; an empty host means it is not an http(s) link (not clickable)."""
    parts = urlsplit(url)
    host = parts.hostname or "" if parts.scheme in ("http", "https") else ""
    return {"url": url, "host": host}


class UrlForm(Form):
    """URL-mode elicitation: I've finished / Decline / Cancel."""

    kind: ClassVar[str] = "url elicitation"
    record_kind: ClassVar[str] = "url"
    button_labels: ClassVar[tuple[str, str | None, str | None]] = ("I've finished", "Decline", "Cancel")

    @property
    def url(self) -> str:
        params = self.request.params
        return params.url if isinstance(params, T.ElicitRequestURLParams) else ""

    def link(self) -> dict[str, str] | None:
        return link_facts(self.url)

    def notes(self) -> list[str]:
        notes = ["mcp_lab does not open this link; follow it yourself, then press I've finished."]
        if urlsplit(self.url).scheme == "http":
            notes.insert(0, "This link is not https: what you send there can be read on the way.")
        if not self.link_is_web():
            notes.insert(0, "This is not an http(s) link: it is not clickable.")
        return notes

    def link_is_web(self) -> bool:
        return bool(link_facts(self.url)["host"])

    def check(self, values: Mapping[str, JsonValue]) -> tuple[InputResponse | None, dict[str, str]]:
        return T.ElicitResult(action="accept"), {}

    def finish(self) -> bool:
        """The person followed the link and completed what it asked (the same as `submit()`)."""
        return self.submit()

    def answer_text(self) -> str:
        return f"(finished at {self.url})"
