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

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.forms_pages import (
    AWAITING,
    DELAY_MS,
    answer_profile_as_a_person,
    choose,
    echo_notebook,
    error_of,
    open_in_notebook7,
    output_form,
    received,
    retype,
    run_last_cell,
    run_until_form,
)
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


# ---- Notebook 7 -------------------------------------------------------------------------------------------


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


def test_stop_flow_ends_the_wait_in_one_line(lab: Lab, page: Page) -> None:
    form = run_until_form(page, lab, "stop.ipynb", "profile", "ask_profile")
    retype(form.get_by_label("Name", exact=True), "Ada")
    stop = page.locator(".jp-Notebook .jp-CodeCell").nth(AWAITING).get_by_role("button", name="Stop flow")
    stop.click()

    output = page.locator(".jp-Notebook .jp-CodeCell").nth(AWAITING).locator(".jp-OutputArea")
    expect(output).to_contain_text("stopped (Stop flow pressed)", timeout=30_000)
    expect(output).to_contain_text("mcp_lab.last() holds it")
    expect(output).not_to_contain_text("Traceback")
    expect(output.locator(".mcp-lab-form[data-state='open']")).to_have_count(0)  # the live form is gone
    expect(run_last_cell(page)).to_contain_text("next cell ran:", timeout=30_000)
    screenshot(page, "forms-stopped.png")
