"""Loading the extension twice, or reloading it, leaves one of everything it installs (issue 23 item 2), in a
real kernel: one set of magics, one input transformer, one of each logging hook, one side-panel comm target
-- so every server line the lab shows is shown once. Unloading takes all of it off again; nothing is
installed when a module is imported.
"""

from __future__ import annotations

import json

from mcp_lab.servers.server_log import HANDLER_LOGGERS
from tests.kernel.harness import errors_of, run_cells, text_of

CENSUS = """import json, logging, signal, warnings
from mcp_lab.magics.await_line import await_magic_transformer
from mcp_lab.servers.logging_hooks import REQUEST_STATE_LOGGER, LegLogSink
from mcp_lab.servers.sdk_notices import DUPLICATE_LOGGERS, DuplicateNotice, ServerWarnings
from mcp_lab.servers.server_log import HANDLER_LOGGERS, HandlerErrorFilter

def census():
    shell = get_ipython()
    state = logging.getLogger(REQUEST_STATE_LOGGER)
    wrapped, show = 0, warnings.showwarning
    while isinstance(show, ServerWarnings):
        wrapped, show = wrapped + 1, show.previous
    manager = shell.kernel.comm_manager
    wakeup_fd = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(wakeup_fd)
    return {
        "sinks": sum(isinstance(h, LegLogSink) for h in state.handlers),
        "propagate": state.propagate,
        "error_filters": [sum(isinstance(f, HandlerErrorFilter) for f in logging.getLogger(n).filters) for n in HANDLER_LOGGERS],
        "duplicate_filters": [sum(isinstance(f, DuplicateNotice) for f in logging.getLogger(n).filters) for n in DUPLICATE_LOGGERS],
        "showwarning_wraps": wrapped,
        "transformers": shell.input_transformers_cleanup.count(await_magic_transformer),
        "magics": sorted(n for n in shell.magics_manager.magics["line"] if n.startswith("mcp_")),
        "comm_target": "mcp_lab.waiting" in manager.targets,
        "wakeup_fd": wakeup_fd != -1,
    }
"""

QUIZ = """%%mcp_server quiz
from typing import Annotated
from pydantic import BaseModel
from mcp.server.mcpserver import Elicit, Resolve

class Region(BaseModel):
    region: str

async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(message="Which region?", schema=Region)

@mcp.tool()
async def where(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
    return f"{city} in {region.region}"

@mcp.tool()
def boom() -> str:
    raise ValueError("kaboom")
"""

# A notebook's own handler on the SDK's logger, added once: the lab hands it each record once however often
# the extension was (re)loaded, and keeps the traceback off the cell.
OWN_HANDLER = """class OneLine(logging.Handler):
    def emit(self, record):
        print(f"[server log] {record.getMessage()}")

logging.getLogger("mcp.server").addHandler(OneLine())
logging.getLogger("mcp.server").propagate = False
"""

REFUSED = """f = await mcp_lab.start("quiz", "tools/call", "where", {"city": "Rome"})
await f.step()
await mcp_lab.sandbox.restart("quiz")  # a new key: the token sealed before no longer opens
f = await mcp_lab.resume(f, answers={"ask_region": {"region": "eu"}})
print(f.status, json.dumps(f.rounds[-1].server_log))
"""

BOOM = """b = await mcp_lab.call("quiz", "boom")
print(b.status, json.dumps(b.rounds[-1].server_log))
"""

# Unloading leaves no hook; a script-like leg (no extension loaded) installs only the legs' hooks.
AFTER_UNLOAD = """print(json.dumps(census()))
b = await mcp_lab.call("quiz", "boom")
print(json.dumps(census()))
print(b.status, json.dumps(b.rounds[-1].server_log))
"""

ONCE = {
    "sinks": 1,
    "propagate": False,
    "error_filters": [1] * len(HANDLER_LOGGERS),
    "duplicate_filters": [1, 1, 1],
    "showwarning_wraps": 1,
    "transformers": 1,
    "comm_target": True,
    "wakeup_fd": True,
}


def census_of(cell: dict[str, object]) -> list[dict[str, object]]:
    return [json.loads(line) for line in text_of(cell).splitlines() if line.startswith("{")]


def test_reloading_the_extension_installs_everything_once_and_unloading_removes_it() -> None:
    cells = run_cells(
        "import mcp_lab, logging, warnings, json\n" + CENSUS,  # 0: imported, not loaded: nothing installed
        "print(json.dumps(census()))",  # 1
        "%load_ext mcp_lab",  # 2
        "%load_ext mcp_lab",  # 3: already loaded (IPython says so)
        "%reload_ext mcp_lab",  # 4
        "%reload_ext mcp_lab",  # 5
        "print(json.dumps(census()))",  # 6
        QUIZ,  # 7
        OWN_HANDLER,  # 8
        REFUSED,  # 9
        BOOM,  # 10
        "%reload_ext mcp_lab",  # 11
        BOOM,  # 12: after one more reload: still once
        "%unload_ext mcp_lab",  # 13
        AFTER_UNLOAD,  # 14
        "%mcp_call quiz boom",  # 15: the magics are gone
        "%load_ext mcp_lab\nprint(json.dumps(census()))",  # 16: loading again puts one of each back
        timeout=180,
    )
    assert [len(errors_of(c)) for c in cells[:15]] == [0] * 15, [text_of(c) for c in cells if errors_of(c)]
    (before,) = census_of(cells[1])
    assert before["sinks"] == 0 and before["error_filters"] == [0] * len(HANDLER_LOGGERS) and before["transformers"] == 0
    assert before["showwarning_wraps"] == 0 and before["magics"] == [] and before["comm_target"] is False
    assert before["wakeup_fd"] is False
    assert "already loaded" in text_of(cells[3])
    (loaded,) = census_of(cells[6])
    assert {k: v for k, v in loaded.items() if k != "magics"} == ONCE
    assert {"mcp_call", "mcp_connect", "mcp_server", "mcp_audit"} <= set(loaded["magics"])  # type: ignore[arg-type]

    status, log = text_of(cells[9]).strip().rsplit("\n", 1)[-1].split(" ", 1)
    reasons = json.loads(log)
    assert status == "error" and len(reasons) == 1 and "unknown key" in reasons[0], text_of(cells[9])
    for cell in (cells[10], cells[12]):
        shown = text_of(cell)
        # The notebook's own handler printed the SDK's record once; the leg kept the reason once; no traceback.
        assert shown.count("[server log]") == 1 and "Traceback" not in shown, shown
        assert shown.strip().endswith('error ["ValueError: kaboom"]'), shown

    unloaded, after_leg = census_of(cells[14])
    assert unloaded["sinks"] == 0 and unloaded["error_filters"] == [0] * len(HANDLER_LOGGERS) and unloaded["propagate"] is True
    assert unloaded["duplicate_filters"] == [0, 0, 0] and unloaded["showwarning_wraps"] == 0
    assert unloaded["transformers"] == 0 and unloaded["magics"] == [] and unloaded["comm_target"] is False
    # The signal waker (flow/waking.py) comes off with the extension; without it, a guarded flow sets it up.
    assert unloaded["wakeup_fd"] is False and after_leg["wakeup_fd"] is True
    # A lab leg without the extension (as a CLI or a script runs one) puts on the legs' hooks only, once.
    assert after_leg["sinks"] == 1 and after_leg["error_filters"] == [1] * len(HANDLER_LOGGERS)
    assert after_leg["duplicate_filters"] == [0, 0, 0] and after_leg["showwarning_wraps"] == 0
    assert text_of(cells[14]).strip().endswith('error ["ValueError: kaboom"]')
    assert "UsageError" in text_of(cells[15]) or "not found" in text_of(cells[15]), text_of(cells[15])
    (again,) = census_of(cells[16])
    assert {k: v for k, v in again.items() if k != "magics"} == ONCE
