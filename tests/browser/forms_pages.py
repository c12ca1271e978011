"""Live forms in the real page, driven as a person drives them: shared by the forms' browser tests.

Spec context: a 2026-07-28 `InputRequiredResult` asks the client questions (elicitation, sampling, roots)
that the client answers in the retry of the same request. `echo_notebook` runs a tool that asks one such
question and prints exactly what it received ("RECEIVED ..."), so a test can compare it with what the
screen showed. Every helper types key by key with a human delay (issue 12: only the first keystroke of
each field used to arrive), finds fields by their labels, and waits on what the page shows, never on time.
"""

from __future__ import annotations

import json
import re
from typing import Any

from nbformat.v4 import new_code_cell, new_notebook
from playwright.sync_api import Locator, Page, expect

from tests.browser.harness import Lab
from tests.browser.pages import (
    open_notebook,
    present,
    run_all,
    screenshot,
    wait_cell_running,
    wait_notebook_open,
    write_notebook,
)

DELAY_MS = 80

ECHO_SERVER = """%%mcp_server echo
import json
from typing import Annotated
from mcp.server.mcpserver import Context, ListRoots, Resolve, Sample
from mcp.types import (CreateMessageResult, ElicitRequest, ElicitRequestFormParams, InputRequiredResult,
                       ListRootsResult, SamplingMessage, TextContent)

PROFILE = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 2},
        "age": {"type": "integer", "title": "Age", "minimum": 0, "maximum": 150},
        "height": {"type": "number", "title": "Height in metres"},
        "email": {"type": "string", "format": "email", "title": "Email"},
        "born": {"type": "string", "format": "date", "title": "Born"},
        "plan": {"type": "string", "title": "Plan", "enum": ["free", "team", "enterprise"]},
        "langs": {"type": "array", "title": "Languages", "items": {"type": "string", "enum": ["py", "rs", "go"]}},
        "offers": {"type": "boolean", "title": "Offers"},
    },
    "required": ["name", "age", "email", "plan", "offers"],
}

@mcp.tool()
async def profile(ctx: Context) -> str | InputRequiredResult:
    if ctx.input_responses is None:
        ask = ElicitRequest(params=ElicitRequestFormParams(message="Tell us about you.", requested_schema=PROFILE))
        return InputRequiredResult(input_requests={"ask_profile": ask}, request_state="profile-v1")
    answer = ctx.input_responses["ask_profile"]
    return "RECEIVED " + json.dumps(answer.content, sort_keys=True)

def write_haiku(topic: str) -> Sample:
    prompt = TextContent(type="text", text=f"Write a haiku about {topic}.")
    return Sample([SamplingMessage(role="user", content=prompt)], max_tokens=60, system_prompt="Be brief.")

@mcp.tool()
async def haiku(topic: str, reply: Annotated[CreateMessageResult, Resolve(write_haiku)]) -> str:
    return "RECEIVED " + json.dumps(reply.model_dump(mode="json", by_alias=True, exclude_none=True), sort_keys=True)

def where_to_save() -> ListRoots:
    return ListRoots()

@mcp.tool()
async def save(roots: Annotated[ListRootsResult, Resolve(where_to_save)]) -> str:
    return "RECEIVED " + json.dumps([{"uri": str(r.uri), "name": r.name} for r in roots.roots])"""

CALLS = {
    "profile": 'flow = await mcp_lab.call("echo", "profile", {})\nprint(flow.text)',
    "haiku": 'flow = await mcp_lab.call("echo", "haiku", {"topic": "autumn"})\nprint(flow.text)',
    "save": 'flow = await mcp_lab.call("echo", "save", {})\nprint(flow.text)',
}
AWAITING = 2
"""Index of the code cell that awaits the form (after %load_ext and the server cell)."""


def echo_notebook(tool: str) -> Any:
    cells = [
        new_code_cell("%load_ext mcp_lab\nimport mcp_lab"),
        new_code_cell(ECHO_SERVER),
        new_code_cell(CALLS[tool]),
        new_code_cell('print("next cell ran:", mcp_lab.last().text)'),
    ]
    kernel = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    return new_notebook(cells=cells, metadata={"kernelspec": kernel, "language_info": {"name": "python"}})


# ---- driving a form as a person ---------------------------------------------------------------------


def output_form(page: Page, key: str, cell: int = AWAITING) -> Locator:
    """The live form `key` in the output of code cell `cell`."""
    return page.locator(".jp-Notebook .jp-CodeCell").nth(cell).locator(f'.mcp-lab-form[data-key="{key}"]')


def retype(field: Locator, text: str) -> None:
    """Select what the field holds and type over it, one key at a time."""
    field.click()
    field.press("Control+a")
    field.press("Backspace")
    field.press_sequentially(text, delay=DELAY_MS)


def choose(select: Locator, label: str) -> None:
    """Pick an option of a <select> with the keyboard's help, as `select_option` does for a person's click."""
    select.focus()
    select.select_option(label=label)


def received(page: Page, cell: int = AWAITING) -> Any:
    """The JSON the echo tool says it received, from the cell's printed output."""
    output = page.locator(".jp-Notebook .jp-CodeCell").nth(cell).locator(".jp-OutputArea")
    expect(output).to_contain_text("RECEIVED ")
    match = re.search(r"RECEIVED (.+)", output.inner_text())
    assert match, output.inner_text()
    return json.loads(match.group(1))


def profile_on_screen(form: Locator) -> dict[str, Any]:
    """What the profile form shows right now, as the server should receive it."""
    checked = [
        name
        for name in ("py", "rs", "go")
        if form.get_by_role("group", name="Languages").get_by_label(name).is_checked()
    ]
    offers = form.get_by_role("radiogroup", name="Offers")
    return {
        "name": form.get_by_label("Name", exact=True).input_value(),
        "age": int(form.get_by_label("Age", exact=True).input_value()),
        "height": float(form.get_by_label("Height in metres", exact=True).input_value()),
        "email": form.get_by_label("Email", exact=True).input_value(),
        "born": form.get_by_label("Born", exact=True).input_value(),
        "plan": form.get_by_label("Plan", exact=True).input_value(),
        "langs": checked,
        "offers": True if offers.get_by_label("Yes").is_checked() else offers.get_by_label("No").is_checked() and False,
    }


def error_of(form: Locator, field: str) -> Locator:
    return form.locator(f'.mcp-lab-field[data-field="{field}"] .mcp-lab-field-error')


def fill_profile_with_mistakes(page: Page, form: Locator) -> None:
    """First attempt: a too-short name and a decimal age; everything else right."""
    retype(form.get_by_label("Name", exact=True), "A")
    retype(form.get_by_label("Age", exact=True), "3.5")
    retype(form.get_by_label("Height in metres", exact=True), "1.72")
    retype(form.get_by_label("Email", exact=True), "ada@example.org")
    form.get_by_label("Born", exact=True).focus()  # the month segment; a click could land on any segment
    page.keyboard.type("12101815", delay=DELAY_MS)  # mm dd yyyy, segment by segment (en-US)
    choose(form.get_by_label("Plan", exact=True), "team")
    languages = form.get_by_role("group", name="Languages")
    languages.get_by_label("py").check()
    languages.get_by_label("go").check()
    form.get_by_role("radiogroup", name="Offers").get_by_label("Yes").check()


def correct_profile(form: Locator) -> None:
    """Second attempt: fix the two fields, change the plan and the Yes/No twice each."""
    retype(form.get_by_label("Name", exact=True), "Ada Lovelace")
    retype(form.get_by_label("Age", exact=True), "36")
    choose(form.get_by_label("Plan", exact=True), "enterprise")
    choose(form.get_by_label("Plan", exact=True), "free")
    offers = form.get_by_role("radiogroup", name="Offers")
    offers.get_by_label("No").check()
    offers.get_by_label("Yes").check()
    offers.get_by_label("No").check()


def answer_profile_as_a_person(page: Page, form: Locator, shots: str) -> dict[str, Any]:
    """Type, submit with mistakes, correct, submit; returns what the screen showed at the final Submit."""
    expect(present(form, 30_000)).to_be_visible(timeout=30_000)
    fill_profile_with_mistakes(page, form)
    screenshot(page, f"{shots}-typed.png")
    form.get_by_role("button", name="Submit", exact=True).click()

    expect(error_of(form, "name")).to_be_visible()
    expect(error_of(form, "age")).to_be_visible()
    expect(form.locator(".mcp-lab-form-status")).to_contain_text("Fix the 2 marked fields")
    # The kernel's verdict came back as a new record: nothing typed was lost.
    assert form.get_by_label("Email", exact=True).input_value() == "ada@example.org"
    assert form.get_by_label("Age", exact=True).input_value() == "3.5"
    screenshot(page, f"{shots}-errors.png")

    correct_profile(form)
    shown = profile_on_screen(form)
    form.get_by_role("button", name="Submit", exact=True).click()
    return shown


def run_until_form(page: Page, lab: Lab, notebook: str, tool: str, key: str) -> Locator:
    name = write_notebook(lab, notebook, echo_notebook(tool))
    open_notebook(page, lab, name)
    run_all(page)
    wait_cell_running(page, AWAITING)
    form = output_form(page, key)
    expect(present(form, 30_000)).to_be_visible(timeout=30_000)
    return form


def open_in_notebook7(page: Page, lab: Lab, name: str) -> None:
    """Open `name` in Notebook 7's single-document page (served by the same server as Lab)."""
    page.goto(f"{lab.url}/notebooks/{name}")
    wait_notebook_open(page, name)


PANEL = "#mcp-lab-waiting-questions"


def reload_notebook(page: Page, name: str) -> None:
    """Reload the page as a person would (F5) while the cell still awaits in the kernel."""
    page.reload()
    wait_notebook_open(page, name)


def run_last_cell(page: Page) -> Locator:
    """Run the notebook's last cell (it prints `mcp_lab.last().text`) and return its output area."""
    page.evaluate(
        """() => {
          const notebook = window.jupyterapp.shell.currentWidget.content;
          notebook.activeCellIndex = notebook.widgets.length - 1;
          window.jupyterapp.commands.execute('notebook:run-cell');
        }"""
    )
    return page.locator(".jp-Notebook .jp-CodeCell").last.locator(".jp-OutputArea")
