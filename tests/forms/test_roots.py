"""The roots editor: the notebook's folder by default, rows added and removed, only file:// URIs sent."""

from __future__ import annotations

import asyncio
from pathlib import Path

import mcp_lab
from mcp_lab.forms import FormAnswerer, Panel, current, prearrange
from mcp_lab.forms.roots import REFUSED, RootsForm, default_roots
from mcp_lab.servers.lab_server import LabServer
from tests.forms.conftest import next_panel


async def roots_form() -> tuple[asyncio.Future[mcp_lab.Flow], Panel, RootsForm]:
    prearrange(write_haiku="a reply")  # the sampling half of `poem` is scripted; the roots are the person's
    before = current()
    task = asyncio.ensure_future(mcp_lab.call("demo", "poem", answers=FormAnswerer()))
    panel = await next_panel(before)
    form = panel["my_roots"]
    assert isinstance(form, RootsForm)
    return task, panel, form


async def test_defaults_to_the_kernels_folder_and_edits_rows(demo: LabServer) -> None:
    task, _, form = await roots_form()
    assert form.rows == default_roots()
    assert default_roots()[0][0] == Path.cwd().as_uri()
    record = form.record()
    assert record["buttons"] == {"submit": "Send", "decline": "Refuse", "cancel": None}
    assert record["fields"][0]["kind"] == "roots"
    # The page adds a row, fills it and removes the first one; Send carries the rows as they stand.
    assert form.submit({"roots": [{"uri": "file:///srv/data", "name": "data"}]})
    flow = await task
    sent = (flow.rounds[1].sent_input_responses or {})["tests.conftest:my_roots"]
    assert sent == {"roots": [{"uri": "file:///srv/data", "name": "data"}]}


async def test_only_file_uris_are_sent(demo: LabServer) -> None:
    task, _, form = await roots_form()
    assert not form.fill(roots=["https://example.org", "file:///ok"]).submit()
    assert form.errors == {"roots": "root 1: 'https://example.org' is not a file:// URI"}
    assert "not a file:// URI" in form.record()["errors"]["roots"] and not task.done()
    assert form.fill(roots=[Path("/tmp"), {"uri": "file:///x", "name": "X"}, ""]).submit()  # an empty row is skipped
    flow = await task
    assert flow.text == "a reply / 2 root(s)"


async def test_refuse_is_an_error_the_flow_records(demo: LabServer) -> None:
    task, _, form = await roots_form()
    assert form.refuse()
    flow = await task
    assert flow.status == "error" and REFUSED in (flow.error or {}).get("message", "")


async def test_filling_nonsense_is_one_clear_error(demo: LabServer) -> None:
    task, _, form = await roots_form()
    for bad in ({"paths": []}, {"roots": "file:///x"}, {"roots": [42]}):
        try:
            form.fill(**bad)
        except mcp_lab.LabError as exc:
            assert "root" in str(exc)
        else:
            raise AssertionError(bad)
    form.cancel()
    assert (await task).status == "error"
