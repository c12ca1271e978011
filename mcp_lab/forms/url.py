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

import html
from typing import Any, ClassVar
from urllib.parse import urlsplit

import mcp.types as T

from mcp_lab.answers import InputResponse
from mcp_lab.forms.base import Form

__all__ = ["UrlForm", "link_html"]


def link_html(url: str) -> str:
    """A link that opens only when the person clicks it (in a new tab), with the host spelled out."""
    parts = urlsplit(url)
    shown = html.escape(url)
    if parts.scheme in ("http", "https") and parts.hostname:
        host = html.escape(parts.hostname)
        warn = "" if parts.scheme == "https" else " <b style='color:#b00'>(not https)</b>"
        return (
            f'<a href="{shown}" target="_blank" rel="noopener noreferrer">{shown}</a>'
            f"<br><small>host: <b>{host}</b>{warn}</small>"
        )
    return f"<code>{shown}</code><br><small><b style='color:#b00'>not an http(s) link: not clickable</b></small>"


class UrlForm(Form):
    """URL-mode elicitation: I've finished / Decline / Cancel."""

    kind: ClassVar[str] = "url elicitation"
    button_labels: ClassVar[tuple[str, str, str]] = ("I've finished", "Decline", "Cancel")

    @property
    def url(self) -> str:
        params = self.request.params
        return params.url if isinstance(params, T.ElicitRequestURLParams) else ""

    def message_html(self) -> str:
        return (
            f"{super().message_html()}<div style='margin-top:4px'>{link_html(self.url)}</div>"
            "<small>mcp_lab does not open this link; follow it yourself, then press I've finished.</small>"
        )

    def _collect(self) -> tuple[InputResponse | None, dict[str, str]]:
        return T.ElicitResult(action="accept"), {}

    def finish(self) -> bool:
        """The person followed the link and completed what it asked (the same as `submit()`)."""
        return self.submit()

    def answer_text(self) -> str:
        return f"(finished at {self.url})"

    def _build(self) -> list[Any]:
        return []
