"""The HTML fallbacks' shared look: JupyterLab's CSS variables, left-aligned tables, no mid-token wrapping.

Why: the HTML fallback is what a person sees wherever the labextension is absent (nbconvert, other
frontends, JupyterLab without the extension). It must read in both JupyterLab themes: colours come from
JupyterLab's variables (with light-theme fallbacks elsewhere), coloured text uses the strong variant of a
colour in the light theme and the pale one in the dark theme (`body[data-jp-theme-light=false]`), so text
keeps at least 4.5:1 contrast on the output background in both. Header values, key ids and status codes
never wrap in the middle (`white-space: nowrap`); long values (tokens, bodies) scroll instead.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Protocol, TypeAlias

from mcp_lab.json_types import JsonValue

__all__ = ["STYLE", "WIDGET_VIEW_MIME", "MimeBundle", "code", "e", "table", "table_row", "tone", "widget_view"]

WIDGET_VIEW_MIME = "application/vnd.jupyter.widget-view+json"

MimeBundle: TypeAlias = "dict[str, JsonValue]"
"""What `_repr_mimebundle_` returns: mime type -> text (plain, HTML) or a JSON record."""


class _Widget(Protocol):
    @property
    def model_id(self) -> str: ...

_LIGHT = (
    "--mcp-lab-ok:var(--jp-success-color0,#1b5e20);--mcp-lab-err:var(--jp-error-color0,#b71c1c);"
    "--mcp-lab-warn:color-mix(in srgb,var(--jp-warn-color0,#e65100) 70%,black);"
    "--mcp-lab-mark:var(--jp-layout-color2,#eee)"
)
_DARK = (
    "--mcp-lab-ok:var(--jp-success-color2,#81c784);--mcp-lab-err:var(--jp-error-color3,#ffcdd2);"
    "--mcp-lab-warn:var(--jp-warn-color2,#ffb74d);--mcp-lab-mark:var(--jp-layout-color2,#424242)"
)
STYLE = (
    "<style>"
    f".mcp-lab-html{{{_LIGHT};color:var(--jp-content-font-color1,rgba(0,0,0,.87));"
    "font-family:var(--jp-ui-font-family,sans-serif);font-size:var(--jp-ui-font-size1,13px);overflow-x:auto}"
    f"body[data-jp-theme-light='false'] .mcp-lab-html{{{_DARK}}}"
    ".mcp-lab-html table{border-collapse:collapse;margin:4px 0;width:auto}"
    ".mcp-lab-html th,.mcp-lab-html td{text-align:left !important;vertical-align:top;padding:2px 8px;"
    "border-bottom:1px solid var(--jp-border-color2,#e0e0e0);background:transparent;color:inherit}"
    ".mcp-lab-html caption{text-align:left;font-weight:600;padding:2px 0}"
    ".mcp-lab-html code{font-family:var(--jp-code-font-family,monospace);white-space:nowrap !important;color:inherit;"
    "background:transparent}"
    ".mcp-lab-html pre{white-space:pre;overflow:auto;max-height:20em;margin:2px 0;padding:4px;"
    "background:var(--jp-layout-color2,#eee);color:var(--jp-content-font-color1,rgba(0,0,0,.87))}"
    ".mcp-lab-html .mcp-lab-long{display:block;max-width:60em;overflow-x:auto;white-space:nowrap}"
    # Values that must not widen their table (a long claim hid the meaning column): wrap anywhere.
    ".mcp-lab-html code.mcp-lab-wrap{white-space:pre-wrap !important;overflow-wrap:anywhere}"
    ".mcp-lab-html .mcp-lab-ok{color:var(--mcp-lab-ok)}"
    ".mcp-lab-html .mcp-lab-err{color:var(--mcp-lab-err)}"
    ".mcp-lab-html .mcp-lab-warn{color:var(--mcp-lab-warn)}"
    ".mcp-lab-html .mcp-lab-mcp{background:var(--mcp-lab-mark)}"
    # Lab's font-color2 (54%) falls just under 4.5:1 on a marked row; two thirds of color0 does not.
    ".mcp-lab-html .mcp-lab-muted{color:color-mix(in srgb,var(--jp-content-font-color0,#000) 66%,transparent)}"
    ".mcp-lab-html details{margin:2px 0}.mcp-lab-html summary{cursor:pointer}"
    "</style>"
)


def e(value: object) -> str:
    return html.escape(value if isinstance(value, str) else str(value))


def code(value: object, cls: str = "") -> str:
    attr = f" class='{cls}'" if cls else ""
    return f"<code{attr}>{e(value)}</code>"


def tone(kind: str, text: object) -> str:
    """Text in a status colour: ok, err or warn (the mark, not only the colour, carries the meaning)."""
    return f"<span class='mcp-lab-{kind}'>{e(text)}</span>" if kind else e(text)


def table_row(*cells: str, cls: str = "", span: int = 1) -> str:
    """One table row of data cells, each already HTML; `span` > 1: the last cell spans that many columns (a
    message or a detail under the row's first cells)."""
    attr = f" class='{cls}'" if cls else ""
    last = len(cells) - 1
    spans = [f" colspan='{span}'" if i == last and span > 1 else "" for i in range(len(cells))]
    return f"<tr{attr}>" + "".join(f"<td{s}>{cell}</td>" for s, cell in zip(spans, cells, strict=True)) + "</tr>"


def table(head: Iterable[str], rows: Iterable[str], *, caption: str = "", cls: str = "") -> str:
    """The one HTML table of the fallbacks: an optional caption (HTML), a header row (cells already HTML; none
    for a table of name/value rows) and the body's rows (`table_row(...)`)."""
    attr = f" class='{cls}'" if cls else ""
    top = f"<caption>{caption}</caption>" if caption else ""
    heads = "".join(f"<th>{cell}</th>" for cell in head)
    thead = f"<thead><tr>{heads}</tr></thead>" if heads else ""
    return f"<table{attr}>{top}{thead}<tbody>{''.join(rows)}</tbody></table>"


def wrap(body: str, cls: str) -> str:
    """One view's HTML: the shared style and the `mcp-lab-html` root every rule hangs from."""
    return f"{STYLE}<div class='mcp-lab-html {cls}'>{body}</div>"


def widget_view(widget: _Widget) -> dict[str, JsonValue]:
    """The `application/vnd.jupyter.widget-view+json` payload that displays `widget` (an ipywidget).

    Written out rather than unpacked from `widget._repr_mimebundle_()`, whose shape changed: ipywidgets 7
    returned `(data, metadata)`, 8.1 returns the data alone (a tuple unpacking of it was a TypeError).
    The payload is the model id with the widget-view format's version, all a front end needs.
    """
    return {"version_major": 2, "version_minor": 0, "model_id": widget.model_id}
