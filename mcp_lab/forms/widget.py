"""The round's widget: one anywidget whose front end draws every form of a round and sends answers whole.

Spec: 2026-07-28 multi round-trip requests -- one `InputRequiredResult` may ask several questions, and all
their answers travel together in the retry. Why one custom widget instead of an ipywidget per field
(found by experiment): ipykernel 7.4 dispatches comm messages that arrive while an async cell
awaits without publishing busy/idle for them, and an ipywidgets front end holds back every further `update`
of a model until it sees that idle. A person typing "eu-west-1" into a Text widget therefore sent only "e".
Here the kernel -> front end direction carries the round as one plain record (`round`, state updates are
never held back), and the front end -> kernel direction carries only custom messages, each complete: Submit
sends every value of the form at once. Nothing depends on an acknowledgement while the cell waits.

The front end is labextension/src/forms/ (TypeScript), bundled by the packaging hook into
`static/round.js` and `static/round.css` (not in git; `pip install -e .` builds them).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import anywidget
import traitlets

from mcp_lab.json_types import JsonObject

__all__ = ["STATIC", "RoundWidget", "built"]

STATIC = Path(__file__).resolve().parent / "static"

_NOT_BUILT = """
export default { render({ el }) {
  el.textContent = "mcp_lab's form front end is not built: run `pip install -e .` in the mcp_lab checkout " +
    "(it builds labextension/), or answer headless with mcp_lab.forms.current().fill(...).submit().";
} };
"""


def built() -> bool:
    return (STATIC / "round.js").is_file()


class RoundWidget(anywidget.AnyWidget):  # type: ignore[misc]
    """The live forms of one round; `round` is the RoundRecord the front end draws."""

    _esm = STATIC / "round.js" if built() else _NOT_BUILT
    _css = STATIC / "round.css" if (STATIC / "round.css").is_file() else ""
    round = traitlets.Dict().tag(sync=True)

    def __repr__(self) -> str:
        record: JsonObject = self.round or {}
        flow = record.get("flow")
        flow_id = flow.get("id") if isinstance(flow, Mapping) else None
        return f"<RoundWidget round {record.get('round')} of flow {flow_id}>"
