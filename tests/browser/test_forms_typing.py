"""What a person types into a live form is exactly what the server receives, in JupyterLab and Notebook 7.

Spec context: a 2026-07-28 `InputRequiredResult` asks the client questions (elicitation, sampling, roots);
the client answers them in the retry of the same request. Issue 12: with one ipywidget per field, only the
first keystroke of each field reached the kernel while the cell awaited (ipykernel 7.4 sends no idle for
comm messages during an awaiting cell, and ipywidgets holds every later update back). The forms are now one
anywidget per round whose front end sends ALL values in ONE message. These tests act as a person: they type
character by character with a human delay, submit once with mistakes, correct them, change a choice and a
Yes/No twice, and compare what the tool says it received with what the screen showed.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from nbformat.v4 import new_code_cell, new_notebook
from playwright.sync_api import Locator, Page, expect

from tests.browser.harness import Lab
from tests.browser.pages import (
    open_notebook,
    run_all,
    screenshot,
    wait_cell_running,
    wait_cells_finished,
    write_notebook,
)

pytestmark = pytest.mark.browser

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


# ---- driving a form as a person -------------------------------------------------------------------------


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
    expect(form).to_be_visible(timeout=30_000)
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


def test_a_typed_profile_arrives_whole_in_jupyterlab(lab: Lab, page: Page) -> None:
    name = write_notebook(lab, "profile_lab.ipynb", echo_notebook("profile"))
    open_notebook(page, lab, name)
    run_all(page)
    wait_cell_running(page, AWAITING)

    shown = answer_profile_as_a_person(page, output_form(page, "ask_profile"), "forms-profile-lab")

    state = wait_cells_finished(page)
    assert state[-1]["prompt"].startswith("["), state
    assert received(page) == shown
    assert shown == {
        "name": "Ada Lovelace",
        "age": 36,
        "height": 1.72,
        "email": "ada@example.org",
        "born": "1815-12-10",
        "plan": "free",
        "langs": ["py", "go"],
        "offers": False,
    }
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    expect(notebook).not_to_contain_text("Error displaying widget")
    expect(notebook).not_to_contain_text("model not found")
    expect(page.locator(".jp-Notebook .jp-CodeCell").last.locator(".jp-OutputArea")).to_contain_text("next cell ran")
    screenshot(page, "forms-profile-lab-answered.png")


def run_until_form(page: Page, lab: Lab, notebook: str, tool: str, key: str) -> Locator:
    name = write_notebook(lab, notebook, echo_notebook(tool))
    open_notebook(page, lab, name)
    run_all(page)
    wait_cell_running(page, AWAITING)
    form = output_form(page, key)
    expect(form).to_be_visible(timeout=30_000)
    return form


def test_a_typed_sampling_reply_arrives_whole(lab: Lab, page: Page) -> None:
    form = run_until_form(page, lab, "haiku.ipynb", "haiku", "__main__:write_haiku")
    expect(form).to_contain_text("Write a haiku about autumn.")
    expect(form).to_contain_text("Be brief.")
    reply = form.get_by_label("Reply", exact=True)
    reply.click()
    reply.press_sequentially("Red leaves drift and fall\nthe pond keeps every one", delay=DELAY_MS // 2)
    retype(form.get_by_label("Model", exact=True), "ada-typist")
    choose(form.get_by_label("Stop reason", exact=True), "maxTokens")
    choose(form.get_by_label("Stop reason", exact=True), "endTurn")
    shown = {
        "content": {"type": "text", "text": reply.input_value()},
        "model": form.get_by_label("Model", exact=True).input_value(),
        "role": "assistant",
        "stopReason": form.get_by_label("Stop reason", exact=True).input_value(),
    }
    screenshot(page, "forms-sampling-typed.png")
    form.get_by_role("button", name="Send", exact=True).click()

    wait_cells_finished(page)
    got = received(page)
    assert {k: got.get(k) for k in shown} == shown
    assert shown["content"]["text"] == "Red leaves drift and fall\nthe pond keeps every one"


def test_a_typed_roots_list_arrives_whole(lab: Lab, page: Page) -> None:
    form = run_until_form(page, lab, "roots.ipynb", "save", "__main__:where_to_save")
    uris = form.get_by_label("URI", exact=True)
    expect(uris).to_have_count(1)  # the kernel's default: the notebook's folder
    form.get_by_role("button", name="Remove root 1").click()
    expect(uris).to_have_count(0)
    form.get_by_role("button", name="Add root").click()
    page.keyboard.type("file:///srv/data", delay=DELAY_MS // 2)  # the new row's URI has the focus
    form.get_by_label("Name", exact=True).nth(0).press_sequentially("data", delay=DELAY_MS // 2)
    form.get_by_role("button", name="Add root").click()
    page.keyboard.type("https://example.org/notes", delay=DELAY_MS // 2)
    form.get_by_role("button", name="Send", exact=True).click()

    error = error_of(form, "roots")
    expect(error).to_contain_text("not a file:// URI")
    screenshot(page, "forms-roots-error.png")
    retype(uris.nth(1), "file:///home/ada/notes")
    shown = [
        {"uri": uris.nth(i).input_value(), "name": form.get_by_label("Name", exact=True).nth(i).input_value() or None}
        for i in range(uris.count())
    ]
    uris.nth(1).press("Enter")  # Enter in a single-line field submits its form

    wait_cells_finished(page)
    assert received(page) == shown
    assert shown == [{"uri": "file:///srv/data", "name": "data"}, {"uri": "file:///home/ada/notes", "name": None}]


# ---- a reload while a form waits: the side panel -----------------------------------------------------------

PANEL = "#mcp-lab-waiting-questions"


def reload_notebook(page: Page, name: str) -> None:
    """Reload the page as a person would (F5) while the cell still awaits in the kernel."""
    page.reload()
    page.wait_for_function(
        """name => {
          const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
          return !!panel && !!panel.context && panel.context.path === name && panel.context.isReady;
        }""",
        arg=name,
    )


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


def test_after_a_reload_the_side_panel_answers_the_waiting_form(lab: Lab, page: Page) -> None:
    form = run_until_form(page, lab, "reload_answer.ipynb", "profile", "ask_profile")
    retype(form.get_by_label("Name", exact=True), "Ada")
    reload_notebook(page, "reload_answer.ipynb")

    # Nobody asked for it: the plugin found the waiting round when the page reconnected to the kernel.
    panel = page.locator(PANEL)
    expect(panel).to_be_visible(timeout=30_000)
    expect(panel.locator(".mcp-lab-waiting-status")).to_contain_text("One round waits")
    waiting = panel.locator('.mcp-lab-form[data-key="ask_profile"]')
    # What was typed before the reload came back too: the pending draft was sent as the page went away.
    expect(waiting.get_by_label("Name", exact=True)).to_have_value("Ada")
    screenshot(page, "forms-panel-after-reload.png")
    shown = answer_profile_as_a_person(page, waiting, "forms-panel")

    expect(panel.locator(".mcp-lab-waiting-status")).to_contain_text("No question is waiting")
    expect(panel.locator(".mcp-lab-form-record")).to_contain_text("ask_profile")  # what was just sent
    output = run_last_cell(page)
    expect(output).to_contain_text("next cell ran: RECEIVED ", timeout=30_000)
    match = re.search(r"RECEIVED (.+)", output.inner_text())
    assert match and json.loads(match.group(1)) == shown
    output.scroll_into_view_if_needed()
    screenshot(page, "forms-panel-answered.png")


def test_after_a_reload_a_command_cancels_every_waiting_flow(lab: Lab, page: Page) -> None:
    run_until_form(page, lab, "reload_cancel.ipynb", "profile", "ask_profile")
    reload_notebook(page, "reload_cancel.ipynb")
    panel = page.locator(PANEL)
    expect(panel.locator('.mcp-lab-form[data-key="ask_profile"]')).to_be_visible(timeout=30_000)

    # The command palette, as a person reaches it: Ctrl+Shift+C, type, Enter.
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").click()
    page.keyboard.press("Control+Shift+C")
    palette = page.locator("#command-palette input")
    expect(palette).to_be_focused()
    palette.press_sequentially("Cancel every waiting", delay=DELAY_MS // 2)
    expect(page.locator("#command-palette .lm-CommandPalette-item").first).to_contain_text(
        "MCP Lab: Cancel every waiting flow"
    )
    page.keyboard.press("Enter")

    expect(panel.locator(".mcp-lab-waiting-status")).to_contain_text("No question is waiting")
    output = run_last_cell(page)
    expect(output).to_contain_text("next cell ran:", timeout=30_000)
    screenshot(page, "forms-panel-cancelled.png")


# ---- Notebook 7 -------------------------------------------------------------------------------------------


def open_in_notebook7(page: Page, lab: Lab, name: str) -> None:
    """Open `name` in Notebook 7's single-document page (served by the same server as Lab)."""
    page.goto(f"{lab.url}/notebooks/{name}")
    page.wait_for_function(
        """name => {
          const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
          return !!panel && !!panel.context && panel.context.path === name && panel.context.isReady;
        }""",
        arg=name,
    )


def test_a_typed_profile_arrives_whole_in_notebook7(lab: Lab, page: Page) -> None:
    ours: list[str] = []
    # Notebook 7.6.5 itself throws one "reading 'schema'" TypeError while loading (also with mcp_lab's
    # extension disabled); only errors from our code -- the plugin, or the form's ESM, loaded from a blob --
    # count here.
    page.on(
        "pageerror",
        lambda error: ours.append(str(error.stack)) if re.search(r"mcp-lab|mcp_lab|blob:", str(error.stack)) else None,
    )
    name = write_notebook(lab, "profile_nb7.ipynb", echo_notebook("profile"))
    open_in_notebook7(page, lab, name)
    run_all(page)
    wait_cell_running(page, AWAITING)

    shown = answer_profile_as_a_person(page, output_form(page, "ask_profile"), "forms-profile-nb7")

    wait_cells_finished(page)
    assert received(page) == shown
    expect(page.locator(".jp-Notebook")).not_to_contain_text("Error displaying widget")
    assert not ours, ours
    screenshot(page, "forms-profile-nb7-answered.png")


def test_notebook7_shows_the_waiting_form_again_after_a_reload(lab: Lab, page: Page) -> None:
    name = write_notebook(lab, "reload_nb7.ipynb", echo_notebook("profile"))
    open_in_notebook7(page, lab, name)
    run_all(page)
    wait_cell_running(page, AWAITING)
    expect(output_form(page, "ask_profile")).to_be_visible(timeout=30_000)
    page.reload()
    panel = page.locator(PANEL)
    expect(panel.locator('.mcp-lab-form[data-key="ask_profile"]')).to_be_visible(timeout=30_000)
    screenshot(page, "forms-panel-nb7-after-reload.png")

    panel.get_by_role("button", name="Cancel every waiting flow").click()
    expect(panel.locator(".mcp-lab-waiting-status")).to_contain_text("No question is waiting")
    expect(panel.locator(".mcp-lab-form-record.mcp-lab-not-ok")).to_contain_text("ask_profile")
    expect(run_last_cell(page)).to_contain_text("next cell ran:", timeout=30_000)


# ---- reading well: contrast in both themes, a visible focus ring ------------------------------------------

# Every visible text in `root`, with its colour composited over the backgrounds it sits on, and the contrast
# ratio of WCAG 2 (relative luminance). Colours are resolved by a canvas, which reads any CSS colour syntax
# (rgba(), color(srgb ...) from color-mix(), ...). Placeholders are measured as text on their input.
_CONTRAST_JS = """root => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const rgba = color => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = 'rgba(0, 0, 0, 0)';
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const over = (top, bottom) => [0, 1, 2].map(i => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const background = node => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) { layers.push(c); }
      if (c[3] >= 1) { break; }
    }
    return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255, 1]);
  };
  const luminance = c => {
    const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (fg, bg) => {
    const [a, b] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  };
  const rows = [];
  const measure = (node, text, color) => {
    const bg = background(node);
    const fg = over(rgba(color), bg);
    rows.push({ text: text.slice(0, 40), ratio: Math.round(ratio(fg, bg) * 100) / 100, color, bg: bg.join(',') });
  };
  for (const node of root.querySelectorAll('*')) {
    if (!node.getClientRects().length) { continue; }
    const own = [...node.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent.trim()).join(' ');
    if (own) { measure(node, own, getComputedStyle(node).color); }
    if ((node.tagName === 'INPUT' || node.tagName === 'TEXTAREA') && node.placeholder && !node.value) {
      measure(node, `placeholder: ${node.placeholder}`, getComputedStyle(node, '::placeholder').color);
    }
    if ((node.tagName === 'INPUT' || node.tagName === 'TEXTAREA') && node.value && node.type !== 'checkbox' && node.type !== 'radio') {
      measure(node, `value: ${node.value}`, getComputedStyle(node).color);
    }
  }
  return rows;
}"""


def low_contrast(page: Page, selector: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for handle in page.locator(selector).element_handles():
        rows += handle.evaluate(_CONTRAST_JS)
    assert rows, f"nothing measured under {selector}"
    return [row for row in rows if row["ratio"] < 4.5]


def set_theme(page: Page, theme: str, light: bool) -> None:
    page.evaluate(f"() => {{ window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{theme}'}}); }}")
    page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{str(light).lower()}'")


def test_forms_read_well_in_the_light_and_dark_themes(lab: Lab, page: Page) -> None:
    form = run_until_form(page, lab, "themes.ipynb", "profile", "ask_profile")
    fill_profile_with_mistakes(page, form)
    form.get_by_role("button", name="Submit", exact=True).click()
    expect(error_of(form, "age")).to_be_visible()
    # The same round in the side panel too (its background differs from the cell's).
    page.evaluate("() => { window.jupyterapp.commands.execute('mcp-lab:show-waiting'); }")
    panel = page.locator(PANEL)
    expect(panel.locator('.mcp-lab-form[data-key="ask_profile"]')).to_be_visible()
    try:
        for theme, light in (("JupyterLab Light", True), ("JupyterLab Dark", False)):
            set_theme(page, theme, light)
            expect(error_of(form, "age")).to_be_visible()
            assert low_contrast(page, ".jp-CodeCell .mcp-lab-forms") == [], theme
            assert low_contrast(page, f"{PANEL}") == [], theme
            # Keyboard focus on a button draws a ring.
            form.get_by_role("button", name="Decline").focus()
            page.keyboard.press("Shift+Tab")
            page.keyboard.press("Tab")
            ring = form.get_by_role("button", name="Decline").evaluate(
                "b => { const s = getComputedStyle(b); return [s.outlineStyle, s.outlineWidth]; }"
            )
            assert ring[0] != "none" and ring[1] != "0px", (theme, ring)
            screenshot(page, f"forms-{'light' if light else 'dark'}-errors.png")
    finally:
        set_theme(page, "JupyterLab Light", True)  # the theme is a user setting: leave Lab as it was
