"""A server's own logging never reaches the cells (issue 14, item 4), in a real kernel.

The server cell does what server modules do: `logging.basicConfig(level=logging.INFO)` on the root logger,
and logs from its tool. Served over HTTP, every call then makes the lab's HTTP client log `HTTP Request:`
lines at INFO. None of it may appear in any later cell; `%mcp_server log NAME` shows it on request.
"""

from __future__ import annotations

from tests.kernel.harness import errors_of, run_cells, text_of

SERVER = """%%mcp_server chatty --http
import logging
logging.basicConfig(level=logging.INFO)
log = logging.getLogger("chatty.tools")
log.info("chatty is starting")

@mcp.tool()
def greet(name: str) -> str:
    log.info("greeting %s", name)
    return f"hello {name}"
"""

CALL = """flow = await %mcp_call chatty greet name=Ada
print(flow.text)"""

PLAIN = """import logging
logging.getLogger("someone.else").warning("a warning of the notebook's own")
logging.getLogger("someone.else").info("an info nobody asked for")
print("done")"""


def test_a_server_that_configures_the_root_logger_leaks_nothing_into_cells() -> None:
    cells = run_cells(
        "%load_ext mcp_lab\nimport mcp_lab",
        SERVER,
        CALL,
        CALL,
        PLAIN,
        "%mcp_server log chatty",
        "print(mcp_lab.server_log('chatty').text.count('HTTP Request:'))",
        "%mcp_server log nobody",
    )
    assert [len(errors_of(c)) for c in cells] == [0, 0, 0, 0, 0, 0, 0, 1]
    assert text_of(cells[2]).strip() == "hello Ada" and text_of(cells[3]).strip() == "hello Ada"
    for cell in cells[1:5]:
        shown = text_of(cell)
        assert "HTTP Request" not in shown and "greeting" not in shown and "chatty is starting" not in shown, shown
    # What printed before the server touched logging still prints (Python's last resort: warnings and up).
    assert "a warning of the notebook's own" in text_of(cells[4]) and "an info nobody" not in text_of(cells[4])
    log = text_of(cells[5])
    assert "configured the root logger (level INFO" in log
    assert "INFO chatty.tools: chatty is starting" in log and "INFO chatty.tools: greeting Ada" in log
    assert "HTTP Request: POST" in log
    assert int(text_of(cells[6]).strip()) >= 2
    assert "no server named 'nobody'" in text_of(cells[7])
